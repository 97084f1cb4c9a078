"""A duplicate-deal match between two bots, where either may be a search variant.

    python benchmarks/search_match.py --deals 200 --seed 1 --jobs 2 \
        --a '{"worlds": 64}' --b intermediate

``--a``/``--b``: a bot level or import spec, or a JSON object of search settings
(see benchmarks/search_variants.py). Prints the first bot's score and point difference
with their 95% intervals, and each bot's milliseconds a move.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from briscola.arena.duplicate import Arena, run


def spec(text: str, slot: str) -> str:
    if text.lstrip().startswith("{"):
        os.environ[f"SEARCH_{slot}"] = text
        return f"search_variants:{slot.lower()}"
    return text


def importable_here() -> None:
    """Let this directory's modules be imported, here and in the arena's workers."""
    here = str(Path(__file__).resolve().parent)
    sys.path.insert(0, here)
    os.environ["PYTHONPATH"] = here + os.pathsep + os.environ.get("PYTHONPATH", "")


def play_match(
    title: str, bots: tuple[str, str], game: str, deals: int, seed: int, jobs: int
) -> None:
    """Play the duplicate deals and print the first bot's score and point difference with
    their 95% intervals, and each bot's milliseconds a move."""
    start = time.perf_counter()
    report = run(Arena(game, (), bots, deals=deals, seed=seed), jobs=jobs)
    pair = report.pairs[0]
    s, d = pair.score, pair.points
    print(f"{title}: {game}, {pair.games} games, seed {seed}")
    half = (d.high - d.low) / 2
    print(f"  score {s.mean:.3f} ({s.low:.3f}-{s.high:.3f})  points {d.mean:+.1f} ±{half:.1f}")
    for bot in report.bots:
        print(f"  {bot.name}: {bot.ms_per_move:.2f} ms a move")
    print(f"  {time.perf_counter() - start:.0f} s")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--a", required=True)
    p.add_argument("--b", default="intermediate")
    p.add_argument("--game", default="briscola-2")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    importable_here()
    bots = (spec(args.a, "A"), spec(args.b, "B"))
    play_match(f"{args.a} vs {args.b}", bots, args.game, args.deals, args.seed, args.jobs)


if __name__ == "__main__":
    main()
