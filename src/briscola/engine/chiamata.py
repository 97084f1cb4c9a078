"""Briscola chiamata (rules.md §3): the auction, the called card and the secret partner.

All 40 cards are dealt, 8 each. From the seat after the dealer, in playing order,
players bid ranks, each lower than the last in the table's order of strength
(A 3 K Q J 7 6 5 4 2; under ``court_order=south`` the fante outranks the cavallo:
A 3 K J Q 7 6 5 4 2); once a 2 is bid the auction goes on in points, "2 at N" with
N from 61 to 120, each higher than the last. A pass is final. When all but one have
passed, that one calls a suit, naming the called card: its suit is trump and its holder the secret
partner (the caller alone when it is in the caller's own hand). Nobody learns
the partner but from the called card's play. If all five pass, or (house rule)
a player holds no card points, the hand is dealt again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from briscola.engine.actions import BID_RANKS, Action, Bid, Call, Pass
from briscola.engine.addons import (
    Addon,
    AddonKind,
    AddonMaker,
    TrickEngine,
    part_of,
    register_addon,
)
from briscola.engine.cards import Card, Rank, Suit
from briscola.engine.errors import IllegalActionError, MalformedError, shown
from briscola.engine.events import (
    AuctionEnded,
    BidMade,
    CardCalled,
    Event,
    PartnerRevealed,
    ThrownIn,
)
from briscola.engine.house_rules import RuleValue
from briscola.engine.phases import Phase
from briscola.engine.rules import Rules
from briscola.engine.view_types import AuctionView, View

AUCTION = Phase.AUCTION
CALL = Phase.CALL

POINTS_BASE = len(BID_RANKS)


def bid_ranks(rules: Rules) -> tuple[Rank, ...]:
    """The bid ranks of the table, from the first (highest) to the last: its order of
    strength, so that under ``court_order=south`` the J comes before the Q (rules.md §3)."""
    strength = rules.strength
    return tuple(sorted(BID_RANKS, key=lambda r: strength[Card(r, Suit.COPPE)], reverse=True))


def level(bid: Bid, ranks: tuple[Rank, ...] = BID_RANKS) -> int:
    """Bids in one order: the ``ranks`` from the first (0) to the 2 (9), then 2 at 61 (10)
    to 2 at 120."""
    if bid.rank is not None:
        return ranks.index(bid.rank)
    assert bid.points is not None
    return POINTS_BASE + bid.points - 61


def parse_bid(seat: int, text: str) -> Bid:
    """A bid as the auction writes it (``"K"``, ``"2 at 75"``), made by ``seat``.

    :raises MalformedError: when it is no bid.
    """
    try:
        if text.startswith("2 at "):
            return Bid(seat, points=int(text[5:]))
        return Bid(seat, rank=Rank(text))
    except ValueError:
        raise MalformedError(
            f"{shown(text)} is not a bid: write a rank (A, 3, K, ...) or 2 at N"
        ) from None


@dataclass(frozen=True)
class AuctionPart:
    """Briscola chiamata's part of a position."""

    bids: tuple[tuple[int, str], ...] = ()
    """The auction so far: (seat, bid) in order, a bid as ``K``, ``2 at 75`` or ``pass``."""
    caller: int | None = None
    """The seat that won the auction, once it is over."""
    called: Card | None = None
    """The called card, once called."""
    partner: int | None = None
    """The seat that holds (or played) the called card, once called: the caller alone
    when it is the caller's own."""
    revealed: bool = False
    """Whether the called card has been played, so that the partner is known."""
    void: bool = False
    """Whether the hand ended with no play (all passed, or thrown in), to be dealt again."""


class Chiamata(Addon):
    actions = (Bid, Pass, Call)
    phases = (AUCTION, CALL)

    def __init__(self, leader: str, multipliers: bool, throw_in: bool) -> None:
        self.leader_rule = leader
        self.multipliers = multipliers
        self.throw_in = throw_in
        self.bids: list[tuple[int, str]] = []
        self.passed: set[int] = set()
        self.high: Bid | None = None
        self.bidder: int | None = None
        self.caller: int | None = None
        self.called: Card | None = None
        self.partner: int | None = None
        self.revealed = False
        self.redeal_needed = False
        """The hand ends with no play (all passed, or thrown in) and is dealt again."""
        self.ranks: tuple[Rank, ...] = BID_RANKS
        """The bid ranks in the table's order (:func:`bid_ranks`), set at the start."""

    def copy(self) -> Chiamata:
        new = Chiamata(self.leader_rule, self.multipliers, self.throw_in)
        new.__dict__.update(self.__dict__)
        new.bids = list(self.bids)
        new.passed = set(self.passed)
        return new

    def position(self, state: TrickEngine) -> AuctionPart:
        return AuctionPart(
            bids=tuple(self.bids),
            caller=self.caller,
            called=self.called,
            partner=self.partner,
            revealed=self.revealed,
            void=self.redeal_needed,
        )

    def part_from_view(
        self, view: View, hands: Sequence[Sequence[Card]], rules: Rules
    ) -> AuctionPart:
        """The auction as the view shows it, and the partner: the seat that played the
        called card, else the one that holds it in ``hands``."""
        auc = view.auction
        if auc is None:  # a view made by hand: the auction not begun
            return AuctionPart()
        called = auc.called
        played = None if called is None else view.played_by(called)
        partner = played
        if called is not None and played is None:
            partner = next((s for s, hand in enumerate(hands) if called in hand), None)
        revealed = played is not None
        return AuctionPart(auc.bids, auc.caller, called, partner, revealed, void=False)

    def restore(self, state: TrickEngine, part: object) -> None:
        p = part_of(self, part, AuctionPart)
        self.ranks = bid_ranks(state.rules)
        self.bids = list(p.bids)
        self.passed = {s for s, b in p.bids if b == "pass"}
        made = [(s, b) for s, b in p.bids if b != "pass"]
        self.bidder = made[-1][0] if made else None
        self.high = parse_bid(*made[-1]) if made else None
        self.caller = p.caller
        self.called = p.called
        self.partner = p.partner
        self.revealed = p.revealed
        self.redeal_needed = p.void
        if p.called is not None and (p.caller is None or p.partner is None):
            raise MalformedError("AuctionPart: a called card needs its caller and partner")

    # ------------------------------------------------------------------ the auction

    def start(self, state: TrickEngine) -> list[Event]:
        self.ranks = bid_ranks(state.rules)
        first = (state.deal.dealer + 1) % state.n
        state.set_turn(first, AUCTION)
        state.set_trump(None)
        if self.throw_in:
            points = state.rules.points
            for seat in state.rules.rounds_from[first]:
                hand = state.hands[seat]
                if sum(points[c] for c in hand) == 0:
                    self.redeal_needed = True
                    events: list[Event] = [ThrownIn(seat, tuple(hand))]
                    state.finish(events)
                    return events
        return []

    def legal(self, state: TrickEngine) -> list[Action]:
        seat = state.turn
        if state.phase == AUCTION:
            out: list[Action] = [Pass(seat)]
            current = -1 if self.high is None else level(self.high, self.ranks)
            if current < POINTS_BASE - 1:
                out.extend(Bid(seat, rank=r) for r in self.ranks[current + 1 :])
            else:
                low = 61 + max(0, current - POINTS_BASE + 1)
                out.extend(Bid(seat, points=p) for p in range(low, 121))
            return out
        if state.phase == CALL:
            rank = self.call_rank()
            return [Call(seat, Card(rank, suit)) for suit in Suit]
        return []

    def call_rank(self) -> Rank:
        assert self.high is not None
        return Rank.TWO if self.high.rank is None else self.high.rank

    def check(self, state: TrickEngine, action: Action) -> None:
        if state.phase == AUCTION:
            if isinstance(action, Pass):
                return
            if not isinstance(action, Bid):
                raise IllegalActionError(
                    f"the auction comes first: seat {action.seat} must bid or pass"
                )
            ranks = " ".join(r.value for r in self.ranks)
            if action.rank is not None and action.rank not in self.ranks:
                raise IllegalActionError(f"{action.rank.value} is not a bid: bid a rank of {ranks}")
            if action.rank is None and not (
                action.points is not None and 61 <= action.points <= 120
            ):
                raise IllegalActionError(
                    f"a bid of 2 at {shown(action.points)} is out of range: bid 61 to 120 points"
                )
            if self.high is not None and level(action, self.ranks) <= level(self.high, self.ranks):
                raise IllegalActionError(
                    f"a bid of {action} does not beat {self.high}: bid a lower rank (in the "
                    f"order {ranks}), or once a 2 is bid, more points"
                )
            if action.rank is None and (
                self.high is None or level(self.high, self.ranks) < POINTS_BASE - 1
            ):
                raise IllegalActionError("points are bid only once someone has bid a 2")
            return
        if state.phase == CALL:
            if not isinstance(action, Call):
                raise IllegalActionError(f"seat {action.seat} won the auction and must call a card")
            rank = self.call_rank()
            if action.card.rank is not rank:
                raise IllegalActionError(
                    f"the bid was {self.high}: call a card of rank {rank.value}, not {action.card}"
                )
            return
        if isinstance(action, Bid | Pass | Call):
            raise IllegalActionError("the auction and the call are over")

    def apply(self, state: TrickEngine, action: Action) -> list[Event]:
        seat = action.seat
        if isinstance(action, Call):
            return self._call(state, seat, action.card)
        events: list[Event]
        if isinstance(action, Pass):
            self.passed.add(seat)
            self.bids.append((seat, "pass"))
            events = [BidMade(seat, "pass")]
        else:
            assert isinstance(action, Bid)
            self.high = action
            self.bidder = seat
            self.bids.append((seat, str(action)))
            events = [BidMade(seat, str(action))]
        active = [s for s in state.rules.rounds_from[seat] if s not in self.passed]
        if not active:
            self.redeal_needed = True
            events.append(AuctionEnded(None, None))
            state.finish(events)
        elif len(active) == 1 and self.bidder == active[0]:
            self.caller = active[0]
            events.append(AuctionEnded(self.caller, str(self.high)))
            state.set_turn(self.caller, CALL)
        else:
            nxt = next(s for s in state.rules.rounds_from[seat][1:] if s not in self.passed)
            state.set_turn(nxt, AUCTION)
        return events

    def _call(self, state: TrickEngine, seat: int, card: Card) -> list[Event]:
        self.called = card
        self.partner = next(s for s, h in enumerate(state.hands) if card in h)
        state.set_trump(card.suit)
        dealer_right = (state.deal.dealer + 1) % state.n
        state.lead(seat if self.leader_rule == "caller" else dealer_right)
        return [CardCalled(seat, card)]

    # ------------------------------------------------------------------ play and score

    def after_play(self, state: TrickEngine, seat: int, card: Card, events: list[Event]) -> None:
        """The called card's play reveals the partner, and the sides are known from that
        moment, not from the end of its trick (rules.md §3)."""
        if card is self.called and not self.revealed:
            self.revealed = True
            assert self.caller is not None and self.partner is not None
            team = tuple(sorted({self.caller, self.partner}))
            others = tuple(s for s in range(state.n) if s not in team)
            state.set_sides(tuple(sorted((team, others))))
            events.append(PartnerRevealed(self.caller, self.partner))

    def need(self) -> int:
        """Card points the caller's side needs."""
        return 61 if self.high is None or self.high.points is None else self.high.points

    def contract(self, state: TrickEngine) -> tuple[tuple[int, ...], int] | None:
        """Once the card is called: the caller and the called card's holder, who need the
        points of the bid (61 for a rank)."""
        if self.caller is None or self.partner is None:
            return None
        return tuple(sorted({self.caller, self.partner})), self.need()

    def redeal(self, state: TrickEngine) -> bool:
        return self.redeal_needed

    def winners(self, state: TrickEngine) -> tuple[int, ...] | None:
        if self.redeal_needed or self.caller is None or self.partner is None:
            return ()
        team = {self.caller, self.partner}
        taken = sum(state.seat_points[s] for s in team)
        if taken >= self.need():
            return tuple(sorted(team))
        return tuple(s for s in range(state.n) if s not in team)

    def scores(self, state: TrickEngine) -> tuple[int, ...] | None:
        if self.redeal_needed or self.caller is None or self.partner is None:
            return tuple(0 for _ in range(state.n))
        won = self.caller in state.winners()
        alone = self.caller == self.partner
        sign = 1 if won else -1
        factor = 1
        taken = sum(state.seat_points[s] for s in {self.caller, self.partner})
        if taken in (0, 120):
            factor *= 2  # cappotto
        if self.multipliers and self.high is not None and self.high.points is not None:
            factor *= multiplier(self.high.points)
        out = []
        for s in range(state.n):
            if s == self.caller:
                base = 4 if alone else 2
            elif s == self.partner:
                base = 1
            else:
                base = -1
            out.append(sign * base * factor)
        return tuple(out)

    # ------------------------------------------------------------------ what seats know

    def known_partner(self, state: TrickEngine, seat: int | None) -> int | None:
        if self.partner is None:
            return None
        if self.revealed or (seat is not None and seat == self.partner):
            return self.partner
        return None

    def view(self, state: TrickEngine, seat: int | None) -> dict[str, Any]:
        return {
            "auction": AuctionView(
                bids=tuple(self.bids),
                high=None if self.high is None else str(self.high),
                bidder=self.bidder,
                caller=self.caller,
                called=self.called,
                partner=self.known_partner(state, seat),
            )
        }

    def report(self, state: TrickEngine) -> dict[str, Any]:
        scores = self.scores(state) if state.over else None
        return {
            "auction": [bid_move(s, b) for s, b in self.bids],
            "caller": self.caller,
            "called": None if self.called is None else str(self.called),
            "partner": self.known_partner(state, None),
            "redeal": self.redeal_needed,
            "score": None if scores is None else list(scores),
        }


def bid_move(seat: int, bid: str) -> dict[str, Any]:
    """A bid as the record's moves write it: ``{"seat": 3, "bid": "K"}``, ``"pass"``, or
    the points of "2 at N" as a number (``{"seat": 3, "bid": 75}``)."""
    points = bid.removeprefix("2 at ")
    return {"seat": seat, "bid": int(points) if points != bid else bid}


def multiplier(points: int) -> int:
    """The high-bid multiplier: 71-80 x2, 81-90 x3, 91-100 x4, 101 and more x5."""
    if points <= 70:
        return 1
    return min(5, 2 + (points - 71) // 10)


def _chiamata(values: Mapping[str, RuleValue]) -> AddonMaker | None:
    leader = str(values["leader"])
    return partial(
        Chiamata, leader, values["multipliers"] == "high-bids", values["throw_in"] == "yes"
    )


CHIAMATA = register_addon(
    AddonKind("chiamata", "chiamata", ("leader", "multipliers", "throw_in"), _chiamata)
)
