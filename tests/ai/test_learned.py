"""The learned evaluator's networks: what they read, their inference against the plain
numpy reference, their files, and the policy's player (training runs:
tests/training/test_run.py)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from briscola.ai.cores.head_to_head import Codec
from briscola.ai.learned.features import MAX_ACTIVE, N_FEATURES, deck_mask, encode, encode_dense
from briscola.ai.learned.games import deck_ids, play_games
from briscola.ai.learned.net import Net, NetError, mlp_sparse
from briscola.ai.learned.player import PolicyBot, view_position
from briscola.engine import GameState, Rules, seat_view, shuffled_deal
from briscola.engine.actions import Play
from briscola.engine.state import OVER

RULES = Rules.make("briscola-2")
DECK = deck_mask(deck_ids(RULES))


def positions(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    games = play_games(RULES, n, seed)
    return games.positions, games.seats


@pytest.mark.parametrize("full", [True, False])
def test_every_card_is_read_in_exactly_one_place(full: bool) -> None:
    """Each of the 40 cards is in one block: the hand, the opponent's hand (a world) or
    unseen, the turned card, the table, or gone."""
    pos, seats = positions(20, 1)
    out = np.zeros(N_FEATURES, np.float32)
    for p, s in zip(pos, seats, strict=True):
        encode_dense(p, int(s), full, DECK, out)
        blocks = out[:240].reshape(6, 40)
        assert (blocks.sum(0) == 1).all()
        if not full:
            assert blocks[1].sum() == 0  # the opponent's hand is not read from a view
        hand = int(p[10 + s])  # NH
        assert blocks[0].sum() == hand


def test_a_view_reads_as_the_hand_it_came_from() -> None:
    """Read as the seat sees it, the position the policy's player makes from a view (the
    hidden cards anywhere) is the same numbers as the true position (as the training
    hands are read): the policy cannot tell where the hidden cards are, and plays from
    what it was trained on."""
    codec = Codec(RULES)
    rng = random.Random(3)
    for deal in range(12):
        state = GameState(RULES, shuffled_deal(RULES, deal % 2, rng))
        for _ in range(deal * 3):
            state.apply(rng.choice(state.legal_actions()))
        view = seat_view(state, state.turn)
        seat = view.seat
        assert seat is not None
        read = []
        for pos in (codec.from_state(state), view_position(view, codec)):
            out = np.zeros(N_FEATURES, np.float32)
            encode_dense(pos, seat, False, DECK, out)
            read.append(out)
        assert (read[0] == read[1]).all(), deal


def test_the_compiled_inference_is_the_numpy_reference() -> None:
    pos, seats = positions(30, 2)
    rng = np.random.default_rng(5)
    for hidden, outputs in (((64, 32), 2), ((16, 8), 40)):
        net = Net.fresh(N_FEATURES, hidden, outputs, rng)
        for k in range(3):  # biases too, not only zeros
            net.bs[k][:] = rng.standard_normal(net.bs[k].shape).astype(np.float32) * 0.1
        idx = np.empty(MAX_ACTIVE, np.int64)
        val = np.empty(MAX_ACTIVE, np.float32)
        out = np.empty(outputs, np.float32)
        dense = np.zeros((len(pos), N_FEATURES), np.float32)
        got = np.empty((len(pos), outputs), np.float32)
        for r, (p, s) in enumerate(zip(pos, seats, strict=True)):
            n = encode(p, int(s), r % 2 == 0, DECK, idx, val)
            dense[r, idx[:n]] = val[:n]
            mlp_sparse(idx, val, n, *net.kernel_args(), out)
            got[r] = out
        np.testing.assert_allclose(got, net.forward(dense), rtol=1e-4, atol=1e-5)


def test_a_network_file_keeps_its_weights_and_description(tmp_path: Path) -> None:
    net = Net.fresh(
        10, (4, 3), 2, np.random.default_rng(1), {"kind": "value", "game": "briscola-2"}
    )
    net.save(tmp_path / "v.npz")
    back = Net.load(tmp_path / "v.npz")
    assert back.meta["game"] == "briscola-2" and back.meta["format"] == 1
    x = np.ones((2, 10), np.float32)
    assert (back.forward(x) == net.forward(x)).all()
    with pytest.raises(NetError, match="no network at"):
        Net.load(tmp_path / "missing.npz")
    (tmp_path / "bad.npz").write_bytes(b"not a network")
    with pytest.raises(NetError, match="is not a network file"):
        Net.load(tmp_path / "bad.npz")
    arrays = {f"{k}{i}": a for i in range(3) for k, a in (("w", net.ws[i]), ("b", net.bs[i]))}
    np.savez(tmp_path / "old.npz", meta=np.array('{"format": 99}'), **arrays)
    with pytest.raises(NetError, match="train it again"):
        Net.load(tmp_path / "old.npz")


def test_the_policy_player_plays_only_legal_cards_from_its_view() -> None:
    net = Net.fresh(N_FEATURES, (8, 8), 40, np.random.default_rng(2), {"kind": "policy"})
    bot = PolicyBot(net, seed=1)
    rng = random.Random(1)
    state = GameState(RULES, shuffled_deal(RULES, 0, rng))
    plays = 0
    while state.phase != OVER:
        view = seat_view(state, state.turn)
        action = bot.choose(view)
        assert action in view.legal
        plays += isinstance(action, Play)
        state.apply(action)
    assert plays == 40
