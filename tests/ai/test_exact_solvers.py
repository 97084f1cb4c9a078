"""The exact solvers against brute force: full minimax without pruning, written here from
the rules (not from the fast core), on many random small positions."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence

import numpy as np
import pytest

from briscola.ai.cores import head_to_head as fast
from briscola.ai.cores.head_to_head import Codec
from briscola.ai.cores.head_to_head_solver import Solver, random_states
from briscola.ai.search.determinize import Sampler
from briscola.ai.search.exact_endgame import solve_state, state_values
from briscola.ai.search.exact_head_to_head import enumerate_values, solve_view, world_position
from briscola.engine import GameState, Play, Rules, seat_view, shuffled_deal


def brute(
    hands: tuple[tuple[int, ...], tuple[int, ...]],
    draw: tuple[int, ...],
    leader: int,
    led: int,
    trump: int,
    pval: Sequence[int],
    follow: bool,
) -> int:
    """The points seat 0 still takes with best play on both sides, by full minimax over
    integer cards (suit * 10 + strength)."""
    if not hands[0] and not hands[1] and led < 0:
        return 0
    mover = leader if led < 0 else 1 - leader
    hand = hands[mover]
    options = hand
    if led >= 0 and follow:
        same = tuple(c for c in hand if c // 10 == led // 10)
        options = same or hand
    values = []
    for c in options:
        rest = list(hands)
        rest[mover] = tuple(x for x in hand if x != c)
        if led < 0:
            values.append(brute((rest[0], rest[1]), draw, leader, c, trump, pval, follow))
            continue
        second_wins = (c // 10 == led // 10 and c > led) or (
            c // 10 != led // 10 and c // 10 == trump
        )
        winner = mover if second_wins else leader
        pts = pval[c % 10] + pval[led % 10]
        if draw:
            rest[winner] = (*rest[winner], draw[0])
            rest[1 - winner] = (*rest[1 - winner], draw[1])
        v = brute((rest[0], rest[1]), draw[2:], winner, -1, trump, pval, follow)
        values.append(v + (pts if winner == 0 else 0))
    return max(values) if mover == 0 else min(values)


def brute_position(pos: np.ndarray) -> int:
    hands = tuple(
        tuple(int(pos[fast.H + s * fast.MAXH + k]) for k in range(int(pos[fast.NH + s])))
        for s in (0, 1)
    )
    draw = tuple(int(pos[fast.DRAW + k]) for k in range(int(pos[fast.SP]), int(pos[fast.ND])))
    pval = [int(x) for x in pos[fast.PVAL : fast.PVAL + 10]]
    v = brute(
        (hands[0], hands[1]),
        draw,
        int(pos[fast.LEADER]),
        int(pos[fast.TRICK]),
        int(pos[fast.TRUMP]),
        pval,
        bool(pos[fast.FOLLOW]),
    )
    return v + int(pos[fast.PTS])


def random_positions(
    key: str, options: dict[str, object], pile: int, count: int, seed: int
) -> list[GameState]:
    return random_states(Rules.make(key, options), pile, count, random.Random(seed))


@pytest.mark.parametrize(
    ("key", "options", "pile", "count"),
    [
        ("briscola-2", {}, 0, 300),
        ("briscola-2", {}, 2, 60),
        ("briscola-2", {}, 4, 8),
        ("briscola-2", {"follow_suit": "required"}, 2, 30),
        ("briscolone", {"follow_suit": "required"}, 0, 20),
        ("briskula", {"players": 2}, 2, 20),
    ],
)
def test_the_solver_matches_brute_force(
    key: str, options: dict[str, object], pile: int, count: int
) -> None:
    solver = Solver()
    small = Solver(table_bits=0)
    for state in random_positions(key, options, pile, count, seed=pile + len(key)):
        codec = Codec(state.rules)
        pos = codec.from_state(state)
        want = brute_position(pos)
        value, best = solver.solve(pos)
        assert value == want
        assert small.solve(pos)[0] == want
        # the best card reaches the value, and every card's value is exact
        moves, values = solver.values(pos)
        assert best in moves
        assert max(values) == want if state.turn == 0 else min(values) == want
        for c, v in zip(moves, values, strict=True):
            child = pos.copy()
            fast.play_card(child, c)
            assert v == brute_position(child)
            if c == best:
                assert v == want


def test_one_table_serves_many_worlds() -> None:
    """Worlds solved one after another share the table without mixing their entries."""
    shared = Solver(table_bits=10)
    for state in random_positions("briscola-2", {}, 8, 40, seed=3):
        pos = Codec(state.rules).from_state(state)
        fresh = Solver(table_bits=16).solve(pos)[0]
        assert shared.solve(pos)[0] == fresh
        assert shared.values(pos)[1] == Solver(table_bits=0).values(pos)[1]


def test_solve_view_gives_the_best_card_and_the_exact_difference() -> None:
    times = []
    for state in random_positions("briscola-2", {}, 0, 150, seed=11):
        seat = state.turn
        view = seat_view(state, seat)
        start = time.perf_counter()
        sol = solve_view(view, state.rules)
        times.append(time.perf_counter() - start)
        by_engine = state_values(state, seat)
        assert set(sol.values) == set(by_engine)
        for card, diff in sol.values.items():
            assert diff == 2 * by_engine[card] - 120
        assert sol.diff == max(sol.values.values())
        assert sol.values[sol.best] == sol.diff
        assert Play(seat, sol.best) in view.legal
    assert statistics.median(times) < 0.005  # measured well under 1 ms; loose for slow CI


def test_solve_view_refuses_hidden_positions() -> None:
    state = random_positions("briscola-2", {}, 6, 1, seed=1)[0]
    with pytest.raises(ValueError):
        solve_view(seat_view(state, state.turn), state.rules)


def test_enumerated_values_average_every_world() -> None:
    rules = Rules.make("briscola-2")
    checked = 0
    for state in random_positions("briscola-2", {}, 2, 30, seed=5):
        view = seat_view(state, state.turn)
        sampler = Sampler(view, rules)
        if sampler.count() > 30:
            continue
        got = enumerate_values(view, rules)
        codec = Codec(rules)
        want: dict[int, list[int]] = {}
        for world in sampler.worlds():
            pos = world_position(codec, view, world)
            for c in [codec.id[a.card] for a in view.legal if isinstance(a, Play)]:
                child = pos.copy()
                fast.play_card(child, c)
                v = brute_position(child)
                want.setdefault(c, []).append(v if state.turn == 0 else 120 - v)
        assert got == {codec.card[c]: sum(v) / len(v) for c, v in want.items()}
        checked += 1
    assert checked > 10
    big = random_positions("briscola-2", {}, 12, 1, seed=5)[0]
    with pytest.raises(ValueError):
        enumerate_values(seat_view(big, big.turn), rules, max_worlds=1000)


def test_the_engine_solver_agrees_with_the_fast_one() -> None:
    for state in random_positions("briscola-2", {}, 2, 10, seed=8):
        pos = Codec(state.rules).from_state(state)
        value = Solver().solve(pos)[0]
        assert solve_state(state, 0) == value
        assert solve_state(state, 1) == 120 - value


def test_the_engine_solver_plays_teams_to_the_end() -> None:
    """Four players in pairs, last trick: the side to maximize takes what it can."""
    rules = Rules.make("briscola-4")
    rng = random.Random(2)
    for _ in range(5):
        state = GameState(rules, shuffled_deal(rules, 0, rng))
        while sum(len(h) for h in state.hands) > 4 or state.trick:
            state.apply(rng.choice(state.legal_actions()))
        seat = state.turn
        value = solve_state(state, seat)
        side = rules.sides[rules.side_of[seat]]
        # brute force over the single trick left: each seat has one card
        copy = state.copy()
        while not copy.over:
            copy.apply(copy.legal_actions()[0])
        assert value == sum(copy.seat_points[s] for s in side)
