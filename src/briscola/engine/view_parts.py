"""Parts of a view that add-ons fill in, shared by the add-ons and the views: a module
below both, so that neither imports the other for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from briscola.engine.cards import Card


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
