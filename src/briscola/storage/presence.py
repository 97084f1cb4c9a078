"""Who is at a table across server processes: each process's heartbeat, and the seats
with a connection open at each; the part of :class:`~briscola.storage.Storage` that
keeps them, so that a process tells its players who is connected elsewhere."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from briscola.storage import schema as s


class Presence:
    """Server processes and the seats connected at each; mixed into
    :class:`~briscola.storage.Storage`, which gives the clock, the write transactions and
    the reads."""

    clock: Callable[[], datetime]
    _autocommit: AsyncEngine
    _sqlite: bool

    def _begin(self) -> AbstractAsyncContextManager[AsyncConnection]:
        raise NotImplementedError  # Storage's

    async def heartbeat(self, process: str, forget: timedelta) -> None:
        """``process`` is alive now; the rows of processes not seen for ``forget`` go,
        with their seats' presence."""
        now = self.clock()
        insert = (sqlite.insert if self._sqlite else postgresql.insert)(s.server_processes)
        async with self._begin() as conn:
            await conn.execute(
                insert.values(id=process, seen=now).on_conflict_do_update(
                    index_elements=[s.server_processes.c.id], set_={"seen": now}
                )
            )
            gone = sa.select(s.server_processes.c.id).where(
                s.server_processes.c.seen < now - forget
            )
            await conn.execute(s.presence.delete().where(s.presence.c.process.in_(gone)))
            await conn.execute(
                s.server_processes.delete().where(s.server_processes.c.seen < now - forget)
            )

    async def set_presence(self, process: str, table_id: int, seat: int, here: bool) -> None:
        """Whether ``seat`` of the table has a connection open at ``process``."""
        key = {"process": process, "table_id": table_id, "seat": seat}
        async with self._begin() as conn:
            if here:
                insert = (sqlite.insert if self._sqlite else postgresql.insert)(s.presence)
                await conn.execute(insert.values(**key).on_conflict_do_nothing())
            else:
                await conn.execute(
                    s.presence.delete().where(*(s.presence.c[k] == v for k, v in key.items()))
                )

    async def present_elsewhere(self, table_id: int, process: str, alive: timedelta) -> set[int]:
        """The seats of the table with a connection open at another process seen within
        ``alive``."""
        async with self._autocommit.connect() as conn:
            return await read_present(conn, table_id, process, alive, self.clock())

    async def forget_process(self, process: str) -> None:
        """``process`` stops: its row and its seats' presence go."""
        async with self._begin() as conn:
            await conn.execute(s.presence.delete().where(s.presence.c.process == process))
            await conn.execute(
                s.server_processes.delete().where(s.server_processes.c.id == process)
            )


async def read_present(
    conn: AsyncConnection, table_id: int, process: str, alive: timedelta, now: datetime
) -> set[int]:
    """:meth:`Presence.present_elsewhere` on ``conn``, at ``now``."""
    p, sp = s.presence, s.server_processes
    rows = await conn.execute(
        sa.select(p.c.seat)
        .join(sp, sp.c.id == p.c.process)
        .where(p.c.table_id == table_id, p.c.process != process, sp.c.seen >= now - alive)
    )
    return {r.seat for r in rows}
