"""Random-play throughput of the reference engine in CPU time, for ``briscola bench``."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from briscola.engine.deal import shuffled_deal
from briscola.engine.games import Rules
from briscola.engine.state import OVER, GameState


def play_random_games(rules: Rules, games: int, seed: int) -> int:
    """Play ``games`` random hands to the end; return the number of actions taken."""
    rng = random.Random(seed)
    rand = rng.random
    actions = 0
    n = rules.players
    for g in range(games):
        state = GameState(rules, shuffled_deal(rules, g % n, rng))
        apply = state.apply
        legal = state.legal_actions
        while state.phase != OVER:
            options = legal()
            apply(options[int(rand() * len(options))])
            actions += 1
    return actions


@dataclass(frozen=True)
class BenchResult:
    game: str
    games: int
    seconds: float
    actions: int

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds


def bench(rules: Rules, games: int, seed: int = 0) -> BenchResult:
    """Time ``games`` random hands on one core in the process's CPU time
    (``time.process_time``), so that other work on a shared machine does not count: the
    best of five equal slices, since caches shared with that work only ever slow a slice
    down."""
    per = max(1, games // 5)
    best = float("inf")
    total_actions = 0
    for i in range(5):
        start = time.process_time()
        total_actions = play_random_games(rules, per, seed + i)
        best = min(best, time.process_time() - start)
    return BenchResult(rules.key, per, best, total_actions)
