"""Passkeys through the real server process: a person registers one and signs in with it
on a device with no session; and what a stranger gets with a replayed answer, another
page's answer, another key's signature, a cloned authenticator or a removed passkey.
The authenticator is tests/passkeykit.py's (the browser's virtual one is in
tests/web/test_browser_account.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric import ec

pytest.importorskip("webauthn")

from passkeykit import Authenticator
from serverkit import Client, ServerProcess

LAPTOP = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0"


async def register(client: Client, authenticator: Authenticator) -> dict[str, Any]:
    start = await client.call("POST", "/api/passkeys/options")
    answer = authenticator.create(start["options"])
    return dict(
        await client.call(
            "POST", "/api/passkeys", json={"ticket": start["ticket"], "credential": answer}
        )
    )


async def try_sign_in(
    http: httpx.AsyncClient, answer: Callable[[dict[str, Any]], dict[str, Any]]
) -> httpx.Response:
    start = (await http.post("/api/session/passkey/options")).json()
    return await http.post(
        "/api/session/passkey",
        json={"ticket": start["ticket"], "credential": answer(start["options"])},
    )


def refused(r: httpx.Response, why: str) -> None:
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["code"] == "bad_passkey" and why in error["message"], error


async def test_a_registered_passkey_signs_in_on_a_device_with_no_session(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    nonna = await clients("Nonna")
    nonna.http.headers["User-Agent"] = LAPTOP
    key = Authenticator(origin=server.url.rstrip("/"))
    start = await nonna.call("POST", "/api/passkeys/options")
    options = start["options"]
    assert options["rp"]["id"] == "127.0.0.1" and options["user"]["name"] == "Nonna"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    made = await nonna.call(
        "POST",
        "/api/passkeys",
        json={"ticket": start["ticket"], "credential": key.create(options)},
    )
    assert (made["device"], made["used"]) == ("Firefox · macOS", None)
    again = await nonna.call("POST", "/api/passkeys/options")  # no second of the same
    assert [c["id"] for c in again["options"]["excludeCredentials"]] == [key.create(options)["id"]]
    async with httpx.AsyncClient(base_url=server.url) as phone:
        r = await try_sign_in(phone, key.get)
        assert r.status_code == 200, r.text
        assert r.json() == {"id": nonna.player, "nickname": "Nonna"}
        assert "briscola_session=" in r.headers["set-cookie"]
        assert (await phone.get("/api/session")).json()["nickname"] == "Nonna"
        r = await try_sign_in(phone, key.get)  # signed in already: sign out first
        assert r.status_code == 409 and r.json()["error"]["code"] == "signed_in"
    [listed] = await nonna.call("GET", "/api/passkeys")
    assert listed["id"] == made["id"] and listed["used"] is not None


async def test_answers_that_are_not_the_passkeys_own_are_refused(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    ana = await clients("Ana")
    key = Authenticator(origin=server.url.rstrip("/"))
    await register(ana, key)
    async with httpx.AsyncClient(base_url=server.url) as stranger:
        refused(await try_sign_in(stranger, lambda o: key.get(o, "http://127.0.0.1:1")), "origin")
        other = ec.generate_private_key(ec.SECP256R1())
        refused(await try_sign_in(stranger, lambda o: key.get(o, key=other)), "signature")
        unknown = Authenticator(origin=key.origin)
        unknown.user_handle = key.user_handle
        refused(await try_sign_in(stranger, unknown.get), "no one here has that passkey")
        # an answer replayed: with its own ticket (used up), and with a new one
        start = (await stranger.post("/api/session/passkey/options")).json()
        answer = key.get(start["options"])
        body = {"ticket": start["ticket"], "credential": answer}
        assert (await stranger.post("/api/session/passkey", json=body)).status_code == 200
        await stranger.delete("/api/session")
        refused(await stranger.post("/api/session/passkey", json=body), "ticket is unknown")
        refused(await try_sign_in(stranger, lambda o: answer), "challenge")
        # a cloned authenticator: its counter goes back
        refused(await try_sign_in(stranger, lambda o: key.get(o, counter=1)), "count")
        for bad in ({}, {"ticket": "x"}, {"ticket": "x", "credential": "y"}):
            r = await stranger.post("/api/session/passkey", json=bad)
            assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request"
        r = await try_sign_in(stranger, lambda o: {"id": 5})
        refused(r, "names no passkey")
        r = await try_sign_in(stranger, lambda o: {"id": key.get(o)["id"], "response": {}})
        refused(r, "not accepted")


async def test_registering_checks_the_ticket_is_the_persons_own(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    ana, bo = await clients("Ana"), await clients("Bo")
    start = await ana.call("POST", "/api/passkeys/options")
    key = Authenticator(origin=server.url.rstrip("/"))
    r = await bo.http.post(
        "/api/passkeys",
        json={"ticket": start["ticket"], "credential": key.create(start["options"])},
    )
    refused(r, "another person's")
    start = await ana.call("POST", "/api/passkeys/options")
    r = await ana.http.post(
        "/api/passkeys",
        json={
            "ticket": start["ticket"],
            "credential": key.create(start["options"], "http://evil.test"),
        },
    )
    refused(r, "origin")
    async with httpx.AsyncClient(base_url=server.url) as nobody:
        r = await nobody.post("/api/passkeys/options")
        assert r.status_code == 401 and r.json()["error"]["code"] == "no_session"


async def test_a_removed_passkey_signs_no_one_in(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    ana, bo = await clients("Ana"), await clients("Bo")
    key = Authenticator(origin=server.url.rstrip("/"))
    made = await register(ana, key)
    r = await bo.http.delete(f"/api/passkeys/{made['id']}")  # not Bo's
    assert r.status_code == 404 and r.json()["error"]["code"] == "bad_passkey_id"
    assert (await ana.http.delete(f"/api/passkeys/{made['id']}")).status_code == 204
    assert await ana.call("GET", "/api/passkeys") == []
    async with httpx.AsyncClient(base_url=server.url) as phone:
        refused(await try_sign_in(phone, key.get), "no one here has that passkey")
