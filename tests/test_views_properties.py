"""Hidden information, as properties: a seat's view depends only on what the seat may know
(non-interference), and holds no card the seat was not shown by its events (no leak)."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from briscola.engine import (
    Card,
    Deal,
    GameState,
    IllegalActionError,
    Rules,
    View,
    seat_view,
    spectator_view,
    visible,
)
from briscola.engine.actions import Decline
from briscola.engine.events import CardDrawn, Event
from helpers import card, config_id, new_state, play, play_out, random_state
from test_conformance import CONFIGS

PROPERTY_SETTINGS = settings(
    max_examples=1500,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)


def view_of(state: GameState, seat: int | None) -> View:
    return spectator_view(state) if seat is None else seat_view(state, seat)


def unseen_by(state: GameState, seat: int | None) -> list[Card]:
    """The cards ``seat`` cannot see now: other seats' cards that are not in its view, and
    the face-down stock but for a face-up top card."""
    view = view_of(state, seat)
    seen = set(view.hand)
    for cs in (*view.visible_hands.values(), *view.known_cards.values()):
        seen.update(cs)
    out = [c for s in range(state.n) if s != seat for c in state.hands[s] if c not in seen]
    face_down = state.pile[1:] if state.turned is not None else state.pile
    out.extend(c for c in face_down if c is not view.stock_top)
    return out


def permuted_deal(deal: Deal, hidden: list[Card], rng: random.Random) -> Deal:
    """The deal with the ``hidden`` cards shuffled among their original positions."""
    shuffled = list(hidden)
    rng.shuffle(shuffled)
    swap = dict(zip(hidden, shuffled, strict=True))
    hands = tuple(tuple(swap.get(c, c) for c in h) for h in deal.hands)
    stock = tuple(swap.get(c, c) for c in deal.stock)
    return Deal(deal.dealer, hands, deal.trump, stock)


@PROPERTY_SETTINGS
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**32 - 1),
    viewer=st.integers(0, 6),
    shuffle_seed=st.integers(0, 2**32 - 1),
)
def test_non_interference(
    config: tuple[str, dict[str, object]],
    seed: int,
    viewer: int,
    shuffle_seed: int,
) -> None:
    key, options = config
    rules = Rules.make(key, options)
    rng = random.Random(seed)
    state = random_state(rules, rng)
    stop_after = rng.randrange(len(state.deal.cards()) + 1)
    play_out(state, rng, stop=lambda s: len(s.moves) >= stop_after)
    seat = None if viewer >= state.n else viewer
    before = view_of(state, seat)
    hidden = unseen_by(state, seat)
    new_deal = permuted_deal(state.deal, hidden, random.Random(shuffle_seed))
    new_deal.check(rules)
    other = GameState(rules, new_deal)
    try:
        for move in state.moves:
            other.apply(move)
    except IllegalActionError:
        assume(False)
    # Known leak, kept out of this property and pinned by the xfail test below: with the
    # after-win exchange the public "exchange" phase shows that the winner holds the card.
    assume(other.phase == state.phase)
    assert view_of(other, seat) == before
    event(f"moved {'some' if new_deal != state.deal else 'no'} cards")
    event(f"prefix {len(state.moves) * 4 // len(state.deal.cards())}/4")
    event(f"hidden {min(len(hidden), 10) // 5 * 5}+")
    # The permutation did move the hidden cards (when there were some to move).
    assert sorted(new_deal.cards()) == sorted(state.deal.cards())


def test_non_interference_notices_a_visible_difference() -> None:
    """The check above can fail: moving a card the seat does see changes its view."""
    rules = Rules.make("briscola-2")
    rng = random.Random(1)
    state = random_state(rules, rng, dealer=1)
    mine = state.hands[0][0]
    theirs = state.hands[1][0]
    swap = {mine: theirs, theirs: mine}
    deal = state.deal
    hands = tuple(tuple(swap.get(c, c) for c in h) for h in deal.hands)
    other = GameState(rules, Deal(deal.dealer, hands, deal.trump, deal.stock))
    assert seat_view(other, 0) != seat_view(state, 0)
    assert seat_view(other, 1) != seat_view(state, 1)


# ------------------------------------------------------------------ no leak


def event_cards(event: Event | None) -> Iterable[Card]:
    if event is None:
        return
    for value in event:
        if isinstance(value, Card):
            yield value
        elif isinstance(value, tuple):
            yield from (c for c in value if isinstance(c, Card))


def view_cards(view: View) -> set[Card]:
    out = set(view.hand)
    for cs in (*view.visible_hands.values(), *view.known_cards.values()):
        out.update(cs)
    out.update(c for c in (view.turned, view.stock_top) if c is not None)
    out.update(c for _, c in view.trick)
    for t in view.tricks:
        out.update(t.cards)
    if view.last_trick is not None:
        out.update(view.last_trick.cards)
    for a in view.legal:
        if not isinstance(a, Decline):
            out.add(a.card)
    return out


class Audience:
    """The cards each seat (and a spectator) has been shown by the events so far."""

    def __init__(self, state: GameState) -> None:
        self.seats: list[int | None] = [*range(state.n), None]
        self.seen: dict[int | None, set[Card]] = {s: set() for s in self.seats}
        self.add(state.opening_events())

    def add(self, events: Iterable[Event]) -> None:
        for e in events:
            for s in self.seats:
                self.seen[s].update(event_cards(visible(e, s)))

    def check(self, state: GameState) -> None:
        for s in self.seats:
            view = view_of(state, s)
            shown = view_cards(view)
            if state.rules.game.open_hands and view.stock_top is not None:
                # Scoperta's face-up stock top is public by the rules, though no event
                # announces it (see test_scoperta_events_announce_the_stock_top).
                assert view.stock_top is state.pile[-1]
                shown.discard(view.stock_top)
            leaked = shown - self.seen[s]
            assert not leaked, f"seat {s} sees {sorted(map(str, leaked))} never shown to it"


NO_LEAK_CONFIGS = [(k, o) for k, o in CONFIGS]


@pytest.mark.parametrize(
    ("key", "options"), NO_LEAK_CONFIGS, ids=[config_id(k, o) for k, o in NO_LEAK_CONFIGS]
)
@settings(max_examples=4, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_views_hold_no_card_the_events_did_not_show(
    key: str, options: dict[str, object], seed: int
) -> None:
    rules = Rules.make(key, options)
    rng = random.Random(seed)
    state = random_state(rules, rng)
    audience = Audience(state)
    audience.check(state)
    while not state.over:
        audience.add(state.apply(rng.choice(state.legal_actions())))
        audience.check(state)
    # A spectator of a closed game sees played cards and the turned card, nothing else.
    if not rules.game.open_hands:
        public = {c for t in state.tricks for c in t.cards}
        assert audience.seen[None] == public


def test_no_leak_check_can_fail() -> None:
    """The check above notices a card the events did not show."""
    state = random_state(Rules.make("briscola-2"), random.Random(2), dealer=1)
    audience = Audience(state)
    audience.seen[0].discard(state.hands[0][0])
    with pytest.raises(AssertionError, match="never shown"):
        audience.check(state)


def test_others_see_that_a_card_was_drawn_but_not_which() -> None:
    state = new_state("briscola-2", ["5b 2c 2d", "Ab 4c 4d"], "4s", dealer=1, stock="Kc Kd")
    events = play(state, "5b", "Ab")
    drawn = [e for e in events if isinstance(e, CardDrawn)]
    assert [visible(e, 0) for e in drawn] == [CardDrawn(1, None, None), drawn[1]]
    assert [visible(e, None) for e in drawn] == [CardDrawn(1, None, None), CardDrawn(0, None, None)]
    assert card("Kc") not in view_cards(seat_view(state, 0))
    assert card("Kc") in view_cards(seat_view(state, 1))


# ------------------------------------------------------------------ known gaps


@pytest.mark.xfail(
    strict=True,
    reason="engine leak: under exchange_timing=after-win the public 'exchange' phase (and the "
    "public Decline) tells every seat that the trick's winner holds the exchange card",
)
def test_after_win_exchange_phase_does_not_reveal_the_winners_hand() -> None:
    # Seat 0 wins the first trick holding the 7 of trumps (turned: king of spades) ...
    holds = new_state("brisca", ["Ab 7s 2c", "4c 4d 5d"], "Ks", dealer=1, stock="3c 3d")
    # ... or, with the 7 of trumps buried in the stock, not holding it.
    lacks = new_state("brisca", ["Ab 6c 2c", "4c 4d 5d"], "Ks", dealer=1, stock="3c 3d 7s")
    assert set(unseen_by(holds, 1)) >= {card("7s"), card("6c")}
    for st_ in (holds, lacks):
        play(st_, "Ab", "4c")
    # Seat 1 saw the same things in both deals, yet its views differ.
    assert seat_view(holds, 1) == seat_view(lacks, 1)


@pytest.mark.xfail(
    strict=True,
    reason="engine gap: in scoperta no event announces the face-up stock top that the "
    "views show, so a client fed events alone cannot know it",
)
def test_scoperta_events_announce_the_stock_top() -> None:
    state = random_state(Rules.make("scoperta"), random.Random(1), dealer=1)
    audience = Audience(state)
    top = seat_view(state, 0).stock_top
    assert top is not None
    assert top in audience.seen[0]


def test_config_ids_are_unique() -> None:
    ids = [config_id(k, o) for k, o in CONFIGS]
    assert len(ids) == len(set(ids))
