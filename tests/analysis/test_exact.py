"""Exact where nothing is hidden: in two-player hands once the stock is out, each choice's
``expected_points`` is the exact value of the rest of the hand with both sides playing
perfectly, checked on 1,000 positions of every two-player game against an exhaustive
search written here (no pruning, no shared code with the analysis). With every card
seen, the same holds for the deal as it lay over the last draws."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping

import pytest

pytest.importorskip("numba")

from briscola.analysis import LEVELS, choice_values
from briscola.analysis.values import open_values
from briscola.engine import GameState, Rules
from briscola.engine.actions import Action, Play
from helpers import random_state

TWO_PLAYER = [
    ("briscola-2", {}),
    ("scoperta", {}),
    ("briscolone", {}),
    ("brisca", {"players": 2}),
    ("briskula", {"players": 2}),
    ("briskula-double", {"players": 2}),
    ("briscola-2", {"follow_suit": "required"}),
]
POSITIONS = 1000


def exhaustive(state: GameState, side: set[int]) -> int:
    """The card points ``side`` takes from ``state`` to the end of the hand, every line
    of play tried, ``side`` taking the most and the other side the least."""
    if state.over:
        return 0
    outcomes = []
    for action in state.legal_actions():
        after = state.copy()
        before = sum(after.seat_points[s] for s in side)
        after.apply(action)
        taken = sum(after.seat_points[s] for s in side) - before
        outcomes.append(taken + exhaustive(after, side))
    return max(outcomes) if state.turn in side else min(outcomes)


def assert_exhaustive(
    state: GameState, seat: int, points: Mapping[Action, float], where: object
) -> None:
    """Each choice's value is the points ``seat``'s side takes after it, by
    :func:`exhaustive`."""
    side = {s for s in range(state.n) if state.rules.side_of[s] == state.rules.side_of[seat]}
    for action, value in points.items():
        after = state.copy()
        before = sum(after.seat_points[s] for s in side)
        after.apply(action)
        truth = sum(after.seat_points[s] for s in side) - before + exhaustive(after, side)
        assert value == truth, (where, str(action), value, truth)


def positions(seed: int) -> Iterator[tuple[str, GameState]]:
    """Two-player positions with the stock out and a choice to make (hands of four cards
    at most: the exhaustive search of five cards each is slow)."""
    rng = random.Random(seed)
    while True:
        for key, options in TWO_PLAYER:
            rules = Rules.make(key, options)
            state = random_state(rules, rng)
            while not state.over:
                plays = [a for a in state.legal_actions() if isinstance(a, Play)]
                stock_out = not state.to_draw() and state.turned is None
                if stock_out and len(plays) > 1 and len(state.hands[state.turn]) <= 4:
                    yield key, state.copy()
                state.apply(rng.choice(state.legal_actions()))


def test_values_are_exact_once_the_stock_is_out_in_every_two_player_game() -> None:
    config = LEVELS["strong"]
    checked: dict[str, int] = {}
    for n, (key, state) in enumerate(positions(seed=26)):
        if n == POSITIONS:
            break
        seat = state.turn
        values = choice_values(state, seat, config, seed=n)
        assert values.exact, (key, n)
        assert_exhaustive(state, seat, values.points, (key, n))
        checked[key] = checked.get(key, 0) + 1
    assert sum(checked.values()) == POSITIONS
    assert set(checked) == {key for key, _ in TWO_PLAYER}, checked


def drawing(seed: int) -> Iterator[tuple[str, GameState]]:
    """Two-player positions with a choice to make, hands of three cards at most and at
    most four cards left to draw (the turned card included), in the games without a
    trump exchange."""
    rng = random.Random(seed)
    while True:
        for key, options in TWO_PLAYER:
            rules = Rules.make(key, options)
            if rules.exchange != "none":
                continue
            state = random_state(rules, rng)
            while not state.over:
                plays = [a for a in state.legal_actions() if isinstance(a, Play)]
                left = len(state.to_draw())  # (the turned card among them)
                small = max(len(h) for h in state.hands) <= 3
                only_plays = len(plays) == len(state.legal_actions())
                if 0 < left <= 4 and small and len(plays) > 1 and only_plays:
                    yield key, state.copy()
                state.apply(rng.choice(state.legal_actions()))


def test_with_every_card_seen_the_last_draws_are_solved_in_the_deal_as_it_lay() -> None:
    """The other values (every card seen) of a position with cards still to draw are the
    exact value of the rest of the hand in the deal as it lay: the stock's order known,
    both sides playing perfectly (from the seat's view alone they are not known, but in
    the last draw of Briscola scoperta)."""
    config = LEVELS["strong"]
    games: set[str] = set()
    for n, (key, state) in enumerate(drawing(seed=27)):
        if n == 100:
            break
        seat = state.turn
        values = open_values(state, seat, config, seed=n)
        assert values.exact, (key, n)
        assert_exhaustive(state, seat, values.points, (key, n))
        games.add(key)
    assert len(games) >= 3, games
