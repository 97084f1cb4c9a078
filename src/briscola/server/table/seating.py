"""A live table's seats: taken, left or changed while it waits, the start (the first hand
dealt, stored with its fair-shuffle commitment), a seat left in play (a computer player
takes it for the rest of the match), and the rematch (a new table with the same game,
rules, options and seats, started at once). Each is a command of its own, under the
table's lock."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Protocol, TypeVar

from briscola.engine import Match
from briscola.fair_shuffle import FairDeals
from briscola.server.broadcast import family_key
from briscola.server.errors import Refused
from briscola.server.table import options
from briscola.server.table.bots import Bots, check_level
from briscola.server.table.chat import Chat
from briscola.server.table.hands import new_hands
from briscola.server.table.ports import Writer
from briscola.server.table.presence import Presence
from briscola.storage import (
    OPEN,
    Seat,
    SeatTaken,
    StorageError,
    TableInfo,
    WrongStatus,
    match_start,
)


class SeatingWriter(Writer, Protocol):
    """The writer as its seating reaches it: with its computer players, who is at it and
    its chat (whose lines follow the seats drawn at the start)."""

    @property
    def bots(self) -> Bots: ...

    @property
    def presence(self) -> Presence: ...

    @property
    def chat(self) -> Chat: ...


class Startable(Protocol):
    """A table as the rematch finds it: as stored, and to start."""

    @property
    def info(self) -> TableInfo: ...

    async def start(self, player: int | None = None) -> None: ...

    async def follow(self) -> bool: ...


T = TypeVar("T", bound=Startable)


class Seating:
    """The seats of one table and its start: see the module's documentation."""

    def __init__(self, table: SeatingWriter) -> None:
        self.table = table

    async def start(self, player: int | None = None) -> None:
        """Deal the first hand (a waiting table whose seats are all filled), store the
        start with the hands dealt and their commitments. ``player``, when given, must be
        the table's host."""
        table = self.table
        async with table.lock:
            info = table.info = await table.storage.get_table(table.info.id)
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
            rules = table.rules
            match = Match(rules, rng, rng.randrange(rules.players), deals=deals)
            table.deals = deals
            new = new_hands(match, deals, table.stored_hands)
            # Under partners=drawn everyone sits where the draw says: seating[seat] is the
            # seat they chose (the engine's "player"), stored with the start.
            seats = None
            if match.drawn is not None:
                seats = [info.seats[chose] for chose in match.seating]
            try:
                table.info = await table.storage.start_table(
                    info.id, match_start(match), new, seats=seats
                )
            except StorageError:
                raise Refused("wrong_status", "this table has started already", 409) from None
            presence = table.presence
            for conn in presence.connections:
                conn.seat = table.seat_of(conn.player)
            await presence.share()
            if match.drawn is not None:  # the lines said before the draw: their new seats
                table.chat.reseat(match.seating.index)
            table.host_match(match)
            table.stored_hands = len(new)
            table.revealed = len(match.finished)
            for seat, s in enumerate(table.info.seats):
                if s.player is not None and not presence.connected(seat):
                    await presence.away(seat)  # a player who never comes is stood in for too
            if any(s.player is not None for s in table.info.seats):  # (someone to analyse for)
                table.server.analyst.warm(rules.key, dict(rules.options))
            table.meta += 1
            for conn in presence.connections:
                conn.number = -1  # they were sent no view: a snapshot each, with theirs
            await table.after_action()
            await self.tell_family()

    async def take_seat(self, seat: int, player: int) -> None:
        """``player`` sits at the open ``seat`` of this waiting table."""
        table = self.table
        async with table.lock:
            self._check_seat(seat)
            mine = table.seat_of(player)
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
                await table.storage.take_seat(table.info.id, seat, player)
            except WrongStatus:
                info = table.info = await table.storage.get_table(table.info.id)
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
            await table.server.learn_names([player])
            await self.seats_changed()

    async def leave(self, seat: int, player: int) -> None:
        """``player`` leaves ``seat`` (or, as the host of a waiting table, clears it). At a
        table in play a computer player takes the seat for the rest of the match."""
        table = self.table
        bots = table.bots
        async with table.lock:
            info = table.info
            self._check_seat(seat)
            mine = info.seats[seat].player == player
            if not mine and (info.host != player or info.status != "waiting"):
                raise Refused("not_yours", "you can only leave your own seat", 403)
            if info.status == "finished":
                raise Refused("wrong_status", "the match is over: there is no seat to leave", 409)
            occupant = OPEN if info.status == "waiting" else Seat(level=bots.stand_in_level)
            if info.status == "playing" and mine:  # they played: the match is theirs too
                left = {str(k): v for k, v in options.left(info).items()} | {str(seat): player}
                stored = await table.storage.merge_settings(info.id, {"left": left})
                table.info = replace(table.info, settings=stored.settings)
            await table.storage.set_seat(info.id, seat, occupant)
            await table.storage.clear_deadlines(info.id, seat)
            if seat in bots.stand_ins:
                bots.stand_ins.discard(seat)
                await bots.keep_stand_ins()
            await self.seats_changed()
        await table.after_action()

    async def set_seat(self, seat: int, player: int, kind: str, level: str | None) -> None:
        """The host opens ``seat`` of a waiting table, or puts a computer player there."""
        table = self.table
        async with table.lock:
            self._check_host(player)
            self._check_seat(seat)
            if table.info.status != "waiting":
                raise Refused(
                    "wrong_status", f"the table is {table.info.status}: its seats are set", 409
                )
            occupant = (
                Seat(level=check_level(table.bots.stand_in_level if level is None else level))
                if kind == "bot"
                else OPEN
            )
            await table.storage.set_seat(table.info.id, seat, occupant)
            await self.seats_changed()

    async def rematch(self, player: int, get: Callable[[str], Awaitable[T]]) -> T:
        """A new table with the same game, rules, settings and seats, started at once (the
        same one, asked again); ``get`` finds a table by its token
        (:meth:`Tables.get`)."""
        table = self.table
        async with table.lock:
            info = table.info
            if info.status != "finished":
                raise Refused("wrong_status", "a rematch comes once the match is over", 409)
            if info.host != player and table.seat_of(player) is None:
                raise Refused("not_yours", "only the table's players make a rematch", 403)
            made = info.settings.get("rematch")
            if not isinstance(made, str):
                settings = {
                    k: v
                    for k, v in info.settings.items()
                    if k not in ("rematch", "stand_ins", "left")
                }
                new = await table.storage.create_rematch(
                    info.id,
                    {
                        **settings,
                        "rematch_of": info.token,
                        "names_of": settings.get("names_of", info.token),
                    },
                )  # (made once, though both players ask at two processes at once)
                made = new.token
                table.info = replace(table.info, settings={**info.settings, "rematch": made})
                table.meta += 1
        live = await get(made)
        if live.info.status == "waiting":
            try:
                await live.start()
            except Refused as e:
                if e.code != "wrong_status":
                    raise
                await live.follow()  # started by whoever made it, here or elsewhere: it plays
        await table.server.broadcaster.publish(table.token)
        return live

    async def seats_changed(self) -> None:
        """The seats were changed in storage (someone sat down or left): show it."""
        table = self.table
        table.touch()
        stored = await table.storage.get_table(table.info.id)
        # (the log's version stays this copy's: shared, another process may be ahead)
        table.info = replace(stored, version=table.info.version)
        table.bots.seat()
        table.presence.reseat()  # a snapshot, with the view of the seat each has now
        await table.presence.share()
        table.meta += 1
        await table.server.broadcaster.publish(table.token)
        await self.tell_family()

    async def tell_family(self) -> None:
        """The table's seats or status changed: tell the news of its family's members, if
        it is a family's table (:mod:`briscola.server.news`)."""
        family = self.table.info.family
        if family is not None:
            await self.table.server.broadcaster.publish(family_key(family))

    def _check_host(self, player: int) -> None:
        if self.table.info.host != player:
            raise Refused("not_host", "only the table's host can do that", 403)

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.table.info.seats):
            raise self._no_seat(seat)

    def _no_seat(self, seat: int) -> Refused:
        n = len(self.table.info.seats)
        return Refused(
            "bad_seat",
            f"there is no seat {seat}: the seats are 0 to {n - 1}",
            404,
            values={"n": seat + 1, "last": n},
        )
