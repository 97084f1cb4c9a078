"""Backups of the SQLite database of a data folder (``briscola serve --data DIR``), and
bringing one back.

:func:`backup` copies the database while a server uses it, through SQLite's online backup
API (:meth:`sqlite3.Connection.backup`, in one step: one read transaction, so the copy is
the database as of one commit, with every transaction committed before it and nothing
half-written; the write-ahead log's committed pages included). The copy is checked
(``PRAGMA integrity_check``), is one self-contained file (rollback journal mode, no
``-wal`` beside it), its owner's alone (0600: it holds the deals of the hands in play),
and appears at once, whole, under its name (written to a temporary file beside it, then
renamed).

:func:`restore` puts a backup in place of a data folder's database. It refuses while a
server uses the folder: every :class:`~briscola.storage.Storage` on a SQLite file holds a
shared lock (:func:`fcntl.flock`) on the lock file beside it (``briscola.db.lock``,
:func:`~briscola.storage.sqlite.open_lock`), which the system releases when the process
ends however it ends (SIGKILL too); a restore takes it exclusively, without waiting, and
holds it while it works, so that a server starting meanwhile refuses to open the database
until it is done.
The database replaced is kept aside as ``briscola.db.before-restore-TIMESTAMP``, in one
file (the commits of its write-ahead log, which a server killed leaves, copied into it).

>>> import asyncio, tempfile
>>> from pathlib import Path
>>> from briscola.storage import Storage
>>> with tempfile.TemporaryDirectory() as folder:
...     data = Path(folder) / "data"
...     data.mkdir()
...     store = asyncio.run(Storage.open(f"sqlite+aiosqlite:///{data / DATABASE_FILE}"))
...     asyncio.run(store.close())
...     made = backup(data, Path(folder) / "copy.db")
...     back = restore(Path(folder) / "copy.db", Path(folder) / "fresh")
...     (made.revision, back.aside, (Path(folder) / "fresh" / DATABASE_FILE).is_file())
('0010', None, True)
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from briscola.storage.sqlite import SQLITE_COMPANIONS, lock_path, open_lock
from briscola.storage.store import BUSY_TIMEOUT, MIGRATIONS

DATABASE_FILE = "briscola.db"
"""The SQLite database's name in a data folder."""
TABLES = ("players", "tables", "seats", "actions", "hands")
"""Tables a briscola database has at every schema revision."""


class BackupError(Exception):
    """A backup or a restore cannot be done: the message says why and what to do."""


@dataclass(frozen=True)
class Backup:
    """What :func:`backup` wrote: the file, its size, its schema revision, its tables."""

    path: Path
    size: int
    revision: str
    tables: int


@dataclass(frozen=True)
class Restored:
    """What :func:`restore` did: the database put in place, and where the one it replaced
    was kept (None: the folder had none)."""

    path: Path
    revision: str
    tables: int
    aside: Path | None


def known_revisions() -> dict[str, int]:
    """The schema revisions of this briscola's migrations, each with its rank (1 the
    first)."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory(str(MIGRATIONS))
    order = [r.revision for r in reversed(list(script.walk_revisions()))]
    return {revision: rank for rank, revision in enumerate(order, 1)}


def check_briscola(connection: sqlite3.Connection, shown: Path) -> tuple[str, int]:
    """``connection`` is open on a briscola database that this briscola can serve (maybe
    after migrating it): its schema revision, and the number of its tables (of matches).
    :raises BackupError: it is not a SQLite database, not briscola's, or newer."""
    try:
        names = {
            row[0]
            for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    except sqlite3.DatabaseError as e:
        raise BackupError(
            f"{shown} is not a SQLite database ({e}): name a file that briscola backup wrote"
        ) from None
    missing = [t for t in ("alembic_version", *TABLES) if t not in names]
    if missing:
        raise BackupError(
            f"{shown} is a SQLite database, but not briscola's (it has no table "
            f"{', '.join(missing)}): name a file that briscola backup wrote"
        )
    rows = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    known = known_revisions()
    if len(rows) != 1 or rows[0][0] not in known:
        revision = rows[0][0] if rows else "none"
        raise BackupError(
            f"{shown} is a briscola database of schema revision {revision}, which this "
            f"briscola does not know (it knows {', '.join(known)}): it was made by a newer "
            "briscola: upgrade briscola, then try again"
        )
    (count,) = connection.execute("SELECT count(*) FROM tables").fetchone()
    return str(rows[0][0]), int(count)


def integrity(connection: sqlite3.Connection, shown: Path) -> None:
    """``PRAGMA integrity_check`` finds nothing wrong in ``connection``'s database, or
    :class:`BackupError` names the first problems."""
    problems = [row[0] for row in connection.execute("PRAGMA integrity_check(5)")]
    if problems != ["ok"]:
        raise BackupError(f"{shown} is damaged (SQLite's integrity check: {'; '.join(problems)})")


def _copy(source: Path, temp: Path, shown: Path) -> tuple[str, int]:
    """Copy the briscola database ``source`` into ``temp`` through SQLite's backup API,
    every page in one step (one snapshot), as one file (out of the write-ahead log mode
    it inherits), checked (``shown`` names it in the errors); its revision and tables."""
    reading = _connect(source)
    try:
        revision, tables = check_briscola(reading, source)
        copy = sqlite3.connect(temp, isolation_level=None)
        try:
            reading.backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")
            integrity(copy, shown)
        finally:
            copy.close()
    finally:
        reading.close()
    return revision, tables


def _connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None)
    connection.execute(f"PRAGMA busy_timeout = {round(BUSY_TIMEOUT * 1000)}")
    return connection


def _private_temp(beside: Path, what: str) -> Path:
    """A new empty file beside ``beside``, its owner's alone, whatever the umask."""
    temp = beside.with_name(f".{beside.name}.{what}-{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        temp.unlink()  # left by a process of this number that was killed
    fd = os.open(temp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.fchmod(fd, 0o600)
    finally:
        os.close(fd)
    return temp


def _sync(path: Path) -> None:
    """The file (or folder) at ``path`` written to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(path: Path) -> None:
    for each in (path, *(path.with_name(path.name + end) for end in SQLITE_COMPANIONS)):
        with contextlib.suppress(FileNotFoundError):
            each.unlink()


def _one_file(database: Path) -> None:
    """The SQLite database ``database`` in one file: the commits its write-ahead log holds
    (a server killed leaves some there) copied into it, and the log gone. A database that
    cannot be (damaged) is left as it is, its log beside it under its name."""
    try:
        connection = _connect(database)
        try:
            connection.execute("PRAGMA journal_mode = DELETE")
        finally:
            connection.close()
    except sqlite3.Error:
        pass


def backup(data: Path, out: Path, *, force: bool = False) -> Backup:
    """Copy the database of the data folder ``data`` to ``out`` (module docstring), while
    a server may be using it. :raises BackupError: no database in ``data``, ``out`` exists
    (and not ``force``), or cannot be written."""
    database = data / DATABASE_FILE
    if not data.is_dir():
        raise BackupError(
            f"--data {data}: there is no such folder: name the data folder the server "
            "keeps its database in (briscola serve --data DIR; ./briscola-data by default)"
        )
    if not database.is_file():
        raise BackupError(
            f"--data {data}: there is no database in it (no {DATABASE_FILE}): name the "
            "folder given to briscola serve --data (./briscola-data by default)"
        )
    if out.is_dir():
        raise BackupError(f"{out} is a folder: name the backup file to write, like {out}/b.db")
    if out.exists() and not force:
        raise BackupError(f"{out} exists: name another file, or pass --force to replace it")
    if not out.parent.is_dir():
        raise BackupError(f"there is no folder {out.parent} to write {out.name} in: make it first")
    if out.resolve() == database.resolve():
        raise BackupError(f"{out} is the database itself: name another file")
    try:
        temp = _private_temp(out, "backup")
    except OSError as e:
        raise BackupError(f"cannot write in {out.parent}: {e.strerror}") from None
    try:
        revision, tables = _copy(database, temp, out)
        _sync(temp)
        os.replace(temp, out)
        _sync(out.parent)
    except sqlite3.Error as e:
        raise BackupError(f"cannot back {database} up: {e}") from None
    except OSError as e:
        raise BackupError(f"cannot write {out}: {e.strerror or e}") from None
    finally:
        _remove(temp)
    return Backup(out, out.stat().st_size, revision, tables)


def restore(source: Path, data: Path, *, now: datetime | None = None) -> Restored:
    """Put the backup ``source`` in place of the database of the data folder ``data`` (made
    when missing), keeping the database it replaces aside (module docstring).
    :raises BackupError: ``source`` is no briscola database, or a server uses ``data``."""
    if not source.is_file():
        what = "a folder" if source.is_dir() else "no such file"
        raise BackupError(f"{source}: {what}: name a backup file that briscola backup wrote")
    if data.exists() and not data.is_dir():
        raise BackupError(f"--data {data}: it is a file; name the data folder")
    try:
        data.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as e:
        raise BackupError(f"--data {data}: cannot make the folder: {e.strerror}") from None
    database = data / DATABASE_FILE
    try:
        lock = open_lock(database, exclusive=True)
    except BlockingIOError:
        raise BackupError(
            f"a server is using {data} (it holds {lock_path(database)}): stop it, then "
            "restore (to look at a backup without stopping it, restore into another folder)"
        ) from None
    try:
        temp = _private_temp(database, "restore")
        try:
            # Through the backup API, not the file's bytes: a database copied by hand
            # may have commits in its write-ahead log still (a -wal beside it).
            revision, tables = _copy(source, temp, source)
            _sync(temp)
            aside = None
            if database.exists():
                stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
                aside = database.with_name(f"{DATABASE_FILE}.before-restore-{stamp}")
                again = 1
                while aside.exists():  # two restores within a second: keep both
                    again += 1
                    aside = database.with_name(f"{DATABASE_FILE}.before-restore-{stamp}-{again}")
                os.rename(database, aside)
                for end in SQLITE_COMPANIONS:
                    companion = database.with_name(database.name + end)
                    if companion.exists():
                        os.rename(companion, aside.with_name(aside.name + end))
                _one_file(aside)
            os.replace(temp, database)
            _sync(data)
        except sqlite3.Error as e:
            raise BackupError(f"cannot restore {source}: {e}") from None
        except OSError as e:
            raise BackupError(f"cannot restore {source} into {data}: {e.strerror or e}") from None
        finally:
            _remove(temp)
    finally:
        os.close(lock)
    return Restored(database, revision, tables, aside)
