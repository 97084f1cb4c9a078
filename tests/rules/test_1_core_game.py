"""rules.md §1, the core game (Briscola a 2): who takes the trick, checked rule by rule and
over every two-card trick; drawing; and no obligation to follow suit."""

from __future__ import annotations

import itertools
import random

import pytest

from briscola.engine import (
    Card,
    Deal,
    GameState,
    NotYourTurnError,
    Play,
    Rank,
    Rules,
    Suit,
    seat_view,
    spectator_view,
)
from briscola.engine.cards import FRENCH_32, ITALIAN_40
from briscola.engine.events import CardDrawn, TrickWon
from helpers import (
    all_views,
    card,
    cards,
    new_state,
    play,
    play_out,
    random_state,
)


def two_card_trick(rules: Rules, lead: Card, answer: Card, turned: Card) -> GameState:
    """A 2-player state (dealer 1, so seat 0 leads) after seat 0 played ``lead`` and seat 1
    ``answer``, with ``turned`` as the turned card; every other card is filler or stock."""
    rest = [c for c in rules.deck if c not in (lead, answer, turned)]
    hands = ((lead, *rest[0:2]), (answer, *rest[2:4]))
    state = GameState(rules, Deal(1, hands, turned, tuple(rest[4:])))
    state.apply(Play(0, lead))
    state.apply(Play(1, answer))
    return state


# ------------------------------------------------------------------ the worked example

WORKED_TRUMP = "4s"


def worked(lead: str, answer: str) -> GameState:
    """Trump is the 4 of spades; A (seat 0, after dealer 1) leads, B (seat 1) answers."""
    state = new_state("briscola-2", [f"{lead} 2c 2d", f"{answer} 4c 4d"], WORKED_TRUMP, dealer=1)
    assert state.turn == 0
    play(state, lead, answer)
    return state


def test_worked_example_same_suit_higher_card_wins() -> None:
    state = worked("5b", "Ab")
    (trick,) = state.tricks
    assert trick.cards == (card("5b"), card("Ab"))
    assert trick.leader == 0 and trick.winner == 1 and trick.points == 11
    assert state.points == [0, 11]


def test_worked_example_a_card_of_another_suit_never_wins() -> None:
    state = worked("5c", "Kb")
    (trick,) = state.tricks
    assert trick.winner == 0 and trick.points == 4
    assert state.points == [4, 0]


def test_worked_example_a_trump_wins() -> None:
    state = worked("Ad", "6s")
    (trick,) = state.tricks
    assert trick.winner == 1 and trick.points == 11
    assert state.points == [0, 11]


# ------------------------------------------------------------------ §1 rule by rule


def test_the_turned_card_gives_the_trump_suit() -> None:
    state = new_state("briscola-2", ["5b 2c 2d", "Ab 4c 4d"], "4s", dealer=1)
    assert state.trump is Suit.SPADE
    assert state.turned is card("4s")


@pytest.mark.parametrize(("dealer", "leader"), [(0, 1), (1, 0)])
def test_the_seat_after_the_dealer_leads_two_players(dealer: int, leader: int) -> None:
    state = new_state("briscola-2", ["5b 2c 2d", "Ab 4c 4d"], "4s", dealer=dealer)
    assert state.turn == leader
    assert state.order == (leader, 1 - leader)


@pytest.mark.parametrize("dealer", range(4))
def test_the_seat_after_the_dealer_leads_four_players(dealer: int) -> None:
    state = new_state("briscola-4", ["Ac 2c 3c", "Ad 2d 3d", "As 2s 3s", "Ab 2b 3b"], "4s", dealer)
    leader = (dealer + 1) % 4
    assert state.turn == leader
    assert state.order == tuple((leader + k) % 4 for k in range(4))


def test_highest_trump_wins_when_trumps_are_played() -> None:
    # Both trump: the higher trump wins whoever led it.
    state = worked("6s", "Ks")
    assert state.tricks[0].winner == 1
    state = worked("Ks", "6s")
    assert state.tricks[0].winner == 0
    # A 2 of trumps beats the ace of the suit led.
    state = worked("Ab", "2s")
    assert state.tricks[0].winner == 1 and state.tricks[0].points == 11


def test_highest_trump_wins_among_three_players() -> None:
    # briscola-3 without the 2 of bastoni; dealer 2, so seat 0 leads, then 1, then 2.
    state = new_state(
        "briscola-3",
        ["Ac 2c 2d", "5s 4c 4d", "Js 5c 5d"],
        "4s",
        dealer=2,
        options={"removed_two": "2b"},
        removed="2b",
    )
    assert state.order == (0, 1, 2)
    play(state, "Ac", "5s", "Js")
    (trick,) = state.tricks
    assert trick.winner == 2 and trick.points == 13
    assert state.points == [0, 0, 13]
    assert state.turn == 2


def test_otherwise_highest_card_of_the_suit_led_wins() -> None:
    state = worked("Kb", "3b")
    assert state.tricks[0].winner == 1 and state.tricks[0].points == 14
    state = worked("3b", "Kb")
    assert state.tricks[0].winner == 0


def test_off_suit_ace_does_not_beat_a_led_two() -> None:
    state = worked("2b", "Ac")
    assert state.tricks[0].winner == 0 and state.tricks[0].points == 11


def test_no_trump_played_off_suit_cards_lose_in_three_player_trick() -> None:
    state = new_state(
        "briscola-3",
        ["4b 3c 2d", "Ac 4c 4d", "Ad 5c 5d"],
        "4s",
        dealer=2,
        options={"removed_two": "2s"},
        removed="2s",
    )
    play(state, "4b", "Ac", "Ad")
    assert state.tricks[0].winner == 0 and state.tricks[0].points == 22


def test_order_of_strength_in_a_plain_suit() -> None:
    order = ["A", "3", "K", "Q", "J", "7", "6", "5", "4", "2"]
    rules = Rules.make("briscola-2")
    turned = card("4s")
    for hi, lo in itertools.combinations(order, 2):
        for lead, answer, winner in ((lo, hi, 1), (hi, lo, 0)):
            st = two_card_trick(rules, card(lead + "c"), card(answer + "c"), turned)
            assert st.tricks[0].winner == winner, (lead, answer)


def test_no_obligation_to_follow_suit_or_to_trump() -> None:
    state = new_state("briscola-2", ["5b 2c 2d", "Ab 6s 4d"], "4s", dealer=1)
    play(state, "5b")
    legal = {a.card for a in state.legal_actions() if isinstance(a, Play)}
    assert legal == set(cards("Ab 6s 4d"))
    play(state, "4d")  # neither follows nor trumps, although it could
    assert state.tricks[0].winner == 0


def test_the_winner_of_a_trick_leads_the_next() -> None:
    state = worked("5b", "Ab")
    assert state.turn == 1
    assert state.order == (1, 0)


# ------------------------------------------------------------------ the matrix

STRENGTH = "A3KQJ76542"
"""Ranks from strongest to weakest, as rules.md §1 states them."""

POINTS = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2}


def expected_winner(lead: Card, answer: Card, trump: Suit) -> Card:
    """The trick rule, stated plainly: if any trump was played the highest trump wins,
    otherwise the highest card of the suit led."""
    played = [lead, answer]
    trumps = [c for c in played if c.suit is trump]
    candidates = trumps or [c for c in played if c.suit is lead.suit]
    return min(candidates, key=lambda c: STRENGTH.index(c.rank.value))


def test_matrix_of_every_two_card_trick() -> None:
    rules = Rules.make("briscola-2")
    count = 0
    for trump in Suit:
        suit_cards = [c for c in ITALIAN_40 if c.suit is trump]
        for lead in ITALIAN_40:
            for answer in ITALIAN_40:
                if answer is lead:
                    continue
                turned = next(c for c in suit_cards if c is not lead and c is not answer)
                state = two_card_trick(rules, lead, answer, turned)
                (trick,) = state.tricks
                win = expected_winner(lead, answer, trump)
                assert trick.winner == (0 if win is lead else 1), (lead, answer, trump)
                pts = POINTS.get(lead.rank.value, 0) + POINTS.get(answer.rank.value, 0)
                assert trick.points == pts
                assert state.points[trick.winner] == pts
                assert state.turn == trick.winner
                count += 1
    assert count == 6240


def test_matrix_deal_is_a_real_deal() -> None:
    # The matrix's construction, checked once for a proper deal of the game.
    rules = Rules.make("briscola-2")
    lead, answer, turned = card("Ac"), card("2s"), card("3s")
    rest = [c for c in rules.deck if c not in (lead, answer, turned)]
    Deal(1, ((lead, *rest[0:2]), (answer, *rest[2:4])), turned, tuple(rest[4:])).check(rules)


# ------------------------------------------------------------------ court order and Briškula


def test_court_order_north_by_default() -> None:
    rules = Rules.make("briscola-2")
    st = two_card_trick(rules, card("Jc"), card("Qc"), card("4s"))
    assert st.tricks[0].winner == 1
    assert rules.points[card("Qc")] == 3 and rules.points[card("Jc")] == 2


def test_court_order_south_jack_beats_queen_and_is_worth_three() -> None:
    rules = Rules.make("briscola-2", {"court_order": "south"})
    assert rules.points[card("Jc")] == 3 and rules.points[card("Qc")] == 2
    assert rules.points[card("Kc")] == 4
    st = two_card_trick(rules, card("Qc"), card("Jc"), card("4s"))
    assert st.tricks[0].winner == 1 and st.tricks[0].points == 5
    st = two_card_trick(rules, card("Jc"), card("Qc"), card("4s"))
    assert st.tricks[0].winner == 0
    # The king still beats both; the 7 loses to both.
    st = two_card_trick(rules, card("Jc"), card("Kc"), card("4s"))
    assert st.tricks[0].winner == 1
    st = two_card_trick(rules, card("Qc"), card("7c"), card("4s"))
    assert st.tricks[0].winner == 0
    assert sum(rules.points[c] for c in rules.deck) == 120


def test_court_order_south_in_trumps() -> None:
    rules = Rules.make("briscola-2", {"court_order": "south"})
    st = two_card_trick(rules, card("Js"), card("Qs"), card("4s"))
    assert st.tricks[0].winner == 0


def test_briskula_order_of_strength_and_points() -> None:
    order = ["A", "T", "K", "Q", "J", "9", "8", "7"]
    pts = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
    rules = Rules.make("briskula")
    assert len(rules.deck) == 32 and set(rules.deck) == set(FRENCH_32)
    for c in rules.deck:
        assert rules.points[c] == pts.get(c.rank.value, 0)
    assert sum(rules.points[c] for c in rules.deck) == 120
    turned = card("7s")
    for hi, lo in itertools.combinations(order, 2):
        for lead, answer, winner in ((lo, hi, 1), (hi, lo, 0)):
            st = two_card_trick(rules, card(lead + "d"), card(answer + "d"), turned)
            assert st.tricks[0].winner == winner, (lead, answer)
            assert st.tricks[0].points == pts.get(lead, 0) + pts.get(answer, 0)
    # A trump 7 beats a plain ace; a plain ten loses to a led 8 of another suit.
    st = two_card_trick(rules, card("Ad"), card("8s"), turned)
    assert st.tricks[0].winner == 1
    st = two_card_trick(rules, card("8c"), card("Td"), turned)
    assert st.tricks[0].winner == 0 and st.tricks[0].points == 10


def test_briskula_ten_beats_king_in_trumps() -> None:
    rules = Rules.make("briskula")
    st = two_card_trick(rules, card("Ks"), card("Ts"), card("7s"))
    assert st.tricks[0].winner == 1 and st.tricks[0].points == 14


def test_rank_enum_has_no_stray_values() -> None:
    # The matrix's plain ordering covers every rank of the Italian deck exactly once.
    assert sorted(STRENGTH) == sorted(r.value for r in {c.rank for c in ITALIAN_40})
    assert Rank.TEN.value == "T"


# ------------------------------------------------------------------ drawing


def test_winner_draws_first_then_the_others_in_playing_order() -> None:
    state = new_state("briscola-2", ["5b 2c 2d", "Ab 4c 4d"], "4s", dealer=1, stock="Kc Kd")
    events = play(state, "5b", "Ab")
    draws = [e for e in events if isinstance(e, CardDrawn)]
    assert draws == [
        CardDrawn(1, card("Kc"), frozenset({1})),
        CardDrawn(0, card("Kd"), frozenset({0})),
    ]
    assert state.hands == [cards("2c 2d Kd"), cards("4c 4d Kc")]
    assert state.stock_size == 40 - 6 - 1 - 2
    # The others see that a card was drawn, not which.
    assert seat_view(state, 0).hand_sizes == (3, 3)


def test_winner_leads_the_next_trick() -> None:
    state = new_state("briscola-2", ["5b 2c 2d", "Ab 4c 4d"], "4s", dealer=1)
    play(state, "5b", "Ab")
    assert state.turn == 1 and state.order == (1, 0)
    assert seat_view(state, 0).to_act == 1
    with pytest.raises(NotYourTurnError):
        state.apply(Play(0, card("2c")))


@pytest.mark.parametrize("key", ["briscola-2", "briscola-3", "briscola-4", "briscola-6"])
def test_cards_are_drawn_in_stock_order_and_the_turned_card_last(key: str) -> None:
    rules = Rules.make(key)
    for seed in range(8):
        rng = random.Random(seed)
        state = random_state(rules, rng)
        turned = state.deal.trump
        drawn: list[tuple[int, object]] = []
        while not state.over:
            events = state.apply(rng.choice(state.legal_actions()))
            wins = [e for e in events if isinstance(e, TrickWon)]
            draws = [e for e in events if isinstance(e, CardDrawn)]
            if draws:
                (won,) = wins
                # The winner draws first, then the others in playing order from the winner.
                assert [d.seat for d in draws] == list(rules.rounds_from[won.winner])
                assert state.turn == won.winner
            drawn.extend((d.seat, d.card) for d in draws)
            if turned is not None and any(d.card is turned for d in draws):
                last = draws[-1]
                assert last.card is turned and last.audience is None
                # Everyone else now knows who holds the turned card.
                for v in all_views(state):
                    if v.seat == last.seat:
                        assert turned in v.hand and last.seat not in v.known_cards
                    else:
                        assert v.known_cards.get(last.seat) == (turned,)
                assert state.turned is None and seat_view(state, 0).turned is None
        assert [c for _, c in drawn] == [*state.deal.stock, turned]


def test_known_turned_card_leaves_known_cards_when_played() -> None:
    rules = Rules.make("briscola-2")
    rng = random.Random(4)
    state = random_state(rules, rng, dealer=0)
    turned = state.deal.trump
    play_out(state, rng, stop=lambda s: s.turned is None)
    holder = next(s for s in range(2) if turned in state.hands[s])
    other = 1 - holder
    assert seat_view(state, other).known_cards == {holder: (turned,)}
    assert spectator_view(state).known_cards == {holder: (turned,)}
    while turned in state.hands[holder]:
        if state.turn == holder:
            state.apply(Play(holder, turned))
        else:
            state.apply(state.legal_actions()[0])
    assert seat_view(state, other).known_cards == {}


# ------------------------------------------------------------------ follow suit


def test_no_obligation_to_follow_suit_by_default() -> None:
    state = new_state("briscola-2", ["5b 2c 2d", "Ab 6s 4d"], "4s", dealer=1)
    assert Rules.make("briscola-2").follow_suit is False
    play(state, "5b")
    assert {a.card for a in state.legal_actions()} == set(cards("Ab 6s 4d"))
    assert state.is_legal(Play(1, card("4d")))
