"""House rules that take a number (``match=hands:N``, ``points:N``, ``spot_chance``): the
placeholder is no value, and ``briscola variants`` describes such a rule as a pattern with
its range, not as one more choice."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from briscola.catalog import variants_json
from briscola.engine import RULES, Rules, RulesError
from briscola.terminal.cli import app
from helpers import context

runner = CliRunner()


def every_rule() -> list[tuple[str, dict[str, object]]]:
    return [(g["key"], r) for g in variants_json() for r in g["rules"]]


def instance(pattern: str, number: int) -> str | int:
    return number if pattern == "N" else pattern.replace("N", str(number))


@pytest.mark.parametrize(("game", "rule"), every_rule(), ids=lambda x: str(x)[:24])
def test_every_choice_published_is_a_value_the_game_accepts(
    game: str, rule: dict[str, object]
) -> None:
    name = str(rule["name"])
    choices = rule["choices"]
    assert isinstance(choices, list) and choices
    for value in choices:
        Rules.make(game, {**context(game, name), name: value})


@pytest.mark.parametrize(("game", "rule"), every_rule(), ids=lambda x: str(x)[:24])
def test_a_pattern_accepts_exactly_its_range(game: str, rule: dict[str, object]) -> None:
    name = str(rule["name"])
    patterns = rule["patterns"]
    assert isinstance(patterns, list)
    for p in patterns:
        low, high, pattern = p["min"], p["max"], p["pattern"]
        for number in (low, (low + high) // 2, high):
            got = Rules.make(game, {**context(game, name), name: instance(pattern, number)})
            assert got.option(name) == instance(pattern, number)
        for number in (low - 1, high + 1):
            with pytest.raises(RulesError, match=f"{low} to {high}"):
                Rules.make(game, {**context(game, name), name: instance(pattern, number)})
        with pytest.raises(RulesError, match=f"cannot be '{pattern}'"):
            Rules.make(game, {**context(game, name), name: pattern})


def test_the_default_is_a_choice_or_fits_a_pattern() -> None:
    for _, rule in every_rule():
        choices, patterns, default = rule["choices"], rule["patterns"], rule["default"]
        assert isinstance(choices, list) and isinstance(patterns, list)
        fits = any(str(default).startswith(p["pattern"].removesuffix("N")) for p in patterns)
        assert default in choices or fits, rule


def test_the_rules_with_a_number_are_published_with_their_ranges() -> None:
    result = runner.invoke(app, ["variants", "--json"])
    data = {g["key"]: {r["name"]: r for r in g["rules"]} for g in json.loads(result.stdout)}
    match = data["briscola-2"]["match"]
    assert match["choices"] == ["best-of-3", "one-hand", "best-of-5"]
    assert match["patterns"] == [
        {"pattern": "hands:N", "min": 1, "max": 9999},
        {"pattern": "points:N", "min": 1, "max": 9999},
    ]
    assert data["chiamata"]["target"]["choices"] == ["points:5", "points:7", "points:11"]
    assert data["briscola-4"]["spot_chance"]["patterns"] == [{"pattern": "N", "min": 0, "max": 100}]
    assert data["briscola-2"]["direction"]["patterns"] == []
    # The old keys stay: the default, and what is accepted in words.
    assert match["default"] == "best-of-3" and "N from 1 to 9999" in match["accepts"]


def test_the_text_lists_the_patterns_after_the_choices_with_their_range() -> None:
    text = runner.invoke(app, ["variants"]).stdout
    assert "match: points:121 | best-of-3 | one-hand | best-of-5 | hands:N | points:N" in text
    assert "spot_chance: 25 | 10 | 50 | 75 | N\n" in text
    assert "spots a signal (N from 0 to 100)" in text


def test_numbers_in_a_form_are_read_like_numbers() -> None:
    assert RULES["match"].validate(" hands:007 ") == "hands:7"
    assert RULES["spot_chance"].validate("05") == 5
    for odd in ("hands:", "hands:-1", "hands:1.5", "hands:1e3", "hands 3", "N", 12):
        with pytest.raises(RulesError):
            RULES["match"].validate(odd)
