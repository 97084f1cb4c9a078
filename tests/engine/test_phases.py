"""Phases are compared by value: a phase that came back through JSON (a rebuilt state, a
remote bot) is as good as the engine's own, and one that is no phase is refused."""

from __future__ import annotations

import json
import random

import pytest

from briscola.engine import BriscolaError, GameState, Rules, shuffled_deal
from briscola.engine.phases import Phase


def _through_json(value: object) -> object:
    back: object = json.loads(json.dumps(value))
    return back


@pytest.mark.parametrize("key", ["briscola-2", "briscola-4", "chiamata", "briskula-double"])
def test_a_hand_plays_to_the_end_with_phases_that_came_back_through_json(key: str) -> None:
    rules = Rules.make(key)
    rng = random.Random(5)
    for dealer in range(rules.players):
        state = GameState(rules, shuffled_deal(rules, dealer, rng))
        plain = GameState(rules, state.deal)
        while not plain.over:
            plain.phase = _through_json(plain.phase)  # type: ignore[assignment]
            assert type(plain.phase) is str
            legal = plain.legal_actions()
            assert legal == state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            assert plain.apply(action) == state.apply(action)
        assert state.over and plain.winners() == state.winners()
        assert plain.legal_actions() == []


def test_the_phase_is_an_enum_whose_json_form_is_its_string() -> None:
    rules = Rules.make("chiamata")
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(1)))
    assert state.phase is Phase.AUCTION and json.dumps(state.phase) == '"auction"'
    assert [str(p) for p in Phase] == ["play", "over", "auction", "call", "talk"]


@pytest.mark.parametrize("key", ["briscola-2", "chiamata"])
def test_a_phase_that_is_no_phase_is_refused_with_a_briscola_error(key: str) -> None:
    rules = Rules.make(key)
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(1)))
    action = state.legal_actions()[0]
    state.phase = "bidding"  # type: ignore[assignment]
    with pytest.raises(BriscolaError, match="phase 'bidding'"):
        state.legal_actions()
    with pytest.raises(BriscolaError, match="phase 'bidding'"):
        state.apply(action)
