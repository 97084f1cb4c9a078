"""The value network at the leaves of the table games' search: each card of each sampled
world is valued by playing its trick out, and ``tricks`` more, by the greedy playout
policy (no random card; or each card a policy network's likeliest, from the view of the
seat to move), then asking the value network from the searching seat's side, where the
search without it plays the whole hand out (``rollouts`` times, with random cards). A
hand that ends before is valued by its result; once the stock is out and the hands left
allow at most ``exact`` orders of play, the rest is solved exactly, as the search without
the network solves its ends.
"""

from __future__ import annotations

import numpy as np

from briscola.ai.cores.compiled import jit
from briscola.ai.cores.table_games import (
    MAXH,
    ND,
    NH,
    SIDE,
    SIZE,
    SP,
    Array,
    FArray,
    N,
    greedy_card,
    is_over,
    legal_cards,
    play_card,
    result,
    side_points,
    solve,
    to_move,
)
from briscola.ai.learned.leaves import Weights
from briscola.ai.learned.net import F32, mlp_sparse
from briscola.ai.learned.table_features import MAX_ACTIVE, encode


@jit
def orders_left(pos: Array) -> int:
    """The orders of play the hands left allow, at most (the product over the seats of
    their hand size's factorial), capped at a million."""
    total = 1
    for s in range(int(pos[N])):
        for k in range(2, int(pos[NH + s]) + 1):
            total *= k
            if total > 1_000_000:
                return 1_000_000
    return total


@jit
def likeliest(
    pos: Array, buf: Array, n: int, deck: int, idx: Array, val: F32, logits: F32, net: Weights
) -> int:
    """The card of ``buf[:n]`` of highest logit under the policy network ``net``, read from
    the view of the seat to move."""
    k = encode(pos, to_move(pos), False, deck, idx, val)
    mlp_sparse(idx, val, k, net[0], net[1], net[2], net[3], net[4], net[5], logits)
    best = int(buf[0])
    for i in range(1, n):
        if logits[buf[i]] > logits[best]:
            best = int(buf[i])
    return best


@jit
def net_values(
    worlds: Array,
    cards: Array,
    seat: int,
    tricks: int,
    exact: int,
    margin: float,
    half: float,
    deck: int,
    out: FArray,
    net: Weights,
    policy: Weights,
) -> None:
    """Add up, for each card ``cards[i]`` and each world (a row of ``worlds``), the value
    for ``seat`` after it plays the card (see the module's notes) in ``out[i, 0]``, and
    its side's points (the network's margin, read back as points) in ``out[i, 1]``."""
    child = np.empty(SIZE, np.int64)
    buf = np.empty(MAXH, np.int64)
    idx = np.empty(MAX_ACTIVE, np.int64)
    val = np.empty(MAX_ACTIVE, np.float32)
    res = np.empty(2, np.float32)
    logits = np.empty(40, np.float32)
    for w in range(worlds.shape[0]):
        for i in range(cards.shape[0]):
            child[:] = worlds[w]
            taken = 1 if play_card(child, cards[i]) >= 0 else 0
            while taken <= tricks and not is_over(child):
                if child[SP] >= child[ND] and orders_left(child) <= exact:
                    break
                n = legal_cards(child, buf)
                if n == 1:
                    c = buf[0]
                elif policy[0].shape[0] == 0:
                    c = greedy_card(child, buf, n)
                else:
                    c = likeliest(child, buf, n, deck, idx, val, logits, policy)
                if play_card(child, c) >= 0:
                    taken += 1
            if is_over(child):
                out[i, 0] += result(child, seat, margin, half)
                out[i, 1] += side_points(child, int(child[SIDE + seat]))
            elif child[SP] >= child[ND] and orders_left(child) <= exact:
                v = solve(child, seat, margin, half)
                out[i, 0] += v
                out[i, 1] += half  # (the solver gives no points apart: a tie-break only)
            else:
                k = encode(child, seat, True, deck, idx, val)
                mlp_sparse(idx, val, k, net[0], net[1], net[2], net[3], net[4], net[5], res)
                z = float(res[0])
                p = 1.0 / (1.0 + np.exp(-z)) if z > -30.0 else 0.0
                m = float(res[1])
                out[i, 0] += p + margin * m
                out[i, 1] += half + 60.0 * m
