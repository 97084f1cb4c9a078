"""A match: hands dealt one after another to the table's target, the deal passing on.

>>> import random
>>> from briscola.engine.rules import Rules
>>> m = Match(Rules.make("briscola-2", {"match": "best-of-3"}), random.Random(5))
>>> while not m.over:
...     _ = m.apply(m.hand.legal_actions()[0])
>>> max(m.hands_won)
2

A match persists as its **match record** (docs/records.md) and rebuilds from it:

>>> again = Match.from_record(m.to_record())
>>> again.result() == m.result() and again.events == m.events
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from briscola.engine.actions import Action, keys_of
from briscola.engine.cards import Card
from briscola.engine.deal import Deal, check_dealer, shuffled_deal
from briscola.engine.errors import (
    BriscolaError,
    GameOverError,
    IllegalActionError,
    MalformedError,
    shown,
)
from briscola.engine.events import Audience, Event
from briscola.engine.game_record import Record, parse_record, rules_from_json
from briscola.engine.rules import Rules
from briscola.engine.state import Applied, GameState


class DealSource(Protocol):
    """Where a match's deals come from: called with the rules and the dealer each time a
    hand is dealt, it returns that hand's deal (checked by the match). A server makes the
    deal here, from a secure shuffle, and can commit to it (publish its hash) before the
    hand is played. :class:`Shuffled` is the default."""

    def __call__(self, rules: Rules, dealer: int) -> Deal: ...


class Shuffled:
    """Deals shuffled with ``rng`` (:func:`~briscola.engine.deal.shuffled_deal`): a seeded
    ``random.Random`` for tests and replays, ``random.SystemRandom()`` for live games."""

    def __init__(self, rng: random.Random) -> None:
        if not isinstance(rng, random.Random):
            raise MalformedError(
                f"Match: expected a random.Random, like random.Random(1), got {shown(rng)}"
            )
        self.rng = rng

    def __call__(self, rules: Rules, dealer: int) -> Deal:
        return shuffled_deal(rules, dealer, self.rng)


class PartnersDrawn(NamedTuple):
    """Before the first hand each player drew a card; ``seating[seat]`` is the player there."""

    cards: tuple[Card, ...]
    """The card each player drew, by player (the player who sat at seat ``p`` before)."""
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
    cappotto: bool = False
    """One side took all 120 points (it counts twice under ``cappotto=double``)."""
    audience: Audience = None

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "points": list(self.points),
            "winners": list(self.winners),
            "counted": self.counted,
            "replayed": self.replayed,
            "scores": None if self.scores is None else list(self.scores),
            "cappotto": self.cappotto,
        }


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


@dataclass(frozen=True)
class MatchResult:
    """Where a match stands, or how it ended: :meth:`Match.result`."""

    over: bool
    winners: tuple[int, ...]
    """The winning seats once the match is over (chiamata: the seats tied at the top)."""
    hands_won: tuple[int, ...]
    """Hands won by each side (a cappotto counts twice under ``cappotto=double``)."""
    totals: tuple[int, ...]
    """Card points taken by each side over the hands that counted."""
    scores: tuple[int, ...] | None
    """Chiamata: each seat's score points; ``None`` in the other games."""
    hands: tuple[HandScored, ...]
    """Each finished hand's reckoning, in order: its points by side, winners, whether it
    counted, whether it is dealt again (60-60 under ``sixty_sixty=replay``, chiamata's
    hands that all passed or were thrown in), chiamata's scores, cappotto."""

    def to_json(self) -> dict[str, Any]:
        return {
            "over": self.over,
            "winners": list(self.winners),
            "hands_won": list(self.hands_won),
            "totals": list(self.totals),
            "scores": None if self.scores is None else list(self.scores),
            "hands": [h.to_json() for h in self.hands],
        }


@dataclass(frozen=True)
class MatchRecord:
    """A parsed match record (:func:`parse_match_record`), not yet replayed."""

    rules: Rules
    dealer: int
    """The first hand's dealer; the deal then passes on (it stays for a hand dealt again)."""
    seating: tuple[int, ...]
    draw: tuple[Card, ...] | None
    """Under ``partners=drawn``: the card each player drew, by player."""
    hands: tuple[Record, ...]
    """Each hand's record, in order; the last is the hand in play (or the match's last)."""
    result: dict[str, Any] | None = None
    """The result as written (:meth:`MatchResult.to_json`), checked on rebuilding."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.rules.key,
            "rules": self.rules.overrides(),
            "dealer": self.dealer,
            "seating": list(self.seating),
        }
        if self.draw is not None:
            out["draw"] = [str(c) for c in self.draw]
        out["hands"] = [h.to_json() for h in self.hands]
        if self.result is not None:
            out["result"] = self.result
        return out


def _draw(rules: Rules, rng: random.Random) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """Each player draws a card (``cards[p]`` by player ``p``); the seating they give."""
    cards = tuple(rng.sample(list(rules.deck), rules.players))
    return cards, drawn_seating(rules, cards)


def drawn_seating(rules: Rules, cards: tuple[Card, ...]) -> tuple[int, ...]:
    """Where the players sit after drawing ``cards`` (``cards[p]`` drawn by player ``p``):
    ``seating[seat]`` is the player there, the highest cards making the first side."""
    ranked = sorted(
        range(rules.players), key=lambda p: (rules.strength[cards[p]], -p), reverse=True
    )
    high, low = ranked[: len(rules.sides[0])], ranked[len(rules.sides[0]) :]
    seating = [0] * rules.players
    for seats, group in zip(rules.sides, (high, low), strict=True):
        for seat, player in zip(seats, group, strict=True):
            seating[seat] = player
    return tuple(seating)


class Match:
    """Hands played to the table's target. Each action goes to the current hand; when a
    hand ends the match scores it and deals the next from its deal source."""

    def __init__(
        self,
        rules: Rules,
        rng: random.Random | None = None,
        dealer: int = 0,
        *,
        deals: DealSource | None = None,
    ) -> None:
        """A match of ``rules``, the first hand dealt by ``dealer``. The deals come from
        ``deals``, or are shuffled with ``rng`` (the same seed, the same match). ``rng``
        also draws the partners under ``partners=drawn``.

        :raises MalformedError: when ``dealer`` is not a seat of the table, ``rng`` no
            ``random.Random`` (it may be left out when ``deals`` is given, but for a
            partner draw), or ``deals`` not callable.
        """
        check_dealer(rules, dealer)
        if deals is None or rng is not None:
            shuffled = Shuffled(rng)  # type: ignore[arg-type]  # Shuffled checks it
        if deals is not None and not callable(deals):
            raise MalformedError(
                f"Match: deals is a deal source, called as deals(rules, dealer), got {shown(deals)}"
            )
        source: DealSource = shuffled if deals is None else deals
        drawn = None
        if rules.partners_drawn:
            if rng is None:
                raise MalformedError(
                    "Match: partners=drawn: give rng, the randomness of the partner draw"
                )
            drawn = PartnersDrawn(*_draw(rules, rng))
            # The player who drew the highest card sits at the first side's first seat
            # and deals the first hand (rules.md §5, seed 003).
            dealer = rules.sides[0][0]
        self._begin(rules, rng, dealer, source, drawn)

    def _begin(
        self,
        rules: Rules,
        rng: random.Random | None,
        dealer: int,
        deals: DealSource,
        drawn: PartnersDrawn | None,
    ) -> None:
        self.rules = rules
        self.rng: random.Random | None = rng
        self.deals = deals
        """The match's deal source."""
        self.first_dealer = dealer
        self.per_seat = "target" in rules.options
        """Chiamata scores each seat; the other games count per side."""
        self.target = Target(*rules.target)
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
        self.finished: list[GameState] = []
        """The finished hands, in order (the last is :attr:`hand` once the match is over)."""
        self.seating = tuple(range(rules.players))
        self.drawn: PartnersDrawn | None = drawn
        if drawn is not None:
            self.seating = drawn.seating
            self.events.append(drawn)
        self.dealer = dealer
        self.hand = self._deal()
        self.ends: list[int] = [len(self.events)]
        """Where the events of the start and of each action end in :attr:`events`: the
        start's (a partner draw, the first deal) are ``events[:ends[0]]``, the ``k``-th
        action's ``events[ends[k - 1]:ends[k]]``; ``len(ends) - 1`` actions were taken."""

    def _deal(self) -> GameState:
        """Deal the next hand from the deal source. A deal that ends before any action
        (chiamata's throw-in, rules.md §3) is scored at once, void, and the same dealer
        deals again."""
        while True:
            self.number += 1
            deal = self.deals(self.rules, self.dealer)
            if not isinstance(deal, Deal):
                raise MalformedError(f"Match: the deal source gave {shown(deal)}, not a Deal")
            deal.check(self.rules)
            if deal.dealer != self.dealer:
                raise MalformedError(
                    f"Match: hand {self.number} is dealt by seat {self.dealer}, but the deal "
                    f"source gave a deal by seat {deal.dealer}"
                )
            hand = GameState(self.rules, deal)
            self.events.append(HandStarted(self.number, self.dealer))
            self.events.extend(hand.opening_events())
            if not hand.over:
                return hand
            self.events.append(self._reckon(hand))

    def apply(self, action: Action) -> list[Event | HandScored | HandStarted | MatchOver]:
        """Apply an action to the current hand; score it and deal on when it ends."""
        return self.apply_logged(action).events  # type: ignore[return-value]

    def apply_logged(self, action: Action) -> Applied:
        """Like :meth:`apply`, and also give back the action as the hand's log keeps it
        (:meth:`GameState.apply_logged`). The events are the hand's, then the match's."""
        if self.over:
            raise GameOverError("the match is over")
        hand = self.hand
        logged, events = hand.apply_logged(action)
        out: list[Any] = list(events)
        if hand.over:
            out.extend(self._score_hand())
        self.events.extend(out)
        self.ends.append(len(self.events))
        return Applied(logged, out)

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
            replayed = not winners and rules.tie_replayed
        counted = 0
        if scores is not None:
            counted = 0 if replayed else 1
            for seat, points in enumerate(scores):
                self.scores[seat] += points
            self.hands_played += counted
        else:
            if winners:
                side = rules.side_of[winners[0]]
                double = 120 in hand.points and rules.cappotto_double
                counted = 2 if double else 1
                self.hands_won[side] += counted
            if not replayed:
                for i, p in enumerate(hand.points):
                    self.totals[i] += p
        scored = HandScored(
            self.number, tuple(hand.points), winners, counted, replayed, scores,
            cappotto=120 in hand.points,
        )  # fmt: skip
        self.history.append(scored)
        self.finished.append(hand)
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
            # Chiamata (rules.md §3): score points per seat, to an agreed total or over an
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

    # ----------------------------------------------------------------- results and records

    def result(self) -> MatchResult:
        """Where the match stands (or how it ended), as a typed value."""
        return MatchResult(
            over=self.over,
            winners=self.winners,
            hands_won=tuple(self.hands_won),
            totals=tuple(self.totals),
            scores=tuple(self.scores) if self.per_seat else None,
            hands=tuple(self.history),
        )

    def record(self) -> MatchRecord:
        """The match record so far: every hand's record, the last the hand in play."""
        hands = list(self.finished)
        if not hands or hands[-1] is not self.hand:
            hands.append(self.hand)
        return MatchRecord(
            rules=self.rules,
            dealer=self.first_dealer,
            seating=self.seating,
            draw=None if self.drawn is None else self.drawn.cards,
            hands=tuple(Record(h.rules, h.deal, tuple(h.moves)) for h in hands),
            result=self.result().to_json(),
        )

    def to_record(self) -> dict[str, Any]:
        """The match record so far as JSON (see docs/records.md)."""
        return self.record().to_json()

    @classmethod
    def from_record(
        cls,
        record: MatchRecord | object,
        deals: DealSource | None = None,
        *,
        rng: random.Random | None = None,
    ) -> Match:
        """Rebuild a match from its record (a :class:`MatchRecord`, or its JSON value) by
        playing every recorded move again: the same hands, events, scores and result. The
        hands after the record's are dealt from ``deals``, or shuffled with ``rng``; one
        of them is needed when the match is not over.

        :raises MalformedError: when the record is malformed, a move in it illegal, its
            hands not the ones the match deals (a dealer out of turn, a hand after the
            match's end, one that follows a hand unfinished), its result not the one its
            hands give, or the match goes on with no deal source.
        """
        rec = record if isinstance(record, MatchRecord) else parse_match_record(record)
        then: DealSource | None = deals
        if then is None and rng is not None:
            then = Shuffled(rng)
        elif then is not None and not callable(then):
            raise MalformedError(f"Match.from_record: deals is a deal source, got {shown(then)}")
        source = _Recorded(rec.hands)
        drawn = None if rec.draw is None else PartnersDrawn(rec.draw, rec.seating)
        match = cls.__new__(cls)
        match._begin(rec.rules, rng, rec.dealer, source, drawn)
        for i, hand in enumerate(rec.hands):
            if len(match.finished) < i:
                raise MalformedError(
                    f"hands[{i - 1}]: the hand is unfinished, yet another hand follows it"
                )
            if len(match.finished) > i:
                if hand.moves:
                    raise MalformedError(
                        f"hands[{i}].moves[0]: the hand is over before any move "
                        "(thrown in at the deal)"
                    )
                continue
            for k, move in enumerate(hand.moves):
                if len(match.finished) != i:
                    raise MalformedError(f"hands[{i}].moves[{k}]: the hand is over")
                try:
                    match.apply(move)
                except IllegalActionError as e:
                    raise MalformedError(f"hands[{i}].moves[{k}]: {e}") from None
        if len(match.finished) >= len(rec.hands) and not match.over:
            raise MalformedError(
                f"hands[{len(rec.hands) - 1}]: the hand is finished and the match goes on; a "
                "match record ends with the hand in play"
            )
        if rec.result is not None and rec.result != match.result().to_json():
            raise MalformedError(
                "result: not the result the hands give; write the match's own "
                "(Match.to_record()), or leave it out"
            )
        if then is None and not match.over:
            raise MalformedError(
                "Match.from_record: the match goes on: give deals= (or rng=) for its next hands"
            )
        source.then = then
        return match


class _Recorded:
    """The deal source of a rebuilt match: the record's deals, then ``then``'s."""

    def __init__(self, hands: tuple[Record, ...]) -> None:
        self.hands: Iterator[Record] = iter(hands)
        self.index = 0
        self.then: DealSource | None = None

    def __call__(self, rules: Rules, dealer: int) -> Deal:
        hand = next(self.hands, None)
        if hand is None:
            if self.then is None:
                raise MalformedError(
                    f"hands[{self.index - 1}]: the hand is finished and the match goes on; a "
                    "match record ends with the hand in play"
                )
            return self.then(rules, dealer)
        if hand.deal.dealer != dealer:
            raise MalformedError(
                f"hands[{self.index}].deal.dealer: this hand is dealt by seat {dealer}, "
                f"not {shown(hand.deal.dealer)} (the deal passes to the next seat, and stays "
                "for a hand dealt again)"
            )
        self.index += 1
        return hand.deal


_MATCH_FIELDS = ("game", "rules", "dealer", "seating", "draw", "hands", "result")


def parse_match_record(obj: object, rules: Rules | None = None) -> MatchRecord:
    """Read a match record from its JSON value (docs/records.md), checking its form and
    each hand's record; :meth:`Match.from_record` replays it. ``rules``, when given, is
    its rule set as the caller parsed it already (a stored table's): the ``game`` and
    ``rules`` fields of the match and of its hands are then not read again.

    :raises MalformedError: naming the field that is wrong (``hands[2].deal.hands[1]``)
        and saying what it holds.
    """
    if not isinstance(obj, dict):
        raise MalformedError(
            "match record: expected a JSON object with game, rules, dealer, seating and hands, "
            f"got {shown(obj)}"
        )
    if "hands" not in obj:
        raise MalformedError(
            "match record: not a match record, which holds game, rules, dealer, seating and "
            f"hands; this object holds {keys_of(obj)}"
        )
    unknown = set(obj) - set(_MATCH_FIELDS)
    if unknown:
        raise MalformedError(f"match record: unknown field {shown(min(unknown, key=str))}")
    given = rules
    if rules is None:
        rules = rules_from_json(obj.get("game"), obj.get("rules", {}))
    elif not isinstance(rules, Rules):
        raise MalformedError(f"parse_match_record: rules is a rule set (Rules), got {shown(rules)}")
    n = rules.players
    dealer = obj.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
        raise MalformedError(f"dealer: expected a seat from 0 to {n - 1}, got {shown(dealer)}")
    seating_raw = obj.get("seating", list(range(n)))
    if not isinstance(seating_raw, list) or sorted(
        s if isinstance(s, int) and not isinstance(s, bool) else -1 for s in seating_raw
    ) != list(range(n)):
        raise MalformedError(
            f"seating: expected the players 0 to {n - 1}, each once, by seat; got "
            f"{shown(seating_raw)}"
        )
    seating = tuple(seating_raw)
    drawn = rules.partners_drawn
    draw: tuple[Card, ...] | None = None
    if drawn:
        draw_raw = obj.get("draw")
        if not isinstance(draw_raw, list) or len(draw_raw) != n:
            raise MalformedError(
                f"draw: partners=drawn: expected the {n} cards the players drew, by player"
            )
        cards = []
        for i, text in enumerate(draw_raw):
            try:
                cards.append(Card.parse(text))
            except MalformedError as e:
                raise MalformedError(f"draw[{i}]: {e}") from None
        draw = tuple(cards)
        if len(set(draw)) != n or not set(draw) <= set(rules.deck):
            raise MalformedError(f"draw: expected {n} different cards of the {rules.key} deck")
        if drawn_seating(rules, draw) != seating:
            raise MalformedError(
                f"seating: the draw seats the players {list(drawn_seating(rules, draw))}, "
                f"not {list(seating)}"
            )
    else:
        if "draw" in obj:
            raise MalformedError("draw: only a table with partners=drawn draws for partners")
        if seating != tuple(range(n)):
            raise MalformedError(
                f"seating: only a partner draw moves the players; expected {list(range(n))}"
            )
    hands_raw = obj["hands"]
    if not isinstance(hands_raw, list) or not hands_raw:
        raise MalformedError("hands: expected a list of hand records, the first hand first")
    hands = []
    for i, raw in enumerate(hands_raw):
        try:
            hand = parse_record(raw, given)
        except BriscolaError as e:
            raise MalformedError(f"hands[{i}].{e}") from None
        if hand.rules is not rules and (
            hand.rules.key != rules.key or dict(hand.rules.options) != dict(rules.options)
        ):
            raise MalformedError(
                f"hands[{i}]: a hand of another table ({hand.rules.key}, "
                f"{hand.rules.overrides()}); every hand has the match's game and rules"
            )
        hands.append(hand)
    result = obj.get("result")
    if result is not None and not isinstance(result, dict):
        raise MalformedError(f"result: expected an object, got {shown(result)}")
    return MatchRecord(rules, dealer, seating, draw, tuple(hands), result)
