"""What each choice of a decision that is not a card play is worth: partner talk (a
signal, a question, an order, the rais's look and the end of its talk) and chiamata's
bids and call.

The search players value cards in worlds where every card lies open to the playouts, so
talk, which only tells a partner what it cannot see, is worth nothing there. These
choices are valued instead by **playouts by players who read the table as a person
does**: worlds are sampled that agree with the deciding seat's view (as the card values'
are), the choice is made in each, and the hand is played out to its end by the
``intermediate`` computer player in every seat, each seeing only its own view: it bids
and calls from its hand, and reads its partners' signals, answers and orders. A choice's
value is the deciding seat's side's mean card points at the end, less those it held as
it decided, as for a card. Every choice is played out in the same worlds by players
with the same seeds, so the values differ by what the choice changed.

A talk decision is about what to say, not which card to play: after each choice the seat
goes on as it did (its next moves in the record, those still legal), so the choices
differ in what was said alone. Saying nothing more is one of them: the card the seat
went on to play, played at once. Of an auction's bids, the lowest that outbids the last
and the one made are valued with the pass: a higher bid than the lowest differs from it
in how far the seat jumps.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from briscola.ai.search.determinize import OneWorld, Sampler, rules_for, world_position
from briscola.ai.search.exact_endgame import side_of_seat, side_points
from briscola.analysis.values import Values, points_now, world_of
from briscola.engine.actions import (
    Action,
    Ask,
    Bid,
    Call,
    EndTalk,
    Look,
    Order,
    Pass,
    Play,
    Signal,
)
from briscola.engine.addons import make_addons
from briscola.engine.rules import Rules
from briscola.engine.state import GameState
from briscola.engine.talk import TableTalk, TalkPart
from briscola.engine.views import seat_view

TALK = (Signal, Ask, Order, Look, EndTalk, Bid, Pass, Call)
"""The decisions valued here."""

PLAYER = "intermediate"
"""The computer player that plays the hand out after each choice, in every seat."""


def talk_choices(state: GameState, seat: int, made: Action, then: Sequence[Action]) -> list[Action]:
    """The choices of the decision ``made`` was (a talk, a bid or a call), ``then`` being
    the seat's own next moves in the record (until another seat acts): every talk legal
    then, and saying nothing more, which is the card the seat went on to play (when it
    may play now); of the auction's bids, the pass, the lowest bid and the bid made."""
    legal = list(seat_view(state, seat).legal)
    if any(isinstance(a, Bid) for a in legal):
        bids = [a for a in legal if isinstance(a, Bid)]
        keep: list[Action] = [a for a in legal if isinstance(a, Pass)]
        keep += bids[:1]
        if isinstance(made, Bid) and made not in keep:
            keep.append(made)
        return keep
    out: list[Action] = [a for a in legal if isinstance(a, TALK)]
    card = next((a for a in then if isinstance(a, Play)), None)
    if card is not None and card in legal:
        out.append(card)
    return out


def asked(move: Action) -> Action:
    """The move as the seat chose it: a signal without the seats the engine drew to
    spot it."""
    return replace(move, spotted=None) if isinstance(move, Signal) else move


def talk_values(
    state: GameState,
    seat: int,
    choices: Sequence[Action],
    then: Sequence[Action],
    worlds: int,
    seed: int,
    seen: bool = False,
) -> Values:
    """The values of ``choices`` for ``seat`` (to act in ``state``): its side's mean card
    points from the decision to the end of the hand, over ``worlds`` worlds its view
    allows, the seat going on with its moves ``then`` (those still legal) and everyone
    then played by view-reading players (this module's documentation); with ``seen``,
    every card seen: the world the cards of ``state`` lie in, played out ``worlds``
    times."""
    view = seat_view(state, seat)
    rules = rules_for(view)
    rng = random.Random(seed)
    if seen:
        sampler: Sampler | OneWorld = OneWorld(world_of(state))
        now = float(side_points(state, side_of_seat(state, seat)))
    else:
        sampler = Sampler(view, rules)
        now = points_now(state, view, rules, seed)
    sums = dict.fromkeys(choices, 0.0)
    for _ in range(worlds):
        world = sampler.sample(rng)
        position = world_position(view, world, rules)
        start = GameState.from_position(
            rules, replace(position, addons=talking(position.addons, rules))
        )
        bots = rng.getrandbits(32)
        for choice in choices:
            played = start.copy()
            played.apply(choice)
            go_on(played, seat, then)
            play_out(played, bots)
            sums[choice] += side_points(played, side_of_seat(played, seat))
    return Values({a: v / worlds - now for a, v in sums.items()}, False, worlds)


def go_on(state: GameState, seat: int, then: Sequence[Action]) -> None:
    """The seat's moves ``then``, while it is its turn, each that is legal (a signal
    without its spotters)."""
    for move in then:
        if state.over or state.turn != seat:
            return
        move = asked(move)
        if move in state.legal_actions():
            state.apply(move)


def talking(parts: tuple[object, ...], rules: Rules) -> tuple[object, ...]:
    """A position's add-on parts with the rais talking before the leads to come, as at the
    table (a search's positions leave them out: it plays cards only)."""
    out = []
    for part, fresh in zip(parts, make_addons(rules), strict=True):
        if isinstance(part, TalkPart) and isinstance(fresh, TableTalk):
            part = replace(part, before_leads=fresh.windows)
        out.append(part)
    return tuple(out)


def play_out(state: GameState, seed: int) -> None:
    """Play ``state`` to the end of its hand with :data:`PLAYER` in every seat, seat
    ``s``'s seeded ``seed + s``."""
    from briscola.ai import make_bot

    bots = [make_bot(PLAYER, seed=seed + s) for s in range(state.n)]
    while not state.over:
        seat = state.turn
        state.apply(bots[seat].choose(seat_view(state, seat)))
