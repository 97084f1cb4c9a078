"""A family's standings, computed from its finished matches, never edited: ratings by
OpenSkill's Weng-Lin model (Plackett-Luce), one table a game, with the head-to-head
records and the pairs that win most together.

A match is a contest of two teams, its winners against the rest (in pairs and teams,
each player is rated as a member of their team; in chiamata the caller and partner
against the three others); a draw (no winner, or every seat) ranks them equal. Computer
players are rated too, one rating a level (``bot:champion``), so that "Nonna beat the
champion" means something; a level on both sides of one match plays itself and is left
out of it. The matches are taken in the order they ended (then of their tables), from
fresh ratings, so that the same matches always give the same standings.

>>> from datetime import datetime, UTC
>>> at = datetime(2026, 12, 1, tzinfo=UTC)
>>> games = [MatchResult(n, "briscola-2", at, ("p1", "bot:beginner"), (0,)) for n in range(3)]
>>> [(s.key, s.played, s.won) for s in standings(games)["briscola-2"].table]
[('p1', 3, 3), ('bot:beginner', 3, 0)]

A rating is kept as OpenSkill gives it (``mu``, ``sigma``, and the conservative ``mu - 3
sigma`` the table is ordered by) and shown on the scale chess players know, a newcomer at
1500 ± 350 (:func:`shown`), provisional until :data:`PROVISIONAL_UNDER` matches:

>>> shown(25.0, 25 / 3)
(1500, 350)
>>> table = standings(games)["briscola-2"].table
>>> [(s.key, *shown(s.mu, s.sigma), provisional(s.played)) for s in table]
[('p1', 1762, 320, True), ('bot:beginner', 1238, 320, True)]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from openskill.models import PlackettLuce

from briscola.storage import MatchResult

CENTRE = 1500
"""A newcomer's shown rating: OpenSkill's starting ``mu`` (25)."""
STEP = 42.0
"""Points of the shown scale a unit of OpenSkill's ``mu`` is worth: a newcomer's ``sigma``
(25/3) is then 350, as Glicko gives a newcomer."""
PROVISIONAL_UNDER = 5
"""A rating from fewer matches than this is marked provisional."""


def shown(mu: float, sigma: float) -> tuple[int, int]:
    """A rating as it is shown: a whole number around 1500, and its margin (one
    ``sigma``), both on the scale of :data:`STEP`."""
    return round(CENTRE + (mu - 25.0) * STEP), round(sigma * STEP)


def provisional(played: int) -> bool:
    """Whether a rating from ``played`` matches is still provisional."""
    return played < PROVISIONAL_UNDER


@dataclass(frozen=True)
class Standing:
    """One player's line: ``rating`` is the conservative estimate (``mu - 3 sigma``,
    OpenSkill's ordinal), what the table is ordered by."""

    key: str
    rating: float
    mu: float
    sigma: float
    played: int
    won: int


@dataclass(frozen=True)
class Record:
    """Two players' matches: on opposite sides (``a`` won ``a_won``, ``b`` won ``b_won``),
    or together (``played`` side by side, ``won`` of them)."""

    a: str
    b: str
    a_won: int = 0
    b_won: int = 0
    played: int = 0
    won: int = 0


@dataclass(frozen=True)
class Standings:
    table: list[Standing]
    head_to_head: list[Record]
    pairs: list[Record]


@dataclass
class _Tally:
    played: int = 0
    won: int = 0
    beat: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    together: dict[str, list[int]] = field(default_factory=dict)


def standings(
    results: Iterable[MatchResult], since: datetime | None = None
) -> dict[str, Standings]:
    """The standings of each game in ``results`` (those ended from ``since`` on, when
    given), computed afresh; a game none of whose matches could be rated is left out."""
    by_game: dict[str, list[MatchResult]] = defaultdict(list)
    for r in sorted(results, key=lambda r: (r.at, r.table_id)):
        if since is None or r.at >= since:
            by_game[r.game].append(r)
    found = {game: _standings(matches) for game, matches in sorted(by_game.items())}
    return {game: s for game, s in found.items() if s.table}


def _sides(result: MatchResult) -> tuple[list[list[str]], list[float]] | None:
    """The match's teams (each player's key once) and their ranks; ``None`` for a match
    that is no contest (a side left empty once a level playing itself is left out, or a
    draw whose sides cannot be told: chiamata's)."""
    n = len(result.seats)
    won = set(result.winners)
    if won and len(won) < n:
        teams = [
            {k for i, k in enumerate(result.seats) if k and (i in won) == w} for w in (True, False)
        ]
        ranks = [1.0, 2.0]
    elif n in (2, 3):  # a draw: every player their own side
        teams = [{k} for k in result.seats if k]
        ranks = [1.0] * len(teams)
    elif n in (4, 6):  # a draw of two teams, seats alternating
        teams = [{k for i, k in enumerate(result.seats) if k and i % 2 == side} for side in (0, 1)]
        ranks = [1.0, 1.0]
    else:
        return None
    seen: dict[str, int] = defaultdict(int)
    for team in teams:
        for key in team:
            seen[key] += 1
    kept = [sorted(k for k in team if seen[k] == 1) for team in teams]
    if len(kept) < 2 or not all(kept):
        return None
    return kept, ranks


def _standings(matches: list[MatchResult]) -> Standings:
    model = PlackettLuce()
    ratings = {}
    tally: dict[str, _Tally] = defaultdict(_Tally)
    for result in matches:
        sides = _sides(result)
        if sides is None:
            continue
        teams, ranks = sides
        for team in teams:
            for key in team:
                if key not in ratings:
                    ratings[key] = model.rating(name=key)
        rated = model.rate([[ratings[k] for k in team] for team in teams], ranks=ranks)
        for team, new in zip(teams, rated, strict=True):
            for key, rating in zip(team, new, strict=True):
                ratings[key] = rating
        decided = ranks[0] < ranks[-1]
        for t, team in enumerate(teams):
            team_won = decided and ranks[t] == 1
            for a in team:
                tally[a].played += 1
                tally[a].won += team_won
                for b in team:
                    if a < b:
                        rec = tally[a].together.setdefault(b, [0, 0])
                        rec[0] += 1
                        rec[1] += team_won
        if decided:
            for a in teams[0]:
                for b in teams[1]:
                    tally[a].beat[b] += 1
    table = sorted(
        (
            Standing(
                key,
                round(r.ordinal(), 3),
                round(r.mu, 3),
                round(r.sigma, 3),
                tally[key].played,
                tally[key].won,
            )
            for key, r in ratings.items()
        ),
        key=lambda s: (-s.rating, -s.won, s.key),
    )
    keys = sorted(ratings)
    head = []
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            a_won, b_won = tally[a].beat.get(b, 0), tally[b].beat.get(a, 0)
            if a_won or b_won:
                head.append(Record(a, b, a_won=a_won, b_won=b_won))
    pairs = sorted(
        (
            Record(a, b, played=rec[0], won=rec[1])
            for a in keys
            for b, rec in tally[a].together.items()
        ),
        key=lambda r: (-r.won / r.played, -r.played, r.a, r.b),
    )
    return Standings(table, head, pairs)
