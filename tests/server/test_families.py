"""A family's own place through the real server process: Nonna makes the family and
invites two others by a link; the admins rename it, make another admin, remove a member;
a member leaves. And every family route refuses a stranger, a removed member and a
revoked invitation with the answer a family that does not exist gets (404)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")

from serverkit import Client, ServerProcess, open_table, play_randomly


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


SUNDAY = {
    "game": "briscola-2",
    "rules": {"match": "one-hand"},
    "seats": [{"kind": "me"}, {"kind": "bot", "level": "beginner"}],
    "clock": 60,
    "chat": "free",
}


async def test_a_way_to_play_saved_on_one_device_opens_a_family_table_on_another(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    """Nonna saves the family's way to play; Ana opens a table from it in one step; the
    family's page lists the table while it is played, then the match."""
    nonna, ana, bo, family = await family_of_three(clients)
    fid = family["id"]
    saved = await nonna.call(
        "POST", f"/api/families/{fid}/rules", json={"name": "Sunday lunch", "body": SUNDAY}
    )
    assert (saved["name"], saved["version"], saved["updated_by"]) == ("Sunday lunch", 1, "Nonna")
    assert saved["body"]["rules"] == {"match": "one-hand"} and "public" not in saved["body"]
    [listed] = await bo.call("GET", f"/api/families/{fid}/rules")
    assert listed == saved
    table = await ana.call("POST", f"/api/families/{fid}/rules/{saved['id']}/table")
    assert table["seats"][0]["nickname"] == "Ana" and table["seats"][1]["kind"] == "bot"
    assert table["public"] is False and table["clock"] == 60
    shown = await bo.call("GET", f"/api/families/{fid}/tables")
    assert [t["token"] for t in shown] == [table["token"]]
    before = await bo.call("GET", f"/api/families/{fid}/standings")
    assert (before["game"], before["games"], before["overall"]["table"]) == (None, [], [])
    await ana.call("POST", f"/api/tables/{table['token']}/start")
    await ana.connect(table["token"])
    await play_randomly(ana, random.Random(5))
    after = await bo.call("GET", f"/api/families/{fid}/standings")
    assert (after["game"], after["games"]) == ("briscola-2", ["briscola-2"])
    for period in ("overall", "month"):  # the match ended this month
        lines = {(s["nickname"], s["level"]): s for s in after[period]["table"]}
        assert set(lines) == {("Ana", None), (None, "beginner")}
        assert all(s["played"] == 1 for s in lines.values())
        assert sum(s["won"] for s in lines.values()) <= 1
        # shown as people read a rating: a whole number near 1500, provisional
        assert all(1200 < s["shown"] < 1800 and s["provisional"] for s in lines.values())
        assert all(isinstance(s["shown"], int) and s["margin"] > 0 for s in lines.values())
    [match] = await bo.call("GET", f"/api/families/{fid}/matches")
    head = after["overall"]["head_to_head"]
    if match["winners"] in ([0], [1]):  # (one hand may end 60-60: no winner)
        ana_won = int(match["winners"] == [0])
        assert [(r["a"], r["b"], r["a_won"], r["b_won"]) for r in head] == [
            ("bot:beginner", f"p{ana.player}", 1 - ana_won, ana_won)
        ]
        assert lines[("Ana", None)]["won"] == ana_won
    assert match["token"] == table["token"] and match["seat"] is None  # Bo did not play
    assert match["players"] == {"0": "Ana"}
    assert (await ana.call("GET", f"/api/families/{fid}/matches"))[0]["seat"] == 0
    assert await bo.call("GET", f"/api/families/{fid}/tables") == []
    # a table opened outside the family is not the family's
    await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
    assert await bo.call("GET", f"/api/families/{fid}/tables") == []


async def test_two_members_edit_a_way_to_play_at_once_one_wins_the_other_is_told(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    nonna, ana, bo, family = await family_of_three(clients)
    fid = family["id"]
    saved = await nonna.call(
        "POST", f"/api/families/{fid}/rules", json={"name": "Sunday", "body": SUNDAY}
    )
    path = f"/api/families/{fid}/rules/{saved['id']}"
    edits = [
        {"name": "Sunday", "version": 1, "body": {**SUNDAY, "clock": 30}},
        {"name": "Sunday", "version": 1, "body": {**SUNDAY, "rules": {"match": "best-of-3"}}},
    ]
    answers = await asyncio.gather(
        ana.http.put(path, json=edits[0]), bo.http.put(path, json=edits[1])
    )
    assert sorted(r.status_code for r in answers) == [200, 409]
    lost = next(r for r in answers if r.status_code == 409)
    assert lost.json()["error"]["code"] == "edited_meanwhile"
    assert lost.json()["error"]["values"] == {"name": "Sunday"}
    won = next(r for r in answers if r.status_code == 200).json()
    [now] = await nonna.call("GET", f"/api/families/{fid}/rules")
    assert now == won and now["version"] == 2  # the winner's whole edit, nothing of the other
    # a wrong way to play is refused as the table it opens would be, and nothing is saved
    for body, code in (
        ({**SUNDAY, "game": "poker"}, "bad_game"),
        ({**SUNDAY, "rules": {"match": "forever"}}, "bad_rules"),
        ({**SUNDAY, "seats": [{"kind": "me"}]}, "bad_seats"),
    ):
        r = await ana.http.put(path, json={"name": "Sunday", "version": 2, "body": body})
        refused(r, 400, code)
    refused(
        await ana.http.post(f"/api/families/{fid}/rules", json={"name": " Sunday", "body": SUNDAY}),
        409,
        "name_taken",
    )
    assert [r["version"] for r in await nonna.call("GET", f"/api/families/{fid}/rules")] == [2]
    assert (await bo.http.delete(path)).status_code == 204
    refused(await bo.http.delete(path), 404, "no_rule_set")
    refused(await bo.http.post(f"{path}/table"), 404, "no_rule_set")


async def test_a_familys_ways_tables_and_matches_are_its_members_alone(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    nonna, ana, bo, family = await family_of_three(clients)
    fid = family["id"]
    saved = await nonna.call(
        "POST", f"/api/families/{fid}/rules", json={"name": "Sunday", "body": SUNDAY}
    )
    await ana.call("POST", f"/api/families/{fid}/rules/{saved['id']}/table")
    stranger = await clients("Zed")
    await nonna.http.delete(f"/api/families/{fid}/members/{bo.player}")
    for person in (stranger, bo):
        for method, path, body in [
            ("GET", f"/api/families/{fid}/rules", None),
            ("POST", f"/api/families/{fid}/rules", {"name": "Mine", "body": SUNDAY}),
            (
                "PUT",
                f"/api/families/{fid}/rules/{saved['id']}",
                {"name": "X", "version": 1, "body": SUNDAY},
            ),
            ("DELETE", f"/api/families/{fid}/rules/{saved['id']}", None),
            ("POST", f"/api/families/{fid}/rules/{saved['id']}/table", None),
            ("GET", f"/api/families/{fid}/tables", None),
            ("GET", f"/api/families/{fid}/matches", None),
        ]:
            r = await person.http.request(method, path, json=body)
            refused(r, 404, "no_family")
            assert "Sunday" not in r.text
    [kept] = await nonna.call("GET", f"/api/families/{fid}/rules")
    assert kept == saved


async def test_a_familys_ways_and_standings_survive_a_restart(
    server_factory: Callable[..., ServerProcess],
) -> None:
    """The family, its way to play and its standings are the database's: the server
    stopped and started again on it shows them as they were."""
    alone = server_factory()
    nonna = await Client(alone.url, "Nonna").login()
    try:
        family = await nonna.call("POST", "/api/families", json={"name": "Rossi"})
        fid = family["id"]
        way = await nonna.call(
            "POST", f"/api/families/{fid}/rules", json={"name": "Sunday", "body": SUNDAY}
        )
        table = await nonna.call("POST", f"/api/families/{fid}/rules/{way['id']}/table")
        await nonna.call("POST", f"/api/tables/{table['token']}/start")
        await nonna.connect(table["token"])
        await play_randomly(nonna, random.Random(3))
        await nonna.close()
        before = await nonna.call("GET", f"/api/families/{fid}/standings")
        alone.stop()
        alone.start()
        assert await nonna.call("GET", f"/api/families/{fid}/rules") == [way]
        assert await nonna.call("GET", f"/api/families/{fid}/standings") == before
        assert before["overall"]["table"] and before["game"] == "briscola-2"
    finally:
        await nonna.aclose()
