"""Training the search's playout policy by self-play: the weights of the card-counting
judgement (:func:`briscola.ai.cores.head_to_head.judged_card`) tuned to win two-player games.
A tool of the project's, not of the installed package (which only reads the weights it
ships, :func:`briscola.ai.search.judge.tuned_judge`).

The search levels play out sampled worlds with a policy for each side (see
:mod:`briscola.ai.search.players`). The opponent's is the card-counting judgement of the
``intermediate`` bot; the searching seat's own future play is better modelled by a policy
that beats that judgement, since the search itself does. This module finds such weights:
starting from the intermediate bot's, it plays duplicate deals in the fast core (each
deal twice, the sides trading seats; the last tricks, once the stock is empty, solved
exactly as both bots do) and keeps the changes of one weight at a time that score better
on a fixed set of training deals, shrinking the steps as it goes (a coordinate search
over common random numbers). The result is checked on fresh deals and written, with how
it was made, to the file ``--out`` names (never into the installed package by itself):
the package ships ``src/briscola/ai/search/tuned_judge.json``, and a new one replaces it
by hand (in a checkout, ``--out`` can name it).

    python benchmarks/train_judge.py --deals 50000 --rounds 10 --check 100000 \
        --out tuned_judge.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from briscola.ai.cores.compiled import jit
from briscola.ai.cores.head_to_head import (
    COUNTING_JUDGE,
    JUDGE_NAMES,
    MAXH,
    ND,
    SIZE,
    SP,
    TRICK,
    Array,
    FArray,
    is_over,
    italian_points,
    judged_card,
    legal_cards,
    new_position,
    play_card,
    seed_rng,
    shuffle,
    to_move,
)
from briscola.ai.cores.head_to_head_solver import exact_final, new_table, scratch


@jit
def duel(a: FArray, b: FArray, deals: int, seed: int, pval: Array, tt: Array) -> tuple[float, int]:
    """Judgement ``a`` against ``b`` over ``deals`` duplicate deals of ``briscola-2``
    (each played twice, the sides trading seats; once the stock is empty the rest is
    solved exactly): the score of ``a`` (wins, plus half the 60-60 ties) and the sum of
    its point margins."""
    rng = np.empty(1, np.uint64)
    seed_rng(rng, seed)
    deck = np.arange(40).astype(np.int64)
    pos = np.empty(SIZE, np.int64)
    buf = np.empty(MAXH, np.int64)
    stack, moves, frames = scratch(pos)
    nodes = np.zeros(1, np.int64)
    score = 0.0
    margin = 0
    gen = 0
    for g in range(deals):
        shuffle(deck, 40, rng)
        for a_seat in range(2):
            new_position(pos, deck, g % 2, 3, True, pval, 0)
            while not is_over(pos) and not (pos[TRICK] < 0 and pos[ND] - pos[SP] <= 0):
                n = legal_cards(pos, buf)
                judge = a if to_move(pos) == a_seat else b
                play_card(pos, judged_card(pos, buf, n, judge))
            gen += 1
            p0 = exact_final(pos, stack, moves, frames, tt, gen, nodes)
            mine = p0 if a_seat == 0 else 120 - p0
            score += 1.0 if mine > 60 else (0.5 if mine == 60 else 0.0)
            margin += mine - (120 - mine)
    return score, margin


def match(a: FArray, b: FArray, deals: int, seed: int) -> tuple[float, float]:
    """The score (per game) and the mean point margin of ``a`` against ``b``."""
    score, margin = duel(a, b, deals, seed, italian_points(), new_table())
    return score / (2 * deals), margin / (2 * deals)


def train(
    deals: int, rounds: int, seed: int, start: FArray | None = None, log: Any = print
) -> FArray:
    """Coordinate search from ``start`` (the intermediate bot's weights) against the
    intermediate bot's judgement, on ``deals`` fixed training deals."""
    best = (COUNTING_JUDGE if start is None else start).copy()
    best_score, _ = match(best, COUNTING_JUDGE, deals, seed)
    step = np.maximum(np.abs(best) * 0.5, 0.2)
    for r in range(rounds):
        improved = False
        for i, name in enumerate(JUDGE_NAMES):
            for sign in (1.0, -1.0):
                trial = best.copy()
                trial[i] += sign * step[i]
                s, _ = match(trial, COUNTING_JUDGE, deals, seed)
                if s > best_score + 0.5 / deals:  # more than one game's draw better
                    best, best_score, improved = trial, s, True
                    log(f"round {r + 1}: {name} = {trial[i]:.3f}, score {s:.4f}")
                    break
        if not improved:
            step *= 0.5
            log(f"round {r + 1}: no change, steps halved")
    return best


def main(argv: list[str] | None = None) -> None:
    """The command: train, check and write the weights where ``--out`` says."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=50_000, help="training deals")
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--check", type=int, default=100_000, help="fresh deals to check on")
    p.add_argument(
        "--out", type=Path, required=True, help="the file to write the weights to (JSON)"
    )
    args = p.parse_args(argv)
    start = time.perf_counter()
    weights = train(args.deals, args.rounds, args.seed)
    score, margin = match(weights, COUNTING_JUDGE, args.check, args.seed + 1)
    print(f"checked on {args.check} fresh deals: {score:.4f}, {margin:+.2f} points a game")
    data = {
        "names": list(JUDGE_NAMES),
        "weights": [round(float(w), 4) for w in weights],
        "trained": {
            "command": f"python benchmarks/train_judge.py --deals {args.deals} "
            f"--rounds {args.rounds} --seed {args.seed} --check {args.check} --out FILE",
            "against": "the intermediate bot's judgement (fast.COUNTING_JUDGE)",
            "check": {"deals": args.check, "score": round(score, 4), "margin": round(margin, 2)},
            "seconds": round(time.perf_counter() - start),
        },
    }
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
