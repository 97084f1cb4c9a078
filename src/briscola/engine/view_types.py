"""The view types: what one seat may know of a hand, as values that travel as JSON.

:class:`View` (with :class:`TrickView`, :class:`MatchView` and chiamata's
:class:`AuctionView`) is what the engine gives a player, a bot or a socket; the functions
that build one from a hand are in :mod:`briscola.engine.views`. These are plain values,
below the state and the add-ons, so that an add-on may fill in its part of a view and read
one back (:meth:`Addon.part_from_view <briscola.engine.addons.Addon.part_from_view>`)
without importing the engine that builds them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from briscola.engine.actions import Action, action_from_json
from briscola.engine.cards import Card, Suit
from briscola.engine.errors import BriscolaError, MalformedError, shown
from briscola.engine.events import Talk, TrickWon
from briscola.engine.house_rules import RuleValue
from briscola.engine.phases import Phase


@dataclass(frozen=True)
class AuctionView:
    """Chiamata as one seat knows it."""

    bids: tuple[tuple[int, str], ...]
    """Every bid in order: (seat, ``A`` ... ``2``, ``2 at N`` or ``pass``)."""
    high: str | None
    """The highest bid so far."""
    bidder: int | None
    caller: int | None
    called: Card | None
    partner: int | None
    """The caller's partner (the caller when alone), once this seat knows it: the partner
    knows from the start, everyone once the called card is played."""

    def to_json(self) -> dict[str, Any]:
        return {
            "bids": [{"seat": s, "bid": b} for s, b in self.bids],
            "high": self.high,
            "bidder": self.bidder,
            "caller": self.caller,
            "called": None if self.called is None else str(self.called),
            "partner": self.partner,
        }


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
        """The view of a trick taken (the same value for equal tricks: a hand's views,
        rebuilt after every move, share their tricks')."""
        return _trick_of(won)

    def to_json(self) -> dict[str, Any]:
        """The trick as plain JSON types: one dict for the trick's life, shared by every
        view that writes it, so not to be changed."""
        return self._json

    @cached_property
    def _json(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "seats": list(self.seats),
            "cards": [c.text for c in self.cards],
            "winner": self.winner,
            "points": self.points,
        }


@functools.lru_cache(maxsize=4096)
def _trick_of(won: TrickWon) -> TrickView:
    return TrickView(won.leader, won.seats, won.cards, won.winner, won.points)


@dataclass(frozen=True)
class MatchView:
    """Where the match stands, as everyone at the table knows it."""

    target: str
    """What ends the match: the rule's value (``best-of-3``, ``points:121``, ...)."""
    hands_won: tuple[int, ...]
    """Hands won by each side (a cappotto counts twice under ``cappotto=double``)."""
    totals: tuple[int, ...]
    """Card points taken by each side over the hands that counted."""
    scores: tuple[int, ...] | None
    """Chiamata: each seat's score points; ``None`` in the other games."""
    seating: tuple[int, ...]
    """``seating[seat]``: the player in that seat (moved only by ``partners=drawn``)."""
    over: bool
    winners: tuple[int, ...]
    """The match's winning seats, once it is over."""

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "hands_won": list(self.hands_won),
            "totals": list(self.totals),
            "scores": None if self.scores is None else list(self.scores),
            "seating": list(self.seating),
            "over": self.over,
            "winners": list(self.winners),
        }

    @classmethod
    def from_json(cls, obj: Any) -> MatchView:
        scores = obj["scores"]
        return cls(
            target=_text(obj["target"]),
            hands_won=_ints(obj["hands_won"]),
            totals=_ints(obj["totals"]),
            scores=None if scores is None else _ints(scores),
            seating=_ints(obj["seating"]),
            over=_bool(obj["over"]),
            winners=_ints(obj["winners"]),
        )


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
    """Every finished trick of the hand, as the seat saw them played: cards are public as
    they are played and a player may remember them (rules.md §5), so a computer player
    may read them. An interface shows a person only :attr:`last_trick`, never these."""
    last_trick: TrickView | None
    """The last trick taken, when the house rule lets players look back at it
    (``last_trick=allowed``); ``None`` under ``hidden``. The one gathered trick an
    interface may show."""
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
    hand_number: int = 1
    """The hand's number in its match, from 1 (1 for a hand played alone)."""
    move_number: int = field(default=0, compare=False)
    """Moves taken in this hand so far that this seat was shown: a signal for partners
    only is not counted in the others' views, so that the number never tells them one
    was made. Views are compared without it: a position that search rebuilt without its
    history shows the same view."""
    match: MatchView | None = None
    """Where the match stands (:func:`match_view`); ``None`` for a hand played alone."""
    carichi: tuple[tuple[Card, ...], ...] = ()
    """The carichi each side has taken in this hand (aces and threes, or aces and 10s:
    :func:`~briscola.engine.events.carichi_taken`), sides as in :attr:`points`."""

    def to_json(self) -> dict[str, Any]:
        """The view as plain JSON types, for sockets and bots in other languages."""

        def cards(cs: tuple[Card, ...]) -> list[str]:
            return [c.text for c in cs]

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
            "turned": None if self.turned is None else self.turned.text,
            "stock_size": self.stock_size,
            "stock_top": None if self.stock_top is None else self.stock_top.text,
            "trick": [[s, c.text] for s, c in self.trick],
            "trick_order": list(self.trick_order),
            "tricks": [t.to_json() for t in self.tricks],
            "last_trick": None if self.last_trick is None else self.last_trick.to_json(),
            "points": list(self.points),
            "winners": list(self.winners),
            "carichi": [cards(side) for side in self.carichi],
            "rules": dict(self.rules),
            "legal": [a.to_json() for a in self.legal],
            "talk": [t.to_json() for t in self.talk],
            "auction": None if self.auction is None else self.auction.to_json(),
            "hand_number": self.hand_number,
            "move_number": self.move_number,
            "match": None if self.match is None else self.match.to_json(),
        }

    @classmethod
    def from_json(cls, obj: object) -> View:
        """The view that :meth:`to_json` wrote, for a player in another process.

        :raises MalformedError: naming the field that is not what a view holds.
        """
        if not isinstance(obj, dict):
            raise MalformedError(f"view: expected a JSON object (View.to_json()), got {shown(obj)}")
        missing = [k for k in _VIEW_FIELDS if k not in obj]
        if missing:
            raise MalformedError(f"view.{missing[0]}: missing")
        unknown = set(obj) - set(_VIEW_FIELDS)
        if unknown:
            raise MalformedError(f"view: unknown field {shown(min(unknown, key=str))}")
        out: dict[str, Any] = {}
        for name, read in _READERS.items():
            value = obj[name]
            try:
                out[name] = read(value)
            except (BriscolaError, LookupError, TypeError, ValueError, AttributeError):
                raise MalformedError(
                    f"view.{name}: not what a view holds there: {shown(value)}"
                ) from None
        sides = out["sides"]
        out["talk"] = tuple(_talk(t, sides) for t in _list(obj["talk"]))
        return cls(**out)

    def played_by(self, card: Card) -> int | None:
        """The seat that played ``card`` in this hand (to a trick taken or to the trick on
        the table), or ``None`` when nobody has played it yet."""
        for t in self.tricks:
            for seat, c in zip(t.seats, t.cards, strict=False):
                if c == card:
                    return seat
        for seat, c in self.trick:
            if c == card:
                return seat
        return None


T = TypeVar("T")


def _list(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError("not a list")
    return value


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("not a whole number")
    return value


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError("not true or false")
    return value


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError("not a text")
    return value


def _ints(value: object) -> tuple[int, ...]:
    return tuple(_int(v) for v in _list(value))


def _cards(value: object) -> tuple[Card, ...]:
    return tuple(Card.parse(v) for v in _list(value))


def _maybe(read: Callable[[Any], T]) -> Callable[[Any], T | None]:
    return lambda value: None if value is None else read(value)


def _hands(value: object) -> dict[int, tuple[Card, ...]]:
    if not isinstance(value, dict):
        raise TypeError("not an object")
    return {_int(int(k)): _cards(v) for k, v in value.items()}


def _trick_view(obj: Any) -> TrickView:
    return TrickView(
        _int(obj["leader"]), _ints(obj["seats"]), _cards(obj["cards"]),
        _int(obj["winner"]), _int(obj["points"]),
    )  # fmt: skip


def _auction(obj: Any) -> AuctionView:
    return AuctionView(
        bids=tuple((_int(b["seat"]), b["bid"]) for b in _list(obj["bids"])),
        high=_maybe(_text)(obj["high"]),
        bidder=_maybe(_int)(obj["bidder"]),
        caller=_maybe(_int)(obj["caller"]),
        called=_maybe(Card.parse)(obj["called"]),
        partner=_maybe(_int)(obj["partner"]),
    )


def _talk(obj: Any, sides: tuple[tuple[int, ...], ...]) -> Talk:
    """A talk entry of a view's JSON. Who heard it is not written: the whole table when
    ``public``, else the speaker's side and the seats that spotted it as this seat knows
    (itself, or nobody), as :func:`~briscola.engine.events.visible` leaves it."""
    try:
        seat = _int(obj["seat"])
        spotted_raw = obj.get("spotted")
        spotted = None if spotted_raw is None else frozenset(_ints(spotted_raw))
        audience = None
        if not _bool(obj["public"]):
            side = next(s for s in sides if seat in s)
            audience = frozenset(side) | (spotted or frozenset())
        return Talk(
            seat, _text(obj["kind"]), _text(obj["what"]), _maybe(_int)(obj.get("to")),
            _maybe(_text)(obj.get("answer")), audience, spotted,
        )  # fmt: skip
    except (LookupError, TypeError, ValueError, AttributeError, StopIteration):
        raise MalformedError(f"view.talk: not a talk entry: {shown(obj)}") from None


def _legal(value: object) -> tuple[Action, ...]:
    return tuple(action_from_json(a, "view.legal") for a in _list(value))


def _rules(value: object) -> dict[str, RuleValue]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str | int) for k, v in value.items()
    ):
        raise TypeError("not house rules")
    return dict(value)


"""The engine's own phase strings (it compares phases by identity), by name."""

_READERS: dict[str, Callable[[Any], Any]] = {
    "game": _text,
    "seat": _maybe(_int),
    "players": _int,
    "sides": lambda v: tuple(_ints(s) for s in _list(v)),
    "dealer": _int,
    "direction": _text,
    "phase": lambda v: Phase(_text(v)),
    "to_act": _maybe(_int),
    "hand": _cards,
    "hand_sizes": _ints,
    "visible_hands": _hands,
    "known_cards": _hands,
    "trump": _maybe(Suit),
    "turned": _maybe(Card.parse),
    "stock_size": _int,
    "stock_top": _maybe(Card.parse),
    "trick": lambda v: tuple((_int(s), Card.parse(c)) for s, c in _list(v)),
    "trick_order": _ints,
    "tricks": lambda v: tuple(_trick_view(t) for t in _list(v)),
    "last_trick": _maybe(_trick_view),
    "points": _ints,
    "winners": _ints,
    "carichi": lambda v: tuple(_cards(side) for side in _list(v)),
    "rules": _rules,
    "legal": _legal,
    "auction": _maybe(_auction),
    "hand_number": _int,
    "move_number": _int,
    "match": _maybe(MatchView.from_json),
}
_VIEW_FIELDS = (*_READERS, "talk")
