"""Families in the storage, on SQLite and on PostgreSQL: made with an admin, members by
invitation, roles, leaving, and the invitations that expire or are revoked."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from briscola.storage import (
    EditedMeanwhile,
    Family,
    LastAdmin,
    NameTaken,
    NotFound,
    RuleSet,
    Storage,
    StorageError,
)
from storekit import T0, Clock, token_hash

WEEK = timedelta(days=7)


async def test_a_family_is_made_with_its_admin_and_joined_by_invitation(
    clocked: tuple[Storage, Clock],
) -> None:
    store, clock = clocked
    nonna, ana, bo = [await store.create_player(n) for n in ("Nonna", "Ana", "Bo")]
    rossi = await store.create_family(nonna.id, "  I   Rossi ")
    assert rossi == Family(rossi.id, "I Rossi", T0)
    assert await store.membership(rossi.id, nonna.id) == (rossi, "admin")
    invite = await store.create_invite(rossi.id, nonna.id, token_hash(1), WEEK)
    assert await store.invites(rossi.id) == [invite]
    clock.now = T0 + timedelta(hours=1)
    assert await store.join_family(token_hash(1), ana.id) == rossi
    assert await store.join_family(token_hash(1), ana.id) == rossi  # once a member
    assert await store.join_family(token_hash(1), bo.id) == rossi  # a link serves many
    members = await store.members(rossi.id)
    assert [(m.nickname, m.role) for m in members] == [
        ("Nonna", "admin"),
        ("Ana", "member"),
        ("Bo", "member"),
    ]
    assert members[1].joined == T0 + timedelta(hours=1)
    assert await store.families_of(ana.id) == [(rossi, "member")]
    bianchi = await store.create_family(ana.id, "Bianchi")
    assert await store.families_of(ana.id) == [(bianchi, "admin"), (rossi, "member")]
    with pytest.raises(NotFound, match="you belong to no family"):
        await store.membership(bianchi.id, nonna.id)
    with pytest.raises(NotFound):
        await store.membership(9999, nonna.id)


async def test_an_invitation_expires_or_is_revoked(clocked: tuple[Storage, Clock]) -> None:
    store, clock = clocked
    nonna, ana = [await store.create_player(n) for n in ("Nonna", "Ana")]
    rossi = await store.create_family(nonna.id, "Rossi")
    old = await store.create_invite(rossi.id, nonna.id, token_hash(1), timedelta(hours=1))
    other = await store.create_invite(rossi.id, nonna.id, token_hash(2), WEEK)
    await store.revoke_invite(rossi.id, other.id)
    with pytest.raises(NotFound, match="no invitation"):
        await store.revoke_invite(rossi.id, other.id)
    with pytest.raises(NotFound, match="expired or been revoked"):
        await store.join_family(token_hash(2), ana.id)
    clock.now = T0 + timedelta(hours=1)
    with pytest.raises(NotFound):
        await store.join_family(token_hash(1), ana.id)
    assert await store.invites(rossi.id) == []
    with pytest.raises(NotFound):
        await store.invite_by_token(token_hash(3))
    with pytest.raises(StorageError, match="SHA-256"):
        await store.join_family("the-token-itself", ana.id)
    assert old.expires == T0 + timedelta(hours=1)
    with pytest.raises(NotFound):
        await store.membership(rossi.id, ana.id)


async def test_a_family_always_keeps_an_admin(store: Storage) -> None:
    nonna, ana = [await store.create_player(n) for n in ("Nonna", "Ana")]
    rossi = await store.create_family(nonna.id, "Rossi")
    await store.create_invite(rossi.id, nonna.id, token_hash(1), WEEK)
    await store.join_family(token_hash(1), ana.id)
    with pytest.raises(LastAdmin, match="make another member admin first"):
        await store.remove_member(rossi.id, nonna.id)
    with pytest.raises(LastAdmin):
        await store.set_role(rossi.id, nonna.id, "member")
    assert await store.membership(rossi.id, nonna.id) == (rossi, "admin")  # nothing changed
    await store.set_role(rossi.id, ana.id, "admin")
    await store.remove_member(rossi.id, nonna.id)  # Ana is admin now: Nonna may leave
    assert [(m.nickname, m.role) for m in await store.members(rossi.id)] == [("Ana", "admin")]
    with pytest.raises(NotFound):
        await store.remove_member(rossi.id, nonna.id)
    with pytest.raises(NotFound):
        await store.set_role(rossi.id, nonna.id, "admin")
    with pytest.raises(StorageError, match="admin or member"):
        await store.set_role(rossi.id, ana.id, "owner")
    await store.remove_member(rossi.id, ana.id)  # the last of all may leave
    assert await store.members(rossi.id) == []


async def test_two_admins_leaving_at_once_leave_one(store: Storage) -> None:
    nonna, ana = [await store.create_player(n) for n in ("Nonna", "Ana")]
    bo = await store.create_player("Bo")
    rossi = await store.create_family(nonna.id, "Rossi")
    await store.create_invite(rossi.id, nonna.id, token_hash(1), WEEK)
    for p in (ana, bo):
        await store.join_family(token_hash(1), p.id)
    await store.set_role(rossi.id, ana.id, "admin")
    done = await asyncio.gather(
        store.remove_member(rossi.id, nonna.id),
        store.remove_member(rossi.id, ana.id),
        return_exceptions=True,
    )
    assert sorted(type(d).__name__ for d in done) == ["LastAdmin", "NoneType"]
    assert [m.role for m in await store.members(rossi.id)] == ["admin", "member"]


async def test_a_familys_name_is_checked_and_renamed(store: Storage) -> None:
    nonna = await store.create_player("Nonna")
    for bad in ("", "   ", "x" * 61, "bell\u0007"):
        with pytest.raises(StorageError, match="is 1 to 60 characters"):
            await store.create_family(nonna.id, bad)
    rossi = await store.create_family(nonna.id, "Rossi")
    assert (await store.rename_family(rossi.id, " Rossi  di Napoli ")).name == "Rossi di Napoli"
    with pytest.raises(NotFound):
        await store.rename_family(9999, "X")


async def test_two_edits_of_one_way_to_play_at_once_one_wins_the_other_is_told(
    store: Storage,
) -> None:
    nonna, ana = [await store.create_player(n) for n in ("Nonna", "Ana")]
    rossi = await store.create_family(nonna.id, "Rossi")
    body = {"game": "briscola-4", "rules": {"match": "best-of-3"}}
    sunday = await store.create_rule_set(rossi.id, nonna.id, " Sunday ", body)
    assert (sunday.name, sunday.version, sunday.body) == ("Sunday", 1, body)
    with pytest.raises(NameTaken, match="named 'Sunday' already"):
        await store.create_rule_set(rossi.id, ana.id, "Sunday", {})
    done = await asyncio.gather(
        store.update_rule_set(rossi.id, sunday.id, nonna.id, 1, "Sunday", {"game": "briscola-2"}),
        store.update_rule_set(rossi.id, sunday.id, ana.id, 1, "Sunday", {"game": "chiamata"}),
        return_exceptions=True,
    )
    won = [d for d in done if isinstance(d, RuleSet)]
    told = [d for d in done if isinstance(d, EditedMeanwhile)]
    assert len(won) == 1 and len(told) == 1, done
    assert told[0].current == won[0] and won[0].version == 2
    assert await store.rule_set(rossi.id, sunday.id) == won[0]  # one whole, not halves
    weekday = await store.create_rule_set(rossi.id, ana.id, "Weekday", {"game": "briscola-2"})
    with pytest.raises(NameTaken):
        await store.update_rule_set(rossi.id, weekday.id, ana.id, 1, "Sunday", {})
    assert [r.name for r in await store.rule_sets(rossi.id)] == ["Sunday", "Weekday"]
    other = await store.create_family(ana.id, "Bianchi")
    with pytest.raises(NotFound):  # another family's set is not found through this one
        await store.rule_set(other.id, sunday.id)
    with pytest.raises(NotFound):
        await store.update_rule_set(other.id, sunday.id, ana.id, 2, "Mine", {})
    await store.delete_rule_set(rossi.id, weekday.id)
    with pytest.raises(NotFound):
        await store.delete_rule_set(rossi.id, weekday.id)
    assert [r.name for r in await store.rule_sets(rossi.id)] == ["Sunday"]
