"""What each card cost, in the terminal games: ``analyse`` in the plain game (and once
more when the match is over), ``a`` in the full-screen one; the same figures as
``briscola analyse`` on the hand's record, in the player's language."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba")

from briscola.ai import make_bot
from briscola.analysis import analyse_json, hint, tenths
from briscola.engine import GameState, Rules, shuffled_deal
from briscola.engine.cards import Card
from briscola.terminal.analysis_text import hint_lines, num
from briscola.terminal.local import Session
from briscola.terminal.screen import PlayApp
from briscola.words.seating import Seating
from helpers import QUICK_SEARCH

BRISCOLA = str(Path(sys.executable).parent / "briscola")


def test_the_plain_game_says_what_each_card_cost(tmp_path: Path) -> None:
    save = tmp_path / "hand.jsonl"
    moves = "analyse\n" + "1\n" * 20 + "analyse\n"
    done = subprocess.run(
        [BRISCOLA, "play", "--plain", "--seed", "5", "--rule", "match=one-hand",
         "--save", str(save)],
        input=moves, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "No hand is over yet" in out  # asked before the hand ended
    assert "Type analyse to see what each card of the last hand cost" in out
    tail = out.split("Hand 1: what each card cost", 1)[1]
    [record] = [json.loads(line) for line in save.read_text().splitlines()]
    truth = analyse_json(record)
    for seat in truth["seats"]:
        figures = f"points lost {tenths(seat['total_loss'])} · accuracy {tenths(seat['accuracy'])}%"
        assert figures in tail, (figures, tail)
    marked = [d for d in truth["decisions"] if d["label"] in ("inaccuracy", "mistake", "blunder")]
    for d in marked:
        assert f"trick {d['trick']}: " in tail and f"(\u2212{tenths(d['loss'])})" in tail


def test_the_plain_game_in_italian_and_a_match_left_without_analysing(tmp_path: Path) -> None:
    done = subprocess.run(
        [BRISCOLA, "play", "--plain", "--seed", "5", "--lang", "it", "--rule", "match=one-hand"],
        input="1\n" * 20 + "a\n", capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Mano 1: quanto è costata ogni carta" in done.stdout
    assert "punti persi" in done.stdout
    left = subprocess.run(
        [BRISCOLA, "play", "--plain", "--seed", "5", "--rule", "match=one-hand"],
        input="1\n" * 20, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert left.returncode == 0 and "what each card cost" not in left.stdout.split("Type")[-1]


async def test_the_full_screen_game_shows_it_with_a_and_a_hint_with_h() -> None:
    rules = Rules.make("briscola-2", {"match": "best-of-3"})
    bots = {1: make_bot("random", seed=2)}
    app = PlayApp(Session(rules, 0, bots, random.Random(4)), pace=0)
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.pause()
        await pilot.press("h")  # a hint on the first turn, in the log
        for _ in range(100):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if "would play" in "\n".join(str(line) for line in app.query_one("#log").lines):
                break
        log = "\n".join(str(line) for line in app.query_one("#log").lines)
        assert "The strong computer player would play " in log and "each choice: " in log
        assert "It plays to win" in log
        for _ in range(200):  # the first hand played out
            await pilot.pause()
            if app.session.records:
                break
            if app.session.my_turn() and not app.busy:
                await pilot.press("1")
        assert app.session.records
        await pilot.press("a")
        for _ in range(100):
            await app.workers.wait_for_complete()
            await pilot.pause()
            text = "\n".join(str(line) for line in app.query_one("#log").lines)
            if "Hand 1: what each card cost" in text:
                break
        truth = analyse_json(app.session.records[0])
        for seat in truth["seats"]:
            assert f"points lost {tenths(seat['total_loss'])}" in text, text
        await pilot.press("q")
        await pilot.press("y")


def test_local_analysis_is_kept_for_the_hand() -> None:
    rules = Rules.make("briscola-2", {"match": "one-hand"})
    s = Session(rules, 0, {1: make_bot("random", seed=1)}, random.Random(1))
    assert s.analysis() == ["No hand is over yet: what each card cost comes at the end of a hand."]
    while not s.over:
        if s.my_turn():
            s.act(s.view().legal[0])
        else:
            s.advance()
    first = s.analysis()
    assert first == s.analysis() and first[0] == "Hand 1: what each card cost"


def test_a_hint_in_the_plain_game_against_the_computer() -> None:
    done = subprocess.run(
        [BRISCOLA, "play", "--plain", "--seed", "5", "--rule", "match=one-hand"],
        input="hint\n" + "1\n" * 20, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = done.stdout.split("The strong computer player would play ", 1)[1].splitlines()
    assert said[1].startswith("It plays to win the hand: with this choice your side wins it ")
    worth = next(line for line in said if line.startswith("each choice: "))
    assert worth.count(" · ") == 2 and worth.count("★") == 1 and worth.count("% of") == 0


LABELS = {"en": ("wins", "points"), "it": ("vince", "punti"), "es": ("gana", "puntos")}
LABELS["hr"] = ("pobjeda", "bodov")


def hint_at(game: str, lang: str) -> tuple[dict[str, Any], Seating, list[str]]:
    """A hint at the first card of a hand of ``game``, and its lines in ``lang``."""
    rules = Rules.make(game)
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(3)))
    body = hint(state, state.turn, seed=1, config=QUICK_SEARCH).to_json()
    seating = Seating.of(rules, state.turn, lang)
    return body, seating, hint_lines(body, seating)


@pytest.mark.parametrize("lang", ["en", "it", "es", "hr"])
def test_a_hint_stars_the_card_it_names_and_names_each_figure(lang: str) -> None:
    """One hint, one currency: the first line names the strong player's card, the list
    stars that card; the second line gives its chance to win the hand and its points,
    and each choice its own, each figure with its word."""
    body, seating, lines = hint_at("briscola-2", lang)
    assert body["aim"] == "win"
    said, why, listed = lines
    card = seating.card(Card.parse(body["suggested"]["play"]))
    form = {"en": str(card), "hr": card.form("acc")}.get(lang) or card.form("def")
    assert form in said, said
    items = listed.split(": ", 1)[1].split(" · ")
    assert len(items) == len(body["choices"]) == 3
    starred = [i for i in items if i.endswith(" ★")]
    assert len(starred) == 1 and starred[0].startswith(f"{card} ("), listed
    [its] = [c for c in body["choices"] if c["action"] == body["suggested"]]
    percent = f"{its['win_percent']}%" if lang in ("en", "it") else f"{its['win_percent']} %"
    assert percent in why and num(its["expected_points"], lang) in why, why
    wins, points = LABELS[lang]
    assert points in why
    for item, c in zip(items, body["choices"], strict=True):
        assert wins in item and str(c["win_percent"]) in item and "%" in item, item
        assert points in item and num(c["expected_points"], lang) in item, item


def test_a_hint_where_the_strong_player_plays_for_points_gives_points_alone() -> None:
    """In Briscolone's match to 121 the strong player plays for points: the hint's one
    figure is the points, its card the one of most."""
    body, seating, lines = hint_at("briscolone", "en")
    assert body["aim"] == "points"
    said, why, listed = lines
    assert "%" not in "".join(lines) and why.startswith("It plays for points")
    assert listed.count("★") == 1 and listed.count(" points)") == len(body["choices"])
    top = max(c["expected_points"] for c in body["choices"])
    [its] = [c for c in body["choices"] if c["action"] == body["suggested"]]
    assert tenths(its["expected_points"]) == tenths(top)
    assert str(seating.card(Card.parse(body["suggested"]["play"]))) in said
    assert num(its["expected_points"], "en") + " points" in why


@pytest.mark.parametrize("lang", ["en", "it", "es", "hr"])
@pytest.mark.parametrize("game", ["briscola-2", "briscolone"])
def test_a_hint_at_a_table_that_counts_in_its_head_gives_no_figure_of_points(
    game: str, lang: str
) -> None:
    """Issue 39: under points: hidden no figure of points appears during a hand, a hint's
    included: the chance to win alone where the strong player plays to win, and where it
    plays for points the choices by name, the star still on the card the sentence names."""
    rules = Rules.make(game)
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(3)))
    body = hint(state, state.turn, seed=1, config=QUICK_SEARCH).to_json()
    shown = hint_lines(body, Seating.of(rules, state.turn, lang))
    hidden = hint_lines(body, Seating.of(rules, state.turn, lang, points="hidden"))
    points = LABELS[lang][1]
    assert points in " ".join(shown)  # the same hint, where the points are shown
    # the points are given to a tenth, with their word: neither is left
    assert not re.search(rf"\d[.,]\d|\d\s*\)?\s*{points}", " ".join(hidden)), hidden
    said, why, listed = hidden
    assert said == shown[0] and listed.count("★") == 1
    card = str(Seating.of(rules, state.turn, lang).card(Card.parse(body["suggested"]["play"])))
    assert next(i for i in listed.split(": ", 1)[1].split(" · ") if i.endswith("★")).startswith(
        card
    )
    if body["aim"] == "win":
        [its] = [c for c in body["choices"] if c["action"] == body["suggested"]]
        assert str(its["win_percent"]) in why and "%" in listed
