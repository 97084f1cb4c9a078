"""Worlds go straight from the sampler to the table core's array, as they would through
a rebuilt engine state."""

from __future__ import annotations

import random

import numpy as np
import pytest

from briscola.ai.cores import table_games as table
from briscola.ai.cores.head_to_head import Codec
from briscola.ai.search.determinize import Sampler, rebuild_state
from briscola.engine import Rules, seat_view
from briscola.engine.phases import Phase
from helpers import CONFIGS, config_id, random_state

TABLE = [(k, o) for k, o in CONFIGS if table.supports(Rules.make(k, o))]


@pytest.mark.parametrize(("key", "options"), TABLE, ids=[config_id(k, o) for k, o in TABLE])
def test_a_world_array_is_the_array_of_its_rebuilt_state(
    key: str, options: dict[str, object]
) -> None:
    rules = Rules.make(key, options)
    codec = Codec(rules)
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = random_state(rules, rng)
        while not state.over:
            if state.phase == Phase.PLAY:
                view = seat_view(state, state.turn)
                sampler = Sampler(view, rules)
                root = table.view_root(view, rules, codec)
                caller = None if view.auction is None else view.auction.caller
                worlds = [sampler.sample(rng) for _ in range(3)]
                dealt = [
                    (w.hands, w.stock, w.turned, None if caller is None else (caller, w.partner))
                    for w in worlds
                ]
                got = table.from_worlds(root, codec, dealt)  # type: ignore[arg-type]
                for row, world in zip(got, worlds, strict=True):
                    want = table.from_state(rebuild_state(view, world, rules), codec)
                    np.testing.assert_array_equal(row, want)
                    checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 0
