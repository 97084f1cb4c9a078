"""Train a policy network for a table game on the cards the search played
(``benchmarks/table_selfplay.py``'s parts, which keep each position's card), and print
how often it names the card played on held-out hands, beside the greedy policy's rate.

    python benchmarks/train_table_policy.py GAME OUT --search DIR [DIR ...] [--held PARTS]
        [--steps 20000] [--batch 256] [--hidden 128,64] [--lr 0.001] [--seed 1]

The network reads each position as the seat to move saw it (``full=False``); its
softmax over the legal cards is learnt by cross-entropy with the card played. The
last ``--held`` parts (default 4; of the last folder) are kept apart to measure on, and
the network written is the one of lowest loss on them.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from train_table_value import part_files, read_files

from briscola.ai.cores.head_to_head import Codec
from briscola.ai.cores.table_games import MAXH, greedy_card, legal_cards, to_move
from briscola.ai.learned.features import deck_mask
from briscola.ai.learned.learn import Adam, masked_softmax, policy_loss
from briscola.ai.learned.net import Net
from briscola.ai.learned.table_features import N_FEATURES, encode_rows
from briscola.ai.learned.table_hands import Hands
from briscola.engine.rules import Rules


def rows_of(hands: Hands, deck: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Inputs, legal masks, cards played, and the greedy policy's cards, of the positions
    whose card was kept."""
    keep = hands.cards >= 0
    pos = hands.positions[keep].astype(np.int64)
    seats = np.array([to_move(p) for p in pos], np.int64)
    x = encode_rows(pos, seats, False, deck)
    legal = np.zeros((len(pos), 40), bool)
    greedy = np.empty(len(pos), np.int64)
    buf = np.empty(MAXH, np.int64)
    for r, p in enumerate(pos):
        n = legal_cards(p, buf)
        legal[r, buf[:n]] = True
        greedy[r] = buf[0] if n == 1 else greedy_card(p, buf, n)
    return x, legal, hands.cards[keep], greedy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("out", type=Path)
    ap.add_argument("--search", type=Path, nargs="+", required=True)
    ap.add_argument("--held", type=int, default=4)
    ap.add_argument("--steps", type=int, default=20_000)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--hidden", default="128,64")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rules = Rules.make(a.game)
    deck = deck_mask(Codec(rules).id.values())
    parts = part_files(*a.search)
    if not 0 < a.held < len(parts):
        most = len(parts) - 1
        raise SystemExit(f"--held {a.held}: keep 1 to {most} of the {len(parts)} parts found apart")
    x, legal, chosen, _ = rows_of(read_files(parts[: -a.held]), deck)
    xh, legal_h, chosen_h, greedy_h = rows_of(read_files(parts[-a.held :]), deck)
    print(f"{len(x)} positions to learn from, {len(xh)} held out")
    print(f"the greedy policy names the card played {np.mean(greedy_h == chosen_h):.3f}")
    h1, h2 = (int(v) for v in a.hidden.split(","))
    rng = np.random.default_rng(a.seed)
    meta = {"kind": "policy", "game": a.game, "features": "table-1", "seed": a.seed}
    net = Net.fresh(N_FEATURES, (h1, h2), 40, rng, meta)
    opt = Adam(net, a.lr)
    t0 = time.perf_counter()
    best = np.inf
    for step in range(1, a.steps + 1):
        i = rng.integers(0, len(x), a.batch)
        opt.step(policy_loss(net, x[i], legal[i], chosen[i])[1])
        if step % 2000 == 0 or step == a.steps:
            if step == a.steps // 2:
                opt.lr = a.lr / 3
            loss = policy_loss(net, xh, legal_h, chosen_h)[0]
            p = masked_softmax(net.forward(xh), legal_h)
            hit = np.mean(p.argmax(1) == chosen_h)
            took = time.perf_counter() - t0
            more = ""
            if loss < best:
                best = loss
                net.save(a.out)
                more = " (written)"
            print(f"step {step}: held-out loss {loss:.4f}, names {hit:.3f}{more} ({took:.0f} s)")


if __name__ == "__main__":
    main()
