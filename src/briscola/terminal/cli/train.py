"""``briscola train``: a training run of the learned evaluator's networks
(:mod:`briscola.ai.learned.train`), in a folder it can be resumed from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from briscola.terminal.cli.common import MISSING_EXTRA, JsonFlag, err, fail, out


def train_cmd(
    game: Annotated[
        str,
        typer.Argument(
            help="The game, a two-player one: briscola-2, scoperta, briscolone, briskula, brisca."
        ),
    ],
    seed: Annotated[
        int,
        typer.Option(
            "--seed", "-s", help="The run's seed: the same seed and rounds give the same networks."
        ),
    ] = 1,
    budget: Annotated[
        float,
        typer.Option(
            "--budget",
            "-b",
            min=0.0,
            help="Minutes to train, at most (a round ends before it stops).",
        ),
    ] = 10.0,
    rounds: Annotated[
        int | None,
        typer.Option(
            "--rounds", min=1, help="Stop after this many rounds in all (counting resumed ones)."
        ),
    ] = None,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="The run's folder (default: runs/GAME-sSEED)."),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Go on from the folder's checkpoint, with the plan it was started with "
            "(its sizes, hands and steps).",
        ),
    ] = False,
    hidden: Annotated[
        str, typer.Option("--hidden", help="The two hidden layers' sizes, as 128,64.")
    ] = "128,64",
    games: Annotated[int, typer.Option("--games", min=10, help="Hands played a round.")] = 2000,
    steps: Annotated[
        int,
        typer.Option("--steps", min=1, help="Adam steps a round, on each network."),
    ] = 400,
    report_deals: Annotated[
        int,
        typer.Option(
            "--report-deals",
            min=1,
            help="Duplicate deals the report plays against each level.",
        ),
    ] = 100,
    teacher: Annotated[
        str,
        typer.Option(
            "--teacher",
            help="Who plays the hands: playouts (the fast core's policy, quick) or search "
            "(the strong level with the run's own value network).",
        ),
    ] = "playouts",
    start: Annotated[
        Path | None,
        typer.Option("--start", help="Start from the networks of this run's folder."),
    ] = None,
    leaf_tricks: Annotated[
        int,
        typer.Option(
            "--leaf-tricks", min=0, help="The search teacher's tricks played on before its leaves."
        ),
    ] = 2,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, help="Worker processes for the search's hands.")
    ] = 1,
    as_json: JsonFlag = False,
) -> None:
    """Train the value and policy networks of a game by self-play.

    Rounds of hands played (by the fast core's policy, or by the search with the run's
    own value network: --teacher search), learnt from, and saved to OUT/checkpoint.npz
    after each (--resume goes on from it). At the end: OUT/value.npz, OUT/policy.npz, and
    OUT/report.md and report.json (the losses of every round, the policy network's player
    against random and intermediate).
    """
    try:
        sizes = tuple(int(x) for x in hidden.split(","))
    except ValueError:
        raise fail(f"--hidden takes two sizes, as 128,64, not {hidden!r}") from None
    if len(sizes) != 2 or not all(1 <= x <= 4096 for x in sizes):
        raise fail(f"--hidden takes two sizes from 1 to 4096, as 128,64, not {hidden!r}")
    for name, value, most in (
        ("--games", games, 100_000),
        ("--steps", steps, 1_000_000),
        ("--report-deals", report_deals, 100_000),
    ):
        if value > most:
            raise fail(f"{name} is at most {most:,}, not {value:,}")
    try:  # imported here: it loads numba (the ai extra)
        from briscola.ai.learned.net import NetError
        from briscola.training.run import Plan, Run
    except ImportError as e:
        raise fail(f"training needs {MISSING_EXTRA.format(what=e.name, extra='ai')}") from None
    from briscola.engine.errors import BriscolaError

    folder = out_dir or Path("runs") / f"{game}-s{seed}"
    plan = Plan(
        game=game,
        seed=seed,
        hidden=(sizes[0], sizes[1]),
        games=games,
        steps=steps,
        report_deals=report_deals,
        teacher=teacher,
        leaf_tricks=leaf_tricks,
        start=None if start is None else str(start),
    )
    if not resume and (folder / "checkpoint.npz").exists():
        raise fail(
            f"{folder} holds a run already: go on with --resume, or train into another "
            "folder (--out)"
        )
    say = (lambda _: None) if as_json else (lambda line: err.print(line))
    try:
        run = Run.resumed(folder, say, jobs) if resume else Run(plan, folder, say, jobs)
        run.train(budget, rounds)
        report = run.finish()
    except (BriscolaError, NetError) as e:
        raise fail(str(e)) from None
    except OSError as e:
        raise fail(f"cannot write the run to {folder}: {e.strerror or e}") from None
    if as_json:
        print(json.dumps(report))
        return
    out.print(f"networks and report in {folder}/ (report.md)")
    for level, a in report["arena"].items():
        out.print(
            f"policy player against {level}: {a['score']:.3f} "
            f"({a['low']:.3f}-{a['high']:.3f}) over {a['games']} games"
        )
