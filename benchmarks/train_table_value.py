"""Train a value network for a table game (three to six seats) on hands the table core
plays by its greedy policy with a tenth of random cards (:mod:`briscola.ai.learned.
table_hands`), and print its held-out loss as it goes.

    python benchmarks/train_table_value.py GAME OUT [--hands 400000] [--keep 8]
        [--steps 40000] [--batch 256] [--hidden 128,64] [--lr 0.001] [--seed 1]
        [--start NET] [--search DIR [DIR ...] --share 0.5] [--held-search DIR]

``OUT`` is the network's file (``.npz``), written at each report and at the end; the
search reads it by ``SearchConfig(table_value_net=OUT)``. Each batch is ``--batch``
positions, each read from every seat. The held-out loss is over 4,000 positions of
2,000 fresh hands; a constant guess (the rows' mean) is printed beside it.

Expert iteration: ``--start`` begins from a network's weights, and ``--search`` learns
from hands played by the search (``benchmarks/table_selfplay.py``'s parts in one or more
folders) as well, ``--share`` of each batch from them. ``--held-search`` keeps the parts
of another such folder apart and prints the loss on them too (the value under the
search's play); the network written is then the one of lowest loss there, else of
lowest held-out loss.
"""

from __future__ import annotations

import argparse
import subprocess
import time
from pathlib import Path

import numpy as np

from briscola.ai.learned.learn import Adam, value_loss
from briscola.ai.learned.net import Net, NetError
from briscola.ai.learned.table_features import N_FEATURES
from briscola.ai.learned.table_hands import Hands, play_hands, value_rows
from briscola.engine.rules import Rules
from briscola.training.table_selfplay import joined


def part_files(*folders: Path) -> list[Path]:
    """``benchmarks/table_selfplay.py``'s finished parts in ``folders``, folder by folder,
    each folder's in the order played."""
    found = []
    for folder in folders:
        done = [p for p in folder.glob("part-*.npz") if not p.name.endswith(".part.npz")]
        if not done:
            raise SystemExit(f"no parts of hands in {folder}")
        found += sorted(done, key=lambda p: int(p.stem.split("-")[1]))
    return found


def read_parts(*folders: Path) -> Hands:
    """The hands of ``benchmarks/table_selfplay.py``'s parts in ``folders``."""
    return read_files(part_files(*folders))


def read_files(paths: list[Path]) -> Hands:
    """The hands of the parts ``paths``, one after another."""
    parts = []
    for path in paths:
        with np.load(path) as d:
            cards = d["cards"] if "cards" in d.files else np.full(d["hand"].shape, -1)
            parts.append(Hands(d["positions"], d["hand"], d["won"], d["points"], cards))
    return joined(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("out", type=Path)
    ap.add_argument("--hands", type=int, default=400_000)
    ap.add_argument("--keep", type=int, default=8)
    ap.add_argument("--steps", type=int, default=40_000)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--hidden", default="128,64")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=Path)
    ap.add_argument("--search", type=Path, nargs="+")
    ap.add_argument("--share", type=float, default=0.5)
    ap.add_argument("--held-search", type=Path)
    a = ap.parse_args()
    rules = Rules.make(a.game)
    start = Net.load(a.start) if a.start else None  # (before the hands: a wrong file said at once)
    half = sum(rules.points[c] for c in rules.deck) / 2
    t0 = time.perf_counter()
    hands = play_hands(rules, a.hands, a.seed, a.keep)
    held = play_hands(rules, 2000, a.seed + 1_000_003, 2)
    xh, yh = value_rows(held, np.arange(held.positions.shape[0]), rules, half)
    took = time.perf_counter() - t0
    print(f"{a.hands} hands, {hands.positions.shape[0]} positions: {took:.0f} s")
    h1, h2 = (int(v) for v in a.hidden.split(","))
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    meta = {
        "kind": "value",
        "game": a.game,
        "features": "table-1",
        "commit": commit,
        "seed": a.seed,
        "hands": a.hands,
        "steps": a.steps,
        "teacher": "table core, greedy with a tenth of random cards",
    }
    rng = np.random.default_rng(a.seed)
    net = Net.fresh(N_FEATURES, (h1, h2), 2, rng, meta)
    if start is not None:
        net = Net(start.ws, start.bs, {**meta, "start": str(a.start)})
    search = read_parts(*a.search) if a.search else None
    if search is not None:
        meta["search_hands"] = int(search.won.shape[0])
        print(f"{search.won.shape[0]} hands of the search, {search.positions.shape[0]} positions")
    held_search = None
    if a.held_search:
        hs = read_parts(a.held_search)
        held_search = value_rows(hs, np.arange(hs.positions.shape[0]), rules, half)
    opt = Adam(net, a.lr)
    mean = yh.mean(0)
    base = Net.fresh(N_FEATURES, (1, 1), 2, rng)
    base.ws[2][:] = 0.0
    base.bs[2][:] = [np.log(mean[0] / (1 - mean[0])), mean[1]]
    print(f"constant guess: held-out loss {value_loss(base, xh, yh)[0]:.4f}")
    n = hands.positions.shape[0]
    best = np.inf
    for step in range(1, a.steps + 1):
        if search is not None and rng.random() < a.share:
            rows = rng.integers(0, search.positions.shape[0], a.batch)
            x, y = value_rows(search, rows, rules, half)
        else:
            rows = rng.integers(0, n, a.batch)
            x, y = value_rows(hands, rows, rules, half)
        opt.step(value_loss(net, x, y)[1])
        if step % 2000 == 0 or step == a.steps:
            if step == a.steps // 2:
                opt.lr = a.lr / 3
            loss = value_loss(net, xh, yh)[0]
            more = ""
            judged = loss
            if held_search is not None:
                judged = value_loss(net, *held_search)[0]
                more = f", on the search's hands {judged:.4f}"
            took = time.perf_counter() - t0
            if judged < best:
                best = judged
                net.save(a.out)
                more += " (written)"
            print(f"step {step}: held-out loss {loss:.4f}{more} ({took:.0f} s)", flush=True)


if __name__ == "__main__":
    try:
        main()
    except NetError as e:  # (a missing or foreign network file: said in one line)
        raise SystemExit(str(e)) from None
