"""rules.md §2, the games: what each game changes from the core game (the 2 removed in
Briscola a 3, the teams of Briscola a 6 and a coppie, Briscolone without trumps, Scoperta's
open hands, Briškula's drawing and its double tricks, Brisca's defaults) and the games'
names and aliases."""

from __future__ import annotations

import random

import pytest

from briscola.engine import (
    GameState,
    MalformedError,
    Rank,
    Rules,
    RulesError,
    find_game,
    seat_view,
    shuffled_deal,
    spectator_view,
)
from briscola.engine.cards import ITALIAN_40
from briscola.engine.events import CardDrawn, TrickWon
from helpers import (
    all_views,
    card,
    cards,
    make_deal,
    new_state,
    play,
    play_out,
    random_game,
    random_state,
)

# ------------------------------------------------------------------ the games


def test_briscola_3_removes_the_2_of_coppe_by_default() -> None:
    rules = Rules.make("briscola-3")
    assert rules.removals == (frozenset({card("2c")}),)
    deal = make_deal(rules, ["Ab 2b 3c", "4c 4d 5d", "6c 6d 7d"], "Ks", dealer=0)
    assert card("2c") not in deal.cards() and len(deal.cards()) == 39
    with pytest.raises(MalformedError, match="missing: 2b"):
        make_deal(rules, ["Ab 2c 3c", "4c 4d 5d", "6c 6d 7d"], "Ks", dealer=0, removed="2b")


@pytest.mark.parametrize("two", ["2c", "2b", "2s", "2d"])
def test_briscola_3_removed_two_choice(two: str) -> None:
    rules = Rules.make("briscola-3", {"removed_two": two})
    deal = shuffled_deal(rules, 0, random.Random(2))
    assert set(ITALIAN_40) - set(deal.cards()) == {card(two)}


def test_briscola_3_random_two_accepts_any_missing_two() -> None:
    rules = Rules.make("briscola-3", {"removed_two": "random"})
    for two in ("2c", "2b", "2s", "2d"):
        hands = ["Ab 3b 3c", "4c 4d 5d", "6c 6d 7d"]
        deal = make_deal(rules, hands, "Ks", dealer=0, removed=two)
        assert card(two) not in deal.cards()
    removed = {
        next(iter(set(ITALIAN_40) - set(shuffled_deal(rules, 0, random.Random(s)).cards())))
        for s in range(60)
    }
    assert removed == set(cards("2c 2b 2s 2d"))
    # Two 2s missing is still refused.
    with pytest.raises(MalformedError, match="missing"):
        make_deal(rules, ["Ab 3b 3c", "4c 4d 5d", "6c 6d 7d"], "Ks", 0, removed="2c 2b")


def test_briscola_6_deck_and_teams() -> None:
    rules = Rules.make("briscola-6")
    assert rules.players == 6 and len(rules.deck) == 36
    assert all(c.rank is not Rank.TWO for c in rules.deck)
    assert rules.sides == ((0, 2, 4), (1, 3, 5))
    assert rules.side_of == (0, 1, 0, 1, 0, 1)
    deal = shuffled_deal(rules, 0, random.Random(1))
    assert [len(h) for h in deal.hands] == [3] * 6 and len(deal.stock) == 17
    for seed in range(5):
        state = random_game(rules, seed)
        by_side = [0, 0]
        for t in state.tricks:
            by_side[rules.side_of[t.winner]] += t.points
        assert state.points == by_side and sum(by_side) == 120
        assert len(state.points) == 2
        if by_side[0] != by_side[1]:
            assert state.winners() == rules.sides[0 if by_side[0] > 60 else 1]


def test_briscola_4_pairs_pool_their_points() -> None:
    rules = Rules.make("briscola-4")
    assert rules.sides == ((0, 2), (1, 3)) and rules.teams
    state = new_state(
        "briscola-4", ["Ab 2c 2d", "Kb 4c 4d", "3b 5c 5d", "Qb 6c 6d"], "4s", dealer=3
    )
    assert state.turn == 0
    play(state, "Ab", "Kb", "3b", "Qb")
    assert state.tricks[0].winner == 0 and state.points == [28, 0]
    for seed in range(5):
        st = random_game(rules, seed)
        team0 = sum(t.points for t in st.tricks if t.winner in (0, 2))
        assert st.points == [team0, 120 - team0]
        view = seat_view(st, 3)
        assert view.points == (team0, 120 - team0) and view.sides == ((0, 2), (1, 3))


def test_briscolone_five_cards_no_trump() -> None:
    rules = Rules.make("briscolone")
    assert rules.game.hand_size == 5 and rules.option("match") == "points:121"
    deal = shuffled_deal(rules, 0, random.Random(3))
    assert deal.trump is None and [len(h) for h in deal.hands] == [5, 5]
    assert len(deal.stock) == 30
    state = GameState(rules, deal)
    assert state.trump is None and state.turned is None
    assert not any(e.__class__.__name__ == "TrumpTurned" for e in state.opening_events())
    for v in all_views(state):
        assert v.trump is None and v.turned is None
    state = new_state("briscolone", ["2c 4c 5c 6c 7c", "As 3s Ks Qs Js"], None, dealer=1)
    play(state, "2c", "As")
    assert state.tricks[0].winner == 0 and state.points == [11, 0]
    with pytest.raises(MalformedError, match="no turned card"):
        make_deal(rules, ["2c 4c 5c 6c 7c", "As 3s Ks Qs Js"], "Kd", dealer=1)
    with pytest.raises(MalformedError, match="turns a card"):
        make_deal(Rules.make("briscola-2"), ["2c 4c 5c", "As 3s Ks"], None, dealer=1)


def test_briscolone_hand_plays_to_the_end_without_trump() -> None:
    st = random_game(Rules.make("briscolone"), 1)
    assert sum(st.points) == 120 and len(st.tricks) == 20
    for t in st.tricks:
        lead = t.cards[0]
        best = max((c for c in t.cards if c.suit is lead.suit), key=lambda c: st.rules.strength[c])
        assert t.cards[t.seats.index(t.winner)] is best


def test_scoperta_shows_hands_and_stock_top() -> None:
    rules = Rules.make("scoperta")
    rng = random.Random(5)
    state = random_state(rules, rng, dealer=1)
    assert state.opening_events()[0].audience is None
    while not state.over:
        for seat in range(2):
            v = seat_view(state, seat)
            assert v.visible_hands == {1 - seat: tuple(state.hands[1 - seat])}
            if state.stock_size > 0:
                assert v.stock_top is state.pile[-1]
            else:
                assert v.stock_top is None
        spec = spectator_view(state)
        assert spec.visible_hands == {0: tuple(state.hands[0]), 1: tuple(state.hands[1])}
        events = state.apply(rng.choice(state.legal_actions()))
        assert all(e.audience is None for e in events)
    start = GameState(rules, state.deal)
    assert seat_view(start, 0).stock_top is state.deal.stock[0]
    # The plain game shows neither.
    plain = random_state(Rules.make("briscola-2"), random.Random(5))
    assert seat_view(plain, 0).visible_hands == {} and seat_view(plain, 0).stock_top is None


@pytest.mark.parametrize("players", [3, 5, 6])
def test_briskula_uneven_last_drawing_round(players: int) -> None:
    rules = Rules.make("briskula", {"players": players})
    assert len(rules.deck) == 32
    for seed in range(6):
        rng = random.Random(seed)
        state = random_state(rules, rng)
        seen = False
        while not state.over:
            events = state.apply(rng.choice(state.legal_actions()))
            drew = [e.seat for e in events if isinstance(e, CardDrawn)]
            if drew and state.pile == []:
                assert 0 < len(drew) < players  # 32 - 3n is not a multiple of n
                assert state.order == tuple(drew)
                assert state.turn == drew[0]
                sizes = [len(h) for h in state.hands]
                assert all(sizes[s] == max(sizes) for s in drew)
                assert all(sizes[s] == max(sizes) - 1 for s in range(players) if s not in drew)
                assert seat_view(state, 0).trick_order == tuple(drew)
                for _ in drew:
                    state.apply(rng.choice(state.legal_actions()))
                assert len(state.tricks[-1].cards) == len(drew)
                assert len({len(h) for h in state.hands}) == 1
                # The next trick is whole again.
                if not state.over:
                    assert len(state.order) == players
                seen = True
        assert seen and sum(state.points) == 120


@pytest.mark.parametrize("players", [2, 4])
def test_briskula_even_drawing_keeps_whole_tricks(players: int) -> None:
    rules = Rules.make("briskula", {"players": players})
    state = random_game(rules, 3)
    assert all(len(t.cards) == players for t in state.tricks)
    assert len(state.tricks) == 32 // players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_briskula_double_two_rounds_per_trick(players: int) -> None:
    rules = Rules.make("briskula-double", {"players": players})
    rng = random.Random(players)
    state = random_state(rules, rng)
    assert all(len(h) == 4 for h in state.hands)
    leader = state.turn
    assert state.order == rules.rounds_from[leader] * 2
    for _ in range(2 * players):
        events = state.apply(rng.choice(state.legal_actions()))
    won = next(e for e in events if isinstance(e, TrickWon))
    assert len(won.cards) == 2 * players and won.seats == rules.rounds_from[leader] * 2
    draws = [e.seat for e in events if isinstance(e, CardDrawn)]
    assert draws == list(rules.rounds_from[won.winner]) * 2
    assert all(len(h) == 4 for h in state.hands)
    play_out(state, rng)
    assert sum(state.points) == 120
    assert sum(len(t.cards) for t in state.tricks) == 32


def test_briskula_double_winner_takes_the_whole_double_trick() -> None:
    # Dealer 1: seat 0 leads 7c, 1 plays 8c, 0 plays 9c, 1 plays Ad: the 9c takes all.
    state = new_state("briskula-double", ["7c 9c Kd Qd", "8c Ad Jd 8d"], "7s", dealer=1)
    play(state, "7c", "8c", "9c", "Ad")
    (won,) = state.tricks
    assert won.winner == 0 and won.points == 11 and won.seats == (0, 1, 0, 1)
    # The same, but a trump in the second round takes it.
    state = new_state("briskula-double", ["7c 9c Kd Qd", "8c As Jd 8d"], "7s", dealer=1)
    play(state, "7c", "8c", "9c", "As")
    assert state.tricks[0].winner == 1 and state.points == [0, 11]


def test_brisca_defaults_to_seven_or_two_after_a_win() -> None:
    rules = Rules.make("brisca")
    assert rules.exchange == "seven-or-two" and rules.exchange_after_win is True
    assert rules.option("trump_exchange") == "seven-or-two"
    assert rules.option("exchange_timing") == "after-win"
    plain = Rules.make("briscola-2")
    assert plain.exchange == "none" and plain.exchange_after_win is False


def test_unknown_game_and_aliases() -> None:
    with pytest.raises(RulesError, match="there is no game 'poker'"):
        Rules.make("poker")
    assert find_game("Briscola").key == "briscola-2"
    assert find_game(" BRISKULA ").key == "briskula"
