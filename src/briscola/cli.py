"""The ``briscola`` command: variants, replay, simulate, bench, arena, demo and play."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import nullcontext
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from briscola.bench import bench as run_bench
from briscola.bench import play_random_games
from briscola.catalog import variants_json
from briscola.engine import (
    GAMES,
    Action,
    BriscolaError,
    GameState,
    MalformedError,
    Rules,
    View,
    parse_record,
    replay,
    shuffled_deal,
)
from briscola.engine.record import Replay
from briscola.narrate import describe_points, narrate
from briscola.speech import suit_name
from briscola.terminal import recordfile

if TYPE_CHECKING:
    from briscola.arena.duplicate import Report as ArenaReport
    from briscola.arena.stats import Interval as ArenaInterval
    from briscola.host import Table as TableHost
    from briscola.terminal.local import Session


def untyped_flags(params: list[Any]) -> list[Any]:
    """The parameters, each flag (``--json``, ``--help``) with an empty metavar, so that
    its help shows no value type after it: it takes no value (Typer 0.29 writes
    ``<bool>`` there)."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class Group(typer.core.TyperGroup):
    """The ``briscola`` command group, its flags shown without a value type."""

    def get_params(self, ctx: Any) -> list[Any]:
        return untyped_flags(super().get_params(ctx))


class Command(typer.core.TyperCommand):
    """A ``briscola`` command, its flags shown without a value type."""

    def get_params(self, ctx: Any) -> list[Any]:
        return untyped_flags(super().get_params(ctx))


app = typer.Typer(
    cls=Group,
    # markdown: each paragraph of a docstring is wrapped to the terminal, whatever the
    # lines of the source (the rich mode keeps them)
    rich_markup_mode="markdown",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
RuleOption = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        "-r",
        help="A house rule as NAME=VALUE (repeatable); `briscola variants` lists them.",
    ),
]
MOVE_LIMIT = 10.0
"""The default --move-limit: ``briscola.ai.bot.DEFAULT_MOVE_LIMIT`` (not imported here, so
that commands without bots start fast)."""
MoveLimitOption = Annotated[
    float,
    typer.Option(
        "--move-limit",
        min=0,
        metavar="SECONDS",
        help="Seconds a computer player from outside (an import spec) may take over a move, "
        "or to be made; one that takes longer stops the game with an error. 0: no limit. "
        "The built-in levels are not timed.",
    ),
]
PlainFlag = Annotated[
    bool, typer.Option("--plain", help="Line by line: read moves from standard input.")
]
GameOption = Annotated[
    str, typer.Option("--game", "-g", help="Game key, as listed by `briscola variants`.")
]


def print_version(wanted: bool) -> None:
    if wanted:
        out.print(f"briscola {version('briscola')}")
        raise typer.Exit()


@app.callback()
def briscola(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            callback=print_version,
            is_eager=True,
            help="Print the version of briscola and exit.",
        ),
    ] = False,
) -> None:
    """The Briscola family of card games: rules, records, simulation and benchmarks."""


def fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(code)


def make_rules(game: str, rules: list[str] | None) -> Rules:
    options: dict[str, object] = {}
    for item in rules or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise fail(f"--rule {item!r}: write NAME=VALUE, like --rule match=one-hand")
        options[name.strip()] = value  # the engine reads numbers from text (ASCII digits)
    try:
        return Rules.make(game, options)
    except BriscolaError as e:
        raise fail(str(e)) from None


# --------------------------------------------------------------------------- variants


@app.command(cls=Command)
def variants(as_json: JsonFlag = False) -> None:
    """List every game with its players, teams, deck and house rules."""
    data = variants_json()
    if as_json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return
    for g in data:
        out.print(f"[bold]{g['key']}[/]  {g['name']}: {g['summary']}")
        dealt = all(s["players"] * g["hand_size"] == s["cards"] for s in g["seatings"])
        hand = f"{g['hand_size']} cards each{', all dealt' if dealt else ''}"
        twice = "; each plays twice to a trick" if g["plays_per_trick"] == 2 else ""
        out.print(f"  {g['seating']}; {g['deck']['in_words']}; {hand}{twice}")
        out.print("  house rules (default first):")
        for r in g["rules"]:
            others = [str(c) for c in r["choices"] if c != r["default"]]
            others += [p["pattern"] for p in r["patterns"]]
            out.print(f"    [bold]{r['name']}[/]: {' | '.join([str(r['default']), *others])}")
            spans = {(p["min"], p["max"]): p["pattern"] for p in r["patterns"]}
            ranges = [
                f"{'N' if len(spans) == 1 else pattern} from {low} to {high}"
                for (low, high), pattern in spans.items()
            ]
            accepts = f" ({'; '.join(ranges)})" if ranges else ""
            out.print(f"      {r['help']}{accepts}", style="dim")
        out.print()


# --------------------------------------------------------------------------- replay


def read_records(path: str) -> Iterator[tuple[int, object]]:
    """Yield (line number, JSON value or MalformedError) for each record of the file at
    ``path`` (``-``: standard input), read as :mod:`briscola.terminal.recordfile` says."""
    try:
        with nullcontext(sys.stdin.buffer) if path == "-" else open(path, "rb") as stream:
            yield from recordfile.read_records(stream)
    except OSError as e:
        raise fail(f"{path}: cannot read the file ({e.strerror or e})") from None


T = TypeVar("T")


class Records:
    """The records of a file, each read by ``parse``: one that is malformed is told (a
    line on standard error, and a JSON line under ``--json``) and skipped, and makes the
    command's :attr:`status` 2."""

    def __init__(self, path: str, as_json: bool) -> None:
        self.path = path
        self.as_json = as_json
        self.status = 0

    def each(self, parse: Callable[[object], T]) -> Iterator[tuple[int, T]]:
        """(line number, what ``parse`` made of the record) for each well-formed record."""
        for line, value in read_records(self.path):
            try:
                if isinstance(value, Exception):
                    raise value
                parsed = parse(value)
            except MalformedError as e:
                err.print(f"[bold red]error:[/] {escape(f'{self.path}, line {line}: {e}')}")
                if self.as_json:
                    print(json.dumps({"line": line, "error": str(e)}))
                self.status = 2
                continue
            yield line, parsed


def print_replay(result: Replay) -> None:
    state = result.state
    for line in narrate(state, result.events):
        out.print(line)
    if state.trick:
        table = ", ".join(f"{s}:{c}" for s, c in zip(state.order, state.trick, strict=False))
        out.print(f"on the table  {table}")
    status = "finished" if state.over else "not finished"
    won = state.winners()
    who = f"; {who_win(won)}" if won else ""
    out.print(f"points  {describe_points(state)}  ({status}{who})")
    score = result.to_json().get("score")
    if score is not None:
        out.print(f"score   {'  '.join(f'{s}: {x:+d}' for s, x in enumerate(score))}")


@app.command("replay", cls=Command)
def replay_cmd(
    file: Annotated[str, typer.Argument(help="A record file (JSON, or JSON Lines); - for stdin.")],
    as_json: JsonFlag = False,
) -> None:
    """Check game records and report their tricks and result.

    Exit status 2 for a malformed record, 1 for an illegal move, 0 otherwise.
    """
    records = Records(file, as_json)
    for line, record in records.each(parse_record):
        result = replay(record)
        if as_json:
            print(json.dumps(result.to_json()))
        else:
            print_replay(result)
        if result.error is not None:
            where = f"{file}, line {line}: {result.error.message()}"
            err.print(f"[bold red]illegal move:[/] {escape(where)}")
            records.status = max(records.status, 1)
    raise typer.Exit(records.status)


# --------------------------------------------------------------------------- verify


@app.command("verify", cls=Command)
def verify_cmd(
    file: Annotated[str, typer.Argument(help="A record file (JSON, or JSON Lines); - for stdin.")],
    as_json: JsonFlag = False,
) -> None:
    """Check each hand of downloaded records against the commitment its table published.

    The deal is hashed again with the salt revealed at the end of the hand
    (docs/fairness.md). Exit status 1 when a hand does not match its commitment, 2 for a
    malformed record or one with no commitment or no revealed salt, 0 when all match.
    """
    from briscola.fairness import check_record

    records = Records(file, as_json)
    for line, checks in records.each(check_record):
        if as_json:
            hands = [c.to_json() for c in checks]
            print(json.dumps({"line": line, "ok": all(c.ok for c in checks), "hands": hands}))
        for c in checks:
            hand = "the hand" if c.hand is None else f"hands[{c.hand}]"
            if c.ok:
                if not as_json:
                    out.print(f"line {line}: {hand} matches its commitment {c.commitment}")
                continue
            err.print(
                f"[bold red]mismatch:[/] {escape(f'{file}, line {line}: {hand}')}: the "
                f"commitment is {c.commitment}, the deal and salt give {c.computed}"
            )
            records.status = max(records.status, 1)
    raise typer.Exit(records.status)


# --------------------------------------------------------------------------- simulate


class RandomPlayer:
    """A computer player that picks a random legal action with the caller's ``rng`` (the
    one the deals come from, so that a seed fixes the whole game)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: View) -> Action:
        return self.rng.choice(view.legal)

    def choose_legal(self, legal: Sequence[Action]) -> Action:
        """The same choice from the legal actions alone: the host then builds no view."""
        return self.rng.choice(legal)


def random_table(rules: Rules, rng: random.Random, dealer: int) -> TableHost:
    """A hand dealt with ``rng``, a :class:`RandomPlayer` of ``rng`` at every seat."""
    from briscola.host import Table as TableHost  # here: the players' package loads slowly

    state = GameState(rules, shuffled_deal(rules, dealer, rng))
    player = RandomPlayer(rng)
    return TableHost(state, dict.fromkeys(range(rules.players), player))


def random_game(
    rules: Rules, rng: random.Random, dealer: int, told: bool = True
) -> tuple[GameState, list[str]]:
    """Play a hand of random legal moves; return its end and, when ``told``, the lines
    that tell it (narrated as it is played, since a line reads the state of its time)."""
    table = random_table(rules, rng, dealer)
    lines: list[str] = []
    while not table.over:
        step = table.run_bot()
        if told:
            lines.extend(narrate(table.state, step.events))
    return table.state, lines


@app.command(cls=Command)
def simulate(
    game: GameOption = "briscola-2",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many hands.")] = 1,
    seed: Annotated[int, typer.Option(help="Seed of the deals and of the random play.")] = 0,
    rule: RuleOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Play random legal hands: one trick by trick, or many summed up.

    One hand (the default) is printed with its deal, every trick and the result; with
    --games N the hands are only counted: wins, mean points and tricks of each side.
    With --json, one hand is printed as its record (which `briscola replay` reads), many
    as a summary.
    """
    rules = make_rules(game, rule)
    rng = random.Random(seed)
    if games == 1:
        state, lines = random_game(rules, rng, 0)
        if as_json:
            print(json.dumps(state.to_record()))
            return
        print_deal(state)
        for line in lines:
            out.print(line)
        print_replay_footer(state)
        return
    sides = len(rules.sides)
    wins = [0] * sides
    totals = [0] * sides
    ties = 0
    tricks = 0
    for g in range(games):
        state, _ = random_game(rules, rng, g % rules.players, told=False)
        won = set(state.winners())
        for i, side in enumerate(rules.sides):
            wins[i] += bool(won & set(side))
            totals[i] += sum(state.seat_points[s] for s in side)
        ties += not won
        tricks += len(state.tricks)
    summary = {
        "game": rules.key,
        "rules": rules.overrides(),
        "games": games,
        "seed": seed,
        "sides": [list(s) for s in rules.sides],
        "wins": wins,
        "ties": ties,
        "mean_points": [t / games for t in totals],
        "mean_tricks": tricks / games,
    }
    if as_json:
        print(json.dumps(summary))
        return
    out.print(f"{games} random hands of {rules.key} (seed {seed}); dealer rotating")
    width = max(len(seats_words(side, "+")) for side in rules.sides)
    for side, w, t in zip(rules.sides, wins, totals, strict=True):
        seats = seats_words(side, "+")
        out.print(f"  {seats:{width}s} won {w:6d}  mean points {t / games:6.2f}")
    out.print(f"  hands with no winner {ties}; {tricks / games:.1f} tricks a hand")


def seats_words(seats: Sequence[int], join: str = ", ") -> str:
    """``seat 1``, ``seats 1, 3, 4`` (or ``seats 1+3+4`` with ``join="+"``)."""
    return f"seat{'s' * (len(seats) > 1)} {join.join(str(s) for s in seats)}"


def who_win(seats: Sequence[int]) -> str:
    """``seat 1 wins``, ``seats 1, 3, 4 win``."""
    return f"{seats_words(seats)} {'wins' if len(seats) == 1 else 'win'}"


def print_deal(state: GameState) -> None:
    deal = state.deal
    rules = state.rules
    out.print(f"[bold]{rules.game.name}[/] ({rules.key}), dealer seat {deal.dealer}")
    for s, h in enumerate(deal.hands):
        out.print(f"  seat {s}: {' '.join(str(c) for c in h)}")
    if deal.trump is not None:
        trump = suit_name(deal.trump.suit, rules.game.deck_name)
        out.print(f"  turned card {deal.trump}: trump is {trump}")
    elif rules.key == "chiamata":
        out.print("  no turned card: the suit of the card the auction's winner calls is trump")
    else:
        out.print("  no trump")


def print_replay_footer(state: GameState) -> None:
    won = state.winners()
    result = who_win(won) if won else "no winner"
    out.print(f"points  {describe_points(state)}: {result}")
    score = Replay(state).to_json().get("score")
    if score is not None:
        out.print(f"score   {'  '.join(f'{s}: {x:+d}' for s, x in enumerate(score))}")


# --------------------------------------------------------------------------- bench


@app.command(cls=Command)
def bench(
    games: Annotated[
        int, typer.Option("--games", "-n", min=5, help="Hands of random play per game.")
    ] = 5000,
    game: Annotated[
        list[str] | None, typer.Option("--game", "-g", help="Only these games (repeatable).")
    ] = None,
    fast: Annotated[
        bool,
        typer.Option(
            "--fast/--no-fast",
            help="Also time the search bots' fast core (briscola-2; 100 times --games hands).",
        ),
    ] = True,
    as_json: JsonFlag = False,
) -> None:
    """Time random play on one core, in CPU time.

    Random hands of each game in the reference engine, and of briscola-2 in the search
    bots' fast core: games and card plays a second of the process's CPU time (the best
    of five slices), so that the time the machine gives to other work does not count.
    """
    keys = game or list(GAMES)
    rows = []
    for key in keys:
        rules = make_rules(key, None)
        play_random_games(rules, 20, 0)  # warm up the rule set's caches
        r = run_bench(rules, games)
        rows.append(
            {
                "game": r.game,
                "engine": "reference",
                "clock": "cpu",
                "games": r.games,
                "seconds": round(r.seconds, 4),
                "games_per_second": round(r.games_per_second, 1),
                "actions_per_second": round(r.actions_per_second, 1),
            }
        )
    rate: float | None = None
    if fast and "briscola-2" in keys:
        try:  # imported here: it loads numba (the ai extra)
            from briscola.ai.cores.head_to_head import bench_fast
        except ImportError as e:
            missing = MISSING_EXTRA.format(what=e.name, extra="ai")
            err.print(f"the fast core is not timed: it needs {missing}")
        else:
            rate = bench_fast(games * 100)
    if rate is not None:
        rows.append(
            {
                "game": "briscola-2",
                "engine": "fast core",
                "clock": "cpu",
                "games": games * 100,
                "seconds": round(games * 100 / rate, 4),
                "games_per_second": round(rate, 1),
                "actions_per_second": round(rate * 40, 1),
            }
        )
    if as_json:
        print(json.dumps(rows))
        return
    table = Table(title="random play on one core, in CPU time (best of 5 slices)")
    table.add_column("game")
    table.add_column("engine")
    table.add_column("games/s", justify="right")
    table.add_column("actions/s", justify="right")
    for row in rows:
        table.add_row(
            str(row["game"]),
            str(row["engine"]),
            f"{row['games_per_second']:,.0f}",
            f"{row['actions_per_second']:,.0f}",
        )
    out.print(table)


# --------------------------------------------------------------------------- arena


@app.command(cls=Command)
def arena(
    bots: Annotated[
        list[str],
        typer.Argument(
            help="Two or more bots: levels (random, beginner, intermediate, and the stronger "
            "ones when installed) or import specs package.module:factory, where "
            "factory(seed=...) returns a bot.",
            show_default=False,
        ),
    ],
    game: GameOption = "briscola-2",
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            min=1,
            help="Games for each pair of bots; every deal is played twice, the bots trading seats.",
        ),
    ] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the deals and of the bots.")] = 0,
    rule: RuleOption = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", min=1, help="Worker processes; the results do not depend on it."
        ),
    ] = 1,
    as_json: JsonFlag = False,
    move_limit: MoveLimitOption = MOVE_LIMIT,
    save: Annotated[
        Path | None,
        typer.Option(
            help="Keep every finished game in this file (JSON lines). Run again with the "
            "same file to go on where a run stopped, or with more --games to add deals.",
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """Computer players play duplicate deals against each other.

    Each bot's score with its 95% interval, point difference and time per move; with
    more than two bots, every pair plays the same deals and a rating table follows.
    """
    from briscola.ai.bot import make_bot
    from briscola.arena import duplicate as arenas  # imported here: loading the bots takes a moment
    from briscola.arena.log import ArenaLog

    rules = make_rules(game, rule)
    if len(bots) < 2:
        raise fail(
            f"the arena needs at least two bots, got {len(bots)}: for example "
            "`briscola arena intermediate random`"
        )
    deals = -(-games // arenas.ROTATIONS)
    options = tuple(rules.overrides().items())
    limit = move_limit or None
    setup = arenas.Arena(rules.key, options, tuple(bots), deals, seed, limit)
    for spec, name in zip(setup.bots, setup.names, strict=True):
        try:
            make_bot(spec, 0, limit, name)
        except BriscolaError as e:
            raise fail(str(e)) from None
    if setup.games_per_pairing != games and not as_json:
        err.print(
            f"{games} games asked: playing {setup.games_per_pairing}, since each deal is "
            f"played {arenas.ROTATIONS} times"
        )
    if arenas.workers(jobs) < jobs and not as_json:
        n = arenas.workers(jobs)
        workers = f"{n} worker process{'es' * (n > 1)}"
        err.print(f"--jobs {jobs}: {workers}, one for each core this run may use")
    log = ArenaLog(save, setup) if save is not None else None
    try:
        done = log.load() if log is not None else None
        record = log.append if log is not None else None
        if as_json:
            report = arenas.run(setup, jobs, done=done, record=record)
        else:
            total = setup.games_per_pairing * len(setup.pairings)
            with Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=err,
                transient=True,
                disable=not err.is_terminal,
            ) as progress:
                task = progress.add_task(f"{rules.key} games", total=total)
                report = arenas.run(setup, jobs, lambda k: progress.advance(task, k), done, record)
    except BriscolaError as e:
        raise fail(str(e)) from None
    except OSError as e:  # --save: a folder that is not there, no right to write...
        raise fail(f"cannot keep the games in {save}: {e.strerror or e}") from None
    if as_json:
        print(json.dumps(report.to_json()))
        return
    print_arena(report)


def span(iv: ArenaInterval) -> str:
    """A score's interval, ``low-high``."""
    return f"{iv.low:.3f}-{iv.high:.3f}"


def plus_minus(iv: ArenaInterval, digits: int = 1) -> str:
    """A mean with its symmetric interval, ``+13.9 ±6.9``."""
    return f"{iv.mean:+.{digits}f} ±{(iv.high - iv.low) / 2:.{digits}f}"


def print_arena(report: ArenaReport) -> None:
    a = report.arena
    pairs = len(a.pairings)
    rules = " ".join(f"{k}={v}" for k, v in report.rules.items())
    out.print(
        f"[bold]{a.game}[/]{' ' + rules if rules else ''}, seed {a.seed}: "
        f"{a.games_per_pairing} games for each of {pairs} pair{'s' * (pairs > 1)} of bots "
        f"({a.deals} deals, each played twice with the bots trading seats)"
    )
    if report.per_seat:
        out.print("chiamata: each seat a bot holds in a hand counts as one game")
    table = Table(box=None, padding=(0, 1), header_style="bold")
    table.add_column("bot", no_wrap=True, min_width=max(len(b.name) for b in report.bots))
    for name in ("games", "won", "drew", "lost", "score"):
        table.add_column(name, justify="right")
    table.add_column("95%", no_wrap=True)
    table.add_column("points (95%)", justify="right", no_wrap=True)
    table.add_column("ms", justify="right")
    for b in report.bots:
        row = [b.name, str(b.games), str(b.wins), str(b.draws), str(b.losses)]
        row += [f"{b.score.mean:.3f}", span(b.score), plus_minus(b.points)]
        row.append(f"{b.ms_per_move:.3f}")
        table.add_row(*row)
    out.print(table)
    out.print(
        "[dim]score: (won + drew/2) / games; points: the mean card-point difference a game; "
        "95% intervals on the per-deal means; ms: the bot's mean time a move[/]"
    )
    if report.per_seat:
        chiamata = Table(box=None, padding=(0, 1), header_style="bold")
        chiamata.add_column("bot")
        chiamata.add_column("chiamata score a hand (95%)", justify="right")
        for b in report.bots:
            if b.chiamata is not None:
                chiamata.add_row(b.name, plus_minus(b.chiamata, 3))
        out.print()
        out.print(chiamata)
    if len(report.bots) <= 2:
        return
    pair_table = Table(box=None, padding=(0, 1), header_style="bold")
    pair_table.add_column("pair")
    pair_table.add_column("score of the first", justify="right")
    pair_table.add_column("95%", no_wrap=True)
    pair_table.add_column("points (95%)", justify="right", no_wrap=True)
    for p in report.pairs:
        score = p.score
        pair_table.add_row(
            f"{p.first} v {p.second}", f"{score.mean:.3f}", span(score), plus_minus(p.points)
        )
    out.print()
    out.print(pair_table)
    ratings = Table(box=None, padding=(0, 1), header_style="bold")
    ratings.add_column("bot")
    ratings.add_column("rating", justify="right")
    for b in sorted(report.bots, key=lambda b: -b.rating):
        ratings.add_row(b.name, f"{b.rating:+.0f}")
    out.print()
    out.print(ratings)
    out.print("[dim]rating: Elo-like, fitted to the pairwise scores, mean 0[/]")


# --------------------------------------------------------------------------- demo


@app.command(cls=Command)
def demo(
    game: GameOption = "briscola-2",
    seed: Annotated[
        int | None, typer.Option(help="Seed for a repeatable game (default: a fresh deal).")
    ] = None,
    rule: RuleOption = None,
) -> None:
    """Watch a hand of random play, trick by trick.

    Every seat plays a random legal card; each seat's hand is shown before each trick.
    """
    rules = make_rules(game, rule)
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    table = random_table(rules, rng, rules.players - 1)
    state = table.state
    print_deal(state)
    out.print()
    shown_at = -1
    while not table.over:
        if not state.trick and state.phase == "play" and shown_at != len(state.tricks):
            shown_at = len(state.tricks)
            hands = "  ".join(
                f"seat {s}: {' '.join(str(c) for c in h)}" for s, h in enumerate(state.hands)
            )
            out.print(f"[dim]{hands}[/]")
        step = table.run_bot()  # the demo shows every seat: the events as they are
        for line in narrate(state, step.events):
            out.print(line)
    print_replay_footer(state)


# --------------------------------------------------------------------------- play


@app.command(cls=Command)
def play(
    game: GameOption = "briscola-2",
    rule: RuleOption = None,
    seat: Annotated[
        int | None,
        typer.Option(
            help="Your seat (0 leads the first trick; default 0). Online: the seat to take "
            "(default: the first open one)."
        ),
    ] = None,
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            "-b",
            help="The computer players: one level for every other seat, or one per other "
            "seat in order (repeatable). Levels: see `briscola arena --help`.",
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed for repeatable deals and bots (default: fresh).")
    ] = None,
    move_limit: MoveLimitOption = MOVE_LIMIT,
    plain: PlainFlag = False,
    save: Annotated[
        str | None,
        typer.Option(
            help="Save the records of the hands to this file when the match ends or you "
            "leave it (checked before the first deal)."
        ),
    ] = None,
    server: Annotated[
        str | None,
        typer.Option(
            "--server",
            metavar="URL",
            help="Play at an online table: its invite link (http://HOST:PORT/t/TOKEN), or "
            "the server's address with --table. The server's address alone opens a new "
            "table of --game with --rule, --bot (a level, or open for a person) at each "
            "other seat, and tells its link.",
        ),
    ] = None,
    table: TableOption = None,
    name: NameOption = None,
    start: StartOption = False,
) -> None:
    """Play against the computer in the terminal, or at an online table.

    A full-screen game, or with --plain a line-by-line game that reads one move a line
    from standard input. With --server, the same game at a table of `briscola serve`.
    """
    if server is not None:
        from briscola.terminal.remote import names_table

        new = None
        if not names_table(server, table):  # the server's address: a new table of --game
            new = make_rules(game, rule), bot or ["open"]
        elif bot or rule:
            raise fail(
                "--bot and --rule are for a new table: this table's host chose its seats "
                "and rules; leave them out, or give the server's address to open a table"
            )
        if seed is not None:
            raise fail("--seed is the local game's: an online table deals with secrets")
        play_online(server, table, name, seat, start, plain, save, new)
        return
    if table is not None or name is not None or start:
        raise fail("--table, --name and --start are for an online table: give --server URL")
    seat = 0 if seat is None else seat
    from briscola.ai.bot import BotError, make_bot  # here: loading the bots takes a moment
    from briscola.terminal.local import Session

    rules = make_rules(game, rule)
    others = [s for s in range(rules.players) if s != seat]
    levels = bot or [DEFAULT_BOT]
    if len(levels) == 1:
        levels = levels * len(others)
    if len(levels) != len(others):
        raise fail(
            f"give one --bot for all the other seats, or one for each of the {len(others)} "
            f"other seats; got {len(levels)}"
        )
    if not plain:
        try:
            from briscola.terminal.screen import PlayApp
        except ImportError as e:
            missing = MISSING_EXTRA.format(what=e.name, extra="tui")
            raise fail(f"the full-screen game needs {missing}; or play with --plain") from None
    if not plain and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise fail(
            "the full-screen game needs a terminal, and this input or output is not one: "
            "play line by line with --plain (briscola play --plain)"
        )
    if save is not None:
        from briscola.terminal.seat import check_save_path

        try:
            check_save_path(save)
        except BriscolaError as e:
            raise fail(str(e)) from None
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    try:
        bots = {
            s: make_bot(level, None if seed is None else seed + s, move_limit or None)
            for s, level in zip(others, levels, strict=True)
        }
        session = Session(rules, seat, bots, rng)
    except (BriscolaError, ValueError) as e:
        raise fail(str(e)) from None
    if plain:
        from briscola.terminal.plain import line_reader, run_plain

        read = line_reader(sys.stdin.buffer)
        try:
            status = run_plain(session, read, sys.stdout, save_to=save)
        except BotError as e:
            sys.stdout.flush()
            if save is not None:
                save_after_failure(session, save)
            raise fail(str(e)) from None
        raise typer.Exit(status)
    screen = PlayApp(session, save_to=save)
    screen.run()
    # A crash inside the screen is status 1 (Textual prints its traceback), never 0.
    raise typer.Exit(1 if screen.return_code is None else screen.return_code)


TableOption = Annotated[
    str | None,
    typer.Option(
        "--table", metavar="TOKEN", help="The table's token, when URL is the server's address."
    ),
]
NameOption = Annotated[
    str | None,
    typer.Option(
        "--name",
        metavar="NICKNAME",
        help="Your nickname at the table (default: asked at a terminal, else your login name).",
    ),
]
StartOption = Annotated[
    bool,
    typer.Option("--start", help="As the table's host: start the match once every seat is filled."),
]


@app.command(cls=Command)
def join(
    url: Annotated[
        str,
        typer.Argument(
            metavar="URL",
            help="The table's invite link (http://HOST:PORT/t/TOKEN), or the server's "
            "address with --table.",
        ),
    ],
    table: TableOption = None,
    name: NameOption = None,
    seat: Annotated[
        int | None,
        typer.Option(help="The seat to take (default: the first open one)."),
    ] = None,
    start: StartOption = False,
    plain: PlainFlag = False,
    save: Annotated[
        str | None,
        typer.Option(
            help="Save the records of the table's finished hands to this file at the end."
        ),
    ] = None,
) -> None:
    """Sit at an online table and play there: the same as play --server URL.

    Takes a nickname and a seat, waits for the match to start, then plays it in the
    full-screen game, or line by line with --plain (say TEXT chats to the table).
    """
    play_online(url, table, name, seat, start, plain, save)


def play_online(
    url: str,
    table: str | None,
    name: str | None,
    seat: int | None,
    start: bool,
    plain: bool,
    save: str | None,
    new: tuple[Rules, list[str]] | None = None,
) -> None:
    """``play --server`` and ``join``: a seat at an online table, played to the end. With
    ``new`` (the rules and the other seats' levels or ``open``), a new table is opened
    first, its link told, and it is started once every seat is filled."""
    try:
        from briscola.terminal.remote import RemoteError, default_name, join, open_new, parse_link
    except ImportError as e:
        raise fail(
            MISSING_EXTRA.format(what=f"online play needs {e.name}", extra="server")
        ) from None
    others: list[str] = []
    if new is not None:
        rules, levels = new
        count = rules.players - 1
        others = levels * count if len(levels) == 1 else levels
        if len(others) != count:
            raise fail(
                f"give one --bot for all the other seats, or one for each of the {count} "
                f"other seats (a level, or open for a person); got {len(levels)}"
            )
        if seat is not None and not 0 <= seat < rules.players:
            raise fail(f"--seat: {rules.key} has seats 0 to {rules.players - 1}")
    else:
        try:
            parse_link(url, table)
        except RemoteError as e:
            raise fail(str(e)) from None
    if not plain:
        try:
            from briscola.terminal.screen import PlayApp
        except ImportError as e:
            missing = MISSING_EXTRA.format(what=e.name, extra="tui")
            raise fail(f"the full-screen game needs {missing}; or play with --plain") from None
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise fail(
                "the full-screen game needs a terminal, and this input or output is not one: "
                "play line by line with --plain"
            )
    if save is not None:
        from briscola.terminal.seat import check_save_path

        try:
            check_save_path(save)
        except BriscolaError as e:
            raise fail(str(e)) from None
    if name is None and sys.stdin.isatty():
        name = typer.prompt("your nickname", default=default_name())
    try:
        if new is not None:
            remote = open_new(url, new[0].key, new[0].overrides(), others, name, seat or 0)
            start = True
        else:
            remote = join(url, table, name, seat)
    except RemoteError as e:
        raise fail(str(e)) from None

    def say(*lines: str) -> None:
        for line in lines:
            print(line, flush=True)

    try:
        say(f"you sit at seat {remote.seat} of table {remote.token} ({remote.rules.key})")
        if new is not None:
            say(f"the table's link, for the others: {remote.base}/t/{remote.token}")
        remote.wait_start(say, start)
        if plain:
            from briscola.terminal.plain import line_reader, run_plain

            status = run_plain(remote, line_reader(sys.stdin.buffer), sys.stdout, save_to=save)
        else:
            screen = PlayApp(remote, save_to=save, pace=0)
            screen.run()
            status = 1 if screen.return_code is None else screen.return_code
    except KeyboardInterrupt:
        say("you left the table")
        status = 1
    except RemoteError as e:
        sys.stdout.flush()
        raise fail(str(e), 1) from None
    finally:
        remote.close()
    raise typer.Exit(status)


# --------------------------------------------------------------------------- cards


@app.command(cls=Command)
def cards(
    out_dir: Annotated[
        Path, typer.Option("--out", "-o", help="The folder to write the pictures in.")
    ],
    style: Annotated[
        str,
        typer.Option("--style", "-s", help="napoletane, spanish or french; all: every style."),
    ] = "all",
) -> None:
    """Write the card art of a style (or all) as SVG files, with an index.html to see them.

    Every face, the back and the empty place of each style, one file each, and an
    index.html showing them in a grid: a contact sheet to look at."""
    from html import escape as html_escape

    from briscola.web import art

    styles = art.STYLES if style == "all" else (style,)
    if style != "all" and style not in art.STYLES:
        raise fail(f"--style {style!r}: choose {', '.join(art.STYLES)} or all")
    sections = []
    try:
        for key in styles:
            folder = out_dir / key
            folder.mkdir(parents=True, exist_ok=True)
            cells = []
            for name in art.pictures(key):
                (folder / f"{name}.svg").write_text(art.picture(key, name), encoding="utf-8")
                label = html_escape(art.card_title(key, name) if len(name) == 2 else name)
                cells.append(
                    f'<figure><img src="{key}/{name}.svg" alt="{label}">'
                    f"<figcaption>{name}: {label}</figcaption></figure>"
                )
            sections.append(f"<h2>{key}</h2><div>{''.join(cells)}</div>")
        index = out_dir / "index.html"
        index.write_text(CONTACT_SHEET.format(body="".join(sections)), encoding="utf-8")
    except OSError as e:
        raise fail(f"--out {out_dir}: cannot write the pictures: {e.strerror or e}") from None
    out.print(f"wrote {index}")


CONTACT_SHEET = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>briscola: the cards</title>
<style>body{{font-family:sans-serif;background:#2e6b3f;color:#fff}}
div{{display:flex;flex-wrap:wrap;gap:12px}}figure{{margin:0;width:120px;font-size:12px}}
img{{width:120px;display:block}}</style></head><body>{body}</body></html>
"""


# --------------------------------------------------------------------------- serve


@app.command(cls=Command)
def serve(
    data: Annotated[
        Path,
        typer.Option(
            "--data",
            metavar="DIR",
            help="The folder of the SQLite database (made if missing, its owner's alone).",
        ),
    ] = Path("briscola-data"),
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            metavar="URL",
            help="A PostgreSQL database, as postgresql+asyncpg://USER@HOST/DB, instead of "
            "SQLite in the data folder.",
        ),
    ] = None,
    host: Annotated[
        str,
        typer.Option(
            metavar="ADDRESS", help="The address to listen at; 0.0.0.0 for every network."
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, metavar="PORT", help="The port; 0 takes a free one.")
    ] = 8000,
    grace: Annotated[
        float,
        typer.Option(
            min=0,
            metavar="SECONDS",
            help="How long a player may be away from a table in play before a computer "
            "player stands in for them.",
        ),
    ] = 60.0,
    bot_delay: Annotated[
        float,
        typer.Option(min=0, max=10, metavar="SECONDS", help="The pause before each computer move."),
    ] = 0.6,
    min_clock: Annotated[
        float,
        typer.Option(
            min=0, metavar="SECONDS", help="The shortest per-move clock a table may have."
        ),
    ] = 5.0,
    public_url: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help="Behind a reverse proxy, the address people open (https://cards.example.org): "
            "pages of that origin alone may act, and over https the session cookie is Secure.",
        ),
    ] = None,
    session_days: Annotated[
        float,
        typer.Option(
            metavar="DAYS",
            help="How long a session lasts unused before its nickname must be chosen again.",
        ),
    ] = 90.0,
    limits: Annotated[
        str,
        typer.Option(
            metavar="on|off",
            help="Limits per person and per address (sessions and tables made, public tables "
            "and connections open at once); off for benchmarks and tests only.",
        ),
    ] = "on",
    log_level: Annotated[str, typer.Option(help="debug, info, warning or error.")] = "warning",
) -> None:
    """Serve online tables: the REST API, its page at /docs, and each table's WebSocket.

    Prints the URL once it listens."""
    try:
        from briscola.server.limits import OFF, Limits
        from briscola.server.run import AddressError, DatabaseError
        from briscola.server.run import serve as run_server
        from briscola.server.settings import ServerSettings
    except ImportError as e:
        raise fail(MISSING_EXTRA.format(what=f"serving needs {e.name}", extra="server")) from None
    if log_level not in ("debug", "info", "warning", "error"):
        raise fail(f"--log-level is debug, info, warning or error, not {log_level!r}")
    if not 0 < session_days <= 3650:
        raise fail(f"--session-days is more than 0 and at most 3650, not {session_days:g}")
    if limits not in ("on", "off"):
        raise fail(f"--limits is on or off, not {limits!r}")
    if public_url is not None:
        from briscola.server.guard import origin_of

        try:
            origin_of(public_url)
        except ValueError as e:
            raise fail(f"--public-url: {e}") from None
    if data.exists() and not data.is_dir():
        raise fail(f"--data {data}: it is a file; name a folder (it is made if missing)")
    if database_url and not database_url.startswith(
        ("postgresql+asyncpg://", "sqlite+aiosqlite://")
    ):
        raise fail(
            "--database-url: use postgresql+asyncpg://user:password@host/db "
            "(or sqlite+aiosqlite:///path/briscola.db)"
        )
    try:
        data.mkdir(mode=0o700, parents=True, exist_ok=True)  # private: ServerSettings.data_folder
    except OSError as e:
        raise fail(f"--data {data}: cannot make the folder: {e.strerror}") from None
    settings = ServerSettings(
        data=data,
        database_url=database_url,
        grace=grace,
        bot_delay=bot_delay,
        min_clock=min_clock,
        public_url=public_url,
        session_idle=session_days * 24 * 3600,
        limits=OFF if limits == "off" else Limits(),
    )
    try:
        run_server(settings, host=host, port=port, log_level=log_level)
    except (AddressError, DatabaseError) as e:
        raise fail(str(e)) from None
    except OSError as e:
        raise fail(f"cannot serve at {host}:{port}: {e.strerror or e}") from None


DEFAULT_BOT = "intermediate"

MISSING_EXTRA = "{what}, which is not installed (pip install 'briscola[{extra}]')"


def save_after_failure(session: Session, path: str) -> None:
    """``--save`` when a game stopped on an error: keep what was played."""
    if not session.records and not session.hand.moves:
        return  # nothing was played
    try:
        err.print(f"saved the records of what was played to {session.save(path)}")
    except BriscolaError as e:
        err.print(f"[bold red]error:[/] {e}")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
