"""The terminal's table, said from a real view's JSON."""

from __future__ import annotations

import random

from briscola.engine import GameState, Rules, seat_view, shuffled_deal
from briscola.words.narrate import describe_view
from briscola.words.seating import Seating


def test_the_auction_is_said_with_its_bids_from_the_views_json() -> None:
    """A view sends each bid as {"seat", "bid"}; the terminal says them in the auction."""
    rules = Rules.make("chiamata")
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(2)))
    for _ in range(2):
        state.apply(state.legal_actions()[1])  # a bid below the last
    me = state.turn
    lines = describe_view(seat_view(state, me).to_json(), Seating.of(rules, me))
    assert lines[0] == "the auction: North-West ace (A), West three (3)"
