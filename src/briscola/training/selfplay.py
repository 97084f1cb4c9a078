"""Hands played by computer players (the search, with or without a network), each
decision kept as :class:`~briscola.ai.learned.games.Games` keeps the fast core's: the
targets of expert iteration, where the search with the networks plays the hands the
networks learn from next.

Each seat's player sees only its view; the positions kept are the whole hand as it lies
(the value network learns from every card's place). Deals and players' seeds come from
the seed alone, and the hands are shared out over worker processes in a fixed order, so
the same seed gives the same games whatever the number of workers.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

import numpy as np

from briscola.ai.bot import Bot
from briscola.ai.cores.head_to_head import SIZE, Codec
from briscola.ai.learned.games import Games
from briscola.arena.duplicate import derive
from briscola.engine.actions import Play
from briscola.engine.deal import shuffled_deal
from briscola.engine.house_rules import RuleValue
from briscola.engine.rules import Rules
from briscola.engine.state import OVER, GameState
from briscola.engine.views import seat_view

PlayerMaker = Callable[[int], Bot]
"""Makes a player from its seed (a picklable function, for the worker processes)."""


def play_recorded(
    rules: Rules,
    index: int,
    seed: int,
    make: PlayerMaker,
    record: Callable[[GameState, Play], None],
) -> GameState:
    """Hand ``index`` of ``seed`` (its deal and its players' seeds from those alone), every
    seat played by ``make``'s player; ``record(state, play)`` is called before each card
    play. Returns the finished hand."""
    deal = shuffled_deal(rules, index % rules.players, random.Random(derive(seed, "deal", index)))
    state = GameState(rules, deal)
    bots = [make(derive(seed, "player", index, s)) for s in range(rules.players)]
    for s, bot in enumerate(bots):
        hook = getattr(bot, "new_hand", None)
        if callable(hook):
            hook(seat_view(state, s))
    while state.phase != OVER:
        action = bots[state.turn].choose(seat_view(state, state.turn))
        if isinstance(action, Play):
            record(state, action)
        state.apply(action)
    return state


def play_hands(rules: Rules, first: int, n: int, seed: int, make: PlayerMaker) -> Games:
    """Hands ``first`` to ``first + n`` of ``seed``, every seat played by ``make``'s
    player, each card play recorded."""
    codec = Codec(rules)
    rows: list[np.ndarray] = []
    seats: list[int] = []
    cards: list[int] = []
    game: list[int] = []
    final = np.zeros((n, 2), np.int64)
    last = np.zeros(n, np.int64)
    for g in range(n):

        def record(state: GameState, play: Play, g: int = g) -> None:
            rows.append(codec.from_state(state))
            seats.append(play.seat)
            cards.append(codec.id[play.card])
            game.append(g)

        state = play_recorded(rules, first + g, seed, make, record)
        final[g] = state.seat_points
        last[g] = state.tricks[-1].winner if state.tricks else -1
    positions = np.array(rows, np.int64).reshape(-1, SIZE)
    return Games(
        positions,
        np.array(seats, np.int64),
        np.array(cards, np.int64),
        np.array(game, np.int64),
        final,
        last,
    )


Part = TypeVar("Part")
HandsPlayer = Callable[[Rules, int, int, int, PlayerMaker], Part]
"""Plays hands ``first`` to ``first + n`` of ``seed`` (rules, first, n, seed, make): a
module-level function, for the worker processes."""


def in_chunks(
    play: HandsPlayer[Part],
    rules: Rules,
    first: int,
    n: int,
    seed: int,
    make: PlayerMaker,
    jobs: int = 1,
    chunk: int = 25,
) -> list[Part]:
    """``play`` over hands ``first`` to ``first + n`` in chunks of ``chunk``, shared out
    over ``jobs`` worker processes, the parts in the hands' order: the same for any
    ``jobs``."""
    starts = list(range(first, first + n, chunk))
    sizes = [min(chunk, first + n - s) for s in starts]
    if jobs <= 1:
        return [play(rules, s, k, seed, make) for s, k in zip(starts, sizes, strict=True)]
    table = (rules.key, dict(rules.options))  # (a rule set is made again in each worker)
    with ProcessPoolExecutor(jobs) as pool:
        futures = [
            pool.submit(_in_worker, play, table, s, k, seed, make)
            for s, k in zip(starts, sizes, strict=True)
        ]
        return [f.result() for f in futures]


def _in_worker(
    play: HandsPlayer[Part],
    table: tuple[str, dict[str, RuleValue]],
    first: int,
    n: int,
    seed: int,
    make: PlayerMaker,
) -> Part:
    return play(Rules.make(*table), first, n, seed, make)


def search_games(
    rules: Rules, n: int, seed: int, make: PlayerMaker, jobs: int = 1, chunk: int = 25
) -> Games:
    """``n`` hands played by ``make``'s players, shared out in chunks over ``jobs``
    worker processes; the same games for any ``jobs``."""
    return Games.joined(in_chunks(play_hands, rules, 0, n, seed, make, jobs, chunk))
