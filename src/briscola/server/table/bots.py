"""A live table's computer players: the seats' own, and the stand-ins for absent or slow
people.

They sit at the host's seats and think in a worker thread
(:meth:`briscola.host.Table.bot_choice`); their actions go through the writer's checks
and storage as people's do (:meth:`Writer.take`). With several server processes on one
database, a computer player's move is claimed there first (:meth:`Storage.claim_turn`),
so that one process makes it; a process that stops hands its claim on. A person whose
clock ran out is moved for by a player of the stand-ins' level.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from briscola.ai.bot import Bot, BotError, RandomBot, bot_names, make_bot
from briscola.server.errors import Refused
from briscola.server.failures import database_away, log_failed
from briscola.server.logs import table_context
from briscola.server.table import options
from briscola.server.table.ports import Writer
from briscola.words.names import computer_names

log = logging.getLogger("briscola.server")

LEVELS = ("random", "beginner", "intermediate", "strong", "champion")
"""The computer players a table may seat (the project's own levels: no import specs)."""


def check_level(level: str | None) -> str:
    """``level`` when it is one of :data:`LEVELS` this server has, else :class:`Refused`."""
    if level not in LEVELS or level not in bot_names():
        raise Refused(
            "bad_level",
            f"there is no computer player {level!r}: the levels are {', '.join(LEVELS)}",
            values={"level": str(level)},
        )
    return level


class Bots:
    """The computer players of one table: see the module's documentation."""

    def __init__(self, table: Writer) -> None:
        self.table = table
        self.levels: dict[int, str] = {}
        """The level of the computer player the host seats at each seat that has one."""
        self.stand_ins: set[int] = set()
        """The seats of people a computer player stands in for (absent past their grace)."""
        self.task: asyncio.Task[None] | None = None
        """The task moving the computer players to act, one after the other."""

    @property
    def stand_in_level(self) -> str:
        return options.stand_in(self.table.info, self.table.settings.stand_in)

    def computer(self, seat: int) -> bool:
        """Whether a computer player plays ``seat`` now (its own, or a stand-in)."""
        return self.table.info.seats[seat].level is not None or seat in self.stand_ins

    def seat(self) -> None:
        """Seat at the host the computer players the table has now: each seat's own, and
        the stand-ins; a seat a person plays again has none."""
        host = self.table.host
        if host is None:
            return
        for seat, occupant in enumerate(self.table.info.seats):
            level = occupant.level or (self.stand_in_level if seat in self.stand_ins else None)
            if level == self.levels.get(seat):
                continue
            if level is None:
                host.unseat_bot(seat)
                del self.levels[seat]
            else:
                host.seat_bot(seat, self.make(level), level)
                self.levels[seat] = level

    def make(self, level: str) -> Bot:
        """A computer player of ``level`` (a random one when this server lacks it)."""
        try:
            return make_bot(level, secrets.randbits(32))
        except BotError as e:  # a level this server does not have (no numba, say)
            log.warning("table %s: %s; a random player stands in", self.table.token, e)
            return RandomBot(secrets.randbits(32))

    async def keep_stand_ins(self) -> None:
        """Store which seats have a stand-in, so that a restart keeps them."""
        table = self.table
        stored = await table.storage.merge_settings(
            table.info.id, {"stand_ins": sorted(self.stand_ins)}
        )
        table.info = replace(table.info, settings=stored.settings)  # (only they changed)

    def names(self) -> dict[int, str]:
        """The first names of the table's computer players, by seat (a stand-in has none:
        it plays under the person's nickname): of the table's language, chosen from its
        token (a rematch's from the first table's, so that they keep their names), none
        of them a nickname of the people at the table when there are names enough."""
        info = self.table.info
        seed = info.settings.get("names_of")
        bots = [i for i, s in enumerate(info.seats) if s.player is None and s.level is not None]
        known = self.table.server.names
        people = [known.get(s.player) for s in info.seats if s.player is not None]
        return computer_names(
            seed if isinstance(seed, str) else info.token,
            options.lang(info),
            bots,
            [n for n in people if n is not None],
        )

    # -- moving --------------------------------------------------------------------------

    def kick(self) -> None:
        """Start the computer players' task when one of them is to act."""
        table = self.table
        host = table.host
        if host is None or table.info.status != "playing" or table.server.draining:
            return
        turn = host.turn
        if turn is None or not self.computer(turn):
            return
        if self.task is None or self.task.done():
            context = table_context(table.token)
            self.task = asyncio.create_task(self._play(), context=context)

    async def _play(self) -> None:
        # The move (seat, version) this task claimed: one it did not make (the table
        # rebuilt meanwhile, the database away as it was stored) is tried again under its
        # claim, not claimed again (a claim is won once: the move would wait out its lease).
        # A kick finds this task running and starts none; so it returns only on what it
        # read in the step it returns in, never on what it read before an await.
        table = self.table
        held: tuple[int, int] | None = None
        while True:
            async with table.lock:  # (an action being stored has moved the host, not yet
                host = table.host  # the version: the seat and version are read after it)
                if host is None or table.info.status != "playing" or table.server.draining:
                    return
                seat = host.turn
                if seat is None or not self.computer(seat):
                    return
                version = table.info.version
            if table.settings.bot_delay:
                await asyncio.sleep(table.settings.bot_delay)
            if version != table.info.version or table.host is not host or not self.computer(seat):
                continue  # the table moved on, or the person came back while it waited
            try:
                if table.server.shared and held != (seat, version):
                    if not await self._claim(seat, version):
                        if version == table.info.version:
                            return  # another process makes this move
                        continue  # the table moved on meanwhile: maybe to this one's turn
                    held = (seat, version)
                try:
                    await self._move(seat, version)
                except asyncio.CancelledError:  # the process stops: the claim is handed on
                    if table.server.shared:
                        with contextlib.suppress(Exception):  # (else it waits its lease)
                            await self._hand_on(seat, version)
                    raise
            except Exception as e:  # the database away: claimed again once it is back
                if not database_away(e):
                    raise
                log_failed(e, "table %s: seat %d's computer move waits", table.token, seat)
                await asyncio.sleep(1)

    async def _claim(self, seat: int, version: int) -> bool:
        """Claim the computer player's move at ``seat`` and ``version`` for this process
        (:meth:`Storage.claim_turn`): whether it won. A claim won as the process stops
        (its task cancelled while the database answered) is handed on
        (:meth:`_hand_on`): left standing, the move would wait out its lease."""
        table = self.table
        lease = timedelta(seconds=table.settings.lease)
        claim = asyncio.ensure_future(table.storage.claim_turn(table.info.id, seat, version, lease))
        try:
            return await asyncio.shield(claim)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                if await claim:
                    await self._hand_on(seat, version)
            raise

    async def _hand_on(self, seat: int, version: int, kind: str = "bot") -> None:
        """The computer move at ``seat`` and ``version``, claimed here (a computer
        player's, ``bot``, or a clock's that ran out, ``move``), is not made here (the
        process stops): its claim is due now, for another process to make the move at
        once (:meth:`claimed_move`, :meth:`timed_out`)."""
        now = datetime.now(UTC)
        await self.table.storage.set_deadline(self.table.info.id, seat, kind, now, version)

    async def claimed_move(self, seat: int, version: int) -> None:
        """The computer player's move at ``seat`` and ``version``, claimed here once the
        process that claimed it first did not make it in time (it died): made, if the
        table is still there; the claim goes either way."""
        table = self.table
        host = table.host
        here = host is not None and version == table.info.version and host.turn == seat
        if here and self.computer(seat) and not await self._move(seat, version):
            return  # handed on: the process is stopping
        await table.storage.clear_deadline(table.info.id, seat, "bot", version)
        self.kick()

    async def timed_out(self, seat: int, version: int) -> None:
        """The clock of ``seat`` ran out at ``version``: a computer player moves for it."""
        table = self.table
        host = table.host
        if host is not None and version == table.info.version and host.turn == seat:
            log.info("table %s: seat %d's clock ran out", table.token, seat)
            if not await self._move(seat, version):
                return  # handed on: the process is stopping
        if table.server.shared:  # claimed, not cleared, when it was taken (Tables.tick)
            await table.storage.clear_deadline(table.info.id, seat, "move", version)

    async def _move(self, seat: int, version: int) -> bool:
        """A computer player chooses for ``seat`` (the seat's own, its stand-in, or one
        for a person whose clock ran out), and its action is taken if the table is still
        at ``version``; a player that fails is replaced by the first legal action. False
        when the process began to stop meanwhile: the move is not made, and, with several
        processes, its claim (``bot``, or the clock's ``move``) is handed on, due now, for
        another process to make it at once."""
        table = self.table
        host = table.host
        assert host is not None
        seated = seat in host.bots
        if not seated:  # a person's clock ran out: a player of the stand-ins' level
            host.seat_bot(seat, self.make(self.stand_in_level), self.stand_in_level)
        try:
            _, action = await host.bot_choice(table.server.executor)
        except Exception as e:
            log.warning("table %s: the computer player at seat %d failed: %s", table.token, seat, e)
            action = host.view(seat).legal[0]
        finally:
            if not seated:
                host.unseat_bot(seat)
        async with table.lock:
            if version != table.info.version or table.host is not host or host.turn != seat:
                return True  # the table moved on meanwhile
            if table.server.draining:
                if table.server.shared:
                    await self._hand_on(seat, version, "bot" if seated else "move")
                return False
            try:
                await table.take(seat, action, bot=True, ref=None, number=0)
            except Refused as e:
                log.warning("table %s: seat %d's computer move refused: %s", table.token, seat, e)
        if table.server.shared and seated:
            await table.storage.clear_deadline(table.info.id, seat, "bot", version)
        return True
