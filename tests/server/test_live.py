"""The live table's commands through the real server: the partner draw seats people where
it says, a player who left mid-match keeps the match in their history, the errors a person
reads name no database id, and the replies a client does not read never pile up."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from typing import Any

import pytest

pytest.importorskip("fastapi")

from serverkit import Client, ServerProcess, open_table, play_randomly

INTERNAL_ID = re.compile(r"table \d")


async def refusal(c: Client, method: str, path: str, **kw: Any) -> tuple[int, str, str]:
    r = await c.http.request(method, path, **kw)
    assert r.status_code >= 400, r.text
    error = r.json()["error"]
    return r.status_code, error["code"], error["message"]


# -- partners=drawn ----------------------------------------------------------------------------


async def drawn_table(ana: Client, bea: Client) -> tuple[str, list[int]]:
    """A started briscola-4 table under partners=drawn, Ana having chosen seat 0 and Bea
    seat 1, two computer players at 2 and 3, whose draw moved Ana or Bea (a draw leaves
    both where they chose once in 12: another table then); its token and seating."""
    seats = [
        {"kind": "me"},
        {"kind": "open"},
        {"kind": "bot", "level": "random"},
        {"kind": "bot", "level": "random"},
    ]
    for _ in range(40):
        table = await open_table(
            ana, "briscola-4", seats, {"partners": "drawn", "match": "one-hand"}
        )
        token = table["token"]
        await bea.call("POST", f"/api/tables/{token}/seats/1")
        for c in (ana, bea):
            await c.connect(token)
            await c.until(lambda f: f["type"] == "snapshot")
        for c in (ana, bea):  # said at the seats they chose
            await c.send({"type": "chat", "text": "ciao"})
            await c.until(lambda f, c=c: f["type"] == "chat" and f["nickname"] == c.nickname)
        await ana.call("POST", f"/api/tables/{token}/start")
        frame = await ana.until(lambda f: f.get("view") is not None)
        seating: list[int] = frame["view"]["match"]["seating"]
        if seating.index(0) != 0 or seating.index(1) != 1:
            await bea.until(lambda f: f.get("view") is not None)
            return token, seating
        for c in (ana, bea):
            await c.close()
    raise AssertionError("40 draws left both people where they chose")


async def test_the_partner_draw_seats_each_person_where_it_says(
    server: ServerProcess, clients: Any
) -> None:
    ana, bea = await clients("Ana"), await clients("Bea")
    token, seating = await drawn_table(ana, bea)
    chose = {ana.nickname: 0, bea.nickname: 1}
    drawn = {c.nickname: seating.index(chose[c.nickname]) for c in (ana, bea)}

    def check(c: Client) -> None:
        """Everything ``c`` was told puts them at their drawn seat."""
        seat = drawn[c.nickname]
        assert c.view is not None and c.table is not None
        assert c.view["seat"] == seat, (c.nickname, c.view["seat"], seat)
        assert c.view["match"]["seating"] == seating
        assert c.table["you"]["seat"] == seat
        assert c.table["seats"][seat]["player"] == c.player
        for action in c.view["legal"]:
            assert action.get("seat", seat) == seat

    async def on_frame(c: Client, frame: dict[str, Any]) -> None:
        if frame.get("view") is not None:
            check(c)

    for c in (ana, bea):
        check(c)
    shown = await ana.call("GET", f"/api/tables/{token}")
    assert shown["seats"][drawn["Ana"]]["player"] == ana.player
    assert shown["seats"][drawn["Bea"]]["player"] == bea.player
    bots = [i for i, s in enumerate(shown["seats"]) if s["kind"] == "bot"]
    assert bots == sorted([seating.index(2), seating.index(3)])

    # Someone coming in after the draw is told the lines as said at the seats now.
    await bea.close()
    await bea.connect(token)
    for _ in range(2):
        line = await bea.until(lambda f: f["type"] == "chat")
        assert line["seat"] == drawn[line["nickname"]], line

    # Only at the drawn seat: someone moved acting for the seat they chose is refused.
    moved = ana if drawn["Ana"] != 0 else bea
    other = bea if moved is ana else ana
    end = time.monotonic() + 30
    while not moved.my_turn():  # the other plays on meanwhile (the computer players too)
        assert time.monotonic() < end, "the moved person's turn did not come"
        if other.my_turn():
            assert other.view is not None
            await other.act(other.view["legal"][0])
            await other.until(lambda f: f["type"] == "update")
        with contextlib.suppress(TimeoutError):
            await moved.receive(0.2)
    assert moved.view is not None
    action = {**moved.view["legal"][0], "seat": chose[moved.nickname]}
    await moved.act(action)
    error = await moved.until(lambda f: f["type"] == "error")
    assert error["code"] == "not_your_seat", error

    # A restart keeps the seats, and each reconnects to the view of their drawn seat (the
    # view they had, when nothing was missed: the table then says where they sit).
    server.stop()
    server.start()
    for c in (ana, bea):
        await c.reconnect(token)
        await c.until(lambda f: f["type"] in ("table", "snapshot"))
        check(c)

    rng = random.Random(7)
    await asyncio.gather(*(play_randomly(c, rng, on_frame=on_frame) for c in (ana, bea)))
    record = await ana.call("GET", f"/api/tables/{token}/record")
    assert record["seating"] == seating
    for c in (ana, bea):
        history = await c.call("GET", "/api/history")
        assert history[0]["token"] == token
        assert history[0]["seat"] == drawn[c.nickname]
        assert history[0]["players"][str(drawn["Ana"])] == "Ana"
        assert history[0]["players"][str(drawn["Bea"])] == "Bea"


# -- a player who leaves mid-match --------------------------------------------------------------


async def test_a_player_who_left_mid_match_finds_it_in_their_history(
    server: ServerProcess, clients: Any
) -> None:
    ana, bea = await clients("Ana"), await clients("Bea")
    table = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
    token = table["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    for c in (ana, bea):
        await c.connect(token)
        await c.until(lambda f: f["type"] == "snapshot")
    await ana.call("POST", f"/api/tables/{token}/start")
    for c in (ana, bea):
        await c.until(lambda f: f.get("view") is not None)
    mover = ana if ana.my_turn() else bea
    assert mover.view is not None
    await mover.act(mover.view["legal"][0])
    await mover.until(lambda f: f["type"] == "update")
    # Ana leaves: a computer player takes her seat; a restart forgets nothing of it.
    left = await ana.call("DELETE", f"/api/tables/{token}/seats/0")
    assert left["seats"][0]["kind"] == "bot"
    await ana.close()
    server.stop()
    server.start()
    await bea.reconnect(token)
    await bea.until(lambda f: f.get("view") is not None)
    await play_randomly(bea, random.Random(3))
    for c, seat in ((ana, 0), (bea, 1)):
        history = await c.call("GET", "/api/history")
        assert [m["token"] for m in history] == [token], c.nickname
        assert history[0]["seat"] == seat
        assert history[0]["players"] == {"0": "Ana", "1": "Bea"}
    # The rematch seats the computer player that finished Ana's seat, not Ana.
    again = await bea.call("POST", f"/api/tables/{token}/rematch")
    assert again["seats"][0]["kind"] == "bot"


# -- what a person reads names no database id ---------------------------------------------------


async def test_seat_and_start_refusals_name_no_internal_id(clients: Any) -> None:
    ana, bea, cid = await clients("Ana"), await clients("Bea"), await clients("Cid")
    table = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
    token = table["token"]
    status, code, message = await refusal(bea, "POST", f"/api/tables/{token}/seats/0")
    assert (status, code) == (409, "seat_taken")
    assert not INTERNAL_ID.search(message) and "seat 0" in message, message
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    await ana.call("POST", f"/api/tables/{token}/start")
    await bea.call("DELETE", f"/api/tables/{token}/seats/1")  # a computer player sits there
    status, code, message = await refusal(cid, "POST", f"/api/tables/{token}/seats/1")
    assert (status, code) == (409, "wrong_status")
    assert not INTERNAL_ID.search(message) and "this table is playing" in message, message
    status, code, message = await refusal(ana, "POST", f"/api/tables/{token}/start")
    assert (status, code) == (409, "wrong_status")
    assert not INTERNAL_ID.search(message), message


def test_the_replies_a_client_does_not_read_never_pile_up() -> None:
    from briscola.server.live import OUTBOX, Connection

    conn = Connection(player=None, seat=None)
    kept = [conn.reply(f"reply {i}") for i in range(OUTBOX + 50)]
    assert kept == [True] * OUTBOX + [False] * 50
    assert conn.outbox == [f"reply {i}" for i in range(OUTBOX)]
    conn.outbox.clear()  # the writer took them: new replies are kept again
    assert conn.reply("again") and conn.outbox == ["again"]
