"""A match's hands as stored: each with its fair-shuffle commitment (and, once it is over,
its salt), read back into the deal source or written as the hands dealt since the last
store."""

from __future__ import annotations

from briscola.engine import GameState, Match, Rules
from briscola.engine.deal import deal_from_json
from briscola.fair_shuffle import Committed, FairDeals
from briscola.storage import Hand, NewHand


def committed(h: Hand, rules: Rules) -> Committed:
    """A stored hand as the fair deal source holds it."""
    return Committed(h.number, deal_from_json(h.deal, rules), h.salt or "", h.commitment or "")


def states(match: Match) -> list[GameState]:
    """The match's hands: those finished, and the one in play."""
    out = list(match.finished)
    if not out or out[-1] is not match.hand:
        out.append(match.hand)
    return out


def new_hands(match: Match, deals: FairDeals, stored: int) -> list[NewHand]:
    """The hands ``match`` dealt after the first ``stored``, with their commitments."""
    out = []
    for number, state in enumerate(states(match), 1):
        if number <= stored:
            continue
        c = deals.of_deal(state.deal)
        out.append(
            NewHand(
                number,
                state.deal.to_json(),
                c.commitment if c else None,
                c.salt if c else None,
            )
        )
    return out
