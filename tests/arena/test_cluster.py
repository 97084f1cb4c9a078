"""``briscola arena --cluster``: the same duplicate deals played on a Dask cluster of two
worker processes give the same results as ``--jobs 2`` and ``--jobs 1``, a worker killed
mid-run changes nothing, and a wrong address, a missing extra, workers with other code or
without an outside bot are told plainly."""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from briscola.arena import cluster as clusters
from briscola.arena.duplicate import Arena, GameResult, play_all, report, run
from briscola.terminal.cli import app

distributed = pytest.importorskip("distributed")

runner = CliRunner()
ARGS = ["arena", "-n", "24", "--seed", "5", "--json", "intermediate", "random"]


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a local Dask cluster: a scheduler and two worker processes of one
    thread each (as `dask scheduler` and `dask worker --nworkers 2 --nthreads 1`)."""
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def without_timing(data: dict[str, Any]) -> dict[str, Any]:
    for b in data["bots"]:
        b.pop("ms_per_move")
    return data


def saved_games(path: Path) -> list[dict[str, Any]]:
    """The games of a --save file, in its order, without their seconds of thinking."""
    games = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    for g in games:
        g.pop("think")
    return games


def untimed(games: list[GameResult]) -> list[tuple[Any, ...]]:
    return [(g.deal, g.pairing, g.rotation, g.seats, g.seat_points, g.moves) for g in games]


def test_the_cluster_plays_what_jobs_play(scheduler: str, tmp_path: Path) -> None:
    """The same JSON report and the same saved games, in the same order, with --cluster,
    --jobs 2 and --jobs 1."""
    outputs = {}
    for name, extra in [
        ("one", []),
        ("two", ["--jobs", "2"]),
        ("cluster", ["--cluster", scheduler]),
    ]:
        result = runner.invoke(app, [*ARGS, *extra, "--save", str(tmp_path / f"{name}.jsonl")])
        assert result.exit_code == 0, result.output
        outputs[name] = without_timing(json.loads(result.stdout))
    assert outputs["cluster"] == outputs["two"] == outputs["one"]
    assert outputs["cluster"]["games"] == 24
    one = saved_games(tmp_path / "one.jsonl")
    assert [g["deal"] for g in one] == [d for d in range(12) for _ in range(2)]
    assert saved_games(tmp_path / "cluster.jsonl") == saved_games(tmp_path / "two.jsonl") == one


def test_the_library_plays_on_a_cluster_too(scheduler: str) -> None:
    arena = Arena("briscola-4", (("communication", "signals"),), ("intermediate", "beginner"), 8, 7)
    seen: list[int] = []
    games = play_all(arena, progress=seen.append, cluster=scheduler)
    alone = play_all(arena)
    assert untimed(games) == untimed(alone)
    assert sum(seen) == len(games) == 16  # the progress bar moves as chunks come in
    a, b = report(arena, games).to_json(), report(arena, alone).to_json()
    assert without_timing(a) == without_timing(b)


def test_a_worker_killed_mid_run_changes_nothing(scheduler: str) -> None:
    """SIGKILL on a worker process after the first chunk: the scheduler gives its chunks to
    the other worker (and the nanny starts it again), and the figures are the same."""
    arena = Arena("briscola-2", (), ("intermediate", "random"), 40, 3)
    with distributed.Client(scheduler, set_as_default=False) as client:
        pids = client.run(os.getpid)
    killed: list[int] = []

    def progress(games: int) -> None:
        if not killed:
            pid = sorted(pids.values())[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    there = run(arena, progress=progress, cluster=scheduler)
    here = run(arena)
    assert killed
    assert without_timing(there.to_json()) == without_timing(here.to_json())


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("tcp://127.0.0.1:{closed}", "cannot reach the Dask scheduler at tcp://127.0.0.1"),
        ("tcp://no-such-host.invalid:8786", "no machine is named 'no-such-host.invalid'"),
        ("garbage::::", "is not a Dask scheduler's address"),
        ("http://127.0.0.1:8786", "is not a Dask scheduler's address"),
    ],
)
def test_a_bad_address_is_told_plainly(address: str, message: str) -> None:
    address = address.replace("{closed}", str(closed_port()))  # (ids the same at each collection)
    result = runner.invoke(app, [*ARGS, "--cluster", address])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_closed_port_says_what_to_check() -> None:
    result = runner.invoke(app, [*ARGS, "--cluster", f"tcp://127.0.0.1:{closed_port()}"])
    assert result.exit_code == 2
    assert "check that `dask scheduler` runs on 127.0.0.1" in result.output


def test_jobs_and_cluster_together_are_refused() -> None:
    result = runner.invoke(app, [*ARGS, "--jobs", "2", "--cluster", "tcp://127.0.0.1:8786"])
    assert result.exit_code == 2
    assert "--jobs 2 with --cluster" in result.output and "leave out --jobs" in result.output


def test_the_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    result = runner.invoke(app, [*ARGS, "--cluster", "tcp://127.0.0.1:8786"])
    assert result.exit_code == 2
    assert "install briscola[cluster]" in result.output


def test_workers_with_other_code_are_refused(
    scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """This process's code digest is made to differ from the workers' (as after editing
    the code here, or installing another version there)."""
    monkeypatch.setattr(clusters, "code_digest", lambda: "0123456789abcdef")
    result = runner.invoke(app, [*ARGS, "--cluster", scheduler])
    assert result.exit_code == 2
    assert "runs other code" in result.output and "code 0123456789abcdef" in result.output
    assert "install the same briscola on every worker" in result.output


def test_an_outside_bot_the_workers_cannot_import_is_told(
    scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "herebots.py").write_text(
        "from briscola.ai import make_bot\n\n"
        "def Lazy(seed=None):\n"
        "    return make_bot('random', seed)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))  # here, not on the workers
    result = runner.invoke(app, [*ARGS[:-1], "herebots:Lazy", "--cluster", scheduler])
    assert result.exit_code == 2, result.output
    assert "worker tcp://" in result.output and "herebots" in result.output


def test_a_scheduler_without_workers_says_to_start_some() -> None:
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as empty:
        address = empty.scheduler_address
        with (
            pytest.raises(clusters.ClusterError, match="has no worker: start some"),
            clusters.connect(address, timeout=1),
        ):
            pass


def test_a_bot_failing_on_a_worker_is_named_with_its_deal(
    scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An outside bot that raises on its fifth move, shipped to the workers: the run
    stops with the line that names it and the deal, as with --jobs."""
    path = tmp_path / "failingbots.py"
    path.write_text(
        "from briscola.ai import make_bot\n\n"
        "class Tired:\n"
        "    def __init__(self, seed=None):\n"
        "        self.inner, self.moves = make_bot('random', seed), 0\n\n"
        "    def choose(self, view):\n"
        "        self.moves += 1\n"
        "        if self.moves == 5:\n"
        "            raise RuntimeError('tired')\n"
        "        return self.inner.choose(view)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with distributed.Client(scheduler, set_as_default=False) as client:
        client.upload_file(str(path))
    result = runner.invoke(app, [*ARGS[:-1], "failingbots:Tired", "--cluster", scheduler])
    assert result.exit_code == 2, result.output
    assert "the bot failingbots:Tired at seat" in result.output
    assert "of deal " in result.output and "RuntimeError: tired" in result.output


def test_a_scheduler_lost_mid_run_is_told() -> None:
    """The scheduler (with its workers) goes away after the first chunk of deals: the run
    stops with a line that says so and how to go on."""
    local = distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=":0"
    )
    arena = Arena("briscola-2", (), ("random", "random"), 200, 1)

    def progress(games: int) -> None:
        local.close()

    try:
        with (
            pytest.raises(clusters.ClusterError, match="lost the Dask scheduler at tcp://"),
            clusters.connect(local.scheduler_address, arena, timeout=2) as on,
        ):
            run(arena, progress=progress, cluster=on)
    finally:
        local.close()
