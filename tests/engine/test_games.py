"""Which add-ons a game has is data in its preset (``Game.addons``, the keys its add-ons
register under), and so is when it is played in teams (``Game.teams_at``): the rule set
never asks which game it is. The presets are found by key and alias, the add-ons register
themselves from their own modules."""

from __future__ import annotations

import ast
import dataclasses
import random
from pathlib import Path

import pytest

import briscola.engine
from briscola.engine import GAMES, GameState, Rules, RulesError, presets, shuffled_deal
from briscola.engine.addons import ADDONS, Addon, AddonKind, find_addon, make_addons
from briscola.engine.chiamata import Chiamata
from briscola.engine.presets import find_game, register_game
from briscola.engine.talk import TableTalk

ENGINE = Path(briscola.engine.__file__).parent


@pytest.mark.parametrize("key", list(GAMES))
def test_a_game_lists_the_add_ons_whose_rules_it_takes(key: str) -> None:
    game = GAMES[key]
    for kind in ADDONS.values():
        takes = [name for name in kind.rules if name in game.rules]
        if kind.key in game.addons:
            assert takes == list(kind.rules), (key, kind.name)
        else:
            assert takes == [], (key, kind.name)


@pytest.mark.parametrize("key", list(GAMES))
def test_every_add_on_a_preset_names_is_registered(key: str) -> None:
    for name in GAMES[key].addons:
        assert find_addon(name).key == name


def test_each_add_on_is_registered_from_its_own_module() -> None:
    """The registry (addons.py) imports none of the add-ons: each module files its own kinds
    at import, and the engine package imports the modules."""
    where = {key: kind.configure.__module__ for key, kind in ADDONS.items()}
    assert where == {
        "exchange": "briscola.engine.exchange",
        "talk": "briscola.engine.talk",
        "rais": "briscola.engine.talk",
        "chiamata": "briscola.engine.chiamata",
    }
    registry = ast.parse((ENGINE / "addons.py").read_text())
    imported = {n.module for n in ast.walk(registry) if isinstance(n, ast.ImportFrom)}
    assert not imported & set(where.values())


class Bell(Addon):
    """A toy add-on: it rings once the first trick is taken."""

    def __init__(self) -> None:
        self.rang = False

    def after_trick(self, state: object, won: object, events: object) -> None:
        self.rang = True

    def copy(self) -> Bell:
        new = Bell()
        new.rang = self.rang
        return new


def test_an_add_on_registered_from_outside_the_engine_is_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(ADDONS, "bell", AddonKind("bell", "a bell", (), lambda values: Bell))
    rules = Rules.make(dataclasses.replace(GAMES["briscola-2"], key="bells", addons=("bell",)))
    assert [type(a) for a in make_addons(rules)] == [Bell]
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(1)))
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    bell = state.addon(Bell)
    assert isinstance(bell, Bell) and bell.rang


def test_an_add_on_no_module_registered_is_named_in_the_error() -> None:
    rules = Rules.make(dataclasses.replace(GAMES["briscola-2"], key="x", addons=("gong",)))
    with pytest.raises(RulesError, match="there is no add-on 'gong'; the add-ons are: chiamata"):
        GameState(rules, shuffled_deal(rules, 0, random.Random(1)))


def test_a_preset_is_found_by_key_and_by_alias() -> None:
    assert find_game("briscola-2") is GAMES["briscola-2"] is briscola.engine.find_game("briscola")
    assert find_game(" Briscola ") is GAMES["briscola-2"]
    with pytest.raises(RulesError, match="there is no game 'tressette'; the games are: briscola-2"):
        find_game("tressette")


def test_a_registered_preset_is_found_and_its_names_are_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(presets, "GAMES", dict(GAMES))
    mine = dataclasses.replace(GAMES["briscola-2"], key="briscola-mine", aliases=("mine",))
    assert register_game(mine) is mine
    assert find_game("MINE") is mine and find_game("briscola-mine") is mine
    assert Rules.make("mine").game is mine
    clash = dataclasses.replace(GAMES["briscola-2"], key="other", aliases=("briscola",))
    with pytest.raises(RulesError, match="briscola already names a game"):
        register_game(clash)


def test_the_presets_and_the_rules_compiler_import_no_add_on() -> None:
    """The presets name their add-ons by key; the rule set compiles the house rules and
    leaves making the add-ons to the registry."""
    for name in ("presets.py", "rules.py"):
        tree = ast.parse((ENGINE / name).read_text())
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not imported & {
            "briscola.engine.addons",
            "briscola.engine.chiamata",
            "briscola.engine.exchange",
            "briscola.engine.talk",
        }, name


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
    for name in ("chiamata.py", "talk.py", "exchange.py"):
        tree = ast.parse((ENGINE / name).read_text())
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert "briscola.engine.views" not in imported, name
