"""Signing in on a second device with a one-time code, the list of one's sessions by
device, and signing out one device or everywhere, through the real server process: what
a person with a phone and a laptop does, and what a stranger with a stolen cookie or a
guessed code gets."""

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

PHONE = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36"
)
LAPTOP = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0"


@pytest.fixture
async def devices(server: ServerProcess) -> AsyncIterator[Callable[[str], Client]]:
    """``device(user_agent)``: a browser of its own (its own cookies), signed in as no
    one yet; all closed at the end."""
    made: list[Client] = []

    def device(agent: str) -> Client:
        c = Client(server.url, "?")
        c.http.headers["User-Agent"] = agent
        made.append(c)
        return c

    yield device
    for c in made:
        await c.aclose()


async def sign_in_with_code(device: Client, code: str) -> dict[str, Any]:
    r = await device.http.post("/api/session/code/use", json={"code": code})
    assert r.status_code == 200, r.text
    device.player = r.json()["id"]
    return dict(r.json())


async def closed_code(client: Client, timeout: float = 10) -> int | None:
    """The close code of ``client``'s socket, once the server closes it."""
    with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
        await client.until(lambda f: False, timeout=timeout)
    return closed.value.rcvd.code if closed.value.rcvd else None


async def test_a_code_from_the_phone_signs_the_laptop_in_as_the_same_player(
    devices: Callable[[str], Client],
) -> None:
    phone, laptop = devices(PHONE), devices(LAPTOP)
    phone.nickname = "Nonna"
    await phone.login()
    made = await phone.call("POST", "/api/session/code")
    assert made["expires_in"] == 300
    code = made["code"]
    assert len(code) == 9 and code[4] == "-"
    # typed on the laptop in small letters, without the dash
    me = await sign_in_with_code(laptop, code.replace("-", " ").lower())
    assert me == {"id": phone.player, "nickname": "Nonna"}
    assert await laptop.call("GET", "/api/session") == me
    # once only: a third device cannot use it again
    third = devices("curl/8.5.0")
    r = await third.http.post("/api/session/code/use", json={"code": code})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_code"
    assert "make a new one on your other device" in r.json()["error"]["message"]
    # both devices listed, the laptop (the last seen) first, each knowing which is itself
    listed = await laptop.call("GET", "/api/session/devices")
    assert [(d["device"], d["current"]) for d in listed] == [
        ("Firefox · macOS", True),
        ("Chrome · Android", False),
    ]
    assert [d["current"] for d in await phone.call("GET", "/api/session/devices")] == [
        False,
        True,
    ]


async def test_a_code_is_refused_when_wrong_signed_in_or_malformed(
    devices: Callable[[str], Client], clients: Callable[[str], Any]
) -> None:
    ana = await clients("Ana")
    code = (await ana.call("POST", "/api/session/code"))["code"]
    newer = (await ana.call("POST", "/api/session/code"))["code"]
    stranger = devices(PHONE)
    r = await stranger.http.post("/api/session/code/use", json={"code": code})
    assert r.json()["error"]["code"] == "bad_code", "a new code ends the one before"
    bo = await clients("Bo")  # signed in already: told to sign out first, the code kept
    r = await bo.http.post("/api/session/code/use", json={"code": newer})
    assert r.status_code == 409 and r.json()["error"]["code"] == "signed_in"
    assert r.json()["error"]["values"] == {"nickname": "Bo"}
    for body in ({}, {"code": ""}, {"code": 12345678}, {"code": "x" * 41}):
        r = await stranger.http.post("/api/session/code/use", json=body)
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request", body
    assert (await sign_in_with_code(stranger, newer))["nickname"] == "Ana"
    async with httpx.AsyncClient(base_url=ana.base) as nobody:
        r = await nobody.post("/api/session/code")
    assert r.status_code == 401 and r.json()["error"]["code"] == "no_session"


async def test_signing_out_one_device_ends_it_alone(
    devices: Callable[[str], Client], clients: Callable[[str], Any]
) -> None:
    phone, laptop = devices(PHONE), devices(LAPTOP)
    phone.nickname = "Ana"
    await phone.login()
    await sign_in_with_code(laptop, (await phone.call("POST", "/api/session/code"))["code"])
    table = await open_table(phone, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
    for c in (phone, laptop):
        await c.connect(table["token"])
        await c.until(lambda f: f["type"] == "snapshot")
    stolen = laptop.http.cookies["briscola_session"]
    listed = await phone.call("GET", "/api/session/devices")
    lost = next(d for d in listed if d["device"] == "Firefox · macOS")
    bo = await clients("Bo")  # another person cannot end Ana's sessions
    r = await bo.http.delete(f"/api/session/devices/{lost['id']}")
    assert r.status_code == 404 and r.json()["error"]["code"] == "bad_session"
    r = await phone.http.delete(f"/api/session/devices/{lost['id']}")
    assert r.status_code == 204
    assert "set-cookie" not in r.headers  # the phone's own cookie stays
    assert await closed_code(laptop) == 4401
    async with httpx.AsyncClient(base_url=phone.base) as thief:
        thief.cookies.set("briscola_session", stolen)
        assert (await thief.get("/api/session")).status_code == 401
    assert (await phone.call("GET", "/api/session"))["nickname"] == "Ana"
    assert phone.ws is not None and phone.ws.close_code is None  # still at the table
    r = await phone.http.delete(f"/api/session/devices/{lost['id']}")
    assert r.status_code == 404 and r.json()["error"]["code"] == "bad_session"
    assert [d["device"] for d in await phone.call("GET", "/api/session/devices")] == [
        "Chrome · Android"
    ]


async def test_signing_out_everywhere_ends_every_session_and_connection(
    devices: Callable[[str], Client], clients: Callable[[str], Any]
) -> None:
    phone, laptop = devices(PHONE), devices(LAPTOP)
    phone.nickname = "Ana"
    await phone.login()
    await sign_in_with_code(laptop, (await phone.call("POST", "/api/session/code"))["code"])
    bo = await clients("Bo")
    table = await open_table(phone, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
    for c in (phone, laptop, bo):
        await c.connect(table["token"])
        await c.until(lambda f: f["type"] == "snapshot")
    cookies = [c.http.cookies["briscola_session"] for c in (phone, laptop)]
    r = await laptop.http.delete("/api/session/devices")
    assert r.status_code == 204
    assert r.headers["set-cookie"].startswith('briscola_session=""')  # forgotten here
    assert r.headers.get_list("set-cookie") == [r.headers["set-cookie"]]  # and not set again
    assert await asyncio.gather(closed_code(phone), closed_code(laptop)) == [4401, 4401]
    for cookie in cookies:
        async with httpx.AsyncClient(base_url=phone.base) as replay:
            replay.cookies.set("briscola_session", cookie)
            r = await replay.get("/api/session/devices")
            assert r.status_code == 401 and r.json()["error"]["code"] == "no_session"
    assert (await bo.call("GET", "/api/session"))["nickname"] == "Bo"  # others untouched
    assert bo.ws is not None and bo.ws.close_code is None


@pytest.fixture(scope="module")
def limited_server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    return server_factory(limits=True)


async def test_guessing_codes_is_limited_per_address(limited_server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=limited_server.url) as guesser:
        statuses = []
        for n in range(12):
            r = await guesser.post(
                "/api/session/code/use",
                json={"code": f"AAAA-{n:04d}"},
                headers={"X-Forwarded-For": "203.0.113.9"},
            )
            statuses.append(r.status_code)
        assert statuses == [400] * 10 + [429] * 2
        assert r.json()["error"]["code"] == "too_many" and int(r.headers["Retry-After"]) > 0
        r = await guesser.post(  # another address is not held back by this one
            "/api/session/code/use",
            json={"code": "AAAA-0000"},
            headers={"X-Forwarded-For": "203.0.113.10"},
        )
        assert r.status_code == 400


class FakeSocket:
    def __init__(self) -> None:
        self.closed: int | None = None

    async def close(self, code: int, reason: str = "") -> None:
        self.closed = code


async def test_a_process_closes_the_connections_of_sessions_ended_elsewhere(
    tmp_path: Any,
) -> None:
    """A wake-up may be lost: each process also looks for the sessions of its
    connections that are gone (signed out at another process, or left unused) and
    closes those connections, and no other."""
    from briscola.server.deps import Guards, digest
    from briscola.server.sessions import check_sockets
    from briscola.server.settings import ServerSettings
    from briscola.storage import Storage

    store = await Storage.open(f"sqlite+aiosqlite:///{tmp_path}/briscola.db")
    try:
        ana = await store.create_player("Ana")
        for token in ("kept", "ended"):
            await store.create_session(ana.id, digest(token))
        guards = Guards.of(ServerSettings(data=tmp_path))
        kept, ended, ended_too = FakeSocket(), FakeSocket(), FakeSocket()
        guards.session_sockets = {digest("kept"): {kept}, digest("ended"): {ended, ended_too}}  # type: ignore[dict-item]
        assert await check_sockets(guards, store) == 0
        await store.end_session(digest("ended"))  # as another process does
        assert await check_sockets(guards, store) == 2
        assert (kept.closed, ended.closed, ended_too.closed) == (None, 4401, 4401)
        assert list(guards.session_sockets) == [digest("kept")]
    finally:
        await store.close()


async def test_a_deleted_account_signs_out_everywhere_and_leaves_an_anonymous_seat(
    devices: Callable[[str], Client], clients: Callable[[str], Any]
) -> None:
    phone, laptop = devices(PHONE), devices(LAPTOP)
    phone.nickname = "Ana"
    await phone.login()
    await sign_in_with_code(laptop, (await phone.call("POST", "/api/session/code"))["code"])
    bo = await clients("Bo")
    family = await phone.call("POST", "/api/families", json={"name": "Rossi"})
    made = await phone.call("POST", f"/api/families/{family['id']}/invites")
    await bo.call("POST", "/api/invites/" + made["link"].removeprefix("/join/"))
    waiting = await open_table(phone, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
    played = await open_table(
        phone, "briscola-2", [{"kind": "me"}, {"kind": "open"}], {"match": "one-hand"}
    )
    await bo.call("POST", f"/api/tables/{played['token']}/seats/1")
    await phone.call("POST", f"/api/tables/{played['token']}/start")
    await laptop.connect(waiting["token"])
    await laptop.until(lambda f: f["type"] == "snapshot")
    r = await phone.http.request("DELETE", "/api/session/account", json={"confirm": "Anna"})
    refused = r.json()["error"]
    assert r.status_code == 400 and (refused["code"], refused["values"]) == (
        "bad_confirm",
        {"nickname": "Ana"},
    )
    r = await phone.http.request("DELETE", "/api/session/account", json={"confirm": " Ana "})
    assert r.status_code == 204 and r.headers["set-cookie"].startswith('briscola_session=""')
    assert await closed_code(laptop) == 4401
    for device in (phone, laptop):
        assert (await device.http.get("/api/session")).status_code == 401
    # Bo: the family has him as its admin, the waiting table an open seat, the match in
    # play an anonymous opponent
    seen = await bo.call("GET", f"/api/families/{family['id']}")
    assert [(m["nickname"], m["role"]) for m in seen["members"]] == [("Bo", "admin")]
    assert (await bo.call("GET", f"/api/tables/{waiting['token']}"))["seats"][0]["kind"] == "open"
    seats = (await bo.call("GET", f"/api/tables/{played['token']}"))["seats"]
    assert seats[0]["nickname"] == "Anonymous"
    # The name is the deleted accounts' alone: nobody takes it, in any case
    for path, method in (("/api/session", "POST"), ("/api/session", "PATCH")):
        r = await (bo.http if method == "PATCH" else phone.http).request(
            method, path, json={"nickname": " anonymous "}
        )
        assert (r.status_code, r.json()["error"]["code"]) == (400, "nickname_kept"), r.text
