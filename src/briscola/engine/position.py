"""A position: everything a hand's state holds at one moment, as a documented value.

:meth:`GameState.position() <briscola.engine.state.GameState.position>` gives the
position of a hand; :meth:`GameState.from_position()
<briscola.engine.state.GameState.from_position>` builds a state from one, which plays on
exactly as the hand would (the same legal actions, views and results for the same moves).
A position may also be written by hand, or made from what a seat sees with the hidden
cards dealt out one way (as OpenSpiel resamples a state from an information state): the
search players build their worlds so (:func:`briscola.ai.search.determinize.rebuild_state`).

A position keeps no history: the state built from it has an empty move log (its views'
``move_number`` counts from the position), and its ``deal`` is the position's cards laid
out as a deal (the hands, the stock and the turned card now), not the hand's first deal.

Each add-on keeps its own part, a frozen value of the add-on's own type
(:class:`~briscola.engine.exchange.ExchangePart`, :class:`~briscola.engine.talk.TalkPart`,
:class:`~briscola.engine.chiamata.AuctionPart`), written by :meth:`Addon.position
<briscola.engine.addons.Addon.position>` and restored by :meth:`Addon.restore
<briscola.engine.addons.Addon.restore>`, one for each of the rules' add-ons, in their order.

>>> import random
>>> from briscola.engine import GameState, Rules, shuffled_deal
>>> rules = Rules.make("briscola-4")
>>> state = GameState(rules, shuffled_deal(rules, 0, random.Random(5)))
>>> _ = state.apply(state.legal_actions()[0])
>>> pos = state.position()
>>> pos.turn, pos.trick == tuple(state.trick), len(pos.stock)
(2, True, 27)
>>> GameState.from_position(rules, pos).legal_actions() == state.legal_actions()
True
"""

from __future__ import annotations

from dataclasses import dataclass

from briscola.engine.cards import Card, Suit
from briscola.engine.errors import shown
from briscola.engine.events import TrickWon
from briscola.engine.phases import Phase
from briscola.engine.rules import Rules


@dataclass(frozen=True)
class Position:
    """A hand's state at one moment (see the module's notes). Cards in hands keep their
    order, which is the order of the legal plays."""

    dealer: int
    """The seat that dealt the hand."""
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's cards, by seat."""
    stock: tuple[Card, ...]
    """The face-down stock, the next card to draw first (the turned card not included)."""
    turned: Card | None
    """The turned card, while it lies under the stock (drawn last)."""
    trump: Suit | None
    """The trump suit, once there is one (in chiamata, once the card is called)."""
    order: tuple[int, ...]
    """The seats that play to the current trick, in playing order."""
    trick: tuple[Card, ...]
    """The cards played to the current trick so far; the i-th by ``order[i]``."""
    tricks: tuple[TrickWon, ...]
    """The tricks taken so far, oldest first; each seat's card points are theirs."""
    phase: Phase
    """What kind of action the seat to act takes."""
    turn: int
    """The seat to act, or -1 when the hand is over."""
    sides: tuple[tuple[int, ...], ...]
    """The sides as everyone knows them (see :attr:`GameState.sides
    <briscola.engine.state.GameState.sides>`)."""
    known: tuple[frozenset[Card], ...]
    """Cards everyone knows each seat holds (a turned card it took), by seat."""
    shown: bool
    """Whether partners' hands are shown (the stock ran out under that house rule)."""
    seed: int | None
    """The hand's seed for what the rules draw by chance (spotted signals)."""
    addons: tuple[object, ...]
    """Each add-on's part, in the order of the rules' add-ons (``None`` for an add-on that
    keeps nothing)."""


def misfit(rules: Rules, position: Position) -> str:
    """What in ``position`` does not fit ``rules`` (``""``: nothing): its seats, its cards
    (each card of the deck once, but those a deal of these rules leaves out), the hand
    sizes, the trick and the seat to act."""
    n = rules.players
    if not isinstance(position, Position):
        return f"expected a Position, got {shown(position)}"
    seats = range(n)
    if position.dealer not in seats:
        return f"the dealer is {shown(position.dealer)}, not a seat from 0 to {n - 1}"
    for name in ("hands", "known"):
        if len(getattr(position, name)) != n:
            return f"it has {len(getattr(position, name))} {name}, not {n}"
    cards: list[object] = [c for h in position.hands for c in h]
    cards.extend(position.stock)
    cards.extend(position.trick)
    for t in position.tricks:
        cards.extend(t.cards)
    if position.turned is not None:
        cards.append(position.turned)
    deck = rules.strength  # by the deck's cards
    try:
        seen = set(cards)
    except TypeError:  # an unhashable value
        seen = set()
    if len(seen) != len(cards) or not all(type(c) is Card and c in deck for c in seen):
        return (
            "its cards are not this game's deck: every card once, in hands, stock, trick or "
            "tricks taken, but a card that a deal of these rules leaves out"
        )
    if len(seen) != len(deck):
        missing = frozenset(c for c in rules.deck if c not in seen)
        if missing not in rules.removals:
            return (
                f"its cards are not this game's deck: {len(missing)} are missing, "
                "but a deal of these rules leaves out none of them or other cards"
            )
    most = rules.game.hand_size
    for s, hand in enumerate(position.hands):
        if len(hand) > most:
            return f"seat {s} holds {len(hand)} cards, more than the {most} of a hand"
    if position.turned is not None and position.trump is not position.turned.suit:
        return f"the trump is {shown(position.trump)}, not the suit of the turned card"
    if sorted(s for side in position.sides for s in side) != list(seats):
        return f"its sides {shown(position.sides)} do not hold each seat once"
    if any(t.winner not in seats or not set(t.seats) <= set(seats) for t in position.tricks):
        return "a trick taken names a seat that is not at the table"
    order = position.order
    if not order or not set(order) <= set(seats) or len(position.trick) >= len(order):
        return f"the trick's order {shown(order)} does not fit its {len(position.trick)} cards"
    phase = position.phase
    if phase == Phase.OVER:
        if position.turn != -1 or position.trick:
            return "the hand is over, so no seat acts (turn -1) and no trick is on the table"
        return ""
    if position.turn not in seats:
        return f"the seat to act is {shown(position.turn)}, not a seat from 0 to {n - 1}"
    if phase == Phase.PLAY and position.turn != order[len(position.trick)]:
        return (
            f"seat {shown(position.turn)} is to act, but the trick's order gives seat "
            f"{order[len(position.trick)]} the next card"
        )
    to_play = order[len(position.trick) :]
    for s in seats:
        if to_play.count(s) > len(position.hands[s]):
            return f"seat {s} holds {len(position.hands[s])} cards, too few for this trick"
    return ""
