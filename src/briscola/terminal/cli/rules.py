"""``briscola rules``: a game's rules in plain words, with its house rules, in the
reader's language: the sentences of :func:`briscola.words.rules.rules_text`, topic by
topic, as the browser's rules page shows them."""

from __future__ import annotations

import shutil
import textwrap
from typing import Annotated, Any

import typer
from rich.markup import escape

from briscola.terminal.cli.common import (
    LangOption,
    RuleOption,
    err,
    fail,
    pick_language,
    rule_options,
)

TOPICS = ("game", "deal", "play", "scoring", "match", "talk")
"""The topics in the order they are shown (the browser's order)."""

GameArgument = Annotated[
    str,
    typer.Argument(
        metavar="GAME", help="Game key, as listed by `briscola variants`.", show_default=False
    ),
]


def rules(game: GameArgument, rule: RuleOption = None, lang: LangOption = None) -> None:
    """Print the rules of a game in plain words, with the house rules given.

    The sentences of the browser's rules page, topic by topic, in your language; the
    house rules not given are at the game's defaults (`briscola variants` lists them)."""
    from briscola.engine import BriscolaError, RulesError, find_game
    from briscola.words.catalogue import catalogue
    from briscola.words.errors import said_error
    from briscola.words.rules import rules_text

    language = pick_language(lang)
    options = rule_options(rule)
    try:
        key = find_game(game).key
    except BriscolaError as e:
        error = {"code": "bad_game", "message": str(e), "values": {"game": game}}
        raise fail(said_error(language, error)) from None
    try:
        sentences = rules_text(key, options, language)
    except RulesError as e:
        name, value = e.written
        error = {"code": "bad_rules", "message": str(e), "values": {"rule": name, "value": value}}
        refusal = fail(said_error(language, error))
        # what the rule may be; the engine's own words when that value is one of them (the
        # other rules given forbid it: a rule of games in teams, for one played alone)
        err.print(
            escape(choices(key, name, value, catalogue(language).say("setup.rules")) or str(e))
        )
        raise refusal from None
    words = catalogue(language)
    width = max(40, min(shutil.get_terminal_size().columns, 100))
    lines = []
    for topic in sorted(dict.fromkeys(s.topic for s in sentences), key=_rank):
        title = f"words.topic.{topic}"
        lines.append(typer.style(words.say(title) if title in words else topic, bold=True))
        for s in sentences:
            if s.topic == topic:
                lines.append(
                    textwrap.fill(
                        s.text,
                        width,
                        initial_indent="  - ",
                        subsequent_indent="    ",
                        break_long_words=False,
                        break_on_hyphens=False,
                    )
                )
    typer.echo("\n".join(lines))  # (the styles only where the output is a terminal)


def _rank(topic: str) -> int:
    return TOPICS.index(topic) if topic in TOPICS else len(TOPICS)


def choices(game: str, name: str, value: str, label: str) -> str | None:
    """What a ``--rule`` of ``game`` may say: the values of house rule ``name`` (its
    default first, then its patterns such as ``points:N`` and their range), or, when the
    game has no such rule, every house rule it has after ``label`` ("House rules");
    ``None`` when ``value`` is one of the rule's values (the other rules forbid it)."""
    from briscola.catalog import variants_json

    entry: dict[str, Any] = next(g for g in variants_json() if g["key"] == game)
    rule = next((r for r in entry["rules"] if r["name"] == name), None)
    if rule is None:
        return f"{label}: {', '.join(r['name'] for r in entry['rules'])}"
    values = [str(rule["default"])] + [str(c) for c in rule["choices"] if c != rule["default"]]
    if value in values:
        return None
    values += [f"{p['pattern']} (N: {p['min']}-{p['max']})" for p in rule["patterns"]]
    return f"{name}: {' | '.join(values)}"
