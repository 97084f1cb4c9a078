"""benchmarks/move_cost.py, run tiny: one match played through the table host, and the
CPU a move of each part reported (how much is not checked: the machine decides it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("orjson")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "move_cost.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, str(SCRIPT), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def test_a_match_is_played_and_each_part_of_a_move_timed(tmp_path: Path) -> None:
    out = tmp_path / "cost.json"
    done = run("--game", "briscola-4", "--matches", "1", "--json", str(out))
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["game"] == "briscola-4"
    assert result["moves"] >= 40  # a hand of briscola-4 at least: 40 cards
    parts = [result[p] for p in ("act", "view", "json", "frame")]
    assert all(p > 0 for p in parts)
    assert result["total"] == pytest.approx(sum(parts))
    assert result["frame_bytes"] > 500  # a view and its events
    assert "µs" in done.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--game", "poker"), "there is no game 'poker'"),
        (("--matches", "0"), "--matches: give 1 or more"),
        (("--matches", "many"), "invalid int value"),
    ],
)
def test_bad_input_is_said_in_words(args: tuple[str, ...], said: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert said in done.stderr
