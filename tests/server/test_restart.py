"""Nothing lost: the server process killed (SIGKILL) in the middle of several matches and
started again on the same database; every match goes on from exactly its last stored
action, the clients reconnecting by themselves, no move lost or applied twice. On SQLite
and on PostgreSQL (a fresh database for each test, as in storage/test_store.py)."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("fastapi")

from serverkit import (
    Client,
    Driver,
    ServerProcess,
    check_finished,
    seated_table,
    server_on_each_database,
    stored_versions,
)

server = server_on_each_database  # one server a test, on SQLite and on PostgreSQL


async def test_a_kill_in_the_middle_of_several_matches_loses_nothing(
    server: ServerProcess,
) -> None:
    bot = "bot:random"
    layouts = [
        ("briscola-2", {}, ["me", "person"]),
        ("briscola-4", {"match": "one-hand"}, ["me", bot, "person", bot]),
        ("chiamata", {"target": "hands:1"}, ["me", bot, "person", bot, bot]),
        ("briscola-3", {"match": "one-hand"}, ["me", "bot:beginner", bot]),
    ]
    tables = [
        await seated_table(server, game, rules, seats, f"p{n}-")
        for n, (game, rules, seats) in enumerate(layouts)
    ]
    drivers = {
        token: [Driver(c, token, seed=7 * n + i, think=0.01) for i, c in enumerate(people)]
        for n, (token, people) in enumerate(tables)
    }
    tasks = [asyncio.create_task(d.run(90)) for ds in drivers.values() for d in ds]
    try:
        end = time.monotonic() + 30
        while min(max(d.client.version for d in ds) for ds in drivers.values()) < 8:
            assert time.monotonic() < end, "the matches did not get going"
            await asyncio.sleep(0.01)
        assert not any(d.client.finished() for ds in drivers.values() for d in ds)
        server.kill()
        stored = await stored_versions(server, list(drivers))
        server.start()
        await asyncio.gather(*tasks)
    finally:
        for t in tasks:
            t.cancel()
    for token, ds in drivers.items():
        for d in ds:
            assert len(d.session.closed) == 1 and len(d.session.reopened) == 1
            (before, view), after = d.session.closed[0], d.session.reopened[0]
            assert before <= stored[token]
            if after["type"] == "update":  # the computer players moved on first
                assert after["since"] == before == stored[token]
            else:
                assert after["type"] == "snapshot" and after["version"] >= stored[token]
                if after["version"] == before:
                    assert after["view"] == view
        await check_finished(token, ds)
        for d in ds:
            await d.client.aclose()


async def test_a_kill_right_after_the_start_keeps_the_deal_and_its_commitment(
    server: ServerProcess,
) -> None:
    token, people = await seated_table(
        server, "briscola-2", {"match": "one-hand"}, ["me", "person"], "s"
    )
    for c in people:
        await c.connect(token)
        await c.until(lambda f: f["type"] == "snapshot")
    before = [(c.version, c.view, c.frames[-1]["fairness"]) for c in people]
    assert before[0][0] == 0 and before[0][2][0]["type"] == "hand_committed"
    server.kill()
    assert await stored_versions(server, [token]) == {token: 0}
    server.start()
    for c, (version, view, fairness) in zip(people, before, strict=True):
        await c.reconnect(token)
        after = await c.until(lambda f: f.get("view") is not None)
        assert after["type"] == "update"  # from version 0: the start, dealt again
        assert after["since"] == after["version"] == version == 0
        assert after["view"] == view
        assert [e for e in after["events"] if e["type"] == "hand_committed"] == fairness
    drivers = [Driver(c, token, seed=i) for i, c in enumerate(people)]
    await asyncio.gather(*(d.run(60) for d in drivers))
    record = await check_finished(token, drivers)
    assert record["hands"][0]["fairness"]["commitment"] == before[0][2][0]["commitment"]
    for c in people:
        await c.aclose()


async def test_a_kill_between_hands_keeps_the_next_deal_and_its_commitment(
    server: ServerProcess,
) -> None:
    token, people = await seated_table(server, "briscola-2", {}, ["me", "person"], "h")
    drivers = [Driver(c, token, seed=i, pause_after_hand=1) for i, c in enumerate(people)]
    tasks = [asyncio.create_task(d.run(60)) for d in drivers]
    try:
        for d in drivers:
            await asyncio.wait_for(d.paused.wait(), 30)
        events = [e for _, _, es in drivers[0].session.seen for e in es]
        committed = [e for e in events if e["type"] == "hand_committed" and e["hand"] == 2]
        assert len(committed) == 1
        views = [d.client.view for d in drivers]
        assert views[0] is not None and views[0]["hand_number"] == 2
        server.kill()
        server.start()
        # The drivers come back at the table's version: nothing new, their views stay. A
        # new connection of each is sent the same view, and the next hand's commitment.
        for d, view in zip(drivers, views, strict=True):
            probe = Client(server.url, d.client.nickname)
            probe.http.cookies = d.client.http.cookies
            await probe.connect(token)
            snapshot = await probe.until(lambda f: f["type"] == "snapshot")
            await probe.aclose()
            assert snapshot["view"] == view and committed[0] in snapshot["fairness"]
        end = time.monotonic() + 30
        while not all(d.session.closed and d.client.ws is not None for d in drivers):
            assert time.monotonic() < end, "the clients did not come back"
            await asyncio.sleep(0.01)
        for d in drivers:
            d.pause_after_hand = None
            d.playing.set()
        await asyncio.gather(*tasks)
    finally:
        for t in tasks:
            t.cancel()
    for d, view in zip(drivers, views, strict=True):
        assert d.session.closed[0][1] == view  # the view each came back with
        after = d.session.reopened[0]
        assert after["type"] == "update" and after["since"] == d.session.closed[0][0]
        events = [e for _, _, es in d.session.seen for e in es]
        revealed = [e for e in events if e["type"] == "hand_revealed" and e["hand"] == 2]
        assert [e["commitment"] for e in revealed] == [committed[0]["commitment"]]
    record = await check_finished(token, drivers)
    assert record["hands"][1]["fairness"]["commitment"] == committed[0]["commitment"]
    assert record["hands"][1]["deal"] == revealed[0]["deal"]
    for c in people:
        await c.aclose()
