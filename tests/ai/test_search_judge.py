"""The playout policy's weights: trained by self-play (``benchmarks/train_judge.py``), read
by the package (:mod:`briscola.ai.search.judge`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from briscola.ai.cores.head_to_head import COUNTING_JUDGE, JUDGE_NAMES
from briscola.ai.search import judge

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import train_judge as tuning  # the training tool, found on the path above


def test_a_judgement_against_itself_scores_one_half() -> None:
    score, margin = tuning.match(COUNTING_JUDGE, COUNTING_JUDGE, 500, 3)
    assert score == 0.5 and margin == 0.0


def test_the_shipped_weights_beat_the_intermediate_judgement_on_fresh_deals() -> None:
    weights = judge.tuned_judge()
    assert weights.shape == (len(JUDGE_NAMES),)
    assert not np.array_equal(weights, COUNTING_JUDGE)
    score, margin = tuning.match(weights, COUNTING_JUDGE, 20_000, 12345)
    assert score > 0.52 and margin > 1.0


def test_training_keeps_only_what_scores_better() -> None:
    logged: list[str] = []
    trained = tuning.train(300, 1, seed=5, log=logged.append)
    before, _ = tuning.match(COUNTING_JUDGE, COUNTING_JUDGE, 300, 5)
    after, _ = tuning.match(trained, COUNTING_JUDGE, 300, 5)
    assert after >= before
    assert (after > before) == any("score" in line for line in logged)


def test_weights_for_another_judgement_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"names": ["a", "b"], "weights": [1.0, 2.0]}))
    monkeypatch.setattr(judge, "WEIGHTS_FILE", path)
    judge.tuned_judge.cache_clear()
    try:
        with pytest.raises(ValueError, match="train them again"):
            judge.tuned_judge()
    finally:
        judge.tuned_judge.cache_clear()


def test_the_command_writes_only_where_it_is_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shipped = judge.WEIGHTS_FILE.read_bytes()
    with pytest.raises(SystemExit) as stop:
        tuning.main(["--deals", "20", "--rounds", "1", "--check", "20"])
    assert stop.value.code == 2 and "--out" in capsys.readouterr().err
    out = tmp_path / "weights.json"
    tuning.main(["--deals", "20", "--rounds", "1", "--check", "20", "--out", str(out)])
    data = json.loads(out.read_text())
    assert data["names"] == list(JUDGE_NAMES) and len(data["weights"]) == len(JUDGE_NAMES)
    assert judge.WEIGHTS_FILE.read_bytes() == shipped
