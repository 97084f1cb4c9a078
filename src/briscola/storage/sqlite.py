"""SQLite's own ways, the part of :class:`~briscola.storage.Storage` that only SQLite
needs: every write transaction beginning with BEGIN IMMEDIATE and each connection's busy
timeout (:func:`sqlite_transactions`), the write-ahead log set once in the file
(:func:`use_wal`) and checkpointed by a thread of its own (:class:`Checkpointer`), the
steps that need the write lock tried again while another process holds it
(:func:`when_unlocked`), the lock file beside the database that a restore takes
(:func:`open_lock`), and the database's files kept private to their owner.

The busy timeout is the caller's (:data:`briscola.storage.store.BUSY_TIMEOUT`), given to
each function that opens a connection.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import random
import sqlite3
import stat
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa

from briscola.storage.values import StorageError

log = logging.getLogger("briscola.storage")
WRITE = "briscola_write"
"""The execution option of a write transaction (SQLite: BEGIN IMMEDIATE)."""
T = TypeVar("T")


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


async def when_unlocked(
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


def shared_lock(database: Path) -> int:
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


def _sqlite_connect(path: str, timeout: float) -> sqlite3.Connection:
    """A plain connection to the SQLite database at ``path`` (no transaction handling of
    the driver's), which waits up to ``timeout`` seconds for another's lock."""
    connection = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    connection.execute(f"PRAGMA busy_timeout = {round(timeout * 1000)}")
    return connection


def use_wal(path: str, timeout: float) -> None:
    """Turn the SQLite database at ``path`` to the write-ahead log, once for all its
    connections (the mode is kept in the file; on a database in it already this changes
    nothing). The change needs the write lock and, unlike other statements, does not wait
    for it (SQLite's busy timeout does not apply: two connections changing the mode of a
    new database at once, one fails): it raises "database is locked" while another
    connection writes, and :meth:`Storage.open` tries it again (:func:`when_unlocked`)."""
    connection = _sqlite_connect(path, timeout)
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


def sqlite_transactions(engine: sa.Engine, timeout: float) -> None:
    """SQLite: every write transaction (the execution option :data:`WRITE`) begins with
    BEGIN IMMEDIATE, taking the write lock at once (waiting up to the timeout for it), so
    that two writers queue instead of failing on a lock upgrade; a read begins with a
    plain BEGIN and never waits, on its snapshot of the write-ahead log. Foreign keys on.
    (SQLAlchemy's documented recipe: the driver's own transaction handling turned off.)
    Each connection waits up to ``timeout`` seconds for another's lock. The write-ahead
    log itself is set once, in the database file, by :meth:`Storage.open` (:func:`use_wal`):
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
        cursor.execute(f"PRAGMA busy_timeout = {round(timeout * 1000)}")
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

    def __init__(self, path: str, timeout: float, every: float = 1.0) -> None:
        super().__init__(name="briscola-sqlite-checkpoints", daemon=True)
        self.path = path
        self.timeout = timeout
        self.every = every
        self._halt = threading.Event()

    def run(self) -> None:
        connection = _sqlite_connect(self.path, self.timeout)
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


def check_sqlite_file(database: str | None) -> None:
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
