"""The levels frozen in December 2026, ``strong-2026`` and ``champion-2026``, play the
hands they played then, so that every level after them is measured against the same
yardstick (today's ``strong`` values its worlds by a network: it plays otherwise).

``frozen_levels_2026.json`` holds, for each case, a digest of the moves of one hand: the
frozen level at seat 0 (seeded), the intermediate player at the others, from a seeded
deal. It was recorded once, from the levels as they were on 2026-12-05, and is never
written again: a change that makes a frozen level play otherwise is a change to undo (or
to make elsewhere, for the levels after them)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from briscola.ai import make_bot
from briscola.engine import GameState, Rules, shuffled_deal
from briscola.engine.presets import GAMES
from briscola.host import Table

pytest.importorskip("numba")

RECORDED = Path(__file__).with_name("frozen_levels_2026.json")
CASES = [
    *(("strong-2026", game, 0) for game in GAMES),
    ("champion-2026", "briscola-2", 0),
    ("champion-2026", "briscola-4", 0),
]
"""(level, game, seed): the strong level in every game, the champion head to head and in
pairs (it thinks for about a second a hand there)."""


def played(level: str, game: str, seed: int) -> str:
    """The digest of one hand's moves: ``level`` at seat 0 with ``seed``, the intermediate
    player at each other seat, the deal drawn from ``seed``."""
    rules = Rules.make(game)
    rng = random.Random(f"frozen {game} {seed}")
    state = GameState(rules, shuffled_deal(rules, rng.randrange(rules.players), rng))
    bots = {0: make_bot(level, seed=seed)}
    for seat in range(1, rules.players):
        bots[seat] = make_bot("intermediate", seed=seed * 100 + seat)
    table = Table(state, bots)
    while not table.over:
        table.run_bot()
    moves = json.dumps([m.to_json() for m in state.moves], sort_keys=True)
    return hashlib.sha256(moves.encode()).hexdigest()[:16]


def recorded() -> dict[str, str]:
    return dict(json.loads(RECORDED.read_text())["hands"])


def key(level: str, game: str, seed: int) -> str:
    return f"{level} {game} {seed}"


@pytest.mark.parametrize(("level", "game", "seed"), CASES)
def test_a_frozen_level_plays_the_hand_it_played_in_2026(level: str, game: str, seed: int) -> None:
    assert played(level, game, seed) == recorded()[key(level, game, seed)]


def test_every_case_is_recorded_and_nothing_else() -> None:
    assert sorted(recorded()) == sorted(key(*c) for c in CASES)
