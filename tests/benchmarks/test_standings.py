"""benchmarks/standings.py, run tiny: a family's stored matches read and their standings
computed (how fast is not checked: the machine decides it), and its bad input told."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("openskill")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "standings.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, str(SCRIPT), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def test_stored_matches_are_read_and_rated(tmp_path: Path) -> None:
    out = tmp_path / "standings.json"
    done = run("--matches", "40", "--json", str(out))
    assert done.returncode == 0, done.stderr
    found = json.loads(out.read_text())
    assert found["matches"] == 40 and found["read"] > 0 and found["compute"] > 0
    assert "40 matches: read" in done.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [(("--matches", "0"), "--matches is 1 to 1,000,000"), (("--people", "3"), "needs four")],
)
def test_bad_input_is_told(args: tuple[str, ...], said: str) -> None:
    done = run(*args)
    assert done.returncode == 2 and said in done.stderr
