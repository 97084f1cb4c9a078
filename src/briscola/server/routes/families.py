"""``/api/families``: a family's own place. A person makes a family (its admin), invites
others by a link that expires and can be revoked, and the admins rename it, make other
admins and remove members; anyone may leave. The members keep the family's ways to play
(its house-rule sets), open a family table from one in a step, and see the family's
tables, finished matches and standings. Everything of a family is for its members alone: to anyone
else every route answers ``404 no_family``, as for a family that does not exist, so that
a family's existence does not leak.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import APIRouter, Response

from briscola.server import nicknames
from briscola.server.broadcast import family_key, person_key
from briscola.server.deps import GuardsDep, Me, TablesDep, digest, errors, limited
from briscola.server.errors import Refused
from briscola.server.messages import (
    FamilyBrief,
    FamilyIn,
    FamilyOut,
    GameStandingsOut,
    Id,
    InviteIn,
    InviteOut,
    InvitePreview,
    MatchOut,
    MemberOut,
    RecordOut,
    RoleIn,
    RuleSetIn,
    RuleSetOut,
    StandingOut,
    StandingsOut,
    TableIn,
    TableOut,
)
from briscola.server.routes.records import match_out
from briscola.server.standings import Standing, Standings, provisional, shown, standings
from briscola.server.tables import Tables
from briscola.storage import (
    EditedMeanwhile,
    Family,
    LastAdmin,
    NameTaken,
    NotFound,
    Player,
    RuleSet,
    Storage,
    StorageError,
)
from briscola.storage.families import family_name

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
    """A family's (or a way to play's) name as the storage keeps it (:func:`family_name`);
    ``400 bad_family_name`` for one it refuses."""
    try:
        return family_name(name)
    except StorageError:
        raise Refused(
            "bad_family_name", "a family's name is 1 to 60 characters you can see"
        ) from None


@router.post(
    "/api/families", response_model=FamilyOut, status_code=201, responses=errors(400, 401, 422, 429)
)
async def create(body: FamilyIn, player: Me, tables: TablesDep, guards: GuardsDep) -> FamilyOut:
    """Make a family: you are its admin, and its first member."""
    limited(guards.new_tables, player.id, "new families and tables")
    family = await tables.storage.create_family(player.id, named(body.name))
    return await family_out(tables.storage, family, "admin")


@router.get("/api/families", response_model=list[FamilyBrief], responses=errors(401))
async def mine(player: Me, tables: TablesDep) -> list[FamilyBrief]:
    """The families you belong to, with your role in each."""
    return [
        FamilyBrief(id=f.id, name=f.name, role=role)
        for f, role in await tables.storage.families_of(player.id)
    ]


@router.get("/api/families/{family}", response_model=FamilyOut, responses=errors(401, 404, 422))
async def one(family: Id, player: Me, tables: TablesDep) -> FamilyOut:
    """A family of yours: its members and their roles."""
    found, role = await member_of(tables.storage, family, player)
    return await family_out(tables.storage, found, role)


@router.patch(
    "/api/families/{family}", response_model=FamilyOut, responses=errors(400, 401, 403, 404, 422)
)
async def rename(family: Id, body: FamilyIn, player: Me, tables: TablesDep) -> FamilyOut:
    """Rename the family (admins)."""
    await admin_of(tables.storage, family, player)
    renamed = await tables.storage.rename_family(family, named(body.name))
    await tables.broadcaster.publish(family_key(family))
    return await family_out(tables.storage, renamed, "admin")


@router.put(
    "/api/families/{family}/members/{member}",
    response_model=FamilyOut,
    responses=errors(401, 403, 404, 409, 422),
)
async def set_role(
    family: Id, member: Id, body: RoleIn, player: Me, tables: TablesDep
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
async def remove(family: Id, member: Id, player: Me, tables: TablesDep) -> Response:
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
    await tables.broadcaster.publish(person_key(member))
    return Response(status_code=204)


# -- invitations ---------------------------------------------------------------------------


@router.post(
    "/api/families/{family}/invites",
    response_model=InviteOut,
    status_code=201,
    responses=errors(401, 403, 404, 422),
)
async def invite(
    family: Id, player: Me, tables: TablesDep, body: InviteIn | None = None
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
async def invites(family: Id, player: Me, tables: TablesDep) -> list[InviteOut]:
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
async def revoke(family: Id, invite_id: Id, player: Me, tables: TablesDep) -> Response:
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


@router.post("/api/invites/{token}", response_model=FamilyOut, responses=errors(401, 404, 409, 422))
async def join(token: str, player: Me, tables: TablesDep) -> FamilyOut:
    """Join the family of an invitation link (a member already stays as they are;
    `nickname_alike` when your nickname looks like a member's)."""
    try:
        _, invited = await tables.storage.invite_by_token(token_digest(token))
        members = await tables.storage.members(invited.id)
        nicknames.check_apart(player.id, player.nickname, {m.player: m.nickname for m in members})
        family = await tables.storage.join_family(token_digest(token), player.id)
    except (NotFound, StorageError):
        raise bad_invite() from None
    await tables.broadcaster.publish(person_key(player.id))
    _, role = await member_of(tables.storage, family.id, player)
    return await family_out(tables.storage, family, role)


# -- the family's ways to play, its tables and its matches -----------------------------------


def rule_set_out(tables: Tables, kept: RuleSet) -> RuleSetOut:
    return RuleSetOut(
        id=kept.id,
        name=kept.name,
        body=kept.body,
        version=kept.version,
        updated_by=tables.names.get(kept.updated_by) if kept.updated_by else None,
        updated=kept.updated,
    )


def set_body(tables: Tables, player: Player, body: TableIn) -> dict[str, Any]:
    """A way to play's table, checked as a table opened with it would be (the same
    refusals), kept private: a family's tables are for its members."""
    tables.checked(player.id, body)
    return body.model_dump(exclude={"public"}, exclude_none=True)


def no_rule_set(rule_set: int) -> Refused:
    return Refused("no_rule_set", f"the family has no way to play {rule_set}", 404)


async def rule_set_of(tables: Tables, family: int, rule_set: int) -> RuleSet:
    try:
        return await tables.storage.rule_set(family, rule_set)
    except NotFound:
        raise no_rule_set(rule_set) from None


@router.get(
    "/api/families/{family}/rules",
    response_model=list[RuleSetOut],
    responses=errors(401, 404, 422),
)
async def rule_sets(family: Id, player: Me, tables: TablesDep) -> list[RuleSetOut]:
    """The family's ways to play, by name: each a table as it is opened, and the version
    an edit is made from."""
    await member_of(tables.storage, family, player)
    kept = await tables.storage.rule_sets(family)
    await tables.learn_names([k.updated_by for k in kept if k.updated_by])
    return [rule_set_out(tables, k) for k in kept]


@router.post(
    "/api/families/{family}/rules",
    response_model=RuleSetOut,
    status_code=201,
    responses=errors(400, 401, 404, 409, 422),
)
async def save_rule_set(family: Id, body: RuleSetIn, player: Me, tables: TablesDep) -> RuleSetOut:
    """Save a way to play into the family (any member): `body` is the table it opens, as
    `POST /api/tables` takes it, refused the same way when wrong. A name the family uses
    already is `409 name_taken`."""
    await member_of(tables.storage, family, player)
    try:
        kept = await tables.storage.create_rule_set(
            family, player.id, named(body.name), set_body(tables, player, body.body)
        )
    except NameTaken:
        raise name_taken(body.name) from None
    return rule_set_out(tables, kept)


def name_taken(name: str) -> Refused:
    return Refused(
        "name_taken",
        f"the family has a way to play named {name!r} already: choose another name",
        409,
        values={"name": name},
    )


@router.put(
    "/api/families/{family}/rules/{rule_set}",
    response_model=RuleSetOut,
    responses=errors(400, 401, 404, 409, 422),
)
async def edit_rule_set(
    family: Id, rule_set: Id, body: RuleSetIn, player: Me, tables: TablesDep
) -> RuleSetOut:
    """Edit a way to play (any member), from the `version` you were shown: saved whole
    at the next version. When another member's edit came first, yours is refused
    (`409 edited_meanwhile`, nothing saved): load theirs, and edit that."""
    await member_of(tables.storage, family, player)
    if body.version is None:
        raise Refused("bad_request", "an edit names the version it was made from", 422)
    checked = set_body(tables, player, body.body)
    try:
        kept = await tables.storage.update_rule_set(
            family, rule_set, player.id, body.version, named(body.name), checked
        )
    except NotFound:
        raise no_rule_set(rule_set) from None
    except NameTaken:
        raise name_taken(body.name) from None
    except EditedMeanwhile as e:
        raise Refused(
            "edited_meanwhile",
            f"{e.current.name!r} was changed meanwhile (now at version {e.current.version}): "
            "nothing of yours was saved; load it again, and edit that",
            409,
            values={"name": e.current.name},
        ) from None
    return rule_set_out(tables, kept)


@router.delete(
    "/api/families/{family}/rules/{rule_set}",
    status_code=204,
    responses=errors(401, 404, 422),
)
async def delete_rule_set(family: Id, rule_set: Id, player: Me, tables: TablesDep) -> Response:
    """Delete a way to play (any member)."""
    await member_of(tables.storage, family, player)
    try:
        await tables.storage.delete_rule_set(family, rule_set)
    except NotFound:
        raise no_rule_set(rule_set) from None
    return Response(status_code=204)


@router.post(
    "/api/families/{family}/rules/{rule_set}/table",
    response_model=TableOut,
    status_code=201,
    responses=errors(400, 401, 404, 422, 429),
)
async def open_family_table(
    family: Id, rule_set: Id, player: Me, tables: TablesDep, guards: GuardsDep
) -> TableOut:
    """Open the family's table of a way to play, in one step: you are its host (at the
    seat the way to play gives `me`, else the first); a private table, which every member
    sees on the family's page (`GET /api/families/{id}/tables`)."""
    await member_of(tables.storage, family, player)
    kept = await rule_set_of(tables, family, rule_set)
    limited(guards.new_tables, player.id, "new tables")
    spec = TableIn.model_validate({**kept.body, "public": False})
    live = await tables.create(player.id, spec, family=family)
    return live.view.table_out(player.id)


@router.get(
    "/api/families/{family}/tables",
    response_model=list[TableOut],
    responses=errors(401, 404, 422),
)
async def family_tables(family: Id, player: Me, tables: TablesDep) -> list[TableOut]:
    """The family's tables waiting for players or in play, the newest first (at most
    50): each with its link (`invite`)."""
    await member_of(tables.storage, family, player)
    listed = await tables.storage.list_tables(
        public=None, status=("waiting", "playing"), family=family, limit=50
    )
    return await tables.listed(listed, player.id)


@router.get(
    "/api/families/{family}/matches",
    response_model=list[MatchOut],
    responses=errors(401, 404, 422),
)
async def family_matches(family: Id, player: Me, tables: TablesDep) -> list[MatchOut]:
    """The family's finished matches, the newest first (at most 100), each with its
    record's path (and, from there, its hands' replays)."""
    await member_of(tables.storage, family, player)
    return [
        await match_out(tables, m, player.id) for m in await tables.storage.family_matches(family)
    ]


# -- standings -------------------------------------------------------------------------------


def game_standings(tables: Tables, found: Standings | None) -> GameStandingsOut:
    if found is None:
        return GameStandingsOut(table=[], head_to_head=[], pairs=[])

    def line(s: Standing) -> StandingOut:
        player = int(s.key[1:]) if s.key.startswith("p") else None
        rated, margin = shown(s.mu, s.sigma)
        return StandingOut(
            key=s.key,
            player=player,
            nickname=tables.names.get(player, "?") if player is not None else None,
            level=s.key.removeprefix("bot:") if player is None else None,
            rating=s.rating,
            mu=s.mu,
            sigma=s.sigma,
            played=s.played,
            won=s.won,
            shown=rated,
            margin=margin,
            provisional=provisional(s.played),
        )

    return GameStandingsOut(
        table=[line(s) for s in found.table],
        head_to_head=[RecordOut(**vars(r)) for r in found.head_to_head],
        pairs=[RecordOut(**vars(r)) for r in found.pairs],
    )


@router.get(
    "/api/families/{family}/standings",
    response_model=StandingsOut,
    responses=errors(401, 404, 422),
)
async def family_standings(
    family: Id, player: Me, tables: TablesDep, game: str | None = None
) -> StandingsOut:
    """The family's standings in `game` (by default the game it has played most): the
    ratings (OpenSkill, Weng-Lin) of this month's matches and of all, computed afresh
    from its finished matches, with who beat whom and which pairs win most together.
    Computer players are rated too, one rating a level."""
    await member_of(tables.storage, family, player)
    results = await tables.storage.family_results(family)
    counts = Counter(r.game for r in results)
    games = sorted(counts, key=lambda g: (-counts[g], g))
    chosen = game if game is not None else (games[0] if games else None)
    now = datetime.now(UTC)
    month_from = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    of_game = [r for r in results if r.game == chosen]
    people = {int(k[1:]) for r in of_game for k in r.seats if k and k.startswith("p")}
    await tables.learn_names(sorted(people))
    overall, month = await asyncio.to_thread(
        lambda: (standings(of_game), standings(of_game, since=month_from))
    )
    return StandingsOut(
        game=chosen,
        games=games,
        month_from=month_from,
        month=game_standings(tables, month.get(chosen) if chosen else None),
        overall=game_standings(tables, overall.get(chosen) if chosen else None),
    )
