"""What docs/protocol.md promises a client author, through the real server: a table
made as the page shows (201; the seating when `seats` is left out); the error body on
every HTTP error; a hand there is not (`bad_hand`); reconnecting at the table's version
(nothing new comes: no snapshot); a `since` that is no number (a snapshot, not a refused
handshake); a snapshot when your seat changes; an action sent again after its socket
closed, taken once and answered; the frame limit as the page counts it (UTF-8 bytes)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import websockets

from serverkit import Client, open_table, play_randomly

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


async def playing(ana: Client, bea: Client) -> str:
    """A public briscola-2 table in play, Ana at seat 0 and Bea at seat 1, both connected
    and sent their snapshot; its token."""
    table = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}], public=True)
    token: str = table["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    await ana.call("POST", f"/api/tables/{token}/start")
    for c in (ana, bea):
        await c.connect(token)
        await c.until(lambda f: f["type"] == "snapshot")
    return token


async def until_pong(c: Client) -> list[dict[str, Any]]:
    """Ping, and every frame received up to its pong (replies come after what is new)."""
    n = len(c.frames)
    await c.send({"type": "ping"})
    await c.until(lambda f: f["type"] == "pong", timeout=10)
    return c.frames[n:-1]


def ws_url(c: Client, token: str, query: str) -> str:
    return c.base.replace("http://", "ws://") + f"/api/tables/{token}/ws?{query}"


# -- creating a table -----------------------------------------------------------------------


def doc_example(tag: str) -> Any:
    found = re.search(rf"^```json {tag}\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.M | re.S)
    assert found, f"docs/protocol.md: an example of {tag}"
    return json.loads(found.group(1))


async def test_a_table_is_made_and_its_seats_set_as_the_page_shows(clients: Any) -> None:
    """``POST /api/tables`` answers 201; left out, the seats are the host at 0 and the
    others open; the page's examples of both bodies are taken as they are."""
    ana = await clients("Ana")
    r = await ana.http.post("/api/tables", json={"game": "briscola-4"})
    assert r.status_code == 201, r.text
    seats = r.json()["seats"]
    assert [s["kind"] for s in seats] == ["person", "open", "open", "open"]
    assert seats[0]["player"] == ana.player and r.json()["you"]["seat"] == 0
    body = doc_example("TableIn")
    r = await ana.http.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    table = r.json()
    kinds = {"me": "person", "open": "open", "bot": "bot"}
    assert [s["kind"] for s in table["seats"]] == [kinds[s["kind"]] for s in body["seats"]]
    assert table["overrides"] == body["rules"] and table["public"] == body["public"]
    change = doc_example("SeatChange")
    seat = next(i for i, s in enumerate(body["seats"]) if s["kind"] == "open")
    path = f"/api/tables/{table['token']}/seats/{seat}"
    r = await ana.http.put(path, json=change)
    assert r.status_code == 200, r.text
    assert r.json()["seats"][seat]["kind"] == change["kind"]
    assert r.json()["seats"][seat]["level"] == change["level"]


# -- HTTP errors ----------------------------------------------------------------------------


async def test_every_http_error_has_the_documented_body(clients: Any) -> None:
    ana = await clients("Ana")
    deep = "[" * 30_000 + "]" * 30_000  # nested too deeply for any JSON reader
    as_json = {"content-type": "application/json"}
    cases: list[tuple[str, str, dict[str, Any], int, str]] = [
        ("GET", "/api/no-such-route", {}, 404, "no_route"),
        ("GET", "/no/such/page", {}, 404, "no_route"),
        ("GET", "/static/no-such-file.js", {}, 404, "no_route"),
        ("DELETE", "/api/tables", {}, 405, "bad_method"),
        ("PUT", "/api/session", {"json": {"nickname": "x"}}, 405, "bad_method"),
        ("POST", "/api/session", {"content": deep, "headers": as_json}, 422, "bad_request"),
        ("POST", "/api/tables", {"content": b'{"game": "\xc3("}', "headers": as_json}, 422,
         "bad_request"),  # not UTF-8
    ]  # fmt: skip
    for method, path, kw, status, code in cases:
        r = await ana.http.request(method, path, **kw)
        assert r.status_code == status, (method, path, r.status_code, r.text[:200])
        assert r.headers["content-type"].startswith("application/json"), (method, path)
        body = r.json()
        assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "values"}
        assert body["error"]["values"] == {}, body
        assert body["error"]["code"] == code, (method, path, body)
        assert " " in body["error"]["message"]
        if status == 405:
            assert r.headers.get("allow"), "a 405 says which methods the route has"


async def test_a_hand_there_is_not_is_bad_hand_not_unfinished(clients: Any) -> None:
    ana = await clients("Ana")
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}]
    table = await open_table(ana, "briscola-2", seats, {"match": "one-hand"})
    base = f"/api/tables/{table['token']}/hands"

    async def code(path: str) -> tuple[int, str]:
        r = await ana.http.get(path)
        return r.status_code, r.json()["error"]["code"] if r.status_code >= 400 else ""

    for n in (0, -1):
        for tail in ("", "/replay"):
            assert await code(f"{base}/{n}{tail}") == (404, "bad_hand")
    assert await code(f"{base}/1") == (404, "not_finished")  # the table waits
    await ana.call("POST", f"/api/tables/{table['token']}/start")
    await ana.connect(table["token"])
    await play_randomly(ana, random.Random(5))
    assert await code(f"{base}/1") == (200, "")
    assert await code(f"{base}/2") == (404, "bad_hand")  # a one-hand match, over
    assert await code(f"{base}/2/replay") == (404, "bad_hand")


# -- reconnecting ---------------------------------------------------------------------------


async def test_back_at_the_tables_version_nothing_new_comes_and_no_snapshot(
    clients: Any,
) -> None:
    """``?since=V`` or ``sync`` at the table's version: the view the client has is
    current; it gets the table (a `table` message, on a new connection) and no snapshot."""
    ana, bea = await clients("Ana"), await clients("Bea")
    token = await playing(ana, bea)
    mover = ana if ana.my_turn() else bea
    await mover.act(mover.view["legal"][0])  # type: ignore[index]
    await ana.until(lambda f: f["type"] == "update")
    version, view = ana.version, ana.view
    assert version == 1
    await ana.close()
    await ana.connect(token, since=version)
    frames = await until_pong(ana)
    assert [f["type"] for f in frames if f["type"] != "chat"] == ["table"], frames
    assert frames[0]["table"]["you"]["seat"] == 0 and frames[0]["version"] == version
    assert ana.view == view
    await ana.send({"type": "sync", "since": version})
    assert [f["type"] for f in await until_pong(ana)] == []


@pytest.mark.parametrize("since", ["abc", "1.5", "", "-1", "1e3", "99999", "٣"])
async def test_a_since_that_is_no_version_gets_a_snapshot(clients: Any, since: str) -> None:
    ana, bea = await clients("Ana"), await clients("Bea")
    token = await playing(ana, bea)
    cookie = {"Cookie": f"briscola_session={ana.http.cookies['briscola_session']}"}
    async with websockets.connect(
        ws_url(ana, token, f"since={since}"), additional_headers=cookie
    ) as ws:
        first = json.loads(await ws.recv())
    assert first["type"] == "snapshot", first
    assert first["view"]["seat"] == 0 and first["table"]["you"]["seat"] == 0


# -- seats ----------------------------------------------------------------------------------


async def test_a_seat_changed_while_connected_brings_a_snapshot(clients: Any) -> None:
    ana, bea = await clients("Ana"), await clients("Bea")
    table = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
    token = table["token"]
    await bea.connect(token)
    await bea.until(lambda f: f["type"] == "snapshot")
    await bea.call("POST", f"/api/tables/{token}/seats/1")  # she sits down
    snapshots = [f for f in await until_pong(bea) if f["type"] == "snapshot"]
    assert snapshots and snapshots[-1]["table"]["you"]["seat"] == 1
    await ana.call("POST", f"/api/tables/{token}/start")
    await bea.until(lambda f: f["type"] == "snapshot" and f["view"] is not None)
    assert bea.view is not None and bea.view["seat"] == 1
    await bea.call("DELETE", f"/api/tables/{token}/seats/1")  # she leaves mid-match
    snapshots = [f for f in await until_pong(bea) if f["type"] == "snapshot"]
    assert snapshots, "leaving the seat mid-match: a snapshot with the spectator's view"
    assert snapshots[-1]["view"]["seat"] is None and snapshots[-1]["view"]["hand"] == []
    assert snapshots[-1]["table"]["you"]["seat"] is None
    assert snapshots[-1]["table"]["seats"][1]["kind"] == "bot"


# -- an action and a closing socket ---------------------------------------------------------


@pytest.mark.parametrize("wait", [True, False], ids=["known-taken", "unknown"])
async def test_an_action_resent_after_its_socket_closed_is_taken_once(
    clients: Any, wait: bool
) -> None:
    """The mover acts and closes at once, not knowing whether the action arrived; back
    with ``?since=``, it sends the same action with the same ``id`` again. One action is
    taken, and the client is told: by the update, and for the copy the server had taken
    already by an ``already_taken`` error with its ``id``."""
    ana, bea = await clients("Ana"), await clients("Bea")
    token = await playing(ana, bea)
    first = ana if ana.my_turn() else bea
    await first.act(first.view["legal"][0])  # type: ignore[index]
    for c in (ana, bea):
        await c.until(lambda f: f["type"] == "update")
    mover, other = (ana, bea) if ana.my_turn() else (bea, ana)
    version = mover.version
    action = mover.view["legal"][0]  # type: ignore[index]
    act = {"type": "act", "version": version, "action": action, "id": "move-1"}
    await mover.send(act)
    await mover.close()
    if wait:  # the other seat saw it taken: the mover was never told
        await other.until(lambda f: f["type"] == "update" and f["version"] == version + 1)
    await mover.connect(token, since=version)
    await mover.send(act)
    got = await mover.until(lambda f: f["type"] == "update", timeout=10)
    assert got["since"] == version and got["version"] == version + 1
    played = [e for e in got["events"] if e["type"] == "card_played"]
    assert played == [{"type": "card_played", "seat": action["seat"], "card": action["play"]}]
    later = await until_pong(mover)
    answers = [f for f in mover.frames if f["type"] == "error"]
    assert all(f["code"] == "already_taken" and f["id"] == "move-1" for f in answers), answers
    if wait:
        assert len(answers) == 1 and " " in answers[0]["message"]
    assert mover.version == version + 1 and not [f for f in later if f["type"] == "update"]
    assert (await other.call("GET", f"/api/tables/{token}"))["version"] == version + 1
    await until_pong(other)
    assert other.version == version + 1


# -- limits ---------------------------------------------------------------------------------


def documented_frame_limit() -> int:
    found = re.search(r"\*\*Frame size\*\*: a message is at most ([\d,]+) bytes", DOC.read_text())
    assert found, "docs/protocol.md, Limits: the frame size in bytes"
    return int(found.group(1).replace(",", ""))


async def test_the_frame_limit_counts_the_bytes_the_page_says(clients: Any) -> None:
    """A message of exactly the limit in UTF-8 bytes is read (here: a chat line too long);
    one byte more is ``too_big``, though it has far fewer characters than the limit."""
    limit = documented_frame_limit()
    ana, bea = await clients("Ana"), await clients("Bea")
    await playing(ana, bea)
    base = len(json.dumps({"type": "chat", "text": ""}).encode())
    for size, code in ((limit, "too_long"), (limit + 1, "too_big")):
        pairs, odd = divmod(size - base, 2)
        text = json.dumps({"type": "chat", "text": "é" * pairs + "a" * odd}, ensure_ascii=False)
        assert len(text.encode()) == size and len(text) < limit
        await ana.ws.send(text)
        frame = await ana.until(lambda f: f["type"] == "error", timeout=10)
        assert frame["code"] == code, (size, frame)
