"""Exact search over reference engine states, for any game of the family.

Where every card is known (a determinized world, or the end of a head-to-head hand) the
rest of a hand is a game of perfect information, and plain alpha-beta over the card plays
of a :class:`~briscola.engine.state.GameState` solves it: teams, three to six players,
two cards each to a trick, following suit, chiamata's hidden partner made known.
:func:`solve_state` and :func:`state_values` give the best final points of a seat's side;
:func:`search_state` searches for any value of the finished hand. It is slow but general,
and free of numba: the intermediate bot plays the end of a head-to-head hand with it
(:func:`best_play`), and the search bots solve the last trick or two of the bigger games.
For speed the two-player games have the compiled solver in
:mod:`briscola.ai.cores.head_to_head_solver`.

Values are card points of a side at the end of the hand, with best play on both sides
(each side maximizing its own points).

>>> import random
>>> from briscola.engine import GameState, Rules, seat_view, shuffled_deal
>>> rules = Rules.make("briscola-2")
>>> state = GameState(rules, shuffled_deal(rules, 1, random.Random(4)))
>>> while len(state.hands[state.turn]) > 3 or state.to_draw():
...     _ = state.apply(state.legal_actions()[0])
>>> card = best_play(seat_view(state, state.turn))
>>> values = state_values(state, state.turn)
>>> values[card] == max(values.values()), solve_state(state, 0) + solve_state(state, 1)
(True, 120)
"""

from __future__ import annotations

import math
from collections.abc import Callable

from briscola.ai.search.determinize import Sampler, World, rebuild_state, rules_for
from briscola.engine.actions import Play
from briscola.engine.cards import Card
from briscola.engine.rules import Rules
from briscola.engine.state import GameState
from briscola.engine.views import View

MAX_CARDS = 3
"""The intermediate bot searches the end of a hand only when each player holds at most
this many cards: the last three tricks of the one-card games (each card more costs far
more than the rest of the bot's move: ``benchmarks/README.md``)."""


# ---------------------------------------------------------------------------- the engine


def side_of_seat(state: GameState, seat: int) -> frozenset[int]:
    """The seats whose points count with ``seat``'s in this state: its side, and in chiamata
    the caller and the holder of the called card (known in a determinized world)."""
    contract = state.contract()
    if contract is not None:
        team = frozenset(contract[0])
        return team if seat in team else frozenset(range(state.n)) - team
    rules = state.rules
    return frozenset(rules.sides[rules.side_of[seat]])


def solve_state(state: GameState, seat: int) -> int:
    """The final card points of ``seat``'s side with best play by everyone from a reference
    engine state where all is known (a determinized world): ``seat``'s side maximizes its
    points, the others minimize them. Only card plays are searched (no talk, no exchange).
    Slow: meant for the last trick or two of the bigger games."""
    side = side_of_seat(state, seat)
    return int(search_state(state, side, lambda s: side_points(s, side), -1.0, 121.0, [0]))


def side_points(state: GameState, side: frozenset[int]) -> int:
    return sum(state.seat_points[s] for s in side)


def search_state(
    state: GameState,
    side: frozenset[int],
    value: Callable[[GameState], float],
    alpha: float,
    beta: float,
    nodes: list[int],
) -> float:
    """Alpha-beta over card plays: ``value`` of the finished hand, maximized by the seats
    of ``side`` and minimized by the others. ``nodes[0]`` counts the states visited."""
    nodes[0] += 1
    if state.over:
        return value(state)
    plays = [a for a in state.legal_actions() if isinstance(a, Play)]
    maximize = state.turn in side
    best = -math.inf if maximize else math.inf
    for a in plays:
        child = state.copy()
        child.apply(a)
        v = search_state(child, side, value, alpha, beta, nodes)
        if maximize:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


def state_values(
    state: GameState,
    seat: int,
    value: Callable[[GameState], float] | None = None,
    nodes: list[int] | None = None,
) -> dict[Card, float]:
    """For each card ``seat`` (to move) may play, the ``value`` of the hand with best play
    after it (by default its side's final points)."""
    side = side_of_seat(state, seat)
    fn = value if value is not None else (lambda s: float(side_points(s, side)))
    count = nodes if nodes is not None else [0]
    out = {}
    for a in state.legal_actions():
        if isinstance(a, Play):
            child = state.copy()
            child.apply(a)
            out[a.card] = search_state(child, side, fn, -math.inf, math.inf, count)
    return out


# ---------------------------------------------------------------------------- a view


def known_world(view: View, rules: Rules) -> World | None:
    """The one world a view allows, when nothing is hidden from it, else ``None``: every
    card is in sight or its place follows from the rest (the stock is empty and the
    opponents hold exactly the cards not yet seen). A card of the deck unaccounted for
    (one out of the deck that the rules do not name) leaves it uncertain."""
    try:
        sampler = Sampler(view, rules)
    except ValueError:
        return None  # the view does not fit the rules
    if sampler.count() != 1:
        return None
    removed = sampler.removals[0]
    if removed and removed not in rules.removals:
        return None  # the sampler guessed which card is out of the deck
    return next(sampler.worlds())


def best_play(view: View, rules: Rules | None = None) -> Card | None:
    """The card to play by exact search at the end of a two-player hand, or ``None`` when
    the position is not known exactly (something is still hidden) or too large to search.

    The card keeps the most final points for the seat; of cards worth the same, the
    cheapest: fewest points, then lowest, a plain card before a trump. ``rules`` default
    to the table's house rules the view carries (or those its play gives away)."""
    seat = view.seat
    if (
        seat is None
        or view.players != 2
        or view.to_act != seat
        or view.stock_size > 0
        or view.turned is not None
        or max(view.hand_sizes) > MAX_CARDS
        or not view.hand
    ):
        return None
    if rules is None:
        rules = rules_for(view)
    world = known_world(view, rules)
    if world is None:
        return None
    state = rebuild_state(view, world, rules)
    trump = view.trump
    plays = sorted(
        (a for a in state.legal_actions() if isinstance(a, Play)),
        key=lambda a: (
            rules.points[a.card],
            rules.strength[a.card],
            a.card.suit is trump,
            a.card.index,
        ),
    )
    side = side_of_seat(state, seat)

    def points(s: GameState) -> float:
        return side_points(s, side)

    # Cheapest first, each card searched only for more than the best so far (a card worth
    # no more fails low, often after a line or two): the first of the best is the cheapest.
    best_card: Card | None = None
    best = -math.inf
    nodes = [0]
    for a in plays:
        child = state.copy()
        child.apply(a)
        value = search_state(child, side, points, best, math.inf, nodes)
        if value > best:
            best, best_card = value, a.card
    return best_card
