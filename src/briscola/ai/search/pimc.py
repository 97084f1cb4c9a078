"""The head-to-head search of :mod:`briscola.ai.search.players`: the hidden cards of a two-player
view dealt into many worlds (a compiled kernel), or every world listed when few, each
legal card scored in each world by :func:`briscola.ai.cores.head_to_head_solver.evaluate`
(exact solving, or playouts whose last tricks are solved exactly).

Every world is a fast-core position (:mod:`briscola.ai.cores.head_to_head`). A world's
outcome for the searching seat is its result (1 a win, 1/2 a 60-60 tie, 0 a loss) plus ``margin``
times the
point margin over 60 (per 60 points).
"""

from __future__ import annotations

import itertools
import random
import weakref
from collections.abc import MutableMapping, Sequence
from typing import TYPE_CHECKING, TypeAlias, cast

import numpy as np
import numpy.typing as npt
from numba import types
from numba.typed import Dict

from briscola.ai.cores.compiled import jit
from briscola.ai.cores.head_to_head import (
    COUNTING,
    COUNTING_JUDGE,
    DRAW,
    GREEDY,
    LASTW,
    LEADER,
    MAXDRAW,
    MAXH,
    ND,
    NH,
    PTS,
    RANDOM,
    SP,
    TRICK,
    Array,
    Codec,
    FArray,
    H,
    counting_card,
    legal_cards,
    popcount,
    seed_rng,
    shuffle,
    to_move,
)
from briscola.ai.cores.head_to_head_solver import NO_EACH, Transpositions, evaluate
from briscola.ai.learned.features import MAX_ACTIVE, deck_mask, encode
from briscola.ai.learned.leaves import NO_NET, evaluate_leaves
from briscola.ai.learned.net import F32, mlp_sparse, network
from briscola.ai.search.determinize import Sampler, World
from briscola.ai.search.judge import JUDGED, tuned_judge
from briscola.engine.actions import Play
from briscola.engine.cards import Card
from briscola.engine.rules import Rules
from briscola.engine.views import View

if TYPE_CHECKING:
    from briscola.ai.search.config import SearchConfig

POLICIES = {
    "greedy": GREEDY,
    "counting": COUNTING,
    "tuned": COUNTING,
    "tuned-2026": COUNTING,
    "random": RANDOM,
}
"""The playout policies by name: ``tuned`` is the counting policy with the weights
trained by self-play (``benchmarks/train_judge.py``; read by :mod:`briscola.ai.search.judge`),
``tuned-2026`` the same with the weights of December 2026 (the frozen levels')."""


def judge_of(policy: str) -> FArray:
    """The counting judgement's weights of a playout policy."""
    return tuned_judge(policy) if policy in JUDGED else COUNTING_JUDGE


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


# ---------------------------------------------------------------------------- inference


@jit
def before_play(
    template: Array,
    hand: int,
    unseen: int,
    seat: int,
    opp_led: int,
    mine: int,
    tau: int,
    ctx: Array,
) -> Array:
    """The position the opponent played from, as it saw it: ``template`` with its hand the
    cards of mask ``hand``, the cards of ``unseen`` (those it had not seen) dealt to the
    seat's hand and the stock, the turned card ``tau`` last (-1: none), the trick led by it
    (``opp_led``) or by the seat with ``mine``, and ``ctx``: the seat's points, the
    opponent's and the last trick's winner then. Only the set ``unseen`` and the seat's
    hand size matter to a player who sees this, not who holds which of those cards, so
    the seat's hand is made up of some of them."""
    o = 1 - seat
    pre = template.copy()
    hs = 0
    bits = hand
    while bits:
        low = bits & -bits
        bits ^= low
        pre[H + o * MAXH + hs] = popcount(low - 1)
        hs += 1
    pre[NH + o] = hs
    mine_n = hs if opp_led == 1 else hs - 1
    k = 0
    d = 0
    bits = unseen
    while bits:
        low = bits & -bits
        bits ^= low
        if k < mine_n:
            pre[H + seat * MAXH + k] = popcount(low - 1)
            k += 1
        else:
            pre[DRAW + d] = popcount(low - 1)
            d += 1
    pre[NH + seat] = k
    if tau >= 0:
        pre[DRAW + d] = tau
        d += 1
    pre[SP] = 0
    pre[ND] = d
    if opp_led == 1:
        pre[TRICK] = -1
        pre[LEADER] = o
    else:
        pre[TRICK] = mine
        pre[LEADER] = seat
    pre[PTS + seat] = ctx[0]
    pre[PTS + o] = ctx[1]
    pre[LASTW] = ctx[2]
    return pre


@jit
def counting_fits(pre: Array, played: int, noise: float, buf: Array) -> float:
    """How likely the player to move in ``pre`` was to play ``played``, were it to judge
    cards as the card-counting policy does, with a chance ``noise`` of doing otherwise."""
    n = legal_cards(pre, buf)
    hit = 1.0 if counting_card(pre, buf, n) == played else 0.0
    return noise + (1.0 - noise) * hit


@jit
def policy_fits(
    pre: Array,
    played: int,
    noise: float,
    buf: Array,
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
) -> float:
    """How likely the player to move in ``pre`` was to play ``played`` under a policy
    network (weights ``w1`` to ``b3``; ``deck`` the game's card ids), each legal card in
    proportion to its softmax, mixed with a chance ``noise`` of any legal card alike."""
    n = legal_cards(pre, buf)
    k = encode(pre, to_move(pre), False, deck, idx, val)
    mlp_sparse(idx, val, k, w1, b1, w2, b2, w3, b3, res)
    top = -1e30
    for i in range(n):
        top = max(top, float(res[buf[i]]))
    total = 0.0
    mine = 0.0
    for i in range(n):
        e = np.exp(float(res[buf[i]]) - top)
        total += e
        if buf[i] == played:
            mine = e
    return noise / n + (1.0 - noise) * mine / total


@jit
def play_fits(
    template: Array,
    hand: int,
    unseen: int,
    seat: int,
    opp_led: int,
    mine: int,
    played: int,
    tau: int,
    ctx: Array,
    noise: float,
    t: int,
    memo: Memo,
    buf: Array,
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
) -> float:
    """How likely the opponent, holding the cards of mask ``hand`` and not having seen those
    of ``unseen``, was to play ``played`` at trick ``t`` (it led, or answered ``mine``; the
    position: :func:`before_play`): by the policy network ``w1`` to ``b3``
    (:func:`policy_fits`, the chance kept in ``memo`` under ``t << 40 | hand``), or by the
    card-counting policy when ``w1`` is empty (:func:`counting_fits`)."""
    netted = w1.shape[0] > 0
    key = (t << 40) | hand
    if netted and key in memo:
        return memo[key]
    pre = before_play(template, hand, unseen, seat, opp_led, mine, tau, ctx)
    if not netted:
        return counting_fits(pre, played, noise, buf)
    fit = policy_fits(pre, played, noise, buf, deck, idx, val, res, w1, b1, w2, b2, w3, b3)
    memo[key] = fit
    return fit


@jit
def history_fit(
    worlds: Array,
    seat: int,
    opp_card: Array,
    opp_led: Array,
    my_card: Array,
    base: Array,
    now_card: int,
    now_base: int,
    tau: int,
    ctx: Array,
    noise: float,
    out: npt.NDArray[np.float64],
    memo: Memo,
    deck: int,
    w1: F32,
    b1: F32,
    w2: F32,
    b2: F32,
    w3: F32,
    b3: F32,
) -> bool:
    """Weigh each world by how well it explains every card the opponent has played in the
    hand (:func:`play_fits`): were it to judge cards as the card-counting policy does, or,
    given a policy network's weights (``w1`` to ``b3``, ``deck`` the game's card ids; an
    empty ``w1``: none), as likely as that network makes each play. With a network, each
    play's chance is kept in ``memo`` and read from there when asked again: valid while
    the history read is the same, or a longer one of the same hand (:class:`Inference`
    keeps it so).

    Finished tricks ``t`` (oldest first): the opponent's card ``opp_card[t]``, whether it
    led (``opp_led[t]``), the card it answered (``my_card[t]``), ``base[t]``: the mask
    of the cards it did not see then, with its own hand, and ``ctx[t]``: the seat's points,
    the opponent's and the last trick's winner before it (``ctx[T]``: now).
    ``now_card``: the card it led to the trick now (-1: none), ``now_base`` likewise. The
    stock must not have run out:
    after each trick the opponent drew a card, so its hand before a trick is its hand after
    it, less the card it drew (any of them alike), plus the card it played. Every such
    history is summed over, level by level of distinct hands. Returns False (and leaves
    ``out`` alone) when the hands to follow would be too many."""
    o = 1 - seat
    T = opp_card.shape[0]
    n = worlds.shape[0]
    cap = 1 << 16
    stride = MAXH + 1
    masks = np.empty(cap, np.int64)
    kids = np.empty(cap * stride, np.int64)
    start = np.empty(T + 2, np.int64)
    top = np.empty(n, np.int64)
    buf = np.empty(MAXH + 1, np.int64)
    idx = np.empty(MAX_ACTIVE, np.int64)
    val = np.empty(MAX_ACTIVE, np.float32)
    res = np.empty(w3.shape[1], np.float32)
    template = worlds[0]
    index = {np.int64(0): np.int64(0)}
    index.clear()
    count = 0
    for w in range(n):
        pos = worlds[w]
        m = np.int64(0)
        for i in range(int(pos[NH + o])):
            m |= np.int64(1) << pos[H + o * MAXH + i]
        if now_card >= 0:
            m |= np.int64(1) << now_card
        if m in index:
            top[w] = index[m]
        else:
            index[m] = np.int64(count)
            masks[count] = m
            top[w] = count
            count += 1
    start[0] = 0
    for j in range(1, T + 1):
        start[j] = count
        t = T - j
        pbit = np.int64(1) << opp_card[t]
        index.clear()
        for p in range(start[j - 1], start[j]):
            m = masks[p]
            bits = m
            k = 0
            while bits:
                low = bits & -bits
                bits ^= low
                child = (m ^ low) | pbit
                if child in index:
                    ci = index[child]
                else:
                    if count >= cap:
                        return False
                    ci = np.int64(count)
                    index[child] = ci
                    masks[count] = child
                    count += 1
                kids[p * stride + k] = ci
                k += 1
            kids[p * stride + MAXH] = k
    start[T + 1] = count
    value = np.ones(count, np.float64)
    for j in range(T, 0, -1):
        t = T - j
        for c in range(start[j], start[j + 1]):
            m = masks[c]
            fit = play_fits(
                template, m, base[t] & ~m, seat, opp_led[t], my_card[t], opp_card[t], tau,
                ctx[t], noise, t, memo, buf, deck, idx, val, res, w1, b1, w2, b2, w3, b3,
            )  # fmt: skip
            value[c] *= fit
        for p in range(start[j - 1], start[j]):
            k = kids[p * stride + MAXH]
            total = 0.0
            for i in range(k):
                total += value[kids[p * stride + i]]
            value[p] = total / k
    for w in range(n):
        c = top[w]
        v = value[c]
        if now_card >= 0:
            m = masks[c]
            v *= play_fits(
                template, m, now_base & ~m, seat, 1, -1, now_card, tau, ctx[T], noise, T,
                memo, buf, deck, idx, val, res, w1, b1, w2, b2, w3, b3,
            )  # fmt: skip
        out[w] = v
    return True


PolicyModel = tuple[int, F32, F32, F32, F32, F32, F32]
"""The policy network :func:`history_fit` weighs the worlds by: the game's card ids (a
mask) and the network's weights."""

Memo: TypeAlias = MutableMapping[int, float]
"""The memo type of :func:`history_fit`: a numba dictionary of int64 to float64."""

_NONE2 = np.zeros((0, 1), np.float32)
_NONE1 = np.zeros(0, np.float32)
NO_POLICY: PolicyModel = (0, _NONE2, _NONE1, _NONE2, _NONE1, _NONE2, _NONE1)
"""No policy network: :func:`history_fit` weighs the worlds by the card-counting policy."""


def new_memo() -> Memo:
    """An empty memo of :func:`history_fit`'s chances."""
    return cast(Memo, Dict.empty(key_type=types.int64, value_type=types.float64))


class Inference:
    """A searcher's memo of the chances :func:`history_fit` computed with a policy network,
    kept while its histories are read from one hand: each search's history must extend
    the one before (the same tricks, then more), else the memo starts afresh."""

    def __init__(self) -> None:
        self.memo = new_memo()
        self.read: tuple[object, list[tuple[int, int, int]]] | None = None

    def memo_for(
        self, seat: int, history: OpponentHistory, noise: float, model: PolicyModel
    ) -> Memo:
        """The memo, emptied unless ``history`` extends the history last asked for."""
        opp_card, opp_led, my_card, _, now_card, _, tau, _ = history
        # a trick the opponent led does not depend on the card that answered it
        tricks = [
            (int(c), int(led), -1 if led else int(mine))
            for c, led, mine in zip(opp_card, opp_led, my_card, strict=True)
        ]
        if now_card >= 0:
            tricks.append((now_card, 1, -1))
        same = (seat, tau, noise, id(model[1]))
        if self.read is None or self.read[0] != same or tricks[: len(self.read[1])] != self.read[1]:
            self.memo.clear()
        self.read = (same, tricks)
        return self.memo


_NO_MEMO = new_memo()

_INFERENCE: weakref.WeakKeyDictionary[object, Inference] = weakref.WeakKeyDictionary()
"""Each searcher's :class:`Inference`, by its transposition table (one a searcher and
thread)."""


def weigh(
    worlds: Array,
    seat: int,
    history: OpponentHistory,
    noise: float,
    model: PolicyModel = NO_POLICY,
    inference: Inference | None = None,
) -> npt.NDArray[np.float64]:
    """Each world's weight by :func:`history_fit` (all alike when it gives up)."""
    fit = np.ones(worlds.shape[0], np.float64)
    if model[1].shape[0] == 0:
        memo = _NO_MEMO
    else:
        memo = (inference or Inference()).memo_for(seat, history, noise, model)
    history_fit(worlds, seat, *history, noise, fit, memo, *model)
    return fit


def resample(weights: npt.NDArray[np.float64], k: int, rng: random.Random) -> Array:
    """``k`` indices drawn in proportion to ``weights`` (systematic resampling)."""
    total = float(weights.sum())
    n = weights.shape[0]
    if total <= 0.0:
        return np.arange(k, dtype=np.int64)
    edges = np.cumsum(weights) / total
    points = (rng.random() + np.arange(k)) / k
    picked: Array = np.minimum(np.searchsorted(edges, points), n - 1).astype(np.int64)
    return picked


OpponentHistory = tuple[Array, Array, Array, Array, int, int, int, Array]


def opponent_history(view: View, rules: Rules, codec: Codec) -> OpponentHistory | None:
    """The opponent's plays so far in a two-player view, as :func:`history_fit` reads them,
    with the turned card's id (-1: none); ``None`` when there is nothing to read or the
    reading does not hold: the stock has run out (nothing is hidden from then on), the
    opponent's hand lies face up, or a trump exchange may have moved cards."""
    seat = view.seat
    assert seat is not None
    o = 1 - seat
    if view.stock_size + (view.turned is not None) == 0 or o in view.visible_hands:
        return None
    if rules.exchange != "none":
        return None
    removed = rules.removals[0]
    live = 0
    for c in rules.deck:
        if c not in removed:
            live |= 1 << codec.id[c]
    tau = -1 if view.turned is None else codec.id[view.turned]
    if tau >= 0:
        live &= ~(1 << tau)
    opp_card, opp_led, my_card, base = [], [], [], []
    ctx = [[0, 0, -1]]
    for t in view.tricks:
        cards = dict(zip(t.seats, t.cards, strict=True))
        led = t.leader == o
        opp_card.append(codec.id[cards[o]])
        opp_led.append(int(led))
        my_card.append(codec.id[cards[seat]])
        base.append(live if led else live & ~(1 << codec.id[cards[seat]]))
        for c in t.cards:
            live &= ~(1 << codec.id[c])
        mine, theirs, _ = ctx[-1]
        if t.winner == seat:
            mine += t.points
        else:
            theirs += t.points
        ctx.append([mine, theirs, t.winner])
    now_card = -1
    if view.trick and view.trick[0][0] == o:
        now_card = codec.id[view.trick[0][1]]
    if not opp_card and now_card < 0:
        return None

    def arr(xs: list[int]) -> Array:
        return np.array(xs, np.int64)

    return (
        arr(opp_card),
        arr(opp_led),
        arr(my_card),
        arr(base),
        now_card,
        live,
        tau,
        np.array(ctx, np.int64),
    )


def policy_model(config: SearchConfig, rules: Rules, codec: Codec) -> PolicyModel:
    """The policy network the search's inference weighs its worlds by
    (``config.policy_net``), as :func:`history_fit` takes it; :data:`NO_POLICY` when there
    is none (or the package ships none for the game)."""
    net = network(config.policy_net, rules.key, "policy") if config.policy_net else None
    if net is None:
        return NO_POLICY
    return (deck_mask(codec.id.values()), *net.kernel_args())


# ---------------------------------------------------------------------------- the search


def utility_params(view: View, rules: Rules, config: SearchConfig) -> tuple[float, int]:
    """The margin weight and the 60-60 rule (1: the last trick decides) of a two-player game."""
    margin = config.margin
    if rules.target[0] == "points":
        margin = 4.0  # a match to a points target: every point counts
    tie_last = 1 if rules.tie_to_last_trick else 0
    return margin, tie_last


def head_to_head(
    view: View,
    rules: Rules,
    config: SearchConfig,
    seed: int,
    tt: Transpositions | None = None,
    truth: World | None = None,
) -> dict[Card, tuple[float, float]]:
    """Mean outcome and mean final points of each legal card of a two-player view, by the
    fast core: every world solved exactly when few, else sampled worlds played out. ``tt``
    is the searcher's own transposition table (``None``: a fresh one). With ``truth`` (the
    cards as they lie, every card seen: an analysis's other values), that one world alone
    is played out, as many times as the search would play out its worlds."""
    seat = view.seat
    assert seat is not None
    sampler = Sampler(view, rules)
    codec = Codec(rules)
    margin, tie_last = utility_params(view, rules, config)
    first = truth or sampler.sample(random.Random(seed))
    root = codec.from_view(view, first.hands[1 - seat], first.stock, first.turned)
    slots, pool = hidden_slots(sampler, seat)
    moves = np.array([codec.id[a.card] for a in view.legal if isinstance(a, Play)], np.int64)
    count = sampler.count()
    policy = POLICIES[config.policy]
    policy_other = POLICIES[config.policy_other or config.policy]
    judge, judge_other = judge_of(config.policy), judge_of(config.policy_other or config.policy)
    listed = config.enumerate if rules.game.hand_size <= 3 else config.enumerate // 20
    to_draw = view.stock_size + (view.turned is not None)
    # (five-card hands, and longer ends, are dearer to solve)
    inferring = config.model_noise < 1.0 and truth is None
    history = opponent_history(view, rules, codec) if inferring else None
    model = policy_model(config, rules, codec) if history is not None else NO_POLICY
    inference = None
    if tt is not None and model[1].shape[0]:
        inference = _INFERENCE.setdefault(tt, Inference())
    weights = np.empty(0, np.float64)
    sampled = not (count == 1 or (count <= listed and to_draw <= config.enumerate_draw))
    if truth is not None:
        worlds = np.repeat(root[None, :], config.worlds, axis=0)
        rollouts, exact_draw = config.rollouts, config.exact_draw
    elif not sampled:
        worlds = all_worlds(root, slots, [codec.id[c] for c in pool], count)
        rollouts, exact_draw = 1, MAXDRAW
        if history is not None and count > 1:
            weights = weigh(worlds, seat, history, config.model_noise, model, inference)
    else:
        ids = np.array([codec.id[c] for c in pool], np.int64)
        many = config.worlds * (config.candidates if history is not None else 1)
        worlds = fill_worlds(root, slots, ids, many, seed)
        if history is not None:
            fit = weigh(worlds, seat, history, config.model_noise, model, inference)
            worlds = worlds[resample(fit, config.worlds, random.Random(seed))]
        rollouts, exact_draw = config.rollouts, config.exact_draw
    exact_end = config.exact_end if rules.game.hand_size <= 3 else -1  # five-card endings
    eps_other = config.eps if config.eps_other is None else config.eps_other
    if tt is None:
        tt = Transpositions()
    gen = tt.reserve(worlds.shape[0])
    # the value network at the leaves of sampled worlds (listed ones are solved exactly)
    net = network(config.value_net, rules.key, "value") if config.value_net and sampled else None
    leaf_policy = NO_NET
    if net is not None and config.leaf_policy_net and config.policy_net:
        found = network(config.policy_net, rules.key, "policy")
        leaf_policy = NO_NET if found is None else found.kernel_args()
    out = np.zeros((moves.shape[0], 3), np.float64)
    live = np.arange(moves.shape[0])
    # early stopping (sampled worlds only: listed ones are few, solved once each)
    batch = config.min_worlds if sampled and 0 < config.min_worlds < worlds.shape[0] else 0
    each = np.zeros((worlds.shape[0], moves.shape[0]), np.float64) if batch else NO_EACH
    done = 0
    while done < worlds.shape[0]:
        end = worlds.shape[0] if not batch else min(worlds.shape[0], done + batch)
        part = np.zeros((live.shape[0], 3), np.float64)
        part_each = np.zeros((end - done, live.shape[0]), np.float64) if batch else NO_EACH
        if net is not None:
            evaluate_leaves(
                worlds[done:end],
                moves[live],
                seat,
                policy,
                policy_other,
                judge,
                judge_other,
                config.leaf_tricks,
                config.leaf_exact_end if rules.game.hand_size <= 3 else -1,
                margin,
                tie_last,
                (seed + done * 1000003) & 0xFFFFFFFF,
                tt.entries,
                gen + done,
                part,
                np.zeros(1, np.int64),
                weights[done:end] if weights.shape[0] else weights,
                part_each,
                deck_mask(codec.id.values()),
                net.kernel_args(),
                leaf_policy,
            )
        else:
            evaluate(
                worlds[done:end],
                moves[live],
                seat,
                rollouts,
                policy,
                policy_other,
                judge,
                judge_other,
                config.eps,
                eps_other,
                exact_draw,
                exact_end,
                margin,
                tie_last,
                (seed + done * 1000003) & 0xFFFFFFFF,
                tt.entries,
                gen + done,
                part,
                np.zeros(1, np.int64),
                weights[done:end] if weights.shape[0] else weights,
                part_each,
            )
        if batch:
            each[done:end, live] = part_each
        out[live] += part
        done = end
        if batch and done < worlds.shape[0]:
            live = still_open(each[:done], live, config.stop_z)
            if live.shape[0] == 1:
                break
    return {
        codec.card[int(c)]: (out[i, 0] / out[i, 2], out[i, 1] / out[i, 2])
        for i, c in enumerate(moves)
    }


def still_open(each: npt.NDArray[np.float64], live: Array, z: float) -> Array:
    """The cards of ``live`` still worth searching after the worlds so far (``each``: a row
    per world, a column per card): the best by mean outcome, and every card whose deficit
    to it is within ``z`` standard errors (the worlds are shared, so the difference is
    measured world by world)."""
    values = each[:, live]
    means = values.mean(axis=0)
    best = int(np.argmax(means))
    n = values.shape[0]
    keep = []
    for i in range(live.shape[0]):
        if i == best:
            keep.append(True)
            continue
        diff = values[:, best] - values[:, i]
        se = float(diff.std(ddof=1)) / np.sqrt(n) if n > 1 else np.inf
        keep.append(bool(diff.mean() <= z * se))
    kept: Array = live[np.array(keep)]
    return kept


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
