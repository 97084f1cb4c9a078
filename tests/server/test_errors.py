"""The server's errors reach a person in their language: every code the server sends is
one of its table of codes (``briscola.server.errors.CODES``), sent everywhere with the
values that table names; each code has its sentence (``error.CODE``) in every catalogue,
whose places are those values; and every error the server answers carries them, over
HTTP and over the WebSocket, so that the sentence is said whole in any language."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import httpx

from briscola.server.errors import CODES, Refused
from briscola.words.catalogue import LANGUAGES, PLACE, catalogue
from briscola.words.errors import said_error
from serverkit import Client, ServerProcess, open_table

SERVER = Path(__file__).resolve().parents[2] / "src" / "briscola" / "server"

CODE_AT: dict[str, int | str] = {
    "Refused": 0,
    "error": 0,
    "error_json": 0,
    "error_body": 0,
    "fail": 1,
    "refuse": "code",
    "Failure": "code",
}
"""The calls that make an error, and where each names its code: its argument at that
position, or its keyword of that name."""


def errors_made() -> list[tuple[str, str, tuple[str, ...] | None]]:
    """Every error the server's source makes with a code written out: where, the code,
    and the names of the values it sends (``None``: values not written as a dict)."""
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in CODE_AT:
                continue
            at = CODE_AT[name]
            code: ast.expr | None
            if isinstance(at, int):
                code = node.args[at] if len(node.args) > at else None
            else:
                code = next((k.value for k in node.keywords if k.arg == at), None)
            if not (isinstance(code, ast.Constant) and isinstance(code.value, str)):
                continue  # a code passed on (``e.code``), made where it was written
            given = next((k.value for k in node.keywords if k.arg == "values"), None)
            names: tuple[str, ...] | None = ()
            if isinstance(given, ast.Dict):
                names = tuple(sorted(k.value for k in given.keys if isinstance(k, ast.Constant)))
            elif given is not None:
                names = None
            found.append((f"{path.name}:{node.lineno}", code.value, names))
    return found


def test_every_code_the_server_sends_is_in_its_table_with_its_own_values() -> None:
    made = errors_made()
    assert {"stale", "bad_origin", "too_big", "bad_request", "no_route"} <= {c for _, c, _ in made}
    for where, code, names in made:
        assert code in CODES, f"{where}: error code {code!r} is not in CODES"
        assert names is not None, f"{where}: write the values of {code} as a dict"
        assert names == tuple(sorted(CODES[code])), f"{where}: {code} sends {CODES[code]}"
    assert sorted(set(CODES) - {c for _, c, _ in made}) == [], "CODES the server sends no more"


def test_a_code_out_of_the_table_or_with_other_values_is_a_mistake_at_once() -> None:
    with pytest.raises(ValueError, match="there is no error code 'nope'"):
        Refused("nope", "?")
    with pytest.raises(ValueError, match="sends the values n, last, not n"):
        Refused("bad_seat", "?", values={"n": 3})
    long = Refused("bad_game", "?", values={"game": "x" * 500})
    assert long.values["game"] == "x" * 40 + "…"


def places(entry: str | dict[str, str]) -> set[str]:
    """The places of an entry's texts, and ``n`` when its forms are chosen by it."""
    texts = entry.values() if isinstance(entry, dict) else [entry]
    return {name for t in texts for name, _ in PLACE.findall(t)} | (
        {"n"} if isinstance(entry, dict) else set()
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_code_has_its_sentence_in_every_catalogue_with_the_values_as_places(
    lang: str,
) -> None:
    texts = catalogue(lang).texts  # the language's own, not English in its place
    missing = sorted(code for code in CODES if f"error.{code}" not in texts)
    assert missing == [], f"{lang}: no sentence for these codes"
    for code, names in CODES.items():
        assert places(texts[f"error.{code}"]) == set(names), (lang, code)
    unused = sorted(k for k in texts if k.startswith("error.") and k[6:] not in CODES)
    assert unused == [], f"{lang}: sentences of codes the server does not send"


def test_an_error_is_said_in_the_readers_language_or_else_in_its_own_words() -> None:
    taken = {"code": "seat_taken", "message": "seat 2 is taken", "values": {"n": 3}}
    assert said_error("en", taken) == "Seat 3 is taken: choose an open one."
    assert said_error("hr", taken) == "Mjesto 3 je zauzeto: odaberi slobodno."
    clock = {"code": "bad_clock", "message": "?", "values": {"n": 5}}
    assert said_error("hr", clock) == "Daj svakom potezu barem 5 sekundi ili igraj bez sata."
    assert said_error("hr", {**clock, "values": {"n": 3}}).endswith("3 sekunde ili igraj bez sata.")
    # a code no catalogue knows (a newer server's), values missing or of the wrong kind
    assert said_error("it", {"code": "new", "message": "something new"}) == "something new"
    assert said_error("it", {"code": "seat_taken", "message": "m", "values": {}}) == "m"
    assert said_error("it", {"code": "seat_taken", "message": "m", "values": {"n": [1]}}) == "m"
    assert said_error("it", {"code": "seat_taken", "message": "m", "values": None}) == "m"
    assert said_error("it", "a line") == "a line"
    # a value is text, never a place: a nickname such as "{n}" stays as it is
    signed = {"code": "signed_in", "message": "m", "values": {"nickname": "{n}"}}
    assert "{n}" in said_error("es", signed) and said_error("es", signed) != "m"


# -- through a real server ---------------------------------------------------------------


async def test_every_error_answered_carries_its_values(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        r = await http.get("/api/games/briscola-2/rules-text", params={"colour": "red"})
        assert r.json()["error"]["values"] == {"rule": "colour", "value": "red"}
        # the rule the message names, though another would be refused alone
        given = {"teams": "pairs", "players": "4", "direction": "up"}
        r = await http.get("/api/games/briskula/rules-text", params=given)
        assert r.json()["error"]["values"] == {"rule": "direction", "value": "up"}
        r = await http.get("/api/games/poker/rules-text")
        assert r.json()["error"]["values"] == {"game": "poker"}
        r = await http.get("/api/words", params={"lang": "fr"})
        assert r.json()["error"]["values"] == {"lang": "fr"}
        r = await http.get("/api/nowhere")
        assert r.json()["error"] == {"code": "no_route", "message": r.json()["error"]["message"],
                                     "values": {}}  # fmt: skip
    ana = await Client(server.url, "Ana").login()
    try:
        bad: list[tuple[dict[str, Any], str, dict[str, Any]]] = [
            ({"game": "briscola-2", "clock": 1}, "bad_clock", {"n": 5}),
            ({"game": "poker"}, "bad_game", {"game": "poker"}),
            ({"game": "briscola-2", "rules": {"match": "all"}}, "bad_rules",
             {"rule": "match", "value": "all"}),
            ({"game": "briscola-2", "rules": {"direction": "up", "cut": 10**10}}, "bad_rules",
             {"rule": "cut", "value": str(10**10)}),  # the one the message names
            ({"game": "briscola-4", "seats": [{"kind": "me"}]}, "bad_seats", {"n": 4}),
        ]  # fmt: skip
        for body, code, values in bad:
            r = await ana.http.post("/api/tables", json=body)
            error = r.json()["error"]
            assert (error["code"], error["values"]) == (code, values), body
        table = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
        r = await ana.http.post(f"/api/tables/{table['token']}/seats/5")
        assert r.json()["error"]["values"] == {"n": 6, "last": 2}  # counted from 1
        r = await ana.http.post(f"/api/tables/{table['token']}/start")
        assert r.json()["error"]["values"] == {"n": 1, "seats": "2"}
        await ana.connect(table["token"])
        await ana.send({"type": "chat", "text": "x" * 301})
        frame = await ana.until(lambda f: f["type"] == "error")
        assert (frame["code"], frame["values"]) == ("too_long", {"n": 300, "length": 301})
        assert said_error("it", frame) == (
            "Un messaggio in chat è lungo al massimo 300 caratteri; il tuo ne ha 301."
        )
        await ana.send({"type": "sync", "since": 99})
        frame = await ana.until(lambda f: f["type"] == "error")
        assert (frame["code"], frame["values"]) == ("bad_version", {})
    finally:
        await ana.aclose()
