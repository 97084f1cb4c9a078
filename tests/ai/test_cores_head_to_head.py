"""The fast core of the search bots against the reference engine, move for move: the same
deals, the same cards played, and after every card the same hands, turn, trick winners,
points and cards left to draw."""

from __future__ import annotations

import random

import numpy as np
import pytest

from briscola.ai.cores import head_to_head as fast
from briscola.ai.cores.head_to_head import Codec
from briscola.engine import Card, Deal, GameState, Play, Rules, seat_view, shuffled_deal
from briscola.engine.events import TrickWon
from helpers import new_state, play

FAST_GAMES: list[tuple[str, dict[str, object]]] = [
    ("briscola-2", {}),
    ("briscola-2", {"follow_suit": "required", "court_order": "south"}),
    ("scoperta", {}),
    ("briscolone", {"follow_suit": "required"}),
    ("briscolone", {"follow_suit": "free"}),
    ("briskula", {"players": 2}),
]


def same_position(codec: Codec, pos: np.ndarray, state: GameState) -> None:
    """Everything the fast position and the engine state must agree on."""
    for seat in (0, 1):
        assert sorted(codec.hand(pos, seat)) == sorted(state.hands[seat])
    assert codec.draw_left(pos) == list(reversed(state.pile))
    assert [int(pos[fast.PTS]), int(pos[fast.PTS + 1])] == state.seat_points
    assert fast.is_over(pos) == state.over
    if not state.over:
        assert fast.to_move(pos) == state.turn
        assert int(pos[fast.LEADER]) == state.order[0]
        buf = np.empty(fast.MAXH, np.int64)
        n = fast.legal_cards(pos, buf)
        legal = sorted(codec.card[int(c)] for c in buf[:n])
        assert legal == sorted(a.card for a in state.legal_actions() if isinstance(a, Play))


def play_both(rules: Rules, seed: int) -> int:
    """One random game through the engine and the fast core; return the tricks checked."""
    rng = random.Random(seed)
    state = GameState(rules, shuffled_deal(rules, seed % 2, rng))
    codec = Codec(rules)
    pos = codec.from_state(state)
    same_position(codec, pos, state)
    tricks = 0
    while not state.over:
        action = rng.choice([a for a in state.legal_actions() if isinstance(a, Play)])
        events = state.apply(action)
        winner = fast.play_card(pos, codec.id[action.card])
        won = [e.winner for e in events if isinstance(e, TrickWon)]
        assert won == ([] if winner < 0 else [winner])
        tricks += len(won)
        same_position(codec, pos, state)
    return tricks


def test_thousands_of_random_briscola_games_agree_move_for_move() -> None:
    rules = Rules.make("briscola-2")
    tricks = sum(play_both(rules, seed) for seed in range(2000))
    assert tricks == 2000 * 20


@pytest.mark.parametrize(("key", "options"), FAST_GAMES[1:], ids=lambda x: str(x))
def test_other_two_player_games_agree_move_for_move(key: str, options: dict[str, object]) -> None:
    rules = Rules.make(key, options)
    assert fast.supports(rules)
    for seed in range(150):
        play_both(rules, seed)


def test_the_games_the_core_leaves_to_the_engine() -> None:
    others: list[tuple[str, dict[str, object]]] = [
        ("briscola-3", {}),
        ("briscola-4", {}),
        ("chiamata", {}),
        ("briskula-double", {"players": 2}),
        ("briskula", {"players": 4, "teams": "pairs"}),
    ]
    for key, options in others:
        assert not fast.supports(Rules.make(key, options))


def engine_deal(deck: np.ndarray, dealer: int, codec: Codec) -> Deal:
    cards = [codec.card[int(c)] for c in deck]
    first = (dealer + 1) % 2
    hands: list[tuple[Card, ...]] = [(), ()]
    hands[first] = tuple(cards[0:6:2])
    hands[1 - first] = tuple(cards[1:6:2])
    return Deal(dealer, tuple(hands), cards[6], tuple(cards[7:]))


def test_the_batch_kernel_deals_and_plays_as_the_engine() -> None:
    """The kernel behind ``fast_random_games`` (shuffle, deal, random play) replayed in the
    engine: a legal game with the same trick winners, points and drawing."""
    rules = Rules.make("briscola-2")
    codec = Codec(rules)
    pval = fast.italian_points()
    for seed in range(1000):
        dealer = seed % 2
        deck, moves, points0 = fast.random_game_trace(seed, dealer, pval)
        assert sorted(deck.tolist()) == list(range(40))
        deal = engine_deal(deck, dealer, codec)
        deal.check(rules)
        state = GameState(rules, deal)
        pos = codec.from_state(state)
        for c in moves:
            card = codec.card[int(c)]
            assert state.is_legal(Play(state.turn, card))
            state.apply(Play(state.turn, card))
            fast.play_card(pos, int(c))
            same_position(codec, pos, state)
        assert state.over
        assert points0 == state.seat_points[0]


def test_random_games_are_deterministic_and_count_their_plays() -> None:
    assert fast.fast_random_games(200, seed=5) == 200 * 40
    assert fast.fast_random_points(300, seed=5) == fast.fast_random_points(300, seed=5)
    assert fast.fast_random_points(300, seed=5) != fast.fast_random_points(300, seed=6)
    # random play splits the 120 points evenly on average
    assert abs(fast.fast_random_points(20_000, seed=1) / 20_000 - 60) < 1.5
    assert fast.bench_fast(2000, seed=1) > 0


def test_a_view_with_its_hidden_cards_is_the_state() -> None:
    rules = Rules.make("briscola-2")
    codec = Codec(rules)
    rng = random.Random(3)
    for seed in range(200):
        state = GameState(rules, shuffled_deal(rules, seed % 2, rng))
        for _ in range(rng.randrange(40)):
            state.apply(rng.choice(state.legal_actions()))
        if state.over:
            continue
        seat = rng.choice([0, 1])
        view = seat_view(state, seat)
        pile = list(reversed(state.pile))
        turned = state.turned
        stock = pile[:-1] if turned is not None else pile
        pos = codec.from_view(view, state.hands[1 - seat], stock, turned)
        assert np.array_equal(pos, codec.from_state(state))


def test_the_greedy_policy_leads_cheap_and_takes_points_with_a_low_trump() -> None:
    # trump is spades; seat 1 (after the dealer) leads
    state = new_state("briscola-2", ["Ac 4s 2b", "3s Kb 5d"], "7s", dealer=0)
    codec = Codec(state.rules)
    pos = codec.from_state(state)
    hand1 = np.array([*codec.ids(state.hands[1]), 0, 0], np.int64)
    assert codec.card[fast.greedy_card(pos, hand1, 3)] == Card.parse("5d")
    play(state, "Kb")
    pos = codec.from_state(state)
    hand0 = np.array([*codec.ids(state.hands[0]), 0, 0], np.int64)
    # nothing of bastoni beats the king: it is worth 4, so the 4 of trumps takes it
    assert codec.card[fast.greedy_card(pos, hand0, 3)] == Card.parse("4s")
    state = new_state("briscola-2", ["Ac 4s 2b", "Jc Kb 5d"], "7s", dealer=0)
    play(state, "Jc")
    pos = codec.from_state(state)
    # the ace of the suit led takes the trick for free
    assert codec.card[fast.greedy_card(pos, hand0, 3)] == Card.parse("Ac")


def test_the_counting_policy_judges_as_the_intermediate_bot() -> None:
    """While the stock lasts, the counting playout policy picks the card the intermediate
    bot picks from the same seat's view (it is that bot's judgement, compiled)."""
    from briscola.ai import make_bot

    rules = Rules.make("briscola-2")
    codec = Codec(rules)
    rng = random.Random(1)
    agree = total = 0
    buf = np.empty(fast.MAXH, np.int64)
    for g in range(40):
        state = GameState(rules, shuffled_deal(rules, g % 2, rng))
        bot = make_bot("intermediate", seed=1)
        while not state.over:
            view = seat_view(state, state.turn)
            action = bot.choose(view)
            if len(view.legal) > 1 and state.pile:
                pos = codec.from_state(state)
                n = fast.legal_cards(pos, buf)
                total += 1
                assert isinstance(action, Play)
                agree += codec.card[fast.counting_card(pos, buf, n)] == action.card
            state.apply(rng.choice(state.legal_actions()) if rng.random() < 0.3 else action)
    assert total > 1000
    assert agree / total > 0.9
