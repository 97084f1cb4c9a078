"""The exact solver of the head-to-head core: positions where every card is known.

In two-player Briscola the last three tricks are a game of perfect information: once the
stock is empty, the opponent holds exactly the cards the player has not seen. The same
search also solves a *determinized* world (a sample of the hidden cards, the order of the
stock included) from any point of the hand, which is what the search bots do in their
endgames (:mod:`briscola.ai.search.exact_head_to_head` answers from views).

- :class:`Solver`: alpha-beta (fail-soft, with a transposition table, move ordering and
  equivalent cards pruned) over the positions of :mod:`briscola.ai.cores.head_to_head`,
  compiled with numba, iterative (numba cannot cache a recursive function); its times
  are in ``benchmarks/README.md`` (``benchmarks/solver_speed.py``).
- :func:`evaluate`, the kernel the search bots run, scores the cards of many worlds by
  this solver or by playouts ending in it.
- :class:`Transpositions`: a searcher's own table (never shared: the kernels run without
  the GIL).

The same answers over reference engine states, for any game of the family, come from
:mod:`briscola.ai.search.exact_endgame`, slow but general and free of numba.

Values are card points. A position's value is the points seat 0 takes with best play on
both sides (each side maximizing its own points, which in a game of perfect information
also decides who can reach 61).

>>> import random
>>> from briscola.engine import Rules
>>> rules = Rules.make("briscola-2")
>>> state = random_states(rules, 0, 1, random.Random(4), choices=2)[0]
>>> from briscola.ai.cores.head_to_head import Codec
>>> codec = Codec(rules)
>>> points, card = Solver().solve(codec.from_state(state))
>>> 0 <= points <= 120, codec.card[card] in [a.card for a in state.legal_actions()]
(True, True)
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from briscola.ai.cores.compiled import jit, use_cache
from briscola.ai.cores.head_to_head import (
    COUNTING_JUDGE,
    DRAW,
    FOLLOW,
    GREEDY,
    LASTW,
    LEADER,
    MAXDRAW,
    MAXH,
    ND,
    NH,
    PTS,
    PVAL,
    SIZE,
    SP,
    TRICK,
    TRUMP,
    Array,
    FArray,
    H,
    is_over,
    lead_key,
    legal_cards,
    play_card,
    playout,
    seed_rng,
    to_move,
)
from briscola.engine.deal import shuffled_deal
from briscola.engine.rules import Rules
from briscola.engine.state import GameState

TT_BITS = 16
"""log2 of the transposition table's entries (64 K entries, 3 MB)."""
MAXPLY = 2 * 20 + 2
"""Most plies of a two-player hand (20 tricks of two cards), with room for the root."""

# transposition table columns
K1, K2, LO, HI, MOVE = 0, 1, 2, 3, 4
TT_COLS = 5
INF = 1 << 20


@jit
def hand_mask(pos: Array, seat: int) -> int:
    m = 0
    base = H + seat * MAXH
    for i in range(int(pos[NH + seat])):
        m |= 1 << int(pos[base + i])
    return m


@jit
def tt_keys(pos: Array, gen: int) -> tuple[int, int]:
    """The two words that identify a position of one world (``gen``): both hands, the card
    led, the leader and how far the drawing has gone (the world fixes the rest)."""
    k1 = hand_mask(pos, 0) | ((int(pos[TRICK]) + 1) << 40) | (int(pos[LEADER]) << 46)
    k1 |= int(pos[SP]) << 47
    k2 = hand_mask(pos, 1) | (gen << 40)
    return k1, k2


@jit
def tt_index(k1: int, k2: int, mask: int) -> int:
    h = (k1 * 0x9E3779B1 + k2 * 0x85EBCA77) ^ (k1 >> 29) ^ (k2 >> 31)
    h ^= h >> 17
    return int(h & mask)


@jit
def order_moves(pos: Array, moves: Array, n: int, first: int, score: Array) -> None:
    """Sort the ``n`` moves so that the likely best come first: the table's move, then for
    the leader the cheapest cards, and for the second player the winning cards (the
    richest trick first) before the cheapest losing ones. ``score`` is scratch space."""
    led = pos[TRICK]
    for i in range(n):
        c = moves[i]
        if c == first:
            score[i] = -1000
        elif led < 0:
            score[i] = lead_key(pos, c)
        else:
            wins = (c // 10 == led // 10 and c > led) or (
                c // 10 != led // 10 and c // 10 == pos[TRUMP]
            )
            if wins:
                score[i] = -100 - pos[PVAL + c % 10] + (c // 10 == pos[TRUMP]) * 20
            else:
                score[i] = lead_key(pos, c)
    for i in range(1, n):
        c = moves[i]
        sc = score[i]
        j = i - 1
        while j >= 0 and score[j] > sc:
            moves[j + 1] = moves[j]
            score[j + 1] = score[j]
            j -= 1
        moves[j + 1] = c
        score[j + 1] = sc


@jit
def drop_equivalent(pos: Array, moves: Array, n: int, dead: int) -> int:
    """Keep one card of each run of equivalent cards: two cards of a suit in one hand,
    worth the same points, with every card between them already played, win and lose
    exactly the same tricks. Returns the number of moves kept (at the front)."""
    k = 0
    for i in range(n):
        c = moves[i]
        dup = False
        for j in range(k):
            o = moves[j]
            if o // 10 == c // 10 and pos[PVAL + o % 10] == pos[PVAL + c % 10]:
                lo = min(o, c)
                hi = max(o, c)
                between = (1 << hi) - (1 << (lo + 1))
                if between & ~dead == 0:
                    dup = True
                    break
        if not dup:
            moves[k] = c
            k += 1
    return k


@jit
def dead_cards(pos: Array) -> int:
    """The cards out of play in a position: played, or never dealt (ids 0..39)."""
    live = hand_mask(pos, 0) | hand_mask(pos, 1)
    for i in range(int(pos[SP]), int(pos[ND])):
        live |= 1 << int(pos[DRAW + i])
    if pos[TRICK] >= 0:
        live |= 1 << int(pos[TRICK])
    return ((1 << 40) - 1) & ~live


# frame columns of the explicit search stack
F_ALPHA, F_BETA, F_A0, F_B0, F_BEST, F_MOVE, F_N, F_I, F_GAIN, F_DEAD = range(10)
F_SLOT, F_K1, F_K2, F_TT = 10, 11, 12, 13
F_COLS = 14


@jit
def alphabeta(
    stack: Array,
    moves: Array,
    frames: Array,
    alpha: int,
    beta: int,
    dead: int,
    tt: Array,
    gen: int,
    nodes: Array,
) -> int:
    """The points seat 0 still takes from ``stack[0]`` with best play, exact when the result
    lies strictly inside (``alpha``, ``beta``), else a bound on that side of the window
    (fail-soft). ``dead`` holds the cards out of play. The rest of ``stack``, ``moves``
    and ``frames`` is scratch space: the search keeps its own stack (numba cannot cache a
    recursive function)."""
    d = 0
    frames[0, F_ALPHA] = alpha
    frames[0, F_BETA] = beta
    frames[0, F_DEAD] = dead
    frames[0, F_GAIN] = 0
    entering = True
    ret = 0
    while True:
        pos = stack[d]
        fr = frames[d]
        if entering:
            nodes[0] += 1
            done = False
            if is_over(pos):
                ret = 0
                done = True
            elif pos[NH] + pos[NH + 1] == 1 and pos[TRICK] >= 0:
                # the last card of the hand plays itself
                child = stack[d + 1]
                child[:] = pos
                play_card(child, pos[H + to_move(pos) * MAXH])
                ret = int(child[PTS] - pos[PTS])
                done = True
            else:
                first = -1
                fr[F_TT] = 0
                if tt.shape[0] > 0 and pos[NH] + pos[NH + 1] > 3:
                    k1, k2 = tt_keys(pos, gen)
                    slot = tt_index(k1, k2, tt.shape[0] - 1)
                    fr[F_TT] = 1
                    fr[F_SLOT] = slot
                    fr[F_K1] = k1
                    fr[F_K2] = k2
                    if tt[slot, K1] == k1 and tt[slot, K2] == k2:
                        lo = tt[slot, LO]
                        hi = tt[slot, HI]
                        if lo >= fr[F_BETA]:
                            ret = int(lo)
                            done = True
                        elif hi <= fr[F_ALPHA]:
                            ret = int(hi)
                            done = True
                        elif lo == hi:
                            ret = int(lo)
                            done = True
                        else:
                            if lo > fr[F_ALPHA]:
                                fr[F_ALPHA] = lo
                            if hi < fr[F_BETA]:
                                fr[F_BETA] = hi
                            first = tt[slot, MOVE]
                if not done:
                    fr[F_A0] = fr[F_ALPHA]
                    fr[F_B0] = fr[F_BETA]
                    mv = moves[d]
                    n = legal_cards(pos, mv)
                    if n > 1:
                        n = drop_equivalent(pos, mv, n, fr[F_DEAD])
                        order_moves(pos, mv, n, first, moves[d, MAXH:])
                    fr[F_N] = n
                    fr[F_I] = 0
                    fr[F_BEST] = -INF if to_move(pos) == 0 else INF
                    fr[F_MOVE] = mv[0]
            if done:
                if d == 0:
                    return ret
                d -= 1
                entering = False
                continue
        else:
            # a child returned ``ret``: the value of the move just tried
            v = frames[d + 1, F_GAIN] + ret
            c = moves[d, fr[F_I] - 1]
            if to_move(pos) == 0:
                if v > fr[F_BEST]:
                    fr[F_BEST] = v
                    fr[F_MOVE] = c
                    if v > fr[F_ALPHA]:
                        fr[F_ALPHA] = v
            else:
                if v < fr[F_BEST]:
                    fr[F_BEST] = v
                    fr[F_MOVE] = c
                    if v < fr[F_BETA]:
                        fr[F_BETA] = v
            if fr[F_ALPHA] >= fr[F_BETA]:
                fr[F_I] = fr[F_N]  # cut off: no more moves
        if fr[F_I] < fr[F_N]:
            c = moves[d, fr[F_I]]
            fr[F_I] += 1
            child = stack[d + 1]
            copy_moving(child, pos)
            play_card(child, c)
            gain = child[PTS] - pos[PTS]
            ch = frames[d + 1]
            ch[F_GAIN] = gain
            ch[F_ALPHA] = fr[F_ALPHA] - gain
            ch[F_BETA] = fr[F_BETA] - gain
            ch[F_DEAD] = fr[F_DEAD] | (1 << c)
            d += 1
            entering = True
            continue
        # every move tried (or cut off): store the result and return it
        best = fr[F_BEST]
        if fr[F_TT] == 1:
            slot = fr[F_SLOT]
            k1 = fr[F_K1]
            k2 = fr[F_K2]
            lo = -INF
            hi = INF
            if best <= fr[F_A0]:
                hi = best
            elif best >= fr[F_B0]:
                lo = best
            else:
                lo = best
                hi = best
            if tt[slot, K1] == k1 and tt[slot, K2] == k2:
                lo = max(lo, tt[slot, LO])
                hi = min(hi, tt[slot, HI])
            tt[slot, K1] = k1
            tt[slot, K2] = k2
            tt[slot, LO] = lo
            tt[slot, HI] = hi
            tt[slot, MOVE] = fr[F_MOVE]
        ret = int(best)
        if d == 0:
            return ret
        d -= 1
        entering = False


@jit
def copy_moving(dst: Array, src: Array) -> None:
    """Copy the parts of a position that play changes (hands, drawing index, leader, trick,
    points); the cards to draw and the points table stay as they are in ``dst``."""
    for i in range(DRAW):
        dst[i] = src[i]
    for i in range(SP, FOLLOW):
        dst[i] = src[i]


@jit
def scratch(pos: Array) -> tuple[Array, Array, Array]:
    """Scratch space for :func:`alphabeta` searching in the world of ``pos``: positions
    (each a copy of ``pos``), move lists and frames."""
    stack = np.empty((MAXPLY, SIZE), np.int64)
    for d in range(MAXPLY):
        stack[d, :] = pos
    return (
        stack,
        np.empty((MAXPLY, 2 * MAXH), np.int64),
        np.empty((MAXPLY, F_COLS), np.int64),
    )


@jit
def exact_final(
    pos: Array, stack: Array, moves: Array, frames: Array, tt: Array, gen: int, nodes: Array
) -> int:
    """The final points of seat 0 from ``pos`` with best play, with scratch space from
    :func:`scratch` (rows refreshed here for the world of ``pos``)."""
    if is_over(pos):
        return int(pos[PTS])
    for d in range(stack.shape[0]):
        stack[d, :] = pos
    v = alphabeta(stack, moves, frames, -INF, INF, dead_cards(pos), tt, gen, nodes)
    return v + int(pos[PTS])


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
    policy_other: int,
    judge: FArray,
    judge_other: FArray,
    eps: float,
    eps_other: float,
    exact_draw: int,
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
) -> None:
    """Add up, for each card ``moves[m]`` of the seat to move in each world ``w``, the
    outcome (``out[m, 0]``), the seat's final points (``out[m, 1]``) and the count
    (``out[m, 2]``), each counted ``weights[w]`` times (empty ``weights``: once); when
    ``each`` has a row per world, ``each[w, m]`` gets the card's mean outcome in the world.

    After the card, a world with at most ``exact_draw`` cards left to draw is solved
    exactly; otherwise it is played out ``rollouts`` times, the seat by the ``policy`` (see
    :mod:`briscola.ai.cores.head_to_head`, judging by the weights ``judge``) with a chance
    ``eps`` of a random card, its opponent by ``policy_other`` (``judge_other``) with a chance
    ``eps_other``, each playout solved
    exactly from when at most ``exact_end`` cards are left to draw (-1: played to the
    end). The playouts of the cards of one world use the same random numbers, so that the
    cards are compared on equal luck. ``nodes[0]`` counts the positions solved."""
    stack, mstack, frames = scratch(worlds[0])
    rng = np.empty(1, np.uint64)
    child = np.empty(SIZE, np.int64)
    line = np.empty(SIZE, np.int64)
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
            if child[ND] - child[SP] <= exact_draw:
                p0 = exact_final(child, stack, mstack, frames, tt, gen, nodes)
                mine = p0 if seat == 0 else total - p0
                value = outcome(mine, total, False, margin, 0)
                out[m, 0] += wt * value
                out[m, 1] += wt * mine
                out[m, 2] += wt
                if keep:
                    each[w, m] = value
                continue
            acc = 0.0
            for r in range(rollouts):
                seed_rng(rng, seed + w * 1000003 + r * 7919)
                line[:] = child
                if seat == 0:
                    playout(
                        line,
                        policy,
                        policy_other,
                        judge,
                        judge_other,
                        eps,
                        eps_other,
                        rng,
                        exact_end,
                    )
                else:
                    playout(
                        line,
                        policy_other,
                        policy,
                        judge_other,
                        judge,
                        eps_other,
                        eps,
                        rng,
                        exact_end,
                    )
                won_last = False
                if is_over(line):
                    p0 = int(line[PTS])
                    won_last = line[LASTW] == seat
                else:
                    p0 = exact_final(line, stack, mstack, frames, tt, gen, nodes)
                mine = p0 if seat == 0 else total - p0
                value = outcome(mine, total, won_last, margin, tie_last)
                acc += value
                out[m, 0] += wt * value
                out[m, 1] += wt * mine
                out[m, 2] += wt
            if keep:
                each[w, m] = acc / rollouts


def new_table(bits: int = TT_BITS) -> npt.NDArray[np.int64]:
    """An empty transposition table (2**bits entries)."""
    return np.zeros((1 << bits, TT_COLS), np.int64)


NO_TABLE = np.zeros((0, TT_COLS), np.int64)
NO_EACH = np.zeros((0, 0), np.float64)

GENERATIONS = 1 << 22
"""Generation numbers fit in the key's bits above the hand mask."""


class Transpositions:
    """A transposition table with the generation numbers it has handed out: one per
    searcher, never shared. Each world searched takes a fresh generation, so entries of
    other worlds never match; the kernels run without the GIL, so two searches that
    shared a table in two threads could read each other's half-written entries."""

    def __init__(self, bits: int = TT_BITS) -> None:
        self.entries = new_table(bits) if bits > 0 else NO_TABLE
        self.gen = 0

    def reserve(self, k: int) -> int:
        """The first of ``k`` fresh generation numbers (the table cleared when they run
        out)."""
        if self.gen + k >= GENERATIONS:
            self.entries[:] = 0
            self.gen = 0
        base = self.gen + 1
        self.gen += k
        return base


class Solver:
    """Alpha-beta over fast-core positions, with one transposition table kept between
    calls. Each call is one world (a fresh generation of the table), unless ``same_world``
    says the position comes from the world of the last call (the table's entries still
    hold)."""

    def __init__(self, table_bits: int = TT_BITS) -> None:
        use_cache()
        self.tt = Transpositions(table_bits)
        self.nodes = np.zeros(1, np.int64)

    def _next(self, same_world: bool) -> int:
        return self.tt.gen if same_world else self.tt.reserve(1)

    def values(self, pos: Array, same_world: bool = False) -> tuple[list[int], list[int]]:
        """The legal cards (ids) of the player to move and, after each, the final points of
        seat 0 with best play."""
        mv = np.empty(MAXH, np.int64)
        n = legal_cards(pos, mv)
        out = np.zeros((n, 3), np.float64)
        gen = self._next(same_world)
        # every move solved exactly, for seat 0, scored by points alone (no margin)
        evaluate(
            pos[None, :],
            mv[:n],
            0,
            1,
            GREEDY,
            GREEDY,
            COUNTING_JUDGE,
            COUNTING_JUDGE,
            0.0,
            0.0,
            MAXDRAW,
            -1,
            0.0,
            0,
            0,
            self.tt.entries,
            gen,
            out,
            self.nodes,
            np.empty(0, np.float64),
            NO_EACH,
        )
        return [int(x) for x in mv[:n]], [round(float(x)) for x in out[:, 1]]

    def solve(self, pos: Array, same_world: bool = False) -> tuple[int, int]:
        """The final points of seat 0 with best play, and a best card (-1 if over)."""
        if is_over(pos):
            return int(pos[PTS]), -1
        moves, values = self.values(pos, same_world)
        pick = max if to_move(pos) == 0 else min
        best = pick(range(len(moves)), key=lambda i: values[i])
        return values[best], moves[best]


# ---------------------------------------------------------------------------- test positions


def random_states(
    rules: Rules, pile: int, count: int, rng: random.Random, choices: int = 1
) -> list[GameState]:
    """``count`` positions reached by random play with ``pile`` cards left to draw (the
    turned card included), half of them with a card already led, each with at least
    ``choices`` legal actions: the solver's test and benchmark positions."""
    out: list[GameState] = []
    while len(out) < count:
        state = GameState(rules, shuffled_deal(rules, rng.randrange(2), rng))
        while len(state.to_draw()) > pile:
            state.apply(rng.choice(state.legal_actions()))
        if rng.random() < 0.5:
            state.apply(rng.choice(state.legal_actions()))
        if not state.over and len(state.legal_actions()) >= choices:
            out.append(state)
    return out
