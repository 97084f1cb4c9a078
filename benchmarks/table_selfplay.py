"""Hands of a table game played by the strong level with a value network at its leaves
(expert iteration's targets), saved in parts as they are played.

    python benchmarks/table_selfplay.py GAME NET OUT [--hands 10000] [--part 200]
        [--jobs 2] [--seed 1] [--keep 8]

``NET`` is the value network the players use (``SearchConfig.table_value_net``; ``none``:
the strong level's playouts). Each part of ``--part`` hands is written to
``OUT/part-K.npz`` once played; parts already there are skipped, so a run stopped
anywhere goes on where it was. ``benchmarks/train_table_value.py --search OUT`` learns
from them.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from functools import partial
from pathlib import Path

import numpy as np

from briscola.ai.bot import Bot
from briscola.ai.learned.net import NetError, network
from briscola.ai.search.config import STRONG
from briscola.ai.search.players import SearchBot
from briscola.engine.rules import Rules
from briscola.training.table_selfplay import search_hands


def player(net: str | None, seed: int) -> Bot:
    return SearchBot(seed, replace(STRONG, table_value_net=net, table_fast_worlds=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("net")
    ap.add_argument("out", type=Path)
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--part", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", type=int, default=8, help="positions kept of each hand")
    a = ap.parse_args()
    rules = Rules.make(a.game)
    net = None if a.net == "none" else str(Path(a.net).resolve())
    if net is not None:
        network(net, a.game, "value")  # (a missing or foreign file said before any hand)
    a.out.mkdir(parents=True, exist_ok=True)
    for k, first in enumerate(range(0, a.hands, a.part)):
        path = a.out / f"part-{k}.npz"
        if path.exists():
            continue
        t0 = time.perf_counter()
        n = min(a.part, a.hands - first)
        hands = search_hands(rules, first, n, a.seed, partial(player, net), a.jobs, keep=a.keep)
        tmp = path.with_name(path.name + ".part.npz")
        np.savez_compressed(
            tmp,
            positions=hands.positions,
            hand=hands.hand,
            won=hands.won,
            points=hands.points,
            cards=hands.cards,
        )
        tmp.replace(path)
        print(f"part {k}: {n} hands in {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    try:
        main()
    except NetError as e:  # (a missing or foreign network file: said in one line)
        raise SystemExit(str(e)) from None
