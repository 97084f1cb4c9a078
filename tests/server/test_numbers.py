"""Numbers no route takes: every route of the server, sent the largest and smallest
integers (past 64 bits, and at their edge), floats, strings and nulls in each of its path
parameters, query parameters and body fields, with a session. Each answer is a success or
an error in the documented form (``{"error": {"code", "message", "values"}}``), never a
server error, and the server writes no traceback. On a table's WebSocket, a ``version``
or ``since`` past 64 bits is a ``bad_message`` and the connection serves on."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from briscola.server.app import create_app
from serverkit import Client, ServerProcess, open_table

LARGEST = 2**63 - 1
"""The largest integer the storage keeps (a signed 64-bit one)."""

VALUES: list[Any] = [2**63, -(2**63) - 1, 2**64, LARGEST, -LARGEST - 1, 0, -1, 1.5, 1e300,
                     "x", None]  # fmt: skip
"""What each parameter and field is sent in turn: past 64 bits either way, at the edge,
below an id's least, a float (and one no integer holds), a string and a null."""

SPEC = create_app().openapi()
OPERATIONS = [
    (method.upper(), path, op)
    for path, ops in SPEC["paths"].items()
    if path.startswith("/api/")
    for method, op in ops.items()
]


def resolved(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its ``$ref`` followed."""
    while "$ref" in schema:
        schema = SPEC["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def fitting(schema: dict[str, Any]) -> Any:
    """A value ``schema`` takes: its default, its first choice, its least, or its required
    fields each filled so."""
    schema = resolved(schema)
    if "default" in schema:
        return schema["default"]
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        return fitting(next(s for s in schema["anyOf"] if s.get("type") != "null"))
    kind = schema.get("type")
    if kind == "object":
        return {k: fitting(v) for k, v in schema.get("properties", {}).items()
                if k in schema.get("required", ())}  # fmt: skip
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return 1
    if kind == "boolean":
        return False
    return "briscola-2"  # a game's key (a body's other texts take it too)


def leaves(schema: dict[str, Any], where: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The path of every field of an object ``schema``, nested objects' fields too."""
    schema = resolved(schema)
    for branch in schema.get("anyOf", ()):
        if branch.get("type") != "null":
            yield from leaves(branch, where)
    for name, field in schema.get("properties", {}).items():
        yield (*where, name)
        yield from leaves(field, (*where, name))


def with_value(body: Any, where: tuple[str, ...], value: Any) -> Any:
    """``body`` with the field at ``where`` set to ``value`` (made where it is missing)."""
    if not where:
        return value
    body = dict(body) if isinstance(body, dict) else {}
    body[where[0]] = with_value(body.get(where[0]), where[1:], value)
    return body


def requests_of(op: dict[str, Any], path: str, value: Any) -> Iterator[tuple[str, Any, Any]]:
    """The requests sending ``value``: in every path and query parameter at once, then in
    each field of the body in turn, the others fitting (and the whole body)."""
    text = json.dumps(value) if not isinstance(value, str) else value
    params = op.get("parameters", [])
    url = path
    for p in params:
        if p["in"] == "path":
            url = url.replace("{" + p["name"] + "}", text or "%20")
    query = {p["name"]: text for p in params if p["in"] == "query"}
    body_schema = op.get("requestBody", {}).get("content", {}).get("application/json", {})
    if "schema" not in body_schema:
        yield url, query, None
        return
    base = fitting(body_schema["schema"])
    yield url, query, base
    yield url, query, value
    for where in leaves(body_schema["schema"]):
        yield url, query, with_value(base, where, value)
    if path == "/api/tables":  # the rules' values are numbers too
        yield url, query, {**base, "rules": {"match": value, "hand_size": value}}


NICKNAMES = (f"Ana {n}" for n in range(10**6))
"""A new nickname for each person: one who signed out is gone for good."""


async def person(server: ServerProcess) -> Client:
    """A new person with a session."""
    return await Client(server.url, next(NICKNAMES)).login()


@pytest.fixture
async def ana(server: ServerProcess) -> AsyncIterator[Client]:
    client = await person(server)
    yield client
    await client.aclose()


@pytest.mark.parametrize(
    ("method", "path", "op"), OPERATIONS, ids=[f"{m} {p}" for m, p, _ in OPERATIONS]
)
async def test_no_route_fails_on_a_number_it_does_not_take(
    server: ServerProcess, ana: Client, method: str, path: str, op: dict[str, Any]
) -> None:
    logged = server.log.stat().st_size
    ends_session = method == "DELETE" and path.startswith("/api/session")
    for value in VALUES:
        for url, query, body in requests_of(op, path, value):
            asking = await person(server) if ends_session else ana
            sent = {"json": body} if body is not None else {}
            r = await asking.http.request(method, url, params=query, **sent)
            if asking is not ana:
                await asking.aclose()
            where = f"{method} {url} {query} {json.dumps(body)[:200]}"
            assert r.status_code < 500, f"{where}: {r.status_code} {r.text[:300]}"
            if r.status_code >= 400:
                error = r.json()["error"]
                assert set(error) == {"code", "message", "values"}, where
                assert error["code"] and " " in error["message"], where
    # The session, and the connection, serve on.
    assert (await ana.call("GET", "/api/session"))["id"] == ana.player
    with server.log.open() as log:
        log.seek(logged)
        assert "Traceback" not in log.read()


async def test_a_way_to_play_edited_from_a_version_past_64_bits_is_refused(
    ana: Client,
) -> None:
    family = await ana.call("POST", "/api/families", json={"name": "Rossi"})
    kept = await ana.call(
        "POST", f"/api/families/{family['id']}/rules",
        json={"name": "Ours", "body": {"game": "briscola-2"}},
    )  # fmt: skip
    url = f"/api/families/{family['id']}/rules/{kept['id']}"
    for version in (2**63, 2**64, -(2**63) - 1, -1):
        body = {"name": "Ours", "body": {"game": "briscola-2"}, "version": version}
        r = await ana.http.put(url, json=body)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "bad_request"
        assert "version" in r.json()["error"]["message"]
    # the largest the storage keeps is only a stale version
    body = {"name": "Ours", "body": {"game": "briscola-2"}, "version": LARGEST}
    r = await ana.http.put(url, json=body)
    assert r.status_code == 409 and r.json()["error"]["code"] == "edited_meanwhile"
    assert (await ana.call("GET", f"/api/families/{family['id']}/rules"))[0]["version"] == 1


async def test_a_socket_message_past_64_bits_is_a_bad_message(ana: Client) -> None:
    t = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "bot", "level": "random"}])
    await ana.call("POST", f"/api/tables/{t['token']}/start")
    await ana.connect(t["token"])
    await ana.until(lambda f: f["type"] == "snapshot")
    if not ana.my_turn():
        await ana.until(lambda f: ana.my_turn())
    legal = ana.view["legal"][0]  # type: ignore[index]
    for message in (
        {"type": "act", "version": 2**64, "action": legal},
        {"type": "act", "version": 2**63, "action": legal},
        {"type": "act", "version": -(2**63) - 1, "action": legal},
        {"type": "sync", "since": 2**63},
        {"type": "sync", "since": 2**64},
    ):
        await ana.send(message)
        frame = await ana.until(lambda f: f["type"] == "error")
        assert frame["code"] == "bad_message", (message, frame)
    # an action's numbers are the engine's to read: a seat past 64 bits is not yours
    await ana.act({**legal, "seat": 2**64})
    assert (await ana.until(lambda f: f["type"] == "error"))["code"] == "not_your_seat"
    await ana.act(legal)  # and the connection serves on
    await ana.until(lambda f: f["type"] == "update")
