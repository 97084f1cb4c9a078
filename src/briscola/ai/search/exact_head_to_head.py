"""Exact values of two-player views by the compiled solver
(:mod:`briscola.ai.cores.head_to_head_solver`): the endgame once the stock is empty
(:func:`solve_view`), where the opponent holds exactly the cards the player has not seen,
and the exact expected value of each card over every world a view allows
(:func:`enumerate_values`), feasible with few cards left to draw.

>>> import random
>>> from briscola.engine import GameState, Rules, seat_view, shuffled_deal
>>> rules = Rules.make("briscola-2")
>>> state = GameState(rules, shuffled_deal(rules, 1, random.Random(4)))
>>> while state.to_draw():
...     _ = state.apply(state.legal_actions()[0])
>>> sol = solve_view(seat_view(state, state.turn), rules)
>>> sol.best in [a.card for a in state.legal_actions()], -120 <= sol.diff <= 120
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from briscola.ai.cores.head_to_head import Array, Codec
from briscola.ai.cores.head_to_head_solver import Solver
from briscola.ai.search.determinize import Sampler, World, rules_for
from briscola.engine.cards import Card
from briscola.engine.rules import Rules
from briscola.engine.views import View


@dataclass(frozen=True)
class Solution:
    """The exact solution of a position for the player to move."""

    best: Card
    """A best card to play."""
    diff: int
    """Final card points of the player's side minus the other side's, with best play."""
    values: dict[Card, int]
    """The final point difference after each legal card."""


def open_position(view: View, rules: Rules) -> tuple[Codec, Array]:
    """The fast position of a two-player view where nothing is hidden any more: the stock
    is empty, so the opponent holds every card the player has not seen."""
    seat = view.seat
    if seat is None or view.stock_size or view.turned is not None or view.players != 2:
        raise ValueError("only a two-player view with the stock run out is an open position")
    seen = set(view.hand)
    for t in view.tricks:
        seen.update(t.cards)
    seen.update(c for _, c in view.trick)
    removed = [r for r in rules.removals if not (r & seen)]
    out = removed[0] if removed else frozenset()
    opponent = [c for c in rules.deck if c not in seen and c not in out]
    if len(opponent) != view.hand_sizes[1 - seat]:
        raise ValueError("the view does not fit the rules: the opponent's hand is not the rest")
    codec = Codec(rules)
    return codec, codec.from_view(view, opponent, (), None)


def solve_view(view: View, rules: Rules | None = None, solver: Solver | None = None) -> Solution:
    """Solve a two-player position once the stock is empty: the best card for the player to
    move and the exact final point difference (this seat minus the other) with best play."""
    rules = rules_for(view, rules)
    codec, pos = open_position(view, rules)
    seat = view.seat
    assert seat is not None
    if view.to_act != seat:
        raise ValueError("it is not this seat's turn")
    mv, vals = (solver or Solver(0)).values(pos)
    values = {}
    for c, v in zip(mv, vals, strict=True):
        mine = v if seat == 0 else 120 - v
        total = sum(rules.points[c] for c in rules.deck)
        values[codec.card[c]] = 2 * mine - total
    best = max(values, key=lambda c: values[c])
    return Solution(best, values[best], values)


# ---------------------------------------------------------------------------- enumeration


def world_position(codec: Codec, view: View, world: World) -> Array:
    """The fast position of a two-player view in one world of its hidden cards."""
    seat = view.seat
    assert seat is not None
    return codec.from_view(view, world.hands[1 - seat], world.stock, world.turned)


def enumerate_values(
    view: View,
    rules: Rules | None = None,
    solver: Solver | None = None,
    max_worlds: int = 20_000,
) -> dict[Card, float]:
    """For each card the two-player ``view`` may play, its side's final card points averaged
    over every world the view allows (every split of the unseen cards between the
    opponent's hand and the stock, in every order of the stock), each world solved
    exactly. Feasible with few cards left to draw: 4 worlds with one face-down card,
    120 with three, 6 720 with five.

    :raises ValueError: when the view allows more than ``max_worlds`` worlds.
    """
    rules = rules_for(view, rules)
    seat = view.seat
    if seat is None or view.players != 2 or view.to_act != seat:
        raise ValueError("enumerate_values needs the view of a two-player seat to play")
    sampler = Sampler(view, rules)
    count = sampler.count()
    if count > max_worlds:
        raise ValueError(f"the view allows {count} worlds, more than {max_worlds}")
    codec = Codec(rules)
    solver = solver or Solver(0)
    totals: dict[int, int] = {}
    for world in sampler.worlds():
        mv, vals = solver.values(world_position(codec, view, world))
        for c, v in zip(mv, vals, strict=True):
            totals[c] = totals.get(c, 0) + (v if seat == 0 else 120 - v)
    return {codec.card[c]: t / count for c, t in totals.items()}
