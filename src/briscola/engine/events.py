"""Events: what happened, each with its audience.

``audience`` is ``None`` when everyone at the table (and spectators) may see the
event, or the set of seats that may. :func:`visible` gives what one seat sees of
an event: the event itself, a redacted copy that hides the card (someone drew,
but you do not see what), or nothing.

:func:`seat_events` is the one way out toward a seat as JSON: it applies
:func:`visible` first, and never writes the audience.

>>> from briscola.engine.cards import Card
>>> batch = [CardDrawn(1, Card.parse("Ab"), frozenset({1})), CardPlayed(0, Card.parse("5b"))]
>>> seat_events(batch, 0)
[{'type': 'card_drawn', 'seat': 1, 'card': None}, {'type': 'card_played', 'seat': 0, 'card': '5b'}]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterable, Mapping
from typing import Any, NamedTuple

from briscola.engine.cards import Card, Suit, carichi_values
from briscola.engine.errors import MalformedError, shown

Audience = frozenset[int] | None


class Dealt(NamedTuple):
    """A seat received its starting hand."""

    seat: int
    cards: tuple[Card, ...]
    audience: Audience


class TrumpTurned(NamedTuple):
    """The turned card was laid under the stock; its suit is trump."""

    card: Card
    audience: Audience = None


class StockTop(NamedTuple):
    """Scoperta: the card now face up on top of the stock."""

    card: Card
    audience: Audience = None


class CardPlayed(NamedTuple):
    seat: int
    card: Card
    audience: Audience = None


class TrickWon(NamedTuple):
    winner: int
    leader: int
    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    points: int
    audience: Audience = None


class CardDrawn(NamedTuple):
    """A seat drew a card; ``card`` is ``None`` in the copy shown to others."""

    seat: int
    card: Card | None
    audience: Audience


class TrumpExchanged(NamedTuple):
    """A seat gave ``given`` for the turned card ``taken``; ``given`` is the new turned card."""

    seat: int
    given: Card
    taken: Card
    audience: Audience = None


class HandShown(NamedTuple):
    """A seat's hand was shown to the audience (partners when the stock runs out)."""

    seat: int
    cards: tuple[Card, ...]
    audience: Audience


class Talk(NamedTuple):
    """A message at the table: ``kind`` is signal, ask, order, look, or done (a rais ends
    its talk before the lead; ``what`` is ``talk``); ``what`` its word;
    ``to`` the partner addressed; ``answer`` the answer read from that partner's hand.

    ``spotted``: under ``signal_audience=spotted``, the opponents who caught the signal
    (they are in ``audience`` too). At a real table nobody knows who else caught a sign,
    so the copy :func:`visible` gives a seat names at most that seat among them."""

    seat: int
    kind: str
    what: str
    to: int | None
    answer: str | None
    audience: Audience
    spotted: frozenset[int] | None = None

    def to_json(self) -> dict[str, Any]:
        """The talk as a view shows it: ``public`` when the whole table heard it (else only
        the speaker's side, and those who spotted it); ``spotted`` under
        ``signal_audience=spotted``, as :func:`visible` left it (this seat, or nobody)."""
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind, "what": self.what}
        if self.to is not None:
            out["to"] = self.to
        if self.answer is not None:
            out["answer"] = self.answer
        out["public"] = self.audience is None
        if self.spotted is not None:
            out["spotted"] = sorted(self.spotted)
        return out


class BidMade(NamedTuple):
    """Chiamata: a bid (``A`` ... ``2``, ``2 at N``) or ``pass``."""

    seat: int
    bid: str
    audience: Audience = None


class AuctionEnded(NamedTuple):
    """Chiamata: the auction's winner, or ``None`` when all passed (the hand is dealt again)."""

    caller: int | None
    bid: str | None
    audience: Audience = None


class CardCalled(NamedTuple):
    seat: int
    card: Card
    audience: Audience = None


class PartnerRevealed(NamedTuple):
    """The called card was played: ``partner`` is the caller's partner (the caller when alone)."""

    caller: int
    partner: int
    audience: Audience = None


class ThrownIn(NamedTuple):
    """Chiamata: a player with no card points showed the hand; the deal is thrown in."""

    seat: int
    cards: tuple[Card, ...]
    audience: Audience = None


class HandOver(NamedTuple):
    """The hand is over: ``points`` by side, the seats of ``sides`` in the same order (in
    chiamata the sides are known only once the partner is revealed), ``winners``, and the
    ``carichi`` each side took (:func:`carichi_taken`)."""

    points: tuple[int, ...]
    winners: tuple[int, ...]
    audience: Audience = None
    sides: tuple[tuple[int, ...], ...] = ()
    carichi: tuple[tuple[Card, ...], ...] = ()


def carichi_taken(
    tricks: Iterable[TrickWon],
    sides: tuple[tuple[int, ...], ...],
    points: Mapping[Card, int],
    *,
    carichi: Collection[Card] | None = None,
) -> tuple[tuple[Card, ...], ...]:
    """The carichi (:func:`~briscola.engine.cards.carichi`: aces and threes, or aces and
    10s) that each of ``sides`` took in ``tricks``, in the order taken; ``points`` is the
    rule set's, and ``carichi`` its carichi when known already
    (:attr:`Rules.carichi <briscola.engine.rules.Rules.carichi>`).

    >>> from briscola.engine.cards import parse_cards
    >>> pts = {c: {"A": 11, "3": 10}.get(c.rank.value, 0) for c in parse_cards("Ab 3c 4s 2d")}
    >>> won = [TrickWon(1, 0, (0, 1), tuple(parse_cards("4s Ab")), 11),
    ...        TrickWon(0, 1, (1, 0), tuple(parse_cards("2d 3c")), 10)]
    >>> [[str(c) for c in side] for side in carichi_taken(won, ((0,), (1,)), pts)]
    [['3c'], ['Ab']]
    """
    if carichi is None:
        top = carichi_values(points)
        carichi = {c for c, p in points.items() if p in top}
    side_of: dict[int, int] = {}
    for k, side in enumerate(sides):
        for seat in side:
            side_of.setdefault(seat, k)
    taken: list[list[Card]] = [[] for _ in sides]
    for trick in tricks:
        i = side_of.get(trick.winner)
        if i is not None:
            kept = taken[i]
            for c in trick.cards:
                if c in carichi:
                    kept.append(c)
    return tuple(tuple(kept) for kept in taken)


Event = (
    Dealt | TrumpTurned | StockTop | CardPlayed | TrickWon | CardDrawn | TrumpExchanged
    | HandShown | Talk | BidMade | AuctionEnded | CardCalled
    | PartnerRevealed | ThrownIn | HandOver
)  # fmt: skip


def visible(event: Event, seat: int | None) -> Event | None:
    """What ``seat`` (``None``: a spectator) sees of ``event``.

    >>> from briscola.engine.cards import Card
    >>> e = CardDrawn(1, Card.parse("Ab"), frozenset({1}))
    >>> visible(e, 1) is e, visible(e, 0)
    (True, CardDrawn(seat=1, card=None, audience=None))

    :raises MalformedError: when ``event`` is no event or ``seat`` no seat number.
    """
    _check_event(event)
    _check_seat(seat)
    return _visible(event, seat)


def _check_event(event: object) -> None:
    if not isinstance(event, tuple) or not hasattr(event, "audience"):
        raise MalformedError(f"visible: expected an event (from state.apply), got {shown(event)}")


def _check_seat(seat: object) -> None:
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0):
        raise MalformedError(
            "visible: expected a seat number (0, 1, ...) or None for a spectator, "
            f"got {shown(seat)}"
        )


def _visible(event: Event, seat: int | None) -> Event | None:
    """:func:`visible`, its arguments checked already."""
    aud = event.audience
    if aud is None or (seat is not None and seat in aud):
        if isinstance(event, Talk) and aud is not None and event.spotted:
            # A seat knows that the signaller's side saw the signal, and whether it saw
            # it itself: not which other opponents did.
            mine = event.spotted & {seat}
            return event._replace(audience=aud - event.spotted | mine, spotted=mine)
        return event
    if isinstance(event, CardDrawn):
        return CardDrawn(event.seat, None, None)
    if isinstance(event, Dealt):
        return Dealt(event.seat, (), None)
    return None


def seen_by(log: Iterable[Event], seat: int | None) -> list[Event]:
    """What ``seat`` (``None``: a spectator) sees of the events of ``log``, each as
    :func:`visible` shows it, those it may not see left out. ``log`` is an add-on's own
    log of the events it made, so they are not checked one by one as :func:`visible`
    checks its argument."""
    _check_seat(seat)
    return [e for e in (_visible(event, seat) for event in log) if e is not None]


def seat_events(events: Iterable[object], seat: int | None) -> list[dict[str, Any]]:
    """The JSON of what ``seat`` (``None``: a spectator) sees of ``events``, in order: each
    event through :func:`visible` (those it may not see left out, redacted copies where it
    sees that something happened but not the card), as ``{"type": "card_played", ...}``
    with the event's fields. The audience is never written. The match's events
    (:mod:`briscola.engine.match`) go the same way.

    :raises MalformedError: when one of ``events`` is no event, or ``seat`` no seat number.
    """
    if not isinstance(events, Iterable) or isinstance(events, str | bytes | dict):
        raise MalformedError(
            f"seat_events: expected a list of events (from apply), got {shown(events)}"
        )
    _check_seat(seat)
    out: list[dict[str, Any]] = []
    for event in events:
        _check_event(event)
        seen = _visible(event, seat)  # type: ignore[arg-type]  # checked
        if seen is not None:
            out.append(_event_json(seen))
    return out


def _event_json(event: tuple[Any, ...]) -> dict[str, Any]:
    kind, fields = _shape(type(event))
    out: dict[str, Any] = {"type": kind}
    for i, name in fields:
        value = event[i]
        out[name] = value if value is None or type(value) in _AS_IS else _plain(value)
    return out


_AS_IS = frozenset({int, str, bool, float})
"""The types a field's value is written as it is."""


@functools.cache
def _shape(kind: type) -> tuple[str, tuple[tuple[int, str], ...]]:
    """An event type's name in snake case, and its fields written (all but the audience)
    with their places."""
    fields: tuple[str, ...] = kind._fields  # type: ignore[attr-defined]  # a NamedTuple
    name = re.sub(r"(?<!^)(?=[A-Z])", "_", kind.__name__).lower()
    return name, tuple((i, f) for i, f in enumerate(fields) if f != "audience")


def _plain(value: object) -> Any:
    """A field's value in JSON types: cards as ``5b``, suits as their letter, sets sorted."""
    if isinstance(value, Card):
        return value.text
    if isinstance(value, Suit):
        return value.value
    if isinstance(value, frozenset | set):
        return sorted(value)
    if isinstance(value, tuple | list):
        return [v if v is None or type(v) in _AS_IS else _plain(v) for v in value]
    return value
