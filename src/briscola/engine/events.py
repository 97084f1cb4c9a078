"""Events: what happened, each with its audience.

``audience`` is ``None`` when everyone at the table (and spectators) may see the
event, or the set of seats that may. :func:`visible` gives what one seat sees of
an event: the event itself, a redacted copy that hides the card (someone drew,
but you do not see what), or nothing.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from briscola.engine.cards import Card
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
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind, "what": self.what}
        if self.to is not None:
            out["to"] = self.to
        if self.answer is not None:
            out["answer"] = self.answer
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
    points: tuple[int, ...]
    winners: tuple[int, ...]
    audience: Audience = None


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
    if not isinstance(event, tuple) or not hasattr(event, "audience"):
        raise MalformedError(f"visible: expected an event (from state.apply), got {shown(event)}")
    aud = event.audience
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0):
        raise MalformedError(
            "visible: expected a seat number (0, 1, ...) or None for a spectator, "
            f"got {shown(seat)}"
        )
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
