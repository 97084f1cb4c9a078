"""The networks shipped in the package: each says what it is (kind, game, the features'
version, the commit and seed that trained it), they fit in 5 MB together, and the strong
level reads its game's value network from there."""

from __future__ import annotations

import pytest

from briscola.ai.learned.features import N_FEATURES
from briscola.ai.learned.net import SHIPPED, Net, network
from briscola.ai.search.config import STRONG
from briscola.training.run import FEATURES_VERSION

pytest.importorskip("numba")


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


def test_the_strong_level_values_briscola_2_by_the_shipped_network() -> None:
    assert STRONG.value_net == "shipped" and STRONG.leaf_tricks == 2
    net = network("shipped", "briscola-2", "value")
    assert net is not None and net.outputs == 2
    assert network("shipped", "briscolone", "value") is None  # none shipped: playouts
