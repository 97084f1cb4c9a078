"""Events: what happened, each with its audience.

``audience`` is ``None`` when everyone at the table (and spectators) may see the
event, or the set of seats that may. :func:`visible` gives what one seat sees of
an event: the event itself, a redacted copy that hides the card (someone drew,
but you do not see what), or nothing.
"""

from __future__ import annotations

from typing import NamedTuple

from briscola.engine.cards import Card

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


class ExchangeDeclined(NamedTuple):
    seat: int
    audience: Audience = None


class HandShown(NamedTuple):
    """A seat's hand was shown to the audience (partners when the stock runs out)."""

    seat: int
    cards: tuple[Card, ...]
    audience: Audience


class HandOver(NamedTuple):
    points: tuple[int, ...]
    winners: tuple[int, ...]
    audience: Audience = None


Event = (
    Dealt | TrumpTurned | CardPlayed | TrickWon | CardDrawn | TrumpExchanged
    | ExchangeDeclined | HandShown | HandOver
)  # fmt: skip


def visible(event: Event, seat: int | None) -> Event | None:
    """What ``seat`` (``None``: a spectator) sees of ``event``.

    >>> from briscola.engine.cards import Card
    >>> e = CardDrawn(1, Card.parse("Ab"), frozenset({1}))
    >>> visible(e, 1) is e, visible(e, 0)
    (True, CardDrawn(seat=1, card=None, audience=None))
    """
    aud = event.audience
    if aud is None or (seat is not None and seat in aud):
        return event
    if isinstance(event, CardDrawn):
        return CardDrawn(event.seat, None, None)
    if isinstance(event, Dealt):
        return Dealt(event.seat, (), None)
    return None
