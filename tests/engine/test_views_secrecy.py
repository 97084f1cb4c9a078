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
from briscola.engine.actions import Ask, Exchange, Look, Order, Play, Signal
from briscola.engine.chiamata import Chiamata
from briscola.engine.events import (
    CardCalled,
    CardDrawn,
    CardPlayed,
    Event,
    HandShown,
    Talk,
    ThrownIn,
)
from helpers import CONFIGS, card, config_id, make_deal, new_state, play, play_out, random_state

PROPERTY_SETTINGS = settings(
    max_examples=3000,
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
    """The deal with the ``hidden`` cards shuffled among their original positions (and the
    same seed for the hand's own chances, such as signals spotted)."""
    shuffled = list(hidden)
    rng.shuffle(shuffled)
    swap = dict(zip(hidden, shuffled, strict=True))
    hands = tuple(tuple(swap.get(c, c) for c in h) for h in deal.hands)
    stock = tuple(swap.get(c, c) for c in deal.stock)
    return Deal(deal.dealer, hands, deal.trump, stock, deal.seed)


def answered(state: GameState) -> set[Card]:
    """Cards whose place the whole table has heard something about: those now held by a
    partner who answered a question of the conversation (the answers were read from them)."""
    return {c for m in state.moves if isinstance(m, Ask) for c in state.hands[m.to]}


def thrown_in(state: GameState) -> list[ThrownIn]:
    return [e for e in state.opening_events() if isinstance(e, ThrownIn)]


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
    # Hidden cards are those the seat cannot see, less those whose place it has been told
    # of. Talk makes some facts about hidden cards public: an answer in the conversation
    # (Schembil too) is read from the partner's hand, and the whole table hears it. Moving
    # a card into or out of that partner's hand may change the answer, which every view
    # shows: a true difference in what the seat knows, not a leak. So the cards that
    # partner holds now stay put. That suffices: what it held when asked is what it holds
    # now, or cards played since, which are public and never move. (A signal, like any
    # action, must stay legal in the new deal: a move that is not is ruled out below.)
    hidden = [c for c in unseen_by(state, seat) if c not in answered(state)]
    new_deal = permuted_deal(state.deal, hidden, random.Random(shuffle_seed))
    new_deal.check(rules)
    other = GameState(rules, new_deal)
    # The same goes for a chiamata deal thrown in (throw_in=yes): the whole table saw the
    # pointless hand, or saw that no hand was pointless. A deal that changes this is one
    # the seat can tell apart.
    assume(thrown_in(other) == thrown_in(state))
    try:
        for move in state.moves:
            other.apply(move)
    except IllegalActionError:
        # The moves are the seats' choices: in a deal where one of them is illegal this
        # history cannot happen. Only unplayed cards move, so every card played is still
        # held when played; an exchanged card is public from then on, so it stays put. What
        # can turn illegal is a card off the suit led (follow_suit), or a signal no longer
        # true. Nothing else: in chiamata the auction and the call never depend on the
        # cards, whoever turns out to hold the called card.
        assert rules.follow_suit or rules.options.get("communication") == "signals"
        assume(False)
    assert view_of(other, seat) == before
    event(f"moved {'some' if new_deal != state.deal else 'no'} cards")
    event(f"prefix {min(len(state.moves) * 4 // len(state.deal.cards()), 4)}/4")
    event(f"hidden {min(len(hidden), 10) // 5 * 5}+")
    if any(isinstance(m, Signal | Ask | Order | Look) for m in state.moves):
        event("talk in the prefix")
    if answered(state):
        event("cards of a partner who answered kept in place")
    if key == "chiamata":
        event(f"chiamata, {state.phase}")
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
    # The cards of the seat's own plays and exchange. (A chiamata Call names the bid rank
    # in each of the four suits whatever the hands: it tells nothing.)
    out.update(a.card for a in view.legal if isinstance(a, Play | Exchange))
    # Chiamata: the called card, from the public CardCalled event.
    if view.auction is not None and view.auction.called is not None:
        out.add(view.auction.called)
    # Talk carries no cards: signals, questions, answers, orders and looks are words.
    for t in view.talk:
        assert not any(isinstance(x, Card) for x in t)
    return out


def others_told(talk: Talk, seat: int | None, rules: Rules) -> set[int]:
    """The seats outside the speaker's side, other than ``seat``, that ``talk`` names as
    having seen it: what no seat may learn (an opponent catches a sign unseen)."""
    side = set(rules.sides[rules.side_of[talk.seat]])
    named = set(talk.audience or ()) | set(getattr(talk, "spotted", None) or ())
    return named - side - {seat}


class Audience:
    """What each seat (and a spectator) has been shown by the events so far: the cards, the
    talk, and whether it saw the chiamata called card played."""

    def __init__(self, state: GameState) -> None:
        self.rules = state.rules
        self.seats: list[int | None] = [*range(state.n), None]
        self.seen: dict[int | None, set[Card]] = {s: set() for s in self.seats}
        self.talk: dict[int | None, list[Talk]] = {s: [] for s in self.seats}
        self.called: Card | None = None
        self.saw_called_played: dict[int | None, bool] = dict.fromkeys(self.seats, False)
        self.add(state.opening_events())

    def add(self, events: Iterable[Event]) -> None:
        look: Talk | None = None
        for e in events:
            if look is not None:
                # Schembil: the hand a rais looks at is shown to that rais alone.
                assert isinstance(e, HandShown) and e.seat == look.to
                assert e.audience == frozenset({look.seat})
            look = e if isinstance(e, Talk) and e.kind == "look" else None
            for s in self.seats:
                seen = visible(e, s)
                self.seen[s].update(event_cards(seen))
                if isinstance(seen, Talk):
                    told = others_told(seen, s, self.rules)
                    assert not told, f"seat {s} is told that seats {told} saw a signal"
                    self.talk[s].append(seen)
                if isinstance(seen, CardPlayed) and seen.card is self.called:
                    self.saw_called_played[s] = True
            if isinstance(e, CardCalled):
                self.called = e.card

    def check(self, state: GameState) -> None:
        chiamata = state.addon(Chiamata)
        for s in self.seats:
            view = view_of(state, s)
            leaked = view_cards(view) - self.seen[s]
            assert not leaked, f"seat {s} sees {sorted(map(str, leaked))} never shown to it"
            # The talk in the view is exactly the Talk events the seat was shown.
            assert list(view.talk) == self.talk[s]
            if isinstance(chiamata, Chiamata):
                # The partner is known to the partner itself (so to a caller who called
                # its own card) and to everyone once the called card is played.
                assert view.auction is not None
                knows = chiamata.partner is not None and (
                    s == chiamata.partner or self.saw_called_played[s]
                )
                assert view.auction.partner == (chiamata.partner if knows else None)
            else:
                assert view.auction is None


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
    # A spectator of a closed game sees played cards and the turned card (played too),
    # and a chiamata hand thrown in, nothing else.
    if not rules.game.open_hands:
        public = {c for t in state.tricks for c in t.cards}
        public.update(c for e in state.opening_events() if isinstance(e, ThrownIn) for c in e.cards)
        assert audience.seen[None] == public


def test_no_leak_check_can_fail() -> None:
    """The check above notices a card the events did not show."""
    state = random_state(Rules.make("briscola-2"), random.Random(2), dealer=1)
    audience = Audience(state)
    audience.seen[0].discard(state.hands[0][0])
    with pytest.raises(AssertionError, match="never shown"):
        audience.check(state)


def test_who_spotted_a_signal_check_can_fail() -> None:
    """The check above notices a seat told which other opponents caught a signal."""
    rules = Rules.make(
        "briscola-4",
        {"communication": "signals", "signal_audience": "spotted", "spot_chance": 100},
    )
    state = random_state(rules, random.Random(1))
    signal = next(a for a in state.legal_actions() if isinstance(a, Signal))
    (talk,) = state.apply(signal)
    assert isinstance(talk, Talk)
    spotter = next(iter(talk.spotted or ()))
    assert others_told(talk, signal.seat, rules) == talk.spotted
    assert not others_told(visible(talk, signal.seat), signal.seat, rules)
    assert not others_told(visible(talk, spotter), spotter, rules)
    for seat in range(4):
        assert not others_told(seat_view(state, seat).talk[0], seat, rules)


def test_others_see_that_a_card_was_drawn_but_not_which() -> None:
    state = new_state("briscola-2", ["5b 2c 2d", "Ab 4c 4d"], "4s", dealer=1, stock="Kc Kd")
    events = play(state, "5b", "Ab")
    drawn = [e for e in events if isinstance(e, CardDrawn)]
    assert [visible(e, 0) for e in drawn] == [CardDrawn(1, None, None), drawn[1]]
    assert [visible(e, None) for e in drawn] == [CardDrawn(1, None, None), CardDrawn(0, None, None)]
    assert card("Kc") not in view_cards(seat_view(state, 0))
    assert card("Kc") in view_cards(seat_view(state, 1))


# ------------------------------------------------------------------ gaps now closed


def test_after_win_exchange_does_not_reveal_the_winners_hand() -> None:
    # Seat 0 wins the first trick holding the 7 of trumps (turned: king of spades) ...
    holds = new_state("brisca", ["Ab 7s 2c", "4c 4d 5d"], "Ks", dealer=1, stock="3c 3d")
    # ... or, with the 7 of trumps buried in the stock, not holding it.
    lacks = new_state("brisca", ["Ab 6c 2c", "4c 4d 5d"], "Ks", dealer=1, stock="3c 3d 7s")
    assert set(unseen_by(holds, 1)) >= {card("7s"), card("6c")}
    for st_ in (holds, lacks):
        play(st_, "Ab", "4c")
    # Seat 1 saw the same things in both deals, and its views are the same.
    assert seat_view(holds, 1) == seat_view(lacks, 1)
    # Only the winner's own view offers the exchange.
    assert Exchange(0, card("7s")) in seat_view(holds, 0).legal
    assert not any(isinstance(a, Exchange) for a in seat_view(lacks, 0).legal)


def test_scoperta_events_announce_the_stock_top() -> None:
    state = random_state(Rules.make("scoperta"), random.Random(1), dealer=1)
    audience = Audience(state)
    top = seat_view(state, 0).stock_top
    assert top is not None
    assert top in audience.seen[0]
    # ... and after every round of drawing, while face-down stock remains.
    rng = random.Random(1)
    while not state.over:
        audience.add(state.apply(rng.choice(state.legal_actions())))
        for s in (0, 1, None):
            top = view_of(state, s).stock_top
            assert top is None or top in audience.seen[s]


# ------------------------------------------------------------------ talk and chiamata


def test_an_answer_heard_is_a_fact_the_permutation_must_keep() -> None:
    """Why non-interference keeps in place the cards of a partner who answered: an answer
    is public, and swapping two cards hidden from a seat can change it, in every view."""
    rules = Rules.make("briscola-4", {"communication": "conversation"})
    hands = ["Ad 2c 5c", "Kd 4c 4b", "6d Ab Jc", "7s 5s 4s"]
    state = GameState(rules, make_deal(rules, hands, "4d", dealer=3, stock="Kb Kc Qs Qb"))
    play(state, "2c", "4c", "Jc", "5s")  # seat 2 takes the first trick with the fante
    state.apply(Ask(2, "carichi", 0))  # seat 0 holds Ad (trump) 5c Qs: no plain ace or three
    assert [t.answer for t in seat_view(state, 3).talk] == ["no"]
    # Seat 3 sees neither seat 0's 5c nor the 3 of bastoni, buried in the stock.
    assert {card("5c"), card("3b")} <= set(unseen_by(state, 3))
    assert card("5c") in answered(state) and card("3b") not in answered(state)
    deal = state.deal
    swap = {card("5c"): card("3b"), card("3b"): card("5c")}
    hands2 = tuple(tuple(swap.get(c, c) for c in h) for h in deal.hands)
    stock2 = tuple(swap.get(c, c) for c in deal.stock)
    other = GameState(rules, Deal(deal.dealer, hands2, deal.trump, stock2, deal.seed))
    for move in state.moves:
        other.apply(move)  # every move is still legal ...
    # ... but now seat 0 holds the 3 of bastoni, a carico, and everyone hears "yes".
    for s in (*range(4), None):
        assert [t.answer for t in view_of(other, s).talk] == ["yes"]
        assert view_of(other, s) != view_of(state, s)


def test_config_ids_are_unique() -> None:
    ids = [config_id(k, o) for k, o in CONFIGS]
    assert len(ids) == len(set(ids))
