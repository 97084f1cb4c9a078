"""The arena: seating over duplicate deals, the figures on hand-made results, the same
results for any number of worker processes, the strength of the levels, and the
``briscola arena`` command."""

from __future__ import annotations

import gc
import json
import math
import os
import pty
import re
import select
import subprocess
import sys
import time
import tracemalloc
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from briscola.ai import BOTS
from briscola.arena.duplicate import (
    ROTATIONS,
    Arena,
    GameResult,
    Outcome,
    Tally,
    figures,
    make_deal,
    outcomes,
    play_all,
    play_games,
    report,
    run,
    seat_bots,
    tally_report,
    workers,
)
from briscola.arena.stats import Z95, elo_difference, elo_ratings, mean_interval, wilson
from briscola.engine import BriscolaError, Rules, View
from briscola.engine.actions import Action
from briscola.terminal.cli import app

runner = CliRunner()


# ---------------------------------------------------------------------------- seating


@pytest.mark.parametrize(
    ("key", "options", "first", "second"),
    [
        ("briscola-2", {}, (0, 1), (1, 0)),
        ("briscola-3", {}, (0, 1, 0), (1, 0, 1)),
        ("briscola-4", {}, (0, 1, 0, 1), (1, 0, 1, 0)),
        ("briscola-6", {}, (0, 1, 0, 1, 0, 1), (1, 0, 1, 0, 1, 0)),
        ("chiamata", {}, (0, 1, 0, 1, 0), (1, 0, 1, 0, 1)),
        ("briskula", {"players": 4, "teams": "pairs"}, (0, 1, 0, 1), (1, 0, 1, 0)),
    ],
)
def test_each_bot_plays_every_seat_of_a_deal(
    key: str, options: dict[str, object], first: tuple[int, ...], second: tuple[int, ...]
) -> None:
    rules = Rules.make(key, options)
    assert seat_bots(rules, (0, 1), 0) == first
    assert seat_bots(rules, (0, 1), 1) == second
    for seat in range(rules.players):
        assert {first[seat], second[seat]} == {0, 1}
    if rules.teams:
        for side in rules.sides:
            assert len({first[s] for s in side}) == 1  # one bot plays a whole side


class Named:
    """A bot that plays the first legal action and notes, at each seat it plays, its
    level's name (its spec, ``tests.arena.test_arena:NAME``)."""

    seen: ClassVar[list[tuple[int, str]]] = []

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, view: View) -> Action:
        assert view.seat is not None
        Named.seen.append((view.seat, self.name))
        return view.legal[0]


def weak(seed: int | None = None) -> Named:
    return Named("weak")


def good(seed: int | None = None) -> Named:
    return Named("good")


def test_a_side_of_two_players_seats_each_at_its_place_of_every_side() -> None:
    """``A+B``: at every deal and in both games, A holds the first seat of whichever side
    the pair plays, B the second; the other bot plays its whole side."""
    Named.seen.clear()
    here = "tests.arena.test_arena"
    mixed = f"{here}:weak+{here}:good"
    out = run(Arena("briscola-4", (), (mixed, "random"), deals=3, seed=4, move_limit=None))
    assert [b.name for b in out.bots] == [mixed, "random"] and out.games == 6
    # 6 games, 10 cards a seat: the pair's side is (0, 2) in one game, (1, 3) in the other
    by_seat = {seat: {name for s, name in Named.seen if s == seat} for seat in range(4)}
    assert by_seat == {0: {"weak"}, 1: {"weak"}, 2: {"good"}, 3: {"good"}}
    assert len(Named.seen) == 6 * 2 * 10
    with pytest.raises(BriscolaError, match="not played in teams"):
        run(Arena("briscola-2", (), (mixed, "random"), deals=1, seed=4))


def test_deals_depend_only_on_the_seed_and_their_number() -> None:
    rules = Rules.make("briscola-2")
    assert make_deal(rules, 5, 3) == make_deal(rules, 5, 3)
    assert make_deal(rules, 5, 3) != make_deal(rules, 5, 4)
    assert make_deal(rules, 5, 3) != make_deal(rules, 6, 3)
    assert make_deal(rules, 5, 3).dealer == 1


def test_game_counts_are_exact() -> None:
    two = run(Arena("briscola-2", (), ("intermediate", "random"), deals=4, seed=2))
    assert two.games == 8
    assert [b.games for b in two.bots] == [8, 8]
    three = run(Arena("briscola-4", (), ("intermediate", "beginner", "random"), 2, 2))
    assert three.games == 3 * 2 * 2
    assert [b.games for b in three.bots] == [8, 8, 8]
    assert [p.games for p in three.pairs] == [4, 4, 4]
    for b in two.bots + three.bots:
        assert b.wins + b.draws + b.losses == b.games
    assert two.bots[0].wins == two.bots[1].losses
    assert two.bots[0].draws == two.bots[1].draws


def test_chiamata_counts_each_seat_and_reports_score_points() -> None:
    result = run(Arena("chiamata", (), ("intermediate", "random"), deals=2, seed=1))
    assert result.per_seat
    assert [b.games for b in result.bots] == [10, 10]  # five seats a deal, over two games
    for b in result.bots:
        assert b.wins + b.draws + b.losses == 10
        assert b.chiamata is not None
    # score points of a hand sum to zero over its five seats
    games = play_all(Arena("chiamata", (), ("intermediate", "random"), deals=2, seed=1))
    for g in games:
        assert g.scores is not None and sum(g.scores) == 0


class Cheat:
    """Returns a card of another seat: the arena must refuse it, naming the bot."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: View) -> Action:
        from briscola.engine import Card, Play

        assert view.seat is not None
        mine = set(view.hand)
        other = next(c for c in map(Card.parse, ["Ab", "2c", "3s"]) if c not in mine)
        return Play(view.seat, other)


def test_an_illegal_choice_is_refused_naming_the_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "cheat", Cheat)
    with pytest.raises(BriscolaError, match="the bot cheat at seat"):
        run(Arena("briscola-2", (), ("cheat", "random"), deals=1, seed=0))


def test_a_bot_that_cannot_be_made_is_refused_before_playing() -> None:
    with pytest.raises(BriscolaError, match="there is no bot 'grandmaster'"):
        run(Arena("briscola-2", (), ("grandmaster", "random"), deals=1, seed=0))


# ---------------------------------------------------------------------------- figures


def o(bot: int, deal: int, result: float, points: float, chiamata: float | None = None) -> Outcome:
    return Outcome(bot, 1 - bot, 0, deal, result, points, chiamata)


HAND_MADE = [
    # deal 0: bot 0 wins both games; deal 1: one each; deal 2: a draw and a loss
    o(0, 0, 1.0, 30), o(1, 0, 0.0, -30), o(0, 0, 1.0, 10), o(1, 0, 0.0, -10),
    o(0, 1, 1.0, 20), o(1, 1, 0.0, -20), o(0, 1, 0.0, -40), o(1, 1, 1.0, 40),
    o(0, 2, 0.5, 0), o(1, 2, 0.5, 0), o(0, 2, 0.0, -6), o(1, 2, 1.0, 6),
]  # fmt: skip


def test_figures_of_a_hand_made_result_list() -> None:
    bots, pairs = figures(["a", "b"], ["a", "b"], HAND_MADE, [(0.5, 100), (0.25, 50)])
    a, b = bots
    assert (a.games, a.wins, a.draws, a.losses) == (6, 3, 1, 2)
    assert (b.games, b.wins, b.draws, b.losses) == (6, 2, 1, 3)
    assert a.score.mean == pytest.approx(3.5 / 6)
    # per-deal means of a: 1.0, 0.5, 0.25 -> normal interval on those three means
    means = [1.0, 0.5, 0.25]
    m = sum(means) / 3
    sd = math.sqrt(sum((x - m) ** 2 for x in means) / 2)
    assert a.score.low == pytest.approx(max(0.0, m - Z95 * sd / math.sqrt(3)))
    assert a.score.high == pytest.approx(min(1.0, m + Z95 * sd / math.sqrt(3)))
    point_means = [20.0, -10.0, -3.0]
    pm = sum(point_means) / 3
    psd = math.sqrt(sum((x - pm) ** 2 for x in point_means) / 2)
    assert a.points.mean == pytest.approx(pm)
    assert a.points.high - a.points.mean == pytest.approx(Z95 * psd / math.sqrt(3))
    assert b.points.mean == pytest.approx(-pm)
    assert a.ms_per_move == pytest.approx(5.0) and b.ms_per_move == pytest.approx(5.0)
    (pair,) = pairs
    assert pair.score.mean == pytest.approx(3.5 / 6)
    assert pair.second_score.mean == pytest.approx(2.5 / 6)
    assert a.rating == pytest.approx(-b.rating)
    assert a.rating - b.rating == pytest.approx(elo_difference(3.5 / 6), abs=0.5)


def test_a_clean_sweep_falls_back_to_the_wilson_interval() -> None:
    sweep = [o(0, d, 1.0, 50) for d in range(5)] + [o(1, d, 0.0, -50) for d in range(5)]
    bots, _ = figures(["a", "b"], ["a", "b"], sweep)
    assert bots[0].score.mean == 1.0
    assert bots[0].score.low == pytest.approx(wilson(5, 5).low)
    assert bots[0].score.high == 1.0
    assert bots[1].score.high == pytest.approx(1 - wilson(5, 5).low)


def test_the_same_result_every_deal_falls_back_to_wilson_even_when_not_a_binary_fraction() -> None:
    """Chiamata: each deal the bot's five seats win two games of five (0.4, which no float
    holds exactly): no spread, so the Wilson interval, not a zero-width one."""
    items = [
        Outcome(0, 1, 0, deal, result, 0.0, 0.0)
        for deal in range(3)
        for result in (1.0, 1.0, 0.0, 0.0, 0.0)
    ]
    (bot, _), _ = figures(["a", "b"], ["a", "b"], items)
    assert bot.score.low == pytest.approx(wilson(6, 15).low)
    assert bot.score.high == pytest.approx(wilson(6, 15).high)


def test_outcomes_of_team_and_chiamata_games() -> None:
    team = GameResult(
        deal=0, pairing=0, rotation=1, seats=(1, 0, 1, 0), seat_points=(30, 20, 40, 30),
        sides=((0, 2), (1, 3)), points=(70, 50), winners=(0, 2), scores=None,
        think=(0.0,) * 4, moves=(1,) * 4,
    )  # fmt: skip
    got = {x.bot: x for x in outcomes([team], per_seat=False)}
    assert got[1].result == 1.0 and got[1].points == 20
    assert got[0].result == 0.0 and got[0].points == -20
    tie = GameResult(0, 0, 0, (0, 1), (60, 60), ((0,), (1,)), (60, 60), (), None, (0, 0), (1, 1))
    assert [x.result for x in outcomes([tie], per_seat=False)] == [0.5, 0.5]
    chiamata = GameResult(
        deal=0, pairing=0, rotation=0, seats=(0, 1, 0, 1, 0), seat_points=(40, 30, 10, 20, 20),
        sides=((0, 1), (2, 3, 4)), points=(70, 50), winners=(0, 1), scores=(2, 1, -1, -1, -1),
        think=(0.0,) * 5, moves=(1,) * 5,
    )  # fmt: skip
    seats = outcomes([chiamata], per_seat=True)
    assert [x.result for x in seats] == [1.0, 1.0, 0.0, 0.0, 0.0]
    assert [x.points for x in seats] == [20, 20, -20, -20, -20]
    assert [x.chiamata for x in seats] == [2, 1, -1, -1, -1]


def test_stats_helpers() -> None:
    iv = mean_interval([2.0, 4.0])
    assert iv.mean == 3.0 and iv.high - 3.0 == pytest.approx(Z95 * math.sqrt(2) / math.sqrt(2))
    assert math.isinf(mean_interval([1.0]).high)
    assert wilson(0, 10).low == 0.0 and 0 < wilson(0, 10).high < 0.35
    assert elo_difference(0.5) == 0.0
    r = elo_ratings(3, {(0, 1): (0.64, 100), (1, 2): (0.64, 100), (0, 2): (0.76, 100)})
    assert r[0] > r[1] > r[2] and sum(r) == pytest.approx(0.0, abs=1e-6)
    assert elo_ratings(2, {(0, 1): (1.0, 10)})[0] < 1000  # a sweep stays finite


# ---------------------------------------------------------------------------- runs


def without_timing(data: dict[str, Any]) -> dict[str, Any]:
    for b in data["bots"]:
        b.pop("ms_per_move")
    return data


def test_the_same_results_for_any_number_of_processes() -> None:
    arena = Arena("briscola-4", (("communication", "signals"),), ("intermediate", "beginner"), 6, 7)
    one = report(arena, play_all(arena, jobs=1))
    games = play_all(arena, jobs=2)
    two = report(arena, games)
    assert [(g.deal, g.rotation) for g in games] == [(d, r) for d in range(6) for r in (0, 1)]
    assert without_timing(one.to_json()) == without_timing(two.to_json())


def test_the_levels_are_ordered_by_strength() -> None:
    result = run(Arena("briscola-2", (), ("intermediate", "beginner", "random"), 150, 11), jobs=2)
    pairs = {(p.first, p.second): p for p in result.pairs}
    assert pairs[("intermediate", "random")].score.low > 0.8
    assert pairs[("intermediate", "beginner")].score.low > 0.6
    assert pairs[("beginner", "random")].score.low > 0.55
    ratings = {b.name: b.rating for b in result.bots}
    assert ratings["intermediate"] > ratings["beginner"] > ratings["random"]


# ---------------------------------------------------------------------------- command


def test_arena_json_shape() -> None:
    args = ["arena", "-g", "briscola-4", "-n", "4", "--seed", "3", "--json"]
    result = runner.invoke(app, [*args, "intermediate", "random", "beginner"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "briscola-4" and data["seed"] == 3
    assert data["deals"] == 2 and data["games_per_pairing"] == 4 and data["games"] == 12
    assert data["seating"] == [[0, 1, 0, 1], [1, 0, 1, 0]] and data["result_per"] == "game"
    assert [b["name"] for b in data["bots"]] == ["intermediate", "random", "beginner"]
    for b in data["bots"]:
        assert b["games"] == 8 == b["wins"] + b["draws"] + b["losses"]
        assert set(b["score"]) == {"mean", "low", "high"}
        assert set(b["point_difference"]) == {"mean", "low", "high"}
        assert b["ms_per_move"] >= 0 and "rating" in b
    assert [p["bots"] for p in data["pairs"]] == [
        ["intermediate", "random"],
        ["intermediate", "beginner"],
        ["random", "beginner"],
    ]


def test_arena_json_is_the_same_for_two_jobs() -> None:
    args = ["arena", "-n", "6", "--seed", "5", "--json", "intermediate", "random"]
    one = runner.invoke(app, args)
    two = runner.invoke(app, [*args, "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0
    assert without_timing(json.loads(one.stdout)) == without_timing(json.loads(two.stdout))


def test_arena_text_report_with_ratings_and_chiamata_scores() -> None:
    result = runner.invoke(
        app, ["arena", "-g", "chiamata", "-n", "3", "intermediate", "beginner", "random"]
    )
    assert result.exit_code == 0, result.output
    assert "3 games asked: playing 4" in result.output
    for word in ("score", "points", "chiamata score", "rating", "intermediate v beginner"):
        assert word in result.output


def test_arena_same_bot_twice_and_house_rules() -> None:
    args = ["arena", "-n", "2", "--json", "--rule", "follow_suit=required", "beginner", "beginner"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [b["name"] for b in data["bots"]] == ["beginner", "beginner#2"]
    assert data["rules"] == {"follow_suit": "required"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["intermediate"], "at least two bots"),
        (["intermediate", "nobody"], "there is no bot 'nobody'"),
        (["intermediate", "no_such_module:bot"], "cannot load the bot"),
        (["--rule", "colour=red", "intermediate", "random"], "no house rule 'colour'"),
        (["-g", "tressette", "intermediate", "random"], "there is no game"),
        (["intermediate+random", "random"], "briscola-2 is not played in teams"),
        (["-g", "chiamata", "intermediate+random", "random"], "chiamata is not played in teams"),
        (["-g", "briscola-4", "random+nobody", "random"], "there is no bot 'nobody'"),
        (["-g", "briscola-4", "random+", "random"], "no name left empty"),
        (["-g", "briscola-4", "random+random+random", "random"], "a side of briscola-4 has 2"),
    ],
)
def test_arena_errors_speak_plainly(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["arena", *args])
    assert result.exit_code == 2
    assert message in result.output


# ---------------------------------------------------------------------------- saved runs


def test_a_saved_run_goes_on_where_it_stopped(tmp_path: Any) -> None:
    """Games kept with --save are not played again: a run stopped half way (a line cut
    short at the end) and finished later reports what one whole run reports."""
    path = tmp_path / "run.jsonl"
    base = ["arena", "--seed", "4", "--json", "intermediate", "beginner"]
    whole = runner.invoke(app, [*base, "-n", "12"])
    half = runner.invoke(app, [*base, "-n", "6", "--save", str(path)])
    assert whole.exit_code == half.exit_code == 0, half.output
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 6
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:20])  # the last game cut short
    rest = runner.invoke(app, [*base, "-n", "12", "--save", str(path), "--jobs", "2"])
    assert rest.exit_code == 0, rest.output
    assert without_timing(json.loads(rest.stdout)) == without_timing(json.loads(whole.stdout))
    # the deal cut short was played again (its whole game kept but not counted twice);
    # the two whole deals were not
    deals = []
    for line in path.read_text().splitlines()[1:]:
        try:
            deals.append(json.loads(line)["deal"])
        except json.JSONDecodeError:
            assert line == lines[-1][:20]
    assert [deals.count(d) for d in range(6)] == [2, 2, 3, 2, 2, 2]


def test_a_saved_run_refuses_another_arena_or_other_code(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from briscola.arena import log as arena_log

    path = tmp_path / "run.jsonl"
    args = ["arena", "-n", "2", "--seed", "1", "--save", str(path), "intermediate", "random"]
    assert runner.invoke(app, args).exit_code == 0
    other = runner.invoke(app, [*args[:4], "2", *args[5:]])
    assert other.exit_code == 2
    assert "holds the games of another arena" in other.output
    assert "seed 1); this one is" in other.output.replace("\n", " ")
    monkeypatch.setattr(arena_log, "code_fingerprint", lambda: "0123456789abcdef")
    changed = runner.invoke(app, [*args[:2], "4", *args[3:]])
    assert changed.exit_code == 2
    assert "was played by other code" in changed.output
    path.write_text("hello\n")
    assert "is not an arena's saved games" in runner.invoke(app, args).output
    nowhere = runner.invoke(app, [*args[:6], str(tmp_path / "no" / "run.jsonl"), *args[7:]])
    assert nowhere.exit_code == 2
    assert "cannot keep the games in" in nowhere.output


# ---------------------------------------------------------------------------- big runs


class Enough(Exception):
    """Raised by a progress callback to stop a run early."""


def test_a_huge_arena_makes_its_deals_as_it_plays_them() -> None:
    """A million deals: the run starts at once and in little memory (no list of deals)."""
    arena = Arena("briscola-2", (), ("random", "random"), deals=10**6, seed=1)
    calls: list[int] = []

    def progress(games: int) -> None:
        calls.append(games)
        if len(calls) == 5:
            raise Enough

    tracemalloc.start()
    try:
        with pytest.raises(Enough):
            run(arena, progress=progress)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3_000_000


def test_the_figures_keep_sums_not_games() -> None:
    """The report accumulates: the games of a deal are let go once counted."""

    def results() -> int:
        return sum(isinstance(x, GameResult) for x in gc.get_objects())

    gc.collect()
    before = results()  # kept by other tests
    alive: list[int] = []
    result = run(
        Arena("briscola-2", (), ("random", "random"), deals=40, seed=1),
        progress=lambda games: alive.append(results() - before),
    )
    assert result.games == 80 and len(alive) == 40
    assert max(alive) <= 2 * ROTATIONS  # the deal just played and the one before


def test_the_figures_do_not_depend_on_the_order_games_come_in() -> None:
    arena = Arena("briscola-4", (), ("intermediate", "beginner", "random"), 6, 3)
    games = play_all(arena)
    in_order = report(arena, games)
    tally = Tally(len(arena.bots))
    for d in reversed(range(arena.deals)):
        tally.add_games([g for g in games if g.deal == d], per_seat=False)
    backwards = tally_report(arena, tally)
    assert without_timing(in_order.to_json()) == without_timing(backwards.to_json())
    assert [replace(b, ms_per_move=0.0) for b in in_order.bots] == [
        replace(b, ms_per_move=0.0) for b in backwards.bots
    ]
    assert in_order.pairs == backwards.pairs


@pytest.mark.parametrize(("jobs", "deals"), [(1, 2**63), (2, 10**12)])
def test_a_huge_arena_starts_at_once_and_stops_when_let_go(jobs: int, deals: int) -> None:
    """Deal counts beyond a C long too (``--games`` takes any integer)."""
    arena = Arena("briscola-2", (), ("random", "random"), deals=deals, seed=1)
    start = time.monotonic()
    games = play_games(arena, jobs=jobs)
    first = next(games)
    games.close()  # the workers are told to stop; only a few chunks were ever asked for
    assert time.monotonic() - start < 60
    assert first and len(first) % ROTATIONS == 0 and max(g.deal for g in first) < 10**3


def test_more_jobs_than_cores_use_the_cores() -> None:
    assert 1 <= workers(1000) <= (os.cpu_count() or 1)
    assert workers(1) == 1
    result = runner.invoke(app, ["arena", "-n", "4", "--jobs", "1000", "random", "random"])
    assert result.exit_code == 0, result.output
    assert f"--jobs 1000: {workers(1000)} worker process" in result.output


def test_a_huge_games_count_shows_progress_at_once() -> None:
    """`briscola arena --games 1000000000000 random random` on a terminal: the progress
    bar counts games within seconds."""
    master, slave = pty.openpty()
    command = [str(Path(sys.executable).parent / "briscola"), "arena", "--games", "10" + "0" * 11]
    proc = subprocess.Popen(
        [*command, "random", "random"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env={**os.environ, "TERM": "xterm", "COLUMNS": "120"},
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline and not re.search(rb"[1-9]\d*/1000000000000", seen):
            if select.select([master], [], [], 1)[0]:
                try:
                    seen += os.read(master, 4096)
                except OSError:  # the command ended
                    break
    finally:
        proc.kill()
        proc.wait()
        os.close(master)
    assert re.search(rb"[1-9]\d*/1000000000000", seen), seen[-500:]
