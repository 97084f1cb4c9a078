"""A JSON document checked against a JSON Schema (draft 2020-12): with the ``jsonschema``
package when it is installed, else with :func:`check`, which reads the keywords pydantic
writes (and refuses a schema with any other, so that none is skipped unread)."""

from __future__ import annotations

import re
from typing import Any

KNOWN = {
    # what a value must be
    "$ref", "anyOf", "oneOf", "allOf", "type", "enum", "const", "properties", "required",
    "additionalProperties", "patternProperties", "items", "prefixItems", "minItems",
    "maxItems", "pattern", "minLength", "maxLength", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum",
    # what is said of it
    "$schema", "$defs", "title", "description", "default", "discriminator", "examples",
}  # fmt: skip

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def errors(value: Any, schema: dict[str, Any], root: dict[str, Any], at: str = "$") -> list[str]:
    """What is wrong with ``value`` under ``schema`` (``$ref`` read in ``root``), each with
    where: an empty list when it is valid."""
    unknown = set(schema) - KNOWN
    if unknown:
        raise AssertionError(f"{at}: keywords this check does not read: {sorted(unknown)}")
    out: list[str] = []
    if "$ref" in schema:
        ref = schema["$ref"]
        assert ref.startswith("#/"), ref
        target: Any = root
        for part in ref[2:].split("/"):
            target = target[part]
        out += errors(value, target, root, at)
    for sub in schema.get("allOf", []):
        out += errors(value, sub, root, at)
    if "anyOf" in schema or "oneOf" in schema:
        choices = schema.get("anyOf", schema.get("oneOf"))
        fits = [not errors(value, sub, root, at) for sub in choices]
        if "oneOf" in schema and sum(fits) != 1:
            out.append(f"{at}: fits {sum(fits)} of the oneOf's {len(choices)} schemas, not 1")
        elif not any(fits):
            out.append(f"{at}: fits none of {len(choices)} schemas")
    kind = schema.get("type")
    if kind is not None:
        kinds = kind if isinstance(kind, list) else [kind]
        if not any(TYPES[k](value) for k in kinds):
            return [*out, f"{at}: {value!r} is not {kind}"]
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{at}: {value!r} is not one of {schema['enum']}")
    if "const" in schema and value != schema["const"]:
        out.append(f"{at}: {value!r} is not {schema['const']!r}")
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            out.append(f"{at}: {value!r} does not match {schema['pattern']}")
        if len(value) < schema.get("minLength", 0) or len(value) > schema.get(
            "maxLength", len(value)
        ):
            out.append(f"{at}: {value!r} is not of the length allowed")
    if TYPES["number"](value):
        if "minimum" in schema and value < schema["minimum"]:
            out.append(f"{at}: {value} < {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            out.append(f"{at}: {value} > {schema['maximum']}")
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            out.append(f"{at}: {value} <= {schema['exclusiveMinimum']}")
        if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
            out.append(f"{at}: {value} >= {schema['exclusiveMaximum']}")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        patterns = schema.get("patternProperties", {})
        for name in schema.get("required", []):
            if name not in value:
                out.append(f"{at}: {name!r} is missing")
        for name, item in value.items():
            where = f"{at}.{name}"
            matched = False
            if name in props:
                matched = True
                out += errors(item, props[name], root, where)
            for pattern, sub in patterns.items():
                if re.search(pattern, name):
                    matched = True
                    out += errors(item, sub, root, where)
            extra = schema.get("additionalProperties", True)
            if not matched:
                if extra is False:
                    out.append(f"{at}: {name!r} is not a field here")
                elif isinstance(extra, dict):
                    out += errors(item, extra, root, where)
    if isinstance(value, list):
        first = schema.get("prefixItems", [])
        for i, (item, sub) in enumerate(zip(value, first, strict=False)):
            out += errors(item, sub, root, f"{at}[{i}]")
        if "items" in schema:
            for i, item in enumerate(value[len(first) :], start=len(first)):
                out += errors(item, schema["items"], root, f"{at}[{i}]")
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get(
            "maxItems", len(value)
        ):
            out.append(f"{at}: {len(value)} items, not as many as allowed")
    return out


def validate(value: Any, schema: dict[str, Any], ref: str | None = None, where: str = "$") -> None:
    """Raise ``AssertionError`` unless ``value`` (named ``where``) is valid under ``schema``
    (at ``ref``, ``#/$defs/Name``, when given): through ``jsonschema`` if installed, else
    :func:`errors`."""
    target = schema if ref is None else {"$ref": ref, "$defs": schema["$defs"]}
    try:
        import jsonschema  # type: ignore[import-untyped]
    except ImportError:
        wrong = errors(value, target, schema, where)
        assert not wrong, "; ".join(wrong[:5])
    else:
        try:
            jsonschema.Draft202012Validator(target).validate(value)
        except jsonschema.ValidationError as e:
            raise AssertionError(f"{where}: {e.message}") from None
