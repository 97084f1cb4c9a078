"""What the briscola command says about itself: --version, --help, variants, and the
clock its speed figures are measured with."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import briscola
from briscola.engine import GAMES, Rules
from briscola.terminal.cli import app, bench, random_play

runner = CliRunner()
WIDTH = {"COLUMNS": "80"}
COMMANDS = (
    "variants",
    "rules",
    "replay",
    "verify",
    "analyse",
    "simulate",
    "bench",
    "arena",
    "train",
    "demo",
    "play",
    "join",
    "cards",
    "serve",
    "backup",
    "restore",
)


def words(text: str) -> str:
    """Text with the help panels' frames gone and every run of white space one space."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def command_rows(help_text: str) -> dict[str, str]:
    """Each command's description in the Commands panel of ``briscola --help``, its
    wrapped lines joined."""
    rows: dict[str, str] = {}
    name = ""
    inside = False
    for line in help_text.splitlines():
        if "─ Commands " in line:
            inside = True
        elif inside and line.lstrip().startswith("╰"):
            break
        elif inside:
            body = line.split("│")[1]
            if body[1] != " ":
                name, _, body = body.strip().partition(" ")
                rows[name] = ""
            rows[name] = f"{rows[name]} {body.strip()}".strip()
    return rows


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_prints_the_installed_version(flag: str) -> None:
    result = runner.invoke(app, [flag])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"briscola {version('briscola')}"


UNINSTALLED = """
import importlib.metadata as metadata, runpy, sys
found = metadata.distribution
def distribution(name):  # as in a checkout never installed: no briscola's metadata
    if name == "briscola":
        raise metadata.PackageNotFoundError(name)
    return found(name)
metadata.distribution = distribution
sys.argv = ["briscola", "--version"]
runpy.run_module("briscola", run_name="__main__")
"""


def test_version_from_a_source_checkout_without_the_package_metadata() -> None:
    src = Path(briscola.__file__).resolve().parents[1]
    result = subprocess.run(
        [sys.executable, "-c", UNINSTALLED], capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": str(src)},
    )  # fmt: skip
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.stdout.strip() == f"briscola {briscola.__version__}"


def test_every_command_summary_is_one_whole_sentence() -> None:
    result = runner.invoke(app, ["--help"], env=WIDTH)
    assert result.exit_code == 0
    rows = command_rows(result.stdout)
    commands = typer.main.get_group(app).commands
    assert set(rows) == set(COMMANDS) == set(commands)
    for name, command in commands.items():
        summary = (command.help or "").split("\n\n")[0]
        # one line in the docstring, so that no version of Typer cuts or breaks it
        assert "\n" not in summary and summary.endswith("."), name
        assert not summary.endswith("..."), name
        assert rows[name] == summary, name


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_shows_no_type_after_a_flag_and_every_text_whole(command: str | None) -> None:
    args = [command, "--help"] if command else ["--help"]
    result = runner.invoke(app, args, env=WIDTH)
    assert result.exit_code == 0
    assert "<bool>" not in result.stdout
    assert "…" not in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    group = typer.main.get_group(app)
    cmd = group.commands[command] if command else group
    shown = words(result.stdout)
    for paragraph in (cmd.help or "").split("\n\n"):
        assert words(paragraph.replace("`", "")) in shown
    for param in cmd.params:
        assert words((getattr(param, "help", None) or "").replace("`", "")) in shown, param.name
    # the description is wrapped to the width, not broken where the docstring's lines end
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if "Usage:" in line) + 1
    end = next(i for i, line in enumerate(lines) if "╭" in line)
    for line, after in zip(lines[start:end], lines[start + 1 : end], strict=False):
        if line.strip() and after.strip():
            assert len(line.rstrip()) + 1 + len(after.split()[0]) > 78, (line, after)


def test_help_still_shows_the_type_of_an_option_with_a_value() -> None:
    result = runner.invoke(app, ["simulate", "--help"], env=WIDTH)
    assert "<int" in result.stdout and "<str>" in result.stdout


def variant_blocks(text: str) -> dict[str, list[str]]:
    blocks: dict[str, list[str]] = {}
    for block in text.strip().split("\n\n"):
        lines = block.splitlines()
        blocks[lines[0].split()[0]] = lines
    return blocks


def test_variants_count_the_cards_each_game_plays_with() -> None:
    data = {g["key"]: g for g in json.loads(runner.invoke(app, ["variants", "--json"]).stdout)}
    text = variant_blocks(runner.invoke(app, ["variants"], env={"COLUMNS": "200"}).stdout)
    expected = {"briscola-2": 40, "briscola-3": 39, "briscola-6": 36, "schembil": 36,
                "chiamata": 40, "brisca": 40, "briskula": 32, "briskula-double": 32}  # fmt: skip
    for key, cards in expected.items():
        assert set(data[key]["deck"]["cards"].values()) == {cards}, key
        assert f"; {cards} " in text[key][1], text[key]
    for key, game in data.items():
        for players, cards in game["deck"]["cards"].items():
            options: dict[str, Any] = {"players": int(players)} if len(game["players"]) > 1 else {}
            rules = Rules.make(key, options)
            assert cards == len(rules.deck) - len(rules.removals[0]), key
            assert f"; {cards} " in text[key][1]
    assert "36 cards: 40 Italian cards less the four 2s" in text["briscola-6"][1]
    assert "39 cards: 40 Italian cards less one 2 (house rule removed_two)" in text["briscola-3"][1]


def test_variants_say_players_and_teams_in_words() -> None:
    text = variant_blocks(runner.invoke(app, ["variants"], env={"COLUMNS": "200"}).stdout)
    seating = {key: lines[1].split(";")[0].strip() for key, lines in text.items()}
    assert seating == {
        "briscola-2": "2 players, each alone",
        "briscola-3": "3 players, each alone",
        "briscola-4": "4 players in two teams of two, partners opposite",
        "briscola-6": "6 players in two teams of three, alternating round the table",
        "schembil": "6 players in two teams of three, alternating round the table",
        "chiamata": "5 players: the caller and a secret partner against the other three, "
        "or the caller alone against four",
        "scoperta": "2 players, each alone",
        "briscolone": "2 players, each alone",
        "brisca": "2 players, each alone, or 4 in two teams of two, partners opposite",
        "briskula": "2 to 6 players, each alone, or 4 in two teams of two, partners opposite "
        "(house rule teams=pairs)",
        "briskula-double": "2 to 4 players, each alone, or 4 in two teams of two, partners "
        "opposite (house rule teams=pairs)",
    }
    assert "teams with" not in " ".join(seating.values())


def test_variants_json_lists_every_seating_with_its_sides() -> None:
    data = {g["key"]: g for g in json.loads(runner.invoke(app, ["variants", "--json"]).stdout)}
    assert data["briskula"]["seatings"][2:4] == [
        {"players": 4, "rules": {}, "sides": [[0], [1], [2], [3]], "cards": 32},
        {"players": 4, "rules": {"teams": "pairs"}, "sides": [[0, 2], [1, 3]], "cards": 32},
    ]
    text = variant_blocks(runner.invoke(app, ["variants"], env={"COLUMNS": "200"}).stdout)
    for key, game in data.items():
        assert text[key][1].strip().startswith(f"{game['seating']}; {game['deck']['in_words']}")
        for s in game["seatings"]:
            rules = Rules.make(GAMES[key], {**s["rules"], **game_players(game, s["players"])})
            assert s["sides"] == [list(side) for side in rules.sides]
            assert s["cards"] == len(rules.deck) - len(rules.removals[0])


def game_players(game: dict[str, Any], players: int) -> dict[str, Any]:
    return {"players": players} if len(game["players"]) > 1 else {}


def sleepy(result: Any) -> Any:
    """A stand-in for a timed function: it waits 50 ms, using almost no CPU."""

    def run(*args: Any) -> Any:
        time.sleep(0.05)
        sum(range(20_000))  # a little CPU time, never zero
        return result

    return run


def test_bench_times_the_reference_engine_in_cpu_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "play_random_games", sleepy(100))
    r = bench.bench(Rules.make("briscola-2"), 5)
    assert r.seconds < 0.03  # the sleep is not counted


def test_bench_fast_times_the_fast_core_in_cpu_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from briscola.ai.cores import head_to_head as fast

    monkeypatch.setattr(fast, "random_games_kernel", sleepy(0))
    assert fast.bench_fast(5) > 1 / 0.03  # one game a slice, the sleep not counted


def test_bench_says_its_clock() -> None:
    result = runner.invoke(app, ["bench", "-n", "10", "-g", "briscola-2", "--json"])
    assert {row["clock"] for row in json.loads(result.stdout)} == {"cpu"}
    result = runner.invoke(app, ["bench", "-n", "10", "-g", "briscola-2", "--no-fast"])
    assert "CPU time" in result.stdout
    assert "CPU time" in runner.invoke(app, ["bench", "--help"]).stdout


def test_simulate_narrates_only_the_hand_it_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    told: list[object] = []

    def record_json(events: object) -> list[object]:
        told.append(events)
        return []

    monkeypatch.setattr(random_play, "record_json", record_json)
    result = runner.invoke(app, ["simulate", "-g", "briscola-4", "-n", "30", "--seed", "1"])
    assert result.exit_code == 0 and "30 random hands" in result.stdout
    assert told == []
    result = runner.invoke(app, ["simulate", "-g", "briscola-4", "--seed", "1"])
    assert result.exit_code == 0 and len(told) == 41  # one hand: its deal, every card played


def test_simulate_says_seat_for_one_and_seats_for_more() -> None:
    result = runner.invoke(app, ["simulate", "-n", "20"])
    assert "  seat 0 won" in result.stdout and "  seat 1 won" in result.stdout
    assert "seats 0" not in result.stdout
    result = runner.invoke(app, ["simulate", "-g", "briscola-4", "-n", "20"])
    assert "  seats 0+2 won" in result.stdout
    for seed in range(6):
        footer = runner.invoke(app, ["simulate", "--seed", str(seed)]).stdout.splitlines()[-1]
        assert re.search(r": (seat [01] wins|no winner)$", footer), footer
    footer = runner.invoke(app, ["simulate", "-g", "chiamata", "--seed", "2"]).stdout
    assert re.search(r": seats \d, \d(, \d)* win\n", footer), footer


@pytest.mark.parametrize(
    ("game", "names"),
    [
        ("briscola-2", {"cups", "coins", "swords", "batons"}),
        ("brisca", {"cups", "coins", "swords", "clubs"}),
        ("briskula", {"hearts", "diamonds", "spades", "clubs"}),
    ],
)
def test_the_deal_names_the_trump_in_the_tables_deck(game: str, names: set[str]) -> None:
    """In English words, as every English text names the cards (issue 39: never an Italian
    name in an English sentence); the cards as the deck shows them (R C F, not K Q J)."""
    for command in ("simulate", "demo"):
        result = runner.invoke(app, [command, "-g", game, "--seed", "1"])
        (line,) = [line for line in result.stdout.splitlines() if "trump is" in line]
        assert line.rsplit(" ", 1)[1] in names, line
        if game != "briskula":
            dealt = " ".join(line for line in result.stdout.splitlines() if "seat" in line)
            assert not re.search(r"\b[KQJ][cdsb]\b", dealt), dealt


def test_the_chiamata_deal_does_not_say_there_is_no_trump() -> None:
    result = runner.invoke(app, ["demo", "-g", "chiamata", "--seed", "1"])
    assert "no trump" not in result.stdout and "calls is trump" in result.stdout


def test_variants_text_says_what_each_rule_means_and_accepts() -> None:
    text = runner.invoke(app, ["variants"]).stdout
    chiamata = variant_blocks(text)["chiamata"]
    target = chiamata.index("    target: points:5 | points:7 | points:11 | points:N | hands:N")
    assert "seats tied at the top share the win" in chiamata[target + 1]
    assert "N from 1 to 9999" in chiamata[target + 1]
    four = variant_blocks(text)["briscola-4"]
    spot = four.index("    spot_chance: 25 | 10 | 50 | 75 | N")
    assert "from 0 to 100" in four[spot + 1]
    brisca = variant_blocks(text)["brisca"]
    players = next(i for i, line in enumerate(brisca) if line.startswith("    players: "))
    assert brisca[players] == "    players: 2 | 4"


def test_seats_are_counted_from_1_as_the_table_counts_them() -> None:
    """``--seat 2`` is the second seat (the one that deals the first hand of two), and a
    seat the game has not is refused in the reader's language, counted from 1."""
    second = runner.invoke(app, ["play", "--plain", "--seat", "2", "--seed", "1"], input="quit\n")
    assert "--- hand 1: you deal ---" in second.stdout, second.stdout
    first = runner.invoke(app, ["play", "--plain", "--seat", "1", "--seed", "1"], input="quit\n")
    assert "--- hand 1: you deal ---" not in first.stdout, first.stdout
    assert re.search(r"--- hand 1: \w+ deals ---", first.stdout), first.stdout
    for bad in ("0", "3"):
        wrong = runner.invoke(app, ["play", "--plain", "--seat", bad, "--lang", "it"])
        assert wrong.exit_code != 0 and "--seat: briscola-2 ha i posti da 1 a 2" in wrong.output
