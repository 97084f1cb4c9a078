"""One live table: the one writer of its match, and the owner of its commands.

A :class:`LiveTable` holds a table's match in the table host
(:class:`briscola.host.Table`) and applies its commands one at a time, under one lock:
a person's action, a computer player's, a time-out's, a seat taken, left or changed, the
start and the rematch. Each action is checked by the engine, stored in the table's log
at the next version (with the hands it made the match deal, and their fair-shuffle
commitments) and only then told: the table publishes a wake-up, and each connection asks
:meth:`LiveTable.messages_for` what is new for its seat. What a seat is told is its own
stream from the host (:meth:`briscola.host.Table.messages`), numbered on its own: every
number the table sends a connection (``version`` on the wire) is that stream's. A storage
failure (another writer won the version) rebuilds the table from its log.

Computer players (the seats' own, and the stand-ins for absent or slow people) sit at
the host's seats and think in a worker thread (:meth:`briscola.host.Table.bot_choice`);
their actions go through the same checks and storage as people's.

What a table needs of the server process that holds it (storage, settings, wake-ups,
nicknames, other tables) it reaches through :class:`Server`, which
:class:`~briscola.server.tables.Tables` is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Coroutine, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, cast, get_args

from briscola.ai.bot import Bot, BotError, RandomBot, bot_names, make_bot
from briscola.engine import (
    Action,
    BriscolaError,
    GameOverError,
    GameState,
    IllegalActionError,
    MalformedError,
    Match,
    NotYourTurnError,
)
from briscola.engine.actions import action_from_json
from briscola.engine.deal import deal_from_json
from briscola.engine.game_record import rules_from_json
from briscola.engine.presets import find_game
from briscola.fair_shuffle import Committed, FairDeals
from briscola.host import Audience, Step, Table
from briscola.server.analyses import Analyst
from briscola.server.broadcast import ALL, Broadcaster, family_key
from briscola.server.errors import Refused
from briscola.server.logs import table_context
from briscola.server.messages import (
    PHRASES,
    ChatLine,
    ChatSetting,
    HintOut,
    Phrase,
    PointsSetting,
    SeatOut,
    TableChanged,
    TableLanguage,
    TableOut,
    You,
    snapshot_frame,
    update_frame,
)
from briscola.server.metrics import Metrics, is_storage_error
from briscola.server.settings import ServerSettings
from briscola.storage import (
    OPEN,
    ChatMessage,
    Hand,
    NewHand,
    News,
    Seat,
    SeatTaken,
    Storage,
    StorageError,
    TableInfo,
    WrongStatus,
    match_start,
)
from briscola.words.catalogue import catalogue
from briscola.words.names import computer_names

log = logging.getLogger("briscola.server")

LEVELS = ("random", "beginner", "intermediate", "strong", "champion")
"""The computer players a table may seat (the project's own levels: no import specs)."""


def check_level(level: str | None) -> str:
    """``level`` when it is one of :data:`LEVELS` this server has, else :class:`Refused`."""
    if level not in LEVELS or level not in bot_names():
        raise Refused(
            "bad_level",
            f"there is no computer player {level!r}: the levels are {', '.join(LEVELS)}",
            values={"level": str(level)},
        )
    return level


class Server(Protocol):
    """What a live table needs of the server process holding it."""

    storage: Storage
    settings: ServerSettings
    broadcaster: Broadcaster
    names: dict[int, str]
    """Nicknames by player id, as far as they are known."""
    metrics: Metrics
    draining: bool
    """Whether the process is stopping: no computer player moves any more."""
    analyst: Analyst
    """The finished hands' analyses, and their worker process."""

    @property
    def executor(self) -> Executor:
        """Where the computer players think."""
        ...

    async def learn_names(self, players: Sequence[int | None]) -> dict[int, str]:
        """Look up the nicknames of ``players`` that are not known yet."""
        ...

    @property
    def shared(self) -> bool:
        """Whether other server processes share the database (and act at its tables)."""
        ...

    @property
    def process(self) -> str:
        """This server process among those sharing the database."""
        ...

    async def get(self, token: str) -> LiveTable:
        """The live table of ``token`` (a rematch's)."""
        ...


class Closer(Protocol):
    """How the process stops one connection gracefully (its socket's own)."""

    async def hold(self) -> None:
        """Return once the connection handles no message, and let it handle no other."""
        ...

    async def close(self) -> None:
        """Send what is new for it, then close it with 1012 (service restart)."""
        ...


@dataclass
class Connection:
    """One client's WebSocket at a table: who it is and what it was last sent."""

    player: int | None
    seat: int | None
    number: int = -1
    """The number, in its seat's stream, of the last message sent (-1: nothing sent yet).
    It is the ``version`` of the frames the connection is sent."""
    from_start: bool = False
    """Whether the client asked for what came after 0 (``?since=0``, ``sync`` 0): 0 is the
    table waiting as well as the first hand before its first action, so its update begins
    with the match's start."""
    meta: int = -1
    chat: int = 0
    outbox: list[str] = field(default_factory=list)
    """Replies to this connection alone (errors, pongs), sent after what is new."""
    closer: Closer | None = None
    """How to stop it when the process stops (:meth:`Tables.drain`)."""

    def reply(self, text: str) -> bool:
        """Queue a reply; whether it was kept. A client that reads nothing while it sends
        (its socket full, the writer waiting) has at most :data:`OUTBOX` replies kept:
        the others are dropped, so that its replies never pile up."""
        if len(self.outbox) >= OUTBOX:
            return False
        self.outbox.append(text)
        return True


OUTBOX = 256
"""The most replies kept for a connection that does not read them."""

LOAD_TRIES = 5
"""How many times :meth:`LiveTable.load` reads a table that others keep changing."""

PRESENCE_ALIVE = 12.0
"""Seconds since its last heartbeat within which another process's connections count
(its heartbeat comes every ``follow_every`` seconds)."""

TAKEN = 32
"""How many of each seat's last actions taken the table remembers by their ``id``, so that
an action sent again (after its socket closed) is not taken twice."""


def database_away(error: BaseException) -> bool:
    """Whether ``error`` says the database failed or could not be reached (the storage's
    own errors, the driver's, or the socket's), rather than a fault of the server's."""
    return is_storage_error(error) or isinstance(error, OSError | TimeoutError)


def log_failed(error: BaseException, message: str, *args: object) -> None:
    """Log that the work ``message`` names could not be done: with the database away
    (:func:`database_away`: it comes back, and the work is done again), a warning
    naming ``error``; else ``error`` with its traceback, a fault of the server's."""
    if database_away(error):
        log.warning(message + ": %r", *args, error)
    else:
        log.error(message, *args, exc_info=error)


def storage_failed(
    metrics: Metrics, operation: str, error: BaseException, message: str, *args: object
) -> None:
    """The work ``message`` names (a storage call of ``operation``) failed with ``error``:
    counted among the storage errors when the database is away (:func:`database_away`),
    and logged (:func:`log_failed`)."""
    if database_away(error):
        metrics.storage_failed(operation, error)
    log_failed(error, message, *args)


def clean_text(text: str, longest: int) -> str:
    """A chat line as kept: control characters out, spaces trimmed, at most ``longest``
    characters (:class:`Refused` when empty or longer)."""
    kept = "".join(
        " " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c
        for c in text
        if unicodedata.category(c) != "Cf"
    ).strip()
    if not kept:
        raise Refused("empty", "a chat message needs some text")
    if len(kept) > longest:
        raise Refused(
            "too_long",
            f"a chat message is at most {longest} characters; this one has {len(kept)}",
            values={"n": longest, "length": len(kept)},
        )
    return kept


PHRASE_MARK = "\x1e"
"""What a friendly phrase is kept as in the chat's storage: this mark, then its id (a line
typed never starts with it: :func:`clean_text` takes control characters out)."""


def phrase_of(kept: str) -> Phrase | None:
    """The phrase a kept chat line is, ``None`` for free text."""
    if kept.startswith(PHRASE_MARK) and kept[1:] in PHRASES:
        return cast(Phrase, kept[1:])
    return None


class LiveTable:
    """A table loaded from storage and served: see the module's documentation."""

    def __init__(self, server: Server, info: TableInfo) -> None:
        self.server = server
        self.storage = server.storage
        self.settings = server.settings
        self.info = info
        self.rules = rules_from_json(info.game, info.rules, fresh=True)
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
        """Bumped at each change of what :meth:`table_out` shows."""
        self.chat_lines: deque[ChatLine] = deque(maxlen=100)
        self.connections: list[Connection] = []
        self.levels: dict[int, str] = {}
        """The level of the computer player the host seats at each seat that has one."""
        self.stand_ins: set[int] = set()
        self.elsewhere: set[int] = set()
        """The seats with a connection open at another server process (shared)."""
        self.present: set[int] = set()
        """The seats this process has told the database it has a connection of."""
        self.bot_task: asyncio.Task[None] | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        """The table's other tasks still running (a computer move for a clock run out)."""
        self.move_deadline: tuple[int, int] | None = None
        self.move_due: datetime | None = None
        """When the stored move clock runs out, where this process knows it."""
        self.clock_unsaved = False
        """Whether the clock of an action taken here could not be stored (the database
        away): :meth:`save_clock` stores it once it is back."""
        self.storing = False
        """Whether the match holds an action not stored yet: nobody is told anything
        then (a crash would lose that action), until the store is done."""
        self.touched = time.monotonic()
        """When the table was last loaded, asked for, acted at, joined or left
        (:func:`time.monotonic`): :meth:`unloadable` counts its idle time from then."""

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

    def number(self, seat: Audience) -> int:
        """The number of the last message of ``seat``'s stream (``None``: the spectators'),
        0 before the start: the ``version`` every frame to that seat carries."""
        return self.host.number(seat) if self.host is not None else 0

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
        if self.connections or self.storing or self.lock.locked() or self.tasks:
            return False
        if self.bot_task is not None and not self.bot_task.done():
            return False
        turn = self.host.turn if self.host is not None else None
        if self.info.status == "playing" and turn is not None and self.computer(turn):
            return False
        return now - self.touched >= self.settings.idle_unload

    def players(self) -> set[int]:
        """The players whose nicknames the table shows: those seated, those connected."""
        seated = {s.player for s in self.info.seats if s.player is not None}
        return seated | {c.player for c in self.connections if c.player is not None}

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
        if self.bot_task is not None:
            self.bot_task.cancel()
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
        self.chat_lines.clear()
        info = self.info = await self.storage.get_table(self.info.id)
        said = await self.storage.chat(info.id, limit=self.chat_lines.maxlen or 0, newest=True)
        await self.server.learn_names([m.player for m in said])
        for m in said:
            self.chat_lines.append(self._chat_line(m.id, m.player, m.text, m.at))
        if info.status == "waiting" or info.start is None:
            return
        kept = info.settings.get("stand_ins")
        self.stand_ins = (
            {s for s in kept if isinstance(s, int)} if isinstance(kept, list) else set()
        )
        hands = await self.storage.hands(info.id)
        self.deals = FairDeals(dealt=[self._committed(h) for h in hands])
        match = await self.storage.load_match(info.id, deals=self.deals)
        self._host(match)
        self.stored_hands = len(hands)
        self.revealed = len(match.finished)
        if match.over and info.status == "playing":
            await self._finish()

    # -- following other server processes ---------------------------------------------

    async def follow(self, parts: str = ALL) -> bool:
        """Catch up with what other server processes stored of this table (several share
        one database), as far as the wake-up's ``parts`` say it changed (:data:`ALL`):
        its seats, status and settings, its new chat lines, who is connected elsewhere,
        and the actions logged after this process's version, replayed here by the engine
        in the log's order (each new hand dealt as they stored it); whether anything
        changed. All of it is read on one connection. The connections here are woken when
        it did. Nothing is stored: the log is the truth, this copy only follows it. A log
        that does not replay (it never should) rebuilds the table from storage."""
        async with self.lock:
            if self.host is None and (self.info.status != "waiting" or "a" in parts):
                parts = ALL  # the match, when it started elsewhere, is loaded whole
            try:
                news = await self._news(parts)
            except Exception as e:
                if not database_away(e):
                    raise
                self.server.metrics.storage_failed("follow", e)
                log.warning("table %s: could not be caught up from storage: %r", self.token, e)
                return False  # the next wake-up, or look, catches up
            changed = await self._follow_chat(news.chat)
            if news.elsewhere is not None and news.elsewhere != self.elsewhere:
                self.elsewhere = news.elsewhere
                self.meta += 1
                changed = True
            info = news.info
            if info is None:
                changed = await self._follow_log(news) or changed
            elif info.version >= self.info.version:  # (not a read behind its own append)
                changed = await self._follow_table(info, news) or changed
        if changed:
            self.touch()
            await self.server.broadcaster.wake(self.token)
            # a computer player to act moves here if no process has claimed its move (the
            # one that appended may have died before claiming it: nothing else would)
            self.kick()
        return changed

    async def _news(self, parts: str) -> News:
        """What :meth:`follow` reads: the ``parts`` named, after what this process has."""
        return await self.storage.news(
            self.info.id,
            table="t" in parts,
            log=(self.stored_hands, self.info.version) if "a" in parts else None,
            chat_after=(self.chat_lines[-1].id if self.chat_lines else 0) if "c" in parts else None,
            presence=(self.server.process, timedelta(seconds=PRESENCE_ALIVE))
            if "p" in parts
            else None,
        )

    async def _follow_table(self, info: TableInfo, news: News) -> bool:
        """:meth:`follow`'s part of the table as stored (``info``): a match started or
        finished elsewhere loaded, the log's new actions replayed, the seats, status and
        settings taken; whether anything changed."""
        changed = False
        was = self.info
        if self.host is None and info.status != "waiting":
            self.info = info
            self.chat_lines.clear()
            await self.load()  # started, or finished, elsewhere
            self._renumber()
            changed = True
        else:
            changed = await self._follow_log(news)
        if (info.seats, info.status, info.settings, info.public) != (
            was.seats, was.status, was.settings, was.public
        ):  # fmt: skip
            self.info = replace(info, version=self.info.version)
            await self.server.learn_names([s.player for s in info.seats])
            kept = info.settings.get("stand_ins")
            self.stand_ins = (
                {s for s in kept if isinstance(s, int)} if isinstance(kept, list) else set()
            )
            self._seat_bots()
            for conn in self.connections:
                if self.seat_of(conn.player) != conn.seat:
                    conn.seat = self.seat_of(conn.player)
                    conn.number = -1
            await self.share_presence()
            self.meta += 1
            changed = True
        if self.host is not None and self.info.status == "finished":
            self.move_deadline = self.move_due = None
        return changed

    async def _follow_log(self, news: News) -> bool:
        """Replay the actions ``news`` read after this process's version, as another
        process took them (its new hands given to the deal source before the actions that
        deal them); whether there were any. A log that does not replay rebuilds the
        table."""
        host, deals = self.host, self.deals
        if host is None or deals is None or not (news.hands or news.actions):
            return False
        try:
            for h in news.hands:  # (read after stored_hands, under this lock)
                deals.expect(self._committed(h))
                self.stored_hands = h.number
            for logged in news.actions:  # (read after this version, under this lock)
                action = action_from_json(logged.action)
                if action.seat in host.bots:
                    host.play_bot(action.seat, action)
                else:
                    host.act(action.seat, action)
                self.info = replace(self.info, version=logged.version)
        except BriscolaError:
            log.exception("table %s: its log did not replay here", self.token)
            await self._reload()
            return True
        if self.match is not None:
            self.revealed = len(self.match.finished)
        self.move_deadline = self.move_due = None  # the process that acted set the clock
        self.clock_unsaved = False
        return True

    async def _follow_chat(self, said: list[ChatMessage]) -> bool:
        """Take the chat lines read since the last one here; whether there were any."""
        last = self.chat_lines[-1].id if self.chat_lines else 0
        said = [m for m in said if m.id > last]
        if not said:
            return False
        await self.server.learn_names([m.player for m in said])
        for m in said:
            self.chat_lines.append(self._chat_line(m.id, m.player, m.text, m.at))
        return True

    def _committed(self, h: Hand) -> Committed:
        """A stored hand as the fair deal source holds it."""
        return Committed(
            h.number, deal_from_json(h.deal, self.rules), h.salt or "", h.commitment or ""
        )

    def _renumber(self) -> None:
        """Each connection is sent a snapshot next (its seat's stream begins again)."""
        for conn in self.connections:
            conn.seat = self.seat_of(conn.player)
            conn.number = -1

    def _host(self, match: Match) -> None:
        """Host ``match``, its computer players seated; at a public table the spectators
        see the play one trick late (:meth:`briscola.host.Table.held_at`), so that no
        watcher can tell a player what is going on (at a private table they are the
        players' guests, and see it as it goes)."""
        self.host = Table(
            match, {}, keep=self.settings.recent, notary=self.deals, late=self.info.public
        )
        self.levels = {}
        self._seat_bots()

    def _seat_bots(self) -> None:
        """Seat at the host the computer players the table has now: each seat's own, and
        the stand-ins; a seat a person plays again has none."""
        host = self.host
        if host is None:
            return
        for seat, occupant in enumerate(self.info.seats):
            level = occupant.level or (self.stand_in_level if seat in self.stand_ins else None)
            if level == self.levels.get(seat):
                continue
            if level is None:
                host.unseat_bot(seat)
                del self.levels[seat]
            else:
                host.seat_bot(seat, self._bot(level), level)
                self.levels[seat] = level

    def _bot(self, level: str) -> Bot:
        try:
            return make_bot(level, secrets.randbits(32))
        except BotError as e:  # a level this server does not have (no numba, say)
            log.warning("table %s: %s; a random player stands in", self.token, e)
            return RandomBot(secrets.randbits(32))

    def _states(self, match: Match) -> list[GameState]:
        states = list(match.finished)
        if not states or states[-1] is not match.hand:
            states.append(match.hand)
        return states

    def _new_hands(self, match: Match) -> list[NewHand]:
        assert self.deals is not None
        out = []
        for number, state in enumerate(self._states(match), 1):
            if number <= self.stored_hands:
                continue
            c = self.deals.of_deal(state.deal)
            out.append(
                NewHand(
                    number,
                    state.deal.to_json(),
                    c.commitment if c else None,
                    c.salt if c else None,
                )
            )
        return out

    # -- the table's commands ------------------------------------------------------------

    async def start(self, player: int | None = None) -> None:
        """Deal the first hand (a waiting table whose seats are all filled), store the
        start with the hands dealt and their commitments. ``player``, when given, must be
        the table's host."""
        async with self.lock:
            info = self.info = await self.storage.get_table(self.info.id)
            if player is not None:
                self._check_host(player)
            if info.status != "waiting":
                raise Refused("wrong_status", f"the table is {info.status}: it has started", 409)
            empty = [i for i, s in enumerate(info.seats) if s.open]
            if empty:
                raise Refused(
                    "seats_open",
                    f"seat{'s' if len(empty) > 1 else ''} {', '.join(map(str, empty))} "
                    "still open: wait for players, or put computer players there",
                    409,
                    values={"n": len(empty), "seats": ", ".join(str(s + 1) for s in empty)},
                )
            rng = secrets.SystemRandom()
            deals = FairDeals()
            match = Match(self.rules, rng, rng.randrange(self.rules.players), deals=deals)
            self.deals = deals
            new = self._new_hands(match)
            # Under partners=drawn everyone sits where the draw says: seating[seat] is the
            # seat they chose (the engine's "player"), stored with the start.
            seats = None
            if match.drawn is not None:
                seats = [info.seats[chose] for chose in match.seating]
            try:
                self.info = await self.storage.start_table(
                    info.id, match_start(match), new, seats=seats
                )
            except StorageError:
                raise Refused("wrong_status", "this table has started already", 409) from None
            for conn in self.connections:
                conn.seat = self.seat_of(conn.player)
            await self.share_presence()
            if match.drawn is not None:  # the lines said before the draw: their new seats
                moved = match.seating.index
                self.chat_lines = deque(
                    (c if c.seat is None else c.model_copy(update={"seat": moved(c.seat)})
                     for c in self.chat_lines),
                    maxlen=self.chat_lines.maxlen,
                )  # fmt: skip
            self._host(match)
            self.stored_hands = len(new)
            self.revealed = len(match.finished)
            for seat, s in enumerate(self.info.seats):
                if s.player is not None and not self.connected(seat):
                    await self.away(seat)  # a player who never comes is stood in for too
            if any(s.player is not None for s in self.info.seats):  # (someone to analyse for)
                self.server.analyst.warm(self.rules.key, dict(self.rules.options))
            self.meta += 1
            for conn in self.connections:
                conn.number = -1  # they were sent no view: a snapshot each, with theirs
            await self._after_action()
            await self.tell_family()

    async def take_seat(self, seat: int, player: int) -> None:
        """``player`` sits at the open ``seat`` of this waiting table."""
        async with self.lock:
            self._check_seat(seat)
            mine = self.seat_of(player)
            if mine == seat:
                return
            if mine is not None:
                raise Refused(
                    "seated",
                    f"you already sit at seat {mine}: leave it first to change seats",
                    409,
                    values={"n": mine + 1},
                )
            # The storage's messages name the table's id, which nobody at it knows.
            try:
                await self.storage.take_seat(self.info.id, seat, player)
            except WrongStatus:
                info = self.info = await self.storage.get_table(self.info.id)
                raise Refused(
                    "wrong_status", f"this table is {info.status}: its seats are set", 409
                ) from None
            except SeatTaken:
                raise Refused(
                    "seat_taken",
                    f"seat {seat} is taken: choose an open one",
                    409,
                    values={"n": seat + 1},
                ) from None
            except StorageError:
                raise self._no_seat(seat) from None
            await self.server.learn_names([player])
            await self.seats_changed()

    async def leave(self, seat: int, player: int) -> None:
        """``player`` leaves ``seat`` (or, as the host of a waiting table, clears it). At a
        table in play a computer player takes the seat for the rest of the match."""
        async with self.lock:
            info = self.info
            self._check_seat(seat)
            mine = info.seats[seat].player == player
            if not mine and (info.host != player or info.status != "waiting"):
                raise Refused("not_yours", "you can only leave your own seat", 403)
            if info.status == "finished":
                raise Refused("wrong_status", "the match is over: there is no seat to leave", 409)
            occupant = OPEN if info.status == "waiting" else Seat(level=self.stand_in_level)
            if info.status == "playing" and mine:  # they played: the match is theirs too
                left = {str(k): v for k, v in self.left.items()} | {str(seat): player}
                stored = await self.storage.merge_settings(info.id, {"left": left})
                self.info = replace(self.info, settings=stored.settings)
            await self.storage.set_seat(info.id, seat, occupant)
            await self.storage.clear_deadlines(info.id, seat)
            if seat in self.stand_ins:
                self.stand_ins.discard(seat)
                await self.keep_stand_ins()
            await self.seats_changed()
        await self._after_action()

    async def set_seat(self, seat: int, player: int, kind: str, level: str | None) -> None:
        """The host opens ``seat`` of a waiting table, or puts a computer player there."""
        async with self.lock:
            self._check_host(player)
            self._check_seat(seat)
            if self.info.status != "waiting":
                raise Refused(
                    "wrong_status", f"the table is {self.info.status}: its seats are set", 409
                )
            occupant = (
                Seat(level=check_level(self.stand_in_level if level is None else level))
                if kind == "bot"
                else OPEN
            )
            await self.storage.set_seat(self.info.id, seat, occupant)
            await self.seats_changed()

    async def rematch(self, player: int) -> LiveTable:
        """A new table with the same game, rules, settings and seats, started at once (the
        same one, asked again)."""
        async with self.lock:
            info = self.info
            if info.status != "finished":
                raise Refused("wrong_status", "a rematch comes once the match is over", 409)
            if info.host != player and self.seat_of(player) is None:
                raise Refused("not_yours", "only the table's players make a rematch", 403)
            existing = info.settings.get("rematch")
            if isinstance(existing, str):
                return await self.server.get(existing)
            settings = {
                k: v for k, v in info.settings.items() if k not in ("rematch", "stand_ins", "left")
            }
            new = await self.storage.create_rematch(
                info.id,
                {
                    **settings,
                    "rematch_of": info.token,
                    "names_of": settings.get("names_of", info.token),
                },
            )  # (made once, though both players ask at two processes at once)
            self.info = replace(self.info, settings={**info.settings, "rematch": new.token})
            self.meta += 1
        live = await self.server.get(new.token)
        if live.info.status == "waiting":
            try:
                await live.start()
            except Refused as e:
                if e.code != "wrong_status":
                    raise  # (started by whoever made it, at another process: it plays)
        await self.server.broadcaster.publish(self.token)
        return live

    def _check_host(self, player: int) -> None:
        if self.info.host != player:
            raise Refused("not_host", "only the table's host can do that", 403)

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.info.seats):
            raise self._no_seat(seat)

    def _no_seat(self, seat: int) -> Refused:
        n = len(self.info.seats)
        return Refused(
            "bad_seat",
            f"there is no seat {seat}: the seats are 0 to {n - 1}",
            404,
            values={"n": seat + 1, "last": n},
        )

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
            host = self._playing()
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
            await self._take(seat, action, ref=ref, number=number)

    def hints_for(self, seat: int) -> bool:
        """Whether the person at ``seat`` may ask for a hint: the table was opened with
        hints, or only computer players sit beside them (a practice table)."""
        if self.info.settings.get("hints") is True:
            return True
        return all(s.level is not None for i, s in enumerate(self.info.seats) if i != seat)

    async def hint(self, player: int) -> HintOut:
        """A hint for ``player``'s seat now (:mod:`briscola.analysis.hints`), worked out in
        the hints' worker process from a copy of the hand (:meth:`Analyst.hint`).
        :class:`Refused`: not a seated player (``not_yours``), a table that gives no hints
        (``no_hints``), not the seat's turn to play a card (``not_your_turn``)."""
        from briscola.analysis import NoHint

        seat = self.seat_of(player)
        if seat is None:
            raise Refused("not_yours", "a hint is for a player seated at the table", 403)
        if not self.hints_for(seat):
            raise Refused(
                "no_hints",
                "this table gives no hints: a practice table (only computer players beside "
                "you) does, and a table opened with hints",
                403,
            )
        async with self.lock:
            host = self._playing()
            state = host.state.copy()
            version = host.number(seat)
        try:
            body = await self.server.analyst.hint(state, seat, version)
        except NoHint as e:
            raise Refused("not_your_turn", str(e), 409) from None
        return HintOut(version=version, **body)

    def _playing(self) -> Table:
        if self.info.status != "playing" or self.host is None:
            raise Refused("not_playing", f"the table is {self.info.status}: nothing to play")
        return self.host

    async def _take(
        self, seat: int, action: Action, *, bot: bool = False, ref: str | None, number: int
    ) -> None:
        """Apply ``action`` at the host (a computer player's: ``bot``), store it, tell."""
        host = self._playing()
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
        await self._after_action("a" if self.info.status == "playing" else ALL)

    async def _store(self, step: Step) -> None:
        host, deals = self.host, self.deals
        assert host is not None and host.match is not None and deals is not None
        match = host.match
        new = self._new_hands(match)
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
            await self._reload()
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
            await self.storage.finish_table(self.info.id, record, left=self.left)
        except StorageError as e:
            self.server.metrics.storage_failed("finish", e)
            log.warning("table %s: %s", self.token, e)
        self.info = await self.storage.get_table(self.info.id)
        await self.storage.clear_deadlines(self.info.id)
        self.move_deadline = self.move_due = None
        self.meta += 1
        await self.tell_family()

    async def _reload(self) -> None:
        """Forget the match in memory and rebuild it from storage."""
        self.host = None
        try:
            await self.load()
        except Exception as e:  # the database away: the next follow, or command, loads it
            storage_failed(self.server.metrics, "load", e,
                           "table %s: could not be rebuilt from storage", self.token)  # fmt: skip
        self.meta += 1
        for conn in self.connections:
            conn.number = -1  # numbered from the log again: a snapshot each
        await self.server.broadcaster.publish(self.token)

    async def _after_action(self, parts: str = ALL) -> None:
        """Set the clock of the seat to act; wake the connections (of the other processes:
        for the table's ``parts``); let a computer player move when it is its turn."""
        self.touch()
        await self.save_clock()
        await self.server.broadcaster.publish(self.token, parts)
        self.kick()

    async def save_clock(self) -> None:
        """:meth:`set_clock` after an action taken here; with the database away, the
        clock waits (:attr:`clock_unsaved`) for the next call, every ``tick`` seconds
        (:meth:`Tables.watch`), and the action stands."""
        try:
            await self.set_clock()
        except Exception as e:
            if not database_away(e):
                raise
            self.clock_unsaved = True
            log_failed(e, "table %s: the move clock could not be stored", self.token)
        else:
            self.clock_unsaved = False

    def wanted_clock(self) -> tuple[int, int] | None:
        """The move clock the table should have stored now: the seat to act and the
        version, when the table has a clock and a person is to act; else ``None``."""
        turn = self.host.turn if self.host is not None else None
        if turn is None or not self.clock or self.info.status != "playing":
            return None
        return None if self.computer(turn) else (turn, self.info.version)

    async def set_clock(self) -> None:
        """Store the move clock the table should have now (:meth:`wanted_clock`)."""
        clock = self.clock
        wanted = self.wanted_clock()
        if wanted == self.move_deadline:
            return
        if self.move_deadline is not None:
            await self.storage.clear_deadlines(self.info.id, kind="move")
        self.move_due = None
        if wanted is not None and clock:
            due = datetime.now(UTC) + timedelta(seconds=clock)
            await self.storage.set_deadline(self.info.id, wanted[0], "move", due, wanted[1])
            self.move_due = due
        self.move_deadline = wanted

    def clock_left(self) -> float | None:
        """The seconds left now on the move clock of the seat to act, where this process
        knows when it runs out (``None``: no clock running, or not known here)."""
        if self.move_deadline is None or self.move_due is None:
            return None
        return max(0.0, round((self.move_due - datetime.now(UTC)).total_seconds(), 1))

    @property
    def left(self) -> dict[int, int]:
        """The people who left the match in play, by the seat they played (a computer
        player took it over): the match is in their history too."""
        kept = self.info.settings.get("left")
        if not isinstance(kept, dict):
            return {}
        return {int(k): v for k, v in kept.items() if k.isdigit() and isinstance(v, int)}

    @property
    def clock(self) -> float | None:
        value = self.info.settings.get("clock")
        return float(value) if isinstance(value, int | float) and value > 0 else None

    @property
    def points_setting(self) -> PointsSetting:
        """``hidden`` or ``shown`` (a table made before the setting: ``shown``, as it was)."""
        return "hidden" if self.info.settings.get("points") == "hidden" else "shown"

    @property
    def chat_setting(self) -> ChatSetting:
        """``free``, ``phrases`` or ``none`` (a table made before the setting: ``free``)."""
        value = self.info.settings.get("chat")
        return "phrases" if value == "phrases" else "none" if value == "none" else "free"

    @property
    def lang_setting(self) -> TableLanguage:
        """The table's language (a table made before the setting: ``it``, the game's)."""
        value = self.info.settings.get("lang")
        return value if value in get_args(TableLanguage) else "it"  # type: ignore[return-value]

    def computer_names(self) -> dict[int, str]:
        """The first names of the table's computer players, by seat (a stand-in has none:
        it plays under the person's nickname): of the table's language, chosen from its
        token (a rematch's from the first table's, so that they keep their names), none
        of them a nickname of the people at the table when there are names enough."""
        info = self.info
        seed = info.settings.get("names_of")
        bots = [i for i, s in enumerate(info.seats) if s.player is None and s.level is not None]
        people = [self.server.names.get(s.player) for s in info.seats if s.player is not None]
        return computer_names(
            seed if isinstance(seed, str) else info.token,
            self.lang_setting,
            bots,
            [n for n in people if n is not None],
        )

    @property
    def stand_in_level(self) -> str:
        level = self.info.settings.get("stand_in")
        return level if isinstance(level, str) else self.settings.stand_in

    def computer(self, seat: int) -> bool:
        """Whether a computer player plays ``seat`` now (its own, or a stand-in)."""
        return self.info.seats[seat].level is not None or seat in self.stand_ins

    # -- computer players ----------------------------------------------------------------

    def kick(self) -> None:
        """Start the computer players' task when one of them is to act."""
        host = self.host
        if host is None or self.info.status != "playing" or self.server.draining:
            return
        turn = host.turn
        if turn is None or not self.computer(turn):
            return
        if self.bot_task is None or self.bot_task.done():
            context = table_context(self.token)
            self.bot_task = asyncio.create_task(self._bots_play(), context=context)

    async def _bots_play(self) -> None:
        # The move (seat, version) this task claimed: one it did not make (the table
        # rebuilt meanwhile, the database away as it was stored) is tried again under its
        # claim, not claimed again (a claim is won once: the move would wait out its lease).
        # A kick finds this task running and starts none; so it returns only on what it
        # read in the step it returns in, never on what it read before an await.
        held: tuple[int, int] | None = None
        while True:
            async with self.lock:  # (an action being stored has moved the host, not yet
                host = self.host  # the version: the seat and version are read after it)
                if host is None or self.info.status != "playing" or self.server.draining:
                    return
                seat = host.turn
                if seat is None or not self.computer(seat):
                    return
                version = self.info.version
            if self.settings.bot_delay:
                await asyncio.sleep(self.settings.bot_delay)
            if version != self.info.version or self.host is not host or not self.computer(seat):
                continue  # the table moved on, or the person came back while it waited
            try:
                if self.server.shared and held != (seat, version):
                    if not await self._claim(seat, version):
                        if version == self.info.version:
                            return  # another process makes this move
                        continue  # the table moved on meanwhile: maybe to this one's turn
                    held = (seat, version)
                try:
                    await self._computer_move(seat, version)
                except asyncio.CancelledError:  # the process stops: the claim is handed on
                    if self.server.shared:
                        with contextlib.suppress(Exception):  # (else it waits its lease)
                            await self._hand_on(seat, version)
                    raise
            except Exception as e:  # the database away: claimed again once it is back
                if not database_away(e):
                    raise
                log_failed(e, "table %s: seat %d's computer move waits", self.token, seat)
                await asyncio.sleep(1)

    async def _claim(self, seat: int, version: int) -> bool:
        """Claim the computer player's move at ``seat`` and ``version`` for this process
        (:meth:`Storage.claim_turn`): whether it won. A claim won as the process stops
        (its task cancelled while the database answered) is handed on
        (:meth:`_hand_on`): left standing, the move would wait out its lease."""
        lease = timedelta(seconds=self.settings.lease)
        claim = asyncio.ensure_future(self.storage.claim_turn(self.info.id, seat, version, lease))
        try:
            return await asyncio.shield(claim)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                if await claim:
                    await self._hand_on(seat, version)
            raise

    async def _hand_on(self, seat: int, version: int, kind: str = "bot") -> None:
        """The computer move at ``seat`` and ``version``, claimed here (a computer
        player's, ``bot``, or a clock's that ran out, ``move``), is not made here (the
        process stops): its claim is due now, for another process to make the move at
        once (:meth:`claimed_move`, :meth:`timed_out`)."""
        now = datetime.now(UTC)
        await self.storage.set_deadline(self.info.id, seat, kind, now, version)

    async def claimed_move(self, seat: int, version: int) -> None:
        """The computer player's move at ``seat`` and ``version``, claimed here once the
        process that claimed it first did not make it in time (it died): made, if the
        table is still there; the claim goes either way."""
        host = self.host
        here = host is not None and version == self.info.version and host.turn == seat
        if here and self.computer(seat) and not await self._computer_move(seat, version):
            return  # handed on: the process is stopping
        await self.storage.clear_deadline(self.info.id, seat, "bot", version)
        self.kick()

    async def timed_out(self, seat: int, version: int) -> None:
        """The clock of ``seat`` ran out at ``version``: a computer player moves for it."""
        host = self.host
        if host is not None and version == self.info.version and host.turn == seat:
            log.info("table %s: seat %d's clock ran out", self.token, seat)
            if not await self._computer_move(seat, version):
                return  # handed on: the process is stopping
        if self.server.shared:  # claimed, not cleared, when it was taken (Tables.tick)
            await self.storage.clear_deadline(self.info.id, seat, "move", version)

    async def _computer_move(self, seat: int, version: int) -> bool:
        """A computer player chooses for ``seat`` (the seat's own, its stand-in, or one
        for a person whose clock ran out), and its action is taken if the table is still
        at ``version``; a player that fails is replaced by the first legal action. False
        when the process began to stop meanwhile: the move is not made, and, with several
        processes, its claim (``bot``, or the clock's ``move``) is handed on, due now, for
        another process to make it at once."""
        host = self.host
        assert host is not None
        seated = seat in host.bots
        if not seated:  # a person's clock ran out: a player of the stand-ins' level
            host.seat_bot(seat, self._bot(self.stand_in_level), self.stand_in_level)
        try:
            _, action = await host.bot_choice(self.server.executor)
        except Exception as e:
            log.warning("table %s: the computer player at seat %d failed: %s", self.token, seat, e)
            action = host.view(seat).legal[0]
        finally:
            if not seated:
                host.unseat_bot(seat)
        async with self.lock:
            if version != self.info.version or self.host is not host or host.turn != seat:
                return True  # the table moved on meanwhile
            if self.server.draining:
                if self.server.shared:
                    await self._hand_on(seat, version, "bot" if seated else "move")
                return False
            try:
                await self._take(seat, action, bot=True, ref=None, number=0)
            except Refused as e:
                log.warning("table %s: seat %d's computer move refused: %s", self.token, seat, e)
        if self.server.shared and seated:
            await self.storage.clear_deadline(self.info.id, seat, "bot", version)
        return True

    # -- people coming and going ---------------------------------------------------------

    def seat_of(self, player: int | None) -> int | None:
        if player is None:
            return None
        return next((i for i, s in enumerate(self.info.seats) if s.player == player), None)

    async def attach(self, conn: Connection) -> None:
        """Count ``conn`` among the table's connections. The others are told only when
        what they see changed: a seat's person connected (none was), or back from a
        stand-in; a spectator, or a second tab of a seat, changes nothing they see (the
        new connection's own writer sends it its snapshot)."""
        self.touch()
        seat = conn.seat
        changed = seat is not None and not self.connected(seat)
        self.connections.append(conn)
        await self.share_presence()
        if seat is not None:
            if self.info.status == "playing" and changed:
                await self.storage.clear_deadlines(self.info.id, seat, "away")
            if seat in self.stand_ins:
                self.stand_ins.discard(seat)
                await self.keep_stand_ins()
                self._seat_bots()
                await self.set_clock()  # back at the seat: their clock runs again
                changed = True
        if changed:
            self.meta += 1
            await self.server.broadcaster.publish(self.token)

    async def detach(self, conn: Connection) -> None:
        """Forget ``conn``; the others are told when its seat has no connection left."""
        self.touch()
        if conn in self.connections:
            self.connections.remove(conn)
        await self.share_presence()
        seat = conn.seat
        if seat is None or self.connected(seat):
            return
        if self.info.status == "playing":
            await self.away(seat)
        self.meta += 1
        await self.server.broadcaster.publish(self.token)

    async def away(self, seat: int) -> None:
        """The person at ``seat`` has left: a computer player stands in after the grace."""
        due = datetime.now(UTC) + timedelta(seconds=self.settings.grace)
        await self.storage.set_deadline(self.info.id, seat, "away", due)

    async def grace_over(self, seat: int) -> None:
        if self.info.status != "playing" or self.connected(seat):
            return
        if self.info.seats[seat].player is None:
            return
        log.info("table %s: a computer player stands in at seat %d", self.token, seat)
        self.stand_ins.add(seat)
        await self.keep_stand_ins()
        self._seat_bots()
        self.meta += 1
        await self._after_action()

    async def keep_stand_ins(self) -> None:
        """Store which seats have a stand-in, so that a restart keeps them."""
        stored = await self.storage.merge_settings(
            self.info.id, {"stand_ins": sorted(self.stand_ins)}
        )
        self.info = replace(self.info, settings=stored.settings)  # only the settings changed

    def connected(self, seat: int) -> bool:
        """Whether the person at ``seat`` has the table open, here or at another server
        process."""
        return seat in self.elsewhere or any(c.seat == seat for c in self.connections)

    async def share_presence(self) -> None:
        """Shared with other processes: tell the database which seats have a connection
        here (when that changed), and wake the others to look."""
        if not self.server.shared:
            return
        here = {c.seat for c in self.connections if c.seat is not None}
        if here == self.present:
            return
        for seat in here - self.present:
            await self.storage.set_presence(self.server.process, self.info.id, seat, True)
        for seat in self.present - here:
            await self.storage.set_presence(self.server.process, self.info.id, seat, False)
        self.present = here
        await self.server.broadcaster.publish(self.token, "p")

    async def seats_changed(self) -> None:
        """The seats were changed in storage (someone sat down or left): show it."""
        self.touch()
        stored = await self.storage.get_table(self.info.id)
        # (the log's version stays this copy's: shared, another process may be ahead)
        self.info = replace(stored, version=self.info.version)
        self._seat_bots()
        for conn in self.connections:
            seat = self.seat_of(conn.player)
            if seat != conn.seat:
                conn.seat = seat
                conn.number = -1  # a snapshot, with the view of the seat it has now
        await self.share_presence()
        self.meta += 1
        await self.server.broadcaster.publish(self.token)
        await self.tell_family()

    async def tell_family(self) -> None:
        """The table's seats or status changed: tell the news of its family's members, if
        it is a family's table (:mod:`briscola.server.news`)."""
        if self.info.family is not None:
            await self.server.broadcaster.publish(family_key(self.info.family))

    # -- chat ----------------------------------------------------------------------------

    def cards_in_hands(self) -> bool:
        """Whether anyone holds cards: the match playing, not over, and a hand dealt (from
        the deal on, the auction, the call and any talk included). In a match the next hand
        is dealt with the last card of the one before; before the first deal and after the
        match nobody holds a card."""
        host = self.host
        if self.info.status != "playing" or host is None or host.over:
            return False
        return any(host.state.hands)

    async def say(self, player: int | None, text: str | None, phrase: str | None = None) -> None:
        """A line of chat from ``player``: free ``text``, or a friendly ``phrase`` (its id),
        as the table's ``chat`` setting lets them say it now."""
        chat = self.chat_setting
        if chat == "none":
            raise Refused("chat_off", "this table has no chat")
        if phrase is not None:
            if phrase not in PHRASES:
                raise Refused("bad_message", f"there is no phrase {phrase!r}")
            kept = PHRASE_MARK + phrase
        else:
            kept = clean_text(text or "", self.settings.chat_length)
            if chat == "phrases" and self.cards_in_hands():
                raise Refused(
                    "chat_phrases",
                    "once the cards are dealt, this table's chat takes only the friendly "
                    "phrases, so that nobody talks about their cards: send one of the "
                    "phrases, or write once the match is over",
                )
        self.touch()
        message = await self.storage.add_chat(self.info.id, player, kept)
        await self.server.learn_names([player])  # looked up again if it was forgotten
        self.chat_lines.append(self._chat_line(message.id, player, kept, message.at))
        await self.server.broadcaster.publish(self.token, "c")

    def _chat_line(self, mid: int, player: int | None, text: str, at: datetime) -> ChatLine:
        phrase = phrase_of(text)
        return ChatLine(
            version=0,  # each connection is sent it with its own stream's number
            id=mid,
            seat=self.seat_of(player),
            nickname=self.server.names.get(player) if player is not None else None,
            text=text if phrase is None else catalogue("en").say(f"chat.phrase.{phrase}"),
            phrase=phrase,
            at=at.isoformat(),
        )

    # -- what each connection is told ----------------------------------------------------

    def view_json(self, seat: int | None) -> dict[str, Any] | None:
        if self.host is None:
            return None
        return self.host.view(seat).to_json()

    def fairness(self) -> list[dict[str, Any]]:
        """Each hand's commitment, with the salt and the deal once the hand is over."""
        if self.deals is None or self.match is None:
            return []
        return self.deals.published(self.match)

    def table_out(self, player: int | None = None) -> TableOut:
        """The table as ``player`` sees it: its ``version`` is the number of their seat's
        stream (the spectators' when they sit nowhere)."""
        info = self.info
        names = self.computer_names()
        seats = []
        for i, s in enumerate(info.seats):
            if s.player is not None:
                seats.append(
                    SeatOut(
                        seat=i,
                        kind="person",
                        player=s.player,
                        nickname=self.server.names.get(s.player),
                        connected=self.connected(i),
                        stand_in=i in self.stand_ins,
                    )
                )
            elif s.level is not None:
                seats.append(SeatOut(seat=i, kind="bot", level=s.level, name=names[i]))
            else:
                seats.append(SeatOut(seat=i, kind="open"))
        you = None
        if player is not None:
            you = You(player=player, seat=self.seat_of(player), host=info.host == player)
        rematch = info.settings.get("rematch")
        return TableOut(
            token=info.token,
            invite=f"/t/{info.token}",
            game=info.game,
            name=find_game(info.game).name,
            rules=dict(self.rules.options),
            overrides=dict(info.rules),
            public=info.public,
            status=info.status,  # type: ignore[arg-type]
            host=info.host,
            seats=seats,
            version=self.number(self.seat_of(player)),
            clock=self.clock,
            clock_left=self.clock_left(),
            points=self.points_setting,
            chat=self.chat_setting,
            lang=self.lang_setting,
            hints=self.info.settings.get("hints") is True,
            stand_in=self.stand_in_level,
            hands=self.stored_hands,
            rematch=rematch if isinstance(rematch, str) else None,
            you=you,
        )

    def snapshot(self, conn: Connection) -> str:
        conn.number = self.number(conn.seat)
        conn.from_start = False
        conn.meta = self.meta
        return snapshot_frame(
            conn.number, self.table_out(conn.player), self.view_json(conn.seat), self.fairness()
        )

    def messages_for(self, conn: Connection) -> list[str]:
        """What ``conn`` has not been sent yet: the messages of its seat's stream it missed
        with its view (or a snapshot when they are no longer kept), the table's changes,
        the new chat lines, then its replies: each reply carries the number it was made at,
        so it comes after the view of that number (a client never sees a number before its
        view)."""
        if self.storing:
            return []  # told once the action is stored (its publish wakes every connection)
        replies, conn.outbox = conn.outbox, []
        out: list[str] = []
        seat = self.seat_of(conn.player)
        if conn.number < 0 or seat != conn.seat:
            conn.seat = seat
            out.append(self.snapshot(conn))
        else:
            if self.host is not None and (conn.number < self.number(seat) or conn.from_start):
                out.append(self.catch_up(conn))
            if conn.meta != self.meta:
                conn.meta = self.meta
                out.append(
                    TableChanged(version=conn.number, table=self.table_out(conn.player))
                    .model_dump_json()
                )  # fmt: skip
        if self.chat_lines and self.chat_lines[-1].id > conn.chat:  # (ids in order)
            for line in self.chat_lines:
                if line.id > conn.chat:
                    conn.chat = line.id
                    copy = line.model_copy(update={"version": conn.number})
                    out.append(copy.model_dump_json())
        return out + replies

    def catch_up(self, conn: Connection) -> str:
        """An update of the messages of ``conn``'s stream after the last it was sent (from 0
        asked by the client: the match's start first), with its view; a snapshot when they
        are not all kept."""
        assert self.host is not None
        since = conn.number
        messages = self.host.messages(conn.seat, since)
        if messages and since == 0 and not conn.from_start:
            messages = [m for m in messages if m.number]  # it was sent the start's snapshot
        if not messages:
            return self.snapshot(conn)
        conn.number = messages[-1].number
        conn.from_start = False
        events = [e for m in messages for e in m.events]
        view = self.host.view(conn.seat).to_json()
        return update_frame(conn.number, since, events, view)


__all__ = ["Connection", "LiveTable", "Refused", "Server", "check_level", "clean_text"]
