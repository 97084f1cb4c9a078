"""A training run: a tiny one whose losses fall and whose policy beats random play (the
issue's check that .ci/run trains a network), and a run stopped and resumed that ends as
one never stopped."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from briscola.ai.bot import Bot, make_bot
from briscola.ai.learned.net import Net
from briscola.ai.learned.player import PolicyBot
from briscola.engine import Rules
from briscola.training.report import duel
from briscola.training.run import Plan, Run

RULES = Rules.make("briscola-2")


TINY = Plan(hidden=(32, 16), games=300, steps=100, held_out=100, report_deals=50)


def test_a_tiny_run_learns_and_its_policy_beats_random(tmp_path: Path) -> None:
    """A few seconds on generated hands: both held-out losses fall, and the policy
    network's player beats random play on duplicate deals."""
    run = Run(TINY, tmp_path)
    run.train(minutes=5, rounds=20)
    first, last = run.progress.history[0], run.progress.history[-1]
    assert last["round"] == 20
    assert last["policy_held"] < 0.8 * first["policy_held"], run.progress.history
    assert last["value_held"] < 0.95 * first["value_held"], run.progress.history
    _, policy = run.networks()
    score = duel(RULES, lambda s: PolicyBot(policy, s), _random, 100, 1)
    assert score["low"] > 0.5 and score["score"] > 0.6, score


def _random(seed: int) -> Bot:
    return make_bot("random", seed)


def test_a_run_resumed_is_the_run_not_stopped(tmp_path: Path) -> None:
    """Stopped after two rounds and resumed for a third, a run ends with the networks of
    three rounds in one go: the checkpoint holds all that matters."""
    straight = Run(TINY, tmp_path / "a")
    straight.train(minutes=5, rounds=3)
    Run(TINY, tmp_path / "b").train(minutes=5, rounds=2)
    resumed = Run.resumed(tmp_path / "b")
    assert resumed.progress.round == 2
    resumed.train(minutes=5, rounds=3)
    for a, b in zip(straight.networks(), resumed.networks(), strict=True):
        for k in range(3):
            np.testing.assert_array_equal(a.ws[k], b.ws[k])

    def losses(run: Run) -> list[dict[str, float]]:
        return [{k: v for k, v in h.items() if k != "seconds"} for h in run.progress.history]

    assert losses(resumed) == losses(straight)


def test_the_search_teacher_plays_with_the_runs_network_and_keeps_its_hands(
    tmp_path: Path,
) -> None:
    """Expert iteration: a round's hands are played by the search with the run's value
    network, kept in games/ (the network that played them changes), and read back when
    the run is resumed."""
    plan = Plan(teacher="search", hidden=(8, 8), games=3, steps=2, held_out=10)
    run = Run(plan, tmp_path)
    run.train(minutes=5, rounds=1)
    assert (tmp_path / "games" / "round-0.npz").exists()
    teacher = Net.load(tmp_path / "teacher-value.npz")
    assert teacher.meta["kind"] == "value"
    back = Run.resumed(tmp_path)
    assert back.rows is not None and run.rows is not None
    np.testing.assert_array_equal(back.rows.xv, run.rows.xv)
    np.testing.assert_array_equal(back.rows.chosen, run.rows.chosen)
