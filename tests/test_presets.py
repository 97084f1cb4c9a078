"""Which add-ons a game has is data in its preset (``Game.addons``), and so is when it is
played in teams (``Game.teams_at``): the rule set never asks which game it is."""

from __future__ import annotations

import ast
import dataclasses
import random
from pathlib import Path

import pytest

import briscola.engine
from briscola.engine import GAMES, GameState, Rules, shuffled_deal
from briscola.engine.chiamata import Chiamata
from briscola.engine.games import CHIAMATA, EXCHANGE, RAIS, TALK, AddonKind
from briscola.engine.talk import TableTalk

ENGINE = Path(briscola.engine.__file__).parent
KINDS: tuple[AddonKind, ...] = (EXCHANGE, TALK, RAIS, CHIAMATA)


@pytest.mark.parametrize("key", list(GAMES))
def test_a_game_lists_the_add_ons_whose_rules_it_takes(key: str) -> None:
    game = GAMES[key]
    for kind in KINDS:
        takes = [name for name in kind.rules if name in game.rules]
        if kind in game.addons:
            assert takes == list(kind.rules), (key, kind.name)
        else:
            assert takes == [], (key, kind.name)


def test_a_new_preset_gets_its_add_ons_from_its_data() -> None:
    """A variant of chiamata under another key still has the auction, and a two-player
    game given partner talk in pairs of four talks: no code names the game."""
    variant = dataclasses.replace(GAMES["chiamata"], key="chiamata-variant")
    rules = Rules.make(variant)
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(1)))
    assert state.phase == "auction" and state.addon(Chiamata) is not None
    silent = dataclasses.replace(GAMES["chiamata"], key="chiamata-silent", addons=())
    state = GameState(Rules.make(silent), shuffled_deal(Rules.make(silent), 0, random.Random(1)))
    assert state.phase == "play" and state.addon(Chiamata) is None
    schembil = dataclasses.replace(GAMES["schembil"], key="schembil-variant")
    talk = GameState(Rules.make(schembil), shuffled_deal(Rules.make(schembil), 0, random.Random(2)))
    found = talk.addon(TableTalk)
    assert isinstance(found, TableTalk) and found.rais == (0, 1)


def test_teams_are_data_of_the_preset() -> None:
    pairs = dataclasses.replace(GAMES["brisca"], key="brisca-variant")
    assert Rules.make(pairs, {"players": 4}).teams and not Rules.make(pairs).teams
    alone = dataclasses.replace(GAMES["briscola-4"], key="four-alone", teams_at=())
    assert not Rules.make(alone, {"communication": "none"}).teams


def test_the_engine_never_asks_which_game_it_plays() -> None:
    """No comparison of a game's key in the engine: ``rules.key == "chiamata"`` and the
    like (an add-on's own mode, such as the talk's ``schembil``, is its config)."""
    keys = set(GAMES)
    found = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                parts = list(ast.walk(node))
                asks_key = any(isinstance(p, ast.Attribute) and p.attr == "key" for p in parts)
                consts = {c.value for c in parts if isinstance(c, ast.Constant)}
                if asks_key and keys & consts:
                    found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_the_views_and_the_add_ons_share_view_types_from_below() -> None:
    views = ast.parse((ENGINE / "views.py").read_text())
    imported = {n.module for n in ast.walk(views) if isinstance(n, ast.ImportFrom)}
    assert "briscola.engine.chiamata" not in imported
    assert "briscola.engine.view_types" in imported
