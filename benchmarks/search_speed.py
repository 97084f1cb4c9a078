"""Time a move of the search levels, game by game.

    python benchmarks/search_speed.py [--levels strong champion] [--games briscola-2 ...]
                                      [--hands 4] [--seed 0]

The level plays seat 0 (and its partners) against the intermediate bot on random deals;
only its own card choices are timed, in the process's CPU time (one core; other work
on the machine does not count). Before its timed hands of a game, each
level plays one untimed hand of it (another deal), so that every numba kernel the level
calls in that game (the head-to-head core of ``briscola.ai.cores.head_to_head``, ``pimc`` and
``solver`` in the two-player games, the table core's ``card_values`` and
``exact_values`` in the others) is compiled, or loaded from numba's cache, outside the
timing. Prints the median, 90th percentile and largest time a move.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from briscola.ai import make_bot
from briscola.engine import GameState, Play, Rules, seat_view, shuffled_deal

GAMES = ("briscola-2", "scoperta", "briscolone", "brisca", "briscola-3", "briscola-4",
         "briscola-6", "chiamata")  # fmt: skip


def time_level(level: str, game: str, hands: int, seed: int) -> list[float]:
    rules = Rules.make(game)
    times: list[float] = []
    for h in range(hands):
        state = GameState(rules, shuffled_deal(rules, h % rules.players, random.Random(seed + h)))
        mine = set(rules.sides[0]) if rules.teams else {0}
        bots = [
            make_bot(level if s in mine else "intermediate", seed=seed * 100 + h * 10 + s)
            for s in range(rules.players)
        ]
        while not state.over:
            seat = state.turn
            view = seat_view(state, seat)
            start = time.process_time()
            action = bots[seat].choose(view)
            spent = time.process_time() - start
            if seat in mine and isinstance(action, Play) and len(view.legal) > 1:
                times.append(spent)
            state.apply(action)
    return times


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--levels", nargs="+", default=["strong", "champion"])
    p.add_argument("--games", nargs="+", default=list(GAMES))
    p.add_argument("--hands", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    print("level     game         moves  median ms    p90 ms    max ms")
    for level in args.levels:
        for game in args.games:
            time_level(level, game, 1, args.seed + 10_000)  # compile or load its kernels
            t = sorted(time_level(level, game, args.hands, args.seed))
            med = statistics.median(t) * 1000
            p90 = t[int(0.9 * len(t))] * 1000
            print(
                f"{level:9} {game:12} {len(t):5}  {med:9.1f} {p90:9.1f} {t[-1] * 1000:9.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
