"""Views: what one seat (or a spectator) may know, built by copying only that.

A view is never made by deleting secrets from the state: each field below is
copied in on purpose, from what a player in that seat sees at a real table. It
is all a person, a bot or a socket ever gets.

>>> import random
>>> from briscola.engine.rules import Rules
>>> from briscola.engine.deal import shuffled_deal
>>> from briscola.engine.state import GameState
>>> rules = Rules.make("briscola-2")
>>> state = GameState(rules, shuffled_deal(rules, dealer=1, rng=random.Random(3)))
>>> view = seat_view(state, 0)
>>> len(view.hand), view.to_act, len(view.legal), view.stock_size
(3, 0, 3, 33)
>>> spectator_view(state).hand
()

A view travels as JSON and comes back the same, so a computer player can run in another
process; :func:`match_view` adds where the match stands:

>>> View.from_json(view.to_json()) == view
True
"""

from __future__ import annotations

from typing import Any

from briscola.engine.cards import Card
from briscola.engine.errors import MalformedError, shown
from briscola.engine.match import Match
from briscola.engine.state import GameState
from briscola.engine.view_types import AuctionView, MatchView, TrickView, View

__all__ = [
    "AuctionView",
    "MatchView",
    "TrickView",
    "View",
    "match_view",
    "seat_view",
    "spectator_view",
]


def seat_view(state: GameState, seat: int) -> View:
    """What ``seat`` may know now, with its legal actions.

    :raises MalformedError: when ``state`` is not a hand or the table has no such seat.
    """
    _check_state(state, "seat_view")
    _check_seat(state, seat, "seat_view", "use spectator_view(state)")
    return _build(state, seat)


def match_view(match: Match, seat: int | None, hand: GameState | None = None) -> View:
    """What ``seat`` (``None``: a spectator) may know of the match's hand in play, with the
    hand's number and where the match stands. ``hand``: an earlier position of the hand in
    play to show instead of the hand as it stands (the match stands where it does: it
    changes only as hands end).

    :raises MalformedError: when ``match`` is no match, ``hand`` no hand, or the table has
        no such seat.
    """
    if not isinstance(match, Match):
        raise MalformedError(f"match_view: expected a Match, got {shown(match)}")
    state = match.hand
    if hand is not None:
        _check_state(hand, "match_view")
        state = hand
    if seat is not None:
        _check_seat(state, seat, "match_view", "None")
    result = match.result()
    context = MatchView(
        target=match.rules.target_rule,
        hands_won=result.hands_won,
        totals=result.totals,
        scores=result.scores,
        seating=match.seating,
        over=result.over,
        winners=result.winners,
    )
    return _build(state, seat, hand_number=match.number, match=context)


def spectator_view(state: GameState) -> View:
    """What someone watching the table, holding no cards, may know now."""
    _check_state(state, "spectator_view")
    return _build(state, None)


def _check_state(state: object, where: str) -> None:
    if not isinstance(state, GameState):
        raise MalformedError(
            f"{where}: expected a hand (a GameState; a Match's is match.hand), got {shown(state)}"
        )


def _check_seat(state: GameState, seat: object, where: str, watching: str) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
        raise MalformedError(
            f"{where}: there is no seat {shown(seat)} at this table: give a seat from 0 to "
            f"{state.n - 1}, or {watching} for someone watching"
        )


def _build(state: GameState, seat: int | None, **match: Any) -> View:
    """The view of ``state`` from ``seat``; ``match``: a match's ``hand_number`` and
    ``match`` fields."""
    rules = state.rules
    game = rules.game
    extra: dict[str, Any] = {}
    sees: set[int] = set()
    unseen = 0
    for addon in state.addons:
        extra.update(addon.view(state, seat))
        unseen += addon.unseen_moves(state, seat)
        if seat is not None:
            sees |= addon.sees(state, seat)
    visible: dict[int, tuple[Card, ...]] = {}
    for other in range(state.n):
        if other == seat:
            continue
        if (
            game.open_hands
            or other in sees
            or (state.shown and seat is not None and rules.side_of[other] == rules.side_of[seat])
        ):
            visible[other] = tuple(state.hands[other])
    known = {
        s: tuple(sorted(cards))
        for s, cards in enumerate(state.known)
        if cards and s != seat and s not in visible
    }
    stock_top = None
    if game.open_hands and state.stock_size > 0:
        stock_top = state.pile[-1]
    show_last = rules.last_trick_allowed
    tricks, carichi = state.taken()
    over = state.over
    to_act = None if over else state.turn
    return View(
        game=rules.key,
        seat=seat,
        players=state.n,
        sides=state.sides,
        dealer=state.deal.dealer,
        direction=rules.direction,
        phase=state.phase,
        to_act=to_act,
        hand=() if seat is None else tuple(state.hands[seat]),
        hand_sizes=tuple(len(h) for h in state.hands),
        visible_hands=visible,
        known_cards=known,
        trump=state.trump,
        turned=state.turned,
        stock_size=state.stock_size,
        stock_top=stock_top,
        trick=tuple(zip(state.order, state.trick, strict=False)),
        trick_order=tuple(state.order) if not over else (),
        tricks=tricks,
        last_trick=tricks[-1] if show_last and tricks else None,
        points=tuple(state.points),
        winners=state.winners(),
        carichi=carichi,
        rules=dict(rules.options),
        legal=tuple(state.legal_actions()) if seat is not None and seat == to_act else (),
        move_number=len(state.moves) - unseen,
        **extra,
        **match,
    )
