"""The action that is logged is the action that was applied: ``apply_logged`` gives back
the canonical action (with what the engine added) together with the events."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest

from briscola.engine import (
    Applied,
    BriscolaError,
    GameState,
    IllegalActionError,
    Match,
    Rules,
    View,
    match_view,
    parse_match_record,
    parse_record,
    replay,
    seat_events,
    seat_view,
)
from briscola.engine.actions import Signal
from briscola.engine.events import Talk
from briscola.engine.match import Shuffled
from helpers import CONFIGS, GARBAGE, config_id, random_state

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


def test_a_match_gives_back_the_logged_action_across_the_end_of_a_hand() -> None:
    rules = Rules.make("briscola-4", {**SPOTTED, "match": "hands:2"})
    match = Match(rules, random.Random(3))
    rng = random.Random(4)
    signals = 0
    while not match.over:
        hand = match.hand
        action, events = match.apply_logged(rng.choice(hand.legal_actions()))
        assert action is hand.moves[-1]
        assert events == match.events[len(match.events) - len(events) :]
        signals += isinstance(action, Signal) and action.spotted is not None
    assert signals > 0 and match.number >= 2


# ------------------------------------------------------------------ the new entry points


def entry_points() -> list[tuple[str, Callable[..., object], list[Any]]]:
    """Each new public entry point with valid arguments, to swap one at a time for garbage."""
    rules = Rules.make("briscola-2")
    match = Match(rules, random.Random(1))
    state = GameState(rules, match.hand.deal)
    record = match.to_record()
    return [
        ("apply_logged", state.apply_logged, [state.legal_actions()[0]]),
        ("Match.apply_logged", match.apply_logged, [match.hand.legal_actions()[0]]),
        ("Match deals", lambda d: Match(rules, dealer=0, deals=d), [Shuffled(random.Random(1))]),
        ("Match.from_record", Match.from_record, [record, Shuffled(random.Random(1))]),
        ("Match.from_record rng", lambda r: Match.from_record(record, rng=r), [random.Random()]),
        ("parse_match_record", parse_match_record, [record]),
        ("parse_match_record rules", lambda r: parse_match_record(record, r), [rules]),
        ("seat_events", seat_events, [match.events, 0]),
        ("match_view", match_view, [match, 0]),
        ("View.from_json", View.from_json, [seat_view(match.hand, 0).to_json()]),
    ]


@pytest.mark.parametrize("where", range(len(entry_points())), ids=[c[0] for c in entry_points()])
def test_every_new_entry_point_refuses_garbage_with_a_briscola_error(where: int) -> None:
    name, call, args = entry_points()[where]
    call(*args)  # the valid call works
    for i in range(len(args)):
        for junk in GARBAGE:
            name, call, args = entry_points()[where]
            bad = [*args[:i], junk, *args[i + 1 :]]
            try:
                call(*bad)
            except BriscolaError as e:
                assert str(e) and "\n" not in str(e), (name, i, junk)
