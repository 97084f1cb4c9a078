"""Hands played by computer players to learn from: every card play kept with the whole
hand as it lay, the same games whatever the number of worker processes."""

from __future__ import annotations

from functools import partial

import numpy as np

from briscola.ai.cores.head_to_head import NH
from briscola.engine import Rules
from briscola.training.report import level_bot
from briscola.training.selfplay import search_games

RULES = Rules.make("briscola-2")


def test_the_same_games_in_one_process_or_two() -> None:
    make = partial(level_bot, "intermediate")
    one = search_games(RULES, 6, 11, make, jobs=1, chunk=2)
    two = search_games(RULES, 6, 11, make, jobs=2, chunk=2)
    for field in ("positions", "seats", "cards", "game", "final", "last"):
        np.testing.assert_array_equal(getattr(one, field), getattr(two, field))
    assert one.positions.shape[0] == 6 * 40  # every card of every hand
    assert (one.final.sum(1) == 120).all()
    assert sorted(set(one.game.tolist())) == list(range(6))
    # each row is the hand before the card: the seat to move holds the card it played
    for pos, seat, card in zip(one.positions, one.seats, one.cards, strict=True):
        hand = pos[seat * 5 : seat * 5 + pos[NH + seat]]
        assert card in hand
