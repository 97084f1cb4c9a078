"""A person's news (``/api/session/news``) through the real server: a member with the
site open hears at once that a member opened a family table, sat down, started or ended
it, and nobody else hears of it; a removed member stops hearing; the socket is refused
without a session, closes when the session ends, and says nothing of a family's tables
itself (the page asks the family's routes, as a member)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import websockets

pytest.importorskip("fastapi")

from serverkit import Client, ServerProcess, heard, news, silent

SUNDAY = {
    "game": "briscola-2",
    "rules": {"match": "one-hand"},
    "seats": [{"kind": "me"}, {"kind": "open"}],
}


async def family(
    clients: Callable[[str], Any], *members: str
) -> tuple[list[Client], int, int, str]:
    """A family of ``members`` (the first its admin), one way to play saved, and the
    invitation's token."""
    people = [await clients(name) for name in members]
    made = await people[0].call("POST", "/api/families", json={"name": "I Rossi"})
    invite = await people[0].call("POST", f"/api/families/{made['id']}/invites")
    token = invite["link"].removeprefix("/join/")
    for person in people[1:]:
        await person.call("POST", f"/api/invites/{token}")
    way = await people[0].call(
        "POST", f"/api/families/{made['id']}/rules", json={"name": "Sunday", "body": SUNDAY}
    )
    return people, made["id"], way["id"], token


async def test_members_hear_of_a_family_table_as_it_opens_fills_and_starts(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    (nonna, ana), fid, way, _ = await family(clients, "Nonna", "Ana")
    stranger = await clients("Stranger")
    ana_news, stranger_news = await news(ana), await news(stranger)
    table = await nonna.call("POST", f"/api/families/{fid}/rules/{way}/table")
    assert await heard(ana_news) == {"type": "family", "family": fid}
    listed = await ana.call("GET", f"/api/families/{fid}/tables")
    assert [t["token"] for t in listed] == [table["token"]]
    await ana.call("POST", f"/api/tables/{table['token']}/seats/1")  # Ana sits down
    assert await heard(ana_news) == {"type": "family", "family": fid}
    await nonna.call("POST", f"/api/tables/{table['token']}/start")
    assert await heard(ana_news) == {"type": "family", "family": fid}
    await silent(stranger_news)
    # A table that is no family's tells nobody.
    await nonna.call("POST", "/api/tables", json={**SUNDAY, "public": False})
    await silent(ana_news)
    for ws in (ana_news, stranger_news):
        await ws.close()


async def test_a_removed_member_hears_so_and_then_nothing_more(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    (nonna, ana, bo), fid, way, _ = await family(clients, "Nonna", "Ana", "Bo")
    ana_news = await news(ana)
    r = await nonna.http.delete(f"/api/families/{fid}/members/{ana.player}")
    assert r.status_code == 204
    assert await heard(ana_news) == {"type": "families"}
    await bo.call("POST", f"/api/families/{fid}/rules/{way}/table")
    await silent(ana_news)
    # Joining again, by a new link: she hears of her families, then of the family's tables.
    again = await nonna.call("POST", f"/api/families/{fid}/invites")
    await ana.call("POST", "/api/invites/" + again["link"].removeprefix("/join/"))
    assert await heard(ana_news) == {"type": "families"}
    await bo.call("POST", f"/api/families/{fid}/rules/{way}/table")
    assert await heard(ana_news) == {"type": "family", "family": fid}
    await ana_news.close()


async def test_the_news_socket_is_the_sessions(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    """No session: closed at once (4401); a page of another origin: refused at the
    handshake; signing out: closed (4401), as a table's socket."""
    anyone = Client(server.url, "Anyone")
    ws = await news(anyone, ready=False)
    with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
        await heard(ws)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    await anyone.aclose()

    ana = await clients("Ana")
    with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
        await news(ana, origin="https://evil.example")
    assert refused.value.response.status_code == 403

    ws = await news(ana, origin=server.url)
    assert (await ana.http.delete("/api/session")).status_code == 204
    with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
        await heard(ws)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
