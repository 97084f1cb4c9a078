"""A family's own place through the real server process: Nonna makes the family and
invites two others by a link; the admins rename it, make another admin, remove a member;
a member leaves. And every family route refuses a stranger, a removed member and a
revoked invitation with the answer a family that does not exist gets (404)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")

from serverkit import Client, ServerProcess


async def family_of_three(
    clients: Callable[[str], Any],
) -> tuple[Client, Client, Client, dict[str, Any]]:
    nonna, ana, bo = await clients("Nonna"), await clients("Ana"), await clients("Bo")
    family = await nonna.call("POST", "/api/families", json={"name": "  I  Rossi "})
    made = await nonna.call("POST", f"/api/families/{family['id']}/invites")
    for person in (ana, bo):
        await person.call("POST", "/api/invites/" + made["link"].removeprefix("/join/"))
    return nonna, ana, bo, family


def refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text


async def test_a_family_made_and_joined_by_its_link(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    nonna, ana, bo = await clients("Nonna"), await clients("Ana"), await clients("Bo")
    family = await nonna.call("POST", "/api/families", json={"name": "  I  Rossi "})
    assert (family["name"], family["role"]) == ("I Rossi", "admin")
    assert [(m["nickname"], m["role"]) for m in family["members"]] == [("Nonna", "admin")]
    made = await nonna.call("POST", f"/api/families/{family['id']}/invites", json={"days": 2})
    assert made["link"].startswith("/join/") and len(made["link"]) > 30
    token = made["link"].removeprefix("/join/")
    async with httpx.AsyncClient(base_url=server.url) as anyone:  # the link's holder
        assert (await anyone.get(f"/api/invites/{token}")).json() == {"family": "I Rossi"}
        refused(await anyone.post(f"/api/invites/{token}"), 401, "no_session")
    joined = await ana.call("POST", f"/api/invites/{token}")
    assert joined["role"] == "member" and joined["id"] == family["id"]
    await bo.call("POST", f"/api/invites/{token}")
    assert await bo.call("GET", "/api/families") == [
        {"id": family["id"], "name": "I Rossi", "role": "member"}
    ]
    seen = await bo.call("GET", f"/api/families/{family['id']}")
    assert [(m["nickname"], m["role"]) for m in seen["members"]] == [
        ("Nonna", "admin"),
        ("Ana", "member"),
        ("Bo", "member"),
    ]
    listed = await nonna.call("GET", f"/api/families/{family['id']}/invites")
    assert [(i["id"], i["link"]) for i in listed] == [(made["id"], None)]  # the token not kept


async def test_admins_rename_promote_and_remove_and_members_leave(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    nonna, ana, bo, family = await family_of_three(clients)
    fid = family["id"]
    refused(await ana.http.patch(f"/api/families/{fid}", json={"name": "Ana's"}), 403, "not_admin")
    renamed = await nonna.call("PATCH", f"/api/families/{fid}", json={"name": "Rossi di Napoli"})
    assert renamed["name"] == "Rossi di Napoli"
    refused(
        await nonna.http.patch(f"/api/families/{fid}", json={"name": " \u0007 "}),
        400,
        "bad_family_name",
    )
    refused(
        await nonna.http.patch(f"/api/families/{fid}", json={"name": "x" * 61}), 422, "bad_request"
    )
    # the last admin cannot leave a family with members, nor stop being admin
    refused(
        await nonna.http.delete(f"/api/families/{fid}/members/{nonna.player}"), 409, "last_admin"
    )
    refused(
        await nonna.http.put(
            f"/api/families/{fid}/members/{nonna.player}", json={"role": "member"}
        ),
        409,
        "last_admin",
    )
    refused(
        await ana.http.put(f"/api/families/{fid}/members/{ana.player}", json={"role": "admin"}),
        403,
        "not_admin",
    )
    refused(
        await nonna.http.put(f"/api/families/{fid}/members/{ana.player}", json={"role": "owner"}),
        422,
        "bad_request",
    )
    made = await nonna.call(
        "PUT", f"/api/families/{fid}/members/{ana.player}", json={"role": "admin"}
    )
    assert [(m["nickname"], m["role"]) for m in made["members"]][:2] == [
        ("Nonna", "admin"),
        ("Ana", "admin"),
    ]
    # an admin removes a member; a member cannot remove another
    refused(await bo.http.delete(f"/api/families/{fid}/members/{ana.player}"), 403, "not_admin")
    assert (await ana.http.delete(f"/api/families/{fid}/members/{bo.player}")).status_code == 204
    refused(await ana.http.delete(f"/api/families/{fid}/members/{bo.player}"), 404, "no_member")
    # Nonna may leave now that Ana is admin
    assert (
        await nonna.http.delete(f"/api/families/{fid}/members/{nonna.player}")
    ).status_code == 204
    assert await nonna.call("GET", "/api/families") == []
    left = await ana.call("GET", f"/api/families/{fid}")
    assert [(m["nickname"], m["role"]) for m in left["members"]] == [("Ana", "admin")]


async def test_every_family_route_refuses_strangers_removed_members_and_revoked_links(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    nonna, ana, bo, family = await family_of_three(clients)
    fid = family["id"]
    stranger = await clients("Zed")
    invite = await nonna.call("POST", f"/api/families/{fid}/invites")
    routes = [
        ("GET", f"/api/families/{fid}", None),
        ("PATCH", f"/api/families/{fid}", {"name": "Mine now"}),
        ("PUT", f"/api/families/{fid}/members/{ana.player}", {"role": "admin"}),
        ("DELETE", f"/api/families/{fid}/members/{ana.player}", None),
        ("POST", f"/api/families/{fid}/invites", None),
        ("GET", f"/api/families/{fid}/invites", None),
        ("DELETE", f"/api/families/{fid}/invites/{invite['id']}", None),
    ]
    removed = await nonna.http.delete(f"/api/families/{fid}/members/{bo.player}")
    assert removed.status_code == 204  # Bo is removed
    nowhere = 10**6  # a family that does not exist answers the same
    for person in (stranger, bo):
        for method, path, body in [*routes, ("GET", f"/api/families/{nowhere}", None)]:
            r = await person.http.request(method, path, json=body)
            refused(r, 404, "no_family")
            assert "I Rossi" not in r.text
        assert await person.call("GET", "/api/families") == []
    # a revoked link joins no one, and says nothing of the family
    assert (
        await nonna.http.delete(f"/api/families/{fid}/invites/{invite['id']}")
    ).status_code == 204
    refused(
        await nonna.http.delete(f"/api/families/{fid}/invites/{invite['id']}"), 404, "bad_invite"
    )
    token = invite["link"].removeprefix("/join/")
    for r in (
        await stranger.http.get(f"/api/invites/{token}"),
        await stranger.http.post(f"/api/invites/{token}"),
        await stranger.http.post("/api/invites/" + "x" * 200),
        await stranger.http.get("/api/invites/not-a-token"),
    ):
        refused(r, 404, "bad_invite")
        assert "Rossi" not in r.text
    assert await stranger.call("GET", "/api/families") == []
    unchanged = await nonna.call("GET", f"/api/families/{fid}")
    assert (unchanged["name"], len(unchanged["members"])) == ("I Rossi", 2)
