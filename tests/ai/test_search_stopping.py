"""The head-to-head search's early stopping (``SearchConfig.min_worlds``): cards that trail
the best by many standard errors stop being searched, and the cards still searched get
exactly the values the full search gives them. Also the opponent's own playout noise."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from briscola.ai.bot import make_bot
from briscola.ai.search import pimc
from briscola.ai.search.config import STRONG
from briscola.engine import GameState, Play, Rules, seat_view, shuffled_deal
from briscola.engine.views import View

RULES = Rules.make("briscola-2")


def midgame_views(count: int) -> list[View]:
    """Views with two or three cards to choose from and the stock still long."""
    out: list[View] = []
    g = 0
    while len(out) < count:
        state = GameState(RULES, shuffled_deal(RULES, g % 2, random.Random(100 + g)))
        bots = [make_bot("intermediate", seed=10 * g + s) for s in range(2)]
        while not state.over:
            view = seat_view(state, state.turn)
            plays = [a for a in view.legal if isinstance(a, Play)]
            if len(plays) > 1 and view.stock_size > 10 and len(out) < count:
                out.append(view)
            state.apply(bots[state.turn].choose(view))
        g += 1
    return out


def test_still_open_drops_only_the_cards_clearly_behind() -> None:
    rng = np.random.default_rng(1)
    luck = rng.normal(0, 0.3, 400)  # what each world deals every card alike
    each = np.stack(
        [luck + 0.7, luck + 0.69 + rng.normal(0, 0.3, 400), luck + 0.3 + rng.normal(0, 0.5, 400)],
        axis=1,
    )
    live = np.arange(3)
    assert list(pimc.still_open(each, live, 3.0)) == [0, 1]
    # a card behind by less than the noise of its difference stays
    assert list(pimc.still_open(each[:5], live, 3.0)) == [0, 1, 2]
    # and only the live columns are read
    assert list(pimc.still_open(each, np.array([1, 2]), 3.0)) == [1]


def test_early_stopping_values_each_card_on_the_worlds_it_searched() -> None:
    """Each card's value is the full search's over the first worlds, up to the batch after
    which it was dropped (or the search stopped)."""
    full = replace(STRONG, worlds=96, model_noise=1.0)
    batched = replace(full, min_worlds=16, stop_z=1e9)  # batches, never a stop
    stopped = 0
    for i, view in enumerate(midgame_views(8)):
        prefix = {
            k: pimc.head_to_head(view, RULES, replace(full, worlds=k), 7 + i)
            for k in range(16, 97, 16)
        }
        same = pimc.head_to_head(view, RULES, batched, 7 + i)
        for card, value in prefix[96].items():  # the same sums, added in batches
            assert same[card] == pytest.approx(value, rel=1e-12)
        for z in (0.0, 1.0, 3.0):
            got = pimc.head_to_head(view, RULES, replace(batched, stop_z=z), 7 + i)
            assert got.keys() == prefix[96].keys()
            for card, value in got.items():
                searched = [k for k in prefix if value == pytest.approx(prefix[k][card], rel=1e-12)]
                assert searched, f"{card}: {value} is no prefix's value"
                stopped += 96 not in searched
    assert stopped > 0


def test_the_opponents_playout_noise_is_its_own() -> None:
    """With the opponent playing at random in the playouts, the searching seat expects to
    do better than against the card-counting policy (the worlds played out: no value
    network)."""
    careful = replace(STRONG, worlds=64, eps=0.0, eps_other=0.0, model_noise=1.0, value_net=None)
    reckless = replace(careful, eps_other=1.0)
    views = midgame_views(8)
    better = 0
    for i, view in enumerate(views):
        a = pimc.head_to_head(view, RULES, careful, i)
        b = pimc.head_to_head(view, RULES, reckless, i)
        better += max(v[1] for v in b.values()) > max(v[1] for v in a.values())
    assert better >= 7
