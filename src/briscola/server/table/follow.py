"""Following other server processes at a live table (several share one database).

A wake-up names the parts of the table another process changed (:data:`ALL` when not
known): its seats, status and settings, its new chat lines, who is connected where, and
the actions it appended to the log. :meth:`Follower.follow` reads those parts after what
this process has, on one connection, and replays the new actions by the engine in the
log's order (each new hand dealt as they stored it). Nothing is stored: the log is the
truth, this copy only follows it. A log that does not replay (it never should) rebuilds
the table from storage."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta
from typing import Protocol

from briscola.engine import BriscolaError
from briscola.engine.actions import action_from_json
from briscola.server.broadcast import ALL
from briscola.server.failures import database_away
from briscola.server.table import options
from briscola.server.table.bots import Bots
from briscola.server.table.chat import Chat
from briscola.server.table.clock import Clock
from briscola.server.table.hands import committed
from briscola.server.table.ports import Writer
from briscola.server.table.presence import PRESENCE_ALIVE, Presence
from briscola.storage import News, TableInfo

log = logging.getLogger("briscola.server")


class FollowWriter(Writer, Protocol):
    """The writer as its follower reaches it: with every part another process changes."""

    @property
    def bots(self) -> Bots: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def presence(self) -> Presence: ...

    @property
    def chat(self) -> Chat: ...


class Follower:
    """How one table follows the other processes: see the module's documentation."""

    def __init__(self, table: FollowWriter) -> None:
        self.table = table

    async def follow(self, parts: str = ALL) -> bool:
        """Catch up with what other server processes stored of this table, as far as the
        wake-up's ``parts`` say it changed (:data:`ALL`): its seats, status and settings,
        its new chat lines, who is connected elsewhere, and the actions logged after this
        process's version; whether anything changed. The connections here are woken when
        it did."""
        table = self.table
        async with table.lock:
            if table.host is None and (table.info.status != "waiting" or "a" in parts):
                parts = ALL  # the match, when it started elsewhere, is loaded whole
            try:
                news = await self._news(parts)
            except Exception as e:
                if not database_away(e):
                    raise
                table.server.metrics.storage_failed("follow", e)
                log.warning("table %s: could not be caught up from storage: %r", table.token, e)
                return False  # the next wake-up, or look, catches up
            changed = await table.chat.follow(news.chat)
            presence = table.presence
            if news.elsewhere is not None and news.elsewhere != presence.elsewhere:
                presence.elsewhere = news.elsewhere
                table.meta += 1
                changed = True
            info = news.info
            if info is None:
                changed = await self._follow_log(news) or changed
            elif info.version >= table.info.version:  # (not a read behind its own append)
                changed = await self._follow_table(info, news) or changed
        if changed:  # (not a use here: a table nobody here uses leaves memory, Tables.changed)
            await table.server.broadcaster.wake(table.token)
            # a computer player to act moves here if no process has claimed its move (the
            # one that appended may have died before claiming it: nothing else would)
            table.bots.kick()
        return changed

    async def _news(self, parts: str) -> News:
        """What :meth:`follow` reads: the ``parts`` named, after what this process has."""
        table = self.table
        return await table.storage.news(
            table.info.id,
            table="t" in parts,
            log=(table.stored_hands, table.info.version) if "a" in parts else None,
            chat_after=table.chat.last if "c" in parts else None,
            presence=(table.server.process, timedelta(seconds=PRESENCE_ALIVE))
            if "p" in parts
            else None,
        )

    async def _follow_table(self, info: TableInfo, news: News) -> bool:
        """:meth:`follow`'s part of the table as stored (``info``): a match started or
        finished elsewhere loaded, the log's new actions replayed, the seats, status and
        settings taken; whether anything changed."""
        table = self.table
        changed = False
        was = table.info
        if table.host is None and info.status != "waiting":
            table.info = info
            table.chat.lines.clear()
            await table.load()  # started, or finished, elsewhere
            for conn in table.presence.connections:  # each is sent a snapshot next
                conn.seat = table.seat_of(conn.player)
                conn.number = -1
            changed = True
        else:
            changed = await self._follow_log(news)
        if (info.seats, info.status, info.settings, info.public) != (
            was.seats, was.status, was.settings, was.public
        ):  # fmt: skip
            table.info = replace(info, version=table.info.version)
            await table.server.learn_names([s.player for s in info.seats])
            table.bots.stand_ins = options.stand_ins(info)
            table.bots.seat()
            table.presence.reseat()
            await table.presence.share()
            table.meta += 1
            changed = True
        if table.host is not None and table.info.status == "finished":
            table.clock.forget()
        return changed

    async def _follow_log(self, news: News) -> bool:
        """Replay the actions ``news`` read after this process's version, as another
        process took them (its new hands given to the deal source before the actions that
        deal them); whether there were any. A log that does not replay rebuilds the
        table."""
        table = self.table
        host, deals = table.host, table.deals
        if host is None or deals is None or not (news.hands or news.actions):
            return False
        try:
            for h in news.hands:  # (read after stored_hands, under this lock)
                deals.expect(committed(h, table.rules))
                table.stored_hands = h.number
            for logged in news.actions:  # (read after this version, under this lock)
                action = action_from_json(logged.action)
                if action.seat in host.bots:
                    host.play_bot(action.seat, action)
                else:
                    host.act(action.seat, action)
                table.info = replace(table.info, version=logged.version)
        except BriscolaError:
            log.exception("table %s: its log did not replay here", table.token)
            await table.reload()
            return True
        if table.match is not None:
            table.revealed = len(table.match.finished)
        table.clock.forget()  # the process that acted set the clock
        table.clock.unsaved = False
        return True
