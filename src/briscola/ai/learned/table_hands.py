"""Hands of the table games to learn from: dealt by the reference engine, played in the
table core (:mod:`briscola.ai.cores.table_games`) by its greedy playout policy with a
chance of a random card, some positions of each kept with how the hand ended for every
seat.

A hand's positions are alike from one card to the next, so only ``keep`` of each hand's
decisions are kept (drawn at random), each as the position and the hand's end; the
networks read a kept position from every seat (:func:`value_rows`).

>>> from briscola.engine.rules import Rules
>>> hands = play_hands(Rules.make("briscola-4"), 6, seed=1, keep=5)
>>> hands.positions.shape[0], int(hands.points.sum())
(30, 1440)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from briscola.ai.cores.compiled import jit
from briscola.ai.cores.head_to_head import Codec, rand_below, seed_rng
from briscola.ai.cores.table_games import (
    MAXH,
    MAXP,
    SIDE,
    SIZE,
    Array,
    FArray,
    N,
    from_state,
    greedy_card,
    is_over,
    legal_cards,
    play_card,
    side_points,
    supports,
    winning_side,
)
from briscola.ai.learned.features import deck_mask
from briscola.ai.learned.table_features import encode_rows
from briscola.engine.deal import shuffled_deal
from briscola.engine.phases import Phase
from briscola.engine.rules import Rules
from briscola.engine.state import GameState

F32 = npt.NDArray[np.float32]


@dataclass
class Hands:
    """Positions kept from many hands: ``positions[r]`` (``int8``, the table core's layout)
    from hand ``hand[r]``, where the seat to move played ``cards[r]`` (its card id; -1
    where it was not kept); ``won[g, s]`` is 1, 1/2 or 0 as seat ``s`` won, tied or lost
    hand ``g``, and ``points[g, s]`` its side's points."""

    positions: npt.NDArray[np.int8]
    hand: Array
    won: F32
    points: Array
    cards: Array


def deals(rules: Rules, n: int, seed: int) -> Array:
    """``n`` start positions of ``rules`` from the engine's shuffled deals, dealers in turn.
    Where a hand starts with something else than the card play (chiamata's auction and
    call), the intermediate bots do it; a hand that ends there (every seat passing) is
    dealt again.

    :raises ValueError: for a game the table core does not play."""
    from briscola.ai.bot import make_bot
    from briscola.engine.views import seat_view

    if not supports(rules):
        raise ValueError(f"{rules.game.key}: the table core does not play this game")
    codec = Codec(rules)
    rng = random.Random(seed)
    bots = [make_bot("intermediate", seed=seed * 10 + s) for s in range(rules.players)]
    out = np.empty((n, SIZE), np.int64)
    g = 0
    dealt = 0
    while g < n:
        state = GameState(rules, shuffled_deal(rules, dealt % rules.players, rng))
        dealt += 1
        while state.phase not in (Phase.PLAY, Phase.OVER):
            state.apply(bots[state.turn].choose(seat_view(state, state.turn)))
        if state.phase == Phase.PLAY:
            out[g] = from_state(state, codec)
            g += 1
    return out


@jit
def play_kept(
    starts: Array, eps: float, keep: int, seed: int
) -> tuple[Array, Array, FArray, Array, Array]:
    """Play each start to its end by the greedy policy with a chance ``eps`` of a random
    card; keep ``keep`` of its decisions' positions at random. Returns the positions, the
    hand of each, each hand's result and side points for every seat, and the card played
    at each position kept."""
    g_n = starts.shape[0]
    rows = np.empty((g_n * keep, SIZE), np.int64)
    hand = np.empty(g_n * keep, np.int64)
    chosen = np.empty(g_n * keep, np.int64)
    won = np.zeros((g_n, MAXP), np.float64)
    points = np.zeros((g_n, MAXP), np.int64)
    rng = np.empty(1, np.uint64)
    seed_rng(rng, seed)
    buf = np.empty(MAXH, np.int64)
    pos = np.empty(SIZE, np.int64)
    seen = np.empty((MAXP * MAXH + 1, SIZE), np.int64)
    played = np.empty(MAXP * MAXH + 1, np.int64)
    r = 0
    for g in range(g_n):
        pos[:] = starts[g]
        m = 0
        while not is_over(pos):
            seen[m] = pos
            m += 1
            n = legal_cards(pos, buf)
            if n > 1 and rand_below(rng, 1 << 30) < eps * (1 << 30):
                card = buf[rand_below(rng, n)]
            else:
                card = greedy_card(pos, buf, n) if n > 1 else buf[0]
            played[m - 1] = card
            play_card(pos, card)
        # keep distinct decisions, drawn without replacement
        k = min(keep, m)
        for j in range(k):
            t = j + rand_below(rng, m - j)
            rows[r] = seen[t]
            chosen[r] = played[t]
            seen[t] = seen[j]
            played[t] = played[j]
            hand[r] = g
            r += 1
        win = winning_side(pos)
        for s in range(int(pos[N])):
            side = int(pos[SIDE + s])
            won[g, s] = 0.5 if win < 0 else (1.0 if win == side else 0.0)
            points[g, s] = side_points(pos, side)
    return rows[:r], hand[:r], won, points, chosen[:r]


def play_hands(rules: Rules, n: int, seed: int, keep: int = 8, eps: float = 0.1) -> Hands:
    """``n`` hands of ``rules`` played in the table core (see :func:`play_kept`)."""
    rows, hand, won, points, cards = play_kept(deals(rules, n, seed), eps, keep, seed)
    return Hands(rows.astype(np.int8), hand, won.astype(np.float32), points, cards)


def value_rows(hands: Hands, rows: Array, rules: Rules, margin_half: float) -> tuple[F32, F32]:
    """The value network's inputs and targets for positions ``rows`` of ``hands``, each
    read from every seat (``full``): the result (1, 1/2, 0) and the side's points less
    ``margin_half``, over 60."""
    n = rules.players
    positions = hands.positions[rows].astype(np.int64)
    both = np.repeat(np.arange(len(rows)), n)
    seats = np.tile(np.arange(n), len(rows))
    deck = deck_mask(sorted(Codec(rules).id.values()))
    x = encode_rows(positions[both], seats, True, deck)
    g = hands.hand[rows][both]
    y = np.stack([hands.won[g, seats], (hands.points[g, seats] - margin_half) / 60.0], 1).astype(
        np.float32
    )
    return x, y
