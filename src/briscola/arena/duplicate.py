"""The arena: bots play duplicate deals against each other, and the figures say which
is stronger and by how much.

**Duplicate deals.** Deal ``d`` is shuffled by ``shuffled_deal`` from a
``random.Random`` seeded from the arena's seed and ``d`` (the dealer is seat
``d mod players``), so every deal can be made on its own, in any process. Each deal is
played twice by each pairing of bots (A, B), the bots trading places:

- head to head (two seats): A holds seat 0 and B seat 1, then the other way round;
- teams: A plays every seat of side 0 and B every seat of side 1, then the sides swap;
- more seats or sides than two bots (Briscola a 3, Briškula alone, chiamata): the
  slots (the sides in team games, else the seats) take the bots in rotation: slot
  ``j`` gets A when ``j`` is even in the first game and odd in the second; seats
  0 1 2 3 4 of chiamata are A B A B A, then B A B A B.

Either way every bot plays every seat of every deal, so the luck of the cards cancels.
With more than two bots, every pair plays the same deals (a round robin).

**Mixed sides.** In a team game a bot may be a side of different players, ``A+B``
(:mod:`briscola.arena.sides`): its figures are the side's, its time a move its
players'.

**Results.** Each seat gets its own bot, made by ``make_bot(spec, seed=...)`` for that
game alone with a seed drawn from the arena's seed, the deal, the game and the seat,
and told of the new hand by ``new_hand(view)`` when it has that method. A bot only
ever gets ``seat_view(state, seat)``. A bot from outside plays guarded, with the
arena's ``move_limit`` a move (see :mod:`briscola.ai.bot`): one that fails stops the
run with a :class:`~briscola.ai.bot.BotError` naming it and the deal. One hand is one
game. A bot's result in a game is a win when the winning side is one of its own, a
loss when it is the other bot's, and a draw when the hand has no winner (a 60-60 tie);
its point difference is the mean card points of its sides (or seats) minus the mean of
the other bot's. In chiamata the sides are secret and mixed, so each seat is judged
alone: each of a bot's seats in a hand counts as one game, won when the seat is in the
winning side (a hand where all pass is a draw); the point difference is that seat's
side's points minus the other side's, and the chiamata score points of the seat are
reported too.

**Figures.** The score is (wins + draws/2) / games. Its 95% interval, and that of
the point difference and of the chiamata score, is the normal approximation on the
means per duplicate deal (the games of one deal for one pairing are averaged first,
since they share the cards): mean ± 1.96·s/√deals. When those means do not vary at
all (a bot won every game) the score's interval is the Wilson interval of the games.
Ratings (Elo-like) are fitted to the pairwise scores by
:func:`~briscola.arena.stats.elo_ratings`; the pairwise score of A against B is
(1 + score of A - score of B) / 2, which is A's plain score in every game but
chiamata, where a hand's winners are two seats or three.

**Memory.** Deals are made as they are played, and the figures are kept as running
sums (exact ones, :class:`~briscola.arena.stats.Mean`), not as the list of games: a run's
memory does not grow with its number of deals, and its figures do not depend on the
order in which deals finish, so they are the same for any number of processes.

>>> report = run(Arena("briscola-2", (), ("intermediate", "random"), deals=3, seed=1))
>>> [(b.name, b.games, b.wins + b.draws + b.losses) for b in report.bots]
[('intermediate', 6, 6), ('random', 6, 6)]
"""

from __future__ import annotations

import hashlib
import itertools
import math
import multiprocessing
import os
import random
import time
from collections import defaultdict, deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from briscola.ai.bot import DEFAULT_MOVE_LIMIT, Bot, Guarded, make_bot
from briscola.arena.sides import check_bots, seat_player
from briscola.arena.stats import Interval, Mean, elo_ratings, wilson
from briscola.engine.deal import Deal, shuffled_deal
from briscola.engine.errors import BriscolaError
from briscola.engine.rules import Rules
from briscola.engine.state import GameState
from briscola.host import Table

if TYPE_CHECKING:
    from briscola.arena.cluster import Cluster

ROTATIONS = 2
"""Games per deal for each pairing: the two bots trade places once."""


@dataclass(frozen=True)
class Arena:
    """What to play: a game with its house rules, the bots (level names or import
    specs), how many duplicate deals each pairing plays, and the seed."""

    game: str
    options: tuple[tuple[str, Any], ...]
    """House rules as (name, value) pairs, as given to ``Rules.make``."""
    bots: tuple[str, ...]
    deals: int
    seed: int
    move_limit: float | None = DEFAULT_MOVE_LIMIT
    """Seconds an outside bot may take over a move (``None``: no limit); the project's
    own levels are trusted and not timed (see :func:`~briscola.ai.bot.make_bot`)."""

    def rules(self) -> Rules:
        return Rules.make(self.game, dict(self.options))

    @property
    def pairings(self) -> list[tuple[int, int]]:
        """Every pair of bots (indices into ``bots``), in order."""
        n = len(self.bots)
        return [(a, b) for a in range(n) for b in range(a + 1, n)]

    @property
    def names(self) -> list[str]:
        """The bots' names, numbered when the same bot plays more than once."""
        out = []
        for i, spec in enumerate(self.bots):
            k = self.bots[:i].count(spec)
            out.append(spec if k == 0 else f"{spec}#{k + 1}")
        return out

    @property
    def games_per_pairing(self) -> int:
        return self.deals * ROTATIONS


def derive(*parts: object) -> int:
    """A 63-bit seed from the given parts, the same on every machine and process."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def make_deal(rules: Rules, seed: int, index: int) -> Deal:
    """Deal number ``index`` of an arena run with ``seed``."""
    return shuffled_deal(rules, index % rules.players, random.Random(derive(seed, "deal", index)))


def seat_bots(rules: Rules, pair: tuple[int, int], rotation: int) -> tuple[int, ...]:
    """Which bot of ``pair`` holds each seat in game ``rotation`` (0 or 1) of a deal."""
    slots = rules.sides if rules.teams else tuple((s,) for s in range(rules.players))
    out = [0] * rules.players
    for j, seats in enumerate(slots):
        for s in seats:
            out[s] = pair[(j + rotation) % 2]
    return tuple(out)


@dataclass(frozen=True)
class GameResult:
    """One finished game of the arena."""

    deal: int
    pairing: int
    rotation: int
    seats: tuple[int, ...]
    """The bot (index into the arena's bots) at each seat."""
    seat_points: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    """The sides at the end of the hand (in chiamata, the caller's side once known)."""
    points: tuple[int, ...]
    """Card points per side, as ``sides``."""
    winners: tuple[int, ...]
    scores: tuple[int, ...] | None
    """Chiamata: the score points of each seat."""
    think: tuple[float, ...]
    """Seconds each seat's bot spent choosing."""
    moves: tuple[int, ...]
    """Actions each seat's bot chose."""


class Stopped(Exception):
    """A worker was told to stop: another worker failed, or the run was interrupted."""


stop_event: Any = None
"""In a worker process: the event the parent sets to stop every worker."""


def start_worker(stop: Any) -> None:
    """A worker process's set-up: it keeps the parent's stop event."""
    global stop_event
    stop_event = stop


def play_game(
    rules: Rules, deal: Deal, bots: Sequence[Bot], names: Sequence[str]
) -> tuple[GameState, list[float], list[int]]:
    """Play one hand with ``bots[seat]`` at each seat, hosted by a
    :class:`~briscola.host.Table`: each bot sees only its seat's view, and is told of the
    hand first. An outside bot checks its own answers (see
    :class:`~briscola.ai.bot.Guarded`); the hand, each seat's seconds choosing and its
    moves are given back."""
    table = Table(GameState(rules, deal), dict(enumerate(bots)), dict(enumerate(names)))
    stop = stop_event
    while not table.over:
        if stop is not None and stop.is_set():
            raise Stopped
        table.run_bot()
    return table.state, table.think, table.moves


def play_deal(arena: Arena, rules: Rules, index: int) -> list[GameResult]:
    """Every game of deal ``index``: each pairing, each rotation."""
    deal = make_deal(rules, arena.seed, index)
    out = []
    for p, pair in enumerate(arena.pairings):
        for rotation in range(ROTATIONS):
            owners = seat_bots(rules, pair, rotation)
            names = [arena.names[b] for b in owners]
            bots = []
            for s, b in enumerate(owners):
                seed = derive(arena.seed, "bot", index, p, rotation, s)
                spec = seat_player(rules, arena.bots[b], s)
                bot = make_bot(spec, seed, arena.move_limit, arena.names[b])
                if isinstance(bot, Guarded):
                    bot.where = f"deal {index}"
                bots.append(bot)
            state, think, moves = play_game(rules, deal, bots, names)
            scores = next((x for a in state.addons if (x := a.scores(state)) is not None), None)
            out.append(
                GameResult(
                    deal=index,
                    pairing=p,
                    rotation=rotation,
                    seats=owners,
                    seat_points=tuple(state.seat_points),
                    sides=tuple(state.sides),
                    points=tuple(state.points),
                    winners=state.winners(),
                    scores=scores,
                    think=tuple(think),
                    moves=tuple(moves),
                )
            )
    return out


def play_deals(arena: Arena, indices: Sequence[int]) -> list[GameResult]:
    """Play the given deals (a worker's share)."""
    rules = arena.rules()
    out: list[GameResult] = []
    for d in indices:
        out.extend(play_deal(arena, rules, d))
    return out


def workers(jobs: int) -> int:
    """How many worker processes ``jobs`` gives: no more than the cores this process
    may run on (more would only share them)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(jobs, cores))


def chunk_size(remaining: int, slots: int, recording: bool) -> int:
    """Deals a worker is given at a time: about eight chunks for each of ``slots``
    workers, at most 50 deals, and at most 4 when the games are recorded (they are
    written as chunks finish: a run stopped loses little)."""
    size = max(1, min(50, math.ceil(remaining / (slots * 8))))
    return min(size, 4) if recording else size


def in_deal_order(
    executor: Executor,
    arena: Arena,
    todo: Iterator[int],
    size: int,
    slots: int,
    progress: Callable[[int], None] | None,
    record: Callable[[list[GameResult]], None] | None,
    watch: Callable[[Sequence[Future[list[GameResult]]]], None] | None = None,
) -> Generator[list[GameResult], None, None]:
    """Play the deals of ``todo`` on ``executor``'s workers, ``size`` deals a task and
    at most ``2 * slots`` tasks out at a time, and give back their games in deal order.
    ``progress`` is told as each task finishes, in any order; ``record`` is given the
    games in deal order, as they are given back, so a saved file is the same whatever
    the workers. ``watch(pending)`` is called every few seconds while waiting. The first
    task to fail raises its error here, and the tasks still out are cancelled."""
    chunks = iter(lambda: list(itertools.islice(todo, size)), [])
    window: deque[Future[list[GameResult]]] = deque()  # in deal order
    arrived: set[Future[list[GameResult]]] = set()
    try:
        while True:
            for chunk in itertools.islice(chunks, 2 * slots - len(window)):
                window.append(executor.submit(play_deals, arena, chunk))
            if not window:
                break
            out = [f for f in window if f not in arrived]
            ready, _ = wait(out, timeout=WATCH_EVERY, return_when=FIRST_COMPLETED)
            for future in ready:
                games = future.result()  # a worker's error is raised here
                arrived.add(future)
                if progress is not None:
                    progress(len(games))
            while window and window[0] in arrived:
                future = window.popleft()
                arrived.discard(future)
                games = future.result()
                if record is not None:
                    record(games)
                yield games
            if watch is not None:
                watch(window)
    except BaseException:
        for future in window:
            future.cancel()
        raise


WATCH_EVERY = 5.0
"""Seconds between looks at the cluster while waiting on its workers."""


def play_games(
    arena: Arena,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    done: Mapping[int, Sequence[GameResult]] | None = None,
    record: Callable[[list[GameResult]], None] | None = None,
    cluster: str | Cluster | None = None,
) -> Generator[list[GameResult], None, None]:
    """The games of the arena, a list of whole deals at a time: first the deals of
    ``done`` (kept from an earlier run, see :mod:`briscola.arena.log`), which are not
    played again, then the others in deal order as they are played, by this process,
    by at most :func:`workers` ``(jobs)`` worker processes, or by the workers of a Dask
    ``cluster`` (its scheduler's address, or a connected
    :class:`~briscola.arena.cluster.Cluster`; see :mod:`briscola.arena.cluster`). The
    games, and so the figures, are the same in every case. Deals are made as they are
    played, and only a few wait for a worker at a time, so memory does not grow with
    the number of deals. ``progress(games)`` is called as games finish;
    ``record(games)`` is given the games of newly played deals, in deal order. Local
    workers are started with "spawn": a script that calls this with ``jobs > 1`` needs
    the usual ``if __name__ == "__main__":`` guard. When a worker fails (a bot failed,
    or Ctrl-C), the others stop at their next move (a cluster's finish the chunk they
    hold) and the error is raised here."""
    rules = arena.rules()  # fails here, in the caller, on bad house rules
    check_bots(rules, arena.bots, arena.names, arena.move_limit)  # and on a bot not made
    if cluster is not None and jobs > 1:
        raise BriscolaError(
            f"jobs={jobs} with a cluster: the cluster's workers play the deals, as many at "
            "a time as they have threads; leave jobs out"
        )
    kept = {d: list(g) for d, g in (done or {}).items() if 0 <= d < arena.deals}
    if progress is not None and kept:
        progress(sum(len(g) for g in kept.values()))
    yield from kept.values()
    todo = (d for d in range(arena.deals) if d not in kept)
    remaining = arena.deals - len(kept)
    if cluster is not None:
        yield from cluster_games(arena, cluster, todo, remaining, progress, record)
        return
    jobs = workers(jobs)
    if jobs <= 1 or remaining <= 1:
        for d in todo:
            games = play_deal(arena, rules, d)
            if record is not None:
                record(games)
            if progress is not None:
                progress(len(games))
            yield games
        return
    size = chunk_size(remaining, jobs, record is not None)
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    with ProcessPoolExecutor(
        jobs, mp_context=context, initializer=start_worker, initargs=(stop,)
    ) as pool:
        try:
            yield from in_deal_order(pool, arena, todo, size, jobs, progress, record)
        except BaseException:
            stop.set()  # a bot failed, or Ctrl-C: every worker stops at its next move
            raise


def cluster_games(
    arena: Arena,
    cluster: str | Cluster,
    todo: Iterator[int],
    remaining: int,
    progress: Callable[[int], None] | None,
    record: Callable[[list[GameResult]], None] | None,
) -> Generator[list[GameResult], None, None]:
    """:func:`play_games` on a Dask cluster: connected to and checked first when given
    its address (a :class:`~briscola.arena.cluster.Cluster` given is taken as checked,
    as :func:`~briscola.arena.cluster.connect` does with the arena)."""
    from briscola.arena.cluster import connect, lost

    with connect(cluster, arena) if isinstance(cluster, str) else nullcontext(cluster) as c:
        slots = c.slots()
        size = chunk_size(remaining, slots, record is not None)
        since = [time.monotonic()]
        try:
            yield from in_deal_order(
                c.executor(),
                arena,
                todo,
                size,
                slots,
                progress,
                record,
                lambda pending: c.watch(pending, since),
            )
        except Exception as e:
            error = lost(e, c.address)
            if error is not None:
                raise error from None
            raise


def play_all(
    arena: Arena,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    done: Mapping[int, Sequence[GameResult]] | None = None,
    record: Callable[[list[GameResult]], None] | None = None,
    cluster: str | Cluster | None = None,
) -> list[GameResult]:
    """Every game of the arena, in deal order whatever the workers (see
    :func:`play_games`). The list grows with the games: :func:`run` keeps only their
    figures."""
    by_deal: dict[int, list[GameResult]] = {}
    for games in play_games(arena, jobs, progress, done, record, cluster):
        for g in games:
            by_deal.setdefault(g.deal, []).append(g)
    return [g for d in sorted(by_deal) for g in by_deal[d]]


# --------------------------------------------------------------------------- figures


@dataclass(frozen=True)
class Outcome:
    """One bot's result in one game (in chiamata: in one seat of one hand)."""

    bot: int
    opponent: int
    pairing: int
    deal: int
    result: float
    """1 a win, 0.5 a draw, 0 a loss."""
    points: float
    """Card points of its sides minus the opponent's (see the module's notes)."""
    chiamata: float | None = None
    """Chiamata: the seat's score points."""


def outcomes(results: Iterable[GameResult], per_seat: bool) -> list[Outcome]:
    """Each bot's outcome in each game; ``per_seat`` for chiamata."""
    out: list[Outcome] = []
    for g in results:
        out.extend(seat_outcomes(g) if per_seat else game_outcomes(g))
    return out


def game_outcomes(g: GameResult) -> list[Outcome]:
    """Each bot's result in a game: its sides (seats) against the other bot's."""
    winners = set(g.winners)
    bots = sorted(set(g.seats))
    points: dict[int, list[int]] = defaultdict(list)
    for side, pts in zip(g.sides, g.points, strict=True):
        points[g.seats[side[0]]].append(pts)
    out = []
    for bot in bots:
        other = next((b for b in bots if b != bot), bot)
        won = any(g.seats[s] == bot for s in winners)
        result = 0.5 if not winners else float(won)
        mine, theirs = points[bot], points[other]
        diff = sum(mine) / len(mine) - sum(theirs) / len(theirs)
        out.append(Outcome(bot, other, g.pairing, g.deal, result, diff))
    return out


def seat_outcomes(g: GameResult) -> list[Outcome]:
    """Chiamata: each seat's result, its side's points against the other side's."""
    winners = set(g.winners)
    bots = sorted(set(g.seats))
    out = []
    for seat, bot in enumerate(g.seats):
        other = next((b for b in bots if b != bot), bot)
        side = next(i for i, members in enumerate(g.sides) if seat in members)
        diff = 0.0 if not winners else float(2 * g.points[side] - sum(g.points))
        result = 0.5 if not winners else float(seat in winners)
        score = None if g.scores is None else float(g.scores[seat])
        out.append(Outcome(bot, other, g.pairing, g.deal, result, diff, score))
    return out


@dataclass(frozen=True)
class BotFigures:
    """What the arena says about one bot (over all its pairings)."""

    name: str
    spec: str
    games: int
    wins: int
    draws: int
    losses: int
    score: Interval
    points: Interval
    """Mean card-point difference per game."""
    ms_per_move: float
    chiamata: Interval | None = None
    """Chiamata: mean score points per seat and hand."""
    rating: float = 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "spec": self.spec,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": self.score.to_json(),
            "point_difference": self.points.to_json(2),
            "ms_per_move": round(self.ms_per_move, 4),
            "rating": round(self.rating, 1),
        }
        if self.chiamata is not None:
            out["chiamata_score"] = self.chiamata.to_json()
        return out


@dataclass(frozen=True)
class PairFigures:
    """One pairing: the first bot's figures against the second."""

    first: str
    second: str
    games: int
    """Games each bot played in this pairing."""
    score: Interval
    """The first bot's score."""
    points: Interval
    """The first bot's mean point difference."""
    second_score: Interval
    """The second bot's score (1 minus the first's, except in chiamata)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "bots": [self.first, self.second],
            "games": self.games,
            "score": self.score.to_json(),
            "point_difference": self.points.to_json(2),
            "second_score": self.second_score.to_json(),
        }


@dataclass(frozen=True)
class Report:
    """Everything the arena measured."""

    arena: Arena
    rules: dict[str, Any]
    bots: list[BotFigures]
    pairs: list[PairFigures]
    games: int
    """Games played in all."""
    per_seat: bool
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """All the figures as JSON. ``seating`` gives, for each game of a deal, which bot
        of a pair (0 the first, 1 the second) holds each seat."""
        a = self.arena
        return {
            "game": a.game,
            "rules": self.rules,
            "seed": a.seed,
            "deals": a.deals,
            "games_per_pairing": a.games_per_pairing,
            "games": self.games,
            "seating": [list(seat_bots(a.rules(), (0, 1), r)) for r in range(ROTATIONS)],
            "result_per": "seat" if self.per_seat else "game",
            "interval": "95%, normal approximation on the per-deal means",
            "bots": [b.to_json() for b in self.bots],
            "pairs": [p.to_json() for p in self.pairs],
            **self.extra,
        }


class Running:
    """The figures of one bot (or of one bot against another) as its games come in:
    counts and :class:`~briscola.arena.stats.Mean` sums of the per-deal means, not the
    games."""

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0
        self.draws = 0
        self.score = Mean()
        self.points = Mean()
        self.chiamata: Mean | None = None

    def add(self, group: Sequence[Outcome]) -> None:
        """The outcomes of one deal in one pairing."""
        k = len(group)
        self.games += k
        self.wins += sum(1 for o in group if o.result == 1.0)
        self.draws += sum(1 for o in group if o.result == 0.5)
        self.score.add(sum(o.result for o in group) / k)
        self.points.add(sum(o.points for o in group) / k)
        if group[0].chiamata is not None:
            self.chiamata = self.chiamata or Mean()
            self.chiamata.add(sum(o.chiamata or 0.0 for o in group) / k)

    def score_interval(self) -> Interval:
        """The score with its interval: normal on the per-deal means, clipped to 0..1;
        when those means do not vary (fewer than two deals, or the same result every
        time) the Wilson interval of the games stands in."""
        iv = self.score.interval()
        if self.score.n < 2 or not self.score.varies:
            w = wilson(self.wins + self.draws / 2, self.games)
            return Interval(iv.mean, w.low, w.high)
        return iv.clip(0.0, 1.0)


class Tally:
    """The figures of ``bots`` bots as outcomes come in, in any order: memory does not
    grow with the games, and the figures do not depend on their order."""

    def __init__(self, bots: int) -> None:
        self.bots = [Running() for _ in range(bots)]
        self.pairs: dict[tuple[int, int], Running] = defaultdict(Running)
        """(bot, opponent) -> the bot's figures against that opponent."""
        self.think = [0.0] * bots
        self.moves = [0] * bots
        self.games = 0

    def add_outcomes(self, items: Iterable[Outcome]) -> None:
        """Outcomes, every outcome of a deal in one pairing in the same call."""
        groups: dict[tuple[int, int, int], list[Outcome]] = defaultdict(list)
        for o in items:
            groups[(o.bot, o.pairing, o.deal)].append(o)
        for group in groups.values():
            self.bots[group[0].bot].add(group)
            self.pairs[(group[0].bot, group[0].opponent)].add(group)

    def add_games(self, games: Sequence[GameResult], per_seat: bool) -> None:
        """Finished games, every game of a deal in the same call; ``per_seat`` for
        chiamata."""
        for g in games:
            for seat, bot in enumerate(g.seats):
                self.think[bot] += g.think[seat]
                self.moves[bot] += g.moves[seat]
        self.games += len(games)
        self.add_outcomes(outcomes(games, per_seat))

    def figures(
        self, names: Sequence[str], specs: Sequence[str]
    ) -> tuple[list[BotFigures], list[PairFigures]]:
        """Per-bot and per-pairing figures."""
        pairs: list[PairFigures] = []
        pair_scores: dict[tuple[int, int], tuple[float, float]] = {}
        n = len(names)
        for a in range(n):
            for b in range(a + 1, n):
                mine = self.pairs.get((a, b))
                if mine is None:
                    continue
                score = mine.score_interval()
                other = self.pairs.get((b, a), Running()).score_interval()
                points = mine.points.interval()
                pairs.append(PairFigures(names[a], names[b], mine.games, score, points, other))
                pair_scores[(a, b)] = ((1 + score.mean - other.mean) / 2, float(mine.games))
        ratings = elo_ratings(n, pair_scores)
        bots: list[BotFigures] = []
        for i, r in enumerate(self.bots):
            seconds, moves = self.think[i], self.moves[i]
            bots.append(
                BotFigures(
                    name=names[i],
                    spec=specs[i],
                    games=r.games,
                    wins=r.wins,
                    draws=r.draws,
                    losses=r.games - r.wins - r.draws,
                    score=r.score_interval(),
                    points=r.points.interval(),
                    ms_per_move=1000 * seconds / moves if moves else 0.0,
                    chiamata=None if r.chiamata is None else r.chiamata.interval(),
                    rating=ratings[i],
                )
            )
        return bots, pairs


def figures(
    names: Sequence[str],
    specs: Sequence[str],
    items: Iterable[Outcome],
    think: Sequence[tuple[float, int]] | None = None,
) -> tuple[list[BotFigures], list[PairFigures]]:
    """Per-bot and per-pairing figures from the outcomes; ``think[bot]`` is (seconds
    choosing, moves chosen)."""
    tally = Tally(len(names))
    tally.add_outcomes(items)
    for i, (seconds, moves) in enumerate(think or ()):
        tally.think[i], tally.moves[i] = seconds, moves
    return tally.figures(names, specs)


def tally_report(arena: Arena, tally: Tally) -> Report:
    """The report of an arena from its tally."""
    rules = arena.rules()
    bots, pairs = tally.figures(arena.names, arena.bots)
    return Report(arena, rules.overrides(), bots, pairs, tally.games, rules.key == "chiamata")


def report(arena: Arena, results: Sequence[GameResult]) -> Report:
    """The figures of a finished arena run."""
    tally = Tally(len(arena.bots))
    tally.add_games(results, arena.rules().key == "chiamata")
    return tally_report(arena, tally)


def run(
    arena: Arena,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    done: Mapping[int, Sequence[GameResult]] | None = None,
    record: Callable[[list[GameResult]], None] | None = None,
    cluster: str | Cluster | None = None,
) -> Report:
    """Play the arena (see :func:`play_games`; on a Dask ``cluster`` given its address,
    see :mod:`briscola.arena.cluster`) and work out its figures, keeping only their sums
    (:class:`Tally`), not the games."""
    tally = Tally(len(arena.bots))
    per_seat = arena.rules().key == "chiamata"
    for games in play_games(arena, jobs, progress, done, record, cluster):
        tally.add_games(games, per_seat)
    return tally_report(arena, tally)
