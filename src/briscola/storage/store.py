"""The storage API: :class:`Storage` and the typed values it gives back."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import random
import secrets
import sqlite3
import stat
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from briscola.engine import Match
from briscola.engine.deal import Deal
from briscola.engine.errors import BriscolaError
from briscola.engine.game_record import rules_from_json
from briscola.engine.match import DealSource
from briscola.engine.rules import Rules
from briscola.storage import schema as s
from briscola.storage.accounts import Accounts
from briscola.storage.analyses import Analyses
from briscola.storage.families import Families
from briscola.storage.values import (
    ChatMessage,
    Deadline,
    FinishedMatch,
    Hand,
    LoggedAction,
    NewHand,
    News,
    NotFound,
    Player,
    Seat,
    SeatTaken,
    StaleVersion,
    StorageError,
    TableInfo,
    WrongStatus,
)

log = logging.getLogger("briscola.storage")
MIGRATIONS = Path(__file__).parent / "migrations"
WRITE = "briscola_write"
"""The execution option of a write transaction (SQLite: BEGIN IMMEDIATE)."""
STATUSES = ("waiting", "playing", "finished")
BUSY_TIMEOUT = 30.0
"""SQLite: how many seconds a connection waits for another connection's lock (its busy
timeout, on every connection) before its statement fails with "database is locked"."""
PATIENCE = 60.0
"""SQLite: how many seconds :meth:`Storage.open` keeps trying its steps that need the
write lock (the write-ahead log, the migrations) while another process holds it."""
T = TypeVar("T")


POOL = 20
"""The connections to PostgreSQL a server process keeps open."""

OVERFLOW = 10
"""How many more it opens when all of those are busy: a process holds POOL + OVERFLOW
connections at most, so PostgreSQL's ``max_connections`` (100 by default) serves three
processes, and more with a larger setting (docs/deploy.md)."""


def _now() -> datetime:
    return datetime.now(UTC)


def match_start(match: Match) -> dict[str, Any]:
    """What :meth:`Storage.start_table` keeps of a match besides its hands: the match
    record's ``dealer``, ``seating`` and (under ``partners=drawn``) ``draw``."""
    record = match.to_record()
    return {k: record[k] for k in ("dealer", "seating", "draw") if k in record}


def dealt_hands(match: Match, after: int = 0) -> list[NewHand]:
    """The hands ``match`` has dealt after hand number ``after``, to store (no commitment:
    a fair-shuffle deal source adds its own)."""
    hands = match.record().hands
    return [NewHand(i + 1, h.deal.to_json()) for i, h in enumerate(hands) if i + 1 > after]


AUTOCOMMIT = {"isolation_level": "AUTOCOMMIT"}
"""How PostgreSQL's reads run, and the appends that are one statement: each statement on
its own, without the BEGIN and the ROLLBACK or COMMIT that would cost two more round trips
(a third of an append's CPU time alone). A read is no less consistent for it: at
PostgreSQL's default isolation, READ COMMITTED, each statement of a transaction sees what
was committed when it began, as each statement on its own does; and one statement is
atomic by itself."""


class Storage(Accounts, Families, Analyses):
    """The game server's durable state on SQLite or PostgreSQL, through SQLAlchemy's
    asyncio engine. Open it with :meth:`open`, close it with :meth:`close`."""

    def __init__(self, engine: AsyncEngine, clock: Callable[[], datetime] = _now) -> None:
        self.engine = engine
        self.clock = clock
        self._sqlite = engine.dialect.name == "sqlite"
        self._writer = engine.execution_options(**{WRITE: True}) if self._sqlite else engine
        self._autocommit = engine if self._sqlite else engine.execution_options(**AUTOCOMMIT)
        """What reads, and a batch of appends that deals no hand: on PostgreSQL, statements
        each on its own, without a transaction around them (see :data:`AUTOCOMMIT`)."""
        self._write_lock = asyncio.Lock()
        self._sync: sa.Engine | None = None
        """SQLite in a file: a synchronous engine on the same database for the log's
        appends, run in one worker thread of its own (:meth:`append_action`)."""
        self._thread: ThreadPoolExecutor | None = None
        self._checkpoints: Checkpointer | None = None
        self._lock: int | None = None
        """The shared lock on the SQLite database, held while open (:func:`open_lock`)."""
        if self._sqlite and engine.url.database not in (None, "", ":memory:"):
            sync = sa.create_engine(
                engine.url.set(drivername="sqlite+pysqlite"),
                connect_args={"timeout": BUSY_TIMEOUT, "check_same_thread": False},
            )
            _sqlite_transactions(sync)
            self._sync = sync.execution_options(**{WRITE: True})
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="briscola-sqlite")
            self._checkpoints = Checkpointer(str(engine.url.database))
            self._checkpoints.start()
        self._appends: list[tuple[tuple[Any, ...], asyncio.Future[int]]] = []
        self._appender: asyncio.Task[None] | None = None

    @contextlib.asynccontextmanager
    async def _begin(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction. On SQLite this process's writers take turns here, each
        beginning with BEGIN IMMEDIATE (:func:`_sqlite_transactions`): one that waited
        for SQLite's own lock instead would sleep in its busy handler, milliseconds at a
        time, while the lock was long free. PostgreSQL's writers of different tables run
        side by side."""
        if not self._sqlite:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self._write_lock, self._writer.begin() as conn:
            yield conn

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    async def open(
        cls, url: str, *, clock: Callable[[], datetime] = _now, patience: float = PATIENCE
    ) -> Storage:
        """Connect to the database at ``url`` (``sqlite+aiosqlite:///DIR/briscola.db``,
        ``postgresql+asyncpg://user@host/db``) and create or upgrade its schema to the
        newest migration; opening an up-to-date database again changes nothing.

        Several processes (servers, a migration) may open one database at once. On
        SQLite the steps that need the write lock (turning a new database to the
        write-ahead log, the migrations) are tried again while another process holds it,
        for up to ``patience`` seconds; then :class:`StorageError` says so. On
        PostgreSQL the migrations of two processes take turns.

        A SQLite file's storage holds a shared lock on it until closed (:func:`open_lock`),
        which ``briscola restore`` checks; it raises :class:`StorageError` while a restore
        holds that lock."""
        deadline = time.monotonic() + patience
        database: str | None = None
        lock: int | None = None
        if url.startswith("sqlite"):
            database = sa.make_url(url).database
            _check_sqlite_file(database)
            if database not in (None, "", ":memory:"):
                path = str(database)
                lock = _shared_lock(Path(path))
                try:
                    await _when_unlocked(
                        lambda: asyncio.to_thread(_use_wal, path),
                        path,
                        "turning it to the write-ahead log",
                        patience,
                        deadline,
                    )
                except BaseException:
                    os.close(lock)
                    raise
            engine = create_async_engine(url, connect_args={"timeout": BUSY_TIMEOUT})
            _sqlite_transactions(engine.sync_engine)
        elif url.startswith("postgresql"):
            # No ping before each use (a round trip a transaction): a connection the
            # database dropped fails its one transaction, and the pool then makes new ones.
            # POOL connections are kept open, and up to OVERFLOW more opened at a busy
            # moment (each a backend process PostgreSQL forks, closed again once used).
            engine = create_async_engine(url, pool_size=POOL, max_overflow=OVERFLOW)
            sa.event.listen(engine.sync_engine, "handle_error", _drop_broken_asyncpg)
        else:
            raise StorageError(
                f"storage: unsupported database URL {url.split(':', 1)[0]!r}: use "
                "sqlite+aiosqlite:///DIR/briscola.db or postgresql+asyncpg://..."
            )
        try:
            if engine.dialect.name == "sqlite":
                await _when_unlocked(
                    lambda: _migrate(engine), str(database), "migrating it", patience, deadline
                )
            else:
                await _migrate(engine)
            store = cls(engine, clock)
        except BaseException:
            await engine.dispose()
            if lock is not None:
                os.close(lock)
            raise
        store._lock = lock
        return store

    async def close(self) -> None:
        if self._checkpoints is not None:
            self._checkpoints.stop()
        await self.engine.dispose()
        if self._sync is not None and self._thread is not None:
            self._thread.submit(self._sync.engine.dispose).result()
            self._thread.shutdown()
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    async def ping(self) -> None:
        """Ask the database the cheapest question (``SELECT 1``) on a connection of the
        pool: it returns when the database answers, and raises what the driver raised
        when it cannot be reached (a caller bounds how long it waits)."""
        async with self._autocommit.connect() as conn:
            await conn.execute(sa.text("SELECT 1"))

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

    # -- tables ----------------------------------------------------------------------------

    async def create_table(
        self,
        game: str,
        rules: dict[str, Any],
        seats: Sequence[Seat],
        *,
        host: int | None,
        public: bool,
        settings: dict[str, Any] | None = None,
        family: int | None = None,
    ) -> TableInfo:
        """A new table, waiting for players, with a fresh invite token. ``rules`` are the
        house rules (checked by the engine, stored as the overrides of the defaults); there
        is one seat for each of the game's seats; ``settings`` are kept as given; a
        ``family``'s table is listed, and counted, as that family's."""
        parsed = _parsed_rules(game, rules, seats)
        async with self._begin() as conn:
            tid = await _insert_table(
                conn, parsed, seats, host, public, settings, self.clock(), family
            )
            return await _table(conn, tid)

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
            old = await _table(conn, table_id)  # (NotFound when there is none)
            made = old.settings.get("rematch")
            if isinstance(made, str):
                q = sa.select(s.tables.c.id).where(s.tables.c.token == made)
                return await _table(conn, (await conn.execute(q)).scalar_one())
            parsed = _parsed_rules(old.game, old.rules, old.seats)
            now = self.clock()
            tid = await _insert_table(
                conn, parsed, old.seats, old.host, old.public, settings, now, old.family
            )
            new = await _table(conn, tid)
            await conn.execute(
                s.tables.update()
                .where(s.tables.c.id == table_id)
                .values(settings={**old.settings, "rematch": new.token}, updated=now)
            )
            return new

    async def get_table(self, table_id: int) -> TableInfo:
        async with self._autocommit.connect() as conn:
            return await _table(conn, table_id)

    async def table_by_token(self, token: str) -> TableInfo:
        """The table whose invite token is ``token``."""
        async with self._autocommit.connect() as conn:
            tid = (
                await conn.execute(sa.select(s.tables.c.id).where(s.tables.c.token == token))
            ).scalar()
            if tid is None:
                raise NotFound("there is no table with that invite: check the link")
            return await _table(conn, tid)

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
            info = await _table(conn, table_id)
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
            info = await _table(conn, table_id)
            _check_seat(info, seat)
            await conn.execute(
                s.seats.update()
                .where(s.seats.c.table_id == table_id, s.seats.c.seat == seat)
                .values(player=occupant.player, level=occupant.level)
            )
            return await _touch(conn, table_id, self.clock())

    async def set_public(self, table_id: int, public: bool) -> TableInfo:
        async with self._begin() as conn:
            await _table(conn, table_id)
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
            await _table(conn, table_id)
            await conn.execute(
                s.tables.update().where(s.tables.c.id == table_id).values(settings=settings)
            )
            return await _touch(conn, table_id, self.clock())

    # -- the match: start, the log, the hands ------------------------------------------------

    async def start_table(
        self,
        table_id: int,
        start: dict[str, Any],
        hands: Sequence[NewHand],
        *,
        seats: Sequence[Seat] | None = None,
    ) -> TableInfo:
        """A waiting table starts playing: keep its match's start (:func:`match_start`)
        and the hands dealt so far (:func:`dealt_hands`: the first, after any thrown in);
        ``seats``, when given, are who sits where from now on (the partner draw's seating),
        stored in the same transaction."""
        async with self._begin() as conn:
            done = await conn.execute(
                s.tables.update()
                .where(s.tables.c.id == table_id, s.tables.c.status == "waiting")
                .values(status="playing", start=start, updated=self.clock())
            )
            if done.rowcount != 1:
                info = await _table(conn, table_id)
                raise WrongStatus(f"table {table_id} is {info.status}: it cannot start again")
            if seats is not None:
                info = await _table(conn, table_id)
                if len(seats) != len(info.seats):
                    raise StorageError(
                        f"start_table: table {table_id} has {len(info.seats)} seats, "
                        f"got {len(seats)}"
                    )
                for i, seat in enumerate(seats):
                    await conn.execute(
                        s.seats.update()
                        .where(s.seats.c.table_id == table_id, s.seats.c.seat == i)
                        .values(player=seat.player, level=seat.level)
                    )
            await _add_hands(conn, table_id, 0, hands, self.clock())
            return await _table(conn, table_id)

    async def append_action(
        self,
        table_id: int,
        version: int,
        action: dict[str, Any],
        *,
        dealt: Sequence[NewHand] = (),
    ) -> LoggedAction:
        """Append ``action`` (as the hand's log keeps it: ``Applied.action.to_json()``) to
        the table's log at ``version``, which must be the next one (the first is 1), with
        the hands that it made the match deal, all in one transaction. The action belongs
        to the last hand stored before it.

        :raises StaleVersion: when ``version`` is taken (another writer won) or not next.
        :raises WrongStatus: when the table is not playing.
        """
        now = self.clock()
        future = asyncio.get_running_loop().create_future()
        self._appends.append(((table_id, version, action, dealt, now), future))
        if self._appender is None or self._appender.done():
            self._appender = asyncio.create_task(self._append_batches())
        try:
            hand = await future
        except IntegrityError:
            async with self._autocommit.connect() as conn:
                current = (await _table(conn, table_id)).version
            raise StaleVersion(table_id, version, current) from None
        return LoggedAction(table_id, version, hand, action, now)

    async def _append_batches(self) -> None:
        """Store the appends waiting, all those that came in meanwhile at once, in one
        transaction, until none waits; then tell each its result (group commit). A busy
        server stores many tables' moves in one commit: on SQLite instead of queueing
        them one by one behind the worker thread's turns at the interpreter's lock, on
        PostgreSQL with one BEGIN and one COMMIT for them all."""
        while self._appends:
            batch, self._appends = self._appends, []
            try:
                results = await self._append_batch([args for args, _ in batch])
            except Exception as e:
                results = [e] * len(batch)
            for (_, future), result in zip(batch, results, strict=True):
                if future.done():
                    continue
                if isinstance(result, BaseException):
                    future.set_exception(result)
                else:
                    future.set_result(result)

    async def _append_batch(self, batch: list[tuple[Any, ...]]) -> list[int | Exception]:
        if self._sync is not None:
            async with self._write_lock:
                return await asyncio.get_running_loop().run_in_executor(
                    self._thread, self._append_sync, batch
                )
        if not self._sqlite and not any(dealt for _, _, _, dealt, _ in batch):
            return await self._append_alone_pg(batch)
        together = _append_all if self._sqlite else _append_all_pg
        try:
            async with self._begin() as conn:
                return await conn.run_sync(together, batch)
        except (StorageError, sa.exc.DBAPIError):
            pass  # one was refused (or a deadlock with another server): each again alone
        async with self._begin() as conn:
            return await conn.run_sync(_append_each, batch)

    async def _append_alone_pg(self, batch: list[tuple[Any, ...]]) -> list[int | Exception]:
        """PostgreSQL, a batch that deals no hand: its appends in one statement
        (:data:`_LOG_MANY`) outside any transaction; those it refused (a stale version, a
        table's second append of the batch) each again alone, in order, to learn why."""
        try:
            async with self._autocommit.connect() as conn:
                rows = (await conn.execute(_LOG_MANY, _log_many_params(batch))).all()
        except sa.exc.DBAPIError:
            rows = []  # (the statement stored none of them)
        stored = {(r.table_id, r.version): r.hand for r in rows}
        refused = [a for a in batch if (a[0], a[1]) not in stored]
        if refused:
            async with self._begin() as conn:
                again = iter(await conn.run_sync(_append_each, refused))
        return [stored[a[0], a[1]] if (a[0], a[1]) in stored else next(again) for a in batch]

    def _append_sync(self, batch: list[tuple[Any, ...]]) -> list[int | Exception]:
        """SQLite, in the worker thread: :func:`_append_all`, and when one append is
        refused :func:`_append_each`."""
        assert self._sync is not None
        try:
            with self._sync.begin() as conn:
                return _append_all(conn, batch)
        except (StorageError, IntegrityError):
            pass
        with self._sync.begin() as conn:
            return _append_each(conn, batch)

    async def actions_since(self, table_id: int, version: int = 0) -> list[LoggedAction]:
        """The logged actions after ``version``, in order (all of them from 0)."""
        async with self._autocommit.connect() as conn:
            await _table(conn, table_id)
            return await _actions(conn, table_id, version)

    async def hands(self, table_id: int, after: int = 0) -> list[Hand]:
        """The table's hands dealt so far (those numbered after ``after``), in order."""
        async with self._autocommit.connect() as conn:
            await _table(conn, table_id)
            return await _hands(conn, table_id, after)

    async def news(
        self,
        table_id: int,
        *,
        table: bool = True,
        log: tuple[int, int] | None = None,
        chat_after: int | None = None,
        presence: tuple[str, timedelta] | None = None,
    ) -> News:
        """What a server process following the table asks for, on one connection: the
        table's row (``table``), the hands and actions after ``log`` (hand number,
        version), the chat lines after ``chat_after``, and the seats present at other
        processes (``presence``: this process, and how recent a heartbeat counts). Each
        part not asked for is left empty (``None``). The row is read first, so that the
        actions read reach its version at least."""
        async with self._autocommit.connect() as conn:
            info = await _table(conn, table_id) if table else None
            hands: list[Hand] = []
            actions: list[LoggedAction] = []
            if log is not None:
                hands, actions = await _log_since(conn, table_id, *log)
            said = await _chat(conn, table_id, chat_after) if chat_after is not None else []
            elsewhere = None
            if presence is not None:
                elsewhere = await _present(conn, table_id, *presence, self.clock())
            return News(info, hands, actions, said, elsewhere)

    async def versions(self, table_ids: Sequence[int]) -> dict[int, int]:
        """The stored version of each of ``table_ids`` (those that exist), in one query:
        a server process following tables that others change looks for those it missed."""
        if not table_ids:
            return {}
        async with self._autocommit.connect() as conn:
            rows = await conn.execute(
                sa.select(s.tables.c.id, s.tables.c.version).where(s.tables.c.id.in_(table_ids))
            )
            return {r.id: r.version for r in rows}

    async def load_match(self, table_id: int, deals: DealSource | None = None) -> Match:
        """Rebuild the table's match from storage: a match record made of its start, its
        stored hands' deals and each hand's logged actions, replayed by
        :meth:`Match.from_record` (which checks every move). The next hands come from
        ``deals``; without it, dealing one raises :class:`StorageError`."""
        async with self._autocommit.connect() as conn:
            info = await _table(conn, table_id)
            hand_rows = (
                await conn.execute(
                    sa.select(s.hands.c.number, s.hands.c.deal)
                    .where(s.hands.c.table_id == table_id)
                    .order_by(s.hands.c.number)
                )
            ).all()
            action_rows = (
                await conn.execute(
                    sa.select(s.actions.c.hand, s.actions.c.action)
                    .where(s.actions.c.table_id == table_id)
                    .order_by(s.actions.c.version)
                )
            ).all()
        if info.start is None or not hand_rows:
            raise WrongStatus(f"table {table_id} is {info.status}: it has no match yet")
        moves: dict[int, list[Any]] = {}
        for r in action_rows:
            moves.setdefault(r.hand, []).append(r.action)
        record = {
            "game": info.game,
            "rules": info.rules,
            **info.start,
            "hands": [
                {
                    "game": info.game,
                    "rules": info.rules,
                    "deal": h.deal,
                    "moves": moves.get(h.number, []),
                }
                for h in hand_rows
            ],
        }
        try:
            return Match.from_record(record, deals=deals or _no_deal(table_id))
        except BriscolaError as e:
            raise StorageError(f"table {table_id}: the stored match does not replay: {e}") from e

    async def finish_table(
        self, table_id: int, record: dict[str, Any], *, left: dict[int, int] | None = None
    ) -> FinishedMatch:
        """The table's match is over: keep its match record (``Match.to_record()``) with the
        people who played it, and mark the table finished. They are the people seated at
        the end and those of ``left`` (seat to player id: someone who left mid-match, whose
        seat a computer player took over), each at most once."""
        now = self.clock()
        async with self._begin() as conn:
            done = await conn.execute(
                s.tables.update()
                .where(s.tables.c.id == table_id, s.tables.c.status == "playing")
                .values(status="finished", updated=now)
            )
            info = await _table(conn, table_id)
            if done.rowcount != 1:
                raise WrongStatus(f"table {table_id} is {info.status}: only a match in play ends")
            people = {
                i: seat.player for i, seat in enumerate(info.seats) if seat.player is not None
            }
            for i, player in sorted((left or {}).items()):
                if 0 <= i < len(info.seats) and i not in people and player not in people.values():
                    people[i] = player
            await conn.execute(
                s.finished.insert().values(table_id=table_id, game=info.game, record=record, at=now)
            )
            if people:
                await conn.execute(
                    s.finished_players.insert(),
                    [{"table_id": table_id, "seat": k, "player": p} for k, p in people.items()],
                )
        return FinishedMatch(table_id, info.game, record, people, now)

    async def finished_match(self, table_id: int) -> FinishedMatch:
        async with self._autocommit.connect() as conn:
            found = await _finished(
                conn, sa.select(s.finished).where(s.finished.c.table_id == table_id)
            )
        if not found:
            raise NotFound(f"table {table_id} has no finished match")
        return found[0]

    async def history(self, player: int, limit: int = 50) -> list[FinishedMatch]:
        """The finished matches ``player`` played in, the newest first."""
        q = (
            sa.select(s.finished)
            .join(s.finished_players, s.finished_players.c.table_id == s.finished.c.table_id)
            .where(s.finished_players.c.player == player)
            .order_by(s.finished.c.at.desc(), s.finished.c.table_id.desc())
            .limit(limit)
        )
        async with self._autocommit.connect() as conn:
            return await _finished(conn, q)

    async def family_matches(self, family: int, limit: int = 100) -> list[FinishedMatch]:
        """The finished matches of the family's tables, the newest first."""
        q = (
            sa.select(s.finished)
            .join(s.tables, s.tables.c.id == s.finished.c.table_id)
            .where(s.tables.c.family == family)
            .order_by(s.finished.c.at.desc(), s.finished.c.table_id.desc())
            .limit(limit)
        )
        async with self._autocommit.connect() as conn:
            return await _finished(conn, q)

    # -- deadlines -------------------------------------------------------------------------

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

    # -- presence across server processes --------------------------------------------------

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
            return await _present(conn, table_id, process, alive, self.clock())

    async def forget_process(self, process: str) -> None:
        """``process`` stops: its row and its seats' presence go."""
        async with self._begin() as conn:
            await conn.execute(s.presence.delete().where(s.presence.c.process == process))
            await conn.execute(
                s.server_processes.delete().where(s.server_processes.c.id == process)
            )

    # -- chat ------------------------------------------------------------------------------

    async def add_chat(self, table_id: int, player: int | None, text: str) -> ChatMessage:
        """Keep a chat message as given (the server escapes and limits it)."""
        now = self.clock()
        async with self._begin() as conn:
            await _table(conn, table_id)
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
            return await _chat(conn, table_id, after, limit, newest=newest)


# -- helpers ---------------------------------------------------------------------------------


async def _migrate(engine: AsyncEngine) -> None:
    """Create or upgrade the schema to the newest migration, in one write transaction
    (on SQLite: BEGIN IMMEDIATE, waiting up to the busy timeout for the write lock)."""
    async with engine.execution_options(**{WRITE: True}).begin() as conn:
        if engine.dialect.name == "postgresql":
            # Two servers starting at once migrate one after the other.
            await conn.execute(sa.text("SELECT pg_advisory_xact_lock(7291403)"))
        await conn.run_sync(_upgrade)


def _upgrade(connection: sa.Connection, revision: str = "head") -> None:
    """Run the migrations on ``connection`` up to ``revision`` (the newest by default)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def _locked(error: BaseException) -> bool:
    """Whether ``error`` (the driver's, or SQLAlchemy's around it) is SQLite's "database is
    locked": another connection holds the lock the statement needed."""
    if isinstance(error, sa.exc.DBAPIError):
        error = error.orig  # type: ignore[assignment]
    if not isinstance(error, sqlite3.OperationalError):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "database is locked" in str(error)


async def _when_unlocked(
    step: Callable[[], Awaitable[T]], path: str, what: str, patience: float, deadline: float
) -> T:
    """Run ``step``, and again while it fails on SQLite's "database is locked" (another
    process holds the write lock), pausing longer each time (10 ms doubling to 1 s, give
    or take a random half so that processes waiting together do not retry in step),
    until ``deadline`` (:func:`time.monotonic`); then :class:`StorageError`."""
    pause = 0.01
    while True:
        try:
            return await step()
        except (sqlite3.OperationalError, sa.exc.OperationalError) as e:
            if not _locked(e):
                raise
            wait = pause * random.uniform(0.5, 1.5)
            if time.monotonic() + wait > deadline:
                raise StorageError(
                    f"storage: the database {path} stayed locked for more than {patience:g} s "
                    f"while {what}: another program holds its write lock (another server "
                    "starting, a migration, an sqlite3 shell): let it finish or stop it, "
                    "then start again"
                ) from e
            log.info("storage: the database %s is locked (%s): trying again", path, what)
        await asyncio.sleep(wait)
        pause = min(pause * 2, 1.0)


def _shared_lock(database: Path) -> int:
    """The shared lock of :meth:`Storage.open` on the SQLite database (:func:`open_lock`),
    or :class:`StorageError` while a restore holds it."""
    try:
        return open_lock(database, exclusive=False)
    except BlockingIOError:
        raise StorageError(
            f"storage: the database {database} is being restored (briscola restore holds "
            f"{lock_path(database)}): start again once it is done"
        ) from None
    except OSError as e:
        raise StorageError(f"storage: cannot open {lock_path(database)}: {e.strerror}") from None


def _sqlite_connect(path: str) -> sqlite3.Connection:
    """A plain connection to the SQLite database at ``path`` (no transaction handling of
    the driver's), which waits up to :data:`BUSY_TIMEOUT` for another's lock."""
    connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None)
    connection.execute(f"PRAGMA busy_timeout = {round(BUSY_TIMEOUT * 1000)}")
    return connection


def _use_wal(path: str) -> None:
    """Turn the SQLite database at ``path`` to the write-ahead log, once for all its
    connections (the mode is kept in the file; on a database in it already this changes
    nothing). The change needs the write lock and, unlike other statements, does not wait
    for it (SQLite's busy timeout does not apply: two connections changing the mode of a
    new database at once, one fails): it raises "database is locked" while another
    connection writes, and :meth:`Storage.open` tries it again (:func:`_when_unlocked`)."""
    connection = _sqlite_connect(path)
    try:
        mode = connection.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    finally:
        connection.close()
    if mode != "wal":
        log.warning(
            "storage: the database %s cannot use the write-ahead log (its file system does "
            "not allow it: journal mode %s): readers and writers wait for each other",
            path,
            mode,
        )


def _drop_broken_asyncpg(context: sa.engine.ExceptionContext) -> None:
    """A connection on which asyncpg raised ``InternalClientError`` ("cannot switch to
    state ...; another operation is in progress": the server ended its session in the
    middle of a transaction, as PostgreSQL does when it restarts) is broken, though not
    closed: it counts as a disconnect, so that the pool drops it instead of handing it
    out again to fail each later transaction (sqlalchemy/sqlalchemy#13241)."""
    if type(context.original_exception).__name__ == "InternalClientError":
        context.is_disconnect = True


def _sqlite_transactions(engine: sa.Engine) -> None:
    """SQLite: every write transaction (the execution option :data:`WRITE`) begins with
    BEGIN IMMEDIATE, taking the write lock at once (waiting up to the timeout for it), so
    that two writers queue instead of failing on a lock upgrade; a read begins with a
    plain BEGIN and never waits, on its snapshot of the write-ahead log. Foreign keys on.
    (SQLAlchemy's documented recipe: the driver's own transaction handling turned off.)
    Each connection waits up to :data:`BUSY_TIMEOUT` for another's lock. The write-ahead
    log itself is set once, in the database file, by :meth:`Storage.open` (:func:`_use_wal`):
    setting it on each new connection would fail, not wait, when another connection of a
    new database writes.

    ``synchronous = NORMAL`` with the write-ahead log: a commit is written to the log
    before it returns, but the log is synced to the disk at checkpoints, not at every
    commit. A committed action survives the server process killed (SIGKILL: the data is
    in the operating system's cache); a power loss or an operating system crash may lose
    the last commits (never corrupting the database). ``FULL``, SQLite's default, syncs at
    each commit, which costs a disk flush for every move."""

    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {round(BUSY_TIMEOUT * 1000)}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA wal_autocheckpoint = 0")  # the Checkpointer's work
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _begin(conn: sa.Connection) -> None:
        write = conn.get_execution_options().get(WRITE, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


class Checkpointer(threading.Thread):
    """SQLite: copies the write-ahead log back into the database file every ``every``
    seconds (a passive checkpoint, on a connection of its own, in this thread), so that no
    commit does it. Left to SQLite, the commit that takes the log past 1,000 pages runs
    the checkpoint and syncs the database file before it returns, and every writer of the
    server waits behind it (stalls of 100 to 400 ms under load: benchmarks/README.md, "The
    game server under load"). A passive checkpoint never waits for a reader or a writer."""

    def __init__(self, path: str, every: float = 1.0) -> None:
        super().__init__(name="briscola-sqlite-checkpoints", daemon=True)
        self.path = path
        self.every = every
        self._halt = threading.Event()

    def run(self) -> None:
        connection = _sqlite_connect(self.path)
        try:
            while not self._halt.wait(self.every):
                try:
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error as e:  # busy now: the next turn checkpoints
                    log.warning("storage: the checkpoint of %s failed: %s", self.path, e)
        finally:
            connection.close()

    def stop(self) -> None:
        self._halt.set()
        self.join(5)


def _check_sqlite_file(database: str | None) -> None:
    """The SQLite file can be made or written: its folder exists and is writable (the
    driver's own failure comes from a worker thread, and says less); then it is made
    private (:func:`_private_sqlite_file`)."""
    if database in (None, "", ":memory:"):
        return
    path = Path(database)
    if not path.parent.is_dir():
        raise StorageError(f"storage: there is no folder {path.parent} for the database {path}")
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise StorageError(f"storage: the database {path} cannot be read and written")
    if not path.exists() and not os.access(path.parent, os.W_OK):
        raise StorageError(f"storage: the folder {path.parent} is not writable: no database there")
    _private_sqlite_file(path)


LOCK_SUFFIX = ".lock"
"""The lock file beside a SQLite database: ``briscola.db.lock`` (:func:`open_lock`)."""


def lock_path(database: Path) -> Path:
    """The lock file of the SQLite database ``database``."""
    return database.with_name(database.name + LOCK_SUFFIX)


def open_lock(database: Path, *, exclusive: bool) -> int:
    """Take the lock of the SQLite database ``database``: an :func:`fcntl.flock` on the
    file beside it (:func:`lock_path`, made private when missing), shared by each
    :class:`Storage` using the database, exclusive for a restore
    (:func:`briscola.storage.backup.restore`). It does not wait: :class:`BlockingIOError`
    when the other kind is held. The descriptor returned holds it; closing it (or the
    process ending, however it ends) releases it."""
    fd = os.open(lock_path(database), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except BaseException:
        os.close(fd)
        raise
    return fd


SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")
"""The files SQLite keeps beside a database: its write-ahead log and that log's index (a
rollback journal, in another journal mode)."""


def _private_sqlite_file(path: Path) -> None:
    """The SQLite database at ``path`` is readable and writable by its owner alone (0600),
    and so are the files beside it (:data:`SQLITE_COMPANIONS`): it holds the deals of the
    hands in play, which are secrets. SQLite would make a new database with the process's
    umask (0644 in a normal shell) and its -wal and -shm files with the database's mode,
    so a new database is made here first, empty and 0600. Files open to other users are
    tightened to their owner's bits, with one warning naming them."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass  # an existing database (or another process made it just now)
    else:
        try:
            os.fchmod(fd, 0o600)  # whatever the umask
        finally:
            os.close(fd)
    tightened = []
    for each in (path, *(path.with_name(path.name + end) for end in SQLITE_COMPANIONS)):
        try:
            mode = stat.S_IMODE(each.stat().st_mode)
        except FileNotFoundError:
            continue
        if not mode & 0o077:
            continue
        try:
            os.chmod(each, mode & ~0o077)
        except OSError as e:
            raise StorageError(
                f"storage: the database file {each} is open to other users (mode {mode:04o}) "
                f"and cannot be made private: {e.strerror}: run the server as the file's "
                f"owner, or make it its owner's alone (chmod 600 {each})"
            ) from None
        tightened.append(f"{each.name} (was {mode:04o})")
    if tightened:
        log.warning(
            "storage: %s in %s were open to other users: now readable and writable by "
            "their owner alone (0600)",
            ", ".join(tightened),
            path.parent,
        )


def _nickname(nickname: str) -> str:
    """``nickname`` without the spaces around it, which leaves 1 to 40 characters."""
    nickname = nickname.strip()
    if not 1 <= len(nickname) <= 40:
        raise StorageError(
            f"a nickname has 1 to 40 characters, got {len(nickname)}: choose another"
        )
    return nickname


def _status(status: str) -> str:
    if status not in STATUSES:
        raise StorageError(f"a table's status is one of {', '.join(STATUSES)}, got {status!r}")
    return status


def _check_seat(info: TableInfo, seat: int) -> None:
    if not 0 <= seat < len(info.seats):
        raise StorageError(
            f"table {info.id} has seats 0 to {len(info.seats) - 1}, there is no seat {seat}"
        )


async def _actions(conn: AsyncConnection, table_id: int, version: int) -> list[LoggedAction]:
    rows = await conn.execute(
        sa.select(s.actions)
        .where(s.actions.c.table_id == table_id, s.actions.c.version > version)
        .order_by(s.actions.c.version)
    )
    return [LoggedAction(r.table_id, r.version, r.hand, r.action, r.at) for r in rows]


async def _log_since(
    conn: AsyncConnection, table_id: int, after: int, version: int
) -> tuple[list[Hand], list[LoggedAction]]:
    """The hands after hand number ``after`` and the actions after ``version``, in one
    statement (:data:`_LOG_SINCE`): what a follower of the table reads after a move."""
    hands: list[Hand] = []
    actions: list[LoggedAction] = []
    rows = await conn.execute(
        _LOG_SINCE, {"table_id": table_id, "after": after, "version": version}
    )
    for r in rows:
        if r.version is None:
            hands.append(Hand(table_id, r.number, r.data, r.commitment, r.salt, r.at))
        else:
            actions.append(LoggedAction(table_id, r.version, r.number, r.data, r.at))
    return hands, actions


async def _hands(conn: AsyncConnection, table_id: int, after: int) -> list[Hand]:
    rows = await conn.execute(
        sa.select(s.hands)
        .where(s.hands.c.table_id == table_id, s.hands.c.number > after)
        .order_by(s.hands.c.number)
    )
    return [Hand(r.table_id, r.number, r.deal, r.commitment, r.salt, r.at) for r in rows]


async def _chat(
    conn: AsyncConnection, table_id: int, after: int, limit: int = 100, *, newest: bool = False
) -> list[ChatMessage]:
    order = s.chat.c.id.desc() if newest else s.chat.c.id
    rows = await conn.execute(
        sa.select(s.chat)
        .where(s.chat.c.table_id == table_id, s.chat.c.id > after)
        .order_by(order)
        .limit(limit)
    )
    found = [ChatMessage(r.id, r.table_id, r.player, r.text, r.at) for r in rows]
    return found[::-1] if newest else found


async def _present(
    conn: AsyncConnection, table_id: int, process: str, alive: timedelta, now: datetime
) -> set[int]:
    p, sp = s.presence, s.server_processes
    rows = await conn.execute(
        sa.select(p.c.seat)
        .join(sp, sp.c.id == p.c.process)
        .where(p.c.table_id == table_id, p.c.process != process, sp.c.seen >= now - alive)
    )
    return {r.seat for r in rows}


def _parsed_rules(game: str, rules: dict[str, Any], seats: Sequence[Seat]) -> Rules:
    """A new table's game and house rules, checked against its ``seats``."""
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


async def _table(conn: AsyncConnection, table_id: int) -> TableInfo:
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
    return await _table(conn, table_id)


def _hand_rows(
    table_id: int, last: int, hands: Sequence[NewHand], now: datetime
) -> list[dict[str, Any]]:
    """The rows of ``hands``, which must follow hand number ``last``."""
    for i, hand in enumerate(hands):
        if hand.number != last + 1 + i:
            raise StorageError(
                f"table {table_id}: the next hand is number {last + 1 + i}, got {hand.number}"
            )
    return [
        {
            "table_id": table_id,
            "number": h.number,
            "deal": h.deal,
            "commitment": h.commitment,
            "salt": h.salt,
            "at": now,
        }
        for h in hands
    ]


async def _add_hands(
    conn: AsyncConnection, table_id: int, last: int, hands: Sequence[NewHand], now: datetime
) -> None:
    if rows := _hand_rows(table_id, last, hands, now):
        await conn.execute(s.hands.insert(), rows)


_LOG_SINCE = sa.union_all(
    sa.select(
        sa.null().label("version"),
        s.hands.c.number,
        s.hands.c.deal.label("data"),
        s.hands.c.commitment,
        s.hands.c.salt,
        s.hands.c.at,
    ).where(
        s.hands.c.table_id == sa.bindparam("table_id"), s.hands.c.number > sa.bindparam("after")
    ),
    sa.select(
        s.actions.c.version,
        s.actions.c.hand,
        s.actions.c.action,
        sa.null(),
        sa.null(),
        s.actions.c.at,
    ).where(
        s.actions.c.table_id == sa.bindparam("table_id"),
        s.actions.c.version > sa.bindparam("version"),
    ),
).order_by(sa.literal_column("version").nulls_first(), sa.literal_column("number"))
"""The hands (``version`` null; ``number``: the hand's) and then the actions (``number``:
their hand) of a table after a hand number and a version: :func:`_log_since`, built once
(a statement used again skips SQLAlchemy's construction and its cache key)."""

# The append's statements, built once: a statement used again skips SQLAlchemy's
# construction and its cache-key computation (a third of an append's CPU time).
_BUMP = (
    s.tables.update()
    .where(
        s.tables.c.id == sa.bindparam("table_id"),
        s.tables.c.version == sa.bindparam("previous"),
        s.tables.c.status == "playing",
    )
    .values(version=sa.bindparam("version"), updated=sa.bindparam("now", type_=s.UTCDateTime()))
)
_STATUS = sa.select(s.tables.c.status, s.tables.c.version).where(
    s.tables.c.id == sa.bindparam("table_id")
)
_LOG = (
    s.actions.insert()
    .from_select(
        ["table_id", "version", "hand", "action", "at"],
        sa.select(
            sa.bindparam("table_id", type_=sa.Integer),
            sa.bindparam("version", type_=sa.Integer),
            sa.func.max(s.hands.c.number),
            sa.bindparam("action", type_=s.JSON),
            sa.bindparam("now", type_=s.UTCDateTime()),
        ).where(s.hands.c.table_id == sa.bindparam("table_id")),
    )
    .returning(s.actions.c.hand)
)
_HANDS = s.hands.insert()


def _append(
    conn: sa.Connection,
    table_id: int,
    version: int,
    action: dict[str, Any],
    dealt: Sequence[NewHand],
    now: datetime,
) -> int:
    """:meth:`Storage.append_action` in its transaction; the action's hand number."""
    # The conditional update takes the table's row first (one writer at a time); the
    # log's primary key (table_id, version) refuses a second write anyway.
    done = conn.execute(
        _BUMP, {"table_id": table_id, "previous": version - 1, "version": version, "now": now}
    )
    if done.rowcount != 1:
        row = conn.execute(_STATUS, {"table_id": table_id}).first()
        if row is None:
            raise NotFound(f"there is no table {table_id}")
        if row.status != "playing":
            raise WrongStatus(f"table {table_id} is {row.status}: no action is stored there")
        raise StaleVersion(table_id, version, row.version)
    # The action belongs to the last hand stored: one statement finds it and inserts.
    hand: int = conn.execute(
        _LOG, {"table_id": table_id, "version": version, "action": action, "now": now}
    ).scalar_one()
    if rows := _hand_rows(table_id, hand, dealt, now):
        conn.execute(_HANDS, rows)
    return hand


def _append_all(conn: sa.Connection, batch: list[tuple[Any, ...]]) -> list[int | Exception]:
    """Every append of ``batch`` in ``conn``'s transaction; the first refused raises (a
    stale version: rare, each table has one writer)."""
    return [_append(conn, *args) for args in batch]


# PostgreSQL: a batch's appends in one statement, one round trip for them all (two an
# append otherwise, each waiting for a turn of the database's process on a busy machine).
_LOG_MANY = sa.text(
    """
    WITH input AS (
        SELECT * FROM unnest(:table_ids, :versions, :actions, :ats)
            AS i(table_id, version, action, at)
    ), bumped AS (
        UPDATE tables AS t SET version = i.version, updated = i.at
        FROM input AS i
        WHERE t.id = i.table_id AND t.version = i.version - 1 AND t.status = 'playing'
        RETURNING i.table_id, i.version, i.action, i.at
    )
    INSERT INTO actions (table_id, version, hand, action, at)
    SELECT b.table_id, b.version,
           (SELECT max(h.number) FROM hands AS h WHERE h.table_id = b.table_id),
           CAST(b.action AS jsonb), b.at
    FROM bumped AS b
    RETURNING table_id, version, hand
    """
).bindparams(
    sa.bindparam("table_ids", type_=postgresql.ARRAY(sa.Integer)),
    sa.bindparam("versions", type_=postgresql.ARRAY(sa.Integer)),
    sa.bindparam("actions", type_=postgresql.ARRAY(sa.Text)),
    sa.bindparam("ats", type_=postgresql.ARRAY(sa.DateTime(timezone=True))),
)


def _log_many_params(batch: list[tuple[Any, ...]]) -> dict[str, list[Any]]:
    """:data:`_LOG_MANY`'s parameters for the appends of ``batch``."""
    return {
        "table_ids": [a[0] for a in batch],
        "versions": [a[1] for a in batch],
        "actions": [json.dumps(a[2]) for a in batch],
        "ats": [a[4].astimezone(UTC) for a in batch],
    }


class _NotAll(StorageError):
    """Some append of a batch stored in one statement was refused (its error unknown)."""


def _append_all_pg(conn: sa.Connection, batch: list[tuple[Any, ...]]) -> list[int | Exception]:
    """:func:`_append_all` in one statement (:data:`_LOG_MANY`), then the hands dealt;
    raises :class:`_NotAll` when an append was refused (or a table came twice), so that
    the caller rolls back and stores each alone to learn which."""
    rows = conn.execute(_LOG_MANY, _log_many_params(batch)).all()
    hands = {table_id: hand for table_id, _, hand in rows}
    if len(rows) != len(batch) or len(hands) != len(batch):
        raise _NotAll("an append of the batch was refused")
    out: list[int | Exception] = []
    for table_id, _version, _action, dealt, now in batch:
        hand = hands[table_id]
        if new := _hand_rows(table_id, hand, dealt, now):
            conn.execute(_HANDS, new)
        out.append(hand)
    return out


def _append_each(conn: sa.Connection, batch: list[tuple[Any, ...]]) -> list[int | Exception]:
    """Each append of ``batch`` in a savepoint of ``conn``'s transaction: one refused
    leaves the others stored, and its error is its result."""
    out: list[int | Exception] = []
    for args in batch:
        try:
            with conn.begin_nested():
                out.append(_append(conn, *args))
        except (StorageError, IntegrityError) as e:
            out.append(e)
    return out


async def _finished(conn: AsyncConnection, q: sa.Select[Any]) -> list[FinishedMatch]:
    out = []
    for r in (await conn.execute(q)).all():
        people = await conn.execute(
            sa.select(s.finished_players.c.seat, s.finished_players.c.player)
            .where(s.finished_players.c.table_id == r.table_id)
            .order_by(s.finished_players.c.seat)
        )
        out.append(
            FinishedMatch(
                r.table_id, r.game, r.record, {seat: player for seat, player in people}, r.at
            )
        )
    return out


def _no_deal(table_id: int) -> DealSource:
    def source(rules: Rules, dealer: int) -> Deal:
        raise StorageError(
            f"table {table_id}: the match deals a new hand: give load_match a deal source"
        )

    return source
