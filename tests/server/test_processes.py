"""Several server processes, one truth (issue 24): two ``briscola serve`` processes on one
PostgreSQL database and one Redis. A client may connect to either and play any table:
each process follows the log the other appends to. A table's actions happen one at a
time, in one order (the unique append decides); a computer player's move is claimed in
the database, so neither process makes it twice; with Redis away, the processes find
each other's moves by looking at the stored versions."""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets.exceptions

pytest.importorskip("redis")

from briscola.storage import Storage
from serverkit import (
    Client,
    ServerProcess,
    database,
    heard,
    news,
    open_table,
    play_randomly,
    silent,
)

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def two(
    redis_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[ServerProcess, ServerProcess, str]]:
    """Two server processes sharing a fresh PostgreSQL database and the Redis, for the
    module; and the database's URL."""
    loop = asyncio.new_event_loop()
    made = database("postgres")
    procs: list[ServerProcess] = []
    try:  # the loop is closed even when there is no PostgreSQL (a skip)
        url = loop.run_until_complete(made.__aenter__())
        assert url is not None
        settings = {"redis_url": f"unix://{redis_dir}/redis.sock", "follow_every": 0.5}
        where = tmp_path_factory.mktemp("processes")
        procs = [ServerProcess(where / n, url, settings=settings) for n in ("a", "b")]
        try:
            for p in procs:
                p.start()
            yield procs[0], procs[1], url
        finally:
            for p in procs:
                p.stop()
            loop.run_until_complete(made.__aexit__(None, None, None))
    finally:
        loop.close()


async def person(srv: ServerProcess, name: str) -> Client:
    return await Client(srv.url, name).login()


async def stored_log(url: str, token: str) -> tuple[int, list[dict[str, Any]]]:
    """The table's stored version and its logged actions, as the database has them."""
    storage = await Storage.open(url)
    try:
        info = await storage.table_by_token(token)
        return info.version, [a.action for a in await storage.actions_since(info.id)]
    finally:
        await storage.close()


async def fresh_view(srv: ServerProcess, client: Client, token: str) -> dict[str, Any] | None:
    """``client``'s view in a snapshot from ``srv``, on a new connection of theirs."""
    again = Client(srv.url, client.nickname)
    again.http.cookies = client.http.cookies
    await again.connect(token)
    frame = await again.until(lambda f: f["type"] == "snapshot")
    await again.aclose()
    view: dict[str, Any] | None = frame["view"]
    return view


async def test_two_people_on_two_processes_play_one_table_to_its_end(
    two: tuple[ServerProcess, ServerProcess, str],
) -> None:
    a, b, url = two
    ana, bea = await person(a, "Ana"), await person(b, "Bea")
    table = await open_table(ana, "briscola-2", [], {"match": "one-hand"})
    token = table["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")  # through the other process
    shown = await ana.call("GET", f"/api/tables/{token}")
    assert shown["seats"][1]["nickname"] == "Bea"
    await ana.call("POST", f"/api/tables/{token}/start")
    await ana.connect(token)
    await bea.connect(token)
    await asyncio.gather(play_randomly(ana, random.Random(1)), play_randomly(bea, random.Random(2)))
    version, actions = await stored_log(url, token)
    assert version == len(actions) == 40  # one hand of briscola-2: 40 cards, one at a time
    # each client saw every action, in order, and its view is the one either process gives
    for c in (ana, bea):
        assert c.table is not None and c.table["status"] == "finished"
        for srv in (a, b):
            assert await fresh_view(srv, c, token) == c.view
    await ana.aclose()
    await bea.aclose()


async def test_computer_players_move_once_with_people_on_both_processes(
    two: tuple[ServerProcess, ServerProcess, str],
) -> None:
    a, b, url = two
    ana, bea = await person(a, "Ana"), await person(b, "Bea")
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "open"}]
    seats.append({"kind": "bot", "level": "random"})
    table = await open_table(ana, "briscola-4", seats, {"match": "one-hand"})
    token = table["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/2")
    assert (await bea.http.post(f"/api/tables/{token}/start")).status_code == 403  # not host
    await ana.call("POST", f"/api/tables/{token}/start")
    await ana.connect(token)
    await bea.connect(token)
    await asyncio.gather(play_randomly(ana, random.Random(3)), play_randomly(bea, random.Random(4)))
    version, actions = await stored_log(url, token)
    assert version == len(actions) == 40
    bots = [x for x in actions if x["seat"] in (1, 3)]
    assert len(bots) == 20  # ten cards each, each played once
    # neither process had a computer move refused as a second one for the same turn
    for srv in (a, b):
        log = srv.log.read_text()
        assert "computer move refused" not in log, log[-2000:]
    await ana.aclose()
    await bea.aclose()


async def test_with_redis_away_the_processes_find_each_others_moves(
    two: tuple[ServerProcess, ServerProcess, str], redis_dir: Path
) -> None:
    a, b, _ = two
    ana, bea = await person(a, "Ana"), await person(b, "Bea")
    table = await open_table(ana, "briscola-2", [], {"match": "one-hand"})
    token = table["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    await ana.call("POST", f"/api/tables/{token}/start")
    await ana.connect(token)
    await bea.connect(token)
    cli = shutil.which("redis-cli") or "redis-cli"
    subprocess.run([cli, "-s", redis_dir / "redis.sock", "shutdown", "nosave"], check=False)
    try:
        renamed = await ana.http.patch("/api/session", json={"nickname": "Ana B"})
        assert renamed.status_code == 200, renamed.text
        await asyncio.wait_for(
            asyncio.gather(
                play_randomly(ana, random.Random(5)), play_randomly(bea, random.Random(6))
            ),
            timeout=120,
        )
    finally:
        subprocess.run(["redis-server", redis_dir / "redis.conf"], check=True)
    # Ana's rename, its wake-up lost, was read again at the other process all the same.
    assert (await bea.call("GET", f"/api/tables/{token}"))["seats"][0]["nickname"] == "Ana B"
    assert ana.view == await fresh_view(b, ana, token)
    assert any(f.get("table") and f["table"]["seats"][0]["nickname"] == "Ana B" for f in bea.frames)
    await ana.aclose()
    await bea.aclose()


async def test_one_action_sent_to_both_processes_at_once_is_taken_once(
    two: tuple[ServerProcess, ServerProcess, str],
) -> None:
    """Ana has the table open on both processes and plays the same card from each at the
    same moment: the unique append takes one, the other is refused, and both of her
    connections end with the same view."""
    a, b, url = two
    ana, bea = await person(a, "Ana"), await person(b, "Bea")
    twin = Client(b.url, "Ana")
    twin.http.cookies = ana.http.cookies
    table = await open_table(ana, "briscola-2", [], {"match": "one-hand"})
    token = table["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    await ana.call("POST", f"/api/tables/{token}/start")
    for c in (ana, twin, bea):
        await c.connect(token)
        await c.until(lambda f: f["type"] == "snapshot")
    if not ana.my_turn():  # Bea leads: her card first
        await bea.act(bea.view["legal"][0])  # type: ignore[index]
        for c in (ana, twin):
            await c.until(lambda f: f["type"] == "update")
    assert ana.view == twin.view and ana.version == twin.version
    card = ana.view["legal"][0]  # type: ignore[index]
    await asyncio.gather(ana.act(card), twin.act(card))
    errors = []
    for c in (ana, twin):
        with contextlib.suppress(TimeoutError):
            while True:
                frame = await c.receive(1.5)
                if frame["type"] == "error":
                    errors.append(frame["code"])
    _, actions = await stored_log(url, token)
    assert actions.count({**card, "seat": 0}) == 1, actions
    # the loser was refused: its process was behind (stale), or lost the append (conflict)
    assert len(errors) == 1 and errors[0] in ("stale", "conflict"), errors
    if errors == ["conflict"]:  # the loser's process says why, as the chaos test reads it
        said = f"table {token}: the action at version "
        logs = a.log.read_text() + b.log.read_text()
        assert any(said in line and "was not stored (StaleVersion)" in line
                   for line in logs.splitlines()), logs[-3000:]  # fmt: skip
    assert (
        ana.view == twin.view == await fresh_view(a, ana, token) == await fresh_view(b, ana, token)
    )
    for c in (ana, twin, bea):
        await c.aclose()


async def test_who_has_the_table_open_is_known_on_every_process(
    two: tuple[ServerProcess, ServerProcess, str],
) -> None:
    """Bea has the table open on the other process: Ana's sees her connected, and away
    once she closes it; a stand-in comes only after her grace, wherever it is counted."""
    a, b, _ = two
    ana, bea = await person(a, "Ana"), await person(b, "Bea")
    table = await open_table(ana, "briscola-2", [], {"match": "one-hand"})
    token = table["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    await ana.connect(token)
    await ana.until(lambda f: f["type"] == "snapshot")
    await bea.connect(token)
    await ana.until(lambda f: bool(f.get("table") and f["table"]["seats"][1]["connected"]))
    shown = await ana.call("GET", f"/api/tables/{token}")
    assert shown["seats"][1]["connected"] is True
    await bea.close()
    await ana.until(lambda f: bool(f.get("table") and not f["table"]["seats"][1]["connected"]))
    await ana.aclose()
    await bea.aclose()


async def test_a_chat_line_and_a_seat_changed_on_one_process_show_on_the_other(
    two: tuple[ServerProcess, ServerProcess, str],
) -> None:
    """A wake-up names what changed (a chat line; the seats): the other process reads
    that, and its connections are told at once, without waiting for a look."""
    a, b, _ = two
    ana, bea = await person(a, "Ana"), await person(b, "Bea")
    table = await open_table(ana, "briscola-2", [], {"match": "one-hand"})
    token = table["token"]
    await ana.connect(token)
    await ana.until(lambda f: f["type"] == "snapshot")
    await bea.connect(token)
    await bea.until(lambda f: f["type"] == "snapshot")
    await asyncio.sleep(1.0)  # the wake-ups of their connecting are over
    await bea.send({"type": "chat", "text": "ciao a tutti"})
    line = await ana.until(lambda f: f["type"] == "chat", timeout=2.5)
    assert (line["nickname"], line["text"]) == ("Bea", "ciao a tutti")
    await ana.send({"type": "chat", "text": "ciao Bea"})
    line = await bea.until(lambda f: f["type"] == "chat" and f["nickname"] == "Ana", timeout=2.5)
    assert line["text"] == "ciao Bea"
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    await ana.until(
        lambda f: bool(f.get("table") and f["table"]["seats"][1]["nickname"] == "Bea"),
        timeout=2.5,
    )
    await ana.aclose()
    await bea.aclose()


async def test_a_rename_and_a_deleted_account_on_one_process_show_on_the_other(
    two: tuple[ServerProcess, ServerProcess, str],
) -> None:
    """Ana renames herself at one process, then deletes her account there: at the other,
    where Bea plays with her, the seat shows the name she has now at once (Bea's socket is
    sent a ``table`` message, and so says ``GET /api/tables/T``), and so do the chat lines
    she said before, to a connection opened there since."""
    a, b, _ = two
    ana, bea = await person(a, "Ana"), await person(b, "Bea")
    table = await open_table(ana, "briscola-2", [], {"match": "one-hand"}, chat="free")
    token = table["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    await ana.call("POST", f"/api/tables/{token}/start")
    await ana.connect(token)
    await ana.until(lambda f: f["type"] == "snapshot")
    await bea.connect(token)
    await bea.until(lambda f: f["type"] == "snapshot")
    await asyncio.sleep(0.5)
    await ana.send({"type": "chat", "text": "ciao"})
    line = await bea.until(lambda f: f["type"] == "chat", timeout=2.5)
    assert line["nickname"] == "Ana"

    async def at_b() -> tuple[str, list[str]]:
        """Seat 0's nickname by REST at B, and on the chat lines of a new connection there."""
        seat = (await bea.call("GET", f"/api/tables/{token}"))["seats"][0]["nickname"]
        cy = await person(b, "Cy")
        await cy.connect(token)
        await cy.until(lambda f: f["type"] == "snapshot")
        await cy.send({"type": "ping"})
        await cy.until(lambda f: f["type"] == "pong")
        await cy.aclose()
        return seat, [f["nickname"] for f in cy.frames if f["type"] == "chat"]

    rename = {"method": "PATCH", "url": "/api/session", "json": {"nickname": "Anna"}}
    delete = {"method": "DELETE", "url": "/api/session/account", "json": {"confirm": "Anna"}}
    for change, name in ((rename, "Anna"), (delete, "Anonymous")):
        assert (await ana.http.request(**change)).status_code in (200, 204)
        await bea.until(
            lambda f, name=name: bool(
                f["type"] == "table" and f["table"]["seats"][0]["nickname"] == name
            ),
            timeout=2.5,
        )
        assert await at_b() == (name, [name])
    await ana.aclose()
    await bea.aclose()


async def test_signing_out_everywhere_on_one_process_closes_the_others_connections(
    two: tuple[ServerProcess, ServerProcess, str],
) -> None:
    """Ana, signed in on two devices, has the table open at the other process too;
    signing out everywhere at one closes her connection at the other at once (the
    wake-up, seconds before the processes' own look for ended sessions), and her cookie
    works at neither."""
    a, b, _ = two
    ana = await person(a, "Ana")
    laptop = Client(b.url, "Ana")
    code = (await ana.call("POST", "/api/session/code"))["code"]
    assert (await laptop.call("POST", "/api/session/code/use", json={"code": code}))[
        "nickname"
    ] == "Ana"
    table = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
    await laptop.connect(table["token"])
    await laptop.until(lambda f: f["type"] == "snapshot")
    await asyncio.sleep(0.5)
    r = await ana.http.delete("/api/session/devices")
    assert r.status_code == 204
    with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
        await laptop.until(lambda f: False, timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    for c in (ana, laptop):
        assert (await c.http.get("/api/session")).status_code == 401
    await ana.aclose()
    await laptop.aclose()


async def test_a_member_at_one_process_hears_of_a_family_table_opened_at_the_other(
    two: tuple[ServerProcess, ServerProcess, str],
) -> None:
    """Nonna opens a family table at one process; Ana, whose page is open at the other,
    hears of it at once (the wake-up crosses by Redis), and the stranger does not."""
    a, b, _ = two
    nonna, ana, stranger = await person(a, "Nonna"), await person(b, "Ana"), await person(b, "X")
    fid = (await nonna.call("POST", "/api/families", json={"name": "I Rossi"}))["id"]
    link = (await nonna.call("POST", f"/api/families/{fid}/invites"))["link"]
    await ana.call("POST", "/api/invites/" + link.removeprefix("/join/"))
    way = await nonna.call(
        "POST",
        f"/api/families/{fid}/rules",
        json={
            "name": "S",
            "body": {"game": "briscola-2", "seats": [{"kind": "me"}, {"kind": "open"}]},
        },
    )
    ana_news, stranger_news = await news(ana), await news(stranger)
    await nonna.call("POST", f"/api/families/{fid}/rules/{way['id']}/table")
    assert await heard(ana_news) == {"type": "family", "family": fid}
    await silent(stranger_news)
    for ws in (ana_news, stranger_news):
        await ws.close()
    for c in (nonna, ana, stranger):
        await c.aclose()


async def test_a_rematch_asked_at_both_processes_at_once_is_one_table_in_play(
    two: tuple[ServerProcess, ServerProcess, str],
) -> None:
    """Ana and Bea finish a match and both ask for the rematch at the same moment, Ana at
    one process and Bea at the other: both are given one new table, in play, and the old
    table names it at both processes."""
    a, b, url = two
    ana, bea = await person(a, "Ana"), await person(b, "Bea")
    table = await open_table(ana, "briscola-2", [], {"match": "one-hand"})
    token = table["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    await ana.call("POST", f"/api/tables/{token}/start")
    await ana.connect(token)
    await bea.connect(token)
    await asyncio.gather(play_randomly(ana, random.Random(7)), play_randomly(bea, random.Random(8)))
    made = await asyncio.gather(
        ana.call("POST", f"/api/tables/{token}/rematch"),
        bea.call("POST", f"/api/tables/{token}/rematch"),
    )
    assert made[0]["token"] == made[1]["token"]
    assert [t["status"] for t in made] == ["playing", "playing"]
    for c in (ana, bea):
        assert (await c.call("GET", f"/api/tables/{token}"))["rematch"] == made[0]["token"]
    storage = await Storage.open(url)
    try:
        rematches = [t for t in await storage.list_tables(public=None) if t.settings.get(
            "rematch_of") == token]  # fmt: skip
    finally:
        await storage.close()
    assert [t.token for t in rematches] == [made[0]["token"]]
    await ana.aclose()
    await bea.aclose()
