"""The tables a server process serves: made, found by their token, unloaded when idle,
and watched over by the clock.

:class:`Tables` loads a table from storage when it is asked for and keeps it live
(:class:`~briscola.server.table.writer.LiveTable`, the one writer of its table, with its
helpers) while it is used. :meth:`Tables.watch` looks at
the stored deadlines (a move's clock, an absent player's grace) and acts on those due;
because the deadlines are stored, they survive a restart. :meth:`Tables.resume` takes
up, after a start, every table that was playing. :meth:`Tables.sweep` unloads the tables
nobody uses (:meth:`LiveTable.unloadable`) and the nicknames no loaded table shows, so
that a server running for months holds only what is in use. :meth:`Tables.drain` stops
the process's tables gracefully (SIGTERM): the actions in flight stored and told, every
WebSocket closed with 1012 so that its client connects again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import get_args

from briscola.engine import BriscolaError, Rules, RulesError
from briscola.engine.game_record import rules_from_json
from briscola.engine.presets import find_game
from briscola.server import nicknames
from briscola.server.analyses import Analyst
from briscola.server.broadcast import ALL, Broadcaster, family_key
from briscola.server.errors import Refused, number
from briscola.server.failures import log_failed, storage_failed
from briscola.server.messages import (
    ChatSetting,
    PointsSetting,
    SeatIn,
    TableIn,
    TableLanguage,
    TableOut,
)
from briscola.server.metrics import Metrics
from briscola.server.settings import ServerSettings
from briscola.server.table.bots import check_level
from briscola.server.table.presence import PRESENCE_ALIVE
from briscola.server.table.writer import LiveTable
from briscola.storage import OPEN, Deadline, NotFound, Seat, Storage, TableInfo

log = logging.getLogger("briscola.server")


class Tables:
    """Every table of this server process (the :class:`~briscola.server.table.writer.Server` its
    live tables reach): see the module's documentation."""

    def __init__(
        self,
        storage: Storage,
        settings: ServerSettings,
        broadcaster: Broadcaster,
        metrics: Metrics | None = None,
    ) -> None:
        self.storage = storage
        self.settings = settings
        self.broadcaster = broadcaster
        self.metrics = metrics or Metrics()
        self.draining = False
        """Whether the process is stopping (:meth:`drain`): no new connection is served,
        no computer player moves."""
        self.live: dict[str, LiveTable] = {}
        """The tables in memory, by token: one :class:`LiveTable` a table at most."""
        self.names: dict[int, str] = {}
        """Nicknames by player id: those of the players at the loaded tables, and those
        learned since the last sweep (:meth:`learn_names` looks up the others)."""
        self._learned: set[int] = set()
        """The players whose nicknames were learned since the last sweep."""
        self.executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="briscola-bot")
        self.analyst = Analyst(storage, settings.analysis_queue, settings.hint_queue)
        """The finished hands' analyses (computed in a worker process of their own)."""
        self._loading = asyncio.Lock()
        self.process = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        """This process among those sharing the database (its presence rows)."""
        self._following: dict[str, asyncio.Task[None]] = {}
        """The tables being caught up with the log now (:meth:`changed`)."""
        self._follow_again: dict[str, str] = {}
        """The parts named by the wake-ups that came while a table was being caught up:
        it is caught up again with those."""

    @property
    def shared(self) -> bool:
        """Whether other server processes share this one's database (``redis_url`` set):
        then each table loaded here follows the log they append to, and the deadlines
        and the computer players' moves are claimed in the database before they are acted
        on."""
        return self.settings.redis_url is not None

    # -- following the other processes -------------------------------------------------

    async def changed(self, token: str, parts: str = ALL) -> None:
        """Another process changed the ``parts`` of the table ``token`` (:data:`ALL` when
        not known): if it is loaded here, catch it up (:meth:`LiveTable.follow`), off the
        caller's task; one catch-up a table at a time, a change meanwhile makes one more
        (with the parts of every change it stands for). A table loaded here that nobody
        here has used for ``idle_unload`` seconds (:meth:`LiveTable.unused`: one made or
        looked at here, played at another process) leaves memory instead of following
        every move made there."""
        live = self.live.get(token)
        if live is None:
            return
        if live.unused(time.monotonic()):
            del self.live[token]  # nobody here uses it: loaded anew when someone comes
            return
        task = self._following.get(token)
        if task is not None and not task.done():
            again = self._follow_again.get(token, "")
            self._follow_again[token] = again + "".join(p for p in parts if p not in again)
            return
        self._following[token] = asyncio.create_task(self._follow(token, parts))

    async def _follow(self, token: str, parts: str) -> None:
        try:
            while True:
                live = self.live.get(token)
                if live is None:
                    return
                try:
                    await live.follow(parts)
                except Exception as e:
                    log_failed(e, "table %s: could not catch up with the log", token)
                again = self._follow_again.pop(token, None)
                if again is None:
                    return
                parts = again
        finally:
            self._following.pop(token, None)
            self._follow_again.pop(token, None)

    async def follow_all(self) -> None:
        """Catch up every table loaded here, and the nicknames known here (wake-ups may
        have been missed)."""
        for token in list(self.live):
            await self.changed(token)
        try:
            await nicknames.relearn(self)
        except Exception as e:
            log_failed(e, "the nicknames could not be read again")

    async def look(self) -> None:
        """Every ``follow_every`` seconds, store this process's heartbeat (its
        connections count for the others while it beats), and catch up the tables loaded
        here whose stored version is ahead of theirs (a wake-up lost), and all of them
        while Redis is away (seats, chat, presence and settings carry no version), until
        cancelled."""
        forget = timedelta(seconds=3 * PRESENCE_ALIVE)
        while True:
            try:
                await self.storage.heartbeat(self.process, forget)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log_failed(e, "this process's heartbeat could not be stored")
            await asyncio.sleep(self.settings.follow_every)
            try:
                if not getattr(self.broadcaster, "up", True):
                    await self.follow_all()
                    continue
                loaded = {live.info.id: live for live in self.live.values()}
                for table_id, version in (await self.storage.versions(list(loaded))).items():
                    if version > loaded[table_id].version:
                        await self.changed(loaded[table_id].token)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log_failed(e, "the tables could not be caught up")

    async def close(self) -> None:
        for live in self.live.values():
            live.close()
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.analyst.close()
        if self.shared:
            with contextlib.suppress(Exception):
                await self.storage.forget_process(self.process)

    def counts(self) -> dict[str, int]:
        """What the process holds: tables, nicknames and connections (the metrics'
        gauges)."""
        return {
            "tables": len(self.live),
            "nicknames": len(self.names),
            "connections": sum(len(live.presence.connections) for live in self.live.values()),
        }

    async def drain(self) -> None:
        """Stop serving, gracefully: from now on no new connection is served and no
        computer player moves; each connection finishes the message it is handling (an
        action being stored is stored) and takes no other; each table finishes the
        command holding its lock (a computer player's action being stored) and its tasks
        stop; then each connection is sent what is new for it and closed with 1012
        (service restart), so that its client connects again, here after a restart or
        to another process. The caller bounds how long this may take."""
        self.draining = True
        connections = [c for live in list(self.live.values()) for c in live.presence.connections]
        closers = [c.closer for c in connections if c.closer is not None]
        await asyncio.gather(*(closer.hold() for closer in closers), return_exceptions=True)
        for live in list(self.live.values()):
            async with live.lock:
                live.close()
        await asyncio.gather(*(closer.close() for closer in closers), return_exceptions=True)
        log.info("stopped: %d connections closed at %d tables", len(closers), len(self.live))

    # -- finding -------------------------------------------------------------------------

    async def get(self, token: str) -> LiveTable:
        """The live table of ``token``, loaded from storage when it is not in memory (and,
        shared with other processes, caught up with the log when it is). Its idle time
        starts again: a table handed out stays in memory ``idle_unload``
        seconds at least, and longer while it is used (:meth:`LiveTable.unloadable`)."""
        live = self.live.get(token)
        if live is None:
            live = await self._load(token)
        elif self.shared:
            await live.follow()  # what another process did is seen here at once
        live.touch()
        return live

    async def listed(self, infos: Sequence[TableInfo], player: int | None) -> list[TableOut]:
        """The tables ``infos``, just read from storage (a lobby's), as ``player`` sees
        them. A table loaded here is shown as it is, caught up first (:meth:`get`) only
        where the stored one is ahead of it (shared: another process changed it); a table
        not loaded here is loaded."""
        out = []
        for info in infos:
            live = self.live.get(info.token)
            if live is None or (self.shared and not _as_stored(live.info, info)):
                live = await self.get(info.token)
            else:
                live.touch()
            out.append(live.view.table_out(player))
        return out

    async def _load(self, token: str) -> LiveTable:
        async with self._loading:  # one load at a time: a table is never loaded twice
            live = self.live.get(token)
            if live is not None:
                return live
            try:
                info = await self.storage.table_by_token(token)
            except NotFound:
                raise Refused(
                    "not_found", "there is no table with that link: check it, or ask for "
                    "a new one", 404
                ) from None  # fmt: skip
            live = LiveTable(self, info)
            await live.load()
            # The clock stored for the seat to act, as the table left it when it was
            # unloaded (after a restart, resume looks at the stored one).
            live.clock.deadline = live.clock.wanted()
            await self.learn_names([s.player for s in live.info.seats])
            self.live[token] = live  # its players' names are kept from here on
            if self.shared:
                live.kick()  # a computer player to act moves, if no other process does
        return live

    async def learn_names(self, players: Sequence[int | None]) -> dict[int, str]:
        """The nicknames of ``players`` (a player not found has none), looked up in
        storage when they are not known. They stay in :attr:`names` until the second sweep
        from now at least (a whole sweep's interval), longer while a loaded table shows
        them."""
        known: dict[int, str] = {}
        for p in players:
            if p is None:
                continue
            if p not in self.names:
                with contextlib.suppress(NotFound):
                    self.names[p] = (await self.storage.get_player(p)).nickname
            if p in self.names:
                self._learned.add(p)
                known[p] = self.names[p]
        return known

    # -- leaving memory ------------------------------------------------------------------

    async def sweep(self) -> None:
        """Every ``sweep`` seconds, unload the idle tables and forget the nicknames no
        loaded table shows (:meth:`unload_idle`), until cancelled."""
        while True:
            await asyncio.sleep(self.settings.sweep)
            try:
                self.unload_idle()
            except Exception:
                log.exception("the idle tables could not be unloaded")

    def unload_idle(self) -> list[str]:
        """Take the tables that may leave memory (:meth:`LiveTable.unloadable`) out of it,
        and the nicknames that no loaded table shows and that were not learned since the
        last sweep; the tokens of the tables unloaded. It does not wait for anything: no
        other command runs meanwhile, and a table asked for afterwards is loaded anew."""
        now = time.monotonic()
        gone = [token for token, live in self.live.items() if live.unloadable(now)]
        for token in gone:
            del self.live[token]
        kept = self._learned.union(*(nicknames.shown(live) for live in self.live.values()))
        for p in [p for p in self.names if p not in kept]:
            del self.names[p]
        self._learned = set()
        if gone:
            log.debug("%d tables unloaded, %d loaded", len(gone), len(self.live))
        return gone

    # -- making and seating --------------------------------------------------------------

    async def create(self, player: int, spec: TableIn, family: int | None = None) -> LiveTable:
        """A new table of ``spec`` (:meth:`checked`), ``player`` its host (a
        ``family``'s, when given)."""
        rules, seats, settings = self.checked(player, spec)
        info = await self.storage.create_table(
            rules.key,
            rules,
            seats,
            host=player,
            public=spec.public,
            settings=settings,
            family=family,
        )
        if family is not None:
            await self.broadcaster.publish(family_key(family))
        return await self.get(info.token)

    def checked(self, player: int, spec: TableIn) -> tuple[Rules, list[Seat], dict[str, object]]:
        """The rules, seats and settings of a table opened as ``spec`` says by ``player``;
        :class:`Refused` (``bad_game``, ``bad_rules``, ``bad_seats``, ``bad_level``,
        ``bad_clock``, ``bad_points``, ``bad_chat``, ``bad_language``) when it says
        something wrong."""
        try:
            find_game(spec.game)
        except BriscolaError as e:
            raise Refused("bad_game", str(e), values={"game": spec.game}) from None
        try:
            rules = rules_from_json(spec.game, spec.rules, fresh=True)
        except RulesError as e:
            rule, value = e.written
            raise Refused("bad_rules", str(e), values={"rule": rule, "value": value}) from None
        seats_in = spec.seats or [SeatIn(kind="me")] + [
            SeatIn(kind="open") for _ in range(rules.players - 1)
        ]
        if len(seats_in) != rules.players:
            raise Refused(
                "bad_seats",
                f"{rules.key} with these rules has {rules.players} seats; you gave {len(seats_in)}",
                values={"n": rules.players},
            )
        if sum(s.kind == "me" for s in seats_in) > 1:
            raise Refused(
                "bad_seats",
                "you can take one seat at a table, not several",
                values={"n": rules.players},
            )
        seats = []
        default_level = spec.stand_in or self.settings.stand_in
        for s in seats_in:
            if s.kind == "bot":
                seats.append(
                    Seat(level=check_level(s.level if s.level is not None else default_level))
                )
            elif s.level is not None:
                raise Refused(
                    "bad_seats",
                    f"only a computer player's seat has a level ({s.kind})",
                    values={"n": rules.players},
                )
            else:
                seats.append(Seat(player=player) if s.kind == "me" else OPEN)
        if spec.clock is not None and spec.clock < self.settings.min_clock:
            raise Refused(
                "bad_clock",
                f"a move's clock is at least {self.settings.min_clock:g} seconds, "
                f"not {spec.clock:g}",
                values={"n": number(self.settings.min_clock)},
            )
        if spec.points not in get_args(PointsSetting):
            raise Refused(
                "bad_points",
                f"the points are hidden or shown during a hand, not {spec.points!r}",
                values={"value": spec.points},
            )
        if spec.chat not in get_args(ChatSetting):
            raise Refused(
                "bad_chat",
                f"a table's chat is free, phrases or none, not {spec.chat!r}",
                values={"value": spec.chat},
            )
        if spec.lang not in get_args(TableLanguage):
            raise Refused(
                "bad_language",
                f"a table's language is {', '.join(get_args(TableLanguage))}, not {spec.lang!r}",
                values={"lang": spec.lang},
            )
        settings: dict[str, object] = {
            "clock": spec.clock,
            "points": spec.points,
            "chat": spec.chat,
            "lang": spec.lang,
        }
        if spec.hints:
            settings["hints"] = True
        if spec.stand_in is not None:
            settings["stand_in"] = check_level(spec.stand_in)
        return rules, seats, settings

    # -- the clock -----------------------------------------------------------------------

    async def resume(self) -> None:
        """After a start: load every table in play, give each absent player their grace
        (the stored one, when they were already away), keep the stored clock of the seat
        to act (or start it, when the server stopped before it was stored), and let the
        computer players to act move. Shared with other processes, a process takes up
        nothing at its start: the others play on, the stored deadlines and claims fall
        due for one of them, and a table is loaded where someone asks for it."""
        if self.shared:
            return
        stored: dict[tuple[int, int, str], Deadline] = {
            (d.table_id, d.seat, d.kind): d
            for d in await self.storage.deadlines_due(datetime.max.replace(tzinfo=UTC))
        }
        for info in await self.storage.list_tables(public=None, status="playing"):
            try:
                live = await self.get(info.token)
            except Exception as e:
                storage_failed(
                    self.metrics, "load", e, "table %s could not be taken up", info.token
                )
                continue
            for seat, s in enumerate(live.info.seats):
                away = (info.id, seat, "away") in stored
                if s.player is not None and not live.presence.connected(seat) and not away:
                    await live.presence.away(seat)
            turn = live.host.turn if live.host is not None else None
            clock = stored.get((info.id, turn, "move")) if turn is not None else None
            if turn is not None and clock is not None and clock.version == live.version:
                live.clock.deadline = (turn, live.version)
                live.clock.due = clock.due
            else:
                live.clock.deadline = None
                await live.clock.set()
            live.kick()

    async def watch(self) -> None:
        """Act on the stored deadlines as they fall due, until cancelled; first store
        the clocks the database could not take (:meth:`Clock.save`)."""
        while True:
            try:
                for live in [t for t in self.live.values() if t.clock.unsaved]:
                    async with live.lock:  # (not while an action is taken)
                        if live.clock.unsaved:
                            await live.clock.save()
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                storage_failed(self.metrics, "deadlines", e, "the deadlines could not be read")
            await asyncio.sleep(self.settings.tick)

    async def tick(self) -> None:
        """Act on the deadlines due: each once, of all the processes sharing the
        database. Alone, a process clears each as it takes it; shared, it claims it first
        (:meth:`Storage.claim_deadline`: one process wins), catches the table up with
        the log, and clears it once done, so that a process dying meanwhile leaves it to
        fall due again for another (a stale one, for a version gone by, is cleared)."""
        now = datetime.now(UTC)
        lease = timedelta(seconds=self.settings.lease)
        for d in await self.storage.deadlines_due(now):
            if not self.shared:
                await self.storage.clear_deadlines(d.table_id, d.seat, d.kind)
            elif not await self.storage.claim_deadline(d, lease):
                continue  # another process has it
            try:
                info = await self.storage.get_table(d.table_id)
                live = await self.get(info.token)
                if self.shared:
                    await live.follow()
            except (NotFound, Refused):
                if self.shared:
                    await self.storage.clear_deadlines(d.table_id, d.seat, d.kind)
                continue
            if d.kind == "move":
                live.clock.forget()
                if d.version is not None:
                    live.spawn(live.bots.timed_out(d.seat, d.version))
            elif d.kind == "bot" and d.version is not None:
                live.spawn(live.bots.claimed_move(d.seat, d.version))
            elif d.kind == "away":
                await live.presence.grace_over(d.seat)
                if self.shared:
                    await self.storage.clear_deadlines(d.table_id, d.seat, "away")


def _as_stored(have: TableInfo, stored: TableInfo) -> bool:
    """Whether a loaded table's ``have`` shows all of ``stored``, its row as read since:
    no action logged, and its seats, status, settings and publicity the same."""
    return stored.version <= have.version and (
        stored.seats,
        stored.status,
        stored.settings,
        stored.public,
    ) == (have.seats, have.status, have.settings, have.public)
