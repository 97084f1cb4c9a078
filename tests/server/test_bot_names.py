"""Computer players are called by first names of the table's language (issue 23): the
table's ``lang`` setting (``it`` by default), the names the server sends at each bot seat
(``SeatOut.name``), the same for everyone, after a restart and in a rematch, never a
person's nickname at the table, the level apart from the name; a bad ``lang`` refused."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("fastapi")

from helpers import CROATIAN, ITALIAN, LEVELS, SPANISH
from serverkit import Client, ServerProcess, finished, open_table, play_randomly

ME = {"kind": "me"}
OPEN = {"kind": "open"}


def bot(level: str = "random") -> dict[str, Any]:
    return {"kind": "bot", "level": level}


def bot_names(table: dict[str, Any]) -> dict[int, str]:
    """The computer players' names by seat, as a table says them."""
    return {s["seat"]: s["name"] for s in table["seats"] if s["kind"] == "bot"}


@pytest.mark.parametrize(
    ("lang", "names"),
    [(None, ITALIAN), ("it", ITALIAN), ("en", ITALIAN), ("es", SPANISH), ("hr", CROATIAN)],
)
async def test_three_computer_players_have_three_first_names_of_the_tables_language(
    clients: Any, lang: str | None, names: set[str]
) -> None:
    ana, bea = await clients("Ana"), await clients("Bea")
    extra = {} if lang is None else {"lang": lang}
    seats = [ME, bot("beginner"), bot("intermediate"), bot("strong")]
    table = await open_table(ana, "briscola-4", seats, **extra)
    assert table["lang"] == (lang or "it")
    named = bot_names(table)
    assert sorted(named) == [1, 2, 3]
    assert set(named.values()) <= names and len(set(named.values())) == 3, named
    # the level is the seat's own field, never in the name
    for s in table["seats"][1:]:
        assert s["level"] in LEVELS and not any(level in s["name"] for level in LEVELS)
        assert "Computer" not in s["name"] and not any(ch.isdigit() for ch in s["name"])
    # the same for someone else who looks at the table, and once it is started
    seen = await bea.call("GET", f"/api/tables/{table['token']}")
    assert bot_names(seen) == named and seen["lang"] == (lang or "it")
    started = await ana.call("POST", f"/api/tables/{table['token']}/start")
    assert bot_names(started) == named


async def test_every_table_draws_its_own_names(clients: Any) -> None:
    """The names follow the table: not the same three at every table."""
    ana = await clients("Ana")
    seats = [ME, bot(), bot(), bot()]
    drawn = {
        tuple(bot_names(await open_table(ana, "briscola-4", seats)).values()) for _ in range(6)
    }
    assert len(drawn) > 1, drawn


async def test_a_computer_player_is_never_called_as_a_person_at_the_table(
    clients: Any,
) -> None:
    ana = await clients("Ana")
    table = await open_table(ana, "briscola-4", [ME, OPEN, bot(), bot()], lang="es")
    token = table["token"]
    before = bot_names(table)
    # someone whose nickname is a computer player's name sits down: that one is renamed
    twin = await clients(before[2].upper())
    after = bot_names(await twin.call("POST", f"/api/tables/{token}/seats/1"))
    assert after[2].casefold() != before[2].casefold() and after[2] in SPANISH
    assert after[3] == before[3] and after[2] != after[3]
    # the host seats a computer player at seat 1 instead, once she left: it is named too
    await twin.call("DELETE", f"/api/tables/{token}/seats/1")
    again = await ana.call("PUT", f"/api/tables/{token}/seats/1", json=bot("champion"))
    named = bot_names(again)
    assert sorted(named) == [1, 2, 3] and len(set(named.values())) == 3
    assert named[2] == before[2] and named[3] == before[3] and named[1] in SPANISH


@pytest.mark.parametrize("lang", ["fr", "IT", "", "italiano"])
async def test_a_table_language_out_of_its_choices_is_refused_and_makes_no_table(
    clients: Any, lang: str
) -> None:
    ana = await clients("Ana")
    lobby = await ana.call("GET", "/api/tables")
    r = await ana.http.post(
        "/api/tables", json={"game": "briscola-2", "public": True, "lang": lang}
    )
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert (error["code"], error["values"]) == ("bad_language", {"lang": lang})
    assert "it, en, es, hr" in error["message"]
    assert await ana.call("GET", "/api/tables") == lobby


async def test_a_rematch_keeps_the_language_and_the_names(clients: Any) -> None:
    ana = await clients("Ana")
    seats = [ME, bot()]
    table = await open_table(ana, "briscola-2", seats, {"match": "one-hand"}, lang="hr")
    token = table["token"]
    await ana.call("POST", f"/api/tables/{token}/start")
    await ana.connect(token)
    await play_randomly(ana, random.Random(3), until=finished)
    again = await ana.call("POST", f"/api/tables/{token}/rematch")
    assert again["token"] != token and again["lang"] == "hr"
    assert bot_names(again) == bot_names(table)
    assert set(bot_names(again).values()) <= CROATIAN


async def test_the_names_outlive_a_restart(server_factory: Callable[..., ServerProcess]) -> None:
    srv = server_factory()
    ana = await Client(srv.url, "Ana").login()
    try:
        seats = [ME, bot(), bot("strong"), bot("champion")]
        table = await open_table(ana, "briscola-4", seats, lang="hr")
        token = table["token"]
        await ana.call("POST", f"/api/tables/{token}/start")
        srv.stop()
        srv.start()
        bea = await Client(srv.url, "Bea").login()
        try:
            seen = await bea.call("GET", f"/api/tables/{token}")
        finally:
            await bea.aclose()
        assert seen["lang"] == "hr" and bot_names(seen) == bot_names(table)
        assert set(bot_names(seen).values()) <= CROATIAN
    finally:
        await ana.aclose()
        srv.stop()
