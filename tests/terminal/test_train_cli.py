"""``briscola train`` as a person runs it: a run into a folder, its report and networks,
going on with --resume, and clear errors for a folder in use, a game it does not train
and sizes it cannot read."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from briscola.ai.learned.net import Net
from briscola.terminal.cli import app

runner = CliRunner()
SMALL = ["--hidden", "8,8", "--games", "50", "--steps", "5", "--report-deals", "2"]


def test_a_run_writes_its_networks_and_report_and_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["train", "briscola-2", "--seed", "3", "--rounds", "2", "--out", str(out), *SMALL]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["made"]["rounds"] == 2 and report["made"]["games"] == 100
    assert set(report["arena"]) == {"random", "intermediate"}
    assert "## Losses on the held-out hands" in (out / "report.md").read_text()
    policy = Net.load(out / "policy.npz")
    assert policy.meta["kind"] == "policy" and policy.meta["game"] == "briscola-2"
    assert policy.meta["version"] == "briscola-2-s3-r2"
    # the folder holds a run: not started again over it
    again = runner.invoke(app, args)
    assert again.exit_code == 2 and "--resume" in again.output
    more = runner.invoke(
        app, ["train", "briscola-2", "--out", str(out), "--resume", "--rounds", "3"]
    )
    assert more.exit_code == 0, more.output
    assert Net.load(out / "value.npz").meta["rounds"] == 3


def test_bad_input_is_named(tmp_path: Path) -> None:
    cases = {
        ("chiamata",): "two-player games",
        ("nope",): "there is no game 'nope'",
        ("briscola-2", "--hidden", "big"): "--hidden takes two sizes",
        ("briscola-2", "--hidden", "0,4"): "--hidden takes two sizes",
        ("briscola-2", "--games", "1000000000"): "--games is at most",
        ("briscola-2", "--resume"): "nothing to resume",
        ("briscola-2", "--teacher", "nobody"): "the teacher is playouts or search",
        ("briscola-2", "--start", str(tmp_path / "none")): "no network at",
    }
    for args, said in cases.items():
        result = runner.invoke(app, ["train", *args, "--out", str(tmp_path / "x"), "-b", "0.01"])
        assert result.exit_code == 2, (args, result.output)
        assert said in " ".join(result.output.split()), (args, result.output)
        assert "Traceback" not in result.output
