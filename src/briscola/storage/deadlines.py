"""A table's deadlines: a move's clock, an absent player's grace, a computer player's
turn claimed; the part of :class:`~briscola.storage.Storage` that keeps them, and that
lets one server process alone (of several sharing the database) act on each."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from briscola.storage import schema as s
from briscola.storage.values import Deadline, StorageError


class Deadlines:
    """A table's deadlines; mixed into :class:`~briscola.storage.Storage`, which gives the
    clock, the write transactions and the reads."""

    clock: Callable[[], datetime]
    _autocommit: AsyncEngine
    _sqlite: bool

    def _begin(self) -> AbstractAsyncContextManager[AsyncConnection]:
        raise NotImplementedError  # Storage's

    async def set_deadline(
        self, table_id: int, seat: int, kind: str, due: datetime, version: int | None = None
    ) -> Deadline:
        """Set (or move) the table's deadline of ``kind`` for ``seat``."""
        if due.tzinfo is None:
            raise StorageError(f"a deadline's time must carry its timezone, got {due!r}")
        async with self._begin() as conn:
            await conn.execute(
                s.deadlines.delete().where(
                    s.deadlines.c.table_id == table_id,
                    s.deadlines.c.seat == seat,
                    s.deadlines.c.kind == kind,
                )
            )
            await conn.execute(
                s.deadlines.insert().values(
                    table_id=table_id, seat=seat, kind=kind, due=due, version=version
                )
            )
        return Deadline(table_id, seat, kind, due.astimezone(UTC), version)

    async def clear_deadlines(
        self, table_id: int, seat: int | None = None, kind: str | None = None
    ) -> int:
        """Remove the table's deadlines (of one seat, of one kind); how many went."""
        q = s.deadlines.delete().where(s.deadlines.c.table_id == table_id)
        if seat is not None:
            q = q.where(s.deadlines.c.seat == seat)
        if kind is not None:
            q = q.where(s.deadlines.c.kind == kind)
        async with self._begin() as conn:
            return (await conn.execute(q)).rowcount

    async def claim_deadline(self, deadline: Deadline, lease: timedelta) -> bool:
        """Claim ``deadline`` (as :meth:`deadlines_due` gave it) to act on it: whether this
        caller won it. Of several server processes that saw it due, one alone wins: its
        ``due`` moves ``lease`` on in the same statement, so the others' claims find it
        changed. It stays stored until the work it asked for replaces or clears it: a
        process that dies with it claimed leaves it to fall due again, for another. One
        set at a version (a move's clock, a computer player's turn) is won only while the
        table is at that version, and once the table has gone past it, it is cleared:
        a clock whose move was made (or a process behind the log that set it again) fires
        no second move."""
        now = self.clock()
        d = s.deadlines.c
        this = sa.and_(
            d.table_id == deadline.table_id,
            d.seat == deadline.seat,
            d.kind == deadline.kind,
            d.due == deadline.due,
        )
        stored = (
            sa.select(s.tables.c.version)
            .where(s.tables.c.id == deadline.table_id)
            .scalar_subquery()
        )
        async with self._begin() as conn:
            claim = s.deadlines.update().where(this, d.due <= now)
            if deadline.version is not None:
                claim = claim.where(stored == deadline.version)
            done = await conn.execute(claim.values(due=now + lease))
            if done.rowcount != 1 and deadline.version is not None:
                await conn.execute(
                    s.deadlines.delete().where(
                        this, d.version == deadline.version, stored > d.version
                    )
                )
            return bool(done.rowcount == 1)

    async def claim_turn(self, table_id: int, seat: int, version: int, lease: timedelta) -> bool:
        """Claim the move of the computer player at ``seat`` of the table at ``version``
        (a deadline of kind ``bot``, due ``lease`` from now): whether this caller won it.
        Of several server processes that would make that move, one alone wins; the
        others win it only once it is due (its process died before moving), by
        :meth:`claim_deadline`. A claim for an earlier version is replaced. Won only
        while the stored table is at ``version``: a process behind the log claims a move
        already made (and its claim cleared) in vain."""
        now = self.clock()
        insert = (sqlite.insert if self._sqlite else postgresql.insert)(s.deadlines)
        d, t = s.deadlines.c, s.tables.c
        row = sa.select(
            *(sa.literal(v, type_=c.type) for v, c in
              ((table_id, d.table_id), (seat, d.seat), ("bot", d.kind),
               (now + lease, d.due), (version, d.version)))
        ).where(sa.exists().where(t.id == table_id, t.version == version))  # fmt: skip
        q = insert.from_select(["table_id", "seat", "kind", "due", "version"], row)
        q = q.on_conflict_do_update(
            index_elements=[d.table_id, d.seat, d.kind],
            set_={"due": now + lease, "version": version},
            where=sa.or_(d.version.is_(None), d.version < version),
        )
        async with self._begin() as conn:
            return bool((await conn.execute(q)).rowcount == 1)

    async def clear_deadline(self, table_id: int, seat: int, kind: str, version: int) -> bool:
        """Remove the table's deadline of ``kind`` for ``seat`` if it is still the one
        set at ``version`` (not one set since, for a later version); whether it went."""
        async with self._begin() as conn:
            done = await conn.execute(
                s.deadlines.delete().where(
                    s.deadlines.c.table_id == table_id,
                    s.deadlines.c.seat == seat,
                    s.deadlines.c.kind == kind,
                    s.deadlines.c.version == version,
                )
            )
            return bool(done.rowcount == 1)

    async def deadlines_due(self, before: datetime) -> list[Deadline]:
        """Every deadline due at or before ``before``, the earliest first."""
        async with self._autocommit.connect() as conn:
            rows = await conn.execute(
                sa.select(s.deadlines)
                .where(s.deadlines.c.due <= before)
                .order_by(s.deadlines.c.due, s.deadlines.c.table_id, s.deadlines.c.seat)
            )
            return [Deadline(r.table_id, r.seat, r.kind, r.due, r.version) for r in rows]
