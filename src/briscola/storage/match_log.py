"""A table's match: its start, its append-only log of actions, the hands dealt, what a
follower reads of it, its rebuilding, and its end with the finished match kept; the part
of :class:`~briscola.storage.Storage` that keeps them (see :mod:`briscola.storage` for
the log and the rebuilding).

The log's appends are stored in groups (:meth:`MatchLog.append_action`): all those that
came in while the last group was being stored go together, in one transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from briscola.engine import Match
from briscola.engine.deal import Deal
from briscola.engine.errors import BriscolaError
from briscola.engine.match import DealSource, parse_match_record
from briscola.engine.rules import Rules
from briscola.storage import schema as s
from briscola.storage.chat import read_chat
from briscola.storage.presence import read_present
from briscola.storage.sqlite_log import SqliteLog, locked
from briscola.storage.tables import read_table
from briscola.storage.values import (
    FinishedMatch,
    Hand,
    LoggedAction,
    NewHand,
    News,
    NotFound,
    Seat,
    StaleVersion,
    StorageError,
    TableInfo,
    WrongStatus,
)


def match_start(match: Match) -> dict[str, Any]:
    """What :meth:`~briscola.storage.Storage.start_table` keeps of a match besides its
    hands: the match record's ``dealer``, ``seating`` and (under ``partners=drawn``) ``draw``."""
    record = match.to_record()
    return {k: record[k] for k in ("dealer", "seating", "draw") if k in record}


def dealt_hands(match: Match, after: int = 0) -> list[NewHand]:
    """The hands ``match`` has dealt after hand number ``after``, to store (no commitment:
    a fair-shuffle deal source adds its own)."""
    hands = match.record().hands
    return [NewHand(i + 1, h.deal.to_json()) for i, h in enumerate(hands) if i + 1 > after]


class MatchLog:
    """A table's match, its log and its hands; mixed into
    :class:`~briscola.storage.Storage`, which gives the clock, the write transactions, the
    reads and what the appends' groups need (:meth:`~briscola.storage.Storage.__init__`)."""

    clock: Callable[[], datetime]
    _autocommit: AsyncEngine
    _sqlite: bool
    _write_lock: asyncio.Lock
    _now: SqliteLog | None
    _sync: SqliteLog | None
    _thread: ThreadPoolExecutor | None
    _appends: list[tuple[tuple[Any, ...], asyncio.Future[int]]]
    _appender: asyncio.Task[None] | None
    gather: float
    _appending: AsyncConnection | None
    """PostgreSQL: the connection the batches of appends are stored on, one batch at a
    time, kept from one to the next (a checkout from the pool cost as much CPU as the
    statement)."""

    def _begin(self) -> AbstractAsyncContextManager[AsyncConnection]:
        raise NotImplementedError  # Storage's

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
                info = await read_table(conn, table_id)
                raise WrongStatus(f"table {table_id} is {info.status}: it cannot start again")
            if seats is not None:
                info = await read_table(conn, table_id)
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
            return await read_table(conn, table_id)

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
        except (IntegrityError, sqlite3.IntegrityError):
            async with self._autocommit.connect() as conn:
                current = (await read_table(conn, table_id)).version
            raise StaleVersion(table_id, version, current) from None
        return LoggedAction(table_id, version, hand, action, now)

    async def _append_batches(self) -> None:
        """Store the appends waiting, all those that came in meanwhile at once, in one
        transaction, until none waits; then tell each its result (group commit). A busy
        server stores many tables' moves in one commit: on SQLite instead of queueing
        them one by one behind the worker thread's turns at the interpreter's lock, on
        PostgreSQL with one BEGIN and one COMMIT for them all."""
        if self.gather > 0 and self._now is None:
            await asyncio.sleep(self.gather)  # PostgreSQL: the next instants' moves too
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
        if self._sync is not None and self._now is not None:
            async with self._write_lock:
                try:  # here, at once (a thread's turn costs more than the append)
                    return self._now.append(batch)
                except sqlite3.OperationalError as e:
                    if not locked(e):
                        raise
                return await asyncio.get_running_loop().run_in_executor(
                    self._thread, self._sync.append, batch
                )  # another program holds SQLite's lock: waited for in the thread
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
        rows: list[Any] = []  # (if the statement stored none of them)
        try:
            conn = self._appending
            if conn is None or conn.closed or conn.invalidated:
                conn = self._appending = await self._autocommit.connect()
            raw = await conn.get_raw_connection()  # asyncpg's own: its prepared statement
            params = _log_many_params(batch)
            try:
                rows = await raw.driver_connection.fetch(  # type: ignore[union-attr]
                    _LOG_MANY_PG, *(params[k] for k in _LOG_MANY_ORDER)
                )
            except Exception as e:
                if not _from_driver(e):
                    raise
                lost = not _refused(e) or raw.driver_connection.is_closed()  # type: ignore[union-attr]
                if lost:  # the connection lost: the next batch connects anew
                    self._appending = None
                    with contextlib.suppress(Exception):
                        await conn.invalidate()
        except sa.exc.DBAPIError:
            pass  # (each again alone below, on a connection of the pool, to learn why)
        stored = {(r["table_id"], r["version"]): r["hand"] for r in rows}
        refused = [a for a in batch if (a[0], a[1]) not in stored]
        if refused:
            async with self._begin() as conn:
                again = iter(await conn.run_sync(_append_each, refused))
        return [stored[a[0], a[1]] if (a[0], a[1]) in stored else next(again) for a in batch]

    async def actions_since(self, table_id: int, version: int = 0) -> list[LoggedAction]:
        """The logged actions after ``version``, in order (all of them from 0)."""
        async with self._autocommit.connect() as conn:
            await read_table(conn, table_id)
            return await _actions(conn, table_id, version)

    async def hands(self, table_id: int, after: int = 0) -> list[Hand]:
        """The table's hands dealt so far (those numbered after ``after``), in order."""
        async with self._autocommit.connect() as conn:
            await read_table(conn, table_id)
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
            info = await read_table(conn, table_id) if table else None
            hands: list[Hand] = []
            actions: list[LoggedAction] = []
            if log is not None:
                hands, actions = await _log_since(conn, table_id, *log)
            said = await read_chat(conn, table_id, chat_after) if chat_after is not None else []
            elsewhere = None
            if presence is not None:
                elsewhere = await read_present(conn, table_id, *presence, self.clock())
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
        stored hands' deals and each hand's logged actions, read with the table's rule set
        (:attr:`TableInfo.parsed`: not once more for each hand) and replayed by
        :meth:`Match.from_record` (which checks every move). The next hands come from
        ``deals``; without it, dealing one raises :class:`StorageError`."""
        async with self._autocommit.connect() as conn:
            info = await read_table(conn, table_id)
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
            parsed = parse_match_record(record, info.parsed)
            return Match.from_record(parsed, deals=deals or _no_deal(table_id))
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
            info = await read_table(conn, table_id)
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


_LOG_MANY_ORDER = ("table_ids", "versions", "actions", "ats")
_LOG_MANY_PG = (
    str(_LOG_MANY.text)
    .replace("unnest(:table_ids, :versions, :actions, :ats)",
             "unnest($1::integer[], $2::integer[], $3::text[], $4::timestamptz[])")
)  # fmt: skip
"""PostgreSQL: :data:`_LOG_MANY` as asyncpg takes it, run on the driver's connection
itself (SQLAlchemy's statement machinery cost three times the statement's own CPU)."""


def _from_driver(error: Exception) -> bool:
    """Whether ``error`` is asyncpg's own or its socket's: PostgreSQL refused the
    statement, or the connection was lost."""
    return isinstance(error, OSError | TimeoutError) or type(error).__module__.startswith("asyncpg")


def _refused(error: Exception) -> bool:
    """Whether ``error`` is PostgreSQL's refusal of a statement (through SQLAlchemy, or
    asyncpg's own), not its connection lost."""
    if isinstance(error, sa.exc.DBAPIError):
        return True
    import asyncpg  # type: ignore[import-untyped]  # (PostgreSQL's driver, where it is used)

    return isinstance(error, asyncpg.PostgresError)


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
