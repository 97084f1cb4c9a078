"""Whom the real server process trusts: its own pages alone (a page of another origin,
even of the same site, is refused on every state-changing route and at the WebSocket),
bodies of JSON alone, sessions that end (signed out, or left unused), the limits per
person and per address, and the headers every page carries."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
import websockets
import websockets.exceptions

pytest.importorskip("fastapi")

from serverkit import Client, ServerProcess, open_table

OTHER = "http://127.0.0.1:1"
"""A page on another port of the server's own host: the same site, another origin."""


@pytest.fixture
async def ana(server: ServerProcess) -> AsyncIterator[Client]:
    c = await Client(server.url, "Ana").login()
    yield c
    await c.aclose()


def own(server: ServerProcess) -> str:
    return server.url.rstrip("/")


def unsafe_routes(server: ServerProcess) -> list[tuple[str, str]]:
    """Every state-changing route the server has, from its own OpenAPI schema."""
    schema = httpx.get(f"{server.url}/openapi.json").json()
    return [
        (method.upper(), path)
        for path, item in schema["paths"].items()
        for method in item
        if method in ("post", "put", "patch", "delete")
    ]


def filled(path: str, token: str) -> str:
    return path.replace("{token}", token).replace("{seat}", "1").replace("{number}", "1")


# -- origins -----------------------------------------------------------------------------


async def test_every_state_changing_route_refuses_another_origin(
    server: ServerProcess, ana: Client
) -> None:
    table = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
    routes = unsafe_routes(server)
    # the session, the tables, their seats, the start, the rematch at least
    assert {p for _, p in routes} >= {
        "/api/session",
        "/api/tables",
        "/api/tables/{token}/seats/{seat}",
        "/api/tables/{token}/start",
        "/api/tables/{token}/rematch",
    }
    for method, path in routes:
        for headers in (
            {"Origin": OTHER, "Content-Type": "application/json"},
            {"Origin": OTHER},  # no body, as a no-cors fetch sends
            {"Origin": "null"},  # a sandboxed frame, a file
        ):
            body = b"{}" if "Content-Type" in headers else None
            r = await ana.http.request(
                method, filled(path, table["token"]), headers=headers, content=body
            )
            assert r.status_code == 403, (method, path, headers, r.text)
            assert r.json()["error"]["code"] == "bad_origin"
    # nothing changed: the table still waits with Ana alone, and her session still works
    after = await ana.call("GET", f"/api/tables/{table['token']}")
    assert after["status"] == "waiting" and after["seats"][1]["kind"] == "open"
    assert (await ana.call("GET", "/api/session"))["nickname"] == "Ana"


async def test_the_servers_own_origin_and_programs_without_one_are_served(
    server: ServerProcess, ana: Client
) -> None:
    body = {"game": "briscola-2", "seats": [{"kind": "me"}, {"kind": "bot", "level": "random"}]}
    r = await ana.http.post("/api/tables", json=body, headers={"Origin": own(server)})
    assert r.status_code == 201, r.text
    r = await ana.http.post(f"/api/tables/{r.json()['token']}/start")  # no Origin, no body
    assert r.status_code == 200 and r.json()["status"] == "playing"


async def test_the_socket_refuses_another_origin_and_serves_its_own(
    server: ServerProcess, ana: Client
) -> None:
    table = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
    url = server.url.replace("http://", "ws://") + f"/api/tables/{table['token']}/ws"
    cookie = {"Cookie": f"briscola_session={ana.http.cookies['briscola_session']}"}
    with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
        await websockets.connect(url, additional_headers=cookie, origin=OTHER)  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    assert b"bad_origin" in refused.value.response.body
    ws = await websockets.connect(url, additional_headers=cookie, origin=own(server))  # type: ignore[arg-type]
    try:
        first = await asyncio.wait_for(ws.recv(), 10)
        assert '"type":"snapshot"' in str(first).replace(" ", "")
    finally:
        await ws.close()


async def test_bodies_are_json_alone(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        form = await http.post("/api/session", data={"nickname": "Eve"})  # a plain HTML form
        assert form.status_code == 415 and form.json()["error"]["code"] == "bad_content_type"
        text = await http.post(
            "/api/session", content=b'{"nickname": "Eve"}', headers={"Content-Type": "text/plain"}
        )
        assert text.status_code == 415
        assert "application/json" in text.json()["error"]["message"]
        untyped = await http.post("/api/session", content=b'{"nickname": "Eve"}')
        assert untyped.status_code == 415
        ok = await http.post("/api/session", json={"nickname": "Eve"})
        assert ok.status_code == 200


# -- headers -----------------------------------------------------------------------------


async def test_every_page_carries_its_security_headers(server: ServerProcess, ana: Client) -> None:
    table = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
    for path in (
        "/", f"/t/{table['token']}", "/history", "/static/js/main.js", "/api/games", "/sw.js",
        "/manifest.webmanifest",
    ):  # fmt: skip
        r = await ana.http.get(path)
        assert r.status_code == 200, path
        csp = {
            part.strip().split(" ", 1)[0]: part.strip()
            for part in r.headers["content-security-policy"].split(";")
        }
        assert csp["script-src"] == "script-src 'self'", path  # no inline script, no other host
        assert "unsafe-inline" not in csp["style-src"], path
        assert csp["frame-ancestors"] == "frame-ancestors 'none'", path
        assert r.headers["x-content-type-options"] == "nosniff"
        # an invite link's token never goes to another site in a Referer
        assert r.headers["referrer-policy"] in ("no-referrer", "same-origin")


# -- sessions ----------------------------------------------------------------------------


async def test_signing_out_ends_the_session_at_once(server: ServerProcess, ana: Client) -> None:
    cookie = ana.http.cookies["briscola_session"]
    table = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
    await ana.connect(table["token"])
    await ana.until(lambda f: f["type"] == "snapshot")
    r = await ana.http.delete("/api/session")
    assert r.status_code == 204
    assert "briscola_session=" in r.headers["set-cookie"]  # the browser forgets it
    with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
        await ana.until(lambda f: False, timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    async with httpx.AsyncClient(base_url=server.url) as thief:  # the cookie replayed
        thief.cookies.set("briscola_session", cookie)
        r = await thief.get("/api/session")
        assert r.status_code == 401 and r.json()["error"]["code"] == "no_session"
        r = await thief.post("/api/tables", json={"game": "briscola-2"})
        assert r.status_code == 401


async def test_a_second_nickname_is_a_rename_not_a_second_player(
    server: ServerProcess, ana: Client
) -> None:
    r = await ana.http.post("/api/session", json={"nickname": "Anna"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "signed_in"
    assert "PATCH /api/session" in r.json()["error"]["message"]
    renamed = await ana.call("PATCH", "/api/session", json={"nickname": "  Anna   B "})
    assert renamed == {"id": ana.player, "nickname": "Anna B"}
    assert await ana.call("GET", "/api/session") == renamed
    bad = await ana.http.patch("/api/session", json={"nickname": "\u0007"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_nickname"
    await ana.http.delete("/api/session")
    again = await ana.http.post("/api/session", json={"nickname": "Anna"})
    assert again.status_code == 200 and again.json()["id"] != ana.player  # signed out first


async def test_the_cookie_is_http_only_lax_and_lasts_the_idle_lifetime(
    server: ServerProcess,
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        r = await http.post("/api/session", json={"nickname": "Cy"})
        cookie = r.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie
        assert f"max-age={90 * 24 * 3600}" in cookie
        assert "secure" not in cookie  # served over plain http here


async def test_a_session_unused_past_its_lifetime_ends(
    server_factory: Callable[..., ServerProcess],
) -> None:
    # about 3.5 s: a use 1.5 s after the last (a busy machine's requests take their time)
    with server_factory(None, "--session-days", "0.00004") as server:
        async with httpx.AsyncClient(base_url=server.url) as http:
            await http.post("/api/session", json={"nickname": "Cy"})
            assert (await http.get("/api/session")).status_code == 200
            cookie = http.cookies["briscola_session"]
            for _ in range(3):
                await asyncio.sleep(1.5)
                assert (await http.get("/api/session")).status_code == 200  # counted again
            # 4.5 s after the start: it outlived its first lifetime, being used
            await asyncio.sleep(4.5)
        async with httpx.AsyncClient(base_url=server.url) as again:  # the cookie kept
            again.cookies.set("briscola_session", cookie)
            r = await again.get("/api/session")
            assert r.status_code == 401 and r.json()["error"]["code"] == "no_session"


async def test_behind_https_the_public_url_alone_is_trusted_and_the_cookie_secure(
    server_factory: Callable[..., ServerProcess],
) -> None:
    public = "https://cards.example.org"
    with server_factory(None, "--public-url", public) as server:
        async with httpx.AsyncClient(base_url=server.url) as http:
            r = await http.post("/api/session", json={"nickname": "Cy"}, headers={"Origin": public})
            assert r.status_code == 200 and "secure" in r.headers["set-cookie"].lower()
            r = await http.post(
                "/api/session", json={"nickname": "Cy"}, headers={"Origin": own(server)}
            )
            assert r.status_code == 403 and r.json()["error"]["code"] == "bad_origin"
            assert public in r.json()["error"]["message"]


# -- limits ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def limited_server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    return server_factory(limits=True)


def at(address: str) -> dict[str, str]:
    """The headers of a request from ``address``, as the reverse proxy on this machine
    names it (the server trusts it from 127.0.0.1)."""
    return {"X-Forwarded-For": address}


async def test_sessions_from_one_address_are_limited(limited_server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=limited_server.url) as http:
        codes = []
        for i in range(12):
            r = await http.post(
                "/api/session", json={"nickname": f"bot {i}"}, headers=at("198.51.100.1")
            )
            http.cookies.clear()
            codes.append(r.status_code)
        assert codes == [200] * 10 + [429] * 2
        assert int(r.headers["retry-after"]) > 0
        assert r.json()["error"]["code"] == "too_many"
        assert "try again in" in r.json()["error"]["message"]
        r = await http.post("/api/session", json={"nickname": "Ana"}, headers=at("198.51.100.2"))
        assert r.status_code == 200  # another address is not held back


async def test_public_tables_open_at_once_and_new_tables_are_limited(
    limited_server: ServerProcess,
) -> None:
    async with httpx.AsyncClient(base_url=limited_server.url, headers=at("198.51.100.3")) as http:
        await http.post("/api/session", json={"nickname": "Eve"})
        body = {"game": "briscola-2", "public": True}
        public = [(await http.post("/api/tables", json=body)).status_code for _ in range(5)]
        assert public == [201, 201, 201, 429, 429]
        lobby = (await http.get("/api/tables")).json()
        assert len(lobby) == 3  # the lobby keeps room for everyone else's tables
        private = [
            (await http.post("/api/tables", json={"game": "briscola-2"})).status_code
            for _ in range(20)
        ]
        assert private.count(201) == 17 and private[-1] == 429  # 20 new tables at once
        r = await http.post("/api/tables", json={"game": "briscola-2"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) > 0


async def test_connections_per_person_are_limited(limited_server: ServerProcess) -> None:
    c = Client(limited_server.url, "Ana")
    c.http.headers.update(at("198.51.100.4"))
    await c.login()
    table = await open_table(c, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
    url = limited_server.url.replace("http://", "ws://") + f"/api/tables/{table['token']}/ws"
    headers = {"Cookie": f"briscola_session={c.http.cookies['briscola_session']}"}
    held = []
    try:
        for _ in range(16):
            held.append(await websockets.connect(url, additional_headers=headers))
            await asyncio.wait_for(held[-1].recv(), 10)  # its snapshot
        extra = await websockets.connect(url, additional_headers=headers)
        frame = await asyncio.wait_for(extra.recv(), 10)
        assert '"too_many"' in str(frame)
        with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
            await asyncio.wait_for(extra.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        await held.pop().close()
        await asyncio.sleep(0.3)
        again = await websockets.connect(url, additional_headers=headers)  # room again
        assert '"snapshot"' in str(await asyncio.wait_for(again.recv(), 10))
        held.append(again)
    finally:
        for ws in held:
            await ws.close()
        await c.aclose()


# -- frames ------------------------------------------------------------------------------


async def test_a_new_connection_costs_the_others_nothing(
    server: ServerProcess, ana: Client
) -> None:
    """Watchers coming to a table tell those already there nothing (before, each new
    connection sent a ``table`` frame to every socket there: N connections, N²/2 frames);
    a seat's person connecting does tell them (the seat is connected)."""
    table = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
    url = server.url.replace("http://", "ws://") + f"/api/tables/{table['token']}/ws"
    watchers: list[Any] = []
    try:
        for _ in range(30):
            watchers.append(await websockets.connect(url))
        await asyncio.sleep(0.5)
        counts = []
        for ws in watchers:
            n = 0
            with pytest.raises(TimeoutError):
                while True:
                    await asyncio.wait_for(ws.recv(), 0.2)
                    n += 1
            counts.append(n)
        assert counts == [1] * 30  # each its snapshot, and nothing else
        await ana.connect(table["token"])  # the host sits down at her seat
        for ws in watchers[:3]:
            frame = str(await asyncio.wait_for(ws.recv(), 10))
            assert '"type":"table"' in frame.replace(" ", "") and '"connected":true' in frame
    finally:
        for ws in watchers:
            await ws.close()
