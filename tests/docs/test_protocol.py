"""docs/protocol.md cannot drift from the server: each of its JSON examples is one the
server's message models (and the engine's views and events) accept, and valid under the
JSON Schema the server publishes (``/api/protocol.json``), its events list is the engine's
and the server's, its error codes are every code the server can send, and the OpenAPI page
documents every REST route with its errors."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import briscola.fair_shuffle

pytest.importorskip("fastapi")

from fastapi.routing import APIRoute
from pydantic import BaseModel

import briscola.engine.events as engine_events
import briscola.engine.match as engine_match
import briscola.server.messages as messages
from briscola.engine import Rules, View
from briscola.engine.deal import deal_from_json
from briscola.fair_shuffle import commitment
from briscola.server import create_app
from briscola.server.routes import ROUTERS
from schemakit import errors, validate
from serverkit import Client, ServerProcess

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
SERVER = ROOT / "src" / "briscola" / "server"

SERVER_MESSAGES: dict[str, type[BaseModel]] = {
    "snapshot": messages.Snapshot,
    "update": messages.Update,
    "chat": messages.ChatLine,
    "table": messages.TableChanged,
    "error": messages.Failure,
    "pong": messages.Pong,
}
SERVER_EVENTS = ("hand_committed", "hand_revealed")


def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def examples() -> list[tuple[str, Any]]:
    """Every ```json block of the page: its tag (what it is) and its parsed JSON."""
    blocks = re.findall(r"^```json([^\n]*)\n(.*?)^```", doc(), re.M | re.S)
    return [(tag.strip(), json.loads(text)) for tag, text in blocks]


def section(title: str) -> str:
    text = doc()
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else None]


def table_rows(title: str) -> list[list[str]]:
    """The rows of the first table in a section, as cells, its header left out."""
    rows = [
        [c.strip() for c in line.strip().strip("|").split("|")]
        for line in section(title).splitlines()
        if line.startswith("| `")
    ]
    return rows


def names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def engine_event_fields() -> dict[str, list[str]]:
    """The engine's events (hands' and the match's), by their JSON type: their fields."""
    out = {}
    for module in (engine_events, engine_match):
        for name, cls in vars(module).items():
            fields = getattr(cls, "_fields", None)
            ours = isinstance(cls, type) and cls.__module__ == module.__name__
            if ours and fields and "audience" in fields:
                out[snake(name)] = [f for f in fields if f != "audience"]
    return out


def server_event_fields() -> dict[str, set[str]]:
    """The keys of every event dict literal the server writes, by type (read from its
    source and the fair shuffle's, so that a new field shows here)."""
    out: dict[str, set[str]] = {}
    for path in [*SERVER.rglob("*.py"), Path(briscola.fair_shuffle.__file__)]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Dict):
                continue
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            if "type" not in keys:
                continue
            value = node.values[keys.index("type")]
            if isinstance(value, ast.Constant) and value.value in SERVER_EVENTS:
                out.setdefault(value.value, set()).update(k for k in keys if k != "type")
    return out


def documented_events() -> dict[str, list[str]]:
    return {names(row[0])[0]: names(row[1]) for row in table_rows("Events")}


def assert_no_extra(model: BaseModel, data: dict[str, Any], where: str) -> None:
    """Every key of ``data`` is a field of ``model``'s class, nested models included: an
    invented field fails even where the model would ignore it."""
    fields = type(model).model_fields
    extra = set(data) - set(fields)
    assert not extra, f"{where}: fields the server does not send: {sorted(extra)}"
    for name in fields:
        value = getattr(model, name)
        if isinstance(value, BaseModel):
            assert_no_extra(value, data[name], f"{where}.{name}")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, BaseModel):
                    assert_no_extra(item, data[name][i], f"{where}.{name}[{i}]")


def check_event(event: dict[str, Any], where: str) -> None:
    documented = documented_events()
    kind = event.get("type")
    assert kind in documented, f"{where}: event type {kind!r} is not in the events list"
    assert sorted(set(event) - {"type"}) == sorted(documented[kind]), where


def check_server_message(data: dict[str, Any], where: str) -> None:
    model = SERVER_MESSAGES[data["type"]].model_validate(data)
    assert_no_extra(model, data, where)
    view = data.get("view")
    if view is not None:
        View.from_json(view)
    for i, event in enumerate(data.get("events", [])):
        check_event(event, f"{where}.events[{i}]")
    for i, entry in enumerate(data.get("fairness", [])):
        assert entry["type"] in SERVER_EVENTS
        check_event(entry, f"{where}.fairness[{i}]")


def checked_examples() -> Iterator[tuple[str, str, Any]]:
    for i, (tag, data) in enumerate(examples()):
        yield f"example {i + 1} ({tag or 'no tag'})", tag, data


def test_every_example_is_what_the_server_sends_or_takes() -> None:
    seen = set()
    for where, tag, data in checked_examples():
        if tag == "client":
            message = messages.CLIENT.validate_python(data)
            seen.add(("client", message.type))
        elif tag == "server":
            check_server_message(data, where)
            seen.add(("server", data["type"]))
        elif tag == "events":
            for i, event in enumerate(data):
                check_event(event, f"{where}[{i}]")
        else:
            model_class = getattr(messages, tag, None)
            assert isinstance(model_class, type) and issubclass(model_class, BaseModel), (
                f"{where}: tag each ```json block client, server, events or a model of "
                "briscola.server.messages"
            )
            assert_no_extra(model_class.model_validate(data), data, where)
    client_types = {"act", "chat", "sync", "ping"}
    assert {("client", t) for t in client_types} <= seen, "an example of every client message"
    assert {("server", t) for t in SERVER_MESSAGES} <= seen, "an example of every server message"


async def published_schema() -> dict[str, Any]:
    """The JSON Schema the server publishes, asked of the application (its route needs no
    storage: the lifespan is not run)."""
    app = create_app()
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
        r = await http.get(messages.SCHEMA_PATH)
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/schema+json"
    schema: dict[str, Any] = r.json()
    return schema


async def test_the_schema_of_every_websocket_message_is_published() -> None:
    schema = await published_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema == messages.protocol_schema()
    defs = schema["$defs"]
    client = defs["ClientMessage"]["discriminator"]["mapping"]
    server = defs["ServerMessage"]["discriminator"]["mapping"]
    assert sorted(client) == ["act", "chat", "ping", "sync"]
    assert sorted(server) == sorted(SERVER_MESSAGES)
    events = defs["Event"]["discriminator"]["mapping"]
    assert sorted(events) == sorted(documented_events()), "every event type of the list"
    assert {"View", "TableOut", "Play", "Deal"} <= set(defs)
    # A link to it from the OpenAPI page and from this page.
    assert f"({messages.SCHEMA_PATH})" in create_app().openapi()["info"]["description"]
    assert f"`{messages.SCHEMA_PATH}`" in doc()


async def test_every_example_is_valid_under_the_published_schema() -> None:
    schema = await published_schema()
    checked = set()
    for where, tag, data in checked_examples():
        if tag == "client":
            validate(data, schema, "#/$defs/ClientMessage", where)
        elif tag == "server":
            validate(data, schema, "#/$defs/ServerMessage", where)
        elif tag == "events":
            for i, event in enumerate(data):
                validate(event, schema, "#/$defs/Event", f"{where}[{i}]")
        else:
            continue
        checked.add(tag)
    assert checked == {"client", "server", "events"}


def test_the_schema_check_sees_what_is_wrong() -> None:
    """The check the examples go through is no rubber stamp."""
    schema = messages.protocol_schema()
    update = next(d for _, tag, d in checked_examples() if tag == "server" and "events" in d)
    assert errors(update, {"$ref": "#/$defs/ServerMessage"}, schema) == []
    view = update["view"]
    wrong = [
        {**update, "view": {**view, "stock_count": 3}},
        {**update, "view": {**view, "hand": ["Xz"]}},
        {**update, "view": {**view, "trick": [[0, "Ab", 1]]}},
        {**update, "events": [{"type": "card_burnt", "card": "Ab"}]},
        {**update, "events": [{"type": "card_drawn", "seat": 0}]},
        {"type": "act", "version": 0, "action": {"seat": 0, "dance": 1}},
        {k: v for k, v in update.items() if k != "type"},
    ]
    for data in wrong:
        assert errors(data, {"$ref": "#/$defs/ServerMessage"}, schema), data
        assert errors(data, {"$ref": "#/$defs/ClientMessage"}, schema), data


def test_the_rest_bodies_have_an_example_and_every_field_told() -> None:
    """A client author writes a table's body and a seat's from the page alone: each has an
    example (checked against its model above), and every field of it is named."""
    tags = {tag for tag, _ in examples()}
    rest = section("The REST part in brief")
    for model in (messages.TableIn, messages.SeatChange):
        assert model.__name__ in tags, f"an example of {model.__name__}"
    for model in (messages.TableIn, messages.SeatIn, messages.SeatChange):
        for name in model.model_fields:
            assert f"`{name}`" in rest, f"{model.__name__}.{name} is not told"
    assert "201" in rest, "creating a table answers 201"


def test_the_views_fields_are_where_the_page_links() -> None:
    """The page links the list of a view's fields by its anchor, and that list names every
    field of every view the page shows."""
    assert "(bots.md#the-view)" in doc()
    bots = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    listed = bots[bots.index("\n## The view\n") :].split("\n## ")[1]
    told = {n for line in listed.splitlines() if line.startswith("| `") for n in names(line)}
    views = [data.get("view") for _, _, data in checked_examples() if isinstance(data, dict)]
    keys = {k for view in views if view for k in view}
    assert keys and sorted(keys - told) == []


def test_no_page_calls_a_hands_move_number_the_tables_version() -> None:
    """A view's ``hand_number`` and ``move_number`` count hands and the moves of one hand;
    the table's version counts every action of the match (the examples: hand 2, move 0 at
    version 40)."""
    for page in ("protocol.md", "bots.md", "records.md"):
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        for part in re.split(r"\n\s*\n|\n- |\n\| ", text):
            if "move_number" in part:
                said = re.search(r"(\bare|\bis|:) the table's version", " ".join(part.split()))
                assert not said, f"{page}: {part[:200]}"


def test_the_revealed_deals_of_the_examples_hash_to_their_commitments() -> None:
    """The examples are real frames: each revealed deal and salt give its commitment, the
    one published when the hand was dealt."""
    committed: dict[int, str] = {}
    revealed = 0
    for _, _, data in checked_examples():
        if not isinstance(data, dict):
            continue
        for event in data.get("fairness", []) + data.get("events", []):
            if event["type"] == "hand_committed":
                committed.setdefault(event["hand"], event["commitment"])
            elif event["type"] == "hand_revealed":
                rules = Rules.make(data["view"]["game"], data["view"]["rules"])
                deal = deal_from_json(event["deal"], rules)
                assert commitment(deal, event["salt"]) == event["commitment"]
                assert committed[event["hand"]] == event["commitment"]
                revealed += 1
    assert revealed >= 1


def test_the_events_list_is_the_engines_and_the_servers() -> None:
    documented = documented_events()
    engine = engine_event_fields()
    server = server_event_fields()
    assert set(server) == set(SERVER_EVENTS)
    assert set(documented) == set(engine) | set(server)
    for kind, fields in engine.items():
        assert documented[kind] == fields, kind
    for kind, keys in server.items():
        assert set(documented[kind]) == keys, kind


def server_error_codes() -> set[str]:
    """Every error code the server's source can send: ``Refused("code", ...)``,
    ``error("code", ...)``, ``error_json("code", ...)``, ``error_body("code", ...)``,
    ``fail(status, "code", ...)`` and ``code="..."``."""
    patterns = (
        r"\bRefused\(\s*\"([a-z_]+)\"",
        r"\berror(?:_json|_body)?\(\s*\"([a-z_]+)\"",
        r"\bfail\(\s*\d+\s*,\s*\"([a-z_]+)\"",
        r"\bcode=\"([a-z_]+)\"",
    )
    codes: set[str] = set()
    for path in SERVER.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for pattern in patterns:
            codes.update(re.findall(pattern, text))
    return codes


def test_every_error_code_the_server_sends_is_documented() -> None:
    documented = {names(row[0])[0] for row in table_rows("Errors")}
    codes = server_error_codes()
    assert {"stale", "bad_json", "no_session", "bad_request"} <= codes  # the grep works
    assert sorted(codes - documented) == [], "document these in docs/protocol.md, Errors"
    assert sorted(documented - codes) == [], "the server sends these no more"


def test_every_error_codes_values_are_documented() -> None:
    """The Errors table's last column names each code's values, those the server sends."""
    from briscola.server.errors import CODES

    documented = {names(row[0])[0]: sorted(names(row[3])) for row in table_rows("Errors")}
    assert documented == {code: sorted(values) for code, values in CODES.items()}


def needs_session(route: APIRoute) -> bool:
    def calls(dependant: Any) -> Iterator[str]:
        for dep in dependant.dependencies:
            yield getattr(dep.call, "__name__", "")
            yield from calls(dep)

    return "me" in set(calls(route.dependant))


def test_every_rest_route_is_documented_with_its_errors() -> None:
    app = create_app()
    spec = app.openapi()
    assert spec["info"].get("description")
    operations = {
        (path, method): op
        for path, ops in spec["paths"].items()
        if path.startswith("/api")
        for method, op in ops.items()
    }
    routes = [
        r
        for router in ROUTERS
        for r in router.routes
        if isinstance(r, APIRoute) and r.path.startswith("/api")
    ]
    assert routes and len(operations) == sum(len(r.methods) for r in routes)
    for (path, method), op in operations.items():
        where = f"{method.upper()} {path}"
        assert op.get("summary") and (op.get("description") or "").strip(), where
        for status, response in op["responses"].items():
            assert response.get("description"), f"{where} {status}"
            if status.startswith("4"):
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorBody"}, f"{where} {status}"
        if "{" in path:
            assert "404" in op["responses"] and "422" in op["responses"], where
    for route in routes:
        for method in route.methods:
            op = operations[(route.path, method.lower())]
            if needs_session(route):
                assert "401" in op["responses"], f"{method} {route.path}"
    assert "HTTPValidationError" not in json.dumps(spec["paths"])


# -- what the page promises of the WebSocket, through a real server ------------------------


async def test_a_client_connected_before_the_start_gets_its_view_at_the_start(
    server: ServerProcess,
) -> None:
    ana = await Client(server.url, "Ana").login()
    bea = await Client(server.url, "Bea").login()
    try:
        table = await ana.call("POST", "/api/tables", json={"game": "briscola-2"})
        token = table["token"]
        await bea.call("POST", f"/api/tables/{token}/seats/1")
        for c in (ana, bea):
            await c.connect(token)
            first = await c.receive()
            assert first["type"] == "snapshot" and first["view"] is None
        await ana.call("POST", f"/api/tables/{token}/start")
        for seat, c in enumerate((ana, bea)):
            got = await c.until(lambda f: f["type"] == "snapshot")
            assert got["version"] == 0 and got["table"]["status"] == "playing"
            assert got["view"]["seat"] == seat and len(got["view"]["hand"]) == 3
            assert [e["type"] for e in got["fairness"]] == ["hand_committed"]
        to_act = ana.view["to_act"] if ana.view else None
        mover = (ana, bea)[to_act or 0]
        assert mover.view and mover.view["legal"]
        await mover.act(mover.view["legal"][0])
        update = await mover.until(lambda f: f["type"] == "update")
        assert update["since"] == 0 and update["version"] == 1
    finally:
        await ana.aclose()
        await bea.aclose()


@pytest.mark.skipif(
    shutil.which("sha256sum") is None or shutil.which("jq") is None, reason="no jq here"
)
def test_fairness_mds_pipeline_checks_a_revealed_event_of_these_examples(tmp_path: Path) -> None:
    fairness = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
    commands = [b.split("```")[0].strip() for b in fairness.split("```sh\n")[1:]]
    command = next(c for c in commands if "event.json" in c)
    event = next(
        e
        for _, _, data in checked_examples()
        if isinstance(data, dict)
        for e in data.get("events", [])
        if e["type"] == "hand_revealed"
    )
    (tmp_path / "event.json").write_text(json.dumps(event, indent=1), encoding="utf-8")
    done = subprocess.run(
        ["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == f"{event['commitment']}  -"
