"""Games to learn from: head-to-head hands played in the fast core, every decision kept
with the position it was taken in, and how the hand ended.

The deals come from the reference engine (:func:`~briscola.engine.deal.shuffled_deal`,
so every house rule that changes the deal is honoured); the cards are then played in a
compiled kernel by the core's playout policies (the counting judgement with a chance of
a random card), far faster than any search. :class:`Rows` are what the networks learn
from them; hands played by the search itself are :mod:`briscola.training.selfplay`'s.

>>> from briscola.engine.rules import Rules
>>> games = play_games(Rules.make("briscola-2"), 4, seed=1)
>>> games.positions.shape[0], int(games.final.sum())
(160, 480)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from briscola.ai.cores.compiled import jit
from briscola.ai.cores.head_to_head import (
    COUNTING,
    COUNTING_JUDGE,
    LASTW,
    MAXH,
    ND,
    NH,
    PTS,
    SIZE,
    SP,
    Array,
    Codec,
    FArray,
    choose_card,
    is_over,
    legal_cards,
    play_card,
    seed_rng,
    to_move,
)
from briscola.ai.learned.features import deck_mask, encode_rows
from briscola.ai.learned.net import F32
from briscola.engine.deal import shuffled_deal
from briscola.engine.rules import Rules
from briscola.engine.state import GameState


@dataclass
class Games:
    """Decisions of many hands: row ``r`` is the position before a card (``positions[r]``),
    the seat to move (``seats[r]``), the card it played (``cards[r]``) and its hand
    (``game[r]``); ``final[g]`` holds each seat's points at the end of hand ``g`` and
    ``last[g]`` the winner of its last trick."""

    positions: Array
    seats: Array
    cards: Array
    game: Array
    final: Array
    last: Array

    @staticmethod
    def joined(parts: Sequence[Games]) -> Games:
        """The hands of ``parts``, one after another."""
        offsets = np.cumsum([0] + [p.final.shape[0] for p in parts[:-1]])
        return Games(
            np.concatenate([p.positions for p in parts]),
            np.concatenate([p.seats for p in parts]),
            np.concatenate([p.cards for p in parts]),
            np.concatenate([p.game + k for p, k in zip(parts, offsets, strict=True)]),
            np.concatenate([p.final for p in parts]),
            np.concatenate([p.last for p in parts]),
        )

    def result(self, rows: Array, seats: Array, tie_last: bool) -> FArray:
        """The hand's result for ``seats`` at ``rows``: 1 a win, 1/2 a 60-60, 0 a loss
        (with ``tie_last``, the last trick decides a 60-60)."""
        g = self.game[rows]
        mine = self.final[g, seats]
        theirs = self.final[g, 1 - seats]
        won: FArray = np.where(mine > theirs, 1.0, np.where(mine < theirs, 0.0, 0.5))
        if tie_last:
            won = np.where(mine == theirs, (self.last[g] == seats).astype(np.float64), won)
        return won

    def margin(self, rows: Array, seats: Array) -> FArray:
        """The final point margin of ``seats`` at ``rows``, over 60."""
        g = self.game[rows]
        out: FArray = (self.final[g, seats] - self.final[g, 1 - seats]) / 60.0
        return out


BoolArray = npt.NDArray[np.bool_]


@jit
def play_out_recorded(
    starts: Array,
    policy: int,
    judge: FArray,
    eps: float,
    seed: int,
) -> tuple[Array, Array, Array, Array, Array, Array]:
    """Play each start position to its end, both seats by ``policy`` (weights ``judge``)
    with a chance ``eps`` of a random card; keep every decision (see :class:`Games`)."""
    g_n = starts.shape[0]
    most = 0
    for g in range(g_n):
        most += int(starts[g, NH] + starts[g, NH + 1] + starts[g, ND] - starts[g, SP])
    rows = np.empty((most, SIZE), np.int64)
    seats = np.empty(most, np.int64)
    cards = np.empty(most, np.int64)
    game = np.empty(most, np.int64)
    final = np.empty((g_n, 2), np.int64)
    last = np.empty(g_n, np.int64)
    rng = np.empty(1, np.uint64)
    seed_rng(rng, seed)
    buf = np.empty(MAXH, np.int64)
    pos = np.empty(SIZE, np.int64)
    r = 0
    for g in range(g_n):
        pos[:] = starts[g]
        while not is_over(pos):
            s = to_move(pos)
            card = choose_card(pos, policy, eps, rng, buf, judge)
            rows[r] = pos
            seats[r] = s
            cards[r] = card
            game[r] = g
            r += 1
            play_card(pos, card)
        final[g, 0] = pos[PTS]
        final[g, 1] = pos[PTS + 1]
        last[g] = pos[LASTW]
    return rows[:r], seats[:r], cards[:r], game[:r], final, last


def deals(rules: Rules, n: int, seed: int) -> Array:
    """``n`` start positions of ``rules`` from the engine's shuffled deals, dealers in turn."""
    codec = Codec(rules)
    rng = random.Random(seed)
    out = np.empty((n, SIZE), np.int64)
    for g in range(n):
        state = GameState(rules, shuffled_deal(rules, g % rules.players, rng))
        out[g] = codec.from_state(state)
    return out


def play_games(
    rules: Rules,
    n: int,
    seed: int,
    policy: int = COUNTING,
    judge: FArray = COUNTING_JUDGE,
    eps: float = 0.1,
) -> Games:
    """``n`` hands of ``rules`` played out by a playout ``policy`` of the fast core
    (:data:`~briscola.ai.cores.head_to_head.COUNTING` judging by the weights ``judge``,
    with a chance ``eps`` of a random card), each decision recorded."""
    starts = deals(rules, n, seed)
    rows, seats, cards, game, final, last = play_out_recorded(starts, policy, judge, eps, seed)
    return Games(rows, seats, cards, game, final, last)


def deck_ids(rules: Rules) -> list[int]:
    """The fast core's ids of the game's cards."""
    return sorted(Codec(rules).id.values())


@jit
def legal_rows(positions: Array) -> BoolArray:
    """For each position, which card ids the seat to move may play."""
    out = np.zeros((positions.shape[0], 40), np.bool_)
    buf = np.empty(MAXH, np.int64)
    for r in range(positions.shape[0]):
        n = legal_cards(positions[r], buf)
        for k in range(n):
            out[r, buf[k]] = True
    return out


@dataclass
class Rows:
    """What the networks learn from: value rows (a position from each seat) and policy
    rows (the seat to move's view, its legal cards, the card it played)."""

    xv: F32
    yv: F32
    xp: F32
    legal: BoolArray
    chosen: Array

    @staticmethod
    def of(games: Games, rules: Rules) -> Rows:
        deck = deck_mask(deck_ids(rules))
        tie_last = bool(rules.tie_to_last_trick)
        rows = np.arange(games.positions.shape[0])
        both = np.concatenate([rows, rows])
        seats = np.concatenate([games.seats, 1 - games.seats])
        xv = encode_rows(games.positions[both], seats, True, deck)
        yv = np.stack([games.result(both, seats, tie_last), games.margin(both, seats)], 1)
        xp = encode_rows(games.positions, games.seats, False, deck)
        return Rows(xv, yv.astype(np.float32), xp, legal_rows(games.positions), games.cards)

    def joined(self, other: Rows, keep: int) -> Rows:
        """These rows and ``other``'s after them, the latest ``keep`` of each kind kept."""
        return Rows(
            np.concatenate([self.xv, other.xv])[-2 * keep :],
            np.concatenate([self.yv, other.yv])[-2 * keep :],
            np.concatenate([self.xp, other.xp])[-keep:],
            np.concatenate([self.legal, other.legal])[-keep:],
            np.concatenate([self.chosen, other.chosen])[-keep:],
        )
