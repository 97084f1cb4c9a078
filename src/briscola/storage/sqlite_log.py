"""A table's log appended on SQLite through the ``sqlite3`` driver itself.

An append is the hottest write of the game server: one for every move. Through
SQLAlchemy's Core it cost about 0.3 ms of CPU alone (the statement's execution context,
its parameters' processors, the transaction's events), where SQLite's own work is about
0.04 ms. :class:`SqliteLog` runs the same statements as ``match_log._append`` (the table's
version bumped where it is the one before, the action inserted with the number of the
table's last hand, the new hands inserted) as plain SQL with positional parameters, on a
connection of its own, each batch in one ``BEGIN IMMEDIATE`` transaction. The values are
written as SQLAlchemy writes them on SQLite (times as ``YYYY-MM-DD HH:MM:SS.ffffff`` in
UTC, JSON by :func:`json.dumps`), so that everything else reads them unchanged.

It is used from one thread at a time. With a ``busy_timeout`` of 0 it never waits for
SQLite's lock: an append that finds the database locked by another process raises
:func:`locked` at once, and nothing was stored.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from briscola.storage.values import NewHand, NotFound, StaleVersion, StorageError, WrongStatus

_BUMP = (
    "UPDATE tables SET version = ?, updated = ? WHERE id = ? AND version = ? AND status = 'playing'"
)
_STATUS = "SELECT status, version FROM tables WHERE id = ?"
_LOG = (
    "INSERT INTO actions (table_id, version, hand, action, at) "
    "SELECT ?, ?, max(number), ?, ? FROM hands WHERE table_id = ? RETURNING hand"
)
_HANDS = (
    "INSERT INTO hands (table_id, number, deal, commitment, salt, at) VALUES (?, ?, ?, ?, ?, ?)"
)


def locked(error: BaseException) -> bool:
    """Whether ``error`` is SQLite's refusal to wait for a lock another connection holds."""
    return isinstance(error, sqlite3.OperationalError) and "locked" in str(error)


def sqlite_time(at: datetime) -> str:
    """``at`` as SQLAlchemy's ``DATETIME`` stores it on SQLite (UTC, no zone)."""
    if at.tzinfo is None:
        raise StorageError(f"storage: a time must carry its timezone, got {at!r}")
    u = at.astimezone(UTC)
    return (
        f"{u.year:04d}-{u.month:02d}-{u.day:02d} "
        f"{u.hour:02d}:{u.minute:02d}:{u.second:02d}.{u.microsecond:06d}"
    )


class SqliteLog:
    """The appends of the SQLite database at ``path`` (see the module's docstring)."""

    def __init__(self, path: str, busy_timeout: float) -> None:
        self.path = path
        self.busy_timeout = busy_timeout
        self._db: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            db = sqlite3.connect(
                self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False
            )
            db.execute(f"PRAGMA busy_timeout = {round(self.busy_timeout * 1000)}")
            db.execute("PRAGMA foreign_keys = ON")
            db.execute("PRAGMA synchronous = NORMAL")
            db.execute("PRAGMA wal_autocheckpoint = 0")  # the Checkpointer's work
            self._db = db
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def append(self, batch: Sequence[tuple[Any, ...]]) -> list[int | Exception]:
        """:meth:`append_all`, and when one append is refused :meth:`append_each`."""
        try:
            return self.append_all(batch)
        except (StorageError, sqlite3.IntegrityError):
            return self.append_each(batch)

    def append_all(self, batch: Sequence[tuple[Any, ...]]) -> list[int | Exception]:
        """Every append of ``batch`` (``Storage.append_action``'s arguments) in one
        transaction; the first refused raises it, and none is stored."""
        db = self._connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            out: list[int | Exception] = [self._append(db, *args) for args in batch]
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return out

    def append_each(self, batch: Sequence[tuple[Any, ...]]) -> list[int | Exception]:
        """Each append of ``batch`` in a savepoint of one transaction: one refused
        leaves the others stored, and its error is its result."""
        db = self._connection()
        db.execute("BEGIN IMMEDIATE")
        out: list[int | Exception] = []
        try:
            for args in batch:
                db.execute("SAVEPOINT one")
                try:
                    out.append(self._append(db, *args))
                except (StorageError, sqlite3.IntegrityError) as e:
                    db.execute("ROLLBACK TO one")
                    out.append(e)
                db.execute("RELEASE one")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return out

    @staticmethod
    def _append(
        db: sqlite3.Connection,
        table_id: int,
        version: int,
        action: dict[str, Any],
        dealt: Sequence[NewHand],
        now: datetime,
    ) -> int:
        at = sqlite_time(now)
        if db.execute(_BUMP, (version, at, table_id, version - 1)).rowcount != 1:
            row = db.execute(_STATUS, (table_id,)).fetchone()
            if row is None:
                raise NotFound(f"there is no table {table_id}")
            if row[0] != "playing":
                raise WrongStatus(f"table {table_id} is {row[0]}: no action is stored there")
            raise StaleVersion(table_id, version, row[1])
        found = db.execute(_LOG, (table_id, version, json.dumps(action), at, table_id)).fetchone()
        hand: int = found[0]
        last = hand
        rows = []
        for i, h in enumerate(dealt):
            if h.number != last + 1 + i:
                raise StorageError(
                    f"table {table_id}: the next hand is number {last + 1 + i}, got {h.number}"
                )
            rows.append((table_id, h.number, json.dumps(h.deal), h.commitment, h.salt, at))
        if rows:
            db.executemany(_HANDS, rows)
        return hand
