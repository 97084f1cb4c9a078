"""Hands of the table games played by computer players, to learn from: the same hands
however many worker processes play them, each hand's end kept for every seat."""

from __future__ import annotations

from functools import partial

import numpy as np

from briscola.ai import make_bot
from briscola.ai.bot import Bot
from briscola.ai.cores.table_games import legal_cards
from briscola.engine.rules import Rules
from briscola.training.table_selfplay import search_hands


def beginner(seed: int) -> Bot:
    return make_bot("beginner", seed=seed)


def test_the_same_hands_in_one_process_or_two() -> None:
    rules = Rules.make("briscola-4")
    one = search_hands(rules, 3, 7, 11, beginner, jobs=1, chunk=3)
    two = search_hands(rules, 3, 7, 11, partial(beginner), jobs=2, chunk=2)
    assert one.positions.shape == (7 * 8, two.positions.shape[1])
    for a, b in zip(
        (one.positions, one.hand, one.won, one.points, one.cards),
        (two.positions, two.hand, two.won, two.points, two.cards),
        strict=True,
    ):
        assert np.array_equal(a, b)
    buf = np.empty(8, np.int64)
    for pos, card in zip(one.positions.astype(np.int64), one.cards, strict=True):
        assert card in buf[: legal_cards(pos, buf)]  # the card the player chose there
    # the sides' points: each seat's side and the other side's make the deck's 120
    assert (one.points[:, 0] + one.points[:, 1] == 120).all()
    assert (one.won[:, 0] + one.won[:, 1] == 1.0).all()


def test_another_first_hand_plays_other_hands() -> None:
    rules = Rules.make("briscola-3")
    a = search_hands(rules, 0, 2, 5, beginner)
    b = search_hands(rules, 2, 2, 5, beginner)
    assert not np.array_equal(a.positions, b.positions)
    assert a.won.shape == (2, 6) and set(np.unique(a.won[:, :3])) <= {0.0, 0.5, 1.0}


def test_as_many_positions_of_each_hand_as_asked_each_another_card_play() -> None:
    rules = Rules.make("briscola-2")
    hands = search_hands(rules, 0, 3, 9, beginner, jobs=2, chunk=2, keep=40)
    assert hands.positions.shape[0] == 3 * 40 and (np.bincount(hands.hand) == 40).all()
    for g in range(3):
        # every card play of a hand of 40 cards kept, each a position of its own
        mine = hands.positions[hands.hand == g]
        assert len({p.tobytes() for p in mine}) == 40
