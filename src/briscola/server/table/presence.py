"""Who is at a live table: its connections here, the seats with a connection at another
server process (shared), and what happens as people come and go. A person who leaves a
table in play has a grace (a stored deadline, :meth:`Tables.tick`); past it a computer
player stands in (:attr:`Bots.stand_ins`) until they come back."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Protocol

from briscola.server.table.bots import Bots
from briscola.server.table.clock import Clock
from briscola.server.table.connection import Connection
from briscola.server.table.ports import Writer

log = logging.getLogger("briscola.server")

PRESENCE_ALIVE = 12.0
"""Seconds since its last heartbeat within which another process's connections count
(its heartbeat comes every ``follow_every`` seconds)."""


class PresenceWriter(Writer, Protocol):
    """The writer as presence reaches it: with its computer players (the stand-ins) and
    its clock (which runs again for a person back)."""

    @property
    def bots(self) -> Bots: ...

    @property
    def clock(self) -> Clock: ...


class Presence:
    """Who is at one table: see the module's documentation."""

    def __init__(self, table: PresenceWriter) -> None:
        self.table = table
        self.connections: list[Connection] = []
        self.elsewhere: set[int] = set()
        """The seats with a connection open at another server process (shared)."""
        self.present: set[int] = set()
        """The seats this process has told the database it has a connection of."""

    def players(self) -> set[int]:
        """The players whose nicknames the table shows: those seated, those connected."""
        seated = {s.player for s in self.table.info.seats if s.player is not None}
        return seated | {c.player for c in self.connections if c.player is not None}

    def connected(self, seat: int) -> bool:
        """Whether the person at ``seat`` has the table open, here or at another server
        process."""
        return seat in self.elsewhere or any(c.seat == seat for c in self.connections)

    async def attach(self, conn: Connection) -> None:
        """Count ``conn`` among the table's connections. The others are told only when
        what they see changed: a seat's person connected (none was), or back from a
        stand-in; a spectator, or a second tab of a seat, changes nothing they see (the
        new connection's own writer sends it its snapshot)."""
        table = self.table
        table.touch()
        seat = conn.seat
        changed = seat is not None and not self.connected(seat)
        self.connections.append(conn)
        await self.share()
        if seat is not None:
            if table.info.status == "playing" and changed:
                await table.storage.clear_deadlines(table.info.id, seat, "away")
            if seat in table.bots.stand_ins:
                table.bots.stand_ins.discard(seat)
                await table.bots.keep_stand_ins()
                table.bots.seat()
                await table.clock.set()  # back at the seat: their clock runs again
                changed = True
        if changed:
            table.meta += 1
            await table.server.broadcaster.publish(table.token)

    async def detach(self, conn: Connection) -> None:
        """Forget ``conn``; the others are told when its seat has no connection left."""
        table = self.table
        table.touch()
        if conn in self.connections:
            self.connections.remove(conn)
        await self.share()
        seat = conn.seat
        if seat is None or self.connected(seat):
            return
        if table.info.status == "playing":
            await self.away(seat)
        table.meta += 1
        await table.server.broadcaster.publish(table.token)

    async def away(self, seat: int) -> None:
        """The person at ``seat`` has left: a computer player stands in after the grace."""
        table = self.table
        due = datetime.now(UTC) + timedelta(seconds=table.settings.grace)
        await table.storage.set_deadline(table.info.id, seat, "away", due)

    async def grace_over(self, seat: int) -> None:
        """The grace of the person absent from ``seat`` is over: a computer player stands
        in for them, if they are still away."""
        table = self.table
        if table.info.status != "playing" or self.connected(seat):
            return
        if table.info.seats[seat].player is None:
            return
        log.info("table %s: a computer player stands in at seat %d", table.token, seat)
        table.bots.stand_ins.add(seat)
        await table.bots.keep_stand_ins()
        table.bots.seat()
        table.meta += 1
        await table.after_action()

    async def share(self) -> None:
        """Shared with other processes: tell the database which seats have a connection
        here (when that changed), and wake the others to look."""
        table = self.table
        if not table.server.shared:
            return
        here = {c.seat for c in self.connections if c.seat is not None}
        if here == self.present:
            return
        process = table.server.process
        for seat in here - self.present:
            await table.storage.set_presence(process, table.info.id, seat, True)
        for seat in self.present - here:
            await table.storage.set_presence(process, table.info.id, seat, False)
        self.present = here
        await table.server.broadcaster.publish(table.token, "p")

    def reseat(self) -> None:
        """The seats changed: a connection whose person sits elsewhere now is sent a
        snapshot next, with the view of the seat it has now."""
        for conn in self.connections:
            seat = self.table.seat_of(conn.player)
            if seat != conn.seat:
                conn.seat = seat
                conn.number = -1
