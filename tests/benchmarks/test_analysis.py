"""benchmarks/analysis.py, run tiny: it analyses hands, times hints, measures the
values' noise and an ace's cost (how fast is not checked: the machine decides it). The
search runs on 16 worlds (``--worlds``), not the level's 512: every part runs and says its
figure, at a fraction of the time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "analysis.py"


def test_the_benchmark_runs_and_says_each_figure() -> None:
    cmd = [sys.executable, str(SCRIPT), "--hands", "1", "--seeds", "2", "--aces", "1"]
    cmd += ["--talk-hands", "1", "--talk-worlds", "2", "--twins", "2", "--worlds", "16"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for game in ("briscola-2", "briscola-4"):
        assert any(line.startswith(f"{game} (strong): a hand ") for line in lines), lines
        assert any(line.startswith(f"{game} (strong) noise: ") for line in lines), lines
    assert sum("an ace thrown early" in line for line in lines) == 11
    for line in lines[:2]:
        assert "; with every card seen a hand " in line, line
    for game in ("briscola-2", "briscola-4"):  # twin deals: the same view, the same analysis
        [said] = [line for line in lines if line.startswith(f"{game} (strong) twins: ")]
        assert said.startswith(f"{game} (strong) twins: 0 of "), said
    for table in ("briscola-4 communication=signals", "schembil", "chiamata"):
        [said] = [line for line in lines if line.startswith(f"{table} (strong): a hand ")]
        assert "talk, bid or call decisions" in said and "; noise: " in said, said
