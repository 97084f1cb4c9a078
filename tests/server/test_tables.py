"""A table's life through the real server process: made private or public, joined by its
link, seats taken and left, started by its host alone, watched, played to its end and
rematched; its clocks (a move's time limit, an absent player's grace) and their surviving
a restart; a match that never stalls; the history; the chat."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("fastapi")

from briscola.storage import Storage
from serverkit import Client, Driver, ServerProcess, open_table

GRACE = 1.0
CLOCK = 0.6


@pytest.fixture(scope="module")
def server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    return server_factory(None, "--min-clock", "0.5", grace=GRACE)


async def refused(c: Client, method: str, path: str, **kw: Any) -> tuple[int, str]:
    r = await c.http.request(method, path, **kw)
    assert r.status_code >= 400, r.text
    return r.status_code, r.json()["error"]["code"]


async def eventually(test: Callable[[], Any], timeout: float = 10.0) -> Any:
    """Poll ``test`` (a coroutine function) until it gives something true; that."""
    end = time.monotonic() + timeout
    while True:
        got = await test()
        if got:
            return got
        assert time.monotonic() < end, "it did not happen in time"
        await asyncio.sleep(0.05)


def seat_shown(c: Client, seat: int) -> dict[str, Any]:
    assert c.table is not None
    shown: dict[str, Any] = c.table["seats"][seat]
    return shown


# -- making, joining, seating, starting -----------------------------------------------------


async def test_private_tables_are_not_in_the_lobby_public_ones_are(clients: Any) -> None:
    ana = await clients("Ana")
    private = await open_table(ana, "briscola-2", [])
    public = await open_table(ana, "briscola-2", [], public=True)
    assert private["public"] is False
    lobby = [t["token"] for t in await ana.call("GET", "/api/tables")]
    assert public["token"] in lobby and private["token"] not in lobby
    bea = await clients("Bea")  # the link is all one needs
    got = await bea.call("GET", f"/api/tables/{private['token']}")
    assert got["token"] == private["token"] and got["you"]["seat"] is None


async def test_seats_are_taken_and_left_and_only_the_host_starts_or_changes_them(
    clients: Any,
) -> None:
    ana, bea, cai = await clients("Ana"), await clients("Bea"), await clients("Cai")
    seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}, {"kind": "bot", "level": "random"}]
    token = (await open_table(ana, "briscola-4", seats))["token"]
    t = await bea.call("POST", f"/api/tables/{token}/seats/1")
    assert t["seats"][1]["kind"] == "person" and t["you"]["seat"] == 1
    assert await refused(cai, "POST", f"/api/tables/{token}/seats/1") == (409, "seat_taken")
    assert await refused(bea, "POST", f"/api/tables/{token}/seats/2") == (409, "seated")
    assert await refused(ana, "POST", f"/api/tables/{token}/start") == (409, "seats_open")
    await cai.call("POST", f"/api/tables/{token}/seats/2")
    assert await refused(bea, "POST", f"/api/tables/{token}/start") == (403, "not_host")
    body = {"kind": "bot", "level": "random"}
    assert await refused(bea, "PUT", f"/api/tables/{token}/seats/2", json=body) == (
        403,
        "not_host",
    )
    assert await refused(bea, "DELETE", f"/api/tables/{token}/seats/2") == (403, "not_yours")
    t = await cai.call("DELETE", f"/api/tables/{token}/seats/2")
    assert t["seats"][2]["kind"] == "open" and t["you"]["seat"] is None
    t = await ana.call("PUT", f"/api/tables/{token}/seats/2", json=body)
    assert t["seats"][2] == {**t["seats"][2], "kind": "bot", "level": "random"}
    t = await ana.call("POST", f"/api/tables/{token}/start")
    assert t["status"] == "playing"
    assert await refused(ana, "PUT", f"/api/tables/{token}/seats/2", json=body) == (
        409,
        "wrong_status",
    )
    assert await refused(cai, "POST", f"/api/tables/{token}/seats/2") == (409, "wrong_status")


async def test_a_spectator_gets_the_spectator_view_and_cannot_act(clients: Any) -> None:
    ana, eve = await clients("Ana"), await clients("Eve")
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}]
    token = (await open_table(ana, "briscola-2", seats, public=True))["token"]
    await ana.call("POST", f"/api/tables/{token}/start")
    await eve.connect(token)
    snap = await eve.until(lambda f: f["type"] == "snapshot")
    assert snap["table"]["you"]["seat"] is None
    view = snap["view"]
    assert view["seat"] is None and view["hand"] == [] and view["visible_hands"] == {}
    assert view["legal"] == []
    await eve.act({"seat": 0, "play": "Ab"})
    error = await eve.until(lambda f: f["type"] == "error")
    assert error["code"] == "spectator"


async def test_a_finished_match_its_history_and_its_rematch(clients: Any) -> None:
    ana, bea = await clients("Ana"), await clients("Bea")
    seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "level": "random"}]
    rules = {"match": "one-hand", "removed_two": "2s"}
    token = (await open_table(ana, "briscola-3", seats, rules, clock=30))["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    assert await refused(ana, "POST", f"/api/tables/{token}/rematch") == (409, "wrong_status")
    await ana.call("POST", f"/api/tables/{token}/start")
    drivers = [Driver(c, token, seed=i) for i, c in enumerate((ana, bea))]
    await asyncio.gather(*(d.run(60) for d in drivers))
    history = await ana.call("GET", "/api/history")
    assert history[0]["token"] == token and history[0]["seat"] == 0
    assert history[0]["players"] == {"0": "Ana", "1": "Bea"}
    assert [h["token"] for h in await (await clients("Cai")).call("GET", "/api/history")] == []
    new = await bea.call("POST", f"/api/tables/{token}/rematch")
    assert new["status"] == "playing" and new["token"] != token
    assert (new["game"], new["overrides"], new["clock"]) == ("briscola-3", rules, 30)
    old = await ana.call("GET", f"/api/tables/{token}")
    strip = [(s["kind"], s["player"], s["level"]) for s in new["seats"]]
    assert strip == [(s["kind"], s["player"], s["level"]) for s in old["seats"]]
    told = await ana.until(lambda f: f["type"] == "table" and f["table"]["rematch"])
    assert told["table"]["rematch"] == new["token"]
    assert (await ana.call("POST", f"/api/tables/{token}/rematch"))["token"] == new["token"]


# -- clocks ---------------------------------------------------------------------------------


async def test_a_slow_player_gets_a_computer_move_when_the_clock_runs_out(clients: Any) -> None:
    ana = await clients("Ana")
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}]
    assert await refused(ana, "POST", "/api/tables", json={"game": "briscola-2", "clock": 0.1}) == (
        400,
        "bad_clock",
    )
    table = await open_table(ana, "briscola-2", seats, clock=CLOCK, stand_in="beginner")
    assert (table["clock"], table["stand_in"]) == (CLOCK, "beginner")
    await ana.call("POST", f"/api/tables/{table['token']}/start")
    await ana.connect(table["token"])
    start = time.monotonic()
    moved = await ana.until(
        lambda f: any(e.get("seat") == 0 for e in f.get("events", ())), timeout=10
    )
    assert time.monotonic() - start >= CLOCK - 0.1
    assert next(e["type"] for e in moved["events"] if e.get("seat") == 0) == "card_played"


async def test_a_page_opened_while_a_clock_runs_is_told_the_seconds_left(clients: Any) -> None:
    """So a ring that empties with the clock shows the server's count, not a fresh one."""
    ana, bea = await clients("Ana"), await clients("Bea")
    table = await open_table(ana, "briscola-2", [], {"match": "one-hand"}, clock=30)
    token = table["token"]
    assert table["clock_left"] is None  # nobody's clock runs before the start
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    await ana.call("POST", f"/api/tables/{token}/start")
    await bea.connect(token)
    await ana.connect(token)
    first = (await ana.until(lambda f: f["type"] == "snapshot"))["table"]["clock_left"]
    assert 28 <= first <= 30, first
    await asyncio.sleep(1.5)
    await ana.close()  # the page opened again (Bea stays: her grace does not run out)
    await ana.connect(token)
    later = (await ana.until(lambda f: f["type"] == "snapshot"))["table"]["clock_left"]
    assert 1.2 <= first - later <= 5, (first, later)
    untimed = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "bot"}])
    await ana.call("POST", f"/api/tables/{untimed['token']}/start")
    shown = await ana.call("GET", f"/api/tables/{untimed['token']}")
    assert shown["clock_left"] is None
    # (a computer player's seat with no level has the server's stand-in level)
    assert shown["seats"][1]["level"] == shown["stand_in"] == "intermediate"


async def test_an_absent_player_is_stood_in_for_after_the_grace_and_comes_back(
    clients: Any,
) -> None:
    ana, bea = await clients("Ana"), await clients("Bea")
    table = await open_table(ana, "briscola-2", [], {"match": "one-hand"}, clock=CLOCK)
    token = table["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    await ana.call("POST", f"/api/tables/{token}/start")
    await ana.connect(token)
    await bea.connect(token)
    await bea.until(lambda f: f["type"] == "snapshot")
    await bea.close()
    gone = time.monotonic()
    await ana.until(lambda f: f.get("table") and f["table"]["seats"][1]["stand_in"])
    assert time.monotonic() - gone >= GRACE - 0.1
    assert seat_shown(ana, 1)["connected"] is False
    await bea.reconnect(token)
    await bea.until(lambda f: f["type"] in ("table", "snapshot"))
    assert seat_shown(bea, 1)["stand_in"] is False and seat_shown(bea, 1)["connected"]
    # back at the seat, Bea's clock runs again: nobody moves, and the match goes on
    version = bea.version
    await bea.until(lambda f: f["version"] >= version + 3, timeout=15)


async def test_a_player_back_at_their_turn_makes_their_move_on_their_clock(
    server_factory: Callable[..., ServerProcess],
) -> None:
    srv = server_factory(None, "--min-clock", "0.5", grace=0.3, bot_delay=1.5)
    ana, bea = await Client(srv.url, "Ana").login(), await Client(srv.url, "Bea").login()
    try:
        clock = 2.0
        table = await open_table(ana, "briscola-2", [], {"match": "one-hand"}, clock=clock)
        token = table["token"]
        await bea.call("POST", f"/api/tables/{token}/seats/1")
        await ana.call("POST", f"/api/tables/{token}/start")
        await ana.connect(token)
        await ana.until(lambda f: f["type"] == "snapshot")
        await bea.connect(token)
        await bea.until(lambda f: f["type"] == "snapshot")
        await bea.close()
        acted = -1
        while not (seat_shown(ana, 1)["stand_in"] and ana.view and ana.view["to_act"] == 1):
            if ana.my_turn() and acted != ana.version:
                acted = ana.version
                await ana.act(ana.view["legal"][0])  # type: ignore[index]
            await ana.receive()
        # the stand-in waits 1.5 s before its move: Bea is back before it is made
        await bea.reconnect(token)
        back = time.monotonic()
        await bea.until(
            lambda f: any(
                e["type"] == "card_played" and e["seat"] == 1 for e in f.get("events", ())
            ),
            timeout=clock + 4,
        )
        assert time.monotonic() - back >= clock - 0.3  # her clock ran out; no stand-in move
    finally:
        await ana.aclose()
        await bea.aclose()
        srv.stop()


async def test_a_match_never_stalls_when_everyone_leaves(clients: Any) -> None:
    ana, bea = await clients("Ana"), await clients("Bea")
    token = (await open_table(ana, "briscola-2", [], {"match": "one-hand"}))["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    await ana.call("POST", f"/api/tables/{token}/start")
    left = await ana.call("DELETE", f"/api/tables/{token}/seats/0")
    assert left["seats"][0]["kind"] == "bot"
    # Bea never comes to the table: after the grace a computer player plays for her

    async def over() -> bool:
        t = await ana.call("GET", f"/api/tables/{token}")
        return bool(t["status"] == "finished")

    await eventually(over, timeout=20)


# -- chat -----------------------------------------------------------------------------------


async def test_chat_is_kept_as_typed_length_limited_and_rate_limited(clients: Any) -> None:
    ana = await clients("Ana")
    token = (await open_table(ana, "briscola-2", []))["token"]
    await ana.connect(token)
    await ana.send({"type": "chat", "text": "<b>ciao</b> & \u202e"})
    line = await ana.until(lambda f: f["type"] == "chat")
    assert line["text"] == "<b>ciao</b> &" and line["nickname"] == "Ana"  # text, for a page
    await ana.send({"type": "chat", "text": "x" * 301})
    assert (await ana.until(lambda f: f["type"] == "error"))["code"] == "too_long"
    for i in range(8):
        await ana.send({"type": "chat", "text": f"line {i}"})
    codes = []
    while len(codes) < 8:
        f = await ana.until(lambda f: f["type"] in ("chat", "error"))
        codes.append(f["type"] if f["type"] == "chat" else f["code"])
    assert "flood" in codes and codes.count("chat") >= 3


# -- a restart ------------------------------------------------------------------------------


async def test_clocks_graces_and_chat_survive_a_restart(
    server_factory: Callable[..., ServerProcess],
) -> None:
    # A grace well past the clock (1.5 s) and a restart (a few seconds on a busy
    # machine): which of the two moved for Ana, and from when the grace ran, is then
    # told apart with room to spare.
    grace = 8.0
    srv = server_factory(None, "--min-clock", "0.5", grace=grace)
    ana, bea, eve = [await Client(srv.url, n).login() for n in ("Ana", "Bea", "Eve")]
    try:
        seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}]
        clocked = (await open_table(ana, "briscola-2", seats, clock=1.5))["token"]
        await ana.call("POST", f"/api/tables/{clocked}/start")
        started = time.monotonic()
        graced = (await open_table(ana, "briscola-2", [], public=True, chat="free"))["token"]
        await bea.call("POST", f"/api/tables/{graced}/seats/1")
        await ana.call("POST", f"/api/tables/{graced}/start")
        await eve.connect(graced)
        await eve.send({"type": "chat", "text": "forza <Bea>"})
        await eve.until(lambda f: f["type"] == "chat")
        await bea.connect(graced)
        await bea.until(lambda f: f["type"] == "snapshot")
        await bea.close()  # Bea's grace runs from now; Ana never came to either table
        gone = time.monotonic()
        await asyncio.sleep(0.3)
        srv.kill()
        store = await Storage.open(srv.database)
        assert (await store.table_by_token(clocked)).version <= 1  # Ana has not moved
        await store.close()
        srv.start()
        seen = len(eve.frames)
        await eve.reconnect(graced)

        async def moved() -> bool:
            t = await ana.call("GET", f"/api/tables/{clocked}")
            return bool(t["version"] >= 2)

        await eventually(moved, timeout=10)  # Ana's clock ran out after the restart
        assert time.monotonic() - started < grace  # her clock, not her grace
        table = await ana.call("GET", f"/api/tables/{clocked}")
        assert not table["seats"][0]["stand_in"]  # no stand-in yet: the clock moved

        await eve.until(lambda f: f.get("table") and f["table"]["seats"][1]["stand_in"], 15)
        assert time.monotonic() - gone < grace + 1.5  # the stored grace, not a new one
        lines = [(f["text"], f["nickname"]) for f in eve.frames[seen:] if f["type"] == "chat"]
        assert lines == [("forza <Bea>", "Eve")]
    finally:
        for c in (ana, bea, eve):
            await c.aclose()
        srv.stop()


async def test_a_stand_in_stays_in_across_a_restart(
    server_factory: Callable[..., ServerProcess],
) -> None:
    srv = server_factory(grace=0.3)
    ana, bea = await Client(srv.url, "Ana").login(), await Client(srv.url, "Bea").login()
    try:
        token = (await open_table(ana, "briscola-2", [], {"match": "one-hand"}))["token"]
        await bea.call("POST", f"/api/tables/{token}/seats/1")
        await ana.call("POST", f"/api/tables/{token}/start")
        await ana.connect(token)
        await ana.until(lambda f: f.get("table") and f["table"]["seats"][1]["stand_in"])
        srv.kill()
        srv.grace = 30  # a fresh grace would keep the seat waiting for Bea for long
        srv.start()
        await ana.reconnect(token)
        shown = await ana.until(lambda f: f["type"] in ("snapshot", "table"))
        assert shown["table"]["seats"][1]["stand_in"] is True
    finally:
        await ana.aclose()
        await bea.aclose()
        srv.stop()
