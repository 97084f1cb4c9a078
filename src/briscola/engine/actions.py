"""Actions: what a seat does. Each is a frozen value with a JSON form used in records.

>>> a = Play(0, Card.parse("5b"))
>>> a.to_json()
{'seat': 0, 'play': '5b'}
>>> action_from_json({'seat': 1, 'exchange': '7d'})
Exchange(seat=1, card=Card.parse('7d'))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard

from briscola.engine.cards import Card, Rank
from briscola.engine.errors import MalformedError, shown


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the trick."""

    seat: int
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "play": str(self.card)}

    def __str__(self) -> str:
        return f"seat {self.seat} plays {self.card}"


@dataclass(frozen=True, slots=True)
class Exchange:
    """Give this card of the trump suit (the 2 or the 7) for the turned card."""

    seat: int
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "exchange": str(self.card)}

    def __str__(self) -> str:
        return f"seat {self.seat} exchanges {self.card} for the turned card"


SIGNALS = (
    "ace", "three", "king", "queen", "jack", "low-trumps", "no-trumps", "carico",
    "play-carico", "play-liscio",
)  # fmt: skip
"""Partner signals (rules.md §4): the five trump honours (the queen is the cavallo, the
jack the fante), low trumps (7 to 2), no trumps, holding a carico, and two requests."""

QUESTIONS = ("lisci", "trumps", "take", "carichi")
"""Questions of the Roman conversation (rules.md §4)."""

ORDERS = ("liscio", "trump-high", "trump-low", "take", "carico")
"""Orders of the Roman conversation: they guide, and bind nobody."""


@dataclass(frozen=True, slots=True)
class Signal:
    """Show the partner something true about one's own hand, or make a request.
    ``spotted``: the opponents who caught it, drawn by the engine (``None`` before)."""

    seat: int
    signal: str
    spotted: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "signal": self.signal}
        if self.spotted is not None:
            out["spotted"] = list(self.spotted)
        return out


@dataclass(frozen=True, slots=True)
class Ask:
    """Ask a partner one of the conversation's questions; the engine answers from the hand."""

    seat: int
    question: str
    to: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "ask": self.question, "to": self.to}


@dataclass(frozen=True, slots=True)
class Order:
    """Tell a partner what to play; the whole table hears it."""

    seat: int
    order: str
    to: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "order": self.order, "to": self.to}


@dataclass(frozen=True, slots=True)
class Look:
    """Schembil: the rais looks at a partner's hand once the stock is exhausted."""

    seat: int
    at: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "look": self.at}


@dataclass(frozen=True, slots=True)
class EndTalk:
    """Schembil: the rais whose turn it is to talk before the lead has nothing more to say."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "talk": "done"}


@dataclass(frozen=True, slots=True)
class Bid:
    """Chiamata: bid a rank (each lower than the last), or, once a 2 was bid, "2 at N"
    points (``points`` from 61 to 120, each higher than the last)."""

    seat: int
    rank: Rank | None = None
    points: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "bid": self.points if self.rank is None else self.rank.value}

    def __str__(self) -> str:
        return f"2 at {self.points}" if self.rank is None else self.rank.value


@dataclass(frozen=True, slots=True)
class Pass:
    """Chiamata: leave the auction, for good."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "bid": "pass"}


@dataclass(frozen=True, slots=True)
class Call:
    """Chiamata: the auction's winner names the called card (the bid rank, in a suit)."""

    seat: int
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "call": str(self.card)}


Action = Play | Exchange | Signal | Ask | Order | Look | EndTalk | Bid | Pass | Call

ACTION_TYPES = (Play, Exchange, Signal, Ask, Order, Look, EndTalk, Bid, Pass, Call)


def check_form(action: object) -> None:
    """Raise :class:`MalformedError` unless ``action`` is an action whose fields have the
    right types and values: seats are whole numbers from 0, cards are :class:`Card`, words
    are the rule book's. Whether the table has such a seat, and whether the rules allow the
    action now, is :meth:`GameState.check`'s to say.

    >>> check_form("5b")
    Traceback (most recent call last):
    ...
    briscola.engine.errors.MalformedError: expected an action such as Play(0, Card.parse('5b')) \
(one of state.legal_actions()), got '5b'
    """
    if type(action) not in ACTION_TYPES:
        raise MalformedError(
            "expected an action such as Play(0, Card.parse('5b')) (one of "
            f"state.legal_actions()), got {shown(action)}"
        )
    assert isinstance(action, ACTION_TYPES)
    name = type(action).__name__
    _check_seat(action.seat, f"{name}: the seat")
    if isinstance(action, Play | Exchange | Call):
        if not isinstance(action.card, Card):
            raise MalformedError(
                f"{name}: the card is a Card, like Card.parse('5b'), not {shown(action.card)}"
            )
    elif isinstance(action, Signal):
        if action.signal not in SIGNALS:
            raise MalformedError(
                f"Signal: {shown(action.signal)} is not a signal: {', '.join(SIGNALS)}"
            )
        if action.spotted is not None:
            if not isinstance(action.spotted, tuple):
                raise MalformedError("Signal: spotted is a tuple of seats, or None")
            for seat in action.spotted:
                _check_seat(seat, "Signal: a seat that spotted it")
    elif isinstance(action, Ask | Order):
        word = action.question if isinstance(action, Ask) else action.order
        names = QUESTIONS if isinstance(action, Ask) else ORDERS
        if word not in names:
            raise MalformedError(f"{name}: {shown(word)} is not one of {', '.join(names)}")
        _check_seat(action.to, f"{name}: the partner addressed")
    elif isinstance(action, Look):
        _check_seat(action.at, "Look: the partner looked at")
    elif isinstance(action, Bid):
        rank, points = action.rank, action.points
        if (rank is None) == (points is None) or not (isinstance(rank, Rank) or _is_seat(points)):
            raise MalformedError(
                "Bid: give a rank, like Bid(seat, rank=Rank.ACE), or points, like "
                f"Bid(seat, points=61), not rank={shown(rank)}, points={shown(points)}"
            )


def _check_seat(seat: object, what: str) -> None:
    if not _is_seat(seat):
        raise MalformedError(f"{what} is a seat number (0, 1, ...), not {shown(seat)}")


_KINDS = ("play", "exchange", "signal", "ask", "order", "look", "talk", "bid", "call")
_EXTRA = {"ask": {"to"}, "order": {"to"}, "signal": {"spotted"}}


def action_from_json(obj: object, where: str = "move") -> Action:
    """Parse an action from its record form; errors name ``where`` and the field."""
    if not isinstance(obj, dict):
        raise MalformedError(f'{where}: expected an object like {{"seat": 0, "play": "5b"}}')
    seat = obj.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise MalformedError(f"{where}.seat: expected a seat number (0, 1, ...), got {shown(seat)}")
    kinds = [k for k in _KINDS if k in obj]
    if len(kinds) != 1:
        raise MalformedError(
            f"{where}: expected exactly one of the keys {', '.join(_KINDS)} beside seat, "
            f"got {keys_of(obj)}"
        )
    kind = kinds[0]
    extra = set(obj) - {"seat", kind} - _EXTRA.get(kind, set())
    if extra:
        raise MalformedError(f"{where}: unknown key {shown(min(extra, key=str))} in a {kind} move")
    value = obj[kind]
    if kind in ("play", "exchange", "call"):
        try:
            card = Card.parse(value)
        except MalformedError as e:
            raise MalformedError(f"{where}.{kind}: {e}") from None
        if kind == "play":
            return Play(seat, card)
        return Exchange(seat, card) if kind == "exchange" else Call(seat, card)
    if kind == "signal":
        if value not in SIGNALS:
            raise MalformedError(
                f"{where}.signal: {shown(value)} is not a signal: {', '.join(SIGNALS)}"
            )
        spotted = obj.get("spotted")
        if spotted is not None and not (
            isinstance(spotted, list) and all(_is_seat(s) for s in spotted)
        ):
            raise MalformedError(f"{where}.spotted: expected a list of seats")
        return Signal(seat, value, None if spotted is None else tuple(spotted))
    if kind in ("ask", "order"):
        names = QUESTIONS if kind == "ask" else ORDERS
        if value not in names:
            raise MalformedError(f"{where}.{kind}: {shown(value)} is not one of {', '.join(names)}")
        to = obj.get("to")
        if not _is_seat(to):
            raise MalformedError(f"{where}.to: expected the seat of the partner addressed")
        return Ask(seat, value, to) if kind == "ask" else Order(seat, value, to)
    if kind == "talk":
        if value != "done":
            raise MalformedError(f'{where}.talk: expected "done" (the rais ends its talk)')
        return EndTalk(seat)
    if kind == "look":
        if not _is_seat(value):
            raise MalformedError(f"{where}.look: expected the seat of a partner")
        return Look(seat, value)
    # bid
    if value == "pass":
        return Pass(seat)
    if _is_seat(value):
        if not 61 <= value <= 120:
            raise MalformedError(f"{where}.bid: points bids run from 61 to 120, not {shown(value)}")
        return Bid(seat, points=value)
    ranks = {r.value: r for r in BID_RANKS}
    if isinstance(value, str) and value.upper() in ranks:
        return Bid(seat, rank=ranks[value.upper()])
    raise MalformedError(
        f'{where}.bid: expected a rank (A 3 K Q J 7 6 5 4 2), points from 61 to 120, or "pass"'
    )


def keys_of(obj: dict[Any, Any], most: int = 8) -> str:
    """The keys of a JSON object, in order, for an error message (``nothing`` when none)."""
    keys = sorted(k if is_plain(k) else shown(k) for k in obj)
    more = f" and {len(keys) - most} more" if len(keys) > most else ""
    return ", ".join(keys[:most]) + more or "nothing"


def is_plain(text: object, longest: int = 30) -> bool:
    """Whether ``text`` is a word that an error message can print as it is: a short text
    of printable ASCII."""
    return isinstance(text, str) and len(text) <= longest and text.isascii() and text.isprintable()


def _is_seat(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


BID_RANKS = (
    Rank.ACE, Rank.THREE, Rank.KING, Rank.QUEEN, Rank.JACK,
    Rank.SEVEN, Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.TWO,
)  # fmt: skip
"""Chiamata's bid ranks, from the first (highest) to the last."""
