"""The networks shipped in the package: each says what it is (kind, game, the features'
version, the commit and seed that trained it), they fit in 5 MB together, and the strong
level reads its game's value and policy networks from there."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from briscola.ai.learned.features import N_FEATURES
from briscola.ai.learned.net import SHIPPED, Net, network
from briscola.ai.learned.table_features import N_FEATURES as N_TABLE_FEATURES
from briscola.ai.search.config import STRONG
from briscola.ai.search.pimc import head_to_head
from briscola.ai.search.players import SearchBot, engine_values
from briscola.engine import GameState, Rules, seat_view, shuffled_deal
from briscola.training.run import FEATURES_VERSION
from helpers import play_hand

pytest.importorskip("numba")

RULES = Rules.make("briscola-2")
TABLE_FEATURES = "table-1"


def test_every_shipped_network_says_what_it_is_and_all_fit_in_5_mb() -> None:
    files = sorted(SHIPPED.glob("*.npz"))
    assert files, "no network is shipped"
    assert sum(f.stat().st_size for f in files) <= 5_000_000
    for f in files:
        net = Net.load(f)
        game, kind = f.stem.rsplit("-", 1)
        assert (net.meta["game"], net.meta["kind"]) == (game, kind), f
        if net.meta["features"] == TABLE_FEATURES:  # a table game's network
            assert Rules.make(game).players > 2 and net.inputs == N_TABLE_FEATURES, f
        else:
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


def test_the_strong_level_plays_briscola_4_by_its_shipped_value_network() -> None:
    """The value network at the table search's leaves, each world solved from when the
    stock is out; the other table games, with no network shipped, play out their worlds
    and solve only the last two tricks, as before."""
    assert STRONG.table_value_net == "shipped" and STRONG.table_fast_worlds
    assert STRONG.table_net_exact == 1296 and STRONG.table_exact == 64
    value = network("shipped", "briscola-4", "value")
    assert value is not None and value.outputs == 2 and value.inputs == N_TABLE_FEATURES
    for game in ("briscola-3", "briscola-6", "chiamata", "schembil"):
        assert network("shipped", game, "value") is None
    rules = Rules.make("briscola-4")
    bot = SearchBot(seed=5, config=replace(STRONG, table_worlds=24))
    state = play_hand(rules, [bot] * 4, 7)
    assert sum(state.seat_points) == 120
    # the network's values at the first card are not the playouts'
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(3)))
    view = seat_view(state, state.turn)
    small = replace(STRONG, table_worlds=24)
    with_net, without = (
        engine_values(view, rules, replace(small, table_value_net=net), view.hand, 9)
        for net in ("shipped", None)
    )
    assert with_net != without and set(with_net) == set(view.hand)


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
