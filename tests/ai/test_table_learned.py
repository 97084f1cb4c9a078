"""The table games' value network: what it reads of a position (the seat's view alone, or
every card where it lies), the hands it learns from, and its value at the leaves of the
table search, checked against a plain numpy reference."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from briscola.ai.cores.head_to_head import Codec
from briscola.ai.cores.table_games import (
    DRAW,
    MAXH,
    ND,
    NEED,
    NH,
    SIDE,
    SP,
    TRUMP,
    H,
    N,
    greedy_card,
    is_over,
    legal_cards,
    play_card,
    result,
    side_points,
    solve,
    to_move,
)
from briscola.ai.learned.features import deck_mask
from briscola.ai.learned.learn import sigmoid
from briscola.ai.learned.leaves import NO_NET
from briscola.ai.learned.net import Net, NetError
from briscola.ai.learned.table_features import (
    GONE,
    HANDS,
    N_FEATURES,
    TABLE,
    TURNED,
    UNSEEN,
    encode_dense,
)
from briscola.ai.learned.table_hands import play_hands, value_rows
from briscola.ai.learned.table_leaves import net_values, orders_left
from briscola.ai.search.config import STRONG
from briscola.ai.search.players import SearchBot
from briscola.engine import Rules
from helpers import play_hand

GAMES = ("briscola-3", "briscola-4", "briscola-6", "schembil")


def deck_of(rules: Rules) -> int:
    return deck_mask(Codec(rules).id.values())


def positions(game: str, hands: int = 6, seed: int = 1) -> np.ndarray:
    return play_hands(Rules.make(game), hands, seed, keep=6).positions.astype(np.int64)


def hidden_shuffled(pos: np.ndarray, seat: int, rng: random.Random) -> np.ndarray:
    """Another world of ``seat``'s view: the other hands' cards and the face-down stock
    dealt again among the same places."""
    out = pos.copy()
    n = int(pos[N])
    places = [H + s * MAXH + i for s in range(n) if s != seat for i in range(int(pos[NH + s]))]
    left = int(pos[ND] - pos[SP])
    down = left - 1 if pos[TRUMP] >= 0 and left > 0 else left
    places += [DRAW + int(pos[SP]) + i for i in range(down)]
    cards = [int(pos[p]) for p in places]
    rng.shuffle(cards)
    for p, c in zip(places, cards, strict=True):
        out[p] = c
    return out


def read(pos: np.ndarray, seat: int, full: bool, deck: int) -> np.ndarray:
    out = np.zeros(N_FEATURES, np.float32)
    encode_dense(pos, seat, full, deck, out)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_reads_the_same_in_every_world_of_its_view(game: str) -> None:
    rules = Rules.make(game)
    deck = deck_of(rules)
    rng = random.Random(5)
    differ = 0
    for pos in positions(game):
        for seat in range(rules.players):
            other = hidden_shuffled(pos, seat, rng)
            assert np.array_equal(read(pos, seat, False, deck), read(other, seat, False, deck))
            differ += not np.array_equal(read(pos, seat, True, deck), read(other, seat, True, deck))
    assert differ > 0  # the world's reading does see the hidden cards


@pytest.mark.parametrize("game", GAMES)
def test_every_card_is_read_once_where_it_lies(game: str) -> None:
    """Read as the world lies, each card of the game is in one block: a hand at its seat
    counted from the reader, the face-down stock, the turned card, the trick, or gone."""
    rules = Rules.make(game)
    deck = deck_of(rules)
    ids = sorted(Codec(rules).id.values())
    for pos in positions(game):
        n = int(pos[N])
        for seat in range(n):
            x = read(pos, seat, True, deck)
            blocks = [HANDS + 40 * k for k in range(n)] + [UNSEEN, TURNED, GONE]
            blocks += [TABLE + 40 * k for k in range(n)]
            cards = np.concatenate([x[b : b + 40] for b in blocks]).reshape(-1, 40)
            assert np.array_equal(cards.sum(0)[ids], np.ones(len(ids)))
            for k in range(n):
                s = (seat + k) % n
                held = {int(pos[H + s * MAXH + i]) for i in range(int(pos[NH + s]))}
                assert set(np.flatnonzero(x[HANDS + 40 * k : HANDS + 40 * k + 40])) == held


def test_the_hands_learned_from_end_with_their_results() -> None:
    rules = Rules.make("briscola-4")
    hands = play_hands(rules, 40, seed=3, keep=4)
    assert hands.positions.shape == (160, hands.positions.shape[1])
    for g in range(40):
        # two sides of two: each seat's side points, the sides' sum 120, the result follows
        ours, theirs = hands.points[g, 0], hands.points[g, 1]
        assert ours + theirs == 120 and hands.points[g, 2] == ours
        want = 1.0 if ours > theirs else 0.0 if ours < theirs else 0.5
        assert hands.won[g, 0] == want and hands.won[g, 1] == 1.0 - want
    buf = np.empty(MAXH, np.int64)
    for pos, card in zip(hands.positions.astype(np.int64), hands.cards, strict=True):
        assert card in buf[: legal_cards(pos, buf)]  # the card played there, a legal one
    x, y = value_rows(hands, np.arange(3), rules, 60.0)
    assert x.shape == (12, N_FEATURES)
    g = hands.hand[0]
    assert list(y[:4, 0]) == list(hands.won[g, :4])
    assert y[1, 1] == pytest.approx((hands.points[g, 1] - 60) / 60)


def value_net(game: str, seed: int = 1) -> Net:
    net = Net.fresh(N_FEATURES, (16, 8), 2, np.random.default_rng(seed))
    net.meta.update(kind="value", game=game)
    for k in range(3):
        net.bs[k][:] = np.random.default_rng(seed + k).standard_normal(net.bs[k].shape) * 0.1
    return net


def policy_net(game: str, seed: int = 3) -> Net:
    net = Net.fresh(N_FEATURES, (16, 8), 40, np.random.default_rng(seed))
    net.meta.update(kind="policy", game=game)
    return net


def reference_leaf(
    world: np.ndarray,
    card: int,
    seat: int,
    tricks: int,
    exact: int,
    net: Net,
    deck: int,
    policy: Net | None = None,
) -> tuple[float, float, str]:
    """The leaf written plainly: the card, its trick and ``tricks`` more by the greedy
    policy (or each the legal card of highest ``policy`` logit, numpy, from the view of
    the seat to move), then the hand's result, the solver, or the network (numpy) on
    that world."""
    pos = world.copy()
    taken = int(play_card(pos, card) >= 0)
    buf = np.empty(MAXH, np.int64)
    while taken <= tricks and not is_over(pos):
        if pos[SP] >= pos[ND] and orders_left(pos) <= exact:
            break
        n = legal_cards(pos, buf)
        if n == 1:
            c = int(buf[0])
        elif policy is None:
            c = greedy_card(pos, buf, n)
        else:
            logits = policy.forward(read(pos, to_move(pos), False, deck)[None])[0]
            c = int(max(buf[:n], key=lambda x: (logits[x], -list(buf[:n]).index(x))))
        taken += int(play_card(pos, c) >= 0)
    if is_over(pos):
        return result(pos, seat, 0.2, 60.0), side_points(pos, int(pos[SIDE + seat])), "ended"
    if pos[SP] >= pos[ND] and orders_left(pos) <= exact:
        return solve(pos, seat, 0.2, 60.0), 60.0, "solved"
    z = net.forward(read(pos, seat, True, deck)[None])[0]
    value = float(sigmoid(z[:1])[0]) + 0.2 * float(z[1])
    return value, 60.0 + 60.0 * float(z[1]), "network"


@pytest.mark.parametrize(("tricks", "with_policy"), [(0, False), (2, False), (2, True)])
def test_a_leaf_is_the_network_on_the_world_after_the_greedy_tricks(
    tricks: int, with_policy: bool
) -> None:
    """(Or after the policy network's tricks.)"""
    rules = Rules.make("briscola-4")
    deck = deck_of(rules)
    net = value_net("briscola-4")
    policy = policy_net("briscola-4") if with_policy else None
    args = NO_NET if policy is None else policy.kernel_args()
    checked = {"network": 0, "solved": 0, "ended": 0}
    differ = 0
    for pos in positions("briscola-4", hands=10, seed=7):
        buf = np.empty(MAXH, np.int64)
        n = legal_cards(pos, buf)
        cards = buf[:n].copy()
        seat = to_move(pos)
        out = np.zeros((n, 2))
        net_values(
            pos[None], cards, seat, tricks, 64, 0.2, 60.0, deck, out, net.kernel_args(), args
        )
        for i, c in enumerate(cards):
            want = reference_leaf(pos, int(c), seat, tricks, 64, net, deck, policy)
            assert out[i, 0] == pytest.approx(want[0], abs=1e-5)
            assert out[i, 1] == pytest.approx(want[1], abs=1e-3)
            checked[want[2]] += 1
            greedy = reference_leaf(pos, int(c), seat, tricks, 64, net, deck)
            differ += abs(greedy[0] - want[0]) > 1e-6
    assert min(checked.values()) > 0, checked
    assert (differ > 0) == with_policy  # the policy's tricks are not the greedy ones


def test_a_search_player_with_a_table_network_plays_whole_hands(tmp_path: Path) -> None:
    path = tmp_path / "b4.npz"
    value_net("briscola-4").save(path)
    config = replace(STRONG, table_value_net=str(path), table_worlds=8)
    for seed in (1, 2):
        state = play_hand(Rules.make("briscola-4"), [SearchBot(seed, config)] * 4, seed)
        assert state.over and sum(state.seat_points) == 120
    with pytest.raises(NetError, match="not a value network of briscola-3"):
        play_hand(Rules.make("briscola-3"), [SearchBot(1, config)] * 3, 1)


def test_chiamata_hands_are_played_from_the_call_with_the_callers_side() -> None:
    """The intermediate bots bid and call; the card play is the table core's, the caller
    and the holder of the called card one side (alone, when the caller holds it)."""
    rules = Rules.make("chiamata")
    hands = play_hands(rules, 30, seed=4, keep=2)
    for g in range(30):
        points = hands.points[g, :5]
        sides = set(points.tolist())
        assert len(sides) <= 2 and (len(sides) == 1 or sum(sides) == 120)
        if len(sides) == 1:  # 60 each: the caller's side needed 61, and lost
            assert sorted(hands.won[g, :5].tolist()) in ([0, 0, 1, 1, 1], [0, 1, 1, 1, 1])
            continue
        assert min((points == p).sum() for p in sides) in (1, 2)
        for s in range(5):
            # one side won, the other lost: the same result across a side
            same = [t for t in range(5) if points[t] == points[s]]
            assert len({float(hands.won[g, t]) for t in same}) == 1
    for pos in hands.positions.astype(np.int64):
        assert pos[NEED] >= 61
