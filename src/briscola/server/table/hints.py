"""A hint for a person at a live table (:mod:`briscola.analysis.hints`): who may ask for
one, and the hint itself, worked out in the computer players' threads from a copy of the
hand."""

from __future__ import annotations

from briscola.server.errors import Refused
from briscola.server.messages import HintOut
from briscola.server.table import options
from briscola.server.table.ports import Writer


class Hints:
    """The hints of one table: see the module's documentation."""

    def __init__(self, table: Writer) -> None:
        self.table = table

    def hints_for(self, seat: int) -> bool:
        """Whether the person at ``seat`` may ask for a hint: the table was opened with
        hints, or only computer players sit beside them (a practice table)."""
        info = self.table.info
        if options.hints(info):
            return True
        return all(s.level is not None for i, s in enumerate(info.seats) if i != seat)

    async def hint(self, player: int) -> HintOut:
        """A hint for ``player``'s seat now (:mod:`briscola.analysis.hints`), worked out in
        the hints' worker process from a copy of the hand (:meth:`Analyst.hint`).
        :class:`Refused`: not a seated player (``not_yours``), a table that gives no hints
        (``no_hints``), not the seat's turn to play a card (``not_your_turn``)."""
        from briscola.analysis import NoHint

        table = self.table
        seat = table.seat_of(player)
        if seat is None:
            raise Refused("not_yours", "a hint is for a player seated at the table", 403)
        if not self.hints_for(seat):
            raise Refused(
                "no_hints",
                "this table gives no hints: a practice table (only computer players beside "
                "you) does, and a table opened with hints",
                403,
            )
        async with table.lock:
            host = table.playing()
            state = host.state.copy()
            version = host.number(seat)
        try:
            body = await table.server.analyst.hint(state, seat, version)
        except NoHint as e:
            raise Refused("not_your_turn", str(e), 409) from None
        return HintOut(version=version, **body)
