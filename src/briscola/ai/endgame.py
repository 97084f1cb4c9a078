"""A small exact search for the last tricks of a head-to-head hand, once every card is
known: the stock is empty and the opponent holds exactly the cards not yet seen (or
its hand lies face up). It plays the few remaining tricks out in every order, with
alpha-beta, and returns the card that keeps the most points for the seat to play.

It is the intermediate bot's endgame awareness, kept deliberately small (a few
cards each, well under a millisecond); the full solver lives elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from briscola.ai.counting import Reading, beats
from briscola.engine.cards import Card, Suit

MAX_CARDS = 3
"""Search only when each player holds at most this many cards."""


def known_hands(r: Reading) -> dict[int, list[Card]] | None:
    """Both hands of a two-player hand once nothing is hidden, else ``None``."""
    view = r.view
    if view.players != 2 or view.stock_size > 0 or view.turned is not None:
        return None
    me = r.me
    other = 1 - me
    size = view.hand_sizes[other]
    if other in view.visible_hands:
        theirs = list(view.visible_hands[other])
    else:
        theirs = sorted(r.unseen | r.located.get(other, set()), key=lambda c: c.index)
    if len(theirs) != size:
        return None  # a card of the deck is unaccounted for (a removed card): no certainty
    return {me: list(view.hand), other: theirs}


def best_play(r: Reading, follow_suit: bool) -> Card | None:
    """The card to play by exact search, or ``None`` when the position is not known
    exactly or too large to search."""
    hands = known_hands(r)
    if hands is None:
        return None
    view = r.view
    if max(len(h) for h in hands.values()) > MAX_CARDS:
        return None
    if len(view.trick_order) not in (2, 4):
        return None
    search = _Search(
        r.me,
        r.tables.strength,
        r.tables.points,
        r.trump,
        follow_suit,
        len(view.trick_order) // 2,
    )
    best_card: Card | None = None
    best = -1_000
    trick = list(view.trick)
    order = list(view.trick_order)
    for card in search.moves(hands[r.me], trick):
        hands[r.me].remove(card)
        trick.append((r.me, card))
        value = search.value(hands, trick, order, best, 1_000)
        trick.pop()
        hands[r.me].append(card)
        if value > best:
            best = value
            best_card = card
    return best_card


class _Search:
    """Alpha-beta over the rest of a two-player hand, in points of the searching seat
    minus the opponent's."""

    def __init__(
        self,
        me: int,
        strength: Mapping[Card, int],
        points: Mapping[Card, int],
        trump: Suit | None,
        follow_suit: bool,
        rounds: int,
    ) -> None:
        self.me = me
        self.strength = strength
        self.points = points
        self.trump = trump
        self.follow_suit = follow_suit
        self.rounds = rounds

    def moves(self, hand: Sequence[Card], trick: Sequence[tuple[int, Card]]) -> list[Card]:
        if self.follow_suit and trick:
            led = trick[0][1].suit
            same = [c for c in hand if c.suit is led]
            if same:
                return same
        return list(hand)

    def value(
        self,
        hands: dict[int, list[Card]],
        trick: list[tuple[int, Card]],
        order: list[int],
        alpha: int,
        beta: int,
    ) -> int:
        if len(trick) == len(order):
            top_seat, top = trick[0]
            for seat, card in trick[1:]:
                if beats(card, top, self.trump, self.strength):
                    top_seat, top = seat, card
            pts = sum(self.points[c] for _, c in trick)
            gained = pts if top_seat == self.me else -pts
            if not any(hands.values()):
                return gained
            nxt = [top_seat, 1 - top_seat] * self.rounds
            return gained + self.value(hands, [], nxt, alpha - gained, beta - gained)
        seat = order[len(trick)]
        hand = hands[seat]
        mine = seat == self.me
        best = -1_000 if mine else 1_000
        for card in self.moves(hand, trick):
            hand.remove(card)
            trick.append((seat, card))
            v = self.value(hands, trick, order, alpha, beta)
            trick.pop()
            hand.append(card)
            if mine:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best
