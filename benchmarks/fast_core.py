"""Random-play throughput: the search bots' fast core against the reference engine.

    python benchmarks/fast_core.py [--games 1000000] [--engine-games 20000] [--seed 0]

Both play random ``briscola-2`` hands on one core, timed in the process's CPU time (the
best of five equal slices, after a warm-up that compiles or loads the fast core's kernel).
"""

from __future__ import annotations

import argparse

from briscola.ai.cores.head_to_head import bench_fast
from briscola.engine import Rules
from briscola.terminal.cli.bench import bench


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=1_000_000)
    p.add_argument("--engine-games", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    fast = bench_fast(args.games, args.seed)
    ref = bench(Rules.make("briscola-2"), args.engine_games, args.seed).games_per_second
    print(f"fast core:        {fast:12,.0f} random briscola-2 games/s")
    print(f"reference engine: {ref:12,.0f} random briscola-2 games/s")
    print(f"speed-up:         {fast / ref:12,.1f}x")


if __name__ == "__main__":
    main()
