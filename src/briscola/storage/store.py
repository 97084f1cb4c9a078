"""The storage API: :class:`Storage`, made of one part for each resource (accounts,
families, tables, a table's match and its log, deadlines, presence, chat, analyses),
opened on SQLite or PostgreSQL and closed here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from briscola.storage.accounts import Accounts
from briscola.storage.analyses import Analyses
from briscola.storage.chat import Chat
from briscola.storage.deadlines import Deadlines
from briscola.storage.families import Families
from briscola.storage.match_log import MatchLog, dealt_hands, match_start
from briscola.storage.presence import Presence
from briscola.storage.sqlite import (
    SQLITE_COMPANIONS,
    WRITE,
    Checkpointer,
    check_sqlite_file,
    lock_path,
    open_lock,
    shared_lock,
    sqlite_transactions,
    use_wal,
    when_unlocked,
)
from briscola.storage.sqlite_log import SqliteLog
from briscola.storage.tables import TableRows
from briscola.storage.values import StorageError

# Kept importable from here, where they were before the parts had modules of their own.
__all__ = [
    "BUSY_TIMEOUT",
    "MIGRATIONS",
    "SQLITE_COMPANIONS",
    "Storage",
    "dealt_hands",
    "lock_path",
    "match_start",
    "open_lock",
]

log = logging.getLogger("briscola.storage")
MIGRATIONS = Path(__file__).parent / "migrations"
BUSY_TIMEOUT = 30.0
"""SQLite: how many seconds a connection waits for another connection's lock (its busy
timeout, on every connection) before its statement fails with "database is locked"."""
PATIENCE = 60.0
"""SQLite: how many seconds :meth:`Storage.open` keeps trying its steps that need the
write lock (the write-ahead log, the migrations) while another process holds it."""


POOL = 20
"""The connections to PostgreSQL a server process keeps open."""

OVERFLOW = 10
"""How many more it opens when all of those are busy: a process holds POOL + OVERFLOW
connections at most, so PostgreSQL's ``max_connections`` (100 by default) serves three
processes, and more with a larger setting (docs/deploy.md)."""


def _now() -> datetime:
    return datetime.now(UTC)


AUTOCOMMIT = {"isolation_level": "AUTOCOMMIT"}
"""How PostgreSQL's reads run, and the appends that are one statement: each statement on
its own, without the BEGIN and the ROLLBACK or COMMIT that would cost two more round trips
(a third of an append's CPU time alone). A read is no less consistent for it: at
PostgreSQL's default isolation, READ COMMITTED, each statement of a transaction sees what
was committed when it began, as each statement on its own does; and one statement is
atomic by itself."""


class Storage(Accounts, Families, TableRows, MatchLog, Deadlines, Presence, Chat, Analyses):
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
        self._now: SqliteLog | None = None
        """SQLite in a file: the log's appends on the sqlite3 driver itself
        (:class:`~briscola.storage.sqlite_log.SqliteLog`), in the event loop's thread
        (about 0.05 ms an append), never waiting for SQLite's lock; while another
        program holds it, :attr:`_sync` waits for it in a worker thread of its own
        (:meth:`append_action`)."""
        self._sync: SqliteLog | None = None
        self._thread: ThreadPoolExecutor | None = None
        self._checkpoints: Checkpointer | None = None
        self._lock: int | None = None
        """The shared lock on the SQLite database, held while open (:func:`open_lock`)."""
        if self._sqlite and engine.url.database not in (None, "", ":memory:"):
            self._now = SqliteLog(str(engine.url.database), busy_timeout=0)
            self._sync = SqliteLog(str(engine.url.database), BUSY_TIMEOUT)
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="briscola-sqlite")
            self._checkpoints = Checkpointer(str(engine.url.database), BUSY_TIMEOUT)
            self._checkpoints.start()
        self._appends: list[tuple[tuple[Any, ...], asyncio.Future[int]]] = []
        self._appender: asyncio.Task[None] | None = None
        self.gather = 0.0
        """Seconds an append waits, on PostgreSQL, for the appends of the next instants to
        share its statement (:meth:`MatchLog.append_action`); SQLite stores at once."""
        self._appending: AsyncConnection | None = None

    @contextlib.asynccontextmanager
    async def _begin(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction. On SQLite this process's writers take turns here, each
        beginning with BEGIN IMMEDIATE (:func:`~briscola.storage.sqlite.sqlite_transactions`):
        one that waited for SQLite's own lock instead would sleep in its busy handler,
        milliseconds at a time, while the lock was long free. PostgreSQL's writers of
        different tables run side by side."""
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
            check_sqlite_file(database)
            if database not in (None, "", ":memory:"):
                path = str(database)
                lock = shared_lock(Path(path))
                try:
                    await when_unlocked(
                        lambda: asyncio.to_thread(use_wal, path, BUSY_TIMEOUT),
                        path,
                        "turning it to the write-ahead log",
                        patience,
                        deadline,
                    )
                except BaseException:
                    os.close(lock)
                    raise
            engine = create_async_engine(url, connect_args={"timeout": BUSY_TIMEOUT})
            sqlite_transactions(engine.sync_engine, BUSY_TIMEOUT)
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
                await when_unlocked(
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
        if self._appending is not None:
            with contextlib.suppress(Exception):
                await self._appending.close()
            self._appending = None
        await self.engine.dispose()
        if self._now is not None:
            self._now.close()
        if self._sync is not None and self._thread is not None:
            self._thread.submit(self._sync.close).result()
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


def _drop_broken_asyncpg(context: sa.engine.ExceptionContext) -> None:
    """A connection on which asyncpg raised ``InternalClientError`` ("cannot switch to
    state ...; another operation is in progress": the server ended its session in the
    middle of a transaction, as PostgreSQL does when it restarts) is broken, though not
    closed: it counts as a disconnect, so that the pool drops it instead of handing it
    out again to fail each later transaction (sqlalchemy/sqlalchemy#13241)."""
    if type(context.original_exception).__name__ == "InternalClientError":
        context.is_disconnect = True
