"""A person's nickname as the tables show it (issue 40), on one server process: after a
rename, or once the account is deleted, the table shows the name they have now, in its
seats (by REST and in a ``table`` message to those connected) and on the chat lines they
said before, as a connection opened since is sent them. And the nicknames that could pass
for a deleted account's seat (``Anonymous``, its translations, their look-alikes) are
refused, in the documented error form, while the names of the four languages' alphabets
are taken as they are written, each a name of its own."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
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


LOOK_ALIKES = [
    "\u0410nonymous",  # a Cyrillic capital A
    "Anonymou\u0301s",  # a combining acute accent
    "Ano\u0301nymous",
    "A\u0304nonymous",  # a combining macron
    "ANONYMOUS",
    "Anonyrnous",  # r and n for m
    "\uff21nonymous",  # a full-width A
    "Anonym\u043eus",  # a Cyrillic o
    "Anonymous\u034f",  # an invisible combining grapheme joiner
    "Anonimo",
    "An\u00f3nimo",
    "Anonimac",
    "\u0410nonimac",
]


@pytest.mark.parametrize("nickname", LOOK_ALIKES, ids=ascii)
async def test_a_name_that_looks_like_a_deleted_accounts_is_refused(
    server: ServerProcess, nickname: str
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        r = await http.post("/api/session", json={"nickname": nickname})
        assert r.status_code == 400, r.text
        error: dict[str, Any] = r.json()["error"]
        assert error["code"] == "nickname_kept"
        assert "Anonymous" in error["message"] and "choose another nickname" in error["message"]
        ok = await http.post("/api/session", json={"nickname": "Vera"})
        assert ok.status_code == 200
        r = await http.patch("/api/session", json={"nickname": nickname})  # a rename too
        assert (r.status_code, r.json()["error"]["code"]) == (400, "nickname_kept")


NAMES = [
    ["Ivan Čović", "Ivan Ćović", "Ivan Cović"],
    ["Đurđa", "Džana", "Šime", "Žana", "Sime", "Zana"],
    ["Niccolò", "Nicolò", "Perù", "Pèrú"],
    ["Begoña", "Begona", "Lucía", "Lucia", "Andrés"],
    ["Anonimna", "Anonymus Bosch", "Ana Nimo"],
]


@pytest.mark.parametrize("names", NAMES, ids=ascii)
async def test_the_names_of_the_four_languages_are_taken_as_written(
    server: ServerProcess, names: list[str]
) -> None:
    """Croatian, Italian and Spanish letters are names of their own: each nickname is
    taken, given back as it was written, and shown so at a table (with a name that differs
    only by an accent beside it)."""
    people = [Client(server.url, n) for n in names]
    try:
        for person, name in zip(people, names, strict=True):
            await person.login()
            me = await person.call("GET", "/api/session")
            assert me["nickname"] == name
        seats = [{"kind": "me"}, {"kind": "open"}]
        table = await open_table(people[0], "briscola-2", seats, {"match": "one-hand"})
        await people[1].call("POST", f"/api/tables/{table['token']}/seats/1")
        out = await people[1].call("GET", f"/api/tables/{table['token']}")
        assert [s["nickname"] for s in out["seats"]] == names[:2]
    finally:
        await asyncio.gather(*(p.aclose() for p in people))


async def refused_alike(response: httpx.Response, other: str) -> None:
    """``response`` is ``409 nickname_alike``, naming ``other``."""
    assert response.status_code == 409, response.text
    error = response.json()["error"]
    assert (error["code"], error["values"]) == ("nickname_alike", {"nickname": other})
    assert "look alike" in error["message"] and "choose another nickname" in error["message"]


async def test_no_two_people_at_one_table_have_names_that_look_alike(
    server: ServerProcess,
) -> None:
    """Marco waits at his table: another Marco, or one written with a Cyrillic M, may not
    sit down with him; Marko may, and then may not rename himself Marco."""
    marco = await Client(server.url, "Marco").login()
    twins = [await Client(server.url, n).login() for n in ("Marco", "\u041carco", "MARC0")]
    marko = await Client(server.url, "Marko").login()
    try:
        table = await open_table(marco, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
        seat = f"/api/tables/{table['token']}/seats/1"
        for twin in twins:
            await refused_alike(await twin.http.post(seat), "Marco")
        await marko.call("POST", seat)
        await refused_alike(
            await marko.http.patch("/api/session", json={"nickname": "Marc\u043e"}), "Marco"
        )
        out = await marco.call("GET", f"/api/tables/{table['token']}")
        assert [s["nickname"] for s in out["seats"]] == ["Marco", "Marko"]
    finally:
        for c in (marco, *twins, marko):
            await c.aclose()


async def test_no_two_members_of_a_family_have_names_that_look_alike(
    server: ServerProcess,
) -> None:
    """Nonna's family: someone called Nonna with a Cyrillic o may not join it by her
    invitation; Bea may, and then may not rename herself so."""
    nonna = await Client(server.url, "Nonna").login()
    twin = await Client(server.url, "N\u043enna").login()
    bea = await Client(server.url, "Bea").login()
    try:
        family = await nonna.call("POST", "/api/families", json={"name": "I Rossi"})
        link = (await nonna.call("POST", f"/api/families/{family['id']}/invites", json={}))["link"]
        join = "/api/invites/" + link.rsplit("/", 1)[1]
        await refused_alike(await twin.http.post(join), "Nonna")
        await bea.call("POST", join)
        await refused_alike(
            await bea.http.patch("/api/session", json={"nickname": "NONNA"}), "Nonna"
        )
        out = await nonna.call("GET", f"/api/families/{family['id']}")
        assert sorted(m["nickname"] for m in out["members"]) == ["Bea", "Nonna"]
    finally:
        for c in (nonna, twin, bea):
            await c.aclose()
