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


def canonical(row: np.ndarray) -> np.ndarray:
    """A position with each hand's cards in order (hands are unordered in the core)."""
    out = row.copy()
    for s in range(int(row[table.N])):
        base = table.H + s * table.MAXH
        k = int(row[table.NH + s])
        out[base : base + k] = np.sort(row[base : base + k])
    return out


@pytest.mark.parametrize(("key", "options"), TABLE, ids=[config_id(k, o) for k, o in TABLE])
def test_worlds_dealt_in_numpy_are_worlds_the_sampler_deals(
    key: str, options: dict[str, object]
) -> None:
    """Each world ``deal_worlds`` deals is one the sampler may deal (the same array as
    ``from_worlds`` gives for it), and a hidden card goes to each hidden place as often."""
    rules = Rules.make(key, options)
    codec = Codec(rules)
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = random_state(rules, rng)
        while not state.over:
            view = seat_view(state, state.turn)
            sampler = Sampler(view, rules)
            if state.phase == Phase.PLAY and len(sampler.removals) == 1:
                root = table.view_root(view, rules, codec)
                pool = [c for c in sampler.pool if c not in sampler.removals[0]]
                args = (sampler.fixed, sampler.slots, pool, sampler.top, view.turned)
                caller = None if view.auction is None else view.auction.caller
                team = None
                if caller is not None and sampler.called is not None:
                    team = (caller, sampler.called, view.played_by(sampler.called))
                rng_np = np.random.default_rng(seed)
                got = table.deal_worlds(root, codec, *args, 400, rng_np, team)
                for row in got[:5]:
                    # the same world, by the sampler's own form: its hands and its stock
                    hands = [
                        [codec.card[int(c)] for c in row[table.H + s * 8 : table.H + s * 8 + n]]
                        for s, n in enumerate(row[table.NH : table.NH + view.players])
                    ]
                    draw = [
                        codec.card[int(c)] for c in row[table.DRAW : table.DRAW + row[table.ND]]
                    ]
                    stock = draw[:-1] if view.turned is not None else draw
                    side = None
                    if team is not None:  # the caller and the called card's holder
                        played = team[2]
                        held = [s for s, h in enumerate(hands) if team[1] in h]
                        side = (caller, played if played is not None else held[0])
                    dealt = [(hands, stock, view.turned, side)]
                    want = table.from_worlds(root, codec, dealt)[0]  # type: ignore[arg-type]
                    np.testing.assert_array_equal(canonical(row), canonical(want))
                    for s, fixed in enumerate(sampler.fixed):
                        assert set(fixed) <= set(hands[s])
                    checked += 1
                # a hidden card is in the first hidden hand about as often as that hand's
                # share of the hidden places
                places = sum(sampler.slots) + sampler.down
                first = next((s for s, k in enumerate(sampler.slots) if k), None)
                if first is not None and places >= 6 and pool:
                    card = codec.id[pool[0]]
                    base = table.H + first * 8
                    held = (got[:, base : base + 8] == card).any(axis=1).mean()
                    assert abs(held - sampler.slots[first] / places) < 0.12
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 0
