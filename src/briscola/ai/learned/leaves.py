"""The value network at the leaves of the head-to-head search: each card of each world is
valued by playing the trick out (and ``tricks`` more, by the playout policies) and asking
the value network, where the search without it plays the whole hand out.

The cards of those tricks may be a policy network's instead (the likeliest legal card
from the view of the seat to move in the world): the search and its opponents play
better than the playout policies, and the leaf is then nearer the hand they would play.

The end of a hand is still solved exactly: once at most ``exact_end`` cards are left to
draw (after the card, or as the tricks are played on), the world is solved from there
instead, as the search without the network solves it (the network is least needed
where exact search is cheap).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from briscola.ai.cores.compiled import jit
from briscola.ai.cores.head_to_head import (
    LASTW,
    MAXH,
    ND,
    PTS,
    PVAL,
    SIZE,
    SP,
    TRICK,
    Array,
    FArray,
    choose_card,
    is_over,
    legal_cards,
    play_card,
    seed_rng,
    to_move,
)
from briscola.ai.cores.head_to_head_solver import exact_final, outcome, scratch
from briscola.ai.learned.features import MAX_ACTIVE, encode
from briscola.ai.learned.net import F32, mlp_sparse

Weights = tuple[F32, F32, F32, F32, F32, F32]
"""A network's weights as :func:`~briscola.ai.learned.net.mlp_sparse` takes them
(:meth:`~briscola.ai.learned.net.Net.kernel_args`)."""

NO_NET: Weights = tuple(  # type: ignore[assignment]
    np.zeros((0, 1), np.float32) if k % 2 == 0 else np.zeros(0, np.float32) for k in range(6)
)
"""No network (the playout policies play the cards before the leaves)."""


@jit
def leaf_value(
    pos: Array,
    seat: int,
    deck: int,
    idx: Array,
    val: F32,
    res: F32,
    w1: F32,
    b1: F32,
    w2: F32,
    b2: F32,
    w3: F32,
    b3: F32,
) -> tuple[float, float]:
    """The value network's chance that ``seat`` wins from ``pos``, and its margin (over
    60 points)."""
    n = encode(pos, seat, True, deck, idx, val)
    mlp_sparse(idx, val, n, w1, b1, w2, b2, w3, b3, res)
    z = float(res[0])
    p = 1.0 / (1.0 + np.exp(-z)) if z > -30.0 else 0.0
    return p, float(res[1])


@jit
def net_card(
    pos: Array, deck: int, idx: Array, val: F32, logits: F32, buf: Array, net: Weights
) -> int:
    """The legal card of ``pos`` whose logit under the policy network ``net`` is highest,
    from the view of the seat to move."""
    k = legal_cards(pos, buf)
    if k == 1:
        return int(buf[0])
    n = encode(pos, to_move(pos), False, deck, idx, val)
    mlp_sparse(idx, val, n, net[0], net[1], net[2], net[3], net[4], net[5], logits)
    best = int(buf[0])
    for i in range(1, k):
        if logits[buf[i]] > logits[best]:
            best = int(buf[i])
    return best


@jit
def evaluate_leaves(
    worlds: Array,
    moves: Array,
    seat: int,
    policy: int,
    policy_other: int,
    judge: FArray,
    judge_other: FArray,
    tricks: int,
    exact_end: int,
    margin: float,
    tie_last: int,
    seed: int,
    tt: Array,
    gen0: int,
    out: npt.NDArray[np.float64],
    nodes: Array,
    weights: npt.NDArray[np.float64],
    each: npt.NDArray[np.float64],
    deck: int,
    value_net: Weights,
    policy_net: Weights,
) -> None:
    """As :func:`briscola.ai.cores.head_to_head_solver.evaluate` adds up each card's
    outcome, final points and count (``out``, ``each``, ``weights`` alike), but valuing
    each world and card by the value network ``value_net`` once the card's trick and
    ``tricks`` more are played (by the policy network ``policy_net``; where it is
    :data:`NO_NET`, the seat by ``policy`` and its opponent by ``policy_other``; no random
    cards), or exactly from where at most ``exact_end`` cards are left to draw."""
    stack, mstack, frames = scratch(worlds[0])
    rng = np.empty(1, np.uint64)
    seed_rng(rng, seed)
    buf = np.empty(MAXH, np.int64)
    child = np.empty(SIZE, np.int64)
    idx = np.empty(MAX_ACTIVE, np.int64)
    val = np.empty(MAX_ACTIVE, np.float32)
    res = np.empty(value_net[4].shape[1], np.float32)
    logits = np.empty(40, np.float32)
    by_net = policy_net[0].shape[0] > 0
    total = 0
    for i in range(10):
        total += 4 * worlds[0, PVAL + i]
    keep = each.shape[0] == worlds.shape[0]
    for w in range(worlds.shape[0]):
        gen = gen0 + w
        wt = weights[w] if weights.shape[0] > 0 else 1.0
        for m in range(moves.shape[0]):
            child[:] = worlds[w]
            play_card(child, moves[m])
            ends = tricks + (1 if child[TRICK] >= 0 else 0)
            while ends > 0 and not is_over(child) and child[ND] - child[SP] > exact_end:
                s = to_move(child)
                if by_net:
                    card = net_card(child, deck, idx, val, logits, buf, policy_net)
                elif s == seat:
                    card = choose_card(child, policy, 0.0, rng, buf, judge)
                else:
                    card = choose_card(child, policy_other, 0.0, rng, buf, judge_other)
                if play_card(child, card) >= 0:
                    ends -= 1
            if is_over(child):
                p0 = int(child[PTS])
                mine = p0 if seat == 0 else total - p0
                value = outcome(mine, total, child[LASTW] == seat, margin, tie_last)
                points = float(mine)
            elif child[ND] - child[SP] <= exact_end:
                p0 = exact_final(child, stack, mstack, frames, tt, gen, nodes)
                mine = p0 if seat == 0 else total - p0
                value = outcome(mine, total, False, margin, tie_last)
                points = float(mine)
            else:
                p, mg = leaf_value(child, seat, deck, idx, val, res, *value_net)
                # the margin over 60 points is twice (mine - half) / 60
                value = p + margin * mg / 2.0
                points = (total + 60.0 * mg) / 2.0
            out[m, 0] += wt * value
            out[m, 1] += wt * points
            out[m, 2] += wt
            if keep:
                each[w, m] = value
