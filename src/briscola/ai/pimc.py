"""Compiled kernels of the head-to-head search (:mod:`briscola.ai.search`): dealing hidden
cards into many worlds, and scoring each legal card in each world by exact solving or by
playouts whose last tricks are solved exactly.

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
    FOLLOW,
    GREEDY,
    LASTW,
    MAXDRAW,
    MAXH,
    ND,
    NH,
    PTS,
    PVAL,
    SIZE,
    SP,
    TRICK,
    Array,
    Codec,
    H,
    counting_card,
    greedy_card,
    is_over,
    jit,
    play_card,
    playout,
    seed_rng,
    shuffle,
)
from briscola.ai.solver import exact_final, scratch, table
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


@jit
def outcome(mine: int, total: int, won_last: bool, margin: float, tie_last: int) -> float:
    """A finished hand for the searching seat, from its points."""
    half = total // 2
    if mine > half:
        result = 1.0
    elif mine < half:
        result = 0.0
    elif tie_last == 1:
        result = 1.0 if won_last else 0.0
    else:
        result = 0.5
    return result + margin * (mine - half) / 60.0


@jit
def evaluate(
    worlds: Array,
    moves: Array,
    seat: int,
    rollouts: int,
    policy: int,
    eps: float,
    exact_draw: int,
    exact_end: int,
    margin: float,
    tie_last: int,
    seed: int,
    tt: Array,
    gen0: int,
    weights: npt.NDArray[np.float64],
    out: npt.NDArray[np.float64],
) -> None:
    """Add up, for each card ``moves[m]`` of the seat to move in each world ``w``, weighted
    by ``weights[w]``: the outcome (``out[m, 0]``), the seat's final points (``out[m, 1]``)
    and the weight (``out[m, 2]``).

    After the card, a world with at most ``exact_draw`` cards left to draw is solved
    exactly; otherwise it is played out ``rollouts`` times by the ``policy`` (see
    :mod:`briscola.ai.fast`) with a chance ``eps`` of a random card, each playout solved
    exactly from when at most ``exact_end`` cards are left to draw (-1: played to the
    end). The playouts of the cards of one world use the same random numbers, so that the
    cards are compared on equal luck."""
    stack, mstack, frames = scratch(worlds[0])
    nodes = np.zeros(1, np.int64)
    rng = np.empty(1, np.uint64)
    child = np.empty(SIZE, np.int64)
    line = np.empty(SIZE, np.int64)
    total = 0
    for i in range(10):
        total += 4 * worlds[0, PVAL + i]
    for w in range(worlds.shape[0]):
        gen = gen0 + w
        wt = weights[w]
        for m in range(moves.shape[0]):
            child[:] = worlds[w]
            play_card(child, moves[m])
            if child[ND] - child[SP] <= exact_draw:
                p0 = exact_final(child, stack, mstack, frames, tt, gen, nodes)
                mine = p0 if seat == 0 else total - p0
                out[m, 0] += wt * outcome(mine, total, False, margin, 0)
                out[m, 1] += wt * mine
                out[m, 2] += wt
                continue
            for r in range(rollouts):
                seed_rng(rng, seed + w * 1000003 + r * 7919)
                line[:] = child
                playout(line, policy, eps, rng, exact_end)
                won_last = False
                if is_over(line):
                    p0 = int(line[PTS])
                    won_last = line[LASTW] == seat
                else:
                    p0 = exact_final(line, stack, mstack, frames, tt, gen, nodes)
                mine = p0 if seat == 0 else total - p0
                out[m, 0] += wt * outcome(mine, total, won_last, margin, tie_last)
                out[m, 1] += wt * mine
                out[m, 2] += wt


@jit
def play_chance(
    pos: Array, hand: Array, n: int, led: int, card: int, policy: int, eps: float
) -> float:
    """The chance that a player holding ``hand[:n]`` plays ``card`` (to the trick led with
    ``led``, or leading when ``led`` < 0) under the model of play: the greedy card with
    probability 1 - ``eps``, else any legal card."""
    legal = np.empty(MAXH + 2, np.int64)
    k = 0
    if led >= 0 and pos[FOLLOW] == 1:
        for i in range(n):
            if hand[i] // 10 == led // 10:
                legal[k] = hand[i]
                k += 1
    if k == 0:
        for i in range(n):
            legal[i] = hand[i]
        k = n
    found = False
    for i in range(k):
        if legal[i] == card:
            found = True
    if not found:
        return 0.0
    saved = pos[TRICK]
    pos[TRICK] = led
    model = counting_card(pos, legal, k) if policy == COUNTING else greedy_card(pos, legal, k)
    pos[TRICK] = saved
    p = eps / k
    if model == card:
        p += 1.0 - eps
    return p


@jit
def world_weights(
    worlds: Array,
    opp: int,
    ev_led: Array,
    ev_card: Array,
    ev_extra: Array,
    ev_draw: Array,
    policy: int,
    eps: float,
) -> npt.NDArray[np.float64]:
    """How likely each world makes the opponent's recent plays, under the model of
    :func:`play_chance`. Play ``j`` was card ``ev_card[j]`` (to ``ev_led[j]``, -1 when
    leading), with the cards ``ev_extra[j]`` (ids, -1 padded) played by the opponent
    since; ``ev_draw[j]`` says what it drew since: -1 nothing, -2 a card of its present
    hand (any), or the id of a known card (the turned card)."""
    out = np.ones(worlds.shape[0], np.float64)
    hand = np.empty(2 * MAXH + 2, np.int64)
    base = np.empty(2 * MAXH + 2, np.int64)
    for w in range(worlds.shape[0]):
        pos = worlds[w]
        nh = int(pos[NH + opp])
        weight = 1.0
        for j in range(ev_card.shape[0]):
            # the opponent's cards now, those played since, and the card of the play
            nb = 0
            for i in range(nh):
                base[nb] = pos[H + opp * MAXH + i]
                nb += 1
            for i in range(ev_extra.shape[1]):
                if ev_extra[j, i] >= 0:
                    base[nb] = ev_extra[j, i]
                    nb += 1
            drawn = ev_draw[j]
            if drawn == -1:
                base[nb] = ev_card[j]
                weight *= play_chance(pos, base, nb + 1, ev_led[j], ev_card[j], policy, eps)
            elif drawn >= 0:
                k = 0
                for i in range(nb):
                    if base[i] != drawn:
                        hand[k] = base[i]
                        k += 1
                hand[k] = ev_card[j]
                weight *= play_chance(pos, hand, k + 1, ev_led[j], ev_card[j], policy, eps)
            else:
                total = 0.0
                for d in range(nb):
                    k = 0
                    for i in range(nb):
                        if i != d:
                            hand[k] = base[i]
                            k += 1
                    hand[k] = ev_card[j]
                    total += play_chance(pos, hand, k + 1, ev_led[j], ev_card[j], policy, eps)
                weight *= total / max(1, nb)
        out[w] = weight
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
    ev = evidence(view, rules, codec, config.infer) if config.infer else None
    listed = config.enumerate if rules.game.hand_size <= 3 else config.enumerate // 20
    if count <= max(1, listed):  # (five-card hands are dearer to solve)
        worlds = all_worlds(root, slots, [codec.id[c] for c in pool], count)
        rollouts, exact_draw = 1, MAXDRAW
        weights = np.ones(worlds.shape[0], np.float64)
        if ev is not None:
            weights = world_weights(worlds, 1 - seat, *ev, policy, config.infer_eps)
            if not weights.sum() > 0:
                weights[:] = 1.0
    else:
        ids = np.array([codec.id[c] for c in pool], np.int64)
        k = config.worlds * (config.oversample if ev is not None else 1)
        worlds = fill_worlds(root, slots, ids, k, seed)
        if ev is not None:
            likely = world_weights(worlds, 1 - seat, *ev, policy, config.infer_eps)
            worlds = worlds[resample(likely, config.worlds, seed)]
        weights = np.ones(worlds.shape[0], np.float64)
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
        weights,
        out,
    )
    return {
        codec.card[int(c)]: (out[i, 0] / out[i, 2], out[i, 1] / out[i, 2])
        for i, c in enumerate(moves)
    }


def resample(weights: npt.NDArray[np.float64], k: int, seed: int) -> npt.NDArray[np.intp]:
    """``k`` indices drawn in proportion to ``weights`` (systematic resampling)."""
    total = float(weights.sum())
    n = weights.shape[0]
    if not total > 0:
        flat: npt.NDArray[np.intp] = np.arange(k, dtype=np.intp) % n
        return flat
    u = random.Random(seed ^ 0x5EED).random()
    cum = np.cumsum(weights) / total
    picks = np.searchsorted(cum, (u + np.arange(k)) / k, side="right").astype(np.intp)
    out: npt.NDArray[np.intp] = np.minimum(picks, n - 1)
    return out


def evidence(
    view: View, rules: Rules, codec: Codec, items: int
) -> tuple[Array, Array, Array, Array]:
    """The opponent's recent plays in a two-player view, newest first, for
    :func:`briscola.ai.world_weights`: each play's card, the card it answered (-1
    when it led), the opponent's cards played since, and what it drew since (-1 nothing,
    -2 an unknown card, or the known turned card). Plays before two draws are left out."""
    seat = view.seat
    assert seat is not None
    opp = 1 - seat
    first_pile = len(rules.deck) - 2 * rules.game.hand_size
    draw_tricks = first_pile // 2
    led: list[int] = []
    cards: list[int] = []
    extra: list[list[int]] = []
    drawn: list[int] = []
    since: list[int] = []
    if view.trick and view.trick[0][0] == opp:
        led.append(-1)
        cards.append(codec.id[view.trick[0][1]])
        extra.append([])
        drawn.append(-1)
        since.append(cards[-1])
    draws = 0
    known = view.known_cards.get(opp, ())
    for i in range(len(view.tricks) - 1, -1, -1):
        if len(cards) >= items:
            break
        t = view.tricks[i]
        if i < draw_tricks:
            draws += 1
        if draws > 1:
            break
        k = t.seats.index(opp)
        led.append(-1 if k == 0 else codec.id[t.cards[0]])
        cards.append(codec.id[t.cards[k]])
        extra.append(list(since))
        if draws == 0:
            drawn.append(-1)
        elif i == draw_tricks - 1 and t.winner == seat and known:
            drawn.append(codec.id[known[0]])  # the opponent took the turned card
        else:
            drawn.append(-2)
        since.append(cards[-1])
    width = max(1, max((len(e) for e in extra), default=0))
    ex = np.full((len(cards), width), -1, np.int64)
    for j, e in enumerate(extra):
        ex[j, : len(e)] = e
    return (
        np.array(led, np.int64),
        np.array(cards, np.int64),
        ex,
        np.array(drawn, np.int64),
    )


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
