"""A family's standings (briscola.server.standings): OpenSkill ratings from finished
matches, the same matches always giving the same standings; teams rated as teams;
computer players rated by level; head-to-head records and the pairs that win together."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

pytest.importorskip("openskill")

from briscola.server.standings import PROVISIONAL_UNDER, provisional, shown, standings
from briscola.storage import MatchResult

T0 = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)


def result(
    n: int, game: str, seats: tuple[str | None, ...], winners: tuple[int, ...]
) -> MatchResult:
    return MatchResult(n, game, T0 + timedelta(hours=n), seats, winners)


def season(seed: int, n: int = 300) -> list[MatchResult]:
    rng = random.Random(seed)
    people = ["p1", "p2", "p3", "p4", "bot:beginner", "bot:champion"]
    out = []
    for i in range(n):
        if rng.random() < 0.5:
            a, b = rng.sample(people, 2)
            out.append(result(i, "briscola-2", (a, b), (rng.randrange(2),)))
        else:
            four = rng.sample(people, 4)
            first = rng.randrange(2)
            out.append(result(i, "briscola-4", tuple(four), (first, first + 2)))
    return out


def test_the_same_matches_give_the_same_standings_in_any_order() -> None:
    matches = season(1)
    once = standings(matches)
    shuffled = matches[:]
    random.Random(9).shuffle(shuffled)
    assert standings(shuffled) == once  # taken in the order they ended, whatever given
    assert standings(matches) == once
    assert set(once) == {"briscola-2", "briscola-4"}
    table = once["briscola-2"].table
    assert [s.rating for s in table] == sorted((s.rating for s in table), reverse=True)
    assert sum(s.played for s in table) == 2 * sum(1 for m in matches if m.game == "briscola-2")


def test_partners_are_rated_as_a_team_and_win_together() -> None:
    """Ana and Bo always partners, always beating Cy and Dea: both go up alike, their
    pair has won every match, and each beat each opponent as often."""
    matches = [result(i, "briscola-4", ("p1", "p3", "p2", "p4"), (0, 2)) for i in range(6)]
    found = standings(matches)["briscola-4"]
    by = {s.key: s for s in found.table}
    assert by["p1"].mu == by["p2"].mu > 25 > by["p3"].mu == by["p4"].mu
    assert (by["p1"].played, by["p1"].won, by["p3"].won) == (6, 6, 0)
    assert [(r.a, r.b, r.played, r.won) for r in found.pairs] == [
        ("p1", "p2", 6, 6),
        ("p3", "p4", 6, 0),
    ]
    head = {(r.a, r.b): (r.a_won, r.b_won) for r in found.head_to_head}
    assert head == {
        ("p1", "p3"): (6, 0),
        ("p1", "p4"): (6, 0),
        ("p2", "p3"): (6, 0),
        ("p2", "p4"): (6, 0),
    }


def test_computer_players_are_rated_and_a_level_never_plays_itself() -> None:
    matches = [
        result(0, "briscola-2", ("p1", "bot:champion"), (0,)),  # Nonna beats the champion
        result(1, "briscola-3", ("p1", "bot:beginner", "bot:beginner"), (0,)),
        result(2, "briscola-4", ("bot:champion", "p1", "bot:champion", "p2"), (1, 3)),
        result(3, "briscola-4", ("bot:champion", "p1", "p2", "bot:champion"), (0, 2)),
    ]
    found = standings(matches)
    assert [s.key for s in found["briscola-2"].table] == ["p1", "bot:champion"]
    three = {s.key: (s.played, s.won) for s in found["briscola-3"].table}
    assert three == {"p1": (1, 1), "bot:beginner": (1, 0)}  # the two beginners, one rating
    four = {s.key: (s.played, s.won) for s in found["briscola-4"].table}
    # match 3 had the champion on both sides: left out of it, p2 beat p1 alone
    assert four == {"p1": (2, 1), "p2": (2, 2), "bot:champion": (1, 0)}


def test_draws_and_months() -> None:
    matches = [
        result(0, "briscola-2", ("p1", "p2"), ()),  # 60-60: no winner
        result(1, "briscola-4", ("p1", "p2", "p3", "p4"), ()),
        result(2, "chiamata", ("p1", "p2", "p3", "p4", "p5"), ()),  # sides unknown: left out
    ]
    found = standings(matches)
    two = {s.key: s for s in found["briscola-2"].table}
    assert two["p1"].mu == pytest.approx(two["p2"].mu) and two["p1"].won == 0
    assert {s.key for s in found["briscola-4"].table} == {"p1", "p2", "p3", "p4"}
    assert "chiamata" not in found
    assert found["briscola-2"].head_to_head == []
    later = standings(season(2), since=T0 + timedelta(hours=250))
    assert sum(s.played for g in later.values() for s in g.table) < sum(
        s.played for g in standings(season(2)).values() for s in g.table
    )


def test_a_rating_is_shown_as_a_whole_number_around_1500_provisional_under_5_matches() -> None:
    """After one match nobody reads "-3.3": the winner is a little above 1500, the loser a
    little below, each with a wide margin, both provisional; after five, no longer."""
    one = standings([result(0, "briscola-2", ("p1", "bot:beginner"), (0,))])["briscola-2"]
    by = {s.key: (*shown(s.mu, s.sigma), provisional(s.played)) for s in one.table}
    assert shown(25.0, 25 / 3) == (1500, 350)  # a newcomer
    assert 1500 < by["p1"][0] < 1800 and 1200 < by["bot:beginner"][0] < 1500
    assert by["p1"][1] == by["bot:beginner"][1] < 350
    assert by["p1"][2] and by["bot:beginner"][2]
    five = [result(i, "briscola-2", ("p1", "p2"), (i % 2,)) for i in range(PROVISIONAL_UNDER)]
    table = standings(five)["briscola-2"].table
    assert PROVISIONAL_UNDER == 5 and not any(provisional(s.played) for s in table)
    assert provisional(4) and not provisional(5)
