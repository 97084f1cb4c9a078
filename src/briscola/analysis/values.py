"""What each choice of a decision is worth, from what the deciding seat knew then.

A choice's value is the **card points its seat's side takes from the decision to the end
of the hand** (the trick on the table included), had it made that choice and everyone
then played well: the side's points at the hand's end, averaged over the worlds its view
allows, less the points it held as it decided. Everything is read from the seat's view
(:func:`~briscola.engine.views.seat_view`), never from the cards it could not see:

- **Nothing hidden** (two players once the stock is out, Briscola scoperta's open end, any
  view whose unseen cards are all accounted for): the one world is solved exactly, both
  sides playing to take the most points (:func:`~briscola.ai.search.exact_endgame.state_values`).
  These values are *exact*.
- **The last tricks** (the stock out and few orders of play left): every world the view
  allows is listed when there are few (else :data:`ENDING_WORLDS` are sampled), and each
  is solved exactly; the worlds count alike.
- **Two players, earlier**: the ``strong`` or ``champion`` search's own evaluation
  (:func:`~briscola.ai.search.pimc.head_to_head`): worlds weighed by how well they explain
  the opponent's plays so far, played out by the search's playout policies, their last
  tricks solved exactly; its mean final points.
- **Three to six players, earlier**: the search's table-game playouts
  (:func:`~briscola.ai.search.players.engine_values`), their mean final points.

A trump exchange is worth the best of the cards the seat may then play, valued from its
view after the exchange. Other decisions (partner talk, bids, a call, a look) are valued
by :mod:`briscola.analysis.talk`.

**With every card seen** (:func:`open_values`, the analysis's other values, never mixed
with the first): the same search in the one world the cards lie in. Solved exactly once
few orders of play are left, the draws included (the last draws of two players); before
that, that world played out as often as the search plays out its sampled worlds.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from briscola.ai.search.config import CHAMPION, STRONG, SearchConfig
from briscola.ai.search.determinize import Sampler, World, rebuild_state, rules_for
from briscola.ai.search.exact_endgame import known_world, side_of_seat, side_points, state_values
from briscola.engine.actions import Action, Exchange, Play
from briscola.engine.cards import Card
from briscola.engine.rules import Rules
from briscola.engine.state import GameState
from briscola.engine.views import View, seat_view

LEVELS: dict[str, SearchConfig] = {
    "strong": replace(
        STRONG,
        worlds=512,
        table_worlds=600,
        value_net=None,
        leaf_tricks=0,
        policy_net=None,
        table_value_net=None,
    ),
    "champion": replace(CHAMPION, min_worlds=0),
}
"""The searches an analysis may use, by level: the search players' own settings (but the
learned networks: the analysis still plays its worlds out, and weighs them by the
card-counting policy), with more worlds for ``strong``
(its values' noise, measured in benchmarks/README.md, stays under the
:data:`~briscola.analysis.marks.INACCURACY` threshold) and no early stopping for
``champion`` (which would leave the cards it gave up on valued from fewer worlds)."""

ENDING_ORDERS = 64
"""The last tricks are solved exactly in every world once the stock is out and the hands
left allow at most this many orders of play (the product over the seats of their hand
size's factorial): the last two tricks at four seats, the last three at two."""

ENDING_WORLDS = 64
"""The most worlds of the last tricks solved; more are sampled down to this many."""

EXACT_ORDERS = 20_000
"""A view with nothing hidden is solved exactly up to this many orders of play."""


@dataclass(frozen=True)
class Values:
    """The values of a decision's choices."""

    points: dict[Action, float]
    """Each choice's expected card points for the seat's side, from the decision to the
    end of the hand."""
    exact: bool
    """Whether nothing was hidden from the seat: the values are exact."""
    worlds: int
    """How many worlds were solved or played out (1 when exact; the search's own count
    for a sampled search)."""


def orders(view: View) -> int:
    return math.prod(math.factorial(n) for n in view.hand_sizes)


def choice_values(
    state: GameState, seat: int, config: SearchConfig, seed: int, tt: object = None
) -> Values:
    """The values of the choices ``seat`` (to act in ``state``) has: its card plays and
    trump exchanges, each from ``seat``'s view alone (this module's documentation).
    ``tt`` is a transposition table of the two-player search to keep between calls."""
    return _values(state, seat, config, seed, tt, seen=False)


def open_values(
    state: GameState, seat: int, config: SearchConfig, seed: int, tt: object = None
) -> Values:
    """The values of the same choices with every card seen: in the world the cards of
    ``state`` lie in (this module's documentation)."""
    return _values(state, seat, config, seed, tt, seen=True)


def _values(
    state: GameState, seat: int, config: SearchConfig, seed: int, tt: object, seen: bool
) -> Values:
    view = seat_view(state, seat)
    rules = rules_for(view)
    plays = [a for a in view.legal if isinstance(a, Play)]
    cards = [p.card for p in plays]
    if seen:
        truth = world_of(state)
        values = open_card_values(view, rules, truth, cards, config, seed, tt)
        rebuilt = rebuild_state(view, truth, rules)
        now = float(side_points(rebuilt, side_of_seat(rebuilt, seat)))
    else:
        values = card_values(view, rules, cards, config, seed, tt)
        now = points_now(state, view, rules, seed)
    out: dict[Action, float] = {p: values.points[p.card] - now for p in plays}
    exact, worlds = values.exact, values.worlds
    for a in view.legal:
        if isinstance(a, Exchange):
            after = state.copy()
            after.apply(a)
            then = _values(after, seat, config, seed, tt, seen)
            out[a] = max(then.points.values())
            exact = exact and then.exact
    return Values(out, exact, worlds)


def plays_for_points(view: View, rules: Rules) -> bool:
    """Whether the strong player plays ``view``'s hand for its card points rather than to
    win it: head to head in a match to a points target (Briscolone's 121), where every
    point counts (:func:`~briscola.ai.search.pimc.utility_params`); elsewhere it plays to
    win the hand, a point margin only breaking near ties."""
    from briscola.ai.cores import head_to_head as fast

    return view.players == 2 and fast.supports(rules) and rules.target[0] == "points"


def win_chances(
    state: GameState, seat: int, config: SearchConfig, seed: int
) -> dict[Action, float]:
    """Each choice of ``seat`` (to act in ``state``: its card plays and trump exchanges)
    with the chance its side then wins the hand (a tie counting half), from its view
    alone: the strong player's own search (its worlds and playouts, solved exactly where
    it solves them) scoring a hand's result alone, no point margin. An exchange: the best
    chance of the cards the seat may then play."""
    view = seat_view(state, seat)
    rules = rules_for(view)
    plays = [a for a in view.legal if isinstance(a, Play)]
    cards = [p.card for p in plays]
    pure = replace(config, margin=0.0)
    from briscola.ai.cores import head_to_head as fast

    if view.players == 2 and fast.supports(rules):
        from briscola.ai.search.pimc import head_to_head

        found = head_to_head(view, rules, pure, seed)
    else:
        from briscola.ai.search.players import engine_values

        found = engine_values(view, rules, pure, cards, seed)
    out: dict[Action, float] = {p: min(1.0, max(0.0, float(found[p.card][0]))) for p in plays}
    for a in view.legal:
        if isinstance(a, Exchange):
            after = state.copy()
            after.apply(a)
            out[a] = max(win_chances(after, seat, config, seed).values())
    return out


def world_of(state: GameState) -> World:
    """The world the cards of ``state`` lie in: every hand, the stock in its order, the
    cards out of the deck and, in chiamata, the partner."""
    from briscola.engine.chiamata import Chiamata

    p = state.position()
    dealt = {c for h in state.deal.hands for c in h} | set(state.deal.stock)
    if state.deal.trump is not None:
        dealt.add(state.deal.trump)
    partner = next((a.partner for a in state.addons if isinstance(a, Chiamata)), None)
    removed = frozenset(c for c in state.rules.deck if c not in dealt)
    return World(p.hands, p.stock, p.turned, removed, partner)


def open_orders(view: View, rules: Rules) -> int:
    """The orders of play left with every card seen, the draws included (each trick
    while cards are drawn is played from full hands), or more than :data:`EXACT_ORDERS`
    where a trump exchange may still come (the exact search plays cards alone)."""
    to_draw = view.stock_size + (view.turned is not None)
    if to_draw and rules.exchange != "none":
        return EXACT_ORDERS + 1
    full = math.prod(view.hand_sizes)
    return int(full ** (to_draw // view.players)) * orders(view)


def open_card_values(
    view: View,
    rules: Rules,
    truth: World,
    cards: list[Card],
    config: SearchConfig,
    seed: int,
    tt: object = None,
) -> CardValues:
    """The seat's side's final points after each of ``cards`` with every card seen: the
    world ``truth`` solved exactly when few orders of play are left (:func:`open_orders`),
    else played out by the search."""
    seat = view.seat
    assert seat is not None
    if open_orders(view, rules) <= EXACT_ORDERS:
        return CardValues(solved(view, rules, truth, seat, cards), True, 1)
    from briscola.ai.cores import head_to_head as fast

    if view.players == 2 and fast.supports(rules):
        from briscola.ai.search.pimc import head_to_head

        found = head_to_head(view, rules, config, seed, tt, truth)  # type: ignore[arg-type]
        return CardValues({c: float(found[c][1]) for c in cards}, False, config.worlds)
    from briscola.ai.search.players import engine_values

    playouts = replace(config, table_exact=-1, table_net_exact=-1, exact_tricks=0)
    found = engine_values(view, rules, playouts, cards, seed, truth)
    return CardValues({c: float(found[c][1]) for c in cards}, False, config.table_worlds)


@dataclass(frozen=True)
class CardValues:
    points: dict[Card, float]
    """Each card's mean final points for the seat's side."""
    exact: bool
    worlds: int


def card_values(
    view: View,
    rules: Rules,
    cards: list[Card],
    config: SearchConfig,
    seed: int,
    tt: object = None,
) -> CardValues:
    """The seat's side's mean final points after each of ``cards`` (this module's
    documentation: exact, the last tricks solved, or the search's playouts)."""
    seat = view.seat
    assert seat is not None
    stock_out = view.stock_size == 0 and view.turned is None
    if orders(view) <= EXACT_ORDERS and (world := known_world(view, rules)) is not None:
        return CardValues(solved(view, rules, world, seat, cards), True, 1)
    if stock_out and orders(view) <= ENDING_ORDERS:
        sampler = Sampler(view, rules)
        if sampler.count() <= ENDING_WORLDS:
            worlds = list(sampler.worlds())
        else:
            rng = random.Random(seed)
            worlds = [sampler.sample(rng) for _ in range(ENDING_WORLDS)]
        sums = dict.fromkeys(cards, 0.0)
        for world in worlds:
            for card, v in solved(view, rules, world, seat, cards).items():
                sums[card] += v
        return CardValues({c: v / len(worlds) for c, v in sums.items()}, False, len(worlds))
    from briscola.ai.cores import head_to_head as fast

    if view.players == 2 and fast.supports(rules):
        from briscola.ai.search.pimc import head_to_head

        found = head_to_head(view, rules, config, seed, tt)  # type: ignore[arg-type]
        return CardValues({c: float(found[c][1]) for c in cards}, False, config.worlds)
    from briscola.ai.search.players import engine_values

    # (playouts to the end, whose points count: the table core's exact ending scores
    # results alone)
    playouts = replace(config, table_exact=-1, table_net_exact=-1, exact_tricks=0)
    found = engine_values(view, rules, playouts, cards, seed)
    return CardValues({c: float(found[c][1]) for c in cards}, False, config.table_worlds)


def solved(
    view: View, rules: Rules, world: World, seat: int, cards: list[Card]
) -> dict[Card, float]:
    """The seat's side's final points after each of ``cards`` in one world, with best
    play by every seat after it."""
    state = rebuild_state(view, world, rules)
    found = state_values(state, seat)
    return {c: found[c] for c in cards}


def points_now(state: GameState, view: View, rules: Rules, seed: int) -> float:
    """The card points ``view``'s seat's side holds as it decides: its side's, or in
    chiamata while the seat does not know its partner, the mean over the partners its
    view allows. (Who took each trick is public; ``state`` is read for that alone.)"""
    seat = view.seat
    assert seat is not None
    if view.auction is None or view.auction.caller is None:
        return float(side_points(state, side_of_seat(state, seat)))
    sampler = Sampler(view, rules)
    rng = random.Random(seed)
    caller = view.auction.caller
    total = 0.0
    n = 64
    for _ in range(n):
        partner = sampler.sample(rng).partner
        team = {caller} if partner is None else {caller, partner}
        side = team if seat in team else set(range(view.players)) - team
        total += sum(state.seat_points[s] for s in side)
    return total / n
