"""The search levels: legal in every game, deterministic at a seed, exact where the hand is
known, and better than random play."""

from __future__ import annotations

import random
import threading
from dataclasses import replace

import pytest

from briscola.ai import Bot, make_bot
from briscola.ai.search.config import CHAMPION, STRONG, SearchConfig
from briscola.ai.search.exact_head_to_head import solve_view
from briscola.ai.search.players import SearchBot, greedy_play
from briscola.engine import Action, Exchange, GameState, Play, Rules, View, seat_view, shuffled_deal
from briscola.engine.actions import Bid, Call, Pass
from helpers import CONFIGS, config_id, new_state, play, play_hand

QUICK = SearchConfig(
    worlds=16,
    rollouts=1,
    enumerate=24,
    table_worlds=8,
    table_rollouts=1,
    engine_plies=150,
    engine_worlds=4,
)
"""A small budget, so that every game can be played through in a test."""


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=[config_id(k, o) for k, o in CONFIGS])
def test_the_search_bot_plays_every_game(key: str, options: dict[str, object]) -> None:
    rules = Rules.make(key, options)
    bots = [SearchBot(seed=s, config=QUICK, rules=rules if s % 2 else None) for s in range(4)]
    seats = [
        bots[s % 2] if s % 2 else SearchBot(seed=9, config=QUICK) for s in range(rules.players)
    ]
    state = play_hand(rules, seats, seed=3)
    assert state.over


@pytest.mark.parametrize("key", ["briscola-4", "chiamata"])
def test_the_look_ahead_setting_plays_the_table_games(key: str) -> None:
    rules = Rules.make(key)
    look = replace(QUICK, table_policy="lookahead")
    state = play_hand(rules, [SearchBot(seed=s, config=look) for s in range(rules.players)], 5)
    assert state.over
    typo = SearchBot(seed=1, config=replace(QUICK, table_policy="lookahaed"))
    with pytest.raises(KeyError):
        play_hand(rules, [typo] * rules.players, 5)


def test_the_levels_are_registered_and_legal() -> None:
    rules = Rules.make("briscola-2")
    for name in ("strong", "champion"):
        bot = make_bot(name, seed=1)
        state = GameState(rules, shuffled_deal(rules, 0, random.Random(5)))
        for _ in range(3):
            view = seat_view(state, state.turn)
            action = bot.choose(view)
            assert action in view.legal
            state.apply(action)
    assert STRONG.worlds < CHAMPION.worlds


def test_the_same_seed_makes_the_same_moves() -> None:
    rules = Rules.make("briscola-2")

    def moves(seed: int) -> list[object]:
        state = play_hand(rules, [SearchBot(seed=seed, config=QUICK), make_bot("random", 2)], 11)
        return [m for m in state.moves if m.seat == 0]

    assert moves(4) == moves(4)
    assert moves(4) != moves(5) or moves(4) != moves(6)


def test_with_the_stock_empty_it_plays_a_best_card() -> None:
    rules = Rules.make("briscola-2")
    rng = random.Random(12)
    checked = 0
    for seed in range(40):
        state = GameState(rules, shuffled_deal(rules, seed % 2, rng))
        while state.pile:
            state.apply(rng.choice(state.legal_actions()))
        if rng.random() < 0.5:
            state.apply(rng.choice(state.legal_actions()))
        view = seat_view(state, state.turn)
        if len(view.legal) < 2:
            continue
        action = SearchBot(seed=seed, config=QUICK).choose(view)
        sol = solve_view(view, rules)
        assert isinstance(action, Play)
        assert sol.values[action.card] == sol.diff
        checked += 1
    assert checked > 25


def test_it_beats_random_play() -> None:
    rules = Rules.make("briscola-2")
    wins = 0
    for seed in range(30):
        bot = SearchBot(seed=seed, config=QUICK)
        seats: list[Bot] = [bot, make_bot("random", seed)]
        if seed % 2:
            seats.reverse()
        state = play_hand(rules, seats, seed)
        wins += seats.index(bot) in state.winners()
    assert wins >= 24  # intermediate play wins 93% against random play


def test_it_takes_the_exchange_and_leaves_bids_to_the_rules() -> None:
    state = new_state(
        "briscola-2",
        ["7s 4c 5d", "2c 6d Jb"],
        "As",
        dealer=1,
        options={"trump_exchange": "seven", "exchange_timing": "on-turn"},
    )
    view = seat_view(state, 0)
    assert SearchBot(seed=1, config=QUICK).choose(view) == Exchange(0, state.hands[0][0])
    rules = Rules.make("chiamata")
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(3)))
    bot = SearchBot(seed=2, config=QUICK)
    while state.phase != "play" and not state.over:
        view = seat_view(state, state.turn)
        action = bot.choose(view)
        assert isinstance(action, Bid | Pass | Call)
        state.apply(action)


def test_the_greedy_playout_policy_loads_a_partners_trick() -> None:
    # briscola-4: seats 0 and 2 against 1 and 3; seat 1 leads (the dealer is 0)
    state = new_state(
        "briscola-4",
        ["Ac 5c 6c", "2d 5d 6d", "Ad 3s 4s", "Kc Jd Qd"],
        "7b",
        dealer=0,
    )
    play(state, "2d", "Ad")  # seat 2 takes the lead with the ace of denari
    plays = [a for a in state.legal_actions() if isinstance(a, Play)]
    # seat 3 cannot beat the ace: it throws its cheapest card, the fante
    assert str(greedy_play(state, plays).card) == "Jd"
    play(state, "Jd")
    plays = [a for a in state.legal_actions() if isinstance(a, Play)]
    # seat 0 plays last and its partner holds the trick: it loads its ace
    assert str(greedy_play(state, plays).card) == "Ac"


HEAVY = SearchConfig(worlds=48, exact_draw=8)
"""Every sampled world solved exactly from eight cards to draw: the transposition table
is filled and read throughout."""


def heavy_views(count: int) -> list[View]:
    """Two-player views with six to ten cards left to draw, the seat to play having a
    choice."""
    rules = Rules.make("briscola-2")
    rng = random.Random(13)
    views = []
    while len(views) < count:
        state = GameState(rules, shuffled_deal(rules, rng.randrange(2), rng))
        left = rng.choice((6, 8, 10))
        while len(state.pile) > left:
            state.apply(rng.choice(state.legal_actions()))
        view = seat_view(state, state.turn)
        if sum(isinstance(a, Play) for a in view.legal) > 1:
            views.append(view)
    return views


def test_search_players_in_two_threads_choose_as_each_alone() -> None:
    """Two search players thinking at once in two threads (their kernels run without the
    GIL) choose what each chooses alone: each has its own transposition table, in each
    thread."""
    views = heavy_views(6)
    seeds = (3, 4)
    solo = [SearchBot(seed=s, config=HEAVY) for s in seeds]
    alone = [[bot.choose(v) for v in views] for bot in solo]
    bots = [SearchBot(seed=s, config=HEAVY) for s in seeds]
    together: list[list[Action]] = [[], []]
    start = threading.Barrier(2)

    def think(i: int) -> None:
        start.wait()
        together[i] = [bots[i].choose(v) for v in views]

    threads = [threading.Thread(target=think, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert together == alone
    # the tables are the players' own, one per thread
    mine = bots[0].transpositions()
    assert mine is bots[0].transpositions()
    assert mine is not bots[1].transpositions()
    other: list[object] = []
    worker = threading.Thread(target=lambda: other.append(bots[0].transpositions()))
    worker.start()
    worker.join()
    assert other[0] is not mine
