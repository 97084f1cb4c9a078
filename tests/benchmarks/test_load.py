"""benchmarks/load.py, run tiny: a real server process, a few tables played for a few
seconds, and the figures it reports."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"


def test_a_tiny_load_run_plays_moves_and_reports_them(tmp_path: Path) -> None:
    out = tmp_path / "load.json"
    cmd = [sys.executable, str(SCRIPT), "--tables", "3", "--duration", "3", "--think",
           "0.05:0.15", "--match", "one-hand", "--json", str(out)]  # fmt: skip
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["database"] == "sqlite"
    assert (report["tables"], report["clients"]) == (3, 6)
    assert report["errors"] == 0, report["error_kinds"]
    # 3 tables, a move every 0.05-0.15 s each, for 3 s: far more than 20 moves echoed.
    assert report["moves"] > 20
    assert 0 < report["p50_ms"] <= report["p99_ms"] <= report["max_ms"]
    assert report["server_rss_peak_mib"] > 10
    assert "moves/s" in run.stdout and "p99" in run.stdout


def test_think_times_are_checked() -> None:
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--think", "2:1"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2 and "--think" in run.stderr


def test_a_tiny_load_run_spreads_its_clients_over_two_processes(tmp_path: Path) -> None:
    """Two server processes on a throwaway PostgreSQL and Redis: the moves of people on
    either process are echoed, with no error."""
    if shutil.which("redis-server") is None and not os.environ.get("CI"):
        pytest.skip("several processes need Redis: scripts/redis installs it (as root)")
    out = tmp_path / "load.json"
    cmd = [sys.executable, str(SCRIPT), "--tables", "4", "--duration", "4", "--think",
           "0.05:0.15", "--match", "one-hand", "--postgres", "--processes", "2",
           "--json", str(out)]  # fmt: skip
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(out.read_text())
    assert (report["database"], report["processes"], report["redis"]) == ("postgresql", 2, True)
    assert report["errors"] == 0, report["error_kinds"]
    assert report["moves"] > 20
    assert 0 < report["p50_ms"] <= report["p99_ms"]
    assert "2 server processes" in run.stdout
    # the throwaway database and Redis worked for those moves, and their CPU is told
    assert report["postgres_cpu_ms_per_move"] > 0 and report["redis_cpu_pct"] >= 0
    assert "postgres" in run.stdout.splitlines()[-1]


def test_several_processes_need_postgresql() -> None:
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--processes", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "--postgres" in run.stderr
