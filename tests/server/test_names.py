"""A person's nickname as the tables show it (issue 40), on one server process: after a
rename, or once the account is deleted, the table shows the name they have now, in its
seats (by REST and in a ``table`` message to those connected) and on the chat lines they
said before, as a connection opened since is sent them."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from serverkit import Client, ServerProcess, open_table


async def seated_pair(url: str) -> tuple[Client, Client, str]:
    """Ana and Bea at a table of briscola-2 with a free chat, its match started, Bea
    connected; Ana said "ciao" there."""
    ana, bea = await Client(url, "Ana").login(), await Client(url, "Bea").login()
    table = await open_table(
        ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}], {"match": "one-hand"}, chat="free"
    )
    token = table["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    await ana.call("POST", f"/api/tables/{token}/start")
    await ana.connect(token)
    await ana.until(lambda f: f["type"] == "snapshot")
    await bea.connect(token)
    await bea.until(lambda f: f["type"] == "snapshot")
    await ana.send({"type": "chat", "text": "ciao"})
    line = await bea.until(lambda f: f["type"] == "chat")
    assert (line["nickname"], line["text"]) == ("Ana", "ciao")
    return ana, bea, token


async def shown(url: str, viewer: Client, token: str) -> tuple[str, list[str]]:
    """Seat 0's nickname, as ``GET /api/tables/T`` gives it, and the nicknames on the chat
    lines a new connection of ``viewer``'s is sent."""
    table = await viewer.call("GET", f"/api/tables/{token}")
    fresh = Client(url, viewer.nickname)
    fresh.http.cookies = viewer.http.cookies
    try:
        await fresh.connect(token)
        await fresh.until(lambda f: f["type"] == "snapshot")
        await fresh.send({"type": "ping"})
        await fresh.until(lambda f: f["type"] == "pong")
        lines = [f["nickname"] for f in fresh.frames if f["type"] == "chat"]
    finally:
        await fresh.aclose()
    return table["seats"][0]["nickname"], lines


async def test_a_rename_shows_on_the_seat_and_on_the_chat_lines_said_before(
    server: ServerProcess,
) -> None:
    ana, bea, token = await seated_pair(server.url)
    try:
        r = await ana.http.patch("/api/session", json={"nickname": "Anna"})
        assert r.status_code == 200, r.text
        await bea.until(
            lambda f: f["type"] == "table" and f["table"]["seats"][0]["nickname"] == "Anna"
        )
        assert await shown(server.url, bea, token) == ("Anna", ["Anna"])
    finally:
        await ana.aclose()
        await bea.aclose()


async def test_a_deleted_account_is_anonymous_on_its_seat_and_its_chat_lines(
    server: ServerProcess,
) -> None:
    ana, bea, token = await seated_pair(server.url)
    try:
        r = await ana.http.request("DELETE", "/api/session/account", json={"confirm": "Ana"})
        assert r.status_code == 204, r.text
        await bea.until(
            lambda f: f["type"] == "table" and f["table"]["seats"][0]["nickname"] == "Anonymous"
        )
        assert await shown(server.url, bea, token) == ("Anonymous", ["Anonymous"])
    finally:
        await ana.aclose()
        await bea.aclose()
