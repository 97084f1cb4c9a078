"""benchmarks/soak.py, run tiny: a real server process, a few dozen short tables made,
played to their end and left, the server's memory sampled as they go."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "soak.py"


def test_a_tiny_soak_plays_its_tables_and_samples_the_server(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    cmd = [sys.executable, str(SCRIPT), "--tables", "30", "--at-once", "5", "--every", "10",
           "--people", "0.5", "--json", str(out)]  # fmt: skip
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["errors"] == {}
    assert [s["tables_done"] for s in report["samples"]] == [0, 10, 20, 30]
    assert all(s["rss_mib"] > 10 for s in report["samples"])
    last = report["samples"][-1]
    assert 0 < last["tables_loaded"] <= 30  # the server's default keeps them two minutes
    assert report["first_table_came_back"] is True
    assert "RSS" in run.stdout and "tables/s" in run.stdout


def test_its_figures_are_checked() -> None:
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--people", "2"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2 and "--people" in run.stderr
