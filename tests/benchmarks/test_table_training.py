"""The table games' training scripts, run tiny: hands played by the search saved in
parts (and a run stopped then started again goes on where it was), a value network
learnt from greedy hands and those parts whose held-out loss falls below a constant
guess's, and a policy network learnt from the search's cards."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np

from briscola.ai.learned.net import network

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def run(script: str, *args: str) -> str:
    cmd = [sys.executable, str(BENCH / script), *args]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=BENCH)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_hands_then_a_value_and_a_policy_network(tmp_path: Path) -> None:
    parts = tmp_path / "hands"
    out = run("table_selfplay.py", "briscola-4", "none", str(parts), "--hands", "20",
              "--part", "10", "--jobs", "1", "--seed", "3")  # fmt: skip
    assert out.count("part ") == 2
    with np.load(parts / "part-1.npz") as d:
        assert d["positions"].shape[0] == 80 and (d["cards"] >= 0).all()
    again = run("table_selfplay.py", "briscola-4", "none", str(parts), "--hands", "30",
                "--part", "10", "--jobs", "1", "--seed", "3")  # fmt: skip
    assert again.count("part ") == 1  # the two parts played are not played again

    value = tmp_path / "value.npz"
    more = tmp_path / "more"
    run("table_selfplay.py", "briscola-4", "none", str(more), "--hands", "10", "--jobs", "1",
        "--seed", "4")  # fmt: skip
    out = run("train_table_value.py", "briscola-4", str(value), "--hands", "2000", "--steps",
              "400", "--search", str(parts), str(more), "--held-search", str(parts))  # fmt: skip
    assert "40 hands of the search" in out  # (both folders read)
    guess = float(re.search(r"constant guess: held-out loss ([0-9.]+)", out).group(1))  # type: ignore[union-attr]
    last = float(re.findall(r"step 400: held-out loss ([0-9.]+)", out)[0])
    assert last < guess * 0.9, out
    assert "on the search's hands" in out
    net = network(str(value), "briscola-4", "value")
    assert net is not None and net.meta["features"] == "table-1"

    policy = tmp_path / "policy.npz"
    out = run("train_table_policy.py", "briscola-4", str(policy), "--search", str(parts),
              "--held", "1", "--steps", "200")  # fmt: skip
    assert "the greedy policy names the card played" in out and "step 200" in out
    assert network(str(policy), "briscola-4", "policy") is not None


def test_a_missing_or_foreign_network_is_said_in_one_line(tmp_path: Path) -> None:
    two = Path(__file__).resolve().parents[2] / "src/briscola/ai/learned/nets/briscola-2-value.npz"
    for script, args in [
        ("table_selfplay.py", ["briscola-4", str(tmp_path / "nope.npz"), str(tmp_path / "h")]),
        ("table_selfplay.py", ["briscola-4", str(two), str(tmp_path / "h")]),
        ("train_table_value.py", ["briscola-4", str(tmp_path / "v.npz"), "--start", "nope.npz"]),
    ]:
        cmd = [sys.executable, str(BENCH / script), *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=BENCH)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
        said = done.stderr.strip()
        assert "\n" not in said and ("no network at" in said or "not a value network" in said)
    assert not (tmp_path / "h").exists() or not any((tmp_path / "h").iterdir())
