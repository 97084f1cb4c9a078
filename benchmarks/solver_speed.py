"""The exact solver's time per position (CPU time), by the cards left to draw.

    python benchmarks/solver_speed.py [--positions 200] [--seed 0]

Positions come from random ``briscola-2`` hands played at random until the given number
of cards (the turned card included) is left to draw, half of them with a card already
led. "0" is the stock-empty endgame that ``solve_view`` answers from a view (its time
includes building the position from the view); the others are determinized worlds
(everything known, the order of the stock included), solved from a fast position with a
transposition table.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from briscola.ai.cores.head_to_head import Codec
from briscola.ai.cores.head_to_head_solver import Solver, random_states
from briscola.ai.search.exact_head_to_head import solve_view
from briscola.engine import GameState, Rules, seat_view

SIZES = (0, 2, 4, 6, 8, 10, 14, 20)


def positions(rules: Rules, pile: int, count: int, rng: random.Random) -> list[GameState]:
    return random_states(rules, pile, count, rng, choices=2)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    rules = Rules.make("briscola-2")
    rng = random.Random(args.seed)
    codec = Codec(rules)
    solver = Solver()
    warm = positions(rules, 0, 1, rng)[0]
    solve_view(seat_view(warm, warm.turn), rules)  # compile or load the kernels
    solver.solve(codec.from_state(warm))
    print("cards to draw  positions  median ms  p90 ms   max ms  median nodes")
    for size in SIZES:
        count = args.positions if size <= 10 else max(10, args.positions // 10)
        times = []
        nodes = []
        for state in positions(rules, size, count, rng):
            if size == 0:
                view = seat_view(state, state.turn)
                start = time.process_time()
                solve_view(view, rules)
                times.append(time.process_time() - start)
                continue
            pos = codec.from_state(state)
            solver.nodes[0] = 0
            start = time.process_time()
            solver.solve(pos)
            times.append(time.process_time() - start)
            nodes.append(int(solver.nodes[0]))
        times.sort()
        med = statistics.median(times) * 1000
        p90 = times[int(0.9 * len(times))] * 1000
        node = f"{statistics.median(nodes):12,.0f}" if nodes else f"{'':>12}"
        print(f"{size:13}  {len(times):9}  {med:9.3f}  {p90:6.3f}  {times[-1] * 1000:7.3f}  {node}")


if __name__ == "__main__":
    main()
