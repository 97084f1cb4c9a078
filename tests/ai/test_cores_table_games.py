"""The table core of the search bots (games of three to six players) against the reference
engine, move for move: the same deals, the same cards played, and after every card the
same hands, turn, trick, points and cards left to draw; at the end the same winners; and
its playout policy choosing as the engine-side one does."""

from __future__ import annotations

import random

import numpy as np
import pytest

from briscola.ai.cores import table_games as table
from briscola.ai.cores.head_to_head import Codec
from briscola.ai.search.players import greedy_play
from briscola.engine import GameState, Play, Rules, shuffled_deal
from briscola.engine.cards import Card
from briscola.engine.events import TrickWon

TABLE_GAMES: list[tuple[str, dict[str, object]]] = [
    ("briscola-3", {}),
    ("briscola-3", {"follow_suit": "required", "sixty_sixty": "last-trick"}),
    ("briscola-4", {}),
    ("briscola-4", {"sixty_sixty": "last-trick", "court_order": "south"}),
    ("briscola-6", {}),
    ("schembil", {}),
    ("brisca", {"players": 4}),
    ("briskula", {"players": 4}),
    ("chiamata", {}),
]


def hand(codec: Codec, pos: np.ndarray, seat: int) -> list[str]:
    n = int(pos[table.NH + seat])
    return sorted(str(codec.card[int(pos[table.H + seat * table.MAXH + k])]) for k in range(n))


def same_position(codec: Codec, pos: np.ndarray, state: GameState) -> None:
    """Everything the table position and the engine state must agree on."""
    for seat in range(state.n):
        assert hand(codec, pos, seat) == sorted(str(c) for c in state.hands[seat])
    left = [
        codec.card[int(pos[table.DRAW + k])] for k in range(int(pos[table.SP]), int(pos[table.ND]))
    ]
    assert left == list(reversed(state.pile))
    assert [int(p) for p in pos[table.PTS : table.PTS + state.n]] == state.seat_points
    assert table.is_over(pos) == state.over
    if not state.over:
        assert table.to_move(pos) == state.turn
        assert int(pos[table.LEADER]) == state.order[0]
        trick = [codec.card[int(pos[table.TRICK + k])] for k in range(int(pos[table.NT]))]
        assert trick == state.trick
        buf = np.empty(table.MAXH, np.int64)
        n = table.legal_cards(pos, buf)
        legal = sorted(codec.card[int(c)] for c in buf[:n])
        assert legal == sorted(a.card for a in state.legal_actions() if isinstance(a, Play))


def plays_by_id(state: GameState, codec: Codec) -> list[Play]:
    """The card plays legal now, in card id order (the table core breaks ties by id)."""
    return sorted(
        (a for a in state.legal_actions() if isinstance(a, Play)), key=lambda a: codec.id[a.card]
    )


def to_card_play(state: GameState, rng: random.Random) -> bool:
    """Take random actions other than card play (chiamata's auction and call, talk) until
    a card is to be played; False when the hand ended first (a redeal)."""
    while not state.over:
        legal = state.legal_actions()
        if any(isinstance(a, Play) for a in legal):
            return True
        state.apply(rng.choice(legal))
    return False


def play_both(rules: Rules, seed: int) -> int:
    """One hand through the engine and the table core, random cards but for the greedy
    policy's choices now and then; return the tricks checked."""
    rng = random.Random(seed)
    state = GameState(rules, shuffled_deal(rules, seed % rules.players, rng))
    if not to_card_play(state, rng):
        return 0
    codec = Codec(rules)
    pos = table.from_state(state, codec)
    same_position(codec, pos, state)
    buf = np.empty(table.MAXH, np.int64)
    tricks = 0
    while not state.over:
        if not to_card_play(state, rng):
            break
        plays = plays_by_id(state, codec)
        n = table.legal_cards(pos, buf)
        cards = np.sort(buf[:n])
        greedy = codec.card[table.greedy_card(pos, cards, n)]
        assert greedy == greedy_play(state, plays).card, (
            str(state.trick),
            [str(p.card) for p in plays],
        )
        action = greedy_play(state, plays) if rng.random() < 0.3 else rng.choice(plays)
        events = state.apply(action)
        winner = table.play_card(pos, codec.id[action.card])
        won = [e.winner for e in events if isinstance(e, TrickWon)]
        assert won == ([] if winner < 0 else [winner])
        tricks += len(won)
        to_card_play(state, rng)  # the talk before a lead, which the table core leaves out
        same_position(codec, pos, state)
    winners = state.winners()
    for seat in range(state.n):
        expect = 1.0 if seat in winners else 0.5 if not winners else 0.0
        assert table.result(pos, seat, 0.0, 60.0) == expect
    return tricks


@pytest.mark.parametrize(("key", "options"), TABLE_GAMES)
def test_table_games_agree_with_the_engine_move_for_move(
    key: str, options: dict[str, object]
) -> None:
    rules = Rules.make(key, options)
    assert table.supports(rules)
    tricks = sum(play_both(rules, seed) for seed in range(60))
    assert tricks > 60 * 5


def test_tied_hands_follow_the_sixty_sixty_rule() -> None:
    """Enough random four-player hands end 60-60 for both tie rules to be checked."""
    ties = 0
    for options in ({}, {"sixty_sixty": "last-trick"}):
        rules = Rules.make("briscola-4", options)
        codec = Codec(rules)
        for seed in range(400):
            rng = random.Random(seed)
            state = GameState(rules, shuffled_deal(rules, seed % 4, rng))
            pos = table.from_state(state)
            while not state.over:
                action = rng.choice([a for a in state.legal_actions() if isinstance(a, Play)])
                state.apply(action)
                table.play_card(pos, codec.id[action.card])
            if state.points[0] == 60:
                ties += 1
                assert table.winning_side(pos) == (
                    -1 if not state.winners() else state.side_of[state.winners()[0]]
                )
    assert ties >= 4


def test_the_games_the_table_core_leaves_to_the_engine() -> None:
    for key, options in [
        ("briscola-2", {}),
        ("brisca", {}),
        ("briskula", {"players": 3}),  # an uneven last round of drawing
        ("briskula-double", {"players": 3}),  # two cards each to a trick
    ]:
        assert not table.supports(Rules.make(key, options)), key


def test_card_values_add_up_each_card_over_worlds_and_rollouts() -> None:
    rules = Rules.make("briscola-4")
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(5)))
    codec = Codec(rules)
    worlds = np.stack([table.from_state(state, codec)] * 3)
    seat = state.turn
    cards = np.array(sorted(codec.id[c] for c in state.hands[seat]), np.int64)
    out = np.zeros((len(cards), 2))
    table.card_values(worlds, cards, seat, 2, 0.1, 0.2, 60.0, 11, out)
    again = np.zeros((len(cards), 2))
    table.card_values(worlds, cards, seat, 2, 0.1, 0.2, 60.0, 11, again)
    assert (out == again).all()  # the same seed plays the same playouts
    for i in range(len(cards)):
        assert 0 <= out[i, 1] <= 6 * 120  # six playouts' points of the seat's side
        assert -6 * 0.2 <= out[i, 0] <= 6 * 1.2


@pytest.mark.parametrize("key", ["briscola-3", "briscola-4", "chiamata"])
def test_the_exact_end_matches_the_engine_search(key: str) -> None:
    """Over the last two tricks, the compiled alpha-beta gives each card the value the
    reference engine's search gives it (result and point margin alike)."""
    from briscola.ai.search.exact_endgame import side_of_seat, side_points, state_values
    from briscola.ai.search.players import outcome

    rules = Rules.make(key)
    codec = Codec(rules)
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = GameState(rules, shuffled_deal(rules, seed % rules.players, rng))
        if not to_card_play(state, rng):
            continue
        while sum(len(h) for h in state.hands) + len(state.trick) > 2 * rules.players - seed % 3:
            state.apply(rng.choice([a for a in state.legal_actions() if isinstance(a, Play)]))
            if not to_card_play(state, rng):
                break
        if state.over:
            continue
        seat = state.turn
        side = side_of_seat(state, seat)

        def score(s: GameState, side: frozenset[int] = side, seat: int = seat) -> float:
            return outcome(s, seat, side_points(s, side), 120, 0.2)

        expect = state_values(state, seat, score)
        cards = sorted(expect, key=lambda c: codec.id[c])
        out = np.zeros((len(cards), 2))
        world = table.from_state(state, codec)[None, :]
        ids = np.array([codec.id[c] for c in cards], np.int64)
        table.exact_values(world, ids, seat, 0.2, 60.0, out)
        assert out[:, 0] == pytest.approx([expect[c] for c in cards])
        checked += 1
    assert checked >= 30


def lookahead_reference(state: GameState, plays: list[Play], codec: Codec) -> Card:
    """:func:`table.lookahead_card` over engine states: each card played, the trick
    finished by :func:`greedy_play` (equal cards by card id, as the core breaks ties),
    worth the trick's points for or against the side less the worth of keeping the card;
    ties to the cheaper card (``plays`` in card id order)."""
    from briscola.ai.search.exact_endgame import side_of_seat

    rules = state.rules
    seat = state.turn
    friends = side_of_seat(state, seat)
    trump = state.trump

    def keep(c: Card) -> float:
        rank = rules.strength[c]
        if c.suit is trump:
            return 5.0 + 0.6 * rank + 0.8 * rules.points[c]
        return 0.3 + 0.1 * rank

    def cheap(c: Card) -> int:
        pts, rank = rules.points[c], rules.strength[c]
        return 50 + rank * 10 + pts * 20 if c.suit is trump else pts * 20 + rank

    best: tuple[float, int] | None = None
    choice = plays[0].card
    for p in plays:
        child = state.copy()
        won = [e for e in child.apply(p) if isinstance(e, TrickWon)]
        while not won:
            rest = plays_by_id(child, codec)
            won = [e for e in child.apply(greedy_play(child, rest)) if isinstance(e, TrickWon)]
        pts = won[0].points
        worth = (pts if won[0].winner in friends else -pts) - keep(p.card)
        key = (worth, -cheap(p.card))
        if best is None or key > best:
            best, choice = key, p.card
    return choice


@pytest.mark.parametrize(("key", "options"), TABLE_GAMES)
def test_the_lookahead_policy_matches_its_engine_reading(
    key: str, options: dict[str, object]
) -> None:
    rules = Rules.make(key, options)
    codec = Codec(rules)
    buf = np.empty(table.MAXH, np.int64)
    scratch = np.empty(table.SIZE, np.int64)
    work = np.empty(table.MAXH, np.int64)
    checked = 0
    for seed in range(15):
        rng = random.Random(seed)
        state = GameState(rules, shuffled_deal(rules, seed % rules.players, rng))
        while to_card_play(state, rng):
            pos = table.from_state(state, codec)
            plays = plays_by_id(state, codec)
            n = table.legal_cards(pos, buf)
            cards = np.sort(buf[:n])
            chosen = codec.card[table.lookahead_card(pos, cards, n, scratch, work)]
            assert chosen == lookahead_reference(state, plays, codec), (str(state.trick), plays)
            checked += n > 1
            state.apply(rng.choice(plays))
    assert checked > 15 * 10
