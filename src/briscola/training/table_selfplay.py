"""Hands of the table games played by computer players (the search, with or without a
value network), kept as :class:`~briscola.ai.learned.table_hands.Hands` keeps the table
core's: the targets of expert iteration for the table games.

Each seat's player sees only its view; the positions kept are the whole hand as it lies.
Deals and players' seeds come from the seed and the hand's number alone, so the same
hands are played however they are shared out over worker processes.

>>> from briscola.ai import make_bot
>>> from briscola.engine.rules import Rules
>>> beginner = lambda seed: make_bot("beginner", seed=seed)
>>> hands = play_hands(Rules.make("briscola-4"), 0, 2, 1, beginner, keep=3)
>>> hands.positions.shape[0], sorted(set(hands.won.ravel().tolist())) in ([0.0, 1.0], [0.5])
(6, True)
"""

from __future__ import annotations

import random
from functools import partial

import numpy as np

from briscola.ai.cores.head_to_head import Codec
from briscola.ai.cores.table_games import MAXP, SIZE, from_state
from briscola.ai.learned.table_hands import Hands
from briscola.arena.duplicate import derive
from briscola.engine.actions import Play
from briscola.engine.rules import Rules
from briscola.engine.state import GameState
from briscola.training.selfplay import PlayerMaker, in_chunks, play_recorded


def play_hands(
    rules: Rules, first: int, n: int, seed: int, make: PlayerMaker, keep: int = 8
) -> Hands:
    """Hands ``first`` to ``first + n`` of ``seed``, every seat played by ``make``'s
    player; ``keep`` of each hand's card plays kept at random (the position before it,
    and the card played)."""
    codec = Codec(rules)
    rows: list[np.ndarray] = []
    hand: list[int] = []
    chosen: list[int] = []
    won = np.zeros((n, MAXP), np.float32)
    points = np.zeros((n, MAXP), np.int64)
    for g in range(n):
        index = first + g
        seen: list[tuple[np.ndarray, int]] = []

        def record(state: GameState, play: Play, seen: list[tuple[np.ndarray, int]] = seen) -> None:
            seen.append((from_state(state, codec), codec.id[play.card]))

        state = play_recorded(rules, index, seed, make, record)
        picks = random.Random(derive(seed, "keep", index)).sample(range(len(seen)), keep)
        rows.extend(seen[i][0] for i in sorted(picks))
        chosen.extend(seen[i][1] for i in sorted(picks))
        hand.extend([g] * keep)
        winners = state.winners()
        for s in range(rules.players):
            won[g, s] = 1.0 if s in winners else 0.5 if not winners else 0.0
            side = state.side_of[s]
            points[g, s] = sum(
                state.seat_points[t] for t in range(rules.players) if state.side_of[t] == side
            )
    positions = np.array(rows, np.int64).reshape(-1, SIZE).astype(np.int8)
    return Hands(positions, np.array(hand, np.int64), won, points, np.array(chosen, np.int64))


def joined(parts: list[Hands]) -> Hands:
    """The hands of ``parts``, one after another."""
    offsets = np.cumsum([0] + [p.won.shape[0] for p in parts[:-1]])
    return Hands(
        np.concatenate([p.positions for p in parts]),
        np.concatenate([p.hand + k for p, k in zip(parts, offsets, strict=True)]),
        np.concatenate([p.won for p in parts]),
        np.concatenate([p.points for p in parts]),
        np.concatenate([p.cards for p in parts]),
    )


def search_hands(
    rules: Rules,
    first: int,
    n: int,
    seed: int,
    make: PlayerMaker,
    jobs: int = 1,
    chunk: int = 10,
    keep: int = 8,
) -> Hands:
    """Hands ``first`` to ``first + n``, ``keep`` positions of each, shared out in chunks
    over ``jobs`` worker processes; the same hands for any ``jobs``."""
    play = partial(play_hands, keep=keep)
    return joined(in_chunks(play, rules, first, n, seed, make, jobs, chunk))
