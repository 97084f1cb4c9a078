"""``/api/families``: a family's own place. A person makes a family (its admin), invites
others by a link that expires and can be revoked, and the admins rename it, make other
admins and remove members; anyone may leave. Everything of a family is for its members
alone: to anyone else every route answers ``404 no_family``, as for a family that does
not exist, so that a family's existence does not leak.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from fastapi import APIRouter, Response

from briscola.server.deps import GuardsDep, Me, TablesDep, digest, errors, limited
from briscola.server.errors import Refused
from briscola.server.messages import (
    FamilyBrief,
    FamilyIn,
    FamilyOut,
    InviteIn,
    InviteOut,
    InvitePreview,
    MemberOut,
    RoleIn,
)
from briscola.storage import Family, LastAdmin, NotFound, Player, Storage, StorageError

router = APIRouter(tags=["families"])

INVITE_PATH = "/join/"
"""An invitation's link: this, then its token."""


def no_family(family: int) -> Refused:
    return Refused(
        "no_family",
        f"you belong to no family {family} (GET /api/families lists yours)",
        404,
    )


async def member_of(storage: Storage, family: int, player: Player) -> tuple[Family, str]:
    """The family and the asking player's role in it; ``404 no_family`` for anyone else."""
    try:
        return await storage.membership(family, player.id)
    except NotFound:
        raise no_family(family) from None


async def admin_of(storage: Storage, family: int, player: Player) -> Family:
    """The family, when the asking player is one of its admins: ``404 no_family`` for a
    stranger, ``403 not_admin`` for a member."""
    found, role = await member_of(storage, family, player)
    if role != "admin":
        raise Refused(
            "not_admin", f"only an admin of {found.name} may do that: ask one of them", 403
        )
    return found


async def family_out(storage: Storage, family: Family, role: str) -> FamilyOut:
    members = await storage.members(family.id)
    return FamilyOut(
        id=family.id,
        name=family.name,
        role=role,
        created=family.created,
        members=[
            MemberOut(player=m.player, nickname=m.nickname, role=m.role, joined=m.joined)
            for m in members
        ],
    )


def named(name: str) -> str:
    name = " ".join(name.split())
    if not name or not name.isprintable():
        raise Refused("bad_family_name", "a family's name is 1 to 60 characters you can see")
    return name


@router.post(
    "/api/families", response_model=FamilyOut, status_code=201, responses=errors(400, 401, 422, 429)
)
async def create(body: FamilyIn, player: Me, tables: TablesDep, guards: GuardsDep) -> FamilyOut:
    """Make a family: you are its admin, and its first member."""
    limited(guards.new_tables, player.id, "new families and tables")
    try:
        family = await tables.storage.create_family(player.id, named(body.name))
    except StorageError:
        raise Refused(
            "bad_family_name", "a family's name is 1 to 60 characters you can see"
        ) from None
    return await family_out(tables.storage, family, "admin")


@router.get("/api/families", response_model=list[FamilyBrief], responses=errors(401))
async def mine(player: Me, tables: TablesDep) -> list[FamilyBrief]:
    """The families you belong to, with your role in each."""
    return [
        FamilyBrief(id=f.id, name=f.name, role=role)
        for f, role in await tables.storage.families_of(player.id)
    ]


@router.get("/api/families/{family}", response_model=FamilyOut, responses=errors(401, 404, 422))
async def one(family: int, player: Me, tables: TablesDep) -> FamilyOut:
    """A family of yours: its members and their roles."""
    found, role = await member_of(tables.storage, family, player)
    return await family_out(tables.storage, found, role)


@router.patch(
    "/api/families/{family}", response_model=FamilyOut, responses=errors(400, 401, 403, 404, 422)
)
async def rename(family: int, body: FamilyIn, player: Me, tables: TablesDep) -> FamilyOut:
    """Rename the family (admins)."""
    await admin_of(tables.storage, family, player)
    renamed = await tables.storage.rename_family(family, named(body.name))
    return await family_out(tables.storage, renamed, "admin")


@router.put(
    "/api/families/{family}/members/{member}",
    response_model=FamilyOut,
    responses=errors(401, 403, 404, 409, 422),
)
async def set_role(
    family: int, member: int, body: RoleIn, player: Me, tables: TablesDep
) -> FamilyOut:
    """Make a member an admin, or an admin a member again (admins). The last admin stays
    one (`409 last_admin`) until another is made admin."""
    found = await admin_of(tables.storage, family, player)
    try:
        await tables.storage.set_role(family, member, body.role)
    except NotFound:
        raise Refused("no_member", f"{found.name} has no member {member}", 404) from None
    except LastAdmin:
        raise last_admin(found) from None
    _, role = await member_of(tables.storage, family, player)
    return await family_out(tables.storage, found, role)


def last_admin(family: Family) -> Refused:
    return Refused(
        "last_admin",
        f"{family.name} needs an admin: make another member admin first",
        409,
    )


@router.delete(
    "/api/families/{family}/members/{member}",
    status_code=204,
    responses=errors(401, 403, 404, 409, 422),
)
async def remove(family: int, member: int, player: Me, tables: TablesDep) -> Response:
    """Leave the family (your own id), or remove a member (admins). The last admin of a
    family with other members cannot leave (`409 last_admin`): make another admin first."""
    found = (
        (await member_of(tables.storage, family, player))[0]
        if member == player.id
        else await admin_of(tables.storage, family, player)
    )
    try:
        await tables.storage.remove_member(family, member)
    except NotFound:
        raise Refused("no_member", f"{found.name} has no member {member}", 404) from None
    except LastAdmin:
        raise last_admin(found) from None
    return Response(status_code=204)


# -- invitations ---------------------------------------------------------------------------


@router.post(
    "/api/families/{family}/invites",
    response_model=InviteOut,
    status_code=201,
    responses=errors(401, 403, 404, 422),
)
async def invite(
    family: int, player: Me, tables: TablesDep, body: InviteIn | None = None
) -> InviteOut:
    """A new invitation link to the family (admins): anyone who opens it while it lasts
    (`days`, 7 by default) may join. Only this answer holds its token."""
    await admin_of(tables.storage, family, player)
    token = secrets.token_urlsafe(24)
    made = await tables.storage.create_invite(
        family, player.id, digest(token), timedelta(days=(body or InviteIn()).days)
    )
    return InviteOut(
        id=made.id, link=INVITE_PATH + token, created=made.created, expires=made.expires
    )


@router.get(
    "/api/families/{family}/invites",
    response_model=list[InviteOut],
    responses=errors(401, 403, 404, 422),
)
async def invites(family: int, player: Me, tables: TablesDep) -> list[InviteOut]:
    """The family's invitations still usable (admins); their links are not kept, only
    when they were made and until when they work."""
    await admin_of(tables.storage, family, player)
    return [
        InviteOut(id=i.id, link=None, created=i.created, expires=i.expires)
        for i in await tables.storage.invites(family)
    ]


@router.delete(
    "/api/families/{family}/invites/{invite_id}",
    status_code=204,
    responses=errors(401, 403, 404, 422),
)
async def revoke(family: int, invite_id: int, player: Me, tables: TablesDep) -> Response:
    """Revoke an invitation (admins): its link no longer lets anyone join."""
    await admin_of(tables.storage, family, player)
    try:
        await tables.storage.revoke_invite(family, invite_id)
    except NotFound:
        raise bad_invite() from None
    return Response(status_code=204)


def bad_invite() -> Refused:
    return Refused(
        "bad_invite",
        "no such invitation: it may have expired or been revoked; ask for a new link",
        404,
    )


def token_digest(token: str) -> str:
    if not 0 < len(token) <= 100:
        raise bad_invite()
    return digest(token)


@router.get("/api/invites/{token}", response_model=InvitePreview, responses=errors(404, 422))
async def preview(token: str, tables: TablesDep) -> InvitePreview:
    """What an invitation link invites to: the family's name (for whoever holds the link,
    signed in or not)."""
    try:
        _, family = await tables.storage.invite_by_token(token_digest(token))
    except (NotFound, StorageError):
        raise bad_invite() from None
    return InvitePreview(family=family.name)


@router.post("/api/invites/{token}", response_model=FamilyOut, responses=errors(401, 404, 422))
async def join(token: str, player: Me, tables: TablesDep) -> FamilyOut:
    """Join the family of an invitation link (a member already stays as they are)."""
    try:
        family = await tables.storage.join_family(token_digest(token), player.id)
    except (NotFound, StorageError):
        raise bad_invite() from None
    _, role = await member_of(tables.storage, family.id, player)
    return await family_out(tables.storage, family, role)
