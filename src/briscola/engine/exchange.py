"""The trump exchange (rules.md §5): give the 2 or the 7 of trumps for the turned card.

Two timings. On your turn, before playing, while face-down stock remains. Or the
Spanish way: only a player who has just won a trick, with the card held before
drawing, and not in the last round of drawing (when the turned card itself is
drawn). Drawing never touches the turned card before that round, so the winner
makes the Spanish exchange at the start of the lead that follows, among its
choices: no pause that would tell the table it holds the card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from briscola.engine.actions import Action, Exchange
from briscola.engine.addons import (
    Addon,
    AddonKind,
    AddonMaker,
    TrickEngine,
    part_of,
    register_addon,
)
from briscola.engine.cards import Card
from briscola.engine.errors import IllegalActionError, MalformedError, shown
from briscola.engine.events import Event, TrickWon, TrumpExchanged
from briscola.engine.house_rules import RuleValue
from briscola.engine.rules import Rules
from briscola.engine.view_types import View


@dataclass(frozen=True)
class ExchangePart:
    """The trump exchange's part of a position."""

    window: Card | None = None
    """After-win timing: the card that the winner of the last trick, about to lead, may
    still give for the turned card (it held it before drawing); ``None``: no such card."""


class TrumpExchange(Addon):
    actions = (Exchange,)

    def __init__(self, after_win: bool) -> None:
        self.after_win = after_win
        self.window: tuple[int, Card] | None = None
        """After-win timing: (trick count, card) when the last trick's winner held the card
        to give before drawing, until it leads."""

    def copy(self) -> TrumpExchange:
        new = TrumpExchange(self.after_win)
        new.window = self.window
        return new

    def position(self, state: TrickEngine) -> ExchangePart:
        window = self.window
        open_now = window is not None and window[0] == len(state.tricks)
        return ExchangePart(window[1] if window is not None and open_now else None)

    def restore(self, state: TrickEngine, part: object) -> None:
        card = part_of(self, part, ExchangePart).window
        if card is not None and not isinstance(card, Card):
            raise MalformedError(f"ExchangePart: the window is a card or None, not {shown(card)}")
        self.window = None if card is None else (len(state.tricks), card)

    def part_from_view(
        self, view: View, hands: Sequence[Sequence[Card]], rules: Rules
    ) -> ExchangePart:
        """After-win timing: the window is open when the view's legal actions hold the
        exchange."""
        window = None
        for a in view.legal:
            if isinstance(a, Exchange) and self.after_win:
                window = a.card
        return ExchangePart(window)

    @staticmethod
    def exchangeable(state: TrickEngine, seat: int) -> Card | None:
        """The trump card ``seat`` holds and may give for the turned card, if any."""
        turned = state.turned
        if turned is None or len(state.pile) < 2:
            return None
        give = state.rules.exchange_card(turned)
        if give is None or give not in state.hands[seat]:
            return None
        return give

    def open_window(self, state: TrickEngine) -> Card | None:
        """After-win timing: the card the leader may give now, if the window is open."""
        window = self.window
        if window is None or window[0] != len(state.tricks) or state.trick:
            return None
        give = window[1]
        return give if give in state.hands[state.turn] and state.turned is not None else None

    def legal(self, state: TrickEngine) -> list[Action]:
        seat = state.turn
        give = self.open_window(state) if self.after_win else self.exchangeable(state, seat)
        return [] if give is None else [Exchange(seat, give)]

    def check(self, state: TrickEngine, action: Action) -> None:
        assert isinstance(action, Exchange)
        seat = action.seat
        card = action.card
        if state.turned is None:
            raise IllegalActionError("the turned card has already been drawn")
        give = state.rules.exchange_card(state.turned)
        if give is None:
            raise IllegalActionError(f"the turned card {state.turned} cannot be exchanged")
        if card is not give:
            raise IllegalActionError(
                f"the turned card {state.turned} can only be exchanged for {give}, not {card}"
            )
        if card not in state.hands[seat]:
            if card not in state.deal.cards():
                raise IllegalActionError(
                    f"{card} left the deck at this deal: the turned card {state.turned} "
                    "cannot be exchanged"
                )
            raise IllegalActionError(f"seat {seat} does not hold {card}")
        if self.after_win:
            if self.open_window(state) is None:
                raise IllegalActionError(
                    "at this table the turned card may only be exchanged by the winner of the "
                    "last trick, with the card held before drawing, before leading, and not "
                    "in the last round of drawing"
                )
        elif len(state.pile) < 2:
            raise IllegalActionError(
                "the stock has run out; the turned card can no longer be exchanged"
            )

    def apply(self, state: TrickEngine, action: Action) -> list[Event]:
        assert isinstance(action, Exchange)
        taken = state.swap_turned(action.seat, action.card)
        self.window = None
        return [TrumpExchanged(action.seat, action.card, taken)]

    def after_trick(self, state: TrickEngine, won: TrickWon, events: list[Event]) -> None:
        self.window = None
        if self.after_win and len(state.pile) > state.n * state.rules.game.rounds:
            give = self.exchangeable(state, won.winner)
            if give is not None:
                self.window = (len(state.tricks), give)


def _exchange(values: Mapping[str, RuleValue]) -> AddonMaker | None:
    if values["trump_exchange"] == "none":
        return None
    return partial(TrumpExchange, values["exchange_timing"] == "after-win")


EXCHANGE = register_addon(
    AddonKind("exchange", "trump exchange", ("trump_exchange", "exchange_timing"), _exchange)
)
