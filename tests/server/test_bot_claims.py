"""A computer player's move, with several server processes on one database: claimed there
by one process, and never left unmade by a race. Two :class:`Tables` on one SQLite
database stand for two processes; each catches up with the other when the test says so
(no Redis), and the claims are held back at the moments the race needs."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from briscola.server.broadcast import InProcess
from briscola.server.live import LiveTable
from briscola.server.messages import SeatIn, TableIn
from briscola.server.settings import ServerSettings
from briscola.server.tables import Tables
from briscola.storage import Storage

Claim = Callable[[int, int, int, Any], Awaitable[bool]]


@pytest.fixture
async def processes(tmp_path: Path) -> AsyncIterator[tuple[Tables, Tables]]:
    """Two server processes' tables, sharing a database (``redis_url`` is set, so they
    claim the computer players' moves; nothing listens to it)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'briscola.sqlite'}"
    settings = ServerSettings(database_url=url, redis_url="redis://unused", bot_delay=0.0)
    made = [Tables(await Storage.open(url), settings, InProcess()) for _ in range(2)]
    yield made[0], made[1]
    for tables in made:
        for live in tables.live.values():
            if live.bot_task is not None:
                live.bot_task.cancel()
        await tables.close()
        await tables.storage.close()


def held_claims(tables: Tables, decide: Callable[[int], Awaitable[bool | None]]) -> None:
    """Route ``tables``' claims through ``decide(n)`` (``n`` counts the claims from 1): it
    may wait; then True or False is the claim's answer, None lets the database answer."""
    real: Claim = tables.storage.claim_turn  # type: ignore[assignment]
    count = 0

    async def claim(table_id: int, seat: int, version: int, lease: Any) -> bool:
        nonlocal count
        count += 1
        answer = await decide(count)
        return await real(table_id, seat, version, lease) if answer is None else answer

    tables.storage.claim_turn = claim  # type: ignore[method-assign]


async def until(test: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if test():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"not within {timeout} s: {what}")


async def person_plays_until_the_computer_is_to_act(live: LiveTable, seat: int) -> None:
    """The person at ``seat`` plays the first legal card until a computer player is to."""
    while (host := live.host) is not None and host.turn == seat:
        card = host.view(seat).legal[0]
        await live.submit(seat, card.to_json(), live.number(seat))
    assert live.host is not None and live.host.turn is not None


async def test_a_computer_move_claimed_in_vain_while_the_table_moved_on_is_made(
    processes: tuple[Tables, Tables],
) -> None:
    """B's computer player claims a move and waits for the database's answer. Meanwhile A
    makes that move and the person plays on, to the computer player's turn again; B
    catches up, and its kick finds the claiming task still running. The claim is then
    lost (the move was A's). B's task must not stop there: the next move is nobody's
    else (A no longer wins claims)."""
    a, b = processes
    ana = await a.storage.create_player("Ana")
    seats = [SeatIn(kind="me"), SeatIn(kind="bot", level="random")]
    spec = TableIn(game="briscola-2", seats=seats, rules={"match": "one-hand"})
    at_a = await a.create(ana.id, spec)
    a_may, b_may = asyncio.Event(), asyncio.Event()

    async def a_decides(n: int) -> bool | None:
        if n == 1:
            await a_may.wait()
            return None  # A wins its first claim, as the database says
        return False  # and loses every one after (as if B always came first)

    async def b_decides(n: int) -> bool | None:
        if n == 1:
            await b_may.wait()  # B's first claim waits for the database
        return None

    held_claims(a, a_decides)
    held_claims(b, b_decides)
    await at_a.start(ana.id)
    at_b = await b.get(at_a.token)
    await person_plays_until_the_computer_is_to_act(at_a, 0)
    first = at_a.version
    await at_b.follow()  # B sees the computer player to act: its task claims, and waits
    assert at_b.version == first and at_b.bot_task is not None
    a_may.set()  # A's claim is answered first: A makes the move
    await until(lambda: at_a.version > first, "A's computer player moves")
    await person_plays_until_the_computer_is_to_act(at_a, 0)
    again = at_a.version
    await at_b.follow()  # B is at the computer player's turn again; its task still waits
    assert at_b.version == again and not at_b.bot_task.done()
    b_may.set()  # B's claim is lost (A moved); the computer player is to act at B's version
    await until(lambda: at_b.version > again, "B's computer player moves")
    stored = await b.storage.table_by_token(at_a.token)
    assert stored.version > again  # (and on, when the computer player leads next)


async def test_the_computer_player_reads_the_table_after_an_action_being_stored(
    processes: tuple[Tables, Tables],
) -> None:
    """A person's action is being stored (the host has moved, its version not yet) as the
    computer player's task looks at the table: it sees the table as stored, and claims
    its move at the version after the action (not one the table has passed)."""
    a, _ = processes
    ana = await a.storage.create_player("Ana")
    seats = [SeatIn(kind="me"), SeatIn(kind="bot", level="random")]
    spec = TableIn(game="briscola-2", seats=seats, rules={"match": "one-hand"})
    live = await a.create(ana.id, spec)
    claimed: list[tuple[int, int]] = []
    real: Claim = a.storage.claim_turn  # type: ignore[assignment]

    async def claim(table_id: int, seat: int, version: int, lease: Any) -> bool:
        claimed.append((seat, version))
        return await real(table_id, seat, version, lease)

    a.storage.claim_turn = claim  # type: ignore[method-assign]
    await live.start(ana.id)
    while True:  # Ana leads a trick: the computer player is to act after her card
        await until(lambda: live.host is not None and live.host.turn == 0, "Ana to play")
        assert live.host is not None
        view = live.host.view(0)
        if not view.trick:
            break
        await live.submit(0, view.legal[0].to_json(), live.number(0))
    storing = asyncio.Event()
    append = a.storage.append_action

    async def slow_append(*args: Any, **kwargs: Any) -> Any:
        storing.set()
        await asyncio.sleep(0.2)
        return await append(*args, **kwargs)

    a.storage.append_action = slow_append  # type: ignore[method-assign]
    before = live.version
    claimed.clear()
    assert live.host is not None
    card = live.host.view(0).legal[0]
    submitted = asyncio.create_task(live.submit(0, card.to_json(), live.number(0)))
    await storing.wait()
    live.kick()  # the computer player's task starts while Ana's card is being stored
    await submitted
    await until(lambda: live.version > before + 1, "the computer player's reply")
    assert claimed[0] == (1, before + 1), claimed  # (and after it, maybe its lead)
