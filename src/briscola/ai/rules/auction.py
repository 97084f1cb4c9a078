"""Briscola chiamata's auction for bots: judging a hand, how far to bid, what to call.

A hand is judged suit by suit as if that suit were trump: each trump by its rank
(the ace and three are worth most), a bonus for length, and the plain aces and
threes, which take points when the suit is led. The bid rank names the partner's
card: bidding lower means a weaker card in the partner's hand, so the lower the
rank, the stronger one's own hand must be; bids in points ("2 at N") need more again.
The order of the ranks, and what the fante and the cavallo are worth, are the table's:
under ``court_order=south`` the fante outranks the cavallo (pass ``south``).

>>> from briscola.engine.cards import parse_cards
>>> hand = parse_cards("Ad 3d Kd 7d 5d Ab 4c 2s".split())
>>> suit, value = best_suit(hand, Rank.QUEEN)  # calling the cavallo of the best suit
>>> suit.italian, value, value >= needed(bid_level(Bid(0, rank=Rank.QUEEN)))
('denari', 52.5, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from briscola.engine.actions import BID_RANKS, Action, Bid, Call, Pass
from briscola.engine.cards import Card, Rank, Suit

TRUMP_VALUE = {
    Rank.ACE: 11.0,
    Rank.THREE: 10.0,
    Rank.KING: 7.0,
    Rank.QUEEN: 6.0,
    Rank.JACK: 5.0,
    Rank.SEVEN: 4.0,
    Rank.SIX: 3.5,
    Rank.FIVE: 3.0,
    Rank.FOUR: 3.0,
    Rank.TWO: 3.0,
}
"""What a card of the trump suit is worth to the side holding it (the northern court
order: the cavallo above the fante)."""

PLAIN_VALUE = {Rank.ACE: 4.0, Rank.THREE: 1.5, Rank.KING: 0.5}
"""What a plain card is worth: an ace often takes its suit's first trick."""

OPEN_AT = 23.0
"""The hand value (own hand plus the called card) at which a bot opens with the ace."""
PER_RANK = 0.55
"""How much more value each lower bid rank asks for."""
PER_POINT = 0.3
"""How much more value each point over 61 asks for, once the bidding is in points."""


SOUTH_RANKS = {Rank.QUEEN: Rank.JACK, Rank.JACK: Rank.QUEEN}
"""Under ``court_order=south`` the fante (J) takes the cavallo's (Q) place, and back."""


def trump_value(rank: Rank, south: bool = False) -> float:
    """What a card of this rank in the trump suit is worth (``south``: the court order
    K, J, Q)."""
    return TRUMP_VALUE[SOUTH_RANKS.get(rank, rank) if south else rank]


def suit_value(hand: Sequence[Card], trump: Suit, south: bool = False) -> float:
    """The strength of ``hand`` if ``trump`` were trump."""
    value = 0.0
    trumps = 0
    for c in hand:
        if c.suit is trump:
            trumps += 1
            value += trump_value(c.rank, south)
        else:
            value += PLAIN_VALUE.get(c.rank, 0.0)
            if c.rank is Rank.THREE and Card(Rank.ACE, c.suit) in hand:
                value += 3.0  # the three is safe behind its own ace
    return value + 2.5 * max(0, trumps - 2)


def best_suit(hand: Sequence[Card], rank: Rank, south: bool = False) -> tuple[Suit, float]:
    """The suit to call with ``rank`` and the hand's value with it: the called card's
    worth added when a partner holds it, and a penalty for calling one's own card
    (playing alone)."""
    best: tuple[Suit, float] | None = None
    for suit in Suit:
        called = Card(rank, suit)
        value = suit_value(hand, suit, south)
        value += -8.0 if called in hand else trump_value(rank, south)
        if best is None or value > best[1]:
            best = (suit, value)
    assert best is not None
    return best


def bid_level(bid: Bid, south: bool = False) -> int:
    """0 for the ace up to 9 for the 2, then 10 for 2 at 61 and on (``south``: the fante
    before the cavallo)."""
    if bid.rank is not None:
        return BID_RANKS.index(SOUTH_RANKS.get(bid.rank, bid.rank) if south else bid.rank)
    assert bid.points is not None
    return len(BID_RANKS) + bid.points - 61


def needed(level: int) -> float:
    """The hand value a bot wants before making a bid of this level."""
    if level < len(BID_RANKS):
        return OPEN_AT + PER_RANK * level
    points = level - len(BID_RANKS) + 61
    return OPEN_AT + PER_RANK * (len(BID_RANKS) - 1) + 2.0 + PER_POINT * (points - 61)


def choose_bid(hand: Sequence[Card], legal: Sequence[Action], south: bool = False) -> Action:
    """The cheapest legal bid when the hand is worth it (with the best card to call),
    else a pass (``south``: the court order K, J, Q)."""
    bids = sorted((a for a in legal if isinstance(a, Bid)), key=lambda b: bid_level(b, south))
    passing = next(a for a in legal if isinstance(a, Pass))
    if not bids:
        return passing
    cheapest = bids[0]
    rank = cheapest.rank if cheapest.rank is not None else Rank.TWO
    _, value = best_suit(hand, rank, south)
    if value >= needed(bid_level(cheapest, south)):
        return cheapest
    return passing


def rough_bid(
    hand: Sequence[Card], legal: Sequence[Action], mood: int = 0, south: bool = False
) -> Action:
    """A newcomer's bid: count the aces and threes and the longest suit, and bid while
    the count looks big enough for the level (``mood`` adds to the count; ``south``: the
    court order K, J, Q)."""
    bids = sorted((a for a in legal if isinstance(a, Bid)), key=lambda b: bid_level(b, south))
    passing = next(a for a in legal if isinstance(a, Pass))
    if not bids:
        return passing
    high = sum(1 for c in hand if c.rank in (Rank.ACE, Rank.THREE))
    longest = max(sum(1 for c in hand if c.suit is s) for s in Suit)
    level = bid_level(bids[0], south)
    limit = 4 + level / 2 if level < len(BID_RANKS) else 9 + (level - len(BID_RANKS)) / 4
    return bids[0] if high + longest + mood >= limit else passing


def rough_call(hand: Sequence[Card], legal: Sequence[Action]) -> Action:
    """A newcomer's call: the suit it holds most of (then the most aces and threes),
    a card in another hand if it can."""
    calls = [a for a in legal if isinstance(a, Call)]

    def weight(a: Call) -> tuple[bool, int, int]:
        suit = a.card.suit
        mine = [c for c in hand if c.suit is suit]
        high = sum(1 for c in mine if c.rank in (Rank.ACE, Rank.THREE))
        return a.card not in hand, len(mine), high

    return max(calls, key=weight)


def choose_call(hand: Sequence[Card], legal: Sequence[Action], south: bool = False) -> Action:
    """Call the card of the bid rank in the suit where the hand is strongest."""
    calls = [a for a in legal if isinstance(a, Call)]
    rank = calls[0].card.rank
    suit, _ = best_suit(hand, rank, south)
    return next(a for a in calls if a.card.suit is suit)
