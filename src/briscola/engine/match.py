"""A match: hands dealt one after another to the table's target, the deal passing on.

>>> import random
>>> from briscola.engine.games import Rules
>>> m = Match(Rules.make("briscola-2", {"match": "best-of-3"}), random.Random(5))
>>> while not m.over:
...     _ = m.apply(m.hand.legal_actions()[0])
>>> max(m.hands_won)
2
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import NamedTuple

from briscola.engine.actions import Action
from briscola.engine.cards import Card
from briscola.engine.deal import check_dealer, shuffled_deal
from briscola.engine.errors import GameOverError, MalformedError, shown
from briscola.engine.events import Audience, Event
from briscola.engine.games import Rules
from briscola.engine.state import GameState


class PartnersDrawn(NamedTuple):
    """Before the first hand each player drew a card; ``seating[seat]`` is the player there."""

    cards: tuple[Card, ...]
    seating: tuple[int, ...]
    audience: Audience = None


class HandStarted(NamedTuple):
    number: int
    dealer: int
    audience: Audience = None


class HandScored(NamedTuple):
    """The match's reckoning of a finished hand."""

    number: int
    points: tuple[int, ...]
    winners: tuple[int, ...]
    counted: int
    """Hands this result counts for (2 for a cappotto under that house rule, 0 for a tie)."""
    replayed: bool
    """The hand is dealt again (60-60 under that house rule; in chiamata, all passed or the
    deal was thrown in)."""
    scores: tuple[int, ...] | None = None
    """Chiamata: the score points of each seat for this hand."""
    audience: Audience = None


class MatchOver(NamedTuple):
    winners: tuple[int, ...]
    hands_won: tuple[int, ...]
    totals: tuple[int, ...]
    scores: tuple[int, ...]
    """Chiamata: each seat's score points (zeros in the other games)."""
    audience: Audience = None


@dataclass(frozen=True)
class Target:
    """What ends the match: ``kind`` is ``hands`` (won hands) or ``points`` (card points)."""

    kind: str
    goal: int

    @classmethod
    def parse(cls, value: str) -> Target:
        fixed = {"best-of-3": ("hands", 2), "best-of-5": ("hands", 3), "one-hand": ("one", 1)}
        if value in fixed:
            kind, goal = fixed[value]
            return cls(kind, goal)
        kind, _, goal_text = value.partition(":")
        return cls(kind, int(goal_text))


class Match:
    """Hands played to the table's target. Each action goes to the current hand; when a
    hand ends the match scores it and deals the next with ``rng``."""

    def __init__(self, rules: Rules, rng: random.Random, dealer: int = 0) -> None:
        """:raises MalformedError: when ``dealer`` is not a seat of the table, or ``rng``
        no ``random.Random``."""
        check_dealer(rules, dealer)
        if not isinstance(rng, random.Random):
            raise MalformedError(
                f"Match: expected a random.Random, like random.Random(1), got {shown(rng)}"
            )
        self.rules = rules
        self.rng = rng
        self.per_seat = "target" in rules.options
        """Chiamata scores each seat; the other games count per side."""
        self.target = Target.parse(str(rules.options.get("target", rules.options.get("match"))))
        sides = len(rules.sides)
        self.hands_won = [0] * sides
        self.totals = [0] * sides
        self.scores = [0] * rules.players
        self.hands_played = 0
        self.number = 0
        self.winners: tuple[int, ...] = ()
        self.over = False
        self.history: list[HandScored] = []
        self.events: list[Event | PartnersDrawn | HandStarted | HandScored | MatchOver] = []
        self.seating = tuple(range(rules.players))
        if rules.teams and rules.options.get("partners") == "drawn":
            self.events.append(self._draw_partners())
        self.dealer = dealer
        self.hand = self._deal()

    def _draw_partners(self) -> PartnersDrawn:
        rules = self.rules
        cards = tuple(self.rng.sample(list(rules.deck), rules.players))
        ranked = sorted(
            range(rules.players), key=lambda p: (rules.strength[cards[p]], -p), reverse=True
        )
        high, low = ranked[: len(rules.sides[0])], ranked[len(rules.sides[0]) :]
        seating = [0] * rules.players
        for seats, group in zip(rules.sides, (high, low), strict=True):
            for seat, player in zip(seats, group, strict=True):
                seating[seat] = player
        self.seating = tuple(seating)
        return PartnersDrawn(cards, self.seating)

    def _deal(self) -> GameState:
        """Deal the next hand. A deal that ends before any action (chiamata's throw-in,
        RULES.md §3) is scored at once, void, and the same dealer deals again."""
        while True:
            self.number += 1
            hand = GameState(self.rules, shuffled_deal(self.rules, self.dealer, self.rng))
            self.events.append(HandStarted(self.number, self.dealer))
            self.events.extend(hand.opening_events())
            if not hand.over:
                return hand
            self.events.append(self._reckon(hand))

    def apply(self, action: Action) -> list[Event | HandScored | HandStarted | MatchOver]:
        """Apply an action to the current hand; score it and deal on when it ends."""
        if self.over:
            raise GameOverError("the match is over")
        out: list[Event | HandScored | HandStarted | MatchOver] = []
        out.extend(self.hand.apply(action))
        if self.hand.over:
            out.extend(self._score_hand())
        self.events.extend(out)
        return out

    def _score_hand(self) -> list[HandScored | HandStarted | MatchOver | Event]:
        rules = self.rules
        scored = self._reckon(self.hand)
        out: list[HandScored | HandStarted | MatchOver | Event] = [scored]
        self._check_over()
        if self.over:
            out.append(
                MatchOver(
                    self.winners, tuple(self.hands_won), tuple(self.totals), tuple(self.scores)
                )
            )
            return out
        if not scored.replayed:
            self.dealer = (self.dealer + 1) % rules.players
        start = len(self.events)
        self.hand = self._deal()
        out.extend(self.events[start:])  # type: ignore[arg-type]  # only hand events here
        del self.events[start:]
        return out

    def _reckon(self, hand: GameState) -> HandScored:
        """Count a finished hand into the match's figures and its history."""
        rules = self.rules
        winners = hand.winners()
        scores = next((x for a in hand.addons if (x := a.scores(hand)) is not None), None)
        if any(a.redeal(hand) for a in hand.addons):
            replayed = True
        else:
            replayed = not winners and rules.options.get("sixty_sixty") == "replay"
        counted = 0
        if scores is not None:
            counted = 0 if replayed else 1
            for seat, points in enumerate(scores):
                self.scores[seat] += points
            self.hands_played += counted
        else:
            if winners:
                side = rules.side_of[winners[0]]
                double = 120 in hand.points and rules.options.get("cappotto") == "double"
                counted = 2 if double else 1
                self.hands_won[side] += counted
            if not replayed:
                for i, p in enumerate(hand.points):
                    self.totals[i] += p
        scored = HandScored(self.number, tuple(hand.points), winners, counted, replayed, scores)
        self.history.append(scored)
        return scored

    def _check_over(self) -> None:
        t = self.target
        last = self.history[-1]
        if last.replayed:
            return
        if t.kind == "one":
            self.over = True
            self.winners = last.winners
            return
        if self.per_seat:
            # Chiamata (RULES.md §3): score points per seat, to an agreed total or over an
            # agreed number of hands. The match ends there; the highest total wins, and
            # seats tied at the top share the win (when the caller loses, every opponent
            # scores the same).
            best = max(self.scores)
            if (t.kind == "points" and best < t.goal) or (
                t.kind == "hands" and self.hands_played < t.goal
            ):
                return
            self.over = True
            self.winners = tuple(s for s, x in enumerate(self.scores) if x == best)
            return
        score = self.hands_won if t.kind == "hands" else self.totals
        best = max(score)
        if best < t.goal:
            return
        tops = [i for i, s in enumerate(score) if s == best]
        if len(tops) == 1:
            self.over = True
            self.winners = self.rules.sides[tops[0]]
