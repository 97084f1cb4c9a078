"""What `briscola replay` and `arena --save` read: bytes that are not UTF-8, JSON nested
or numbered beyond reason, pretty-printed records, JSON Lines, endless input."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from briscola.arena.duplicate import Arena
from briscola.arena.log import ArenaLog, header
from briscola.engine import MalformedError
from briscola.terminal import recordfile
from briscola.terminal.cli import app
from helpers import example_record

runner = CliRunner()


def replay_bytes(tmp_path: Path, data: bytes, *args: str) -> Result:
    path = tmp_path / "input"
    path.write_bytes(data)
    return runner.invoke(app, ["replay", str(path), *args])


def one_error(result: Result) -> str:
    """The one line of a clean refusal: exit 2, no traceback."""
    assert result.exit_code == 2, result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ")
    return line


# ------------------------------------------------------------------ case 1: bytes and depth


def test_bytes_that_are_not_utf8_are_one_clear_error(tmp_path: Path) -> None:
    data = b'{"game": "briscola-2",\n "rules": {"x": "\xff\xfe"}}'
    line = one_error(replay_bytes(tmp_path, data))
    assert "line 2: not UTF-8 text (byte 0xff at column 18)" in line


def test_random_bytes_are_one_clear_error(tmp_path: Path) -> None:
    data = bytes(range(256)) * 8
    assert "not UTF-8" in one_error(replay_bytes(tmp_path, data))


def test_json_nested_beyond_reason_is_one_clear_error(tmp_path: Path) -> None:
    data = b"[" * 100_000 + b"]" * 100_000
    assert "line 1: JSON nested too deeply" in one_error(replay_bytes(tmp_path, data))


def test_a_number_of_5000_digits_is_named_at_its_field(tmp_path: Path) -> None:
    text = json.dumps(example_record()).replace('"dealer": 1', '"dealer": ' + "9" * 5000)
    line = one_error(replay_bytes(tmp_path, text.encode()))
    assert "line 1: deal.dealer: expected a seat number, got a number of 5,000 digits" in line


def test_a_byte_order_mark_is_read_past(tmp_path: Path) -> None:
    result = replay_bytes(tmp_path, b"\xef\xbb\xbf" + json.dumps(example_record()).encode())
    assert result.exit_code == 0, result.output


def test_the_column_of_a_byte_that_is_not_utf8_counts_characters() -> None:
    data = '\ufeff{"a": "àé'.encode() + b'\xff"}'
    ((number, error),) = recordfile.read_records(io.BytesIO(data))
    assert (number, str(error)) == (
        1,
        "not UTF-8 text (byte 0xff at column 10): records are JSON in UTF-8",
    )


# ------------------------------------------------------------- case 2: one document or lines


def pretty_with_a_stray_comma() -> str:
    lines = json.dumps(example_record(), indent=2).splitlines()
    assert lines[4] == '    "dealer": 1,'
    lines[4] = '    "dealer": 1,,'
    return "\n".join(lines) + "\n"


def test_a_pretty_printed_record_with_a_stray_comma_points_at_it(tmp_path: Path) -> None:
    line = one_error(replay_bytes(tmp_path, pretty_with_a_stray_comma().encode()))
    assert line.endswith(
        "line 5: not valid JSON: Expecting property name enclosed in double quotes, column 17"
    )


def test_a_pretty_printed_record_is_one_record(tmp_path: Path) -> None:
    text = "\n\n" + json.dumps(example_record(), indent=4) + "\n\n"
    result = replay_bytes(tmp_path, text.encode(), "--json")
    assert result.exit_code == 0, result.output
    (report,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert report["points"] == [0, 11]


def test_two_pretty_printed_records_in_one_file_say_a_file_holds_one(tmp_path: Path) -> None:
    text = json.dumps(example_record(), indent=2) + "\n" + json.dumps(example_record(), indent=2)
    line = one_error(replay_bytes(tmp_path, text.encode()))
    start = len(json.dumps(example_record(), indent=2).splitlines()) + 1
    assert f"line {start}: more after the end of the record, at column 1" in line


def test_json_lines_report_every_bad_line_and_replay_the_others(tmp_path: Path) -> None:
    good = json.dumps(example_record())
    text = "\n".join([good, "", good + " {}", '{"game": ', "\xff", good]) + "\n"
    result = replay_bytes(tmp_path, text.encode("utf-8", "surrogateescape"), "--json")
    assert result.exit_code == 2
    errors = result.stderr.splitlines()
    assert [e.split(":")[1].split(",")[1].strip() for e in errors] == [
        "line 3",
        "line 4",
        "line 5",
    ]
    assert "more after the end of the record, at column" in errors[0]
    assert "JSON Lines hold one record a line" in errors[0]
    assert "not valid JSON" in errors[1]
    reports = [json.loads(x) for x in result.stdout.splitlines()]
    assert [r.get("points") for r in reports] == [[0, 11], None, None, None, [0, 11]]


def test_read_records_decides_by_the_first_line() -> None:
    lines = b'{"a": 1}\n{"b": 2}\n'
    assert list(recordfile.read_records(io.BytesIO(lines))) == [(1, {"a": 1}), (2, {"b": 2})]
    document = b'\n{"a":\n 1}\n'
    assert list(recordfile.read_records(io.BytesIO(document))) == [(2, {"a": 1})]
    assert list(recordfile.read_records(io.BytesIO(b"\n \n"))) == []


# ------------------------------------------------------------------ case 3: streamed, bounded


def test_json_lines_are_read_one_record_at_a_time() -> None:
    first = json.dumps(example_record()).encode() + b"\n"
    stream = io.BytesIO(first + b"x" * 10_000_000)
    records = recordfile.read_records(stream)
    assert next(records) == (1, example_record())
    assert stream.tell() == len(first)


def test_a_line_longer_than_the_limit_stops_the_reading() -> None:
    stream = io.BytesIO(b'{"a": 1}\n' + b" " * 50 + b"[" + b"0," * 100 + b"0]\n{}\n")
    (first, (number, error)) = recordfile.read_records(stream, limit=100)
    assert first == (1, {"a": 1}) and number == 2
    assert isinstance(error, MalformedError)
    assert (
        str(error) == "the line is longer than the limit of 100 bytes for a record; stopped reading"
    )


def test_a_document_longer_than_the_limit_is_refused() -> None:
    stream = io.BytesIO(b'{"a":\n' + b" " * 200 + b"1}")
    ((number, error),) = recordfile.read_records(stream, limit=100)
    assert number == 1 and "read as one document" in str(error)
    assert "longer than the limit of 100 bytes" in str(error)


def test_a_record_at_the_limit_is_read() -> None:
    line = b'{"a": "' + b"x" * 92 + b'"}'
    assert len(line) == 101
    assert list(recordfile.read_records(io.BytesIO(line + b"\n"), limit=101)) == [
        (1, {"a": "x" * 92})
    ]


def test_replay_of_dev_zero_ends_quickly_saying_the_limit() -> None:
    start = time.process_time()
    result = runner.invoke(app, ["replay", "/dev/zero"])
    assert time.process_time() - start < 5
    line = one_error(result)
    assert "line 1: the line is longer than the limit of 1 MB for a record" in line


def test_a_huge_record_is_refused_by_its_size(tmp_path: Path) -> None:
    rec = example_record()
    rec["deal"]["stock"] = rec["deal"]["stock"] * 100_000
    line = one_error(replay_bytes(tmp_path, json.dumps(rec).encode()))
    assert "limit of 1 MB" in line


def test_replay_reads_standard_input() -> None:
    text = json.dumps(example_record()) + "\n" + json.dumps(example_record([])) + "\n"
    result = runner.invoke(app, ["replay", "-", "--json"], input=text)
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 2


def test_a_folder_is_not_a_record_file(tmp_path: Path) -> None:
    assert "cannot read the file" in one_error(runner.invoke(app, ["replay", str(tmp_path)]))


# ------------------------------------------------------------ case 4: simulate into replay


@pytest.mark.parametrize(
    ("game", "rules", "seed"),
    [
        ("briscola-2", [], 0),
        ("briscola-3", ["removed_two=random"], 1),
        ("briscola-4", ["communication=signals", "signal_audience=spotted"], 2),
        ("briscola-6", ["communication=conversation"], 3),
        ("chiamata", ["multipliers=high-bids"], 5),
        ("schembil", [], 6),
        ("brisca", ["players=4"], 7),
        ("briskula-double", [], 8),
        ("briscolone", ["court_order=south"], 9),
    ],
)
def test_simulate_json_pipes_into_replay(game: str, rules: list[str], seed: int) -> None:
    options = [x for r in rules for x in ("--rule", r)]
    made = runner.invoke(app, ["simulate", "-g", game, "--seed", str(seed), "--json", *options])
    assert made.exit_code == 0, made.output
    (line,) = made.stdout.splitlines()
    again = runner.invoke(app, ["replay", "-", "--json"], input=made.stdout)
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["finished"] is True
    assert json.loads(line)["game"] == game


def test_a_summary_of_many_games_is_said_not_to_be_a_record() -> None:
    made = runner.invoke(app, ["simulate", "-n", "3", "--json"])
    line = one_error(runner.invoke(app, ["replay", "-"], input=made.stdout))
    assert "line 1: record: not a game record" in line


# --------------------------------------------------------------- arena --save reads safely


def setup() -> Arena:
    return Arena("briscola-2", (), ("intermediate", "random"), deals=1, seed=1)


def game_line(deal: int, pairing: int, rotation: int) -> dict[str, Any]:
    return {
        "deal": deal,
        "pairing": pairing,
        "rotation": rotation,
        "seats": [rotation, 1 - rotation],
        "seat_points": [60, 60],
        "sides": [[0], [1]],
        "points": [60, 60],
        "winners": [],
        "scores": None,
        "think": [0.1, 0.2],
        "moves": [20, 20],
    }


@pytest.mark.parametrize(
    "data",
    [
        bytes(range(256)) * 8,
        b"[" * 100_000,
        b'{"arena": ' + b"9" * 5000 + b"}\n",
        b'{"arena": 5}\n',
        b'{"arena": {"game": "x", "options": [], "bots": [1, 2], "seed": 0}}\n',
        b'{"arena": {"game": "x", "options": [1], "bots": [], "seed": 0}}\n',
    ],
)
def test_arena_save_on_a_file_that_is_not_one_says_so(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "run.jsonl"
    path.write_bytes(data)
    args = ["arena", "-n", "2", "--save", str(path), "intermediate", "random"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "is not an arena's saved games" in result.output


def test_arena_log_leaves_out_lines_that_hold_no_game_of_it(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    good = [json.dumps(game_line(0, 0, r)).encode() for r in (0, 1)]
    wrong = [
        b"\xff\xfe" + good[0],
        b"[" * 100_000,
        json.dumps(game_line(0, 0, 1)).replace('"deal": 0', '"deal": ' + "9" * 5000).encode(),
        json.dumps({**game_line(0, 0, 1), "seats": "ab"}).encode(),
        json.dumps({**game_line(0, 0, 1), "deal": [0]}).encode(),
        json.dumps({**game_line(0, 0, 1), "pairing": 3}).encode(),
        json.dumps({**game_line(0, 0, 1), "think": ["slow", 1]}).encode(),
        json.dumps(game_line(0, 0, 1))[:30].encode(),
    ]
    head = json.dumps(header(setup())).encode()
    path.write_bytes(b"\n".join([head, good[0], *wrong]) + b"\n")
    assert ArenaLog(path, setup()).load() == {}
    path.write_bytes(b"\n".join([head, good[0], *wrong, good[1], good[1]]) + b"\n")
    (games,) = ArenaLog(path, setup()).load().values()
    assert sorted(g.rotation for g in games) == [0, 1]  # a game kept twice counts once


def test_text_that_looks_like_rich_markup_is_printed_as_it_is(tmp_path: Path) -> None:
    rec = example_record()
    rec["deal"]["trump"] = "[/]"
    line = one_error(replay_bytes(tmp_path, json.dumps(rec).encode()))
    assert "deal.trump: '[/]' is not a card" in line
    line = one_error(runner.invoke(app, ["replay", str(tmp_path / "[/]x")]))
    assert "[/]x: cannot read the file" in line
    line = one_error(runner.invoke(app, ["simulate", "--rule", "match=[/]"]))
    assert "house rule match cannot be '[/]'" in line  # every fail() of the command line
