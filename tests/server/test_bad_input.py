"""Bad input through the real server: each bad message or request gets an error with a
code and a sentence, and changes nothing (the table's version and every view stay); a
flooding client is refused, then closed, and another table plays on meanwhile."""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")

from serverkit import Client, ServerProcess, open_table


class Table:
    """Ana (seat 0) and Bea (seat 1) at a public briscola-2 table in play, Cid watching."""

    def __init__(self, token: str, ana: Client, bea: Client, cid: Client) -> None:
        self.token, self.ana, self.bea, self.cid = token, ana, bea, cid

    def mover(self) -> Client:
        return self.ana if self.ana.my_turn() else self.bea

    def waiter(self) -> Client:
        return self.bea if self.ana.my_turn() else self.ana

    async def state(self) -> tuple[int, list[Any]]:
        """The version, and the views of a fresh connection of each."""
        views = []
        for c in (self.ana, self.bea, self.cid):
            probe = Client(c.base, c.nickname)
            probe.http.cookies = c.http.cookies
            await probe.connect(self.token)
            views.append((await probe.until(lambda f: f["type"] == "snapshot"))["view"])
            await probe.aclose()
        table = await self.ana.call("GET", f"/api/tables/{self.token}")
        return table["version"], views


@pytest.fixture
async def table(server: ServerProcess) -> AsyncIterator[Table]:
    ana, bea, cid = [await Client(server.url, n).login() for n in ("Ana", "Bea", "Cid")]
    try:
        seats = [{"kind": "me"}, {"kind": "open"}]
        t = await open_table(ana, "briscola-2", seats, public=True)
        await bea.call("POST", f"/api/tables/{t['token']}/seats/1")
        await ana.call("POST", f"/api/tables/{t['token']}/start")
        for c in (ana, bea, cid):
            await c.connect(t["token"])
            await c.until(lambda f: f["type"] == "snapshot")
        yield Table(t["token"], ana, bea, cid)
    finally:
        for c in (ana, bea, cid):
            await c.aclose()


async def error_for(client: Client, text: str | bytes) -> dict[str, Any]:
    """Send ``text`` as it is; the error it gets (after any other frame)."""
    await client.ws.send(text)
    frame = await client.until(lambda f: f["type"] == "error", timeout=10)
    assert isinstance(frame["code"], str) and frame["code"]
    assert isinstance(frame["message"], str) and " " in frame["message"]
    return frame


def act(client: Client, action: Any, version: int | None = None, **extra: Any) -> str:
    v = client.version if version is None else version
    return json.dumps({"type": "act", "version": v, "action": action, **extra})


async def test_bad_messages_get_errors_and_change_nothing(table: Table) -> None:
    before = await table.state()
    mover, waiter, cid = table.mover(), table.waiter(), table.cid
    legal = mover.view["legal"][0]  # type: ignore[index]
    other = waiter.view["hand"][0]  # type: ignore[index]
    cases: list[tuple[Client, str | bytes, str]] = [
        (mover, "{not json", "bad_json"),
        (mover, "", "bad_json"),
        (mover, "[" * 5000 + "]" * 5000, "bad_json"),
        (mover, b"\x00\x01binary", "bad_json"),
        (mover, "[]", "bad_message"),
        (mover, '"act"', "bad_message"),
        (mover, '{"type": "dance"}', "bad_message"),
        (mover, '{"no": "type"}', "bad_message"),
        (mover, json.dumps({"type": "act", "version": "0", "action": legal}), "bad_message"),
        (mover, json.dumps({"type": "act", "version": 0, "action": "Ab"}), "bad_message"),
        (mover, json.dumps({"type": "act", "version": 0}), "bad_message"),
        (mover, act(mover, legal, extra=1), "bad_message"),
        (mover, act(mover, legal, id="x" * 65), "bad_message"),
        (mover, json.dumps({"type": "chat", "text": 5}), "bad_message"),
        (mover, json.dumps({"type": "sync", "since": -1}), "bad_message"),
        (mover, json.dumps({"type": "sync", "since": 10**9}), "bad_version"),
        (mover, act(mover, {"dance": 1}), "bad_action"),
        (mover, act(mover, {"seat": 0.5, "play": "Ab"}), "bad_action"),
        (mover, act(mover, {**legal, "seat": 1 - legal["seat"]}), "not_your_seat"),
        (mover, act(mover, {"seat": legal["seat"], "play": other}), "illegal"),
        (mover, act(mover, legal, version=mover.version - 1), "stale"),
        (mover, act(mover, legal, version=mover.version + 1), "stale"),
        (waiter, act(waiter, {"seat": 1 - legal["seat"], "play": other}), "not_your_turn"),
        (waiter, act(waiter, legal), "not_your_seat"),
        (cid, act(cid, legal), "spectator"),
        (mover, "x" * 20_000, "too_big"),
        (mover, json.dumps({"type": "chat", "text": "é" * 9_000}), "too_big"),
    ]
    for client, text, code in cases:
        frame = await error_for(client, text)
        assert frame["code"] == code, (str(text)[:80], frame)
        assert frame["version"] == before[0]
    # The reference's id comes back with its error.
    frame = await error_for(mover, act(mover, {"dance": 1}, id="mine"))
    assert frame["id"] == "mine"
    assert await table.state() == before
    # And the table plays on: the good move is taken.
    await mover.act(legal)
    await mover.until(lambda f: f["type"] == "update" and f["version"] == before[0] + 1)


async def test_a_frame_too_big_for_the_socket_closes_it_and_nothing_else(table: Table) -> None:
    before = await table.state()
    await table.cid.ws.send("x" * 200_000)
    with pytest.raises(Exception, match=r"1009|too big"):
        await table.cid.until(lambda f: False, timeout=10)
    assert await table.state() == before
    mover = table.mover()
    await mover.act(mover.view["legal"][0])  # type: ignore[index]
    await mover.until(lambda f: f["type"] == "update")


async def test_a_flood_is_refused_then_closed_and_another_table_plays_on(
    server: ServerProcess, table: Table
) -> None:
    # A second table: Dan against a computer player, moving as fast as he is answered.
    dan = await Client(server.url, "Dan").login()
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}]
    other = await open_table(dan, "briscola-2", seats, {"match": "points:500"})
    await dan.call("POST", f"/api/tables/{other['token']}/start")
    await dan.connect(other["token"])
    await dan.until(lambda f: f["type"] == "snapshot")
    times: list[float] = []
    flooding = True

    async def play_on() -> None:
        while flooding:
            if not dan.my_turn():
                await dan.receive()
                continue
            sent = time.perf_counter()
            version = dan.version
            await dan.act(dan.view["legal"][0])  # type: ignore[index]
            await dan.until(lambda f, v=version: f["type"] == "update" and f["since"] == v)
            times.append(time.perf_counter() - sent)
            await asyncio.sleep(0.12)  # a person's pace: under 10 messages a second

    before = await table.state()
    player = asyncio.create_task(play_on())
    await asyncio.sleep(0.5)
    quiet = len(times)
    flood = table.waiter()
    codes: list[str] = []
    closed = None
    try:
        for _ in range(400):
            await flood.ws.send(json.dumps({"type": "ping"}))
    except Exception:  # closed by the server before all were sent
        pass
    try:
        while True:
            frame = await flood.receive(timeout=10)
            if frame["type"] == "error":
                codes.append(frame["code"])
    except Exception as e:  # the socket closed
        closed = e
    await asyncio.sleep(0.5)
    flooding = False
    await player
    await dan.aclose()
    assert codes and set(codes) == {"flood"}
    assert "1008" in str(closed) or "flood" in str(closed)
    assert await table.state() == before
    # Dan played on at his pace, answered quickly, before and while the flood came.
    assert len(times) > quiet >= 2
    assert statistics.median(times) < 0.1, times
    assert max(times) < 1.0, times


# -------------------------------------------------------------- REST


async def expect(client: Client, method: str, path: str, status: int, code: str, **kw: Any) -> None:
    r = await client.http.request(method, path, **kw)
    assert r.status_code == status, (method, path, kw, r.status_code, r.text)
    error = r.json()["error"]
    assert error["code"] == code, (method, path, kw, error)
    assert " " in error["message"]


async def test_bad_requests_get_errors_and_change_nothing(server: ServerProcess) -> None:
    ana, bea, cid = [await Client(server.url, n).login() for n in ("Ana", "Bea", "Cid")]
    nobody = Client(server.url, "nobody")
    try:
        for body, code in [
            ({}, "bad_request"),
            ({"nickname": ""}, "bad_request"),
            ({"nickname": "x" * 41}, "bad_request"),
            ({"nickname": 5}, "bad_request"),
            ({"nickname": "   "}, "bad_nickname"),
            ({"nickname": "a\x07b"}, "bad_nickname"),
        ]:
            status = 422 if code == "bad_request" else 400
            await expect(nobody, "POST", "/api/session", status, code, json=body)
        typed = {"Content-Type": "application/json"}
        await expect(
            nobody, "POST", "/api/session", 422, "bad_request", content=b"{nope", headers=typed
        )
        for kind in (None, "text/plain", "application/x-www-form-urlencoded"):  # not JSON
            await expect(
                nobody, "POST", "/api/session", 415, "bad_content_type",
                content=b'{"nickname": "Eve"}', headers={"Content-Type": kind} if kind else {},
            )  # fmt: skip
        await expect(nobody, "POST", "/api/tables", 401, "no_session", json={"game": "briscola-2"})
        for body, code in [
            ({"game": "tressette"}, "bad_game"),
            ({"game": 2}, "bad_request"),
            ({"game": "briscola-2", "rules": {"match": "forever"}}, "bad_rules"),
            ({"game": "briscola-2", "rules": {"colour": "red"}}, "bad_rules"),
            ({"game": "briscola-2", "rules": {"match": ["one-hand"]}}, "bad_request"),
            ({"game": "briscola-2", "seats": [{"kind": "me"}]}, "bad_seats"),
            ({"game": "briscola-2", "seats": [{"kind": "me"}, {"kind": "me"}]}, "bad_seats"),
            ({"game": "briscola-2", "seats": [{"kind": "me"}, {"kind": "sofa"}]}, "bad_request"),
            (
                {
                    "game": "briscola-2",
                    "seats": [{"kind": "me"}, {"kind": "open", "level": "random"}],
                },
                "bad_seats",
            ),
            (
                {"game": "briscola-2", "seats": [{"kind": "me"}, {"kind": "bot", "level": "god"}]},
                "bad_level",
            ),
            (
                {"game": "briscola-2", "seats": [{"kind": "me"}, {"kind": "bot", "level": ""}]},
                "bad_level",
            ),
            ({"game": "briscola-2", "stand_in": "god"}, "bad_level"),
            ({"game": "briscola-2", "clock": 1}, "bad_clock"),
            ({"game": "briscola-2", "clock": -3}, "bad_request"),
            ({"game": "briscola-2", "public": "yes"}, "bad_request"),
        ]:
            status = 422 if code == "bad_request" else 400
            await expect(ana, "POST", "/api/tables", status, code, json=body)
        assert await ana.call("GET", "/api/history") == []
        # A table waiting: Bea takes seat 1; Cid tries what only a host or a free seat allows.
        t = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
        base = f"/api/tables/{t['token']}"
        await bea.call("POST", f"{base}/seats/1")
        before = await ana.call("GET", base)
        await expect(cid, "POST", f"{base}/seats/1", 409, "seat_taken")
        await expect(cid, "POST", f"{base}/seats/0", 409, "seat_taken")
        await expect(cid, "POST", f"{base}/seats/2", 404, "bad_seat")
        await expect(cid, "POST", f"{base}/seats/-1", 404, "bad_seat")
        await expect(cid, "POST", f"{base}/seats/x", 422, "bad_request")
        await expect(bea, "POST", f"{base}/seats/0", 409, "seated")
        await expect(cid, "POST", f"{base}/start", 403, "not_host")
        await expect(bea, "POST", f"{base}/start", 403, "not_host")
        await expect(bea, "PUT", f"{base}/seats/1", 403, "not_host", json={"kind": "open"})
        await expect(
            cid, "PUT", f"{base}/seats/1", 403, "not_host", json={"kind": "bot", "level": "random"}
        )
        await expect(ana, "PUT", f"{base}/seats/1", 422, "bad_request", json={"kind": "throne"})
        await expect(ana, "PUT", f"{base}/seats/9", 404, "bad_seat", json={"kind": "open"})
        await expect(
            ana, "PUT", f"{base}/seats/1", 400, "bad_level", json={"kind": "bot", "level": "god"}
        )
        await expect(cid, "DELETE", f"{base}/seats/1", 403, "not_yours")
        await expect(ana, "POST", f"{base}/rematch", 409, "wrong_status")
        await expect(ana, "GET", f"{base}/hands/1", 404, "not_finished")
        await expect(ana, "GET", f"{base}/record", 404, "not_finished")
        await expect(nobody, "POST", f"{base}/start", 401, "no_session")
        assert await ana.call("GET", base) == before
        # A private table's unknown token, and a forged session.
        await expect(cid, "GET", "/api/tables/not-a-token", 404, "not_found")
        await expect(cid, "POST", "/api/tables/not-a-token/seats/0", 404, "not_found")
        forged = Client(server.url, "forged")
        forged.http.cookies.set("briscola_session", "1.forged")
        await expect(forged, "GET", "/api/session", 401, "no_session")
        await forged.aclose()
        await cid.connect("not-a-token")
        frame = await cid.receive()
        assert frame["type"] == "error" and frame["code"] == "not_found"
        await cid.close()
        # Once started: no seat can be changed, nor the table started again.
        await ana.call("POST", f"{base}/start")
        started = await ana.call("GET", base)
        await expect(ana, "POST", f"{base}/start", 409, "wrong_status")
        await expect(cid, "POST", f"{base}/seats/1", 409, "wrong_status")
        await expect(ana, "PUT", f"{base}/seats/1", 409, "wrong_status", json={"kind": "open"})
        assert (await ana.call("GET", base))["version"] == started["version"]
    finally:
        for c in (ana, bea, cid, nobody):
            await c.aclose()


async def test_a_request_body_too_big_is_refused_before_it_is_read(server: ServerProcess) -> None:
    ana = await Client(server.url, "Ana").login()
    try:
        huge = json.dumps({"game": "briscola-2", "rules": {"x": "y" * 200_000}})
        r = await ana.http.post(
            "/api/tables", content=huge, headers={"content-type": "application/json"}
        )
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_big"

        async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted as it comes
            for _ in range(20):
                yield b" " * 10_000

        try:
            r = await ana.http.post(
                "/api/session", content=chunks(), headers={"content-type": "application/json"}
            )
        except httpx.TransportError:
            pass  # answered 413 and closed while the client was still sending: refused too
        else:
            assert r.status_code == 413 and r.json()["error"]["code"] == "too_big"
        assert await ana.call("GET", "/api/history") == []  # the session still serves
    finally:
        await ana.aclose()
