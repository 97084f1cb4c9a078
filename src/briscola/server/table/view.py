"""What each connection of a live table is sent, read from the table and never changing
it: the table's description (:meth:`View.table_out`, also the REST answer), a snapshot,
and what is new since the last frame a connection was sent (:meth:`View.messages_for`).

What a seat is told is its own stream from the host (:meth:`briscola.host.Table.messages`),
numbered on its own: every number the table sends a connection (``version`` on the wire)
is that stream's. Nothing is told while an action is being stored (a crash could lose
it): the store's wake-up tells it."""

from __future__ import annotations

from typing import Any, Protocol

from briscola.engine.presets import find_game
from briscola.server.messages import (
    SeatOut,
    TableChanged,
    TableOut,
    You,
    snapshot_frame,
    update_frame,
)
from briscola.server.table import options
from briscola.server.table.bots import Bots
from briscola.server.table.chat import Chat, sent_line
from briscola.server.table.clock import Clock
from briscola.server.table.connection import Connection
from briscola.server.table.ports import Writer
from briscola.server.table.presence import Presence


class ViewWriter(Writer, Protocol):
    """The writer as its view reads it: with everything a connection is shown."""

    @property
    def bots(self) -> Bots: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def presence(self) -> Presence: ...

    @property
    def chat(self) -> Chat: ...


class View:
    """What one table's connections are sent: see the module's documentation."""

    def __init__(self, table: ViewWriter) -> None:
        self.table = table

    def view_json(self, seat: int | None) -> dict[str, Any] | None:
        """What ``seat`` sees of the match (``None``: the spectators; no match: ``None``)."""
        host = self.table.host
        if host is None:
            return None
        return host.view(seat).to_json()

    def fairness(self) -> list[dict[str, Any]]:
        """Each hand's commitment, with the salt and the deal once the hand is over."""
        table = self.table
        if table.deals is None or table.match is None:
            return []
        return table.deals.published(table.match)

    def table_out(self, player: int | None = None) -> TableOut:
        """The table as ``player`` sees it: its ``version`` is the number of their seat's
        stream (the spectators' when they sit nowhere)."""
        table = self.table
        info = table.info
        known = table.server.names
        names = table.bots.names()
        connected = table.presence.connected
        stand_ins = table.bots.stand_ins
        seats = []
        for i, s in enumerate(info.seats):
            if s.player is not None:
                seats.append(
                    SeatOut(
                        seat=i,
                        kind="person",
                        player=s.player,
                        nickname=known.get(s.player),
                        connected=connected(i),
                        stand_in=i in stand_ins,
                    )
                )
            elif s.level is not None:
                seats.append(SeatOut(seat=i, kind="bot", level=s.level, name=names[i]))
            else:
                seats.append(SeatOut(seat=i, kind="open"))
        you = None
        if player is not None:
            you = You(player=player, seat=table.seat_of(player), host=info.host == player)
        rematch = info.settings.get("rematch")
        return TableOut(
            token=info.token,
            invite=f"/t/{info.token}",
            game=info.game,
            name=find_game(info.game).name,
            rules=dict(table.rules.options),
            overrides=dict(info.rules),
            public=info.public,
            status=info.status,  # type: ignore[arg-type]
            host=info.host,
            seats=seats,
            version=table.number(table.seat_of(player)),
            clock=options.clock(info),
            clock_left=None  # a spectator of a trick held back: nothing newer than it
            if table.host is not None and table.host.held_back(table.seat_of(player))
            else table.clock.left(),
            points=options.points(info),
            chat=options.chat(info),
            lang=options.lang(info),
            hints=options.hints(info),
            stand_in=table.bots.stand_in_level,
            hands=table.stored_hands,
            rematch=rematch if isinstance(rematch, str) else None,
            you=you,
        )

    def snapshot(self, conn: Connection) -> str:
        """A snapshot for ``conn``: the table, its seat's view and the fair shuffle's
        commitments, at the last number of its seat's stream."""
        table = self.table
        conn.number = table.number(conn.seat)
        conn.from_start = False
        conn.meta = table.meta
        return snapshot_frame(
            conn.number, self.table_out(conn.player), self.view_json(conn.seat), self.fairness()
        )

    def messages_for(self, conn: Connection) -> list[str]:
        """What ``conn`` has not been sent yet: the messages of its seat's stream it missed
        with its view (or a snapshot when they are no longer kept), the table's changes,
        the new chat lines, then its replies: each reply carries the number it was made at,
        so it comes after the view of that number (a client never sees a number before its
        view)."""
        table = self.table
        if table.storing:
            return []  # told once the action is stored (its publish wakes every connection)
        replies, conn.outbox = conn.outbox, []
        out: list[str] = []
        seat = table.seat_of(conn.player)
        if conn.number < 0 or seat != conn.seat:
            conn.seat = seat
            out.append(self.snapshot(conn))
        else:
            if table.host is not None and (conn.number < table.number(seat) or conn.from_start):
                out.append(self.catch_up(conn))
            if conn.meta != table.meta:
                conn.meta = table.meta
                out.append(
                    TableChanged(version=conn.number, table=self.table_out(conn.player))
                    .model_dump_json()
                )  # fmt: skip
        lines = table.chat.lines
        if lines and lines[-1].id > conn.chat:  # (ids in order)
            for line in lines:
                if line.id > conn.chat:
                    conn.chat = line.id
                    copy = sent_line(line, conn.number, table.server.names)
                    out.append(copy.model_dump_json())
        return out + replies

    def catch_up(self, conn: Connection) -> str:
        """An update of the messages of ``conn``'s stream after the last it was sent (from 0
        asked by the client: the match's start first), with its view; a snapshot when they
        are not all kept."""
        host = self.table.host
        assert host is not None
        since = conn.number
        messages = host.messages(conn.seat, since)
        if messages and since == 0 and not conn.from_start:
            messages = [m for m in messages if m.number]  # it was sent the start's snapshot
        if not messages:
            return self.snapshot(conn)
        conn.number = messages[-1].number
        conn.from_start = False
        events = [e for m in messages for e in m.events]
        view = host.view(conn.seat).to_json()
        return update_frame(conn.number, since, events, view)
