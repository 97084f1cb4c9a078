"""The action that is logged is the action that was applied: ``apply_logged`` gives back
the canonical action (with what the engine added) together with the events."""

from __future__ import annotations

import dataclasses
import random

import pytest

from briscola.engine import Applied, GameState, IllegalActionError, Rules, parse_record, replay
from briscola.engine.actions import Signal
from briscola.engine.events import Talk
from helpers import config_id, random_state
from test_conformance import CONFIGS

SPOTTED = {"communication": "signals", "signal_audience": "spotted", "spot_chance": 50}


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=[config_id(k, o) for k, o in CONFIGS])
def test_the_logged_action_is_the_one_applied(key: str, options: dict[str, object]) -> None:
    rules = Rules.make(key, options)
    for g in range(3):
        rng = random.Random(f"logged {config_id(key, options)} {g}")
        state = random_state(rules, rng)
        twin = GameState(rules, state.deal)
        logged = []
        while not state.over:
            action = rng.choice(state.legal_actions())
            applied = state.apply_logged(action)
            assert isinstance(applied, Applied)
            logged_action, events = applied
            assert logged_action is state.moves[-1] and events
            if isinstance(action, Signal) and rules.options.get("signal_audience") == "spotted":
                assert isinstance(logged_action, Signal) and logged_action.spotted is not None
                assert dataclasses.replace(logged_action, spotted=None) == action
                (talk,) = [e for e in events if isinstance(e, Talk)]
                assert talk.spotted == frozenset(logged_action.spotted)
            else:
                assert logged_action == action
            logged.append(logged_action)
        # The logged actions replay to the same hand, events and all; apply keeps its old
        # contract (the events alone).
        for move in logged:
            assert twin.apply(move) is not None
        assert twin.to_record() == state.to_record()
        assert replay(parse_record(state.to_record())).error is None


def test_a_signal_is_logged_with_who_spotted_it_and_the_record_s_list_is_kept() -> None:
    rules = Rules.make("briscola-4", {**SPOTTED, "spot_chance": 100})
    state = random_state(rules, random.Random(1))
    signal = next(a for a in state.legal_actions() if isinstance(a, Signal))
    twin = state.copy()
    action, (talk,) = state.apply_logged(signal)
    assert isinstance(action, Signal) and isinstance(talk, Talk)
    opponents = [s for s in range(4) if rules.side_of[s] != rules.side_of[signal.seat]]
    assert sorted(action.spotted or ()) == opponents
    # The same action with its list, as a record gives it, is logged as it is.
    again, _ = twin.apply_logged(action)
    assert again == action and twin.to_record() == state.to_record()
    # A wrong list is refused, and nothing changes.
    fresh = random_state(rules, random.Random(1))
    with pytest.raises(IllegalActionError, match="spotted"):
        fresh.apply_logged(dataclasses.replace(action, spotted=()))
    assert fresh.moves == []
