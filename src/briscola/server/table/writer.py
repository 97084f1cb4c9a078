"""One live table's one writer: the lock, the commands' actions taken and stored, the
match loaded and finished.

A :class:`LiveTable` holds a table's match in the table host
(:class:`briscola.host.Table`) and applies its commands one at a time, under one lock.
Each action (a person's, :meth:`LiveTable.submit`, or a computer player's) is checked by
the engine, stored in the table's log at the next version (with the hands it made the
match deal, and their fair-shuffle commitments) and only then told: the table publishes
a wake-up, and each connection asks the view what is new for its seat. A storage failure
(another writer won the version) rebuilds the table from its log.

The rest of the table's work is its helpers', one module each, which reach the writer
through :class:`~briscola.server.table.ports.Writer` and never import this module:
:mod:`~briscola.server.table.seating` (the seats, the start, the rematch),
:mod:`~briscola.server.table.bots` (the computer players and their claims),
:mod:`~briscola.server.table.clock` (the move clock),
:mod:`~briscola.server.table.presence` (connections, absences and stand-ins),
:mod:`~briscola.server.table.follow` (what another process appended),
:mod:`~briscola.server.table.chat`, :mod:`~briscola.server.table.hints` and
:mod:`~briscola.server.table.view` (what each connection is sent).

What a table needs of the server process that holds it (storage, settings, wake-ups,
nicknames, other tables) it reaches through :class:`Server`, which
:class:`~briscola.server.tables.Tables` is.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Coroutine
from dataclasses import replace
from typing import Any, Protocol

from briscola.ai.bot import BotError
from briscola.engine import (
    Action,
    GameOverError,
    IllegalActionError,
    MalformedError,
    Match,
    NotYourTurnError,
)
from briscola.engine.actions import action_from_json
from briscola.fair_shuffle import FairDeals
from briscola.host import Audience, Step, Table
from briscola.server.broadcast import ALL
from briscola.server.errors import Refused
from briscola.server.failures import log_failed, storage_failed
from briscola.server.logs import table_context
from briscola.server.table import options, ports
from briscola.server.table.bots import Bots
from briscola.server.table.chat import Chat
from briscola.server.table.clock import Clock
from briscola.server.table.follow import Follower
from briscola.server.table.hands import committed, new_hands
from briscola.server.table.hints import Hints
from briscola.server.table.presence import Presence
from briscola.server.table.seating import Seating
from briscola.server.table.view import View
from briscola.storage import StorageError, TableInfo

log = logging.getLogger("briscola.server")

LOAD_TRIES = 5
"""How many times :meth:`LiveTable.load` reads a table that others keep changing."""

TAKEN = 32
"""How many of each seat's last actions taken the table remembers by their ``id``, so that
an action sent again (after its socket closed) is not taken twice."""


class Server(ports.Server, Protocol):
    """What the writer needs of the server process holding it: what every helper does,
    and the other tables (a rematch's)."""

    async def get(self, token: str) -> LiveTable:
        """The live table of ``token`` (a rematch's)."""
        ...


class LiveTable:
    """A table loaded from storage and served: see the module's documentation."""

    def __init__(self, server: Server, info: TableInfo) -> None:
        self.server = server
        self.storage = server.storage
        self.settings = server.settings
        self.info = info
        self.rules = info.parsed
        self.lock = asyncio.Lock()
        self.host: Table | None = None
        self.deals: FairDeals | None = None
        self.stored_hands = 0
        self.revealed = 0
        """How many finished hands are stored to their last move: only their records and
        salts are told (a crash could lose a move not stored, and the hand go on)."""
        self.taken: dict[int, deque[tuple[str, int]]] = {}
        """By seat, the ``id`` and stream number of its last actions taken (at most
        :data:`TAKEN`)."""
        self.meta = 0
        """Bumped at each change of what the view's ``table_out`` shows."""
        self.tasks: set[asyncio.Task[None]] = set()
        """The table's other tasks still running (a computer move for a clock run out)."""
        self.storing = False
        """Whether the match holds an action not stored yet: nobody is told anything
        then (a crash would lose that action), until the store is done."""
        self.touched = time.monotonic()
        """When the table was last loaded, asked for, acted at, joined or left
        (:func:`time.monotonic`): :meth:`unloadable` counts its idle time from then."""
        self.bots = Bots(self)
        self.clock = Clock(self)
        self.chat = Chat(self)
        self.presence = Presence(self)
        self.seating = Seating(self)
        self.follower = Follower(self)
        self.hints = Hints(self)
        self.view = View(self)

    @property
    def token(self) -> str:
        return self.info.token

    @property
    def version(self) -> int:
        """The table's own version: the actions in its log (the storage's key)."""
        return self.info.version

    @property
    def match(self) -> Match | None:
        return self.host.match if self.host is not None else None

    @property
    def bot_task(self) -> asyncio.Task[None] | None:
        """The computer players' task (:attr:`Bots.task`)."""
        return self.bots.task

    def number(self, seat: Audience) -> int:
        """The number of the last message of ``seat``'s stream (``None``: the spectators'),
        0 before the start: the ``version`` every frame to that seat carries."""
        return self.host.number(seat) if self.host is not None else 0

    def seat_of(self, player: int | None) -> int | None:
        if player is None:
            return None
        return next((i for i, s in enumerate(self.info.seats) if s.player == player), None)

    # -- the helpers' commands, as the table's own ---------------------------------------

    async def start(self, player: int | None = None) -> None:
        """Deal the first hand (:meth:`Seating.start`)."""
        await self.seating.start(player)

    async def rematch(self, player: int) -> LiveTable:
        """A new table with the same game, rules, settings and seats, started at once
        (:meth:`Seating.rematch`)."""
        return await self.seating.rematch(player, self.server.get)

    async def follow(self, parts: str = ALL) -> bool:
        """Catch up with what other server processes stored (:meth:`Follower.follow`)."""
        return await self.follower.follow(parts)

    def kick(self) -> None:
        """Start the computer players' task when one of them is to act (:meth:`Bots.kick`)."""
        self.bots.kick()

    # -- staying in memory ---------------------------------------------------------------

    def touch(self) -> None:
        """Something happened at the table: its idle time starts again."""
        self.touched = time.monotonic()

    def unloadable(self, now: float) -> bool:
        """Whether the table may leave memory at ``now`` (:func:`time.monotonic`): nobody
        connected, no computer player to act or thinking, no task of its own running,
        its lock free, and nothing done at it for ``idle_unload`` seconds. The stored
        deadlines of a table unloaded (an absent person's grace, their move's clock) still
        fire: :meth:`Tables.tick` loads it again."""
        if not self.unused(now):
            return False
        turn = self.host.turn if self.host is not None else None
        return not (self.info.status == "playing" and turn is not None and self.bots.computer(turn))

    def unused(self, now: float) -> bool:
        """Whether nothing here holds the table at ``now`` (:func:`time.monotonic`), and
        nothing was done here for ``idle_unload`` seconds: :meth:`unloadable`, but for a
        computer player's turn, which the process that changed the table has in hand
        (another process's moves, followed here, do not count as use)."""
        if self.presence.connections or self.storing or self.lock.locked() or self.tasks:
            return False
        if self.bots.task is not None and not self.bots.task.done():
            return False
        return now - self.touched >= self.settings.idle_unload

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task of the table's own (the table stays in memory until it
        ends)."""
        task = asyncio.create_task(work, context=table_context(self.token))
        self.tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and (e := task.exception()) is not None:
            what = getattr(task.get_coro(), "__qualname__", "a task")
            log_failed(e, "table %s: %s failed", self.token, what)

    def close(self) -> None:
        """Stop the table's tasks (the server is stopping)."""
        if self.bots.task is not None:
            self.bots.task.cancel()
        for task in self.tasks:
            task.cancel()

    # -- loading -------------------------------------------------------------------------

    async def load(self) -> None:
        """Rebuild the match from storage: the stored hands (with their commitments) as
        the fair deal source's hands so far, the log replayed by the engine. The table,
        its hands and its log are read apart, while other server processes may append:
        it is read again until its version is the same after as before, so that the
        version kept here is that of the last action replayed."""
        for _ in range(LOAD_TRIES):
            await self._load_once()
            after = await self.storage.versions([self.info.id])
            if after.get(self.info.id) == self.info.version:
                return
        log.warning("table %s: changed at every load; the next follow catches up", self.token)

    async def _load_once(self) -> None:
        self.chat.lines.clear()
        info = self.info = await self.storage.get_table(self.info.id)
        await self.chat.load()
        if info.status == "waiting" or info.start is None:
            return
        self.bots.stand_ins = options.stand_ins(info)
        hands = await self.storage.hands(info.id)
        self.deals = FairDeals(dealt=[committed(h, self.rules) for h in hands])
        match = await self.storage.load_match(info.id, deals=self.deals)
        self.host_match(match)
        self.stored_hands = len(hands)
        self.revealed = len(match.finished)
        if match.over and info.status == "playing":
            await self._finish()

    def host_match(self, match: Match) -> None:
        """Host ``match``, its computer players seated; at a public table the spectators
        see the play one trick late (:meth:`briscola.host.Table.held_at`), so that no
        watcher can tell a player what is going on (at a private table they are the
        players' guests, and see it as it goes)."""
        self.host = Table(
            match, {}, keep=self.settings.recent, notary=self.deals, late=self.info.public
        )
        self.bots.levels = {}
        self.bots.seat()

    async def reload(self) -> None:
        """Forget the match in memory and rebuild it from storage."""
        self.host = None
        try:
            await self.load()
        except Exception as e:  # the database away: the next follow, or command, loads it
            storage_failed(self.server.metrics, "load", e,
                           "table %s: could not be rebuilt from storage", self.token)  # fmt: skip
        self.meta += 1
        for conn in self.presence.connections:
            conn.number = -1  # numbered from the log again: a snapshot each
        await self.server.broadcaster.publish(self.token)

    # -- acting --------------------------------------------------------------------------

    async def submit(
        self, seat: int, action_json: object, number: int, ref: str | None = None
    ) -> None:
        """Apply ``action_json`` from ``seat``, sent when the seat's stream was at
        ``number``; store it and tell the connections. :class:`Refused` (nothing changed)
        when it cannot be. An action whose ``ref`` (the client's ``id``) and ``number`` are
        those of one of the seat's last actions taken is that action sent again: refused,
        ``already_taken``."""
        async with self.lock:
            if ref is not None and (ref, number) in self.taken.get(seat, ()):
                raise Refused(
                    "already_taken",
                    f"your action {ref!r} for version {number} was taken already (it made "
                    f"version {number + 1}); it was not taken again",
                )
            host = self.playing()
            if number != host.number(seat):
                raise Refused(
                    "stale",
                    f"the table is at version {host.number(seat)}, and your action was for "
                    f"version {number}: look at the view you were last sent and act again",
                )
            try:
                action = action_from_json(action_json)
            except MalformedError as e:
                raise Refused("bad_action", str(e)) from None
            if getattr(action, "seat", seat) != seat:
                raise Refused(
                    "not_your_seat", f"you sit at seat {seat}; you cannot act for seat "
                    f"{getattr(action, 'seat', '?')}", values={"n": seat + 1}
                )  # fmt: skip
            await self.take(seat, action, ref=ref, number=number)

    def playing(self) -> Table:
        """The host of the match in play; :class:`Refused` (``not_playing``) else."""
        if self.info.status != "playing" or self.host is None:
            raise Refused("not_playing", f"the table is {self.info.status}: nothing to play")
        return self.host

    async def take(
        self, seat: int, action: Action, *, bot: bool = False, ref: str | None, number: int
    ) -> None:
        """Apply ``action`` at the host (a computer player's: ``bot``), store it, tell; the
        caller holds the lock."""
        host = self.playing()
        self.storing = True
        try:
            try:
                step = host.play_bot(seat, action) if bot else host.act(seat, action)
            except GameOverError as e:
                raise Refused("game_over", str(e)) from None
            except NotYourTurnError as e:
                raise Refused("not_your_turn", str(e)) from None
            except (BotError, IllegalActionError, MalformedError) as e:
                raise Refused("illegal", str(e)) from None
            await self._store(step)
        finally:
            self.storing = False
        self.server.metrics.moved(bot)
        if ref is not None:
            self.taken.setdefault(seat, deque(maxlen=TAKEN)).append((ref, number))
        # the others read the log alone, and the table's row once the match is over
        await self.after_action("a" if self.info.status == "playing" else ALL)

    async def _store(self, step: Step) -> None:
        host, deals = self.host, self.deals
        assert host is not None and host.match is not None and deals is not None
        match = host.match
        new = new_hands(match, deals, self.stored_hands)
        version = self.info.version + 1
        try:
            await self.storage.append_action(
                self.info.id, version, step.action.to_json(), dealt=new
            )
        except Exception as e:
            self.server.metrics.storage_failed("append", e)
            # taken elsewhere (a StorageError) or away: a warning naming the exception
            # (the chaos test reads it); else a fault, with its traceback
            log_failed(e, "table %s: the action at version %d was not stored (%s)",
                       self.token, version, type(e).__name__)  # fmt: skip
            await self.reload()
            self.storing = False
            await self.server.broadcaster.publish(self.token)
            if not isinstance(e, StorageError):
                raise Refused(
                    "unavailable",
                    "the game's database did not answer, so your action was not taken: "
                    "wait a moment and act again",
                    503,
                ) from None
            raise Refused(
                "conflict",
                "the table changed before your action was stored; it was not taken: "
                "look at the view you were just sent and act again",
                409,
            ) from None
        self.info = replace(self.info, version=version)
        self.stored_hands += len(new)
        self.revealed = len(match.finished)
        if match.over:
            await self._finish()

    async def _finish(self) -> None:
        assert self.deals is not None and self.match is not None
        record = self.deals.match_record(self.match)
        try:
            await self.storage.finish_table(self.info.id, record, left=options.left(self.info))
        except StorageError as e:
            self.server.metrics.storage_failed("finish", e)
            log.warning("table %s: %s", self.token, e)
        self.info = await self.storage.get_table(self.info.id)
        await self.storage.clear_deadlines(self.info.id)
        self.clock.forget()
        self.meta += 1
        await self.seating.tell_family()

    async def after_action(self, parts: str = ALL) -> None:
        """Set the clock of the seat to act; wake the connections (of the other processes:
        for the table's ``parts``); let a computer player move when it is its turn."""
        self.touch()
        await self.clock.save()
        await self.server.broadcaster.publish(self.token, parts)
        self.bots.kick()
