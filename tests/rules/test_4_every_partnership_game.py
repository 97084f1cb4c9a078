"""Partner communication is offered in every partnership game (rules.md §4), Brisca and
Briškula in pairs included; in the 32-card deck the signals and answers that name ranks
name its own: the "three" is the second strongest trump (the 10), the low trumps and the
briscoline are its cards without points."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from briscola.catalog import variants_json
from briscola.engine import GAMES, GameState, Rules, RulesError, shuffled_deal
from briscola.engine.actions import Ask, Signal
from briscola.engine.cards import Rank
from briscola.engine.events import Talk
from briscola.terminal.cli import app

PAIRS = [
    ("briscola-4", {}),
    ("briscola-6", {}),
    ("brisca", {"players": 4}),
    ("briskula", {"players": 4, "teams": "pairs"}),
    ("briskula-double", {"players": 4, "teams": "pairs"}),
]


def test_every_partnership_game_offers_communication() -> None:
    offers = {g["key"] for g in variants_json() for r in g["rules"] if r["name"] == "communication"}
    teams = set()
    for key, game in GAMES.items():
        for n in game.players:
            for teams_rule in ("alone", "pairs") if "teams" in game.rules else (None,):
                if game.teams_for(n, teams_rule):
                    teams.add(key)
    assert teams - {"schembil"} <= offers  # Schembil talks through its rais


@pytest.mark.parametrize(("key", "seating"), PAIRS)
@pytest.mark.parametrize("mode", ["signals", "conversation"])
def test_talk_is_played_in_each_partnership_game(
    key: str, seating: dict[str, object], mode: str
) -> None:
    rules = Rules.make(key, {**seating, "communication": mode})
    rng = random.Random(4)
    said = 0
    for dealer in range(4):
        state = GameState(rules, shuffled_deal(rules, dealer % rules.players, rng))
        while not state.over:
            legal = state.legal_actions()
            talk = [a for a in legal if isinstance(a, Signal | Ask)]
            action = talk[0] if talk and rng.random() < 0.5 else legal[rng.randrange(len(legal))]
            for event in state.apply(action):
                said += isinstance(event, Talk)
    assert said > 0


def test_alone_there_is_no_communication() -> None:
    with pytest.raises(RulesError, match="needs a game in teams"):
        Rules.make("briskula", {"players": 4, "communication": "signals"})
    with pytest.raises(RulesError, match="needs a game in teams"):
        Rules.make("brisca", {"communication": "signals"})


def test_the_32_card_deck_signals_its_own_ranks() -> None:
    french = Rules.make("briskula", {"players": 4, "teams": "pairs"})
    italian = Rules.make("briscola-4")
    assert french.signal_ranks["three"] is Rank.TEN
    assert italian.signal_ranks["three"] is Rank.THREE
    assert french.low_trumps == {Rank.SEVEN, Rank.EIGHT, Rank.NINE}
    assert italian.low_trumps == {Rank.TWO, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN}
    assert french.briscoline == {Rank.SEVEN, Rank.EIGHT}
    assert italian.briscoline == {Rank.TWO, Rank.FOUR, Rank.FIVE, Rank.SIX}


def test_a_briskula_pairs_arena_plays_with_signals() -> None:
    result = CliRunner().invoke(
        app,
        ["arena", "-g", "briskula", "-n", "4", "--seed", "1", "intermediate", "beginner",
         "-r", "players=4", "-r", "teams=pairs", "-r", "communication=signals"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
