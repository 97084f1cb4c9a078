"""Views: what one seat (or a spectator) may know, built by copying only that.

A view is never made by deleting secrets from the state: each field below is
copied in on purpose, from what a player in that seat sees at a real table. It
is all a person, a bot or a socket ever gets.

>>> import random
>>> from briscola.engine.games import Rules
>>> from briscola.engine.deal import shuffled_deal
>>> from briscola.engine.state import GameState
>>> rules = Rules.make("briscola-2")
>>> state = GameState(rules, shuffled_deal(rules, dealer=1, rng=random.Random(3)))
>>> view = seat_view(state, 0)
>>> len(view.hand), view.to_act, len(view.legal), view.stock_size
(3, 0, 3, 33)
>>> spectator_view(state).hand
()
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from briscola.engine.actions import Action
from briscola.engine.cards import Card, Suit
from briscola.engine.errors import MalformedError, shown
from briscola.engine.events import Talk, TrickWon
from briscola.engine.house_rules import RuleValue
from briscola.engine.phases import Phase
from briscola.engine.state import GameState
from briscola.engine.view_parts import AuctionView


@dataclass(frozen=True)
class TrickView:
    """A finished trick: who led, who played what in order, who took it and its points."""

    leader: int
    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    winner: int
    points: int

    @classmethod
    def of(cls, won: TrickWon) -> TrickView:
        return cls(won.leader, won.seats, won.cards, won.winner, won.points)

    def to_json(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "seats": list(self.seats),
            "cards": [str(c) for c in self.cards],
            "winner": self.winner,
            "points": self.points,
        }


@dataclass(frozen=True)
class View:
    """What one seat (``seat``), or a spectator (``seat`` is ``None``), may know of a hand."""

    game: str
    seat: int | None
    players: int
    sides: tuple[tuple[int, ...], ...]
    """Seats of each side, in the order of ``points``."""
    dealer: int
    direction: str
    """``right`` or ``left``: how seat numbers go round the physical table."""
    phase: Phase
    to_act: int | None
    """The seat to act, or ``None`` when the hand is over."""
    hand: tuple[Card, ...]
    """This seat's cards (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds."""
    visible_hands: dict[int, tuple[Card, ...]]
    """Whole hands of other seats that this viewer sees (open hands, partners shown)."""
    known_cards: dict[int, tuple[Card, ...]]
    """Cards of other seats' hands that everyone knows (a turned card they took)."""
    trump: Suit | None
    turned: Card | None
    """The turned card while it lies under the stock."""
    stock_size: int
    """Face-down cards left to draw (the turned card not counted)."""
    stock_top: Card | None
    """The top card of the stock when it is face up (scoperta)."""
    trick: tuple[tuple[int, Card], ...]
    """The trick on the table: (seat, card) in the order played."""
    trick_order: tuple[int, ...]
    """The seats that play to this trick, in order."""
    tricks: tuple[TrickView, ...]
    """Every finished trick of the hand, as the seat saw them played."""
    last_trick: TrickView | None
    """The last trick taken, when the house rule lets players look at it."""
    points: tuple[int, ...]
    """Card points taken by each side."""
    winners: tuple[int, ...]
    """The seats of the side that won the finished hand (empty while playing, or on a tie)."""
    rules: dict[str, RuleValue]
    """The table's house rules, every one (defaults included): public at every table."""
    legal: tuple[Action, ...] = field(default=())
    """The actions this seat may take now."""
    talk: tuple[Talk, ...] = ()
    """Partner communication this seat has seen: signals, questions with their answers,
    orders, and a rais looking at a hand."""
    auction: AuctionView | None = None
    """Chiamata: the auction, the call, and the partner as far as this seat knows."""

    def to_json(self) -> dict[str, Any]:
        """The view as plain JSON types, for sockets and bots in other languages."""

        def cards(cs: tuple[Card, ...]) -> list[str]:
            return [str(c) for c in cs]

        return {
            "game": self.game,
            "seat": self.seat,
            "players": self.players,
            "sides": [list(s) for s in self.sides],
            "dealer": self.dealer,
            "direction": self.direction,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand": cards(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "visible_hands": {str(s): cards(h) for s, h in self.visible_hands.items()},
            "known_cards": {str(s): cards(h) for s, h in self.known_cards.items()},
            "trump": None if self.trump is None else self.trump.value,
            "turned": None if self.turned is None else str(self.turned),
            "stock_size": self.stock_size,
            "stock_top": None if self.stock_top is None else str(self.stock_top),
            "trick": [[s, str(c)] for s, c in self.trick],
            "trick_order": list(self.trick_order),
            "tricks": [t.to_json() for t in self.tricks],
            "last_trick": None if self.last_trick is None else self.last_trick.to_json(),
            "points": list(self.points),
            "winners": list(self.winners),
            "rules": dict(self.rules),
            "legal": [a.to_json() for a in self.legal],
            "talk": [t.to_json() for t in self.talk],
            "auction": None if self.auction is None else self.auction.to_json(),
        }


def seat_view(state: GameState, seat: int) -> View:
    """What ``seat`` may know now, with its legal actions.

    :raises MalformedError: when ``state`` is not a hand or the table has no such seat.
    """
    _check_state(state, "seat_view")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
        raise MalformedError(
            f"seat_view: there is no seat {shown(seat)} at this table: give a seat from 0 to "
            f"{state.n - 1}, or use spectator_view(state) for someone watching"
        )
    return _build(state, seat)


def spectator_view(state: GameState) -> View:
    """What someone watching the table, holding no cards, may know now."""
    _check_state(state, "spectator_view")
    return _build(state, None)


def _check_state(state: object, where: str) -> None:
    if not isinstance(state, GameState):
        raise MalformedError(
            f"{where}: expected a hand (a GameState; a Match's is match.hand), got {shown(state)}"
        )


def _build(state: GameState, seat: int | None) -> View:
    rules = state.rules
    game = rules.game
    extra: dict[str, Any] = {}
    sees: set[int] = set()
    for addon in state.addons:
        extra.update(addon.view(state, seat))
        if seat is not None:
            sees |= addon.sees(state, seat)
    visible: dict[int, tuple[Card, ...]] = {}
    for other in range(state.n):
        if other == seat:
            continue
        if (
            game.open_hands
            or other in sees
            or (state.shown and seat is not None and rules.side_of[other] == rules.side_of[seat])
        ):
            visible[other] = tuple(state.hands[other])
    known = {
        s: tuple(sorted(cards))
        for s, cards in enumerate(state.known)
        if cards and s != seat and s not in visible
    }
    stock_top = None
    if game.open_hands and state.stock_size > 0:
        stock_top = state.pile[-1]
    show_last = rules.last_trick_allowed
    over = state.over
    to_act = None if over else state.turn
    return View(
        game=rules.key,
        seat=seat,
        players=state.n,
        sides=state.sides,
        dealer=state.deal.dealer,
        direction=rules.direction,
        phase=state.phase,
        to_act=to_act,
        hand=() if seat is None else tuple(state.hands[seat]),
        hand_sizes=tuple(len(h) for h in state.hands),
        visible_hands=visible,
        known_cards=known,
        trump=state.trump,
        turned=state.turned,
        stock_size=state.stock_size,
        stock_top=stock_top,
        trick=tuple(zip(state.order, state.trick, strict=False)),
        trick_order=tuple(state.order) if not over else (),
        tricks=tuple(TrickView.of(t) for t in state.tricks),
        last_trick=TrickView.of(state.tricks[-1]) if show_last and state.tricks else None,
        points=tuple(state.points),
        winners=state.winners(),
        rules=dict(rules.options),
        legal=tuple(state.legal_actions()) if seat is not None and seat == to_act else (),
        **extra,
    )
