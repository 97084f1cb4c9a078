"""A fuzz test of `briscola replay`: mutated records of every game and house-rule setting,
and random bytes, each ends in exit 0, 1 or 2 with its message, never a traceback.

The inputs come from benchmarks/fuzz_replay.py, which makes the longer documented run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from briscola.engine import GAMES
from briscola.terminal.cli import records

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import fuzz_replay  # the benchmark script, found on the path above


def test_the_settings_cover_every_game_and_every_value_of_its_house_rules() -> None:
    tables = fuzz_replay.settings()
    assert {t.key for t in tables} == set(GAMES)
    for game in GAMES.values():
        for name in game.rules:
            seen = {t.options[name] for t in tables if t.key == game.key}
            assert len(seen) > 1 or name == "players", (game.key, name, seen)
    assert any(t.needs_seed for t in tables)  # signals spotted by chance, with a seed


def test_the_inputs_are_the_same_for_a_seed() -> None:
    assert list(fuzz_replay.inputs(7, 30)) == list(fuzz_replay.inputs(7, 30))


def test_replay_of_mutated_records_and_random_bytes_never_crashes() -> None:
    counts = fuzz_replay.run(seed=2026, count=300)
    problems = "\n\n".join(f"{kind}: {data[:200]!r}\n{why}" for kind, data, why in counts.failures)
    assert counts.bad() == 0, problems
    assert counts.records == 300
    assert all(counts.by_status[s] > 10 for s in (0, 1, 2)), counts.by_status  # all paths run


def test_the_fuzzer_sees_a_traceback_and_a_missing_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """The property can fail: a replay that raises, or exits 2 saying nothing, is counted."""

    def broken(*_: object) -> None:
        raise KeyError("boom")

    runner = fuzz_replay.CliRunner()
    monkeypatch.setattr(records, "parse_record", broken)
    status, problem = fuzz_replay.replay_input(runner, b"{}", as_json=False)
    assert problem is not None and "KeyError: 'boom'" in problem

    def silent(*_: object) -> None:
        raise records.typer.Exit(2)

    monkeypatch.setattr(records, "parse_record", silent)
    status, problem = fuzz_replay.replay_input(runner, b"{}", as_json=False)
    assert status == 2 and problem == "exit 2 without an error: message"
