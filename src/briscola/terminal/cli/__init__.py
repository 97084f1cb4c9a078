"""The ``briscola`` command, assembled from its command groups: ``variants``
(:mod:`.variants`), ``rules`` (:mod:`.rules`), ``replay`` and ``verify``
(:mod:`.records`), ``analyse`` (:mod:`.analyse`), ``simulate`` and ``demo``
(:mod:`.random_play`), ``bench`` (:mod:`.bench`), ``arena`` (:mod:`.arena`), ``train``
(:mod:`.train`), ``play`` and ``join`` (:mod:`.play`), ``cards`` (:mod:`.cards`), ``serve``
(:mod:`.serve`), ``backup`` and ``restore`` (:mod:`.backup`). What they share is in
:mod:`.common`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer

from briscola import __version__
from briscola.terminal.cli import (
    analyse,
    arena,
    backup,
    bench,
    cards,
    play,
    random_play,
    records,
    rules,
    serve,
    train,
    variants,
)
from briscola.terminal.cli.common import Command, app, out


def print_version(wanted: bool) -> None:
    """``--version``: the source's own (:data:`briscola.__version__`, which the package's
    metadata takes too), so that a checkout never installed says it as well."""
    if wanted:
        out.print(f"briscola {__version__}")
        raise typer.Exit()


@app.callback()
def briscola(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            callback=print_version,
            is_eager=True,
            help="Print the version of briscola and exit.",
        ),
    ] = False,
) -> None:
    """The Briscola family of card games: rules, records, simulation and benchmarks."""


COMMANDS: tuple[tuple[str, Callable[..., Any]], ...] = (
    ("variants", variants.variants),
    ("rules", rules.rules),
    ("replay", records.replay_cmd),
    ("verify", records.verify_cmd),
    ("analyse", analyse.analyse_cmd),
    ("simulate", random_play.simulate),
    ("bench", bench.bench_cmd),
    ("arena", arena.arena),
    ("train", train.train_cmd),
    ("demo", random_play.demo),
    ("play", play.play),
    ("join", play.join),
    ("cards", cards.cards),
    ("serve", serve.serve),
    ("backup", backup.backup),
    ("restore", backup.restore),
)
"""Every command, in the order ``briscola --help`` lists them."""

for name, command in COMMANDS:
    app.command(name, cls=Command)(command)


def main() -> None:
    app()


__all__ = ["COMMANDS", "app", "main"]
