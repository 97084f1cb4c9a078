"""The briscola command, driven in-process and once through the installed script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from briscola.engine import GAMES, RULES
from briscola.terminal.cli import app
from helpers import example_record

runner = CliRunner()


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_variants_json_lists_every_game_with_rules_and_defaults() -> None:
    result = runner.invoke(app, ["variants", "--json"])
    assert result.exit_code == 0
    data = {g["key"]: g for g in json.loads(result.stdout)}
    assert set(data) == set(GAMES)
    for game in data.values():
        for rule in game["rules"]:
            assert rule["name"] in RULES
            patterns = [p["pattern"] for p in rule["patterns"]]
            pattern_ok = str(rule["default"]).split(":")[0] + ":N" in patterns
            assert rule["default"] in rule["choices"] or pattern_ok, rule
    defaults = {k: {r["name"]: r["default"] for r in g["rules"]} for k, g in data.items()}
    assert defaults["briscola-3"]["removed_two"] == "2c"
    assert defaults["briscolone"]["match"] == "points:121"
    assert defaults["brisca"]["trump_exchange"] == "seven-or-two"
    assert defaults["brisca"]["exchange_timing"] == "after-win"
    assert data["briscola-6"]["deck"]["cards"] == {"6": 36}
    assert data["briscola-3"]["deck"]["cards"] == {"3": 39}
    assert data["briscola-4"]["teams"] == {"4": [[0, 2], [1, 3]]}
    assert data["brisca"]["players"] == [2, 4]


def test_variants_text_names_games_and_rules() -> None:
    result = runner.invoke(app, ["variants"])
    assert result.exit_code == 0
    assert "briskula-double" in result.stdout
    assert "sixty_sixty" in result.stdout


def test_replay_json_reports_the_issue_example(tmp_path: Path) -> None:
    path = write(tmp_path, "r.json", json.dumps(example_record()))
    result = runner.invoke(app, ["replay", path, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "tricks": [{"leader": 0, "cards": ["5b", "Ab"], "winner": 1, "points": 11}],
        "finished": False,
        "points": [0, 11],
        "winners": [],
    }


def test_replay_illegal_move_exit_1_after_the_tricks_before_it(tmp_path: Path) -> None:
    moves = [
        {"seat": 0, "play": "5b"},
        {"seat": 1, "play": "Ab"},
        {"seat": 1, "play": "Kb"},
        {"seat": 0, "play": "Ab"},
    ]
    path = write(tmp_path, "bad.json", json.dumps(example_record(moves)))
    result = runner.invoke(app, ["replay", path, "--json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert [t["cards"] for t in report["tricks"]] == [["5b", "Ab"]]
    assert report["error"]["move"] == 3
    assert "moves[3]" in result.stderr
    assert "seat 0" in result.stderr and "Ab" in result.stderr
    assert "does not hold" in result.stderr


def test_replay_out_of_turn_says_whose_turn(tmp_path: Path) -> None:
    path = write(tmp_path, "r.json", json.dumps(example_record([{"seat": 1, "play": "Ab"}])))
    result = runner.invoke(app, ["replay", path])
    assert result.exit_code == 1
    assert "moves[0]" in result.stderr and "it is seat 0's turn" in result.stderr


def test_replay_malformed_exit_2_names_line_and_field(tmp_path: Path) -> None:
    bad = example_record()
    bad["deal"]["hands"][1][2] = "Xs"
    lines = [json.dumps(example_record()), json.dumps(bad)]
    path = write(tmp_path, "many.jsonl", "\n".join(lines) + "\n")
    result = runner.invoke(app, ["replay", path, "--json"])
    assert result.exit_code == 2
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 2 and out[0]["points"] == [0, 11]
    assert "line 2" in result.stderr and "deal.hands[1][2]" in result.stderr


def test_replay_json_lines_one_result_per_line(tmp_path: Path) -> None:
    records = [example_record(), example_record([])]
    path = write(tmp_path, "two.jsonl", "".join(json.dumps(r) + "\n" for r in records))
    result = runner.invoke(app, ["replay", path, "--json"])
    assert result.exit_code == 0
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [len(r["tricks"]) for r in out] == [1, 0]


def test_replay_bad_json_and_missing_file(tmp_path: Path) -> None:
    path = write(tmp_path, "x.json", '{"game": "briscola-2"')
    result = runner.invoke(app, ["replay", path])
    assert result.exit_code == 2 and "not valid JSON" in result.stderr
    result = runner.invoke(app, ["replay", str(tmp_path / "none.json")])
    assert result.exit_code == 2 and "cannot read" in result.stderr


def test_simulate_one_hand_prints_every_trick_and_is_repeatable() -> None:
    first = runner.invoke(app, ["simulate", "--game", "briscola-2", "--seed", "4"])
    again = runner.invoke(app, ["simulate", "--game", "briscola-2", "--seed", "4"])
    assert first.exit_code == 0 and first.stdout == again.stdout
    assert first.stdout.count("trick ") == 20
    assert "points" in first.stdout


def test_simulate_json_is_the_record_and_replays(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "-g", "brisca", "--seed", "2", "--json"])
    record = json.loads(result.stdout)
    assert record["game"] == "brisca" and len(record["moves"]) == 40
    path = write(tmp_path, "rec.json", result.stdout)
    again = runner.invoke(app, ["replay", path, "--json"])
    assert again.exit_code == 0
    report = json.loads(again.stdout)
    assert report["finished"] is True and sum(report["points"]) == 120


def test_simulate_many_summarises() -> None:
    result = runner.invoke(
        app, ["simulate", "-g", "briscola-4", "-n", "50", "--seed", "1", "--json"]
    )
    data = json.loads(result.stdout)
    assert sum(data["wins"]) + data["ties"] == 50
    assert abs(sum(data["mean_points"]) - 120) < 1e-9
    assert data["mean_tricks"] == 10


def test_rule_option_errors_speak_plainly() -> None:
    result = runner.invoke(app, ["simulate", "--rule", "direction=up"])
    assert result.exit_code == 2 and "choose one of right, left" in result.stderr
    result = runner.invoke(app, ["simulate", "--rule", "direction"])
    assert result.exit_code == 2 and "NAME=VALUE" in result.stderr
    result = runner.invoke(app, ["simulate", "--game", "tressette"])
    assert result.exit_code == 2 and "no game 'tressette'" in result.stderr


def test_bench_json_reports_each_game() -> None:
    result = runner.invoke(app, ["bench", "-n", "10", "-g", "briscola-2", "-g", "briskula"])
    assert result.exit_code == 0
    result = runner.invoke(app, ["bench", "-n", "10", "-g", "briscola-2", "--no-fast", "--json"])
    (row,) = json.loads(result.stdout)
    assert row["game"] == "briscola-2" and row["games_per_second"] > 0
    assert row["engine"] == "reference"
    result = runner.invoke(app, ["bench", "-n", "10", "-g", "briscola-2", "--json"])
    reference, fast = json.loads(result.stdout)
    assert fast["engine"] == "fast core" and fast["games"] == 1000
    assert fast["games_per_second"] > reference["games_per_second"]


@pytest.mark.parametrize("game", ["briscola-2", "briscola-6", "brisca"])
def test_demo_plays_a_hand_to_the_end(game: str) -> None:
    result = runner.invoke(app, ["demo", "--game", game, "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "points" in result.stdout and "takes" in result.stdout


def test_installed_script_runs() -> None:
    exe = Path(sys.executable).parent / "briscola"
    done = subprocess.run(
        [str(exe), "variants", "--json"], capture_output=True, text=True, check=True
    )
    assert len(json.loads(done.stdout)) == len(GAMES)


def test_variants_list_the_partnership_games_and_their_rules() -> None:
    data = {g["key"]: g for g in json.loads(runner.invoke(app, ["variants", "--json"]).stdout)}
    chiamata = {r["name"]: r for r in data["chiamata"]["rules"]}
    assert data["chiamata"]["players"] == [5] and data["chiamata"]["hand_size"] == 8
    assert {"target", "leader", "multipliers", "throw_in"} <= set(chiamata)
    schembil = {r["name"]: r for r in data["schembil"]["rules"]}
    assert schembil["rais"]["default"] == "0-1"
    four = {r["name"]: r for r in data["briscola-4"]["rules"]}
    assert four["communication"]["choices"] == ["none", "signals", "conversation"]


def test_replay_of_a_chiamata_record_reports_auction_call_and_score(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "-g", "chiamata", "--seed", "5", "--json"])
    path = write(tmp_path, "c.json", result.stdout)
    report = json.loads(runner.invoke(app, ["replay", path, "--json"]).stdout)
    assert report["auction"] and report["caller"] is not None and report["called"]
    assert sum(report["score"]) == 0 and report["partner"] is not None
    text = runner.invoke(app, ["replay", path]).stdout
    assert "wins the auction" in text and "calls" in text and "score" in text


@pytest.mark.parametrize(
    ("game", "rule", "expect"),
    [
        ("schembil", [], "asks"),
        ("briscola-4", ["--rule", "communication=signals"], "signals"),
        ("briscola-6", ["--rule", "communication=conversation"], "asks"),
    ],
)
def test_demo_narrates_partner_talk(game: str, rule: list[str], expect: str) -> None:
    result = runner.invoke(app, ["demo", "--game", game, "--seed", "1", *rule])
    assert result.exit_code == 0, result.output
    assert expect in result.stdout


def test_serve_makes_its_data_folder_its_owners_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The data folder (the database) is made 0700 under a normal shell's umask: made so,
    not tightened afterwards (no warning)."""
    import logging
    import os
    import socket
    import stat

    data = tmp_path / "briscola-data"
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    old = os.umask(0o022)
    try:
        with caplog.at_level(logging.WARNING):
            port = str(taken.getsockname()[1])
            result = runner.invoke(app, ["serve", "--data", str(data), "--port", port])
    finally:
        os.umask(old)
        taken.close()
    assert result.exit_code != 0 and f"port {port} is taken" in result.output
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["--public-url", "ftp://cards"], "--public-url: 'ftp://cards' is not a web address"),
        (["--public-url", "cards.example.org"], "give the server's public URL as https://HOST"),
        (["--limits", "maybe"], "--limits is on or off, not 'maybe'"),
        (["--session-days", "0"], "--session-days is more than 0 and at most 3650, not 0"),
        (["--session-days", "5000"], "--session-days is more than 0 and at most 3650"),
        (["--redis-url", "localhost:6379"], "--redis-url: use redis://host:6379/0"),
        (["--redis-url", "redis://localhost"], "give --database-url postgresql+asyncpg://"),
    ],
)
def test_serve_refuses_a_bad_setting_in_words(tmp_path: Path, given: list[str], said: str) -> None:
    """A wrong public URL, limits switch or session lifetime: one line saying what is
    wrong, status 1 or 2, and no server (no data folder made)."""
    result = runner.invoke(app, ["serve", "--data", str(tmp_path / "data"), *given])
    assert result.exit_code != 0
    assert said in " ".join(result.output.split())
    assert not (tmp_path / "data").exists()
