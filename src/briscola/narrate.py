"""Words for what happens at the table: tricks, talk, the auction, results.

Every function takes a :class:`~briscola.speech.Voice`: the records' voice (the
default: "seat 1", cards as codes, each trick told with its cards) or a person's
:class:`~briscola.speech.Seating` ("you", "East", cards by name; each card told as it
is played, and a trick once gathered only by who took it and its points: rules.md §5,
looking back at gathered cards is the ``last_trick`` house rule's business).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence, Sized
from dataclasses import dataclass
from typing import Any, Protocol

from briscola.engine.actions import (
    Action,
    Ask,
    Bid,
    EndTalk,
    Exchange,
    Look,
    Order,
    Pass,
    Play,
    Signal,
)
from briscola.engine.cards import Card, Rank
from briscola.engine.errors import MalformedError, shown
from briscola.engine.events import (
    AuctionEnded,
    BidMade,
    CardCalled,
    CardDrawn,
    CardPlayed,
    Dealt,
    HandOver,
    HandShown,
    PartnerRevealed,
    StockTop,
    Talk,
    ThrownIn,
    TrickWon,
    TrumpExchanged,
    TrumpTurned,
)
from briscola.engine.games import Rules
from briscola.engine.match import HandScored, HandStarted, MatchOver, PartnersDrawn, Target
from briscola.engine.views import MatchView, View
from briscola.speech import RECORD, Seating, Voice, hand_order, plural, suit_name

SIGNAL_WORDS = {
    "ace": "I hold the ace of trumps",
    "three": "I hold the three of trumps",
    "king": "I hold the king of trumps",
    "queen": "I hold the cavallo (queen) of trumps",
    "jack": "I hold the fante (jack) of trumps",
    "low-trumps": "I hold a low trump (7 to 2)",
    "no-trumps": "I hold no trumps",
    "carico": "I hold a carico (an ace or a three of a plain suit)",
    "play-carico": "play a carico",
    "play-liscio": "play a liscio",
}
"""What each signal says, in words (40-card decks)."""

QUESTION_WORDS = {
    "lisci": "do you hold lisci (cards worth nothing)",
    "trumps": "what trumps do you hold (briscoline 2 to 6; vestite K Q J)",
    "take": "can you take a trick without trumping",
    "carichi": "do you hold carichi (an ace or a three of a plain suit)",
}

FRENCH_WORDS = {
    "three": "I hold the 10 of trumps",
    "queen": "I hold the queen of trumps",
    "jack": "I hold the jack of trumps",
    "low-trumps": "I hold a low trump (9 to 7)",
    "carico": "I hold a carico (an ace or a 10 of a plain suit)",
    "trumps": "what trumps do you hold (briscoline 7 and 8; vestite K Q J)",
    "carichi": "do you hold carichi (an ace or a 10 of a plain suit)",
}
"""The same in Briškula's 32 French cards, where the 10 is the second card."""


def talk_words(word: str, voice: Voice, table: dict[str, str]) -> str:
    """A signal's or question's words in the table's deck (a record's voice, knowing no
    deck, says them for the 40 cards)."""
    if isinstance(voice, Seating) and voice.deck == "french-32" and word in FRENCH_WORDS:
        return FRENCH_WORDS[word]
    return table.get(word, word)


ORDER_WORDS = {
    "liscio": "play a liscio",
    "trump-high": "play a high trump",
    "trump-low": "play a low trump",
    "take": "take the trick without trumping",
    "carico": "play a carico",
}

RANK_WORDS = {
    Rank.ACE: "asso",
    Rank.THREE: "tre",
    Rank.KING: "re",
    Rank.QUEEN: "cavallo",
    Rank.JACK: "fante",
}
"""Chiamata's bids name ranks of the Italian deck."""


def describe_trick(number: int, won: TrickWon, voice: Voice = RECORD) -> str:
    """A finished trick with its cards, as a record tells it."""
    plays = ", ".join(f"{s}:{voice.card(c)}" for s, c in zip(won.seats, won.cards, strict=True))
    return f"trick {number:2d}  {plays}  -> {voice.says(won.winner, 'take')} {won.points}"


def describe_bid(bid: str) -> str:
    """A bid in words: ``K`` -> ``re (K)``, ``6`` and ``2 at 75`` as they are."""
    if bid in RANK_CODES and Rank(bid) in RANK_WORDS:
        return f"{RANK_WORDS[Rank(bid)]} ({bid})"
    return bid


RANK_CODES = {r.value for r in Rank}


class Scene(Protocol):
    """What :func:`narrate` reads of the hand the events happened in: a
    :class:`~briscola.engine.state.GameState`, or a :class:`ViewScene` a remote client
    makes from the views it was sent."""

    @property
    def rules(self) -> Rules: ...
    @property
    def tricks(self) -> Sized:
        """The tricks taken so far in the hand (after the events)."""
        ...

    @property
    def shown(self) -> bool:
        """Whether the partners' hands are shown (the stock ran out)."""
        ...

    @property
    def sides(self) -> Sequence[Sequence[int]]:
        """The seats of each side, in the order of the hand's points."""
        ...


class Points(Protocol):
    """A hand's (or a view's) sides and the card points each took."""

    @property
    def sides(self) -> Sequence[Sequence[int]]: ...
    @property
    def points(self) -> Sequence[int]: ...


@dataclass(frozen=True)
class ViewScene:
    """A :class:`Scene` made from a view: the table's rules, the tricks the view shows,
    and the partners' hands shown once nothing is left to draw where the rules say so."""

    rules: Rules
    tricks: Sized
    shown: bool
    sides: Sequence[Sequence[int]]

    @classmethod
    def of(cls, rules: Rules, view: View) -> ViewScene:
        out = view.stock_size == 0 and view.turned is None and rules.show_partner_hands
        return cls(rules, view.tricks, out, view.sides)


def narrate(
    state: Scene, events: Iterable[object], voice: Voice = RECORD, plays: bool = True
) -> Iterator[str]:
    """Lines telling ``events``, which happened in ``state`` (``state`` is as they left it).
    For a person, ``plays`` says whether to tell each card played and drawn."""
    events = list(events)
    person = isinstance(voice, Seating)
    tricks = len(state.tricks) - sum(isinstance(e, TrickWon) for e in events)
    pad = "" if person else " " * 10
    turned_trump = state.rules.game.turned_trump
    for e in events:
        if isinstance(e, CardPlayed) and person and plays:
            yield f"{voice.says(e.seat, 'play')} {voice.card(e.card)}"
        elif isinstance(e, TrickWon):
            tricks += 1
            if person:
                points = plural(e.points, "point")
                yield f"{voice.says(e.winner, 'take')} trick {tricks}: {points}"
            else:
                yield describe_trick(tricks, e, voice)
        elif isinstance(e, TrumpExchanged):
            yield (
                f"{pad}{voice.says(e.seat, 'give')} {voice.card(e.given)} "
                f"for the turned {voice.card(e.taken)}"
            )
        elif isinstance(e, CardDrawn) and e.card is not None and turned_trump:
            if e.audience is None and not state.rules.game.open_hands:
                yield f"{pad}{voice.says(e.seat, 'draw')} the turned card {voice.card(e.card)}"
            elif isinstance(voice, Seating) and plays and e.audience and e.seat == voice.seat:
                yield f"{pad}you draw {voice.card(e.card)}"
        elif isinstance(e, HandShown) and e.audience is not None and len(e.audience) > 1:
            continue
        elif isinstance(e, HandShown) and state.shown and e.seat == 0:
            yield f"{pad}the stock is out: partners show their hands"
        elif isinstance(e, Talk) and e.kind != "done":
            yield f"{pad}{describe_talk(e, voice)}"
        elif isinstance(e, BidMade):
            yield (
                f"{pad}{voice.says(e.seat, 'pass')}"
                if e.bid == "pass"
                else f"{pad}{voice.says(e.seat, 'bid')} {describe_bid(e.bid)}"
            )
        elif isinstance(e, AuctionEnded):
            if e.caller is None:
                yield f"{pad}all pass: the same dealer deals again"
            else:
                bid = describe_bid(e.bid or "")
                yield f"{pad}{voice.says(e.caller, 'win')} the auction with {bid}"
        elif isinstance(e, CardCalled):
            yield (
                f"{pad}{voice.says(e.seat, 'call')} {voice.card(e.card)}: "
                f"trump is {e.card.suit.italian}"
            )
        elif isinstance(e, PartnerRevealed):
            yield f"{pad}the called card is out: {describe_partner(e, voice)}"
        elif isinstance(e, ThrownIn):
            cards = ", ".join(voice.card(c) for c in e.cards)
            yield (
                f"{pad}{voice.says(e.seat, 'hold')} no card points ({cards}): "
                "the deal is thrown in and dealt again"
            )


def describe_partner(e: PartnerRevealed, voice: Voice) -> str:
    if e.partner == e.caller:
        return f"{voice.says(e.caller, 'play')} alone"
    if isinstance(voice, Seating) and e.partner == voice.seat:
        return f"you are {voice.name(e.caller)}'s partner"
    if isinstance(voice, Seating) and e.caller == voice.seat:
        return f"{voice.name(e.partner)} is your partner"
    return f"{voice.name(e.partner)} is {voice.name(e.caller)}'s partner"


def describe_talk(t: Talk, voice: Voice = RECORD) -> str:
    if t.kind == "signal":
        # Who else saw a signal is nobody's to know: say only whether the table saw it.
        seen = " (seen by everyone)" if t.audience is None else ""
        said = talk_words(t.what, voice, SIGNAL_WORDS)
        return f"{voice.says(t.seat, 'signal')}: {said}{seen}"
    to = voice.name(t.to) if t.to is not None else "?"
    if t.kind == "ask":
        answer = t.answer if t.answer is not None else "?"
        question = talk_words(t.what, voice, QUESTION_WORDS)
        return f"{voice.says(t.seat, 'ask')} {to}: {question}? {to.capitalize()}: {answer}"
    if t.kind == "order":
        return f"{voice.says(t.seat, 'tell')} {to}: {ORDER_WORDS.get(t.what, t.what)}"
    if t.kind == "done":
        return f"{voice.says(t.seat, 'end')} the talk"
    return f"{voice.says(t.seat, 'look')} at the hand of {to}"


def per_side(voice: Voice, sides: Iterable[Iterable[int]], figures: Iterable[object]) -> str:
    """A figure for each side, named: ``North and you 52, East and West 68``."""
    return ", ".join(f"{voice.side(side)} {x}" for side, x in zip(sides, figures, strict=True))


def describe_points(state: Points, voice: Voice = RECORD) -> str:
    """Each side's card points: ``0+2: 52 v 1+3: 68``, or ``North and you 52, ...``."""
    if isinstance(voice, Seating):
        return per_side(voice, state.sides, state.points)
    return " v ".join(
        f"{'+'.join(str(s) for s in side)}: {p}"
        for side, p in zip(state.sides, state.points, strict=True)
    )


def describe_action(action: Action, voice: Voice = RECORD) -> str:
    """A short label for an action, as a menu shows it."""
    if isinstance(action, Play):
        return f"play {voice.card(action.card)}"
    if isinstance(action, Exchange):
        return f"exchange {voice.card(action.card)} for the turned card"
    if isinstance(action, Signal):
        return f"signal: {talk_words(action.signal, voice, SIGNAL_WORDS)}"
    if isinstance(action, Ask):
        return f"ask {voice.name(action.to)}: {talk_words(action.question, voice, QUESTION_WORDS)}?"
    if isinstance(action, Order):
        return f"tell {voice.name(action.to)}: {ORDER_WORDS.get(action.order, action.order)}"
    if isinstance(action, Look):
        return f"look at the hand of {voice.name(action.at)}"
    if isinstance(action, Bid):
        return f"bid {describe_bid(str(action))}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, EndTalk):
        return "say no more (end your talk)"
    return f"call {voice.card(action.card)}"


def describe_view(view: View, voice: Seating, drawn: Card | None = None) -> list[str]:
    """The table as the person sees it: trump and stock, the auction, points, open
    hands, the trick on the table and the hand (sorted; the card just drawn marked)."""
    lines = []
    auction = view.auction
    if auction is not None and auction.called is None:
        bids = ", ".join(
            voice.says(s, "pass") if b == "pass" else f"{voice.name(s)} {describe_bid(b)}"
            for s, b in auction.bids
        )
        lines.append(f"the auction: {bids or 'no bid yet'}")
    elif auction is not None and auction.called is not None and auction.caller is not None:
        partner = auction.partner
        if partner is None:
            who = "the partner is not known yet"
        elif partner == auction.caller:
            who = f"{voice.says(auction.caller, 'play')} alone"
        elif partner == voice.seat:
            who = "you are the partner"
        else:
            who = f"the partner is {voice.name(partner)}"
        called = voice.card(auction.called)
        bid = describe_bid(auction.high or "")
        lines.append(
            f"trump: {auction.called.suit.italian}; {voice.name(auction.caller)} called "
            f"the {called} with a bid of {bid}; {who}"
        )
    elif view.trump is not None:
        line = f"trump: {suit_name(view.trump, voice.deck)}"
        if view.turned is not None:
            line += f"; the turned card is the {voice.card_code(view.turned)}"
        if view.turned is not None or view.stock_size:
            line += f"; {plural(view.stock_size + (view.turned is not None), 'card')} to draw"
        else:
            line += "; nothing left to draw"
        lines.append(line)
    else:
        stock = (
            plural(view.stock_size, "card") + " to draw"
            if view.stock_size
            else "nothing left to draw"
        )
        lines.append(f"no trump; {stock}")
    lines.append(f"points: {per_side(voice, view.sides, view.points)}")
    if view.stock_top is not None:
        lines.append(f"top of the stock: {voice.card_code(view.stock_top)}")
    for seat, cards in sorted(view.visible_hands.items()):
        if cards:
            lines.append(f"{voice.says(seat, 'hold')} {cards_line(voice, cards)}")
    for seat, cards in sorted(view.known_cards.items()):
        if cards:
            lines.append(f"{voice.name(seat)} is known to hold {cards_line(voice, cards)}")
    table = ", ".join(f"{voice.name(s)} {voice.card_code(c)}" for s, c in view.trick)
    lines.append(f"on the table: {table or 'nothing yet'}")
    hand = " ".join(f"{c}*" if c is drawn else str(c) for c in hand_order(voice.rules, view.hand))
    if hand:
        mark = " (* just drawn)" if drawn is not None and drawn in view.hand else ""
        lines.append(f"your hand: {hand}{mark}")
    return lines


def cards_line(voice: Seating, cards: Iterable[Card]) -> str:
    return ", ".join(voice.card_code(c) for c in hand_order(voice.rules, cards))


# -- a step as one seat saw it: the hand's events, then the match's -------------------------


MatchEvent = HandScored | HandStarted | MatchOver


def tell(
    hand: Scene,
    events: Iterable[object],
    voice: Seating,
    standing: str,
    after: Scene,
    plays: bool = True,
) -> list[str]:
    """Lines telling what one seat saw of a step: the hand's events narrated on ``hand``
    (as they left it), the match's as :func:`tell_match` says them (``standing``: the
    match's score after the step); events after a new hand was dealt are narrated on
    ``after``, the hand in play."""
    lines: list[str] = []
    own: list[object] = []
    for e in events:
        if isinstance(e, HandScored | HandStarted | MatchOver):
            lines.extend(narrate(hand, own, voice, plays))
            own = []
            lines.extend(tell_match(e, voice, standing, hand.sides))
            if isinstance(e, HandStarted):
                hand = after
            continue
        own.append(e)
    lines.extend(narrate(hand, own, voice, plays))
    return lines


def tell_match(
    e: MatchEvent, voice: Seating, standing: str, sides: Sequence[Sequence[int]]
) -> list[str]:
    """A new hand, a hand scored (its ``sides``' points, the match's score after it), the
    match over."""
    if isinstance(e, HandStarted):
        return [f"--- hand {e.number}: {voice.says(e.dealer, 'deal')} ---"]
    if isinstance(e, HandScored):
        points = per_side(voice, sides, e.points)
        if e.replayed:
            return [f"hand {e.number}: {points}; the hand is dealt again"]
        won = voice.sides_say(e.winners, "win") if e.winners else "nobody wins"
        line = f"hand {e.number}: {points}: {won} the hand"
        if e.counted == 2:
            line += " with all 120 points (cappotto: it counts twice)"
        if e.scores is not None:
            line += "; score " + seat_scores(voice, e.scores)
        return [line, standing]
    won = voice.sides_say(e.winners, "win") if e.winners else "nobody wins"
    return [f"=== the match is over: {won} ==="]


def seat_scores(voice: Seating, scores: Sequence[int]) -> str:
    return ", ".join(f"{voice.name(s)} {x:+d}" for s, x in enumerate(scores))


def describe_standing(voice: Seating, match: MatchView) -> str:
    """The match score so far, in words (``match (to 121 points): ...``)."""
    target = Target.parse(match.target)
    if match.scores is not None:
        goal = f"{'to' if target.kind == 'points' else 'over'} {target.goal}"
        goal += " points" if target.kind == "points" else " hands"
        return f"match ({goal}): {seat_scores(voice, match.scores)}"
    sides = voice.rules.sides
    if target.kind == "points":
        return f"match (to {target.goal} points): {per_side(voice, sides, match.totals)}"
    won = per_side(voice, sides, match.hands_won)
    if target.kind == "one":
        return f"match (one hand): {won}"
    return f"match (first to {target.goal} hands won): {won}"


# -- events read back from JSON ------------------------------------------------------------


_EVENTS: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        Dealt, TrumpTurned, StockTop, CardPlayed, TrickWon, CardDrawn, TrumpExchanged,
        HandShown, Talk, BidMade, AuctionEnded, CardCalled, PartnerRevealed, ThrownIn,
        HandOver, PartnersDrawn, HandStarted, HandScored, MatchOver,
    )
}  # fmt: skip
_EVENT_TYPES = {re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower(): c for name, c in _EVENTS.items()}
_CARD_FIELDS = ("card", "given", "taken")
_NUMBERS_FIELDS = ("seats", "points", "winners", "hands_won", "totals", "scores", "seating")


@dataclass
class EventReader:
    """Reads back the events a server sent one seat as JSON (``seat_events``: their
    audience not written) into the engine's events, for :func:`narrate` and :func:`tell`.

    Each event gets the audience this seat knows it had: the whole table, or only the
    seats it may know saw it (its own draws, the signals its side saw under the table's
    ``signal_audience``, the hands shown to it). ``turned`` is the turned card as the
    seat last saw it: a draw of that card is the table's to see.

    >>> from briscola.engine import Rules
    >>> reader = EventReader(0, Rules.make("briscola-2"), Card.parse("7d"))
    >>> reader.read({"type": "card_drawn", "seat": 0, "card": "Ab"})
    CardDrawn(seat=0, card=Card.parse('Ab'), audience=frozenset({0}))
    >>> reader.read({"type": "card_drawn", "seat": 0, "card": "7d"}).audience is None
    True
    """

    seat: int | None
    rules: Rules
    turned: Card | None = None
    _looked: int | None = None

    def read(self, obj: object) -> Any:
        """The engine's event that ``obj`` (one JSON event) tells.

        :raises MalformedError: when ``obj`` is no event the engine knows.
        """
        kind = obj.get("type") if isinstance(obj, dict) else None
        cls = _EVENT_TYPES.get(kind) if isinstance(kind, str) else None
        if cls is None or not isinstance(obj, dict):
            raise MalformedError(f"not an event of the game: {shown(obj)}")
        try:
            fields = {name: _field(name, obj[name]) for name in cls._fields if name != "audience"}
            event = cls(**fields, audience=None)
        except (LookupError, TypeError, ValueError, AttributeError):
            raise MalformedError(f"not a {kind} event: {shown(obj)}") from None
        looked, self._looked = self._looked, None
        audience = self._audience(event, looked)
        if isinstance(event, TrumpTurned):
            self.turned = event.card
        elif isinstance(event, TrumpExchanged):
            self.turned = event.given
        elif isinstance(event, Talk) and event.kind == "look" and event.seat == self.seat:
            self._looked = event.to
        return event._replace(audience=audience) if audience is not None else event

    def _audience(self, event: object, looked: int | None) -> frozenset[int] | None:
        me = frozenset() if self.seat is None else frozenset({self.seat})
        rules = self.rules
        if isinstance(event, Dealt) and event.cards:
            return me
        if isinstance(event, CardDrawn) and event.card is not None:
            public = rules.game.open_hands or event.seat != self.seat or event.card == self.turned
            if event.card == self.turned:
                self.turned = None
            return None if public else me
        if isinstance(event, HandShown):
            if looked == event.seat:
                return me
            return frozenset(rules.sides[rules.side_of[event.seat]]) - {event.seat}
        if isinstance(event, Talk) and event.kind == "signal":
            if rules.option("signal_audience") == "table":  # signals come with that rule
                return None
            side = frozenset(rules.sides[rules.side_of[event.seat]])
            return side | (event.spotted or frozenset())
        return None


def _field(name: str, value: Any) -> Any:
    if name in _CARD_FIELDS:
        return None if value is None else Card.parse(value)
    if name == "cards":
        return tuple(Card.parse(c) for c in value)
    if name in _NUMBERS_FIELDS and isinstance(value, list):
        return tuple(int(x) for x in value)
    if name == "spotted":
        return None if value is None else frozenset(int(x) for x in value)
    if name == "sides" and isinstance(value, list):
        return tuple(tuple(int(x) for x in side) for side in value)
    if name == "carichi" and isinstance(value, list):
        return tuple(tuple(Card.parse(c) for c in side) for side in value)
    if isinstance(value, list | dict):
        raise TypeError(name)
    return value
