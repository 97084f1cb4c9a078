"""Search variants against one opponent on the same duplicate deals, compared deal by deal.

    python benchmarks/search_paired.py --deals 2000 --seed 11 --out /tmp/paired.json \\
        --variants '{"base": {}, "tuned": {"policy": "tuned", "policy_other": "counting"}}'

Each variant (a JSON object of search settings over the strong level's, or over the
champion's with ``"base": "champion"``, see ``search_variants.py``; or a bot level or
import spec as a string) plays the same deals against ``--b``. The score of every deal is
kept in ``--out`` (variants already there are not played again), and the table gives
each variant's score and its difference from the first variant, both with 95% intervals:
the difference is measured deal by deal, so the luck of the cards cancels and it is
several times narrower than the scores' own intervals.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

from search_match import importable_here, spec

from briscola.ai.learned.net import NetError
from briscola.arena.duplicate import Arena, play_all


def deal_scores(games: list[Any]) -> tuple[list[float], list[float], float]:
    """The first bot's mean score and point margin per deal, and its ms a move. In games
    of two sides (each alone or in teams) the score is the share of games won; in
    chiamata, the mean score points of its seats (+2/+1/-1, ...) and the margin is left
    at 0."""
    per: dict[int, list[tuple[float, float]]] = {}
    think = moves = 0.0
    for g in games:
        s = g.seats.index(0)
        if g.scores is not None:
            mine = [p for b, p in zip(g.seats, g.scores, strict=True) if b == 0]
            per.setdefault(g.deal, []).append((sum(mine) / len(mine), 0.0))
        else:
            won = 1.0 if s in g.winners else (0.5 if not g.winners else 0.0)  # () is a tie
            mine_pts = sum(p for b, p in zip(g.seats, g.seat_points, strict=True) if b == 0)
            per.setdefault(g.deal, []).append((won, 2 * mine_pts - sum(g.seat_points)))
        think += g.think[s]
        moves += g.moves[s]
    scores = [sum(w for w, _ in v) / len(v) for _, v in sorted(per.items())]
    points = [sum(d for _, d in v) / len(v) for _, v in sorted(per.items())]
    return scores, points, 1000 * think / max(moves, 1)


def mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return m, 1.96 * sd / math.sqrt(n)


def table(results: dict[str, Any]) -> None:
    base_name = next(iter(results))
    base = results[base_name]["scores"]
    print(f"{'variant':24} {'score':>16} {'vs ' + base_name:>20} {'ms':>6}")
    for name, r in results.items():
        m, h = mean_ci(r["scores"])
        d, dh = mean_ci([x - y for x, y in zip(r["scores"], base, strict=True)])
        print(f"{name:24} {m:.4f} ±{h:.4f}   {d:+.4f} ±{dh:.4f}   {r['ms']:6.1f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--variants", required=True, help="JSON object: name -> settings")
    p.add_argument("--b", default="intermediate")
    p.add_argument("--game", default="briscola-2")
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args()
    importable_here()
    results: dict[str, Any] = json.loads(args.out.read_text()) if args.out.exists() else {}
    for name, settings in json.loads(args.variants).items():
        if name in results:
            continue
        a = settings if isinstance(settings, str) else spec(json.dumps(settings), "A")
        start = time.perf_counter()
        arena = Arena(args.game, (), (a, args.b), deals=args.deals, seed=args.seed)
        scores, points, ms = deal_scores(play_all(arena, jobs=args.jobs))
        results[name] = {"settings": settings, "scores": scores, "points": points, "ms": ms}
        args.out.write_text(json.dumps(results))
        print(
            f"{name}: {sum(scores) / len(scores):.4f}, {ms:.1f} ms a move, "
            f"{time.perf_counter() - start:.0f} s",
            flush=True,
        )
    table(results)


if __name__ == "__main__":
    try:
        main()
    except NetError as e:  # (a missing or foreign network file: said in one line)
        raise SystemExit(str(e)) from None
