"""``briscola analyse`` as its users run it: on the records ``replay`` takes and on
match records, as text and as JSON (the format docs/records.md writes down), for one
seat or all, and with the bad input ``replay`` refuses, refused the same way."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("numba")

from briscola.ai import make_bot
from briscola.analysis import tenths
from briscola.engine import Card, Match, Rules, match_view
from briscola.terminal.cli import app
from briscola.words.cards import short
from helpers import example_record

runner = CliRunner()

MARKED = ("inaccuracy", "mistake", "blunder")
"""The labels of the decisions marked with ?!, ? and ??."""


def simulated(seed: int, game: str = "briscola-2") -> dict[str, Any]:
    """A finished hand's record, as ``briscola simulate --json`` writes it."""
    result = runner.invoke(app, ["simulate", "--game", game, "--seed", str(seed), "--json"])
    assert result.exit_code == 0, result.output
    record: dict[str, Any] = json.loads(result.stdout)
    return record


def write(tmp_path: Path, name: str, *records: object) -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


def test_the_json_gives_every_decision_and_each_seats_accuracy(tmp_path: Path) -> None:
    path = write(tmp_path, "hand.json", simulated(4))
    result = runner.invoke(app, ["analyse", path, "--json"])
    assert result.exit_code == 0, result.output
    [found] = [json.loads(line) for line in result.stdout.splitlines()]
    assert (found["line"], found["hand"], found["game"], found["level"]) == (
        1, 0, "briscola-2", "strong"
    )  # fmt: skip
    decisions = found["decisions"]
    assert len(decisions) == 40  # every card of the hand, each seat's 20
    for d in decisions:
        assert set(d) == {
            "hand", "move_number", "trick", "when", "seat", "choices", "played", "best", "loss",
            "label", "exact",
        }  # fmt: skip
        assert d["when"] == "play"  # (briscola-2: no auction, no talk)
        assert d["label"] in ("best", "inaccuracy", "mistake", "blunder", "forced")
        assert d["played"] in [c["action"] for c in d["choices"]]
        assert d["loss"] >= 0
        if d["label"] != "forced":
            values = {json.dumps(c["action"]): c["expected_points"] for c in d["choices"]}
            best = max(values.values())
            assert values[json.dumps(d["best"])] == best
            assert d["loss"] == pytest.approx(best - values[json.dumps(d["played"])], abs=0.02)
    assert [s["seat"] for s in found["seats"]] == [0, 1]
    for s in found["seats"]:
        mine = [d["loss"] for d in decisions if d["seat"] == s["seat"]]
        assert s["total_loss"] == pytest.approx(sum(mine), abs=0.1)
        assert 0 <= s["accuracy"] <= 100 and s["decisions"] == 20
        # its costliest: its two marked decisions that lost most (what the end screen shows)
        marked = [d for d in decisions if d["seat"] == s["seat"] and d["label"] in MARKED]
        losses = sorted((d["loss"] for d in marked), reverse=True)[:2]
        named = [d for m in s["costliest"] for d in decisions if d["move_number"] == m]
        assert [d["loss"] for d in named] == losses and all(d in marked for d in named)


def test_all_cards_gives_the_other_values_and_says_so(tmp_path: Path) -> None:
    """``--all-cards``: each choice valued with every card seen, a report of its own that
    says so (``"seen": "all"``, and in words); the usual report says ``"seen": "seat"``.
    Once the stock is out nothing is hidden from either player: there both agree."""
    path = write(tmp_path, "hand.json", simulated(4))
    usual = json.loads(runner.invoke(app, ["analyse", path, "--json"]).stdout)
    seen = runner.invoke(app, ["analyse", path, "--json", "--all-cards"])
    assert seen.exit_code == 0, seen.output
    other = json.loads(seen.stdout)
    assert usual["seen"] == "seat" and other["seen"] == "all"
    pairs = list(zip(usual["decisions"], other["decisions"], strict=True))
    assert all(d["move_number"] == e["move_number"] for d, e in pairs)
    assert any(d["choices"] != e["choices"] for d, e in pairs)  # the hidden cards counted
    for d, e in pairs:
        if d["exact"]:  # the stock out: the seat saw every card already
            assert e["exact"] and d["choices"] == e["choices"], (d, e)
    text = runner.invoke(app, ["analyse", path, "--all-cards"])
    assert text.stdout.splitlines()[0] == (
        "line 1, hand 1 · briscola-2 · analysed by strong · with every card seen"
    )


def test_the_text_shows_each_trick_with_its_marks_and_the_same_figures(tmp_path: Path) -> None:
    path = write(tmp_path, "hand.json", simulated(4))
    text = runner.invoke(app, ["analyse", path])
    as_json = json.loads(runner.invoke(app, ["analyse", path, "--json"]).stdout)
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert lines[0] == "line 1, hand 1 · briscola-2 · analysed by strong"
    assert sum(line.startswith("trick ") for line in lines) == 20
    for s in as_json["seats"]:
        lost, accuracy = s["total_loss"], s["accuracy"]
        summary = f"seat {s['seat']}  lost {tenths(lost)} points, accuracy {tenths(accuracy)}"
        assert any(line.startswith(summary) for line in lines), summary
    marked = [d for d in as_json["decisions"] if d["label"] in MARKED]
    assert marked, "random play makes mistakes"
    for d in marked:
        mark = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[d["label"]]
        card = short(Card.parse(d["played"]["play"]), "napoletane")  # as the cards show it
        assert f"{d['seat']}:{card}{mark}" in text.stdout
        assert f"seat {d['seat']}'s {card}{mark}: " in text.stdout
    assert not re.search(r"\d:[JQK][cdsb]", text.stdout)  # the JSON keeps the notation
    assert any(d["played"]["play"][0] in "JQK" for d in as_json["decisions"])


def test_one_seat_alone_and_the_same_seed_the_same_figures(tmp_path: Path) -> None:
    path = write(tmp_path, "hand.json", simulated(5))
    both = json.loads(runner.invoke(app, ["analyse", path, "--json", "--seed", "3"]).stdout)
    one = runner.invoke(app, ["analyse", path, "--json", "--seat", "1", "--seed", "3"])
    assert one.exit_code == 0, one.output
    alone = json.loads(one.stdout)
    assert {d["seat"] for d in alone["decisions"]} == {1}
    assert alone["decisions"] == [d for d in both["decisions"] if d["seat"] == 1]
    assert [s["seat"] for s in alone["seats"]] == [1]


def test_a_match_record_is_analysed_hand_by_hand(tmp_path: Path) -> None:
    rules = Rules.make("briscola-2", {"match": "best-of-3"})
    match = Match(rules, random.Random(2))
    bots = [make_bot("intermediate", seed=s) for s in range(2)]
    while not match.over:
        seat = match.hand.turn
        match.apply(bots[seat].choose(match_view(match, seat)))
    path = write(tmp_path, "match.json", match.to_record())
    result = runner.invoke(app, ["analyse", path, "--json", "--seat", "0"])
    assert result.exit_code == 0, result.output
    hands = [json.loads(line) for line in result.stdout.splitlines()]
    assert [h["hand"] for h in hands] == list(range(len(match.to_record()["hands"])))
    assert len(hands) >= 2 and all(h["decisions"] for h in hands)
    # the second hand read from its own record (as the server's download gives it): the
    # same figures
    second = write(tmp_path, "hand.json", match.to_record()["hands"][1])
    alone = json.loads(runner.invoke(app, ["analyse", second, "--json", "--seat", "0"]).stdout)
    assert alone["seats"] == hands[1]["seats"]
    assert [{**d, "hand": 1} for d in alone["decisions"]] == hands[1]["decisions"]


def test_bad_input_is_refused_as_replay_refuses_it(tmp_path: Path) -> None:
    finished = simulated(6)
    bad = example_record()
    bad["deal"]["hands"][1][2] = "Xs"
    path = write(tmp_path, "mixed.jsonl", finished, bad)
    result = runner.invoke(app, ["analyse", path, "--json"])
    assert result.exit_code == 2
    assert "line 2" in result.stderr and "deal.hands[1][2]" in result.stderr
    assert json.loads(result.stdout.splitlines()[0])["line"] == 1  # the good one analysed

    illegal = example_record([{"seat": 1, "play": "Ab"}])
    result = runner.invoke(app, ["analyse", write(tmp_path, "illegal.json", illegal)])
    assert result.exit_code == 1 and "it is seat 0's turn" in result.stderr

    unfinished = example_record([{"seat": 0, "play": "5b"}])
    result = runner.invoke(app, ["analyse", write(tmp_path, "half.json", unfinished)])
    assert result.exit_code == 2 and "the hand is not over" in result.stderr

    result = runner.invoke(app, ["analyse", write(tmp_path, "h.json", finished), "--seat", "2"])
    assert result.exit_code == 2 and "seats 0 to 1, not 2" in result.stderr

    result = runner.invoke(app, ["analyse", str(tmp_path / "none.json")])
    assert result.exit_code == 2 and "cannot read" in result.stderr

    result = runner.invoke(app, ["analyse", write(tmp_path, "h.json", finished), "--level", "x"])
    assert result.exit_code == 2 and "strong" in result.output


def test_old_schembil_records_are_analysed_as_replay_reads_them(tmp_path: Path) -> None:
    old = Path(__file__).parents[1] / "data" / "schembil_records_before_rais_talk.jsonl"
    records = [json.loads(line)["record"] for line in old.read_text().splitlines()]
    path = write(tmp_path, "old.jsonl", *records[:1])
    result = runner.invoke(app, ["analyse", path, "--seat", "0"])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\ntrick ") >= 5
