"""The networks shipped in the package: each says what it is (kind, game, the features'
version, the commit and seed that trained it), they fit in 5 MB together, and the strong
level reads its game's value and policy networks from there."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from briscola.ai.learned.features import N_FEATURES
from briscola.ai.learned.net import SHIPPED, Net, network
from briscola.ai.search.config import STRONG
from briscola.ai.search.pimc import head_to_head
from briscola.ai.search.players import SearchBot
from briscola.engine import GameState, Rules, seat_view, shuffled_deal
from briscola.training.run import FEATURES_VERSION
from helpers import play_hand

pytest.importorskip("numba")

RULES = Rules.make("briscola-2")


def test_every_shipped_network_says_what_it_is_and_all_fit_in_5_mb() -> None:
    files = sorted(SHIPPED.glob("*.npz"))
    assert files, "no network is shipped"
    assert sum(f.stat().st_size for f in files) <= 5_000_000
    for f in files:
        net = Net.load(f)
        game, kind = f.stem.rsplit("-", 1)
        assert (net.meta["game"], net.meta["kind"]) == (game, kind), f
        assert net.meta["features"] == FEATURES_VERSION and net.inputs == N_FEATURES
        for field in ("version", "commit", "seed", "rounds", "games"):
            assert net.meta.get(field) not in (None, ""), (f, field)


def test_the_strong_level_plays_briscola_2_by_the_shipped_networks() -> None:
    assert STRONG.value_net == "shipped" and STRONG.leaf_tricks == 2
    assert STRONG.policy_net == "shipped" and STRONG.leaf_policy_net
    value = network("shipped", "briscola-2", "value")
    assert value is not None and value.outputs == 2
    policy = network("shipped", "briscola-2", "policy")
    assert policy is not None and policy.outputs == 40
    for kind in ("value", "policy"):  # none shipped: playouts, and the counting model
        assert network("shipped", "briscolone", kind) is None


def test_the_strong_level_plays_whole_hands_of_briscola_2_with_both_networks() -> None:
    """Every card legal, through the leaves' network and the policy's inference (its memo
    kept from move to move of a hand, and started afresh at the next)."""
    bot = SearchBot(seed=3, config=replace(STRONG, worlds=24))
    for deal in range(3):
        state = play_hand(RULES, [bot, bot], 4 + deal)
        assert sum(state.seat_points) == 120


def test_the_tricks_before_the_leaves_are_the_policy_networks_only_where_there_is_one() -> None:
    """The search's values of a hand's views change when the cards before the leaves are
    the policy network's, and do not when there is no policy network (the playout
    policies play them either way)."""
    changed = 0
    for deal in range(2):
        state = GameState(RULES, shuffled_deal(RULES, deal, random.Random(deal)))
        bot = SearchBot(seed=deal, config=replace(STRONG, worlds=24))
        while state.stock_size > 6:
            view = seat_view(state, state.turn)
            with_net, without = (
                head_to_head(view, RULES, replace(STRONG, worlds=24, leaf_policy_net=on), 9)
                for on in (True, False)
            )
            changed += with_net != without
            alone = (
                head_to_head(
                    view,
                    RULES,
                    replace(STRONG, worlds=24, policy_net=None, leaf_policy_net=on),
                    9,
                )
                for on in (True, False)
            )
            assert next(alone) == next(alone)
            state.apply(bot.choose(view))
    assert changed >= 3, changed
