"""The head-to-head search of :mod:`briscola.ai.search`: the hidden cards of a two-player
view dealt into many worlds (a compiled kernel), or every world listed when few, each
legal card scored in each world by :func:`briscola.ai.solver.evaluate` (exact solving, or
playouts whose last tricks are solved exactly).

Every world is a fast-core position (:mod:`briscola.ai.fast`). A world's outcome for the
searching seat is its result (1 a win, 1/2 a 60-60 tie, 0 a loss) plus ``margin`` times the
point margin over 60 (per 60 points).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from briscola.ai.determinize import Sampler
from briscola.ai.fast import (
    COUNTING,
    DRAW,
    GREEDY,
    MAXDRAW,
    MAXH,
    Array,
    Codec,
    H,
    jit,
    seed_rng,
    shuffle,
)
from briscola.ai.solver import evaluate, table
from briscola.engine.actions import Play
from briscola.engine.cards import Card
from briscola.engine.games import Rules
from briscola.engine.views import View

if TYPE_CHECKING:
    from briscola.ai.search import SearchConfig

_GEN = [0]


def reserve_generations(k: int, table: npt.NDArray[np.int64]) -> int:
    """The first of ``k`` fresh generation numbers of the shared transposition table, one
    per world searched (entries of other generations never match)."""
    if _GEN[0] + k >= 1 << 22:
        table[:] = 0
        _GEN[0] = 0
    base = _GEN[0] + 1
    _GEN[0] += k
    return base


@jit
def fill_worlds(root: Array, slots: Array, pool: Array, k: int, seed: int) -> Array:
    """``k`` copies of ``root`` with the ``pool`` of hidden cards shuffled into the
    positions ``slots`` (the opponent's unknown cards and the face-down stock)."""
    rng = np.empty(1, np.uint64)
    seed_rng(rng, seed)
    cards = pool.copy()
    n = cards.shape[0]
    out = np.empty((k, root.shape[0]), np.int64)
    for w in range(k):
        shuffle(cards, n, rng)
        out[w, :] = root
        for i in range(slots.shape[0]):
            out[w, slots[i]] = cards[i]
    return out


# ---------------------------------------------------------------------------- the search


def utility_params(view: View, rules: Rules, config: SearchConfig) -> tuple[float, int]:
    """The margin weight and the 60-60 rule (1: the last trick decides) of a two-player game."""
    margin = config.margin
    match = str(rules.options.get("match", ""))
    if match.startswith("points:"):
        margin = 4.0  # a match to a points target: every point counts
    tie_last = 1 if rules.options.get("sixty_sixty") == "last-trick" else 0
    return margin, tie_last


def head_to_head(
    view: View, rules: Rules, config: SearchConfig, seed: int
) -> dict[Card, tuple[float, float]]:
    """Mean outcome and mean final points of each legal card of a two-player view, by the
    fast core: every world solved exactly when few, else sampled worlds played out."""
    seat = view.seat
    assert seat is not None
    sampler = Sampler(view, rules)
    codec = Codec(rules)
    margin, tie_last = utility_params(view, rules, config)
    first = sampler.sample(random.Random(seed))
    root = codec.from_view(view, first.hands[1 - seat], first.stock, first.turned)
    slots, pool = hidden_slots(sampler, seat)
    moves = np.array([codec.id[a.card] for a in view.legal if isinstance(a, Play)], np.int64)
    count = sampler.count()
    policy = COUNTING if config.policy == "counting" else GREEDY
    listed = config.enumerate if rules.game.hand_size <= 3 else config.enumerate // 20
    to_draw = view.stock_size + (view.turned is not None)
    # (five-card hands, and longer ends, are dearer to solve)
    if count == 1 or (count <= listed and to_draw <= config.enumerate_draw):
        worlds = all_worlds(root, slots, [codec.id[c] for c in pool], count)
        rollouts, exact_draw = 1, MAXDRAW
    else:
        ids = np.array([codec.id[c] for c in pool], np.int64)
        worlds = fill_worlds(root, slots, ids, config.worlds, seed)
        rollouts, exact_draw = config.rollouts, config.exact_draw
    exact_end = config.exact_end if rules.game.hand_size <= 3 else -1  # five-card endings
    out = np.zeros((moves.shape[0], 3), np.float64)
    tt = table()
    gen = reserve_generations(worlds.shape[0], tt)
    evaluate(
        worlds,
        moves,
        seat,
        rollouts,
        policy,
        config.eps,
        exact_draw,
        exact_end,
        margin,
        tie_last,
        seed & 0xFFFFFFFF,
        tt,
        gen,
        out,
        np.zeros(1, np.int64),
    )
    return {
        codec.card[int(c)]: (out[i, 0] / out[i, 2], out[i, 1] / out[i, 2])
        for i, c in enumerate(moves)
    }


def hidden_slots(sampler: Sampler, seat: int) -> tuple[Array, list[Card]]:
    """Where the hidden cards go in a fast position built from the view (the opponent's
    unknown cards after its known ones, then the face-down stock after a known top), and
    the cards to deal there."""
    other = 1 - seat
    places = [H + other * MAXH + len(sampler.fixed[other]) + k for k in range(sampler.slots[other])]
    start = DRAW + (1 if sampler.top is not None else 0)
    places += [start + k for k in range(sampler.down)]
    removed = sampler.removals[0]
    pool = [c for c in sampler.pool if c not in removed]
    return np.array(places, np.int64), pool


def all_worlds(root: Array, slots: Array, pool: Sequence[int], count: int) -> Array:
    """Every world: each choice of the opponent's unknown cards, each order of the stock."""
    n_opp = int(np.count_nonzero(slots < DRAW))
    out = np.empty((count, root.shape[0]), np.int64)
    i = 0
    for hand in itertools.combinations(pool, n_opp):
        rest = [c for c in pool if c not in hand]
        for order in itertools.permutations(rest):
            out[i, :] = root
            out[i, slots] = list(hand) + list(order)
            i += 1
    assert i == count
    return out
