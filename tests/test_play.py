"""Playing against the computer: the plain line mode through a pipe, and the full-screen
interface driven by Textual's pilot, each to the end of a match."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from briscola.ai import make_bot
from briscola.engine import Card, MalformedError, Play, Rank, Rules, parse_record, replay
from briscola.engine.actions import Bid, Call, Pass
from briscola.plain import parse_move
from briscola.session import Session
from briscola.tui import ActionButton, PlayApp

BRISCOLA = [str(Path(sys.executable).parent / "briscola")]


def run_plain(args: list[str], moves: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*BRISCOLA, "play", "--plain", *args],
        input=moves,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_plain_plays_a_match_to_the_end_through_a_pipe(tmp_path: Path) -> None:
    save = tmp_path / "match.jsonl"
    done = run_plain(["--seed", "3", "--save", str(save)], "1\n" * 200)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "you are seat 0" in out and "your hand" in out and "1) play" in out
    assert "=== the match is over" in out
    hands = out.count("hand 1:") + out.count("hand 2:") + out.count("hand 3:")
    assert hands >= 2  # best of three: at least two hands
    records = [json.loads(line) for line in save.read_text().splitlines()]
    assert len(records) >= 2
    for rec in records:
        result = replay(parse_record(rec))
        assert result.error is None and result.state.over


def test_plain_explains_bad_input_and_keeps_going() -> None:
    moves = "zz\n9\nhelp\nlast\n" + "2\n1\n" * 100
    done = run_plain(["--seed", "1", "--rule", "match=one-hand"], moves)
    assert done.returncode == 0
    assert "'zz' is not a move" in done.stdout
    assert "there is no action 9" in done.stdout
    assert "type the number of an action" in done.stdout
    assert "no trick to show" in done.stdout


def test_moves_typed_as_cards_and_words() -> None:
    s = session("briscola-2", {"trump_exchange": "two"}, 5)
    view = s.view()
    first = view.hand[0]
    assert parse_move(str(first).lower(), view) == Play(0, first)
    assert parse_move("1", view) == view.legal[0]
    with pytest.raises(MalformedError, match="there is no action 0"):
        parse_move("0", view)
    with pytest.raises(MalformedError, match="not a move"):
        parse_move("play the ace", view)
    auction = session("chiamata", {}, 5).view()
    assert parse_move("pass", auction) == Pass(0)
    assert parse_move("bid K", auction) == Bid(0, rank=Rank.KING)
    assert parse_move("bid 75", auction) == Bid(0, points=75)
    assert parse_move("call Kd", auction) == Call(0, Card.parse("Kd"))


def test_plain_stops_with_status_1_when_input_ends_early() -> None:
    done = run_plain(["--seed", "1"], "1\n1\n")
    assert done.returncode == 1
    assert "the input ended before the match did" in done.stdout


def test_plain_chiamata_with_auction_and_call() -> None:
    done = run_plain(["--game", "chiamata", "--seed", "4", "--rule", "target=hands:1"], "1\n" * 400)
    assert done.returncode == 0, done.stdout[-2000:]
    assert "auction:" in done.stdout and "pass" in done.stdout
    assert "=== the match is over" in done.stdout


def test_play_refuses_a_wrong_number_of_bots() -> None:
    done = subprocess.run(
        [
            *BRISCOLA,
            "play",
            "--plain",
            "--game",
            "briscola-4",
            "--bot",
            "random",
            "--bot",
            "random",
        ],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "one for each of the 3 other seats" in done.stderr


def session(game: str, options: dict[str, object], seed: int) -> Session:
    rules = Rules.make(game, options)
    bots = {s: make_bot("random", seed=seed + s) for s in range(1, rules.players)}
    return Session(rules, 0, bots, random.Random(seed))


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("briscola-2", {}),
        ("briscola-4", {"communication": "conversation", "match": "one-hand"}),
        ("brisca", {"match": "one-hand"}),
    ],
)
async def test_tui_plays_a_match_to_the_end_by_keys(game: str, options: dict[str, object]) -> None:
    app = PlayApp(session(game, options, 7), pace=0)
    async with app.run_test(size=(120, 50)) as pilot:
        for _ in range(400):
            if app.session.over:
                break
            await pilot.pause()
            if app.session.my_turn() and not app.busy:
                await pilot.press("1")
        await pilot.pause()
        assert app.session.over
        text = "\n".join(str(line) for line in app.query_one("#log").lines)
        assert "the match is over" in text
        await pilot.press("q")
    assert app.return_code == 0


async def test_tui_cards_are_buttons_to_click(tmp_path: Path) -> None:
    save = tmp_path / "m.jsonl"
    app = PlayApp(session("briscola-2", {"match": "one-hand"}, 3), save_to=str(save), pace=0)
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.pause()
        buttons = list(app.query(ActionButton))
        assert app.session.my_turn() and len(buttons) == 3
        hand_before = len(app.session.view().hand)
        await pilot.click(buttons[0])
        await pilot.pause()
        assert app.session.hand.moves and app.session.hand.moves[0] == buttons[0].move
        assert len(app.session.view().hand) <= hand_before
        await pilot.press("l")
        await pilot.press("s")
        await pilot.pause()
    assert save.exists()
