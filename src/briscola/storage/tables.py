"""Tables and their seats: the part of :class:`~briscola.storage.Storage` that opens a
table (and its rematch), finds it by id or invite, lists the lobby's, seats people and
computer players, and keeps its publicity and settings. A table's match (its start, its
log, its end) is :mod:`briscola.storage.match_log`'s.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from briscola.engine.errors import BriscolaError
from briscola.engine.game_record import rules_from_json
from briscola.engine.rules import Rules
from briscola.storage import schema as s
from briscola.storage.values import (
    NotFound,
    Seat,
    SeatTaken,
    StorageError,
    TableInfo,
    WrongStatus,
)

STATUSES = ("waiting", "playing", "finished")


class TableRows:
    """Tables and their seats; mixed into :class:`~briscola.storage.Storage`, which gives
    the clock, the write transactions and the reads."""

    clock: Callable[[], datetime]
    _autocommit: AsyncEngine
    _sqlite: bool

    def _begin(self) -> AbstractAsyncContextManager[AsyncConnection]:
        raise NotImplementedError  # Storage's

    async def create_table(
        self,
        game: str,
        rules: dict[str, Any] | Rules,
        seats: Sequence[Seat],
        *,
        host: int | None,
        public: bool,
        settings: dict[str, Any] | None = None,
        family: int | None = None,
    ) -> TableInfo:
        """A new table, waiting for players, with a fresh invite token. ``rules`` are the
        house rules, as JSON (checked by the engine) or as the rule set the caller read
        already (the server's, from the request), stored as the overrides of the defaults;
        there is one seat for each of the game's seats; ``settings`` are kept as given; a
        ``family``'s table is listed, and counted, as that family's."""
        parsed = _parsed_rules(game, rules, seats)
        async with self._begin() as conn:
            tid = await _insert_table(
                conn, parsed, seats, host, public, settings, self.clock(), family
            )
            return await read_table(conn, tid)

    async def create_rematch(self, table_id: int, settings: dict[str, Any]) -> TableInfo:
        """The rematch of the table ``table_id``: a new table with its game, house rules,
        seats, host and publicity, and ``settings``, its token kept in the old table's
        setting ``rematch``. Asked again, or by two server processes at once, it is made
        once: the old table's row is locked from the read to the write (PostgreSQL;
        SQLite's writers take turns), and whoever comes second is given the table the
        first made."""
        async with self._begin() as conn:
            q = sa.select(s.tables.c.id).where(s.tables.c.id == table_id)
            if not self._sqlite:
                q = q.with_for_update()
            await conn.execute(q)
            old = await read_table(conn, table_id)  # (NotFound when there is none)
            made = old.settings.get("rematch")
            if isinstance(made, str):
                q = sa.select(s.tables.c.id).where(s.tables.c.token == made)
                return await read_table(conn, (await conn.execute(q)).scalar_one())
            parsed = _parsed_rules(old.game, old.parsed, old.seats)
            now = self.clock()
            tid = await _insert_table(
                conn, parsed, old.seats, old.host, old.public, settings, now, old.family
            )
            new = await read_table(conn, tid)
            await conn.execute(
                s.tables.update()
                .where(s.tables.c.id == table_id)
                .values(settings={**old.settings, "rematch": new.token}, updated=now)
            )
            return new

    async def get_table(self, table_id: int) -> TableInfo:
        async with self._autocommit.connect() as conn:
            return await read_table(conn, table_id)

    async def table_by_token(self, token: str) -> TableInfo:
        """The table whose invite token is ``token``."""
        async with self._autocommit.connect() as conn:
            tid = (
                await conn.execute(sa.select(s.tables.c.id).where(s.tables.c.token == token))
            ).scalar()
            if tid is None:
                raise NotFound("there is no table with that invite: check the link")
            return await read_table(conn, tid)

    async def count_public_open(self, host: int, since: datetime) -> int:
        """How many public tables ``host`` hosts that are open: playing, or waiting and
        updated at or after ``since`` (a waiting table left alone longer is not counted)."""
        if since.tzinfo is None:
            raise StorageError(
                f"count_public_open: the time must carry its timezone, got {since!r}"
            )
        t = s.tables.c
        q = (
            sa.select(sa.func.count())
            .select_from(s.tables)
            .where(
                t.host == host,
                t.public.is_(True),
                sa.or_(t.status == "playing", sa.and_(t.status == "waiting", t.updated >= since)),
            )
        )
        async with self._autocommit.connect() as conn:
            return int((await conn.execute(q)).scalar_one())

    async def list_tables(
        self,
        *,
        public: bool | None = True,
        status: str | tuple[str, ...] | None = None,
        family: int | None = None,
        limit: int | None = None,
    ) -> list[TableInfo]:
        """Tables (the lobby: the public ones), newest first; ``None`` selects any, but
        a ``family`` given selects that family's alone; ``status`` one, or any of several;
        at most ``limit``. Two statements, however many are listed: their rows, then
        their seats."""
        q = sa.select(s.tables).order_by(s.tables.c.id.desc()).limit(limit)
        if public is not None:
            q = q.where(s.tables.c.public == public)
        if status is not None:
            statuses = (status,) if isinstance(status, str) else status
            q = q.where(s.tables.c.status.in_([_status(x) for x in statuses]))
        if family is not None:
            q = q.where(s.tables.c.family == family)
        async with self._autocommit.connect() as conn:
            rows = (await conn.execute(q)).all()
            seats: dict[int, list[Seat]] = {r.id: [] for r in rows}
            if rows:
                c = s.seats.c
                seat_rows = await conn.execute(
                    sa.select(c.table_id, c.player, c.level)
                    .where(c.table_id.in_(list(seats)))
                    .order_by(c.table_id, c.seat)
                )
                for r in seat_rows:
                    seats[r.table_id].append(Seat(r.player, r.level))
        return [_info(r, seats[r.id]) for r in rows]

    async def take_seat(self, table_id: int, seat: int, player: int) -> TableInfo:
        """Seat ``player`` at an open seat of a waiting table.

        :raises SeatTaken: when someone (or a computer player) already sits there."""
        async with self._begin() as conn:
            info = await read_table(conn, table_id)
            _check_seat(info, seat)
            if info.status != "waiting":
                raise WrongStatus(f"table {table_id} is {info.status}: its seats are set")
            done = await conn.execute(
                s.seats.update()
                .where(
                    s.seats.c.table_id == table_id,
                    s.seats.c.seat == seat,
                    s.seats.c.player.is_(None),
                    s.seats.c.level.is_(None),
                )
                .values(player=player)
            )
            if done.rowcount != 1:
                raise SeatTaken(f"table {table_id}: seat {seat} is taken: choose an open one")
            return await _touch(conn, table_id, self.clock())

    async def set_seat(self, table_id: int, seat: int, occupant: Seat) -> TableInfo:
        """Put ``occupant`` at ``seat`` whoever sits there (the host's change, a person
        leaving: ``OPEN``); at a playing table too (a computer player standing in)."""
        async with self._begin() as conn:
            info = await read_table(conn, table_id)
            _check_seat(info, seat)
            await conn.execute(
                s.seats.update()
                .where(s.seats.c.table_id == table_id, s.seats.c.seat == seat)
                .values(player=occupant.player, level=occupant.level)
            )
            return await _touch(conn, table_id, self.clock())

    async def set_public(self, table_id: int, public: bool) -> TableInfo:
        async with self._begin() as conn:
            await read_table(conn, table_id)
            await conn.execute(
                s.tables.update().where(s.tables.c.id == table_id).values(public=public)
            )
            return await _touch(conn, table_id, self.clock())

    async def merge_settings(self, table_id: int, changes: dict[str, Any]) -> TableInfo:
        """Set the settings named in ``changes``, keeping the others as stored (those
        another server process set meanwhile included: on PostgreSQL the row is locked
        from the read to the write)."""
        async with self._begin() as conn:
            q = sa.select(s.tables.c.settings).where(s.tables.c.id == table_id)
            if not self._sqlite:
                q = q.with_for_update()
            row = (await conn.execute(q)).first()
            if row is None:
                raise NotFound(f"there is no table {table_id}")
            settings = {**(row.settings or {}), **changes}
            await conn.execute(
                s.tables.update().where(s.tables.c.id == table_id).values(settings=settings)
            )
            return await _touch(conn, table_id, self.clock())

    async def set_settings(self, table_id: int, settings: dict[str, Any]) -> TableInfo:
        """Replace the table's settings."""
        async with self._begin() as conn:
            await read_table(conn, table_id)
            await conn.execute(
                s.tables.update().where(s.tables.c.id == table_id).values(settings=settings)
            )
            return await _touch(conn, table_id, self.clock())


def _status(status: str) -> str:
    if status not in STATUSES:
        raise StorageError(f"a table's status is one of {', '.join(STATUSES)}, got {status!r}")
    return status


def _check_seat(info: TableInfo, seat: int) -> None:
    if not 0 <= seat < len(info.seats):
        raise StorageError(
            f"table {info.id} has seats 0 to {len(info.seats) - 1}, there is no seat {seat}"
        )


def _parsed_rules(game: str, rules: dict[str, Any] | Rules, seats: Sequence[Seat]) -> Rules:
    """A new table's game and house rules (read here from their JSON, or as read by the
    caller), checked against its ``seats``."""
    if isinstance(rules, Rules):
        if rules.key != game:
            raise StorageError(f"create_table: the rules given are {rules.key}'s, not {game}'s")
        parsed = rules
    else:
        try:
            parsed = rules_from_json(game, rules, fresh=True)
        except BriscolaError as e:
            raise StorageError(f"create_table: {e}") from None
    if len(seats) != parsed.players:
        raise StorageError(f"create_table: {game} has {parsed.players} seats, got {len(seats)}")
    return parsed


async def _insert_table(
    conn: AsyncConnection,
    parsed: Rules,
    seats: Sequence[Seat],
    host: int | None,
    public: bool,
    settings: dict[str, Any] | None,
    now: datetime,
    family: int | None = None,
) -> int:
    """Insert a waiting table with a fresh invite token, and its seats; its id."""
    tid: int = (
        await conn.execute(
            s.tables.insert()
            .values(
                token=secrets.token_urlsafe(24),
                public=public,
                game=parsed.key,
                rules=parsed.overrides(),
                host=host,
                status="waiting",
                version=0,
                start=None,
                settings=dict(settings or {}),
                created=now,
                updated=now,
                family=family,
            )
            .returning(s.tables.c.id)
        )
    ).scalar_one()
    await conn.execute(
        s.seats.insert(),
        [
            {"table_id": tid, "seat": i, "player": seat.player, "level": seat.level}
            for i, seat in enumerate(seats)
        ],
    )
    return tid


async def read_table(conn: AsyncConnection, table_id: int) -> TableInfo:
    """The table ``table_id`` with its seats, read on ``conn``; :class:`NotFound` when there
    is none."""
    row = (await conn.execute(sa.select(s.tables).where(s.tables.c.id == table_id))).first()
    if row is None:
        raise NotFound(f"there is no table {table_id}")
    seat_rows = await conn.execute(
        sa.select(s.seats.c.player, s.seats.c.level)
        .where(s.seats.c.table_id == table_id)
        .order_by(s.seats.c.seat)
    )
    return _info(row, [Seat(r.player, r.level) for r in seat_rows])


def _info(row: sa.Row[Any], seats: Sequence[Seat]) -> TableInfo:
    """The table of a row of ``tables``, with its ``seats`` in order."""
    return TableInfo(
        id=row.id,
        token=row.token,
        public=row.public,
        game=row.game,
        rules=row.rules,
        seats=tuple(seats),
        host=row.host,
        status=row.status,
        version=row.version,
        start=row.start,
        settings=dict(row.settings or {}),
        created=row.created,
        updated=row.updated,
        family=row.family,
    )


async def _touch(conn: AsyncConnection, table_id: int, now: datetime) -> TableInfo:
    await conn.execute(s.tables.update().where(s.tables.c.id == table_id).values(updated=now))
    return await read_table(conn, table_id)
