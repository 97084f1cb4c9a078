"""Reconnection through the real server: a client that drops and comes back, saying the
last version it saw, gets the same view (and the same fair-shuffle commitments and
reveals) as a connection of the same player that never left: after one event an
``update`` with that event, after 1,000 events (more than the table keeps, ``recent``) a
``snapshot``. A client that saw the table waiting gets its view when the match starts, or
(back from version 0) an update from the start."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

pytest.importorskip("fastapi")

from serverkit import Client, ServerProcess, open_table

RECENT = 256
"""The server's default ``recent``: the actions a table keeps for clients catching up."""


def fairness(client: Client) -> dict[int, dict[str, Any]]:
    """Each hand's commitment (and, once it is over, its salt and deal) as ``client`` was
    told them: in its last snapshot and the events after it."""
    out: dict[int, dict[str, Any]] = {}
    for frame in client.frames:
        if frame["type"] == "snapshot":
            out = {e["hand"]: e for e in frame["fairness"]}
        for e in frame.get("events", ()):
            if e["type"] in ("hand_committed", "hand_revealed"):
                out[e["hand"]] = e
    return out


def assert_same(back: Client, stayed: Client) -> None:
    assert back.version == stayed.version
    assert back.view == stayed.view
    assert fairness(back) == fairness(stayed)
    assert back.table is not None and stayed.table is not None
    assert back.table["status"] == stayed.table["status"]


async def settle(*clients: Client, version: int) -> None:
    """Receive until every client was sent ``version``."""
    for c in clients:
        await c.until(lambda f, c=c: c.version >= version and c.view is not None)


async def test_a_client_connected_before_the_start_is_sent_its_view(
    server: ServerProcess,
) -> None:
    """Whoever acts first (the person or the computer player), the person waiting at the
    table is sent its view and the first hand's commitment before any move of its own."""
    for game in range(4):
        ana = await Client(server.url, "Ana").login()
        watcher = await Client(server.url, "Watcher").login()
        try:
            seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}]
            table = await open_table(ana, "briscola-2", seats, {"match": "one-hand"}, public=True)
            for c in (ana, watcher):
                await c.connect(table["token"])
                first = await c.receive()
                assert first["type"] == "snapshot" and first["view"] is None
            await ana.call("POST", f"/api/tables/{table['token']}/start")
            for c in (ana, watcher):
                frame = await c.until(lambda f: f.get("view") is not None, timeout=10)
                assert frame["type"] == "snapshot", f"game {game}: {frame['type']}"
                assert [e["hand"] for e in frame["fairness"]] == [1]
            assert ana.view is not None and len(ana.view["hand"]) in (2, 3)
        finally:
            await ana.aclose()
            await watcher.aclose()


@pytest.mark.parametrize("how", ["query", "sync"])
@pytest.mark.parametrize("saw", ["waiting", "dealt"])
async def test_back_from_version_0_an_update_from_the_start(
    server: ServerProcess, how: str, saw: str
) -> None:
    """Version 0 is both the table waiting and the first hand dealt: a client back from
    version 0 (``?since=0`` or ``sync`` since 0), whichever it saw, gets an update from 0
    that begins with the start (the first deal as its seat sees it, the hand's
    commitment), then every action since, and its view: the view and commitments of a
    connection that never left."""
    ana, stayed = await Client(server.url, "Ana").login(), Client(server.url, "Ana")
    stayed.http.cookies = ana.http.cookies
    try:
        seats = [{"kind": "me"}, {"kind": "open"}]
        table = await open_table(ana, "briscola-2", seats, {"match": "one-hand"})
        token = table["token"]
        bea = await Client(server.url, "Bea").login()
        await bea.call("POST", f"/api/tables/{token}/seats/1")
        if saw == "waiting":
            await ana.connect(token)
            assert (await ana.receive())["view"] is None
            await ana.close()
        await ana.call("POST", f"/api/tables/{token}/start")
        if saw == "dealt":
            await ana.connect(token)
            assert (await ana.receive())["view"] is not None
            await ana.close()
        await stayed.connect(token)
        await stayed.until(lambda f: f["type"] == "snapshot")
        moves = 1 if saw == "dealt" else 0  # and one move after what Ana saw
        if moves:
            await bea.connect(token)
            await bea.until(lambda f: f["type"] == "snapshot")
            mover = stayed if stayed.my_turn() else bea
            await mover.act(mover.view["legal"][0])  # type: ignore[index]
            await stayed.until(lambda f: f["type"] == "update")
        await bea.aclose()
        n = len(ana.frames)
        if how == "query":
            await ana.connect(token, since=0)
        else:
            await ana.connect(token)
            await ana.until(lambda f: f["type"] == "snapshot")
            n = len(ana.frames)
            await ana.send({"type": "sync", "since": 0})
        frame = await ana.until(lambda f: f["type"] in ("snapshot", "update"), timeout=10)
        assert frame["type"] == "update" and frame["since"] == 0 and frame["version"] == moves
        kinds = [e["type"] for e in frame["events"]]
        start = ["hand_started", "dealt", "dealt", "trump_turned", "hand_committed"]
        assert kinds == start + ["card_played"] * moves
        mine = [e for e in frame["events"] if e["type"] == "dealt" and e["seat"] == 0]
        assert len(mine[0]["cards"]) == 3 and set(frame["view"]["hand"]) <= set(mine[0]["cards"])
        if how == "query":  # a connection with ?since= is sent the table after the update
            await ana.until(lambda f: f["type"] == "table", timeout=10)
        # one update and no snapshot (a `table` frame may come beside it: Bea's socket
        # closing is told when the server gets to it, which a busy machine may delay)
        got = [f["type"] for f in ana.frames[n:]]
        assert [k for k in got if k != "table"] == ["update"], got
        if how == "query":
            assert "table" in got[got.index("update") :], got
        assert_same(ana, stayed)
    finally:
        await ana.aclose()
        await stayed.aclose()


async def test_back_after_one_event_an_update_and_the_same_view(server: ServerProcess) -> None:
    ana, ana2, bea, watcher, watcher2 = [
        await Client(server.url, name).login() for name in ("Ana", "Ana", "Bea", "W", "W2")
    ]
    ana2.http.cookies = ana.http.cookies  # the same player, a second connection
    clients = (ana, ana2, bea, watcher, watcher2)
    try:
        seats = [{"kind": "me"}, {"kind": "open"}]
        # A private table: its spectators see each move as it goes (at a public one they
        # are a trick late: tests/server/test_spectators.py).
        table = await open_table(ana, "briscola-2", seats, {"match": "one-hand"})
        token = table["token"]
        await bea.call("POST", f"/api/tables/{token}/seats/1")
        await ana.call("POST", f"/api/tables/{token}/start")
        for c in clients:
            await c.connect(token)
            await c.until(lambda f: f["type"] == "snapshot")
        rng = random.Random(1)

        async def move(version: int) -> None:
            """The seat to act moves; every connection still there is sent it."""
            mover = ana if ana.my_turn() else bea
            assert mover.my_turn()
            await mover.act(rng.choice(mover.view["legal"]))  # type: ignore[index]
            await settle(*(c for c in clients if c.ws is not None), version=version)

        await move(1)  # from version 0, the update begins with the start (see above)
        for gap in range(1, 6):  # the people play; each round, the second ones drop
            since = ana2.version
            await ana2.close()
            await watcher2.close()
            for k in range(gap):
                await move(since + k + 1)
            for back in (ana2, watcher2):
                n = len(back.frames)
                await back.connect(token, since=since)
                frame = await back.until(lambda f: f["type"] != "table", timeout=10)
                assert frame["type"] == "update" and frame["since"] == since
                assert frame["version"] == since + gap
                assert back.frames[n:] == [frame] or back.frames[n]["type"] == "table"
            assert_same(ana2, ana)
            assert_same(watcher2, watcher)
    finally:
        for c in clients:
            await c.aclose()


async def test_back_after_1000_events_a_snapshot_and_the_same_view(
    server: ServerProcess,
) -> None:
    """A long chiamata (25 hands of about 50 actions) where Ana's seat is one of five; her
    moves go out through several connections of hers (each may send 10 messages a
    second), so that 1,000 events pass in a few seconds."""
    ana = await Client(server.url, "Ana").login()
    others = [Client(server.url, "Ana") for _ in range(8)]
    watcher = await Client(server.url, "W").login()
    watcher2 = Client(server.url, "W2")
    back = Client(server.url, "Ana")
    for c in (*others, back):
        c.http.cookies = ana.http.cookies
    watcher2.http.cookies = watcher.http.cookies
    clients = (ana, *others, watcher, watcher2, back)
    drains: list[asyncio.Task[None]] = []
    try:
        async with asyncio.timeout(90):
            await _long_chiamata(ana, others, watcher, watcher2, back, drains)
    finally:
        for c in clients:  # each connection read until closed: a full queue stalls a close
            await c.aclose()
        for d in drains:
            d.cancel()
        await asyncio.gather(*drains, return_exceptions=True)


async def _long_chiamata(
    ana: Client,
    others: list[Client],
    watcher: Client,
    watcher2: Client,
    back: Client,
    drains: list[asyncio.Task[None]],
) -> None:
    clients = (ana, *others, watcher, watcher2, back)
    seats = [{"kind": "me"}] + [{"kind": "bot", "level": "random"}] * 4
    rules = {"target": "hands:25"}
    table = await open_table(ana, "chiamata", seats, rules)  # (its spectators see it live)
    token = table["token"]
    await ana.call("POST", f"/api/tables/{token}/start")
    for c in clients:
        await c.connect(token)
        await c.until(lambda f: f["type"] == "snapshot")
    since = back.version
    await back.close()
    await watcher2.close()
    errors: list[dict[str, Any]] = []

    async def drain(c: Client) -> None:
        while True:
            frame = await c.receive(timeout=600)
            if frame["type"] == "error":
                errors.append(frame)

    drains[:] = [asyncio.create_task(drain(c)) for c in (*others, watcher)]  # the caller's
    target = since + 1000
    rng = random.Random(2)
    turn = 0
    acted = -1
    while not (ana.version >= target and ana.my_turn()):
        if ana.my_turn() and acted != ana.version:
            acted = ana.version
            sender = (ana, *others)[turn % (len(others) + 1)]
            turn += 1
            action = rng.choice(ana.view["legal"])  # type: ignore[index]
            await sender.send({"type": "act", "version": ana.version, "action": action})
        frame = await ana.receive()
        assert frame["type"] != "error", frame
    assert not errors, errors[:3]
    reading = drains.pop()  # the watcher's: it is read below
    while not reading.done():  # Python 3.11's wait_for may swallow a cancel as a frame comes
        reading.cancel()
        await asyncio.wait([reading], timeout=0.1)
    if watcher.version < ana.version:
        await watcher.until(lambda f: watcher.version == ana.version, timeout=10)
    assert ana.table is not None and ana.table["status"] == "playing"
    assert ana.version - since >= 1000 > RECENT
    for c, stayed in ((back, ana), (watcher2, watcher)):
        await c.connect(token, since=since)
        frame = await c.until(lambda f: f["type"] != "table", timeout=10)
        assert frame["type"] == "snapshot" and frame["version"] == ana.version
        assert_same(c, stayed)
