"""``briscola bench``: random-play throughput in CPU time, of the reference engine
(:func:`bench`, which benchmarks/fast_core.py uses too) and of the search bots' fast core."""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from typing import Annotated

import typer
from rich.table import Table

from briscola.engine import GAMES
from briscola.engine.deal import shuffled_deal
from briscola.engine.rules import Rules
from briscola.engine.state import OVER, GameState
from briscola.terminal.cli.common import MISSING_EXTRA, JsonFlag, err, make_rules, out


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


def bench_cmd(
    games: Annotated[
        int, typer.Option("--games", "-n", min=5, help="Hands of random play per game.")
    ] = 5000,
    game: Annotated[
        list[str] | None, typer.Option("--game", "-g", help="Only these games (repeatable).")
    ] = None,
    fast: Annotated[
        bool,
        typer.Option(
            "--fast/--no-fast",
            help="Also time the search bots' fast core (briscola-2; 100 times --games hands).",
        ),
    ] = True,
    as_json: JsonFlag = False,
) -> None:
    """Time random play on one core, in CPU time.

    Random hands of each game in the reference engine, and of briscola-2 in the search
    bots' fast core: games and card plays a second of the process's CPU time (the best
    of five slices), so that the time the machine gives to other work does not count.
    """
    keys = game or list(GAMES)
    rows = []
    for key in keys:
        rules = make_rules(key, None)
        play_random_games(rules, 20, 0)  # warm up the rule set's caches
        r = bench(rules, games)
        rows.append(
            {
                "game": r.game,
                "engine": "reference",
                "clock": "cpu",
                "games": r.games,
                "seconds": round(r.seconds, 4),
                "games_per_second": round(r.games_per_second, 1),
                "actions_per_second": round(r.actions_per_second, 1),
            }
        )
    rate: float | None = None
    if fast and "briscola-2" in keys:
        try:  # imported here: it loads numba (the ai extra)
            from briscola.ai.cores.head_to_head import bench_fast
        except ImportError as e:
            missing = MISSING_EXTRA.format(what=e.name, extra="ai")
            err.print(f"the fast core is not timed: it needs {missing}")
        else:
            rate = bench_fast(games * 100)
    if rate is not None:
        rows.append(
            {
                "game": "briscola-2",
                "engine": "fast core",
                "clock": "cpu",
                "games": games * 100,
                "seconds": round(games * 100 / rate, 4),
                "games_per_second": round(rate, 1),
                "actions_per_second": round(rate * 40, 1),
            }
        )
    if as_json:
        print(json.dumps(rows))
        return
    table = Table(title="random play on one core, in CPU time (best of 5 slices)")
    table.add_column("game")
    table.add_column("engine")
    table.add_column("games/s", justify="right")
    table.add_column("actions/s", justify="right")
    for row in rows:
        table.add_row(
            str(row["game"]),
            str(row["engine"]),
            f"{row['games_per_second']:,.0f}",
            f"{row['actions_per_second']:,.0f}",
        )
    out.print(table)
