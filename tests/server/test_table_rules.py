"""A table's rules are read from their JSON once where they enter: from the request that
opens the table, and from storage when a server process loads it; not once more by each
part of the server that holds the table, nor for each hand of its match as it is rebuilt."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from briscola.engine import game_record
from briscola.server.broadcast import InProcess
from briscola.server.messages import SeatIn, TableIn
from briscola.server.settings import ServerSettings
from briscola.server.tables import Tables
from briscola.storage import Storage


@pytest.fixture
async def processes(tmp_path: Path) -> AsyncIterator[tuple[Tables, Tables]]:
    """Two server processes' tables on one SQLite database."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'briscola.sqlite'}"
    settings = ServerSettings(database_url=url, bot_delay=0.0)
    made = [Tables(await Storage.open(url), settings, InProcess()) for _ in range(2)]
    yield made[0], made[1]
    for tables in made:
        await tables.close()
        await tables.storage.close()


def rules_read(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The games of the rules read from JSON from now on: each call of ``rules_from_json``,
    under every name a module of the package gives it."""
    real = game_record.rules_from_json
    calls: list[Any] = []

    def spy(game: object, options: object, **kw: Any) -> Any:
        calls.append(game)
        return real(game, options, **kw)

    for module in list(sys.modules.values()):
        if module.__name__.startswith("briscola") and vars(module).get("rules_from_json") is real:
            monkeypatch.setattr(module, "rules_from_json", spy)
    return calls


async def test_a_tables_rules_are_read_once_where_they_enter(
    processes: tuple[Tables, Tables], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = processes
    ana = await a.storage.create_player("Ana")
    bea = await a.storage.create_player("Bea")
    seats = [SeatIn(kind="me"), SeatIn(kind="open")]
    spec = TableIn(game="briscola-2", seats=seats, rules={"match": "hands:4"})  # (a 3rd hand dealt)
    read = rules_read(monkeypatch)
    live = await a.create(ana.id, spec)
    assert len(read) <= 2, read  # the request's, and storage's (once a process)
    await live.seating.take_seat(1, bea.id)
    await live.start(ana.id)
    while live.stored_hands < 3:  # two hands played, the third dealt
        assert live.host is not None and live.host.turn is not None
        seat = live.host.turn
        await live.submit(seat, live.host.view(seat).legal[0].to_json(), live.number(seat))
    read.clear()
    again = await b.get(live.token)  # another process loads the table: rebuilds its match
    assert again.stored_hands == 3 and again.host is not None and live.host is not None
    assert again.host.match is not None and live.host.match is not None
    assert again.host.match.to_record() == live.host.match.to_record()
    assert len(read) <= 1, read
