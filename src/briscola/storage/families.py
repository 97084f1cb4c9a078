"""Families: people who play together, with their members and roles and their invitation
links; the part of :class:`~briscola.storage.Storage` that keeps them.

A family has at least one admin while it has members: the last admin can neither leave
nor be made a member before another is made admin. An invitation link is kept by its
token's digest, and lets anyone join until it expires or is revoked.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from briscola.storage import schema as s
from briscola.storage.accounts import check_token_hash
from briscola.storage.values import NotFound, StorageError

ROLES = ("admin", "member")
NAME_LENGTH = 60


class LastAdmin(StorageError):
    """A change that would leave a family with members and no admin."""


@dataclass(frozen=True)
class Family:
    id: int
    name: str
    created: datetime


@dataclass(frozen=True)
class Member:
    player: int
    nickname: str
    role: str
    """``admin`` or ``member``."""
    joined: datetime


@dataclass(frozen=True)
class RuleSet:
    """A family's named way to play: ``body`` as a table is opened with it (game, house
    rules, seats, clock, table settings); ``version`` goes up at each edit."""

    id: int
    family: int
    name: str
    body: dict[str, Any]
    version: int
    updated_by: int | None
    updated: datetime


@dataclass(frozen=True)
class MatchResult:
    """What a family's standings need of a finished match: who sat at each seat (a
    person's ``p`` and id, a computer player's ``bot:`` and level; ``None`` for a seat
    no one is known to have held) and the winning seats (none, or all: a draw)."""

    table_id: int
    game: str
    at: datetime
    seats: tuple[str | None, ...]
    winners: tuple[int, ...]


class NameTaken(StorageError):
    """A family's rule set named as another of the family already is."""


class EditedMeanwhile(StorageError):
    """An edit of a rule set made from an older version than the stored one."""

    def __init__(self, current: RuleSet) -> None:
        super().__init__(
            f"{current.name!r} was changed meanwhile (it is at version {current.version}): "
            "edit that version"
        )
        self.current = current


@dataclass(frozen=True)
class Invite:
    id: int
    family: int
    made_by: int
    created: datetime
    expires: datetime
    revoked: datetime | None


class Families:
    """Families, members and invitations; mixed into :class:`~briscola.storage.Storage`,
    which gives the clock, the write transactions and the reads."""

    clock: Callable[[], datetime]
    _autocommit: AsyncEngine

    def _begin(self) -> AbstractAsyncContextManager[AsyncConnection]:
        raise NotImplementedError  # Storage's

    async def create_family(self, player: int, name: str) -> Family:
        """A new family named ``name`` (1 to 60 characters), ``player`` its admin."""
        name = family_name(name)
        now = self.clock()
        async with self._begin() as conn:
            fid = (
                await conn.execute(
                    s.families.insert().values(name=name, created=now).returning(s.families.c.id)
                )
            ).scalar_one()
            await conn.execute(
                s.family_members.insert().values(
                    family=fid, player=player, role="admin", joined=now
                )
            )
        return Family(fid, name, now)

    async def families_of(self, player: int) -> list[tuple[Family, str]]:
        """The families ``player`` belongs to, with their role in each, by name."""
        q = (
            sa.select(s.families, s.family_members.c.role)
            .join(s.family_members, s.family_members.c.family == s.families.c.id)
            .where(s.family_members.c.player == player)
            .order_by(s.families.c.name, s.families.c.id)
        )
        async with self._autocommit.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [(Family(r.id, r.name, r.created), r.role) for r in rows]

    async def membership(self, family: int, player: int) -> tuple[Family, str]:
        """The family and ``player``'s role in it.

        :raises NotFound: when there is no such family, or ``player`` is not a member (the
            same error: a family's existence is not told to outsiders)."""
        q = (
            sa.select(s.families, s.family_members.c.role)
            .join(s.family_members, s.family_members.c.family == s.families.c.id)
            .where(s.families.c.id == family, s.family_members.c.player == player)
        )
        async with self._autocommit.connect() as conn:
            row = (await conn.execute(q)).first()
        if row is None:
            raise NotFound(f"you belong to no family {family}")
        return Family(row.id, row.name, row.created), row.role

    async def members(self, family: int) -> list[Member]:
        """The family's members, the admins first, then by when they joined."""
        q = (
            sa.select(s.family_members, s.players.c.nickname)
            .join(s.players, s.players.c.id == s.family_members.c.player)
            .where(s.family_members.c.family == family)
            .order_by(s.family_members.c.role, s.family_members.c.joined, s.players.c.id)
        )
        async with self._autocommit.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [Member(r.player, r.nickname, r.role, r.joined) for r in rows]

    async def rename_family(self, family: int, name: str) -> Family:
        name = family_name(name)
        async with self._begin() as conn:
            row = (
                await conn.execute(
                    s.families.update()
                    .where(s.families.c.id == family)
                    .values(name=name)
                    .returning(s.families.c.id, s.families.c.name, s.families.c.created)
                )
            ).first()
        if row is None:
            raise NotFound(f"there is no family {family}")
        return Family(row.id, row.name, row.created)

    async def set_role(self, family: int, player: int, role: str) -> None:
        """Make ``player`` an ``admin`` or a ``member`` of the family.

        :raises NotFound: when ``player`` is not a member.
        :raises LastAdmin: when it would leave the family with no admin."""
        if role not in ROLES:
            raise StorageError(f"a member's role is admin or member, not {role!r}")
        async with self._begin() as conn:
            await self._lock_family(conn, family)
            found = await conn.execute(
                s.family_members.update()
                .where(s.family_members.c.family == family, s.family_members.c.player == player)
                .values(role=role)
            )
            if found.rowcount == 0:
                raise NotFound(f"player {player} is not a member of family {family}")
            await _keep_an_admin(conn, family)

    async def remove_member(self, family: int, player: int) -> None:
        """``player`` leaves the family (or is removed from it).

        :raises NotFound: when ``player`` is not a member.
        :raises LastAdmin: when the last admin would leave others with no admin."""
        async with self._begin() as conn:
            await self._lock_family(conn, family)
            gone = await conn.execute(
                s.family_members.delete().where(
                    s.family_members.c.family == family, s.family_members.c.player == player
                )
            )
            if gone.rowcount == 0:
                raise NotFound(f"player {player} is not a member of family {family}")
            await _keep_an_admin(conn, family)

    async def _lock_family(self, conn: AsyncConnection, family: int) -> None:
        """Hold the family's row until the transaction ends (PostgreSQL; SQLite's writers
        take turns already), so that two admins leaving at once cannot both go."""
        if conn.dialect.name != "sqlite":
            await conn.execute(
                sa.select(s.families.c.id).where(s.families.c.id == family).with_for_update()
            )

    # -- house-rule sets -------------------------------------------------------------------

    async def rule_sets(self, family: int) -> list[RuleSet]:
        """The family's rule sets, by name."""
        q = (
            sa.select(s.rule_sets)
            .where(s.rule_sets.c.family == family)
            .order_by(s.rule_sets.c.name, s.rule_sets.c.id)
        )
        async with self._autocommit.connect() as conn:
            return [_rule_set(r) for r in (await conn.execute(q)).all()]

    async def rule_set(self, family: int, rule_set: int) -> RuleSet:
        """:raises NotFound: when the family has no such rule set."""
        q = sa.select(s.rule_sets).where(
            s.rule_sets.c.id == rule_set, s.rule_sets.c.family == family
        )
        async with self._autocommit.connect() as conn:
            row = (await conn.execute(q)).first()
        if row is None:
            raise NotFound(f"family {family} has no rule set {rule_set}")
        return _rule_set(row)

    async def create_rule_set(
        self, family: int, player: int, name: str, body: dict[str, Any]
    ) -> RuleSet:
        """A new rule set of the family, at version 1.

        :raises NameTaken: when the family has one by that name."""
        name = family_name(name, "a way to play")
        now = self.clock()
        try:
            async with self._begin() as conn:
                row = (
                    await conn.execute(
                        s.rule_sets.insert()
                        .values(
                            family=family,
                            name=name,
                            body=body,
                            version=1,
                            updated_by=player,
                            updated=now,
                        )
                        .returning(*s.rule_sets.c)
                    )
                ).one()
        except IntegrityError:
            raise NameTaken(f"the family has a way to play named {name!r} already") from None
        return _rule_set(row)

    async def update_rule_set(
        self,
        family: int,
        rule_set: int,
        player: int,
        version: int,
        name: str,
        body: dict[str, Any],
    ) -> RuleSet:
        """Edit a rule set made from its ``version``: stored whole, at the next version,
        only while the stored one is still that version.

        :raises EditedMeanwhile: when another edit came first (it carries the current).
        :raises NotFound: when the family has no such rule set.
        :raises NameTaken: when another of the family's has that name."""
        name = family_name(name, "a way to play")
        try:
            async with self._begin() as conn:
                row = (
                    await conn.execute(
                        s.rule_sets.update()
                        .where(
                            s.rule_sets.c.id == rule_set,
                            s.rule_sets.c.family == family,
                            s.rule_sets.c.version == version,
                        )
                        .values(
                            name=name,
                            body=body,
                            version=s.rule_sets.c.version + 1,  # the stored one, plus one
                            updated_by=player,
                            updated=self.clock(),
                        )
                        .returning(*s.rule_sets.c)
                    )
                ).first()
        except IntegrityError:
            raise NameTaken(f"the family has a way to play named {name!r} already") from None
        if row is None:
            raise EditedMeanwhile(await self.rule_set(family, rule_set))
        return _rule_set(row)

    async def delete_rule_set(self, family: int, rule_set: int) -> None:
        """:raises NotFound: when the family has no such rule set."""
        async with self._begin() as conn:
            done = await conn.execute(
                s.rule_sets.delete().where(
                    s.rule_sets.c.id == rule_set, s.rule_sets.c.family == family
                )
            )
            if done.rowcount == 0:
                raise NotFound(f"family {family} has no rule set {rule_set}")

    # -- results ---------------------------------------------------------------------------

    async def family_results(self, family: int) -> list[MatchResult]:
        """The results of the family's finished matches, the oldest first (in the order
        they ended, then of their tables): three statements, whatever their number, and
        of each match's record its winners alone."""
        winners = s.finished.c.record[("result", "winners")]
        q = (
            sa.select(s.finished.c.table_id, s.finished.c.game, s.finished.c.at, winners)
            .join(s.tables, s.tables.c.id == s.finished.c.table_id)
            .where(s.tables.c.family == family)
            .order_by(s.finished.c.at, s.finished.c.table_id)
        )
        of_family = sa.select(s.tables.c.id).where(s.tables.c.family == family)
        async with self._autocommit.connect() as conn:
            rows = (await conn.execute(q)).all()
            people = (
                await conn.execute(
                    sa.select(s.finished_players).where(
                        s.finished_players.c.table_id.in_(of_family)
                    )
                )
            ).all()
            seats = (
                await conn.execute(
                    sa.select(s.seats.c.table_id, s.seats.c.seat, s.seats.c.level).where(
                        s.seats.c.table_id.in_(of_family)
                    )
                )
            ).all()
        who: dict[int, dict[int, str]] = {}
        for seat in seats:
            if seat.level is not None:
                who.setdefault(seat.table_id, {})[seat.seat] = f"bot:{seat.level}"
        for person in people:
            who.setdefault(person.table_id, {})[person.seat] = f"p{person.player}"
        out = []
        for table_id, game, ended, won in rows:
            at = who.get(table_id, {})
            won = won if isinstance(won, list) else []
            n = max([*at, *won], default=-1) + 1
            out.append(
                MatchResult(
                    table_id,
                    game,
                    ended,
                    tuple(at.get(i) for i in range(n)),
                    tuple(int(w) for w in won),
                )
            )
        return out

    # -- invitations -----------------------------------------------------------------------

    async def create_invite(
        self, family: int, made_by: int, token_hash: str, lifetime: timedelta
    ) -> Invite:
        """A new invitation to the family, by ``made_by``, usable for ``lifetime``; kept by
        its token's digest."""
        check_token_hash(token_hash, "an invitation")
        now = self.clock()
        async with self._begin() as conn:
            iid = (
                await conn.execute(
                    s.family_invites.insert()
                    .values(
                        token_hash=token_hash,
                        family=family,
                        made_by=made_by,
                        created=now,
                        expires=now + lifetime,
                    )
                    .returning(s.family_invites.c.id)
                )
            ).scalar_one()
        return Invite(iid, family, made_by, now, now + lifetime, None)

    async def invites(self, family: int) -> list[Invite]:
        """The family's invitations still usable (neither expired nor revoked), the
        newest first."""
        q = (
            sa.select(s.family_invites)
            .where(
                s.family_invites.c.family == family,
                s.family_invites.c.revoked.is_(None),
                s.family_invites.c.expires > self.clock(),
            )
            .order_by(s.family_invites.c.id.desc())
        )
        async with self._autocommit.connect() as conn:
            return [_invite(r) for r in (await conn.execute(q)).all()]

    async def revoke_invite(self, family: int, invite: int) -> None:
        """Revoke the family's invitation numbered ``invite``: its link no longer works.

        :raises NotFound: when the family has no such invitation still usable."""
        now = self.clock()
        async with self._begin() as conn:
            done = await conn.execute(
                s.family_invites.update()
                .where(
                    s.family_invites.c.id == invite,
                    s.family_invites.c.family == family,
                    s.family_invites.c.revoked.is_(None),
                )
                .values(revoked=now)
            )
            if done.rowcount == 0:
                raise NotFound(f"family {family} has no invitation {invite} to revoke")

    async def invite_by_token(self, token_hash: str) -> tuple[Invite, Family]:
        """The usable invitation of that token's digest, and its family.

        :raises NotFound: when there is none, or it expired or was revoked."""
        async with self._autocommit.connect() as conn:
            return await _usable_invite(conn, token_hash, self.clock())

    async def join_family(self, token_hash: str, player: int) -> Family:
        """``player`` joins the family of that invitation (a member already stays as is).

        :raises NotFound: when the invitation is unknown, expired or revoked."""
        async with self._begin() as conn:
            _, family = await _usable_invite(conn, token_hash, self.clock())
            there = await conn.execute(
                sa.select(s.family_members.c.player).where(
                    s.family_members.c.family == family.id, s.family_members.c.player == player
                )
            )
            if there.first() is None:
                await conn.execute(
                    s.family_members.insert().values(
                        family=family.id, player=player, role="member", joined=self.clock()
                    )
                )
        return family


async def _usable_invite(
    conn: AsyncConnection, token_hash: str, now: datetime
) -> tuple[Invite, Family]:
    check_token_hash(token_hash, "an invitation")
    q = (
        sa.select(s.family_invites, s.families.c.name, s.families.c.created.label("made"))
        .join(s.families, s.families.c.id == s.family_invites.c.family)
        .where(s.family_invites.c.token_hash == token_hash)
    )
    row = (await conn.execute(q)).first()
    if row is None or row.revoked is not None or row.expires <= now:
        raise NotFound("no such invitation: it may have expired or been revoked")
    return _invite(row), Family(row.family, row.name, row.made)


async def _keep_an_admin(conn: AsyncConnection, family: int) -> None:
    """Refuse (:class:`LastAdmin`, the transaction rolled back) a family left with members
    and no admin."""
    counts = (
        await conn.execute(
            sa.select(
                sa.func.count(),
                sa.func.count().filter(s.family_members.c.role == "admin"),
            ).where(s.family_members.c.family == family)
        )
    ).one()
    if counts[0] and not counts[1]:
        raise LastAdmin("a family with members needs an admin: make another member admin first")


def family_name(name: str, what: str = "a family") -> str:
    """A family's (or a rule set's) name as kept: spaces trimmed and single, 1 to 60
    characters one can see."""
    name = " ".join(name.split())
    if not name or len(name) > NAME_LENGTH or not name.isprintable():
        raise StorageError(f"the name of {what} is 1 to {NAME_LENGTH} characters one can see")
    return name


def _rule_set(r: sa.Row[Any]) -> RuleSet:
    return RuleSet(r.id, r.family, r.name, dict(r.body), r.version, r.updated_by, r.updated)


def _invite(r: sa.Row[Any]) -> Invite:
    return Invite(r.id, r.family, r.made_by, r.created, r.expires, r.revoked)
