"""A graceful stop: a server process sent SIGTERM in the middle of several matches stops
taking connections, finishes the actions in flight, tells each client what was stored,
closes each WebSocket with 1012 (service restart) and ends with status 0; started again
on the same data it has every move any client was told, and the clients come back by
themselves and play on, nothing lost or applied twice. On SQLite and on PostgreSQL; and
with two processes sharing PostgreSQL and Redis, the clients of the one stopped go on at
the other."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

pytest.importorskip("fastapi")

from serverkit import (
    Client,
    Driver,
    ServerProcess,
    check_finished,
    database,
    seated_table,
    server_on_each_database,
    stored_versions,
)

server = server_on_each_database  # one server a test, on SQLite and on PostgreSQL


def listening(port: int) -> bool:
    """Whether something accepts connections at ``port`` of this machine."""
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


async def test_sigterm_in_the_middle_of_matches_tells_what_was_stored_and_the_clients_come_back(
    server: ServerProcess,
) -> None:
    bot = "bot:random"
    layouts = [
        ("briscola-2", {}, ["me", "person"]),
        ("briscola-4", {"match": "one-hand"}, ["me", bot, "person", bot]),
        ("briscola-3", {"match": "one-hand"}, ["me", "person", bot]),
        ("briscola-2", {"match": "one-hand"}, ["me", bot]),
    ]
    tables = [
        await seated_table(server, game, rules, seats, f"g{n}-")
        for n, (game, rules, seats) in enumerate(layouts)
    ]
    drivers = {
        token: [Driver(c, token, seed=11 * n + i, think=0.005) for i, c in enumerate(people)]
        for n, (token, people) in enumerate(tables)
    }
    everyone = [d for ds in drivers.values() for d in ds]
    tasks = [asyncio.create_task(d.run(120)) for d in everyone]
    try:
        end = time.monotonic() + 30
        while min(max(d.client.version for d in ds) for ds in drivers.values()) < 6:
            assert time.monotonic() < end, "the matches did not get going"
            await asyncio.sleep(0.01)
        assert not any(d.client.finished() for d in everyone)
        status = await asyncio.to_thread(server.terminate, 20)
        assert status == 0, server.log.read_text()[-3000:]
        assert not listening(server.port)
        stored = await stored_versions(server, list(drivers))
        for token, ds in drivers.items():
            for d in ds:
                # closed as a restart, told every move stored before the close
                assert d.session.codes[:1] == [1012], (d.client.nickname, d.session.codes)
                before, _ = d.session.closed[0]
                assert before == stored[token], (d.client.nickname, before, stored[token])
        server.start()
        # A fresh connection of each person, at once: the move they were told last is
        # there (the others may have played on since).
        for d in everyone:
            probe = Client(server.url, d.client.nickname)
            probe.http.cookies = d.client.http.cookies
            await probe.connect(d.token)
            snapshot = await probe.until(lambda f: f["type"] == "snapshot")
            await probe.aclose()
            before, view = d.session.closed[0]
            assert snapshot["version"] >= before
            if snapshot["version"] == before:
                assert snapshot["view"] == view
        await asyncio.gather(*tasks)
        for token, ds in drivers.items():
            for d in ds:
                assert len(d.session.closed) == 1 and len(d.session.reopened) == 1
            await check_finished(token, ds)
    finally:
        for t in tasks:
            t.cancel()
        for d in everyone:
            await d.client.aclose()


async def test_sigterm_at_a_server_without_connections_ends_it_with_status_0(
    server: ServerProcess,
) -> None:
    ana = await Client(server.url, "Ana").login()
    await ana.aclose()
    assert await asyncio.to_thread(server.terminate, 20) == 0


ROOT = Path(__file__).parents[2]


HANDED_ON = 20.0
"""Seconds the matches may take to finish at the other process once one stops: far more
than they need (about one), less than a computer move's claim lasts (its lease, 30)."""


async def test_sigterm_at_one_of_two_processes_sends_its_clients_to_the_other(
    redis_dir: Path, server_factory: Callable[..., ServerProcess]
) -> None:
    """Two processes share PostgreSQL and Redis; the clients of the one stopped connect
    again to the other (as behind a balancer) and play on, computer players included."""
    async with database("postgresql") as url:
        settings = {"redis_url": f"unix://{redis_dir}/redis.sock", "follow_every": 0.5}
        a = server_factory(url, bot_delay=0.01, settings=settings)
        b = server_factory(url, bot_delay=0.01, settings=settings)
        layouts = [
            ("briscola-2", {"match": "one-hand"}, ["me", "person"]),
            ("briscola-4", {"match": "one-hand"}, ["me", "bot:random", "person", "bot:random"]),
        ]
        tables = [
            await seated_table(a, game, rules, seats, f"m{n}-")
            for n, (game, rules, seats) in enumerate(layouts)
        ]
        drivers = {
            token: [Driver(c, token, seed=5 * n + i, think=0.005) for i, c in enumerate(people)]
            for n, (token, people) in enumerate(tables)
        }
        everyone = [d for ds in drivers.values() for d in ds]
        tasks = [asyncio.create_task(d.run(120)) for d in everyone]
        try:
            end = time.monotonic() + 30
            while min(max(d.client.version for d in ds) for ds in drivers.values()) < 6:
                assert time.monotonic() < end, "the matches did not get going"
                await asyncio.sleep(0.01)
            for d in everyone:  # where the balancer sends them next
                d.client.base = b.url
                d.client.http.base_url = httpx.URL(b.url)
            assert await asyncio.to_thread(a.terminate, 20) == 0
            stopped = time.monotonic()
            await asyncio.gather(*tasks)
            # no computer move waited out the lease of a claim the stopped process left
            # (its task cancelled as it claimed or chose: the claim is handed on)
            assert time.monotonic() - stopped < HANDED_ON, "a move waited for its claim"
            for token, ds in drivers.items():
                for d in ds:
                    assert d.session.codes == [1012], (d.client.nickname, d.session.codes)
                await check_finished(token, ds)
        finally:
            for t in tasks:
                t.cancel()
            for d in everyone:
                await d.client.aclose()
            b.stop()
