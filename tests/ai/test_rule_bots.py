"""The rule-based bots: legal in every game and house rule, every kind of action taken
where the rules offer it, the heuristics' main rules on hand-built tricks, the exact
endgame against the numba solver and brute force, chiamata bidding, and speed."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace

import pytest

from briscola.ai import BOTS, make_bot
from briscola.ai.cores import head_to_head as fast
from briscola.ai.rules.auction import best_suit, choose_bid, choose_call, suit_value
from briscola.ai.rules.counting import Reading, card_tables, sides_of, tables_for
from briscola.ai.rules.heuristic import Beginner, Intermediate
from briscola.ai.search.exact_endgame import best_play, state_values
from briscola.ai.search.exact_head_to_head import solve_view
from briscola.engine import (
    BriscolaError,
    Card,
    GameState,
    Play,
    Rules,
    View,
    seat_view,
    shuffled_deal,
    spectator_view,
)
from briscola.engine.actions import Action, Ask, Bid, Call, Exchange, Look, Order, Pass, Signal
from briscola.engine.cards import Rank, Suit
from helpers import CONFIGS, card, cards, config_id, new_state, play

LEVELS = ("random", "beginner", "intermediate")


def play_with(
    rules: Rules, levels: list[str], seed: int
) -> tuple[GameState, Counter[tuple[str, str]]]:
    """A hand with the given level at each seat; every action is checked to be legal.
    Returns the finished state and a count of (level, action kind) chosen."""
    rng = random.Random(seed)
    state = GameState(rules, shuffled_deal(rules, seed % rules.players, rng))
    bots = [make_bot(level, seed=seed * 10 + s) for s, level in enumerate(levels)]
    kinds: Counter[tuple[str, str]] = Counter()
    while not state.over:
        seat = state.turn
        view = seat_view(state, seat)
        action = bots[seat].choose(view)
        assert action in view.legal, (levels[seat], action, view.legal)
        kinds[(levels[seat], type(action).__name__)] += 1
        state.apply(action)
    return state, kinds


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=[config_id(k, o) for k, o in CONFIGS])
def test_every_level_plays_legally(key: str, options: Mapping[str, object]) -> None:
    rules = Rules.make(key, options)
    for seed in range(6):
        levels = [LEVELS[(s + seed) % 3] for s in range(rules.players)]
        state, _ = play_with(rules, levels, seed)
        assert state.over


TALK_TABLES: list[tuple[str, dict[str, object], set[str]]] = [
    ("briscola-4", {"communication": "signals"}, {"Signal", "Play"}),
    ("briscola-4", {"communication": "conversation"}, {"Ask", "Order", "Play"}),
    ("briscola-6", {"communication": "conversation"}, {"Ask", "Play"}),
    ("schembil", {}, {"Ask", "Look", "EndTalk", "Play"}),
    ("chiamata", {}, {"Bid", "Pass", "Call", "Play"}),
    ("brisca", {}, {"Exchange", "Play"}),
    ("brisca", {"players": 4, "communication": "signals"}, {"Exchange", "Signal", "Play"}),
    ("briscolone", {"follow_suit": "required"}, {"Play"}),
    ("briskula-double", {"players": 3}, {"Play"}),
]


@pytest.mark.parametrize(
    ("key", "options", "expected"), TALK_TABLES, ids=[config_id(k, o) for k, o, _ in TALK_TABLES]
)
def test_intermediate_takes_every_kind_of_action_the_table_offers(
    key: str, options: dict[str, object], expected: set[str]
) -> None:
    rules = Rules.make(key, options)
    seen: Counter[tuple[str, str]] = Counter()
    for seed in range(12):
        _, kinds = play_with(rules, ["intermediate"] * rules.players, seed)
        seen.update(kinds)
    taken = {kind for (_, kind) in seen}
    assert expected <= taken, taken


def test_beginner_mostly_ignores_talk_and_still_bids() -> None:
    seen: Counter[tuple[str, str]] = Counter()
    for key, options in [("briscola-4", {"communication": "signals"}), ("chiamata", {})]:
        rules = Rules.make(key, options)
        for seed in range(6):
            _, kinds = play_with(rules, ["beginner"] * rules.players, seed)
            seen.update(kinds)
    taken = {kind for (_, kind) in seen}
    assert "Signal" not in taken
    assert {"Bid", "Pass", "Call", "Play"} <= taken


@pytest.mark.parametrize("level", LEVELS)
def test_bots_are_repeatable_for_a_seed(level: str) -> None:
    rules = Rules.make("briscola-4", {"communication": "signals"})
    first, _ = play_with(rules, [level] * 4, 3)
    again, _ = play_with(rules, [level] * 4, 3)
    assert first.to_record() == again.to_record()


def test_levels_are_registered_and_an_unknown_level_is_refused() -> None:
    assert {"random", "beginner", "intermediate"} <= set(BOTS)
    assert isinstance(make_bot("beginner", seed=1), Beginner)
    with pytest.raises(BriscolaError, match="there is no bot 'expert'"):
        make_bot("expert")


def test_a_bot_asked_out_of_turn_says_so() -> None:
    rules = Rules.make("briscola-2")
    state = GameState(rules, shuffled_deal(rules, 1, random.Random(0)))
    for bot in (Intermediate(seed=0), Beginner(seed=0)):
        with pytest.raises(BriscolaError, match="no legal action"):
            bot.choose(seat_view(state, 1 - state.turn))
        with pytest.raises(BriscolaError, match="spectator"):
            bot.choose(spectator_view(state))


def test_intermediate_is_fast() -> None:
    rules = Rules.make("briscola-4", {"communication": "signals"})
    bot = Intermediate(seed=0)
    spent = 0.0
    moves = 0
    for seed in range(10):
        state = GameState(rules, shuffled_deal(rules, 0, random.Random(seed)))
        while not state.over:
            view = seat_view(state, state.turn)
            start = time.perf_counter()
            action = bot.choose(view)
            spent += time.perf_counter() - start
            moves += 1
            state.apply(action)
    assert spent / moves < 0.001, f"{1000 * spent / moves:.3f} ms a move"


# ---------------------------------------------------------------------------- card play


def choose_card(state: GameState, bot: Intermediate | Beginner | None = None) -> Card:
    action = (bot or Intermediate(seed=0)).choose(seat_view(state, state.turn))
    assert isinstance(action, Play), action
    return action.card


def test_carico_on_a_trick_the_partner_holds() -> None:
    # briscola-4, trump denari. Seat 0 leads the ace of trumps; the foe plays; seat 2
    # (seat 0's partner) loads its plain ace on the trick nobody can take from the partner.
    state = new_state("briscola-4", ["Ad 5c 6c", "4b 5b 6b", "Ab 2s 7c", "Kc Qc Jc"], "4d", 3)
    play(state, "Ad", "4b")
    assert choose_card(state) is card("Ab")


def test_liscio_when_the_foes_take_it() -> None:
    # Seat 1 leads the ace of bastoni; seat 2 holds no trump and cannot take it: a
    # liscio, not its three or king.
    state = new_state("briscola-2", ["3c Kc 4s", "Ab 5b 6b"], "4d", 0)
    play(state, "Ab")
    assert choose_card(state) is card("4s")


def test_no_trump_wasted_on_an_empty_trick() -> None:
    state = new_state("briscola-2", ["2d 5s Kd", "4b 5b 6b"], "4d", 0)
    play(state, "4b")
    assert choose_card(state) is card("5s")


def test_a_rich_trick_taken_with_the_cheapest_winning_card() -> None:
    # The foe leads the three of bastoni: take it with the 2 of trumps, not the ace.
    state = new_state("briscola-2", ["2d Ad 5s", "3b 5b 6b"], "4d", 0)
    play(state, "3b")
    assert choose_card(state) is card("2d")


def test_leads_a_liscio_rather_than_points() -> None:
    state = new_state("briscola-2", ["Ab 3c 4s", "5b 6b 7b"], "4d", 1)
    assert choose_card(state) is card("4s")


def test_beginner_takes_what_it_can_with_any_card() -> None:
    # The beginner looks only at the trick: the ace of trumps takes the king and scores
    # most now, so it spends it.
    state = new_state("briscola-2", ["Ad 2s 4c", "Kb 5b 6b"], "4d", 0)
    play(state, "Kb")
    beginner = Beginner(seed=0)
    beginner.BLUNDER = 0.0
    assert choose_card(state, beginner) is card("Ad")
    assert choose_card(state) is not card("Ad")


def test_the_exchange_is_taken() -> None:
    options = {"trump_exchange": "seven", "exchange_timing": "on-turn"}
    state = new_state("briscola-2", ["7d 5s Kc", "4b 5b 6b"], "Ad", 1, options=options)
    view = seat_view(state, 0)
    assert any(isinstance(a, Exchange) for a in view.legal)
    assert isinstance(Intermediate(seed=0).choose(view), Exchange)


def engine_value(state: GameState, me: int) -> int:
    """Points ``me`` takes minus the other side's from here, by exhaustive search through
    the engine itself."""
    if state.over:
        mine = state.seat_points[me]
        return mine - (120 - mine)
    values = []
    for action in state.legal_actions():
        child = state.copy()
        child.apply(action)
        values.append(engine_value(child, me))
    return max(values) if state.turn == me else min(values)


ENDGAMES: list[tuple[str, dict[str, object]]] = [
    ("briscola-2", {}),
    ("briscola-2", {"follow_suit": "required", "court_order": "south"}),
    ("briscolone", {}),
    ("briskula", {}),
    ("scoperta", {}),
    ("brisca", {}),
    ("briskula-double", {}),
    ("briskula-double", {"follow_suit": "required"}),
]


def endgame_state(rules: Rules, seed: int, cards: int = 3) -> GameState:
    """A random hand played at random until the stock is out and nobody holds more than
    ``cards`` cards (over if the hand ends first)."""
    rng = random.Random(seed)
    state = GameState(rules, shuffled_deal(rules, seed % 2, rng))
    while not state.over and (state.pile or max(len(h) for h in state.hands) > cards):
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("key", "options"), ENDGAMES, ids=[config_id(*e) for e in ENDGAMES])
def test_the_exact_endgame_plays_a_best_card(key: str, options: dict[str, object]) -> None:
    """The intermediate bot's endgame card is one of the best: by the numba solver where
    the fast core plays the game, and by brute force through the engine (every line,
    no pruning) on a few positions, or on all where the fast core does not play it. Of
    the best cards it is the cheapest."""
    rules = Rules.make(key, options)
    checked = 0
    for seed in range(40):
        state = endgame_state(rules, seed)
        if state.over:
            continue
        me = state.turn
        view = seat_view(state, me)
        chosen = best_play(view)
        assert chosen is not None
        assert Play(me, chosen) in view.legal
        if not options:  # a view without the house rules: the defaults serve
            assert best_play(replace(view, rules={})) is chosen
        if fast.supports(rules):
            sol = solve_view(view, rules)
            assert sol.values[chosen] == sol.diff
        if checked < 5 or not fast.supports(rules):
            after = state.copy()
            after.apply(Play(me, chosen))
            assert engine_value(after, me) == engine_value(state, me)
        values = state_values(state, me)
        best = max(values.values())
        assert values[chosen] == best
        cheap = {c: (rules.points[c], rules.strength[c], c.suit is view.trump) for c in values}
        assert all(cheap[chosen] <= cheap[c] for c, v in values.items() if v == best)
        checked += 1
    assert checked >= 30


def test_the_endgame_waits_for_certainty() -> None:
    rules = Rules.make("briscola-2")
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(1)))
    assert best_play(seat_view(state, state.turn)) is None  # the stock is still there
    state = endgame_state(rules, 3)
    view = seat_view(state, state.turn)
    assert best_play(view) is not None
    # One card of the deck unaccounted for (out of the deck, though the rules name none):
    # the opponent's hand is no longer the cards not seen.
    sizes = list(view.hand_sizes)
    sizes[1 - state.turn] -= 1
    assert best_play(replace(view, hand_sizes=tuple(sizes))) is None
    assert best_play(seat_view(state, 1 - state.turn)) is None  # not its turn
    # Four cards each (two-card tricks, stock out): too many to search.
    double = endgame_state(Rules.make("briskula-double"), 1, cards=4)
    assert max(len(h) for h in double.hands) == 4
    assert best_play(seat_view(double, double.turn)) is None


# ---------------------------------------------------------------------------- counting


def test_reading_counts_the_unseen_cards_and_places_signalled_honours() -> None:
    state = new_state(
        "briscola-4",
        ["Ad 3d 5c", "Kd 2d Qs", "6d Ab Jc", "7s 5s 4s"],
        "4d",
        3,
        options={"communication": "signals"},
    )
    state.apply(Signal(0, "ace"))
    play(state, "5c", "Qs")
    r = Reading(seat_view(state, 2))
    assert r.friends == (0,) and r.foes == (1, 3) and r.after == (3,)
    assert card("Ad") in r.located[0]
    assert card("Ad") not in r.unseen and card("4d") not in r.unseen
    assert len(r.unseen) == 40 - 2 - 3 - 1 - 1  # played, mine, the turned card, placed
    assert r.top is card("5c") and r.top_seat == 0 and r.trick_points == 3  # Qs is off suit
    assert r.chance_holds_none(1, [card("Ad")]) == 1.0  # it is placed with seat 0
    assert r.chance_holds_none(0, [card("Ad")]) == 0.0


@pytest.mark.parametrize(
    ("hands", "plays"),
    [
        (["Jc 4s 5s", "6c 6s 7s"], ("Jc", "6c")),  # the points show it: J is 3 in the south
        (["Jc 4s 5s", "Qc 6s 7s"], ("Qc", "Jc")),  # the winner shows it: J beats Q
    ],
)
def test_the_court_order_is_read_from_the_tricks(hands: list[str], plays: tuple[str, str]) -> None:
    dealer = 1 if plays[0] in hands[0] else 0
    south = new_state("briscola-2", hands, "4d", dealer, options={"court_order": "south"})
    north = new_state("briscola-2", hands, "4d", dealer)
    for state in (south, north):
        play(state, *plays)
    seat = south.turn
    assert tables_for(seat_view(south, seat)).points[card("Jc")] == 3
    assert tables_for(seat_view(north, seat)).points[card("Jc")] == 2


def test_chiamata_sides_as_each_seat_knows_them() -> None:
    rules = Rules.make("chiamata")
    state = GameState(rules, shuffled_deal(rules, 4, random.Random(3)))
    state.apply(Bid(0, rank=Rank.ACE))
    for s in (1, 2, 3, 4):
        state.apply(Pass(s))
    called = next(
        a for a in state.legal_actions() if isinstance(a, Call) and a.card not in state.hands[0]
    )
    state.apply(called)
    partner = next(s for s in range(5) if called.card in state.hands[s])
    assert sides_of(seat_view(state, partner), partner)[0] == (0,)
    assert sides_of(seat_view(state, 0), 0) == ((), (), (1, 2, 3, 4))
    other = next(s for s in (1, 2, 3, 4) if s != partner)
    friends, foes, undecided = sides_of(seat_view(state, other), other)
    assert friends == () and foes == (0,) and partner in undecided


def test_card_tables_know_each_deck() -> None:
    assert len(card_tables("briskula", 2).deck) == 32
    assert len(card_tables("briscola-6", 6).deck) == 36
    assert card_tables("briskula", 2).points[card("Tc")] == 10


# ---------------------------------------------------------------------------- chiamata


def test_a_strong_hand_bids_and_a_weak_one_passes() -> None:
    strong = cards("Ad 3d Kd Qd 7d 5d Ab 3b")
    weak = cards("4c 5c 6s 7s 2b 4b 5d 6d")
    legal: list[Action] = [Pass(0), *(Bid(0, rank=r) for r in (Rank.ACE, Rank.THREE, Rank.KING))]
    assert isinstance(choose_bid(strong, legal), Bid)
    assert isinstance(choose_bid(weak, legal), Pass)
    low: list[Action] = [Pass(0), Bid(0, points=61)]
    assert isinstance(choose_bid(weak, low), Pass)


def test_the_call_names_the_strongest_suit_and_another_players_card() -> None:
    hand = cards("Ad 3d Kd 7d 5d Ab 4c 2s")
    calls = [Call(0, Card(Rank.QUEEN, s)) for s in Suit]
    call = choose_call(hand, calls)
    assert isinstance(call, Call) and call.card is card("Qd")
    # holding the king of denari, a king call goes elsewhere only if denari is much worse
    suit, _ = best_suit(hand, Rank.KING)
    assert suit is Suit.DENARI or Card(Rank.KING, suit) not in hand
    assert suit_value(hand, Suit.DENARI) > suit_value(hand, Suit.BASTONI)


def test_the_partner_of_chiamata_plays_for_the_caller() -> None:
    # Every game of chiamata with five intermediate bots ends, and callers win more often
    # than not (they bid only with hands worth it).
    rules = Rules.make("chiamata")
    won = played = 0
    for seed in range(30):
        state, _ = play_with(rules, ["intermediate"] * 5, seed)
        report = state.addons[0].report(state)
        if report["caller"] is None:
            continue
        played += 1
        won += report["caller"] in state.winners()
    assert played >= 25 and won > played / 2


# ---------------------------------------------------------------------------- views only


class Spy:
    """Records what it is given; plays like the intermediate bot."""

    def __init__(self, seed: int | None = None) -> None:
        self.inner = Intermediate(seed)
        self.given: list[object] = []

    def choose(
        self, view: View
    ) -> Play | Signal | Ask | Order | Look | Exchange | Bid | Pass | Call:
        self.given.append(view)
        return self.inner.choose(view)


def test_bots_see_views_with_no_other_hand() -> None:
    rules = Rules.make("briscola-2")
    state = GameState(rules, shuffled_deal(rules, 1, random.Random(9)))
    spies = [Spy(0), Spy(1)]
    while not state.over:
        state.apply(spies[state.turn].choose(seat_view(state, state.turn)))
    for seat, spy in enumerate(spies):
        for view in spy.given:
            assert isinstance(view, View)
            assert view.seat == seat == view.to_act
            assert view.visible_hands == {}
            assert not hasattr(view, "hands")
