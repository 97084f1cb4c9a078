"""benchmarks/draw.py, run tiny: a real server process, one hand of briscola-2 played in
Chromium at the desktop size, and the drawing times it reports (what they are is not
checked: the machine's load decides them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from browserkit import need_chromium

pytest.importorskip("fastapi")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "draw.py"


def test_one_hand_is_played_and_every_update_drawn_is_timed(tmp_path: Path) -> None:
    need_chromium()
    out = tmp_path / "draw.json"
    cmd = [sys.executable, str(SCRIPT), "--games", "briscola-2", "--sizes", "desktop",
           "--hands", "1", "--bot-delay", "0", "--json", str(out)]  # fmt: skip
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr[-3000:]
    (result,) = json.loads(out.read_text())["results"]
    assert (result["game"], result["size"], result["hands"]) == ("briscola-2", "desktop", 1)
    # a hand of briscola-2: 40 cards played, Ana's 20 each an update to her page at least
    for what in ("draw", "cpu", "layout", "render", "frame"):
        figures = result[what]
        assert figures["count"] >= 20, (what, figures)
        assert 0 <= figures["median"] <= figures["p95"] <= figures["max"], (what, figures)
    assert result["draw"]["max"] > 0
    assert result["snapshot_draw"]["count"] >= 1
    assert "briscola-2" in run.stdout and "median" in run.stdout and "p95" in run.stdout


def test_its_figures_are_checked() -> None:
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--hands", "0"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2 and "--hands" in run.stderr
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "tressette"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 1 and "tressette" in run.stderr
