"""What each card cost, in the terminal games: ``analyse`` in the plain game (and once
more when the match is over), ``a`` in the full-screen one; the same figures as
``briscola analyse`` on the hand's record, in the player's language."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

from briscola.ai import make_bot
from briscola.analysis import analyse_json, tenths
from briscola.engine import Rules
from briscola.terminal.analysis_text import hint_lines
from briscola.terminal.local import Session
from briscola.terminal.screen import PlayApp
from briscola.words.seating import Seating

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
        assert "The strong computer player would play " in log and "what each is worth" in log
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
    worth = next(line for line in said if line.startswith("what each is worth: "))
    assert worth.count(" · ") == 2 and "★" in worth


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_hint_says_why_when_its_card_is_not_of_most_value(lang: str) -> None:
    """The strong player plays to win the hand, the values count points: when its card
    is not the one of most value, the hint says so rather than contradict itself."""
    seating = Seating.of(Rules.make("briscola-2"), 0, lang)
    ace, four = {"seat": 0, "play": "Ac"}, {"seat": 0, "play": "4c"}

    def body(suggested: dict[str, object]) -> dict[str, object]:
        return {
            "suggested": suggested,
            "choices": [
                {"action": ace, "expected_points": 60.0},
                {"action": four, "expected_points": 59.5},
            ],
            "exact": False,
        }

    why = {"en": "It plays to win the hand", "it": "Gioca per vincere la mano"}[lang]
    agreeing, differing = hint_lines(body(ace), seating), hint_lines(body(four), seating)
    assert len(agreeing) == 2 and not any(why in line for line in agreeing), agreeing
    assert len(differing) == 3 and differing[1].startswith(why), differing
    assert "★" in differing[2]
