"""Refit a value network on every hand a search run played (its ``games/`` folder), and
measure it on hands it never saw.

    python benchmarks/refit_value.py runs/fresh --gen 2000 777
    python benchmarks/refit_value.py /tmp/refit.npz --run runs/briscola-2-s2 --last 160 \\
        --held runs/fresh --start runs/briscola-2-s1/value.npz --epochs 3

``--run`` is the search run (``briscola train --teacher search``), ``--held`` a folder
whose ``games/round-0.npz`` holds the hands to measure on, ``--start`` the network to
start from (else fresh weights of ``--hidden``). The network of lowest held-out loss is
written to OUT. ``--gen N SEED`` instead plays N hands by the shipped ``strong`` level
into ``OUT/games/round-0.npz`` (such a folder). benchmarks/README.md, "Issue 41", gives
what it measured.
"""

from __future__ import annotations

import argparse
import time
from functools import partial
from pathlib import Path

import numpy as np

from briscola.ai.learned.features import N_FEATURES, deck_mask, encode_rows
from briscola.ai.learned.games import Games, deck_ids
from briscola.ai.learned.learn import Adam, value_loss
from briscola.ai.learned.net import F32, Net, NetError
from briscola.engine.rules import Rules
from briscola.training.run import GAMES_FIELDS, search_player
from briscola.training.selfplay import search_games

RULES = Rules.make("briscola-2")


def load(run: Path, rounds: range) -> Games:
    parts = []
    for r in rounds:
        path = run / "games" / f"round-{r}.npz"
        if not path.exists():
            raise SystemExit(
                f"{path} is missing: is {run} the folder of a run with --teacher search?"
            )
        with np.load(path) as d:
            parts.append(Games(*(np.asarray(d[k], np.int64) for k in GAMES_FIELDS)))
    return Games.joined(parts)


def value_rows(games: Games) -> tuple[F32, F32]:
    """Each position from both seats, and its result and margin (as a run learns them)."""
    deck = deck_mask(deck_ids(RULES))
    rows = np.arange(games.positions.shape[0])
    both, seats = np.concatenate([rows, rows]), np.concatenate([games.seats, 1 - games.seats])
    tie = bool(RULES.tie_to_last_trick)
    x = encode_rows(games.positions[both], seats, True, deck)
    y = np.stack([games.result(both, seats, tie), games.margin(both, seats)], 1)
    return x, y.astype(np.float32)


def held_loss(net: Net, x: F32, y: F32) -> float:
    step = 100_000
    total = sum(
        value_loss(net, x[i : i + step], y[i : i + step])[0] * min(step, x.shape[0] - i)
        for i in range(0, x.shape[0], step)
    )
    return total / x.shape[0]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("out", type=Path)
    p.add_argument("--run", type=Path)
    p.add_argument("--gen", type=int, nargs=2, metavar=("N", "SEED"))
    p.add_argument("--held", type=Path)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--last", type=int, default=160)
    p.add_argument("--start", type=Path)
    p.add_argument("--hidden", default="128,64")
    p.add_argument("--epochs", type=float, default=3)
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    if a.gen:
        n, seed = a.gen
        games = search_games(RULES, n, seed, partial(search_player, "shipped", 2), jobs=2)
        (a.out / "games").mkdir(parents=True, exist_ok=True)
        small = {k: getattr(games, k).astype(np.int16) for k in GAMES_FIELDS}
        np.savez_compressed(a.out / "games" / "round-0.npz", **small)
        return
    if a.run is None or a.held is None:
        p.error("--run and --held are needed to refit")
    x, y = value_rows(load(a.run, range(a.first, a.last)))
    hx, hy = value_rows(load(a.held, range(1)))
    rng = np.random.default_rng(a.seed)
    h1, h2 = (int(v) for v in a.hidden.split(","))
    net = Net.fresh(N_FEATURES, (h1, h2), 2, rng, {"game": RULES.key, "kind": "value"})
    if a.start:
        begun = Net.load(a.start)
        net.ws, net.bs, net.meta = begun.ws, begun.bs, dict(begun.meta)
    opt = Adam(net, a.lr)
    best = held_loss(net, hx, hy)
    print(f"{x.shape[0]} rows, {hx.shape[0]} held out; held-out loss at the start {best:.4f}")
    net.save(a.out)
    steps = int(a.epochs * x.shape[0] / a.batch)
    start = time.monotonic()
    for step in range(steps):
        opt.lr = a.lr * 0.5 * (1 + np.cos(np.pi * step / steps))
        i = rng.integers(0, x.shape[0], a.batch)
        opt.step(value_loss(net, x[i], y[i])[1])
        if (step + 1) % max(1, steps // 20) == 0 or step + 1 == steps:
            loss = held_loss(net, hx, hy)
            if loss < best:
                best = loss
                net.save(a.out)
            took = time.monotonic() - start
            print(f"step {step + 1}/{steps}: held-out loss {loss:.4f} ({took:.0f} s)")
    print(f"best held-out loss {best:.4f}, written to {a.out}")


if __name__ == "__main__":
    try:
        main()
    except NetError as e:  # (a missing or foreign network file: said in one line)
        raise SystemExit(str(e)) from None
