"""House rules are read once, into typed fields of the compiled rule set (and the add-ons'
configs): the engine and the players read those, never the option strings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import briscola
from briscola.engine import GAMES, Rules
from helpers import context

SRC = Path(briscola.__file__).parent

FIELDS = {
    "direction": lambda r, v: r.direction == v,
    "last_trick": lambda r, v: r.last_trick_allowed == (v == "allowed"),
    "show_partner_hands": lambda r, v: r.show_partner_hands == (v == "yes"),
    "sixty_sixty": lambda r, v: (
        (r.tie_replayed, r.tie_to_last_trick) == (v == "replay", v == "last-trick")
    ),
    "cappotto": lambda r, v: r.cappotto_double == (v == "double"),
    "cut": lambda r, v: r.cut == (v == "cut"),
    "partners": lambda r, v: r.partners_drawn == (v == "drawn"),
    "court_order": lambda r, v: r.south_courts == (v == "south"),
    "follow_suit": lambda r, v: r.follow_suit == (v == "required"),
    "exchange_timing": lambda r, v: r.exchange_after_win == (v == "after-win"),
    "trump_exchange": lambda r, v: r.exchange == v,
}


@pytest.mark.parametrize("key", list(GAMES))
def test_each_rule_value_is_read_into_its_field(key: str) -> None:
    game = GAMES[key]
    for name, holds in FIELDS.items():
        if name not in game.rules:
            continue
        for value in game.allowed(name):
            rules = Rules.make(key, {**context(key, name), name: value})
            assert holds(rules, value), (key, name, value)
            assert rules.option(name) == value  # the public mapping keeps the values


def test_games_without_a_rule_read_its_default() -> None:
    chiamata = Rules.make("chiamata")
    assert not chiamata.show_partner_hands and not chiamata.cut and not chiamata.partners_drawn
    assert chiamata.direction == "right" and chiamata.last_trick_allowed
    assert not Rules.make("briscola-2").spotted_signals
    spotted = {"communication": "signals", "signal_audience": "spotted"}
    assert Rules.make("briscola-4", spotted).spotted_signals


def test_no_module_compares_house_rule_strings() -> None:
    """Only the rule-set compiler (rules.py) reads ``options``, and each add-on's
    ``configure`` the values it is given once per rule set; everything else reads the typed
    fields."""
    pattern = re.compile(r"\boptions\.get\(|\brules\.options\[|\bopts\[")
    found = [
        f"{path.relative_to(SRC)}:{n}"
        for path in sorted(SRC.rglob("*.py"))
        if path.name != "rules.py"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []


def test_the_match_target_is_read_once() -> None:
    assert Rules.make("briscola-2").target == ("hands", 2)
    assert Rules.make("briscola-2", {"match": "one-hand"}).target == ("one", 1)
    assert Rules.make("briscolone").target == ("points", 121)
    assert Rules.make("chiamata", {"target": "hands:4"}).target == ("hands", 4)
