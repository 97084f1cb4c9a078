"""Playing against the computer: the plain line mode through a pipe, and the full-screen
interface driven by Textual's pilot, each to the end of a match."""

from __future__ import annotations

import html
import io
import itertools
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import RichLog

from briscola.ai import make_bot
from briscola.engine import (
    BriscolaError,
    Card,
    MalformedError,
    Play,
    Rank,
    Rules,
    parse_record,
    replay,
)
from briscola.engine.actions import Action, Bid, Pass, Signal
from briscola.engine.views import View
from briscola.terminal.local import Session
from briscola.terminal.moves import menu, parse_move
from briscola.terminal.plain import run_plain as run_plain_session
from briscola.terminal.screen import CardButton, PlayApp, draw_table, face
from briscola.words.cards import hand_order
from briscola.words.catalogue import LANGUAGES, catalogue
from briscola.words.names import NAMES, computer_names
from helpers import POINT_FIGURE

BRISCOLA = [str(Path(sys.executable).parent / "briscola")]

RUNNING = {lang: catalogue(lang).say("view.points", sides="") for lang in LANGUAGES}
"""The running points' line as it starts ("points: ", "punti: ", ...)."""


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
    assert "you sit South" in out and "your hand" in out and "1) " in out
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
    assert "there is no choice 9" in done.stdout
    assert "type the number of a choice" in done.stdout
    assert "no trick has been taken yet" in done.stdout


def test_moves_typed_as_cards_and_words() -> None:
    s = session("briscola-2", {"trump_exchange": "two"}, 5)
    view, voice = s.view(), s.seating
    first = view.hand[0]
    assert parse_move(str(first).lower(), view, voice) == Play(0, first)
    assert parse_move("1", view, voice) == menu(view, voice)[0][1]
    with pytest.raises(MalformedError, match="there is no choice 0"):
        parse_move("0", view, voice)
    with pytest.raises(MalformedError, match="not a move"):
        parse_move("play the ace", view, voice)
    c = session("chiamata", {}, 5)
    auction, voice = c.view(), c.seating
    assert parse_move("pass", auction, voice) == Pass(0)
    assert parse_move("bid K", auction, voice) == Bid(0, rank=Rank.KING)
    with pytest.raises(MalformedError, match="points are bid only once someone has bid a 2"):
        parse_move("bid 75", auction, voice)
    with pytest.raises(MalformedError, match="points bids run from 61 to 120"):
        parse_move("bid 200", auction, voice)
    with pytest.raises(MalformedError, match="is no bid"):
        parse_move("bid ²", auction, voice)
    with pytest.raises(MalformedError, match=r"there is no choice|not a move"):
        parse_move("²", auction, voice)
    with pytest.raises(MalformedError, match="you cannot call a card now"):
        parse_move("call Kd", auction, voice)


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
        buttons = list(app.query(CardButton))
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


# ---------------------------------------------------------------- the player's words


def test_plain_game_speaks_to_the_player_by_name_and_card_name() -> None:
    """The computer players are named as at a web table (issue 39): first names of the
    language (Italian in English), chosen from the seed, not North, East and West."""
    done = run_plain(
        ["--game", "briscola-4", "--seed", "3", "--rule", "match=one-hand"], "1\n" * 60
    )
    out = done.stdout
    assert done.returncode == 0, done.stderr
    east, north, west = (computer_names("3", "en", [1, 2, 3], [])[s] for s in (1, 2, 3))
    assert {east, north, west} <= set(NAMES["it"])
    assert "you sit South" in out and f"{north} is your partner" in out
    assert f"--- hand 1: {west} deals ---" in out
    assert "you play " in out and f"{east} plays " in out and " of " in out  # English names
    assert " di " not in out  # never an Italian name in an English sentence (issue 39)
    assert f"{north} and you " in out and f"{east} and {west} " in out
    assert not re.search(r"\b(North|East|West)\b", out.split("\n", 1)[1])
    assert "seat" not in out  # nobody is a number
    assert re.search(r"\b1 points|\bseats? \d", out) is None
    assert "=== the match is over: " in out


@pytest.mark.parametrize(
    ("game", "lang", "name", "courts", "not_shown"),
    [
        ("brisca", "es", " de ", "SCR", "JQK"),
        ("briskula", "en", " of ", "JQK", "FCRS"),
        ("briscola-2", "it", " di ", "FCR", "JQKS"),
        ("briscola-2", "en", " of ", "FCR", "JQKS"),
    ],
)
def test_cards_are_named_and_lettered_as_the_tables_deck_shows_them(
    game: str, lang: str, name: str, courts: str, not_shown: str
) -> None:
    """The card list names each card in the reader's words and writes it short as its card
    shows it (issue 39: "3) Js" under an F card): R C F on the Italian cards, R C S on the
    Spanish, K Q J on the French."""
    done = run_plain(
        ["--game", game, "--seed", "2", "--rule", "match=one-hand", "--lang", lang], "1\n" * 60
    )
    assert done.returncode == 0, done.stderr
    menu = [
        m.groups()
        for line in done.stdout.splitlines()
        if (m := re.match(r"  \d+\) (\S+)  (.*)", line))
    ]
    assert menu and all(name in card for _, card in menu)
    ranks = {code[:-1] for code, _ in menu}
    assert ranks & set(courts), ranks  # a court was in the hand, by its deck's letter
    assert not ranks & set(not_shown), ranks


def test_a_gathered_trick_is_told_with_its_cards_and_no_points_by_default() -> None:
    """Issue 39: the log names each trick's cards ("Francesca takes trick 1: tre di coppe,
    asso di coppe"), and under the default points: hidden no figure of points."""
    s = session("briscola-2", {}, 4)
    s.run_bots()
    lines = s.act(menu(s.view(), s.seating)[0][1]) + s.run_bots()
    taken = [line for line in lines if " trick 1: " in line]
    assert len(taken) == 1, lines
    trick = s.view().tricks[0]
    assert taken[0].endswith(", ".join(s.seating.card(c) for c in trick.cards)), taken
    assert not POINT_FIGURE.search(taken[0]), taken


def test_under_points_shown_the_trick_says_its_points() -> None:
    rules = Rules.make("briscola-2")
    s = Session(rules, 0, {1: make_bot("random", seed=5)}, random.Random(4), points="shown")
    s.run_bots()
    lines = s.act(menu(s.view(), s.seating)[0][1]) + s.run_bots()
    taken = [line for line in lines if " trick 1: " in line]
    points = s.view().tricks[0].points
    assert len(taken) == 1 and taken[0].endswith(f"({points} point{'s' * (points != 1)})")


def test_plain_does_not_reprint_the_table_after_a_mistyped_line() -> None:
    done = run_plain(["--seed", "1", "--rule", "match=one-hand"], "zz\nbid 3\n9\n" + "1\n" * 40)
    first_move = done.stdout.split("you play ")[0]
    assert first_move.count("on the table: ") == 1 and first_move.count("your move:") == 4


@pytest.mark.parametrize(
    ("rule", "expect"),
    [
        ("last_trick=hidden", "this table does not allow looking at the last trick"),
        ("last_trick=allowed", "the last trick: "),
    ],
)
def test_last_trick_only_where_the_table_allows_it(rule: str, expect: str) -> None:
    moves = "1\n" * 3 + "last\n" + "1\n" * 40
    done = run_plain(["--seed", "1", "--rule", "match=one-hand", "--rule", rule], moves)
    assert expect in done.stdout


def test_chiamata_status_has_no_stock_and_bids_read_in_words() -> None:
    done = run_plain(["--game", "chiamata", "--seed", "4", "--rule", "target=hands:1"], "1\n" * 200)
    assert "stock" not in done.stdout and "to draw" not in done.stdout
    assert "the auction: " in done.stdout and "called the " in done.stdout


def test_help_explains_signals_questions_and_orders() -> None:
    done = run_plain(["--seed", "1", "--rule", "match=one-hand"], "help\n" + "1\n" * 40)
    for word in ("signals: ", "questions: ", "orders: "):
        assert word in done.stdout


# ---------------------------------------------------------------- saving, leaving


def test_a_save_that_fails_says_why_and_the_game_goes_on(tmp_path: Path) -> None:
    moves = f"save {tmp_path}\nsave {tmp_path}/missing/x.jsonl\n" + "1\n" * 200
    done = run_plain(["--seed", "3", "--rule", "match=one-hand"], moves)
    assert done.returncode == 0, done.stderr
    assert f"cannot save to {tmp_path}: it is a folder" in done.stdout
    assert f"there is no folder {tmp_path}/missing" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    assert "=== the match is over" in done.stdout


@pytest.mark.parametrize("where", ["{tmp}", "{tmp}/missing/x.jsonl"])
def test_play_refuses_a_save_file_it_cannot_write_before_the_match(
    tmp_path: Path, where: str
) -> None:
    done = run_plain(["--seed", "3", "--save", where.format(tmp=tmp_path)], "1\n" * 200)
    assert done.returncode == 2 and "cannot save to" in done.stderr
    assert "your move" not in done.stdout


def test_the_full_screen_game_needs_a_terminal() -> None:
    done = subprocess.run(
        [*BRISCOLA, "play"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "--plain" in done.stderr
    assert "\x1b[" not in done.stdout


async def test_tui_leaving_asks_first_then_saves_what_was_played(tmp_path: Path) -> None:
    save = tmp_path / "m.jsonl"
    app = PlayApp(session("briscola-2", {}, 3), save_to=str(save), pace=0)
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()
        await pilot.press("n")  # stay
        await pilot.pause()
        assert app.is_running and not save.exists()
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    assert app.return_code == 1
    record = json.loads(save.read_text().splitlines()[0])
    assert record["moves"]


async def test_tui_log_tells_each_trick_with_its_cards_and_the_table_shows_it() -> None:
    app = PlayApp(session("briscola-4", {"match": "one-hand"}, 7), pace=0)
    async with app.run_test(size=(120, 50)) as pilot:
        for _ in range(30):
            await pilot.pause()
            if app.session.my_turn() and not app.busy:
                await pilot.press("1")
        await pilot.pause(0.1)
        assert app.gathered is None  # a taken trick does not stay on the table
        log = app.query_one("#log", RichLog)
        text = "\n".join(line.text for line in log.lines)
        flat = " ".join(text.split())  # (the log wraps its lines)
        voice = app.session.seating
        tricks = app.session.view().tricks
        assert tricks
        for k, trick in enumerate(tricks, 1):  # each trick told with its cards, in order
            cards = ", ".join(voice.card(c) for c in trick.cards)
            assert f"trick {k}: {cards}" in flat, (k, flat)
        assert not POINT_FIGURE.search(flat), flat  # points: hidden, by default


async def test_tui_says_when_the_terminal_is_too_small() -> None:
    app = PlayApp(session("briscola-2", {}, 3), pace=0)
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        assert app.has_class("too-small")
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert not app.has_class("too-small")


class Climber:
    """Bids a 2, then the lowest points bid up to 80, then passes; plays its first card."""

    def __init__(self, seed: int | None = None) -> None:
        pass

    def choose(self, view: View) -> Action:
        bids = [a for a in view.legal if isinstance(a, Bid)]
        points = [b for b in bids if b.points is not None and b.points <= 80]
        two = [b for b in bids if b.rank is Rank.TWO]
        if points or two:
            return min(points, key=lambda b: b.points or 0) if points else two[0]
        return view.legal[0]


async def settled(app: PlayApp, pilot: Any, timeout: float = 30.0) -> None:
    """Pause until the screen shows the person's turn (or the end): the computer players
    think in threads, and on a busy machine the screen catches up some frames later."""
    end = time.monotonic() + timeout
    while app.busy or app.thinking:
        assert time.monotonic() < end, "the screen did not settle in time"
        await pilot.pause(0.05)
    await pilot.pause()


async def test_tui_bids_any_points_from_61_to_120() -> None:
    rules = Rules.make("chiamata", {"target": "hands:1"})
    s = Session(rules, 0, {seat: Climber() for seat in range(1, 5)}, random.Random(4))
    app = PlayApp(s, pace=0)
    async with app.run_test(size=(120, 50)) as pilot:
        await settled(app, pilot)
        await app.take(Pass(0) if Pass(0) not in s.view().legal else Bid(0, rank=Rank.TWO))
        await settled(app, pilot)
        assert s.my_turn() and s.view().auction is not None
        box = app.query_one("#points")
        assert box.has_class("shown")
        box.focus()
        await pilot.press(*"101", "enter")
        await pilot.pause()
        assert (0, "2 at 101") in s.view().auction.bids


class Broken:
    def __init__(self, seed: int | None = None) -> None:
        pass

    def choose(self, view: object) -> object:
        raise BriscolaError("Broken: its choose raised RuntimeError")


async def test_tui_a_failing_computer_player_ends_the_game_with_status_2() -> None:
    rules = Rules.make("briscola-2")
    app = PlayApp(Session(rules, 1, {0: Broken()}, random.Random(1)), pace=0)  # type: ignore[dict-item]
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.pause()
    assert app.return_code == 2


def test_the_table_drawing_shows_every_seat_its_card_and_the_turned_trump() -> None:
    s = session("briscola-4", {}, 11)
    s.run_bots()
    while not s.view().trick:  # until others have played to the trick before you
        s.act(menu(s.view(), s.seating)[0][1])
        s.run_bots()
    view = s.view()
    console = Console(width=100, record=True, color_system=None)
    console.print(draw_table(view, s.seating, None))
    text = console.export_text()
    lines = text.splitlines()
    for name in [s.seating.name(seat) for seat in (1, 2, 3)] + ["You"]:
        assert name in text  # the computer players by their first names, as on the web
    assert view.turned is not None and f"trump {s.seating.suit(view.trump)}" in text
    for seat, card in view.trick:  # each played card lies on the seat's side of the table
        corner = face(card, "italian-40")[0]
        column = {"right": 2, "top": 1, "left": 0}[s.seating.slots[seat]]
        width = 100 // 3
        assert any(
            f"│{corner:<7}│" in line[column * width : (column + 1) * width] for line in lines
        ), (seat, card, text)


def test_plain_ctrl_c_at_the_prompt_leaves_and_saves(tmp_path: Path) -> None:
    answers = iter(["1\n", "1\n"])

    def read() -> str | None:
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    out = io.StringIO()
    save = tmp_path / "m.jsonl"
    status = run_plain_session(session("briscola-2", {}, 5), read, out, save_to=str(save))
    assert status == 1 and "you left the match" in out.getvalue()
    assert json.loads(save.read_text().splitlines()[0])["moves"]


def test_plain_reads_any_bytes_and_any_length_without_crashing() -> None:
    moves = b"\xff\xfe\n" + b"x" * 5_000_000 + b"\n" + b"1\n" * 60
    done = subprocess.run(
        [*BRISCOLA, "play", "--plain", "--seed", "1", "--rule", "match=one-hand"],
        input=moves,
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert out.count("is not a move") == 2 and "Traceback" not in done.stderr.decode()
    assert max(len(line) for line in out.splitlines()) < 200


def test_partners_drawn_are_shown_and_seat_the_players_as_the_draw_says() -> None:
    seats, partners = set(), set()
    for seed in range(12):
        rules = Rules.make("briscola-4", {"partners": "drawn"})
        bots = {s: make_bot("random", seed=s) for s in range(1, 4)}
        named = {id(b): s for s, b in bots.items()}  # each bot is the player drawn at s
        s = Session(rules, 0, bots, random.Random(seed))
        draw = s.draw
        assert draw is not None
        assert s.seat == draw.seating.index(0)  # you are player 0, seated by the draw
        assert sorted(s.bots) == [x for x in range(4) if x != s.seat]
        for seat, bot in s.bots.items():
            assert draw.seating[seat] == named[id(bot)]
        best = max(range(4), key=lambda p: (rules.strength[draw.cards[p]], -p))
        assert s.hand.deal.dealer == draw.seating.index(best)  # the highest drawer deals
        opening = s.opening()
        assert opening[0].startswith("partners are drawn by cards: you drew the ")
        assert "drew the highest cards and play together" in opening[1]
        seats.add(s.seat)
        partners.add(draw.seating[(s.seat + 2) % 4])
    assert len(seats) > 1 and len(partners) > 1  # not always the same place and partner


class Watching:
    """Checks, while it chooses, that the screen still answers: it asks the app's event
    loop for its state from the bot's thread (this deadlocks or raises if the bot were
    choosing on the loop itself)."""

    def __init__(self, app: list[PlayApp]) -> None:
        self.app = app
        self.seen: list[bool] = []

    def choose(self, view: View) -> Action:
        app = self.app[0]
        self.seen.append(app.call_from_thread(lambda: app.thinking))
        app.call_from_thread(app.action_last)  # a key's work, done while thinking
        return view.legal[0]


async def test_tui_stays_alive_while_a_computer_player_thinks(tmp_path: Path) -> None:
    rules = Rules.make("briscola-2", {"match": "one-hand"})
    holder: list[PlayApp] = []
    bot = Watching(holder)
    app = PlayApp(Session(rules, 1, {0: bot}, random.Random(1)), pace=0)
    holder.append(app)
    async with app.run_test(size=(120, 50)) as pilot:
        for _ in range(100):
            await pilot.pause()
            if app.session.over:
                break
            if app.session.my_turn() and not app.busy:
                await pilot.press("1")
    assert bot.seen and all(bot.seen)  # the loop answered each time, and knew


def test_bid_errors_list_the_ranks_in_the_tables_order() -> None:
    c = session("chiamata", {"court_order": "south"}, 5)
    with pytest.raises(MalformedError, match=r"bid a rank \(A 3 R F C 7 6 5 4 2\)"):
        parse_move("bid X", c.view(), c.seating)
    c = session("chiamata", {}, 5)
    with pytest.raises(MalformedError, match=r"bid a rank \(A 3 R C F 7 6 5 4 2\)"):
        parse_move("bid X", c.view(), c.seating)


def test_bids_and_cards_are_typed_in_the_decks_letters_or_the_notation() -> None:
    """The Italian cards show R, C and F: a person types what they read (``bid R``, ``Fs``),
    and the notation the records keep (``bid K``, ``Js``) is read too."""
    c = session("chiamata", {}, 5)
    seat = c.view().seat
    assert parse_move("bid R", c.view(), c.seating) == Bid(seat, rank=Rank.KING)
    assert parse_move("bid c", c.view(), c.seating) == Bid(seat, rank=Rank.QUEEN)
    assert parse_move("bid K", c.view(), c.seating) == Bid(seat, rank=Rank.KING)
    s = session("briscola-2", {}, 3)
    view = s.view()
    for card in view.hand:
        short = s.seating.short(card)
        assert parse_move(short, view, s.seating) == Play(view.seat, card), short
        assert parse_move(str(card), view, s.seating) == Play(view.seat, card)
        assert not set(short[:-1]) & set("JQK")


def test_the_hand_is_sorted_by_suit_then_strength() -> None:
    rules = Rules.make("briscola-2")
    hand = [Card.parse(c) for c in ("Qb", "7c", "5d", "Ac", "2s")]
    assert [str(c) for c in hand_order(rules, hand)] == ["Ac", "7c", "5d", "2s", "Qb"]


def test_signals_and_questions_are_said_in_the_tables_deck() -> None:
    from briscola.words.narrate import describe_action

    briskula = session("briskula", {"players": 4, "teams": "pairs"}, 1).seating
    italian = session("briscola-4", {}, 1).seating
    low = Signal(0, "low-trumps")
    assert describe_action(low.to_json(), briskula) == "signal: I hold a low trump (9 to 7)"
    assert describe_action(low.to_json(), italian) == "signal: I hold a low trump (the 7 or lower)"
    assert "the 10 of trumps" in describe_action(Signal(0, "three").to_json(), briskula)


# ---------------------------------------------------------------- counting in your head


def trick_lines(out: str, lang: str, k: int) -> list[int]:
    """The indexes of the lines of ``out`` telling trick ``k`` taken, in ``lang``."""
    words = catalogue(lang)
    marks = [
        words.say("tell.took_cards_no_points", form=f, who="", trick=k, cards="")
        for f in ("you", "other")
    ]
    return [i for i, line in enumerate(out.splitlines()) if any(m.strip() in line for m in marks)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plain_says_no_figure_of_points_until_the_hands_end(lang: str) -> None:
    """Issue 39: under points: hidden (the default) the terminal prints no running totals
    ("points: you 11, North 21") and no trick's points; the hand's end shows them."""
    done = run_plain(["--seed", "5", "--rule", "match=one-hand", "--lang", lang], "1\n" * 60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    last = trick_lines(done.stdout, lang, 20)
    assert len(last) == 1, done.stdout
    during = "\n".join(lines[: last[0] + 1])
    assert trick_lines(done.stdout, lang, 1) and not POINT_FIGURE.search(during), during
    assert RUNNING[lang] not in during, during
    end = lines[last[0] + 1]  # the hand's end: each side's points
    assert re.search(r"\d", end), end
    shown = run_plain(["--seed", "5", "--rule", "match=one-hand", "--points", "shown"], "1\n" * 9)
    assert POINT_FIGURE.search(shown.stdout) and RUNNING["en"] in shown.stdout, shown.stdout


def screen_text(app: PlayApp) -> str:
    """Everything the full-screen game shows now, as text (its screenshot's)."""
    svg = app.export_screenshot()
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", svg.split("</style>")[-1])).split())


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_tui_shows_no_figure_of_points_during_a_hand_and_speaks_the_language(
    lang: str,
) -> None:
    """Under points: hidden, at every turn of a hand the screen (table, status, log,
    footer) shows no figure of points; the footer's keys are in the reader's language, and
    the opponent has a first name, not a compass point."""
    rules = Rules.make("briscola-2", {"match": "one-hand"})
    s = Session(rules, 0, {1: make_bot("random", seed=1)}, random.Random(3), lang=lang)
    words = catalogue(lang)
    app = PlayApp(s, pace=0)
    async with app.run_test(size=(120, 50)) as pilot:
        seen = 0
        for _ in range(200):
            await settled(app, pilot)
            if s.over:
                break
            text = screen_text(app)
            assert not POINT_FIGURE.search(text), text
            assert RUNNING[lang] not in text, text
            seen += 1
            if seen == 3:  # a trick or two taken: the footer, and who sits there
                for key in ("last", "analyse", "hint", "save", "quit"):
                    assert words.say(f"screen.key.{key}") in text, (key, text)
                assert s.seating.name(1) in NAMES[lang] and s.seating.name(1) in text
                assert words.say("seat.top") not in text, text
            await pilot.press("1")
        assert s.over and seen >= 15
        await pilot.press("q")


async def test_tui_under_points_shown_says_the_points() -> None:
    rules = Rules.make("briscola-2", {"match": "one-hand"})
    bots = {1: make_bot("random", seed=1)}
    s = Session(rules, 0, bots, random.Random(3), lang="it", points="shown")
    app = PlayApp(s, pace=0)
    async with app.run_test(size=(120, 50)) as pilot:
        for _ in range(4):
            await settled(app, pilot)
            await pilot.press("1")
        await settled(app, pilot)
        text = screen_text(app)
        assert RUNNING["it"] in text and POINT_FIGURE.search(text), text


@pytest.mark.parametrize(
    ("game", "jack", "code"),
    [("briscola-2", "F", "Fs"), ("brisca", "S", "Ss"), ("briskula", "J", "Js")],
)
def test_the_full_screen_card_list_writes_a_card_as_its_face_shows_it(
    game: str, jack: str, code: str
) -> None:
    """Issue 39: the terminal printed "3) Js" under an F card. Under each card button, the
    code is the one its face shows, which the player may type."""
    s = session(game, {}, 3)
    play = Play(0, Card.parse("Js"))
    label = str(CardButton(3, play, s.seating, False).label)
    assert f"3) {code}" in label and label.splitlines()[1].startswith(f"│{jack}")
    assert "3) Js" not in label or jack == "J"


@pytest.mark.parametrize("seed", range(6))
def test_the_card_list_holds_the_trumps_last(seed: int) -> None:
    """Issue 39: a hand is sorted by suit, the trumps last (as the browser sorts it), the
    strongest first within a suit: the numbered card list follows that order."""
    s = session("briscolone", {}, seed) if seed == 0 else session("briscola-2", {}, seed)
    while not s.my_turn():
        s.advance()
    view = s.view()
    cards = [a.card for _, a in menu(view, s.seating) if isinstance(a, Play)]
    assert sorted(cards) == sorted(view.hand)
    trumps = [c.suit is view.trump for c in cards]
    assert trumps == sorted(trumps), (view.trump, cards)  # no trump before a plain card
    for a, b in itertools.pairwise(cards):
        if a.suit is b.suit:
            assert s.rules.strength[a] > s.rules.strength[b], cards
