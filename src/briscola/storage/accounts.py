"""A person's account: the player and their nickname, their sessions, the one-time codes
that bring in another device, and passkeys; the part of :class:`~briscola.storage.Storage`
that keeps who plays, who is signed in, where, and how they may sign in again.

A session is a row found by the SHA-256 hex digest of the random token in its cookie, so
that the database never holds a usable token; a one-time code is kept the same way, by
its digest, until it is used (once) or expires.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from briscola.storage import schema as s
from briscola.storage.values import NotFound, Player, StorageError

SEEN_STEP = timedelta(hours=1)
"""The longest step of a session's ``seen`` time (:meth:`Accounts.session_player`)."""

DEVICE_LENGTH = 100
"""The longest device name a session keeps (longer ones are cut)."""

ANONYMOUS = "Anonymous"
"""The name a deleted account's seats are kept under."""

NICKNAMES_READ = 1000
"""The most players one read of :meth:`Accounts.nicknames` names."""


@dataclass(frozen=True)
class Passkey:
    """One of a person's passkeys, as stored: the credential's id (base64url), its COSE
    public key and signature counter, the transports its authenticator named."""

    id: int
    player: int
    credential_id: str
    public_key: bytes
    sign_count: int
    transports: list[str] | None
    device: str | None
    created: datetime
    used: datetime | None


@dataclass(frozen=True)
class Challenge:
    """A WebAuthn challenge given out: for ``register`` (a passkey of ``player``) or
    ``sign_in`` (``player`` None)."""

    challenge: str
    player: int | None
    purpose: str


PURPOSES = ("register", "sign_in")


@dataclass(frozen=True)
class SessionInfo:
    """One of a person's sessions, as their list of devices shows it."""

    id: int
    device: str | None
    created: datetime
    seen: datetime
    """When it was last used, to the step of :meth:`Accounts.session_player`."""
    token_hash: str


class Accounts:
    """Players, sessions, one-time codes and passkeys; mixed into
    :class:`~briscola.storage.Storage`, which gives the clock, the write transactions and
    the reads."""

    clock: Callable[[], datetime]
    _autocommit: AsyncEngine

    def _begin(self) -> AbstractAsyncContextManager[AsyncConnection]:
        raise NotImplementedError  # Storage's

    # -- players ---------------------------------------------------------------------------

    async def create_player(self, nickname: str) -> Player:
        nickname = _nickname(nickname)
        now = self.clock()
        async with self._begin() as conn:
            pid = (
                await conn.execute(
                    s.players.insert()
                    .values(nickname=nickname, created=now)
                    .returning(s.players.c.id)
                )
            ).scalar_one()
        return Player(pid, nickname, now)

    async def get_player(self, player_id: int) -> Player:
        async with self._autocommit.connect() as conn:
            row = (
                await conn.execute(sa.select(s.players).where(s.players.c.id == player_id))
            ).first()
        if row is None:
            raise NotFound(f"there is no player {player_id}")
        return Player(row.id, row.nickname, row.created)

    async def rename_player(self, player_id: int, nickname: str) -> Player:
        """Give the player a new nickname (1 to 40 characters, as :meth:`create_player`'s)."""
        nickname = _nickname(nickname)
        async with self._begin() as conn:
            row = (
                await conn.execute(
                    s.players.update()
                    .where(s.players.c.id == player_id)
                    .values(nickname=nickname)
                    .returning(s.players.c.id, s.players.c.nickname, s.players.c.created)
                )
            ).first()
        if row is None:
            raise NotFound(f"there is no player {player_id}")
        return Player(row.id, row.nickname, row.created)

    # -- sessions --------------------------------------------------------------------------

    async def create_session(self, player: int, token_hash: str, device: str | None = None) -> None:
        """Keep a new session of ``player``, found later by ``token_hash``: the SHA-256 hex
        digest of the random token in its cookie (never the token itself). ``device``
        names where it was opened ("Firefox on Android"; cut to :data:`DEVICE_LENGTH`).

        :raises NotFound: when there is no such player."""
        check_token_hash(token_hash)
        now = self.clock()
        try:
            async with self._begin() as conn:
                found = await conn.execute(
                    sa.select(s.players.c.id).where(
                        s.players.c.id == player, s.players.c.deleted.is_(None)
                    )
                )
                if found.first() is None:
                    raise NotFound(f"there is no player {player}: no session for them")
                await conn.execute(
                    s.sessions.insert().values(
                        token_hash=token_hash,
                        player=player,
                        created=now,
                        seen=now,
                        device=device[:DEVICE_LENGTH] if device else None,
                    )
                )
        except IntegrityError:
            raise StorageError(
                "create_session: a session with that token exists already: make a new "
                "random token for each session"
            ) from None

    async def session_player(self, token_hash: str, idle: timedelta) -> Player:
        """The player of the live session found by ``token_hash``. A session last seen
        longer than ``idle`` ago has expired: it is deleted. Otherwise it is seen now,
        written only when the stored time is older than a step (a sixtieth of ``idle``,
        at most :data:`SEEN_STEP`), so that most requests cost no write.

        :raises NotFound: when there is no such session, or it has expired."""
        check_token_hash(token_hash)
        _check_idle(idle)
        now = self.clock()
        q = (
            sa.select(
                s.sessions.c.id,
                s.sessions.c.seen,
                s.players.c.id.label("player_id"),
                s.players.c.nickname,
                s.players.c.created,
            )
            .join(s.players, s.players.c.id == s.sessions.c.player)
            .where(s.sessions.c.token_hash == token_hash)
        )
        async with self._autocommit.connect() as conn:
            row = (await conn.execute(q)).first()
        if row is None:
            raise NotFound("there is no session by that token: sign in again")
        if row.seen < now - idle:
            async with self._begin() as conn:
                await conn.execute(
                    s.sessions.delete().where(
                        s.sessions.c.id == row.id, s.sessions.c.seen < now - idle
                    )
                )
            raise NotFound("the session has expired (unused for too long): sign in again")
        step = min(idle / 60, SEEN_STEP)
        if row.seen < now - step:
            async with self._begin() as conn:
                await conn.execute(
                    s.sessions.update()
                    .where(s.sessions.c.id == row.id, s.sessions.c.seen < now - step)
                    .values(seen=now)
                )
        return Player(row.player_id, row.nickname, row.created)

    async def sessions_of(self, player: int, idle: timedelta) -> list[SessionInfo]:
        """The live sessions of ``player`` (those used within ``idle``), the last seen
        first."""
        _check_idle(idle)
        q = (
            sa.select(s.sessions)
            .where(s.sessions.c.player == player, s.sessions.c.seen >= self.clock() - idle)
            .order_by(s.sessions.c.seen.desc(), s.sessions.c.id.desc())
        )
        async with self._autocommit.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [SessionInfo(r.id, r.device, r.created, r.seen, r.token_hash) for r in rows]

    async def session_hashes(self, token_hashes: list[str]) -> set[str]:
        """Which of ``token_hashes`` are still sessions (ended ones are gone); asked 1,000
        at a time (a statement's parameters are bounded)."""
        alive: set[str] = set()
        async with self._autocommit.connect() as conn:
            for i in range(0, len(token_hashes), 1000):
                some = token_hashes[i : i + 1000]
                q = sa.select(s.sessions.c.token_hash).where(s.sessions.c.token_hash.in_(some))
                alive.update((await conn.execute(q)).scalars())
        return alive

    async def end_session(self, token_hash: str) -> None:
        """End the session found by ``token_hash`` (signing out); one already gone is
        no error."""
        check_token_hash(token_hash)
        async with self._begin() as conn:
            await conn.execute(s.sessions.delete().where(s.sessions.c.token_hash == token_hash))

    async def end_session_of(self, player: int, session: int) -> str:
        """End ``player``'s session numbered ``session`` (signing out another device);
        its token's digest, to close its connections.

        :raises NotFound: when ``player`` has no such session (another's is not theirs to
            end)."""
        async with self._begin() as conn:
            gone = (
                await conn.execute(
                    s.sessions.delete()
                    .where(s.sessions.c.id == session, s.sessions.c.player == player)
                    .returning(s.sessions.c.token_hash)
                )
            ).scalar()
        if gone is None:
            raise NotFound(f"you have no session {session}: it may have ended already")
        return str(gone)

    async def end_sessions(self, player: int) -> list[str]:
        """End every session of ``player`` (signing out everywhere); their tokens'
        digests, to close their connections."""
        async with self._begin() as conn:
            gone = await conn.execute(
                s.sessions.delete()
                .where(s.sessions.c.player == player)
                .returning(s.sessions.c.token_hash)
            )
            return [str(h) for h in gone.scalars()]

    async def drop_idle_sessions(self, idle: timedelta) -> int:
        """Delete every session last seen longer than ``idle`` ago, and every one-time
        code past its time; how many sessions went."""
        _check_idle(idle)
        now = self.clock()
        async with self._begin() as conn:
            done = await conn.execute(s.sessions.delete().where(s.sessions.c.seen < now - idle))
            await conn.execute(s.link_codes.delete().where(s.link_codes.c.expires <= now))
            return done.rowcount

    # -- deleting an account ---------------------------------------------------------------

    async def delete_account(self, player: int) -> list[str]:
        """Delete ``player``'s account, in one transaction: their sessions, passkeys,
        one-time codes and challenges go; they leave their families (where they were
        the last admin, the member who joined first becomes admin) and the seats they
        hold at tables still waiting; their row stays, for their seats in old matches,
        named :data:`ANONYMOUS`. The digests of the sessions ended, to close their
        connections.

        :raises NotFound: when there is no such player, or it is deleted already."""
        now = self.clock()
        async with self._begin() as conn:
            done = await conn.execute(
                s.players.update()
                .where(s.players.c.id == player, s.players.c.deleted.is_(None))
                .values(nickname=ANONYMOUS, deleted=now)
            )
            if done.rowcount == 0:
                raise NotFound(f"there is no player {player} (or the account is deleted)")
            ended = await conn.execute(
                s.sessions.delete()
                .where(s.sessions.c.player == player)
                .returning(s.sessions.c.token_hash)
            )
            hashes = [str(h) for h in ended.scalars()]
            for table in (s.passkeys, s.link_codes, s.challenges):
                await conn.execute(table.delete().where(table.c.player == player))
            families = (
                (
                    await conn.execute(
                        s.family_members.delete()
                        .where(s.family_members.c.player == player)
                        .returning(s.family_members.c.family)
                    )
                )
                .scalars()
                .all()
            )
            for family in families:
                await _an_admin_left(conn, family)
            waiting = sa.select(s.tables.c.id).where(s.tables.c.status == "waiting")
            await conn.execute(
                s.seats.update()
                .where(s.seats.c.player == player, s.seats.c.table_id.in_(waiting))
                .values(player=None)
            )
        return hashes

    async def nicknames(self, players: Sequence[int]) -> dict[int, str]:
        """The nicknames of ``players`` as stored now, by player id (a player not found
        has none), read :data:`NICKNAMES_READ` at a time."""
        ids = list(dict.fromkeys(players))
        found: dict[int, str] = {}
        async with self._autocommit.connect() as conn:
            for i in range(0, len(ids), NICKNAMES_READ):
                rows = await conn.execute(
                    sa.select(s.players.c.id, s.players.c.nickname).where(
                        s.players.c.id.in_(ids[i : i + NICKNAMES_READ])
                    )
                )
                found.update({r.id: r.nickname for r in rows})
        return found

    # -- one-time codes --------------------------------------------------------------------

    async def create_link_code(self, player: int, code_hash: str, lifetime: timedelta) -> None:
        """Keep a one-time code of ``player`` (by its SHA-256 hex digest) for ``lifetime``;
        the player's earlier codes end, so that one code at a time is valid.

        :raises NotFound: when there is no such player."""
        check_token_hash(code_hash, "a one-time code")
        if lifetime <= timedelta(0):
            raise StorageError(f"a one-time code's lifetime must be positive, got {lifetime}")
        now = self.clock()
        try:
            async with self._begin() as conn:
                await conn.execute(s.link_codes.delete().where(s.link_codes.c.player == player))
                await conn.execute(
                    s.link_codes.insert().values(
                        code_hash=code_hash, player=player, created=now, expires=now + lifetime
                    )
                )
        except IntegrityError:
            raise NotFound(
                f"there is no player {player}, or that code is taken: make another"
            ) from None

    async def use_link_code(self, code_hash: str) -> Player:
        """The player whose live code has the digest ``code_hash``; the code is used up
        (deleted) in the same statement, so that two devices never both use it.

        :raises NotFound: when there is no such code, or it has expired or been used."""
        check_token_hash(code_hash, "a one-time code")
        now = self.clock()
        async with self._begin() as conn:
            row = (
                await conn.execute(
                    s.link_codes.delete()
                    .where(s.link_codes.c.code_hash == code_hash)
                    .returning(s.link_codes.c.player, s.link_codes.c.expires)
                )
            ).first()
            if row is None or row.expires <= now:
                raise NotFound("no such code: it may be mistyped, used already or too old")
            player = (
                await conn.execute(sa.select(s.players).where(s.players.c.id == row.player))
            ).one()
        return Player(player.id, player.nickname, player.created)

    # -- passkeys --------------------------------------------------------------------------

    async def create_challenge(
        self,
        ticket_hash: str,
        challenge: str,
        purpose: str,
        player: int | None,
        lifetime: timedelta,
    ) -> None:
        """Keep a WebAuthn ``challenge`` (base64url) for ``lifetime``, found by the digest
        of its ticket; the challenges past their time go at the same time."""
        check_token_hash(ticket_hash, "a challenge's ticket")
        if purpose not in PURPOSES:
            raise StorageError(f"a challenge is for {' or '.join(PURPOSES)}, not {purpose!r}")
        now = self.clock()
        async with self._begin() as conn:
            await conn.execute(s.challenges.delete().where(s.challenges.c.expires <= now))
            await conn.execute(
                s.challenges.insert().values(
                    ticket_hash=ticket_hash,
                    challenge=challenge,
                    purpose=purpose,
                    player=player,
                    expires=now + lifetime,
                )
            )

    async def take_challenge(self, ticket_hash: str, purpose: str) -> Challenge:
        """The live challenge of that ticket and purpose, used up (deleted) as it is read,
        so that an answer is checked once.

        :raises NotFound: when there is none (never given, answered, or past its time)."""
        check_token_hash(ticket_hash, "a challenge's ticket")
        now = self.clock()
        async with self._begin() as conn:
            row = (
                await conn.execute(
                    s.challenges.delete()
                    .where(s.challenges.c.ticket_hash == ticket_hash)
                    .returning(
                        s.challenges.c.challenge,
                        s.challenges.c.player,
                        s.challenges.c.purpose,
                        s.challenges.c.expires,
                    )
                )
            ).first()
        if row is None or row.expires <= now or row.purpose != purpose:
            raise NotFound("no such challenge: it was answered already, or is too old")
        return Challenge(row.challenge, row.player, row.purpose)

    async def add_passkey(
        self,
        player: int,
        credential_id: str,
        public_key: bytes,
        sign_count: int,
        transports: list[str] | None,
        device: str | None,
    ) -> Passkey:
        """Keep a new passkey of ``player``.

        :raises StorageError: when that credential is kept already (registered twice)."""
        now = self.clock()
        try:
            async with self._begin() as conn:
                pid = (
                    await conn.execute(
                        s.passkeys.insert()
                        .values(
                            player=player,
                            credential_id=credential_id,
                            public_key=public_key,
                            sign_count=sign_count,
                            transports=transports,
                            device=device[:DEVICE_LENGTH] if device else None,
                            created=now,
                        )
                        .returning(s.passkeys.c.id)
                    )
                ).scalar_one()
        except IntegrityError:
            raise StorageError("that passkey is registered already") from None
        return Passkey(
            pid, player, credential_id, public_key, sign_count, transports, device, now, None
        )

    async def passkeys_of(self, player: int) -> list[Passkey]:
        """``player``'s passkeys, the first registered first."""
        q = sa.select(s.passkeys).where(s.passkeys.c.player == player).order_by(s.passkeys.c.id)
        async with self._autocommit.connect() as conn:
            return [_passkey(r) for r in (await conn.execute(q)).all()]

    async def passkey(self, credential_id: str) -> Passkey:
        """The passkey of that credential id.

        :raises NotFound: when no one has it (never registered here, or removed)."""
        q = sa.select(s.passkeys).where(s.passkeys.c.credential_id == credential_id)
        async with self._autocommit.connect() as conn:
            row = (await conn.execute(q)).first()
        if row is None:
            raise NotFound("no such passkey here: it may have been removed")
        return _passkey(row)

    async def passkey_used(self, passkey: int, sign_count: int) -> None:
        """A sign-in with ``passkey``: its new signature counter, and when."""
        async with self._begin() as conn:
            await conn.execute(
                s.passkeys.update()
                .where(s.passkeys.c.id == passkey)
                .values(sign_count=sign_count, used=self.clock())
            )

    async def remove_passkey(self, player: int, passkey: int) -> None:
        """Remove ``player``'s passkey numbered ``passkey``.

        :raises NotFound: when ``player`` has no such passkey."""
        async with self._begin() as conn:
            done = await conn.execute(
                s.passkeys.delete().where(s.passkeys.c.id == passkey, s.passkeys.c.player == player)
            )
            if done.rowcount == 0:
                raise NotFound(f"you have no passkey {passkey}: it may be removed already")


def _passkey(r: sa.Row[Any]) -> Passkey:
    return Passkey(
        r.id,
        r.player,
        r.credential_id,
        bytes(r.public_key),
        r.sign_count,
        r.transports,
        r.device,
        r.created,
        r.used,
    )


async def _an_admin_left(conn: AsyncConnection, family: int) -> None:
    """Make the member who joined first the family's admin when it has none left."""
    members = (
        await conn.execute(
            sa.select(s.family_members.c.player, s.family_members.c.role)
            .where(s.family_members.c.family == family)
            .order_by(s.family_members.c.joined, s.family_members.c.player)
        )
    ).all()
    if members and not any(m.role == "admin" for m in members):
        await conn.execute(
            s.family_members.update()
            .where(
                s.family_members.c.family == family,
                s.family_members.c.player == members[0].player,
            )
            .values(role="admin")
        )


def check_token_hash(token_hash: str, what: str = "a session") -> None:
    """A session (or a code) is kept by its SHA-256 hex digest: refuse anything else (a
    token itself, kept by mistake, would be usable by whoever reads the database)."""
    if not re.fullmatch(r"[0-9a-f]{64}", token_hash):
        raise StorageError(
            f"{what} is kept by the SHA-256 hex digest of its token (64 lowercase hex "
            "digits), never by the token: give hashlib.sha256(token.encode()).hexdigest()"
        )


def _check_idle(idle: timedelta) -> None:
    if idle <= timedelta(0):
        raise StorageError(f"a session's idle time must be positive, got {idle}")


def _nickname(nickname: str) -> str:
    """``nickname`` without the spaces around it, which leaves 1 to 40 characters."""
    nickname = nickname.strip()
    if not 1 <= len(nickname) <= 40:
        raise StorageError(
            f"a nickname has 1 to 40 characters, got {len(nickname)}: choose another"
        )
    return nickname
