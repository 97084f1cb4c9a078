"""Each finished hand's analysis (:mod:`briscola.analysis`), kept once computed; the part
of :class:`~briscola.storage.Storage` that keeps them. An analysis is the same for the
same record, level and seed, so two processes that compute one at once store the same:
the first kept stays; but an analysis kept by an older version of the analysis (one
that valued fewer decisions, say) is replaced by the newer one."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from briscola.storage import schema as s


def version_of(body: dict[str, Any]) -> int:
    """The version of the analysis that made ``body`` (1: before it said)."""
    version = body.get("version", 1)
    return version if isinstance(version, int) else 1


class Analyses:
    """Hands' analyses; mixed into :class:`~briscola.storage.Storage`, which gives the
    clock, the write transactions and the reads."""

    clock: Callable[[], datetime]
    _autocommit: AsyncEngine
    _sqlite: bool

    def _begin(self) -> AbstractAsyncContextManager[AsyncConnection]:
        raise NotImplementedError  # Storage's

    async def analysis(
        self, table_id: int, hand: int, level: str, seen: str = "seat"
    ) -> dict[str, Any] | None:
        """Hand ``hand``'s analysis at ``level`` (the first hand is 1), from what each seat
        knew (``seen="seat"``) or with every card seen (``"all"``), if one is kept."""
        a = s.analyses.c
        key = (a.table_id == table_id, a.hand == hand, a.level == level, a.seen == seen)
        async with self._autocommit.connect() as conn:
            found = await conn.scalar(sa.select(a.body).where(*key))
        return None if found is None else dict(found)

    async def keep_analysis(
        self, table_id: int, hand: int, level: str, body: dict[str, Any], seen: str = "seat"
    ) -> None:
        """Keep hand ``hand``'s analysis at ``level`` and ``seen`` (:meth:`analysis`),
        unless one is kept already; one kept by an older version of the analysis
        (``body["version"]``: 1 when missing) is replaced by a newer one."""
        insert = (sqlite.insert if self._sqlite else postgresql.insert)(s.analyses)
        row = {"table_id": table_id, "hand": hand, "level": level, "seen": seen, "body": body}
        values = insert.values(**row, at=self.clock())
        kept = sa.func.coalesce(s.analyses.c.body["version"].as_integer(), 1)
        newer = values.on_conflict_do_update(
            index_elements=["table_id", "hand", "level", "seen"],
            set_={"body": values.excluded.body, "at": values.excluded.at},
            where=kept < version_of(body),
        )
        async with self._begin() as conn:
            await conn.execute(newer)
