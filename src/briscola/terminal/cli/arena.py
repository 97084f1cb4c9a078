"""``briscola arena``: computer players against each other on duplicate deals
(:mod:`briscola.arena`), with the tables of their scores, pairs and ratings."""

from __future__ import annotations

import json
import logging
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from briscola.engine import BriscolaError
from briscola.terminal.cli.common import (
    MOVE_LIMIT,
    GameOption,
    JsonFlag,
    MoveLimitOption,
    RuleOption,
    err,
    fail,
    make_rules,
    out,
)

if TYPE_CHECKING:
    from briscola.arena.cluster import Cluster
    from briscola.arena.duplicate import Arena
    from briscola.arena.duplicate import Report as ArenaReport
    from briscola.arena.log import ArenaLog
    from briscola.arena.stats import Interval as ArenaInterval


def arena(
    bots: Annotated[
        list[str],
        typer.Argument(
            help="Two or more bots: levels (random, beginner, intermediate, and the stronger "
            "ones when installed: strong, champion, and strong-2026, champion-2026 as they "
            "were in December 2026) or import specs package.module:factory, where "
            "factory(seed=...) returns a bot. In a team game a side may be several players, "
            "A+B: the first seat of the side A, the second B.",
            show_default=False,
        ),
    ],
    game: GameOption = "briscola-2",
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            min=1,
            help="Games for each pair of bots; every deal is played twice, the bots trading seats.",
        ),
    ] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the deals and of the bots.")] = 0,
    rule: RuleOption = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", min=1, help="Worker processes; the results do not depend on it."
        ),
    ] = 1,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            metavar="ADDRESS",
            help="Play the deals on the workers of a Dask cluster, its scheduler at ADDRESS "
            "(tcp://HOST:8786); the results are the same as with --jobs. Needs "
            "briscola[cluster] here and on the workers.",
            show_default=False,
        ),
    ] = None,
    as_json: JsonFlag = False,
    move_limit: MoveLimitOption = MOVE_LIMIT,
    save: Annotated[
        Path | None,
        typer.Option(
            help="Keep every finished game in this file (JSON lines). Run again with the "
            "same file to go on where a run stopped, or with more --games to add deals.",
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """Computer players play duplicate deals against each other.

    Each bot's score with its 95% interval, point difference and time per move; with
    more than two bots, every pair plays the same deals and a rating table follows.
    """
    from briscola.arena import duplicate as arenas  # imported here: loading the bots takes a moment
    from briscola.arena.cluster import connect
    from briscola.arena.log import ArenaLog
    from briscola.arena.sides import check_bots

    rules = make_rules(game, rule)
    if len(bots) < 2:
        raise fail(
            f"the arena needs at least two bots, got {len(bots)}: for example "
            "`briscola arena intermediate random`"
        )
    deals = -(-games // arenas.ROTATIONS)
    options = tuple(rules.overrides().items())
    limit = move_limit or None
    setup = arenas.Arena(rules.key, options, tuple(bots), deals, seed, limit)
    try:
        check_bots(rules, setup.bots, setup.names, limit)
    except BriscolaError as e:
        raise fail(str(e)) from None
    if setup.games_per_pairing != games and not as_json:
        err.print(
            f"{games} games asked: playing {setup.games_per_pairing}, since each deal is "
            f"played {arenas.ROTATIONS} times"
        )
    if cluster is not None and jobs > 1:
        raise fail(
            f"--jobs {jobs} with --cluster: the cluster's workers play the deals, as many at "
            "a time as they have threads (`dask worker --nworkers N --nthreads 1`); leave "
            "out --jobs"
        )
    if cluster is None and arenas.workers(jobs) < jobs and not as_json:
        n = arenas.workers(jobs)
        workers = f"{n} worker process{'es' * (n > 1)}"
        err.print(f"--jobs {jobs}: {workers}, one for each core this run may use")
    log = ArenaLog(save, setup) if save is not None else None
    with ExitStack() as stack:
        on: Cluster | None = None
        if cluster is not None:
            quiet_dask()
            try:
                on = stack.enter_context(connect(cluster, setup))
            except BriscolaError as e:
                raise fail(str(e)) from None
            if not as_json:
                n = len(on.client.nthreads())
                k = on.slots()
                where = f"{n} worker{'s' * (n > 1)}, {k} deal{'s' * (k > 1)} at a time"
                err.print(f"playing on the Dask cluster at {cluster}: {where}")
        report = play(setup, jobs, log, on, as_json)
    if as_json:
        print(json.dumps(report.to_json()))
        return
    print_arena(report)


def quiet_dask() -> None:
    """Dask's client logs what goes wrong, with tracebacks, on the handlers of the
    ``distributed`` logger (set up when it is imported); the command tells it in a line."""
    try:
        import distributed  # noqa: F401  # sets its loggers up
    except ImportError:
        return  # connect says what to install
    for handler in logging.getLogger("distributed").handlers:
        handler.setLevel(logging.CRITICAL)


def play(
    setup: Arena, jobs: int, log: ArenaLog | None, cluster: Cluster | None, quiet: bool
) -> ArenaReport:
    """Run the arena, with a progress bar on a terminal unless ``quiet``; its errors
    are told as the command's."""
    from briscola.arena import duplicate as arenas

    save = log.path if log is not None else None
    try:
        done = log.load() if log is not None else None
        record = log.append if log is not None else None
        if quiet:
            return arenas.run(setup, jobs, done=done, record=record, cluster=cluster)
        else:
            total = setup.games_per_pairing * len(setup.pairings)
            with Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=err,
                transient=True,
                disable=not err.is_terminal,
            ) as progress:
                task = progress.add_task(f"{setup.game} games", total=total)
                advance = lambda k: progress.advance(task, k)  # noqa: E731
                return arenas.run(setup, jobs, advance, done, record, cluster)
    except BriscolaError as e:
        raise fail(str(e)) from None
    except OSError as e:  # --save: a folder that is not there, no right to write...
        raise fail(f"cannot keep the games in {save}: {e.strerror or e}") from None


def span(iv: ArenaInterval) -> str:
    """A score's interval, ``low-high``."""
    return f"{iv.low:.3f}-{iv.high:.3f}"


def plus_minus(iv: ArenaInterval, digits: int = 1) -> str:
    """A mean with its symmetric interval, ``+13.9 ±6.9``."""
    return f"{iv.mean:+.{digits}f} ±{(iv.high - iv.low) / 2:.{digits}f}"


def print_arena(report: ArenaReport) -> None:
    a = report.arena
    pairs = len(a.pairings)
    rules = " ".join(f"{k}={v}" for k, v in report.rules.items())
    out.print(
        f"[bold]{a.game}[/]{' ' + rules if rules else ''}, seed {a.seed}: "
        f"{a.games_per_pairing} games for each of {pairs} pair{'s' * (pairs > 1)} of bots "
        f"({a.deals} deals, each played twice with the bots trading seats)"
    )
    if report.per_seat:
        out.print("chiamata: each seat a bot holds in a hand counts as one game")
    table = Table(box=None, padding=(0, 1), header_style="bold")
    table.add_column("bot", no_wrap=True, min_width=max(len(b.name) for b in report.bots))
    for name in ("games", "won", "drew", "lost", "score"):
        table.add_column(name, justify="right")
    table.add_column("95%", no_wrap=True)
    table.add_column("points (95%)", justify="right", no_wrap=True)
    table.add_column("ms", justify="right")
    for b in report.bots:
        row = [b.name, str(b.games), str(b.wins), str(b.draws), str(b.losses)]
        row += [f"{b.score.mean:.3f}", span(b.score), plus_minus(b.points)]
        row.append(f"{b.ms_per_move:.3f}")
        table.add_row(*row)
    out.print(table)
    out.print(
        "[dim]score: (won + drew/2) / games; points: the mean card-point difference a game; "
        "95% intervals on the per-deal means; ms: the bot's mean time a move[/]"
    )
    if report.per_seat:
        chiamata = Table(box=None, padding=(0, 1), header_style="bold")
        chiamata.add_column("bot")
        chiamata.add_column("chiamata score a hand (95%)", justify="right")
        for b in report.bots:
            if b.chiamata is not None:
                chiamata.add_row(b.name, plus_minus(b.chiamata, 3))
        out.print()
        out.print(chiamata)
    if len(report.bots) <= 2:
        return
    pair_table = Table(box=None, padding=(0, 1), header_style="bold")
    pair_table.add_column("pair")
    pair_table.add_column("score of the first", justify="right")
    pair_table.add_column("95%", no_wrap=True)
    pair_table.add_column("points (95%)", justify="right", no_wrap=True)
    for p in report.pairs:
        score = p.score
        pair_table.add_row(
            f"{p.first} v {p.second}", f"{score.mean:.3f}", span(score), plus_minus(p.points)
        )
    out.print()
    out.print(pair_table)
    ratings = Table(box=None, padding=(0, 1), header_style="bold")
    ratings.add_column("bot")
    ratings.add_column("rating", justify="right")
    for b in sorted(report.bots, key=lambda b: -b.rating):
        ratings.add_row(b.name, f"{b.rating:+.0f}")
    out.print()
    out.print(ratings)
    out.print("[dim]rating: Elo-like, fitted to the pairwise scores, mean 0[/]")
