"""House-rule values: what each game accepts, what its errors say it accepts, and numbers
read from text (ASCII digits only: ``int`` also reads other scripts' digits)."""

from __future__ import annotations

import random
import re

import pytest
from typer.testing import CliRunner

from briscola.engine import GAMES, RULES, Match, Rules, RulesError
from briscola.terminal.cli import app
from helpers import context

FORM = re.compile(r"(hands|points):(-?[0-9]+)")


def accepts(game: str, rule: str, value: object) -> bool:
    try:
        Rules.make(game, {**context(game, rule), rule: value})
    except RulesError:
        return False
    return True


def named(message: str, value: str) -> bool:
    """Whether an error message's list of accepted values names ``value``."""
    said = message.split(": choose ", 1)[1]
    span = re.fullmatch(r"a whole number from (\d+) to (\d+).*", said)
    if span:
        return value.isascii() and value.isdigit() and int(span[1]) <= int(value) <= int(span[2])
    assert said.startswith("one of ")
    listed, _, forms = said.removeprefix("one of ").partition(" (N from ")
    names = listed.split(", ")
    form = FORM.fullmatch(value)
    if form and f"{form[1]}:N" in names:
        low, high = forms.removesuffix(")").split(" to ")
        return int(low) <= int(form[2]) <= int(high)
    return value in names


def candidates(rule: str) -> list[str]:
    """Values to try: every choice of the rule book, numbers round the ranges, forms."""
    out = [str(c) for c in RULES[rule].choices if not str(c).endswith(":N")]
    if all(isinstance(c, int) for c in RULES[rule].choices):
        out += [str(n) for n in range(-1, 102)]
    for kind in ("hands", "points"):
        out += [f"{kind}:{n}" for n in (0, 1, 3, 5, 9999, 10000)]
    return out


@pytest.mark.parametrize("game", list(GAMES))
def test_errors_name_exactly_the_values_each_game_accepts(game: str) -> None:
    """For every rule of every game: a bad value's error lists what is accepted, and
    exactly that: each value tried is accepted if and only if the message names it."""
    for rule in GAMES[game].rules:
        with pytest.raises(RulesError, match=f"^house rule {rule} cannot be 'bogus': ") as err:
            Rules.make(game, {**context(game, rule), rule: "bogus"})
        message = str(err.value)
        for value in candidates(rule):
            assert accepts(game, rule, value) == named(message, value), (game, rule, value)


def test_the_messages_say_the_ranges() -> None:
    def message(game: str, options: dict[str, object]) -> str:
        with pytest.raises(RulesError) as err:
            Rules.make(game, options)
        return str(err.value)

    assert "a whole number from 0 to 100" in message("briscola-4", {"spot_chance": 101})
    assert message("brisca", {"players": 6}).endswith(": choose one of 2, 4")
    assert message("briscola-2", {"match": "hands:0"}).endswith("(N from 1 to 9999)")
    assert "points:N, hands:N (N from 1 to 9999)" in message("chiamata", {"target": "x"})


@pytest.mark.parametrize(
    ("game", "rule", "text"),
    [
        ("briscola-4", "spot_chance", "²"),
        ("briscola-4", "spot_chance", "٣"),
        ("brisca", "players", "²"),
        ("briskula", "players", "٤"),
        ("chiamata", "target", "hands:²"),
        ("chiamata", "target", "points:٣"),
        ("briscola-2", "match", "points:١٢١"),
    ],
)
def test_only_ascii_digits_are_numbers(game: str, rule: str, text: str) -> None:
    with pytest.raises(RulesError, match=f"house rule {rule} cannot be '{text}': choose "):
        Rules.make(game, {rule: text})


def test_numbers_as_text_and_forms_are_read() -> None:
    assert Rules.make("brisca", {"players": " 4 "}).players == 4
    assert Rules.make("briscola-4", {"spot_chance": "0"}).option("spot_chance") == 0
    assert Rules.make("chiamata", {"target": "points:3"}).option("target") == "points:3"
    # The placeholder is not a value: it used to be taken, and the match then crashed.
    for rule, game in (("match", "briscola-2"), ("target", "chiamata")):
        with pytest.raises(RulesError, match="N from 1 to 9999"):
            Rules.make(game, {rule: "hands:N"})
    # Numbers of another type are not numbers of players.
    for value in (4.0, True):
        with pytest.raises(RulesError, match="choose one of 2, 4"):
            Rules.make("brisca", {"players": value})
    match = Match(Rules.make("chiamata", {"target": "hands:2"}), random.Random(1))
    assert match.target.goal == 2


@pytest.mark.parametrize("rule", ["spot_chance=²", "players=²", "match=hands:²", "players=3"])
def test_the_command_line_refuses_such_numbers_plainly(rule: str) -> None:
    game = "briscola-4" if rule.startswith("spot") else "brisca"
    result = CliRunner().invoke(app, ["simulate", "--game", game, "--rule", rule])
    assert result.exit_code == 2, result.output
    assert "house rule" in result.stderr and "choose" in result.stderr
    assert "Traceback" not in result.output
