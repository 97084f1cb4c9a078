"""A table's chat: the part of :class:`~briscola.storage.Storage` that keeps its
messages as the server gave them (escaped and limited)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from briscola.storage import schema as s
from briscola.storage.tables import read_table
from briscola.storage.values import ChatMessage


class Chat:
    """A table's chat messages; mixed into :class:`~briscola.storage.Storage`, which gives
    the clock, the write transactions and the reads."""

    clock: Callable[[], datetime]
    _autocommit: AsyncEngine

    def _begin(self) -> AbstractAsyncContextManager[AsyncConnection]:
        raise NotImplementedError  # Storage's

    async def add_chat(self, table_id: int, player: int | None, text: str) -> ChatMessage:
        """Keep a chat message as given (the server escapes and limits it)."""
        now = self.clock()
        async with self._begin() as conn:
            await read_table(conn, table_id)
            mid = (
                await conn.execute(
                    s.chat.insert()
                    .values(table_id=table_id, player=player, text=text, at=now)
                    .returning(s.chat.c.id)
                )
            ).scalar_one()
        return ChatMessage(mid, table_id, player, text, now)

    async def chat(
        self, table_id: int, after: int = 0, limit: int = 100, *, newest: bool = False
    ) -> list[ChatMessage]:
        """The table's chat messages with an id above ``after``, oldest first, at most
        ``limit`` of them: the first ones, or with ``newest`` the last ones."""
        async with self._autocommit.connect() as conn:
            return await read_chat(conn, table_id, after, limit, newest=newest)


async def read_chat(
    conn: AsyncConnection, table_id: int, after: int, limit: int = 100, *, newest: bool = False
) -> list[ChatMessage]:
    """:meth:`Chat.chat` on ``conn``."""
    order = s.chat.c.id.desc() if newest else s.chat.c.id
    rows = await conn.execute(
        sa.select(s.chat)
        .where(s.chat.c.table_id == table_id, s.chat.c.id > after)
        .order_by(order)
        .limit(limit)
    )
    found = [ChatMessage(r.id, r.table_id, r.player, r.text, r.at) for r in rows]
    return found[::-1] if newest else found
