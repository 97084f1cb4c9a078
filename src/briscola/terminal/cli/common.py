"""What every command group of ``briscola`` shares: the Typer app the groups' commands
are added to (:mod:`briscola.terminal.cli` adds them), its flags shown without a value
type, the two consoles, :func:`fail`, :func:`make_rules`, :func:`pick_language` and the
options several commands take."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from briscola.engine import BriscolaError, Rules


def untyped_flags(params: list[Any]) -> list[Any]:
    """The parameters, each flag (``--json``, ``--help``) with an empty metavar, so that
    its help shows no value type after it: it takes no value (Typer 0.29 writes
    ``<bool>`` there)."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class Group(typer.core.TyperGroup):
    """The ``briscola`` command group, its flags shown without a value type."""

    def get_params(self, ctx: Any) -> list[Any]:
        return untyped_flags(super().get_params(ctx))


class Command(typer.core.TyperCommand):
    """A ``briscola`` command, its flags shown without a value type."""

    def get_params(self, ctx: Any) -> list[Any]:
        return untyped_flags(super().get_params(ctx))


app = typer.Typer(
    cls=Group,
    # markdown: each paragraph of a docstring is wrapped to the terminal, whatever the
    # lines of the source (the rich mode keeps them)
    rich_markup_mode="markdown",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
RuleOption = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        "-r",
        help="A house rule as NAME=VALUE (repeatable); `briscola variants` lists them.",
    ),
]
MOVE_LIMIT = 10.0
"""The default --move-limit: ``briscola.ai.bot.DEFAULT_MOVE_LIMIT`` (not imported here, so
that commands without bots start fast)."""
MoveLimitOption = Annotated[
    float,
    typer.Option(
        "--move-limit",
        min=0,
        metavar="SECONDS",
        help="Seconds a computer player from outside (an import spec) may take over a move, "
        "or to be made; one that takes longer stops the game with an error. 0: no limit. "
        "The built-in levels are not timed.",
    ),
]
PlainFlag = Annotated[
    bool, typer.Option("--plain", help="Line by line: read moves from standard input.")
]
GameOption = Annotated[
    str, typer.Option("--game", "-g", help="Game key, as listed by `briscola variants`.")
]


MISSING_EXTRA = "{what}, which is not installed (pip install 'briscola[{extra}]')"


def fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(code)


def rule_options(rules: list[str] | None) -> dict[str, object]:
    """The house rules of ``--rule NAME=VALUE`` options, by name (the engine reads numbers
    from text: ASCII digits)."""
    options: dict[str, object] = {}
    for item in rules or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise fail(f"--rule {item!r}: write NAME=VALUE, like --rule match=one-hand")
        options[name.strip()] = value
    return options


def make_rules(game: str, rules: list[str] | None) -> Rules:
    options = rule_options(rules)
    try:
        return Rules.make(game, options)
    except BriscolaError as e:
        raise fail(str(e)) from None


LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        metavar="LANG",
        help="The language of the game: it, en, es or hr (default: from the LANG "
        "environment variable, e.g. it_IT.UTF-8 is Italian; English otherwise).",
    ),
]


def pick_language(lang: str | None) -> str:
    """``--lang``, checked, else the language the environment's locale names."""
    from briscola.words.catalogue import check_language, language_from_env

    if lang is None:
        return language_from_env()
    try:
        return check_language(lang)
    except BriscolaError as e:
        raise fail(f"--lang: {e}") from None
