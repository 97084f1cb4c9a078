"""A server that runs for months holds only the tables in use: finished and idle tables,
and the nicknames of their players, leave its memory, and come back from storage the
same when someone asks for them; a table with a computer player to act stays; the stored
deadlines of a table unloaded still fire. Through a real server process whose settings
make a table idle after half a second (``/metrics`` says how many tables and nicknames
it holds)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")

from serverkit import Client, ServerProcess, open_table, play_randomly

IDLE = 0.5
SWEEP = 0.1
GRACE = 6.0
BOT_DELAY = 1.0
"""Longer than IDLE: a computer player waiting to move leaves its table idle meanwhile."""
CLOCK = 2.0


@pytest.fixture
def server(server_factory: Callable[..., ServerProcess]) -> Iterator[ServerProcess]:
    """A server process unloading the tables idle for IDLE seconds, its limits on; one
    for each test."""
    settings = {"idle_unload": IDLE, "sweep": SWEEP, "min_clock": 0.5}
    srv = server_factory(grace=GRACE, bot_delay=BOT_DELAY, limits=True, settings=settings)
    yield srv
    srv.stop()


async def loaded(server: ServerProcess) -> dict[str, int]:
    """How many tables and nicknames the server holds in memory (its metrics say)."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        text = (await http.get("/metrics")).text
    names = {"briscola_tables_loaded": "tables", "briscola_nicknames_loaded": "nicknames"}
    got = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name in names:
            got[names[name]] = int(float(value))
    return got


async def until_loaded(server: ServerProcess, test: Callable[[dict[str, int]], bool]) -> float:
    """Wait until what the server holds passes ``test``; when (``time.monotonic``)."""
    end = time.monotonic() + 10
    while not test(await loaded(server)):
        assert time.monotonic() < end, f"the server still holds {await loaded(server)}"
        await asyncio.sleep(0.05)
    return time.monotonic()


async def chat_seen(c: Client, token: str) -> list[tuple[str, str | None]]:
    """The chat lines ``c`` is sent on connecting to the table: (text, nickname)."""
    await c.connect(token)
    await c.until(lambda f: f["type"] == "snapshot")
    lines = []
    while True:
        try:
            frame = await c.receive(timeout=0.5)
        except TimeoutError:
            break
        if frame["type"] == "chat":
            lines.append((frame["text"], frame["nickname"]))
    await c.close()
    return lines


async def test_finished_and_waiting_tables_leave_memory_and_come_back_the_same(
    server: ServerProcess, clients: Any
) -> None:
    ana, bea, eve = await clients("Ana"), await clients("Bea"), await clients("Eve")
    finished = (await open_table(ana, "briscola-2", [], {"match": "one-hand"}))["token"]
    await bea.call("POST", f"/api/tables/{finished}/seats/1")
    await ana.connect(finished)
    await ana.send({"type": "chat", "text": "in bocca al lupo <Bea>"})
    await ana.until(lambda f: f["type"] == "chat")
    await bea.connect(finished)
    await ana.call("POST", f"/api/tables/{finished}/start")
    await asyncio.gather(play_randomly(ana, random.Random(1)), play_randomly(bea, random.Random(2)))
    await ana.close()
    await bea.close()
    seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "level": "random"}]
    waiting = (await open_table(ana, "briscola-3", seats, {"match": "one-hand"}))["token"]
    await ana.connect(waiting)
    await ana.send({"type": "chat", "text": "aspetto"})
    await ana.until(lambda f: f["type"] == "chat")
    await ana.close()
    paths = [f"/api/tables/{finished}", f"/api/tables/{finished}/record",
             f"/api/tables/{finished}/hands/1", f"/api/tables/{waiting}"]  # fmt: skip
    before = [await ana.call("GET", p) for p in paths]
    assert before[0]["status"] == "finished"
    assert [s["nickname"] for s in before[0]["seats"]] == ["Ana", "Bea"]

    # Nobody is at either table: both leave memory, and so do Ana's and Bea's nicknames.
    await until_loaded(server, lambda n: n == {"tables": 0, "nicknames": 0})
    history = await bea.call("GET", "/api/history")  # Ana's nickname looked up again
    assert history[0]["token"] == finished
    assert history[0]["players"] == {"0": "Ana", "1": "Bea"}

    # Asked for again, many times at once, each table comes back the same.
    await until_loaded(server, lambda n: n == {"tables": 0, "nicknames": 0})
    got = await asyncio.gather(*(ana.call("GET", p) for p in paths * 5))
    assert got == before * 5
    await until_loaded(server, lambda n: n["tables"] == 0)
    assert await chat_seen(eve, finished) == [("in bocca al lupo <Bea>", "Ana")]
    assert await chat_seen(eve, waiting) == [("aspetto", "Ana")]

    # The waiting table, unloaded again, is seated and started as if it had stayed.
    await until_loaded(server, lambda n: n["tables"] == 0)
    t = await bea.call("POST", f"/api/tables/{waiting}/seats/1")
    assert [s["nickname"] for s in t["seats"]] == ["Ana", "Bea", None]
    t = await ana.call("POST", f"/api/tables/{waiting}/start")
    assert t["status"] == "playing" and t["hands"] == 1


async def test_a_computer_to_act_keeps_its_table_and_an_unloaded_table_s_grace_runs_out(
    server: ServerProcess, clients: Any
) -> None:
    ana, bea = await clients("Ana"), await clients("Bea")
    bots = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    computers = (await open_table(ana, "briscola-2", bots, {"match": "one-hand"}))["token"]
    away = (await open_table(ana, "briscola-2", [], {"match": "one-hand"}, stand_in="random"))[
        "token"
    ]
    await bea.call("POST", f"/api/tables/{away}/seats/1")
    await ana.call("POST", f"/api/tables/{computers}/start")
    await ana.call("POST", f"/api/tables/{away}/start")
    started = time.monotonic()
    # Neither Ana nor Bea comes to their table: after half a second it leaves memory,
    # the computer players' table stays, playing (each waits a second before its move).
    unloaded = await until_loaded(server, lambda n: n["tables"] == 1)
    assert unloaded - started < GRACE
    versions = []
    for _ in range(3):
        versions.append((await ana.call("GET", f"/api/tables/{computers}"))["version"])
        assert (await loaded(server))["tables"] == 1
        await asyncio.sleep(1.2 * BOT_DELAY)  # one computer move at least
    assert versions[0] < versions[1] < versions[2]

    # Their grace runs out while their table is out of memory: it is loaded again, and
    # computer players stand in for both and play on.
    await until_loaded(server, lambda n: n["tables"] == 2)
    assert time.monotonic() - started >= GRACE - 0.1
    end = time.monotonic() + 10
    while True:
        t = await ana.call("GET", f"/api/tables/{away}")
        if t["version"] >= 2:
            break
        assert time.monotonic() < end, f"the table did not play on: {t}"
        await asyncio.sleep(0.1)
    assert [s["stand_in"] for s in t["seats"]] == [True, True]


async def test_a_move_clock_runs_out_while_its_table_is_out_of_memory(
    server: ServerProcess, clients: Any
) -> None:
    ana, bea = await clients("Ana"), await clients("Bea")
    rules = {"match": "one-hand"}
    token = (await open_table(ana, "briscola-2", [], rules, clock=CLOCK))["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    await ana.call("POST", f"/api/tables/{token}/start")
    started = time.monotonic()
    # Neither comes: the table leaves memory before the clock of the seat to act runs
    # out; then it is loaded again, and a computer player moves for that seat.
    unloaded = await until_loaded(server, lambda n: n["tables"] == 0)
    assert unloaded - started < CLOCK
    await until_loaded(server, lambda n: n["tables"] == 1)
    while (t := await ana.call("GET", f"/api/tables/{token}"))["version"] == 0:
        assert time.monotonic() - started < GRACE, "no move for the seat whose clock ran out"
        await asyncio.sleep(0.05)
    assert t["version"] == 1
    assert CLOCK - 0.1 <= time.monotonic() - started < GRACE  # the clock, not the grace
    assert [s["stand_in"] for s in t["seats"]] == [False, False]
