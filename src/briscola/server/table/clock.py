"""A live table's move clock: when the table has one, the person to act has that many
seconds, stored as a deadline (so that it survives a restart) which
:meth:`Tables.tick` acts on as it falls due (a computer player moves for them,
:meth:`Bots.timed_out`). A computer player to act has no clock. With the database away
the clock waits, and the action taken stands."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Protocol

from briscola.server.failures import database_away, log_failed
from briscola.server.table import options
from briscola.server.table.bots import Bots
from briscola.server.table.ports import Writer

log = logging.getLogger("briscola.server")


class ClockWriter(Writer, Protocol):
    """The writer as its clock reaches it: with its computer players (who have none)."""

    @property
    def bots(self) -> Bots: ...


class Clock:
    """The move clock of one table: see the module's documentation."""

    def __init__(self, table: ClockWriter) -> None:
        self.table = table
        self.deadline: tuple[int, int] | None = None
        """The seat and version of the move clock stored, where this process knows it."""
        self.due: datetime | None = None
        """When the stored move clock runs out, where this process knows it."""
        self.unsaved = False
        """Whether the clock of an action taken here could not be stored (the database
        away): :meth:`save` stores it once it is back."""

    def forget(self) -> None:
        """No clock runs that this process knows of (another took the move, or stored its
        clock; the match is over)."""
        self.deadline = self.due = None

    async def save(self) -> None:
        """:meth:`set` after an action taken here; with the database away, the clock
        waits (:attr:`unsaved`) for the next call, every ``tick`` seconds
        (:meth:`Tables.watch`), and the action stands."""
        try:
            await self.set()
        except Exception as e:
            if not database_away(e):
                raise
            self.unsaved = True
            log_failed(e, "table %s: the move clock could not be stored", self.table.token)
        else:
            self.unsaved = False

    def wanted(self) -> tuple[int, int] | None:
        """The move clock the table should have stored now: the seat to act and the
        version, when the table has a clock and a person is to act; else ``None``."""
        table = self.table
        turn = table.host.turn if table.host is not None else None
        if turn is None or not options.clock(table.info) or table.info.status != "playing":
            return None
        return None if table.bots.computer(turn) else (turn, table.info.version)

    async def set(self) -> None:
        """Store the move clock the table should have now (:meth:`wanted`)."""
        table = self.table
        clock = options.clock(table.info)
        wanted = self.wanted()
        if wanted == self.deadline:
            return
        if self.deadline is not None:
            await table.storage.clear_deadlines(table.info.id, kind="move")
        self.due = None
        if wanted is not None and clock:
            due = datetime.now(UTC) + timedelta(seconds=clock)
            await table.storage.set_deadline(table.info.id, wanted[0], "move", due, wanted[1])
            self.due = due
        self.deadline = wanted

    def left(self) -> float | None:
        """The seconds left now on the move clock of the seat to act, where this process
        knows when it runs out (``None``: no clock running, or not known here)."""
        if self.deadline is None or self.due is None:
            return None
        return max(0.0, round((self.due - datetime.now(UTC)).total_seconds(), 1))
