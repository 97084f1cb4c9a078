"""Two server processes on one database (issue 40): a rematch asked at both at once makes
one table, which both answer with, playing; the lobby of a process reads what it lists
from storage in a few statements, and catches up only the tables that changed elsewhere.
Two :class:`Tables` on one SQLite or PostgreSQL database stand for two processes
(``redis_url`` is set, so they behave as shared; nothing listens to it)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from briscola.server.broadcast import ALL, InProcess
from briscola.server.live import LiveTable
from briscola.server.messages import SeatIn, TableIn, TableOut
from briscola.server.routes.tables import lobby
from briscola.server.settings import ServerSettings
from briscola.server.tables import Tables
from briscola.storage import Player, Storage
from serverkit import database


@pytest.fixture(params=["sqlite", "postgresql"])
async def processes(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[Tables, Tables]]:
    """Two server processes' tables sharing a database of the kind the test is run on."""
    async with database(request.param) as pg:
        url = pg or f"sqlite+aiosqlite:///{tmp_path / 'briscola.sqlite'}"
        settings = ServerSettings(database_url=url, redis_url="redis://unused", bot_delay=0.0)
        made = [Tables(await Storage.open(url), settings, InProcess()) for _ in range(2)]
        yield made[0], made[1]
        for tables in made:
            for live in tables.live.values():
                for task in (live.bot_task, *live.tasks):
                    if task is not None:
                        task.cancel()
            await tables.close()
            await tables.storage.close()


async def finished_table(tables: Tables, ana: Player) -> LiveTable:
    """A match of one hand, Ana against a computer player, played to its end."""
    seats = [SeatIn(kind="me"), SeatIn(kind="bot", level="random")]
    spec = TableIn(game="briscola-2", seats=seats, rules={"match": "one-hand"})
    live = await tables.create(ana.id, spec)
    await live.start(ana.id)
    async with asyncio.timeout(20):
        while live.info.status != "finished":
            host = live.host
            if host is not None and host.turn == 0:
                card = host.view(0).legal[0]
                await live.submit(0, card.to_json(), live.number(0))
            else:
                await asyncio.sleep(0.005)
    return live


async def asked(live: LiveTable, player: Player) -> TableOut:
    """The rematch of ``live`` asked by ``player``, as the route answers it at once."""
    return (await live.rematch(player.id)).view.table_out(player.id)


async def test_a_rematch_asked_at_two_processes_at_once_is_one_table_playing(
    processes: tuple[Tables, Tables],
) -> None:
    """Ana and her partner's rematch, asked at A and at B at the same moment, round after
    round: one new table, the same one both are given, playing at both; no other table
    is made."""
    a, b = processes
    ana = await a.storage.create_player("Ana")
    for round_ in range(4):
        old = await finished_table(a, ana)
        at_b = await b.get(old.token)
        assert at_b.info.status == "finished"
        # (and Ana's second click at A: the same table, playing too)
        answers = await asyncio.gather(*(asked(live, ana) for live in (old, at_b, old)))
        assert len({out.token for out in answers}) == 1, round_
        assert [out.status for out in answers] == ["playing"] * 3, round_
        for tables in (a, b):
            stored = await tables.storage.table_by_token(old.token)
            assert stored.settings["rematch"] == answers[0].token
            assert (await tables.get(old.token)).view.table_out(ana.id).rematch == answers[0].token
    async with a.storage.engine.connect() as conn:
        count = (await conn.execute(sa.text("SELECT count(*) FROM tables"))).scalar_one()
    assert count == 8  # four tables and their four rematches, none more


def spied(live: LiveTable, follows: list[str]) -> None:
    """Count in ``follows`` each catch-up of ``live`` (its token, once a follow)."""
    real = live.follow

    async def follow(parts: str = ALL) -> bool:
        follows.append(live.token)
        return await real(parts)

    live.follow = follow  # type: ignore[method-assign]


class Statements:
    """Counts the statements a storage's engine runs (SQLAlchemy's cursor events)."""

    def __init__(self, storage: Storage) -> None:
        self.n = 0
        sa.event.listen(storage.engine.sync_engine, "before_cursor_execute", self.count)

    def count(self, *_: Any) -> None:
        self.n += 1


async def ana_to_play(live: LiveTable) -> None:
    """Wait until the computer player has moved and Ana is to play."""
    async with asyncio.timeout(20):
        while live.host is None or live.host.turn != 0:
            await asyncio.sleep(0.005)


async def test_the_lobby_catches_up_only_the_tables_changed_elsewhere(
    processes: tuple[Tables, Tables],
) -> None:
    """B has ten public tables loaded, as A opened them (two of them playing). The lobby
    at B reads what it lists in a few statements whatever their number, and catches up
    (follows) only the two changed through A since, a seat taken at one and a card played
    at the other: it shows them as they are now."""
    a, b = processes
    ana, bea = await a.storage.create_player("Ana"), await a.storage.create_player("Bea")
    spec = TableIn(game="briscola-2", public=True)
    tokens = [(await a.create(ana.id, spec)).token for _ in range(8)]
    against = TableIn(game="briscola-2", public=True, seats=[SeatIn(kind="me"), SeatIn(kind="bot")])
    for _ in range(2):
        live = await a.create(ana.id, against)
        await live.start(ana.id)
        await ana_to_play(live)
        tokens.append(live.token)
    follows: list[str] = []
    for token in tokens:
        spied(await b.get(token), follows)
    await (await a.get(tokens[3])).seating.take_seat(1, bea.id)
    played = await a.get(tokens[9])
    assert played.host is not None
    await played.submit(0, played.host.view(0).legal[0].to_json(), played.number(0))
    await ana_to_play(played)
    statements = Statements(b.storage)
    listed = await lobby(b, ana)
    assert [t.token for t in listed] == tokens[::-1]  # newest first
    seated = {t.token: t.seats[1].kind for t in listed[2:]}
    assert seated == {t: "person" if t == tokens[3] else "open" for t in tokens[:8]}
    assert listed[0].version == played.number(0) > listed[1].version  # Ana's
    assert sorted(follows) == sorted([tokens[3], tokens[9]])  # the others were as stored
    before = statements.n
    follows.clear()
    assert await lobby(b, ana) == listed
    assert follows == []
    assert statements.n - before <= 3, statements.n - before  # (SQLite: and its BEGIN)


async def test_a_table_nobody_uses_at_a_process_leaves_it_instead_of_following_every_move(
    processes: tuple[Tables, Tables],
) -> None:
    """A table looked at once at B and played at A: B follows A's moves while it was used
    there lately; once nobody at B has used it for ``idle_unload`` seconds, the next
    move at A takes it out of B's memory instead of being read and replayed there, and
    someone coming to B later finds it loaded anew as A left it."""
    a, b = processes
    ana = await a.storage.create_player("Ana")
    against = TableIn(game="briscola-2", seats=[SeatIn(kind="me"), SeatIn(kind="bot")])
    live = await a.create(ana.id, against)
    await live.start(ana.id)
    await ana_to_play(live)
    at_b = await b.get(live.token)
    follows: list[str] = []
    spied(at_b, follows)

    async def move_at_a() -> None:
        assert live.host is not None
        await live.submit(0, live.host.view(0).legal[0].to_json(), live.number(0))
        await ana_to_play(live)
        await b.changed(live.token, "a")  # B's wake-up
        async with asyncio.timeout(20):
            while live.token in b._following:
                await asyncio.sleep(0.005)

    await move_at_a()
    assert follows == [live.token] and at_b.number(0) == live.number(0)
    at_b.touched -= b.settings.idle_unload  # nobody at B has used it since
    await move_at_a()
    assert follows == [live.token] and live.token not in b.live
    again = await b.get(live.token)
    assert again is not at_b and again.number(0) == live.number(0)
