"""What the head-to-head search loses to sampling: its card against a far bigger search's.

    python benchmarks/decision_loss.py --positions 300 \\
        --variants '{"champion": {}, "worlds 2400": {"worlds": 2400, "min_worlds": 100}}'

Positions: the search player's moves, with the stock not yet empty and a choice to make,
from ``strong`` against ``intermediate`` games of ``briscola-2``. The reference values
each card by the champion's settings over ``--reference`` sampled worlds (cached in
``--cache``). For each variant (search settings over the champion's), the loss of a
move is the reference value of the best card minus that of the card the variant picks,
in the search's own units (the result, 1 a win, plus 0.2 of the point margin per 60
points); about 13 such moves are made a hand, so 13 times the loss a move is roughly
what the sampling costs in score a hand. It only measures sampling: settings that change
the model (the playout policy, inference) change the reference too.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import time
from dataclasses import replace
from pathlib import Path

from briscola.ai import make_bot
from briscola.ai.search.config import CHAMPION
from briscola.ai.search.pimc import head_to_head
from briscola.engine import GameState, Play, Rules, View, seat_view, shuffled_deal

RULES = Rules.make("briscola-2")


def positions(count: int, seed: int) -> list[View]:
    rng = random.Random(seed)
    out: list[View] = []
    g = 0
    while len(out) < count:
        state = GameState(RULES, shuffled_deal(RULES, g % 2, rng))
        searcher = g % 2  # the seat of the search player
        bots = [make_bot("strong", seed=g), make_bot("intermediate", seed=g + 100)]
        if searcher == 1:
            bots.reverse()
        while not state.over:
            view = seat_view(state, state.turn)
            plays = [a for a in view.legal if isinstance(a, Play)]
            if state.turn == searcher and len(plays) > 1 and view.stock_size > 0:
                out.append(view)
            state.apply(bots[state.turn].choose(view))
        g += 1
    return out[:count]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--positions", type=int, default=300)
    p.add_argument("--seed", type=int, default=77)
    p.add_argument("--reference", type=int, default=9600, help="the reference's worlds")
    p.add_argument("--cache", type=Path, default=Path("/tmp/briscola-decision-loss.pkl"))
    p.add_argument("--variants", default='{"champion": {}}')
    args = p.parse_args()
    views = positions(args.positions, args.seed)
    key = (args.positions, args.seed, args.reference)
    cached = pickle.loads(args.cache.read_bytes()) if args.cache.exists() else {}
    if key not in cached:
        start = time.perf_counter()
        ref = replace(CHAMPION, worlds=args.reference, candidates=2)
        cached[key] = [head_to_head(v, RULES, ref, 10**6 + i) for i, v in enumerate(views)]
        args.cache.write_bytes(pickle.dumps(cached))
        print(f"reference: {time.perf_counter() - start:.0f} s")
    refs = cached[key]
    print(f"{'variant':16} {'loss a move':>11} {'differs':>8} {'ms a move':>10}")
    for name, settings in json.loads(args.variants).items():
        config = replace(CHAMPION, **settings)
        loss = 0.0
        differs = 0
        start = time.perf_counter()
        for i, view in enumerate(views):
            values = head_to_head(view, RULES, config, i)
            card = max(values, key=lambda c: values[c][0])
            best = max(v[0] for v in refs[i].values())
            loss += best - refs[i][card][0]
            differs += refs[i][card][0] < best
        ms = 1000 * (time.perf_counter() - start) / len(views)
        n = len(views)
        print(f"{name:16} {loss / n:11.4f} {differs / n:8.3f} {ms:10.0f}", flush=True)


if __name__ == "__main__":
    main()
