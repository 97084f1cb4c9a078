"""The value network at the search's leaves: a leaf is the network's value of the world
once the card's trick is played, the end of a hand is solved as the search without the
network solves it, and a search player with a network file plays whole hands (and is
refused a network of another game)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from briscola.ai.cores.head_to_head import (
    COUNTING,
    COUNTING_JUDGE,
    ND,
    PTS,
    SP,
    TRICK,
    legal_cards,
    to_move,
)
from briscola.ai.cores.head_to_head import play_card as core_play
from briscola.ai.cores.head_to_head_solver import NO_EACH, evaluate, new_table
from briscola.ai.learned.features import N_FEATURES, deck_mask, encode_dense
from briscola.ai.learned.games import deck_ids, play_games
from briscola.ai.learned.learn import sigmoid
from briscola.ai.learned.leaves import NO_NET, evaluate_leaves
from briscola.ai.learned.net import Net, NetError
from briscola.ai.search.config import STRONG
from briscola.ai.search.players import SearchBot
from briscola.engine import GameState, Rules, seat_view, shuffled_deal
from helpers import play_hand

RULES = Rules.make("briscola-2")
DECK = deck_mask(deck_ids(RULES))
NONE = np.empty(0, np.float64)


def value_net(seed: int = 1) -> Net:
    net = Net.fresh(N_FEATURES, (16, 8), 2, np.random.default_rng(seed))
    net.meta.update(kind="value", game="briscola-2")
    for k in range(3):
        net.bs[k][:] = np.random.default_rng(seed + k).standard_normal(net.bs[k].shape) * 0.1
    return net


def legal(pos: np.ndarray) -> np.ndarray:
    buf = np.empty(5, np.int64)
    n = legal_cards(pos, buf)
    return buf[:n].copy()


def policy_net(seed: int = 3) -> Net:
    net = Net.fresh(N_FEATURES, (16, 8), 40, np.random.default_rng(seed))
    net.meta.update(kind="policy", game="briscola-2")
    return net


def leaves(
    pos: np.ndarray,
    moves: np.ndarray,
    seat: int,
    net: Net,
    exact_end: int,
    policy: Net | None = None,
    tricks: int = 0,
) -> np.ndarray:
    out = np.zeros((moves.shape[0], 3))
    evaluate_leaves(
        pos[None, :], moves, seat, COUNTING, COUNTING, COUNTING_JUDGE, COUNTING_JUDGE,
        tricks, exact_end, 0.2, 0, 7, new_table(10), 1, out, np.zeros(1, np.int64), NONE,
        NO_EACH, DECK, net.kernel_args(), NO_NET if policy is None else policy.kernel_args(),
    )  # fmt: skip
    return out


def value_after(pos: np.ndarray, seat: int, net: Net) -> tuple[float, float]:
    """The numpy reference's leaf: the chance plus a fifth of half the margin, and the
    points the margin gives."""
    x = np.zeros((1, N_FEATURES), np.float32)
    encode_dense(pos, seat, True, DECK, x[0])
    z = net.forward(x)[0]
    return float(sigmoid(z[:1])[0] + 0.2 * z[1] / 2), float((120 + 60 * z[1]) / 2)


def test_a_leaf_is_the_networks_value_once_the_trick_is_played() -> None:
    """The second to a trick: each card ends it, and its leaf is the network's chance of
    winning from the world after it (plus a fifth of half the margin, as the search's
    outcome counts the margin), its points the margin's."""
    games = play_games(RULES, 20, 4)
    net = value_net()
    checked = 0
    for pos, seat in zip(games.positions, games.seats, strict=True):
        if pos[TRICK] < 0 or pos[ND] - pos[SP] < 6:
            continue
        moves = legal(pos)
        got = leaves(pos, moves, int(seat), net, 0)
        for m, card in enumerate(moves):
            child = pos.copy()
            core_play(child, card)
            want, points = value_after(child, int(seat), net)
            assert got[m, 0] == pytest.approx(want, abs=1e-5)
            assert got[m, 1] == pytest.approx(points, abs=1e-3)
        checked += 1
    assert checked > 50


def likeliest(pos: np.ndarray, policy: Net) -> int:
    """The numpy reference's choice: the legal card of highest logit from the view of the
    seat to move."""
    x = np.zeros((1, N_FEATURES), np.float32)
    encode_dense(pos, int(to_move(pos)), False, DECK, x[0])
    logits = policy.forward(x)[0]
    return int(max(legal(pos), key=lambda c: logits[c]))


def test_the_tricks_before_a_leaf_are_the_policy_networks_likeliest_cards() -> None:
    """The seat leads: with a policy network, the trick is ended by the opponent's legal
    card of highest logit from its own view (the numpy reference), and the next trick is
    played the same way, each seat by its own view; the leaf is the value network's of
    the world after them. They differ from the playout policies' somewhere, so the
    network was asked."""
    games = play_games(RULES, 20, 6)
    net, policy = value_net(), policy_net()
    checked = differ = 0
    for pos, seat in zip(games.positions, games.seats, strict=True):
        if pos[TRICK] >= 0 or pos[ND] - pos[SP] < 6:
            continue
        moves = legal(pos)
        got = leaves(pos, moves, int(seat), net, 0, policy, tricks=1)
        by_rules = leaves(pos, moves, int(seat), net, 0, None, tricks=1)
        for m, card in enumerate(moves):
            child = pos.copy()
            core_play(child, card)
            for _ in range(3):  # the answer, then the next trick's two cards
                core_play(child, likeliest(child, policy))
            want, points = value_after(child, int(seat), net)
            assert got[m, 0] == pytest.approx(want, abs=1e-5)
            assert got[m, 1] == pytest.approx(points, abs=1e-3)
        differ += not np.allclose(got, by_rules)
        checked += 1
    assert checked > 50 and differ > 5, (checked, differ)


def test_the_end_of_a_hand_is_solved_as_without_the_network() -> None:
    """With few cards left to draw, a leaf is solved exactly, the same as the search
    without the network solves it."""
    games = play_games(RULES, 20, 5)
    net = value_net()
    checked = 0
    for pos, seat in zip(games.positions, games.seats, strict=True):
        if pos[ND] - pos[SP] > 2:
            continue
        moves = legal(pos)
        got = leaves(pos, moves, int(seat), net, 2)
        want = np.zeros((moves.shape[0], 3))
        evaluate(
            pos[None, :], moves, int(seat), 1, COUNTING, COUNTING, COUNTING_JUDGE,
            COUNTING_JUDGE, 0.0, 0.0, 2, 2, 0.2, 0, 7, new_table(10), 1, want,
            np.zeros(1, np.int64), NONE, NO_EACH,
        )  # fmt: skip
        np.testing.assert_allclose(got, want)
        assert (got[:, 1] <= 120).all() and (got[:, 1] >= pos[PTS + seat]).all()
        checked += 1
    assert checked > 50


def test_a_search_player_with_a_network_plays_whole_hands(tmp_path: Path) -> None:
    path = tmp_path / "value.npz"
    value_net().save(path)
    bot = SearchBot(seed=1, config=replace(STRONG, worlds=16, value_net=str(path)))
    for deal in range(2):
        state = play_hand(RULES, [bot, bot], 2 + deal)
        assert sum(state.seat_points) == 120


def test_a_network_of_another_game_or_kind_is_refused(tmp_path: Path) -> None:
    net = value_net()
    net.meta["game"] = "briscolone"
    net.save(tmp_path / "other.npz")
    bot = SearchBot(seed=1, config=replace(STRONG, worlds=8, value_net=str(tmp_path / "other.npz")))
    state = GameState(RULES, shuffled_deal(RULES, 0, random.Random(1)))
    with pytest.raises(NetError, match="a value network of briscolone, not a value network of"):
        bot.choose(seat_view(state, state.turn))
