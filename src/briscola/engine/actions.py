"""Actions: what a seat does. Each is a frozen value with a JSON form used in records.

>>> a = Play(0, Card.parse("5b"))
>>> a.to_json()
{'seat': 0, 'play': '5b'}
>>> action_from_json({'seat': 1, 'exchange': '7d'})
Exchange(seat=1, card=Card.parse('7d'))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from briscola.engine.cards import Card
from briscola.engine.errors import MalformedError


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


@dataclass(frozen=True, slots=True)
class Decline:
    """Let the chance to exchange the turned card pass, and draw (Spanish timing)."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "decline": "exchange"}

    def __str__(self) -> str:
        return f"seat {self.seat} declines the exchange"


Action = Play | Exchange | Decline


def action_from_json(obj: object, where: str = "move") -> Action:
    """Parse an action from its record form; errors name ``where`` and the field."""
    if not isinstance(obj, dict):
        raise MalformedError(f'{where}: expected an object like {{"seat": 0, "play": "5b"}}')
    seat = obj.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise MalformedError(f"{where}.seat: expected a seat number (0, 1, ...), got {seat!r}")
    kinds = [k for k in ("play", "exchange", "decline") if k in obj]
    extra = set(obj) - {"seat", "play", "exchange", "decline"}
    if len(kinds) != 1 or extra:
        raise MalformedError(
            f"{where}: expected exactly one of the keys play, exchange, decline beside seat, "
            f"got {', '.join(sorted(obj)) or 'nothing'}"
        )
    kind = kinds[0]
    value = obj[kind]
    if kind == "decline":
        if value != "exchange":
            raise MalformedError(f'{where}.decline: the only thing to decline is "exchange"')
        return Decline(seat)
    try:
        card = Card.parse(value)
    except MalformedError as e:
        raise MalformedError(f"{where}.{kind}: {e}") from None
    return Play(seat, card) if kind == "play" else Exchange(seat, card)
