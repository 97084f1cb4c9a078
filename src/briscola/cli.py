"""The ``briscola`` command: variants, replay, simulate, bench, arena, demo and play."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from briscola import recordfile
from briscola.bench import bench as run_bench
from briscola.bench import play_random_games
from briscola.engine import (
    GAMES,
    RULES,
    BriscolaError,
    GameState,
    MalformedError,
    Rules,
    parse_record,
    replay,
    shuffled_deal,
)
from briscola.engine.games import DECK_TITLES
from briscola.engine.record import Replay
from briscola.narrate import describe_points, narrate

if TYPE_CHECKING:
    from briscola.ai.arena import Report as ArenaReport
    from briscola.ai.stats import Interval as ArenaInterval

app = typer.Typer(
    help="The Briscola family of card games: rules, records, simulation and benchmarks.",
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
GameOption = Annotated[
    str, typer.Option("--game", "-g", help="Game key, as listed by `briscola variants`.")
]


def fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(code)


def make_rules(game: str, rules: list[str] | None) -> Rules:
    options: dict[str, object] = {}
    for item in rules or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise fail(f"--rule {item!r}: write NAME=VALUE, like --rule match=one-hand")
        options[name.strip()] = int(value) if value.strip().isdigit() else value.strip()
    try:
        return Rules.make(game, options)
    except BriscolaError as e:
        raise fail(str(e)) from None


# --------------------------------------------------------------------------- variants


def variants_json() -> list[dict[str, Any]]:
    games = []
    for game in GAMES.values():
        sides: dict[str, list[list[int]]] = {}
        cards: dict[str, int] = {}
        for p in game.players:
            rules = Rules.make(game, {"players": p} if "players" in game.rules else {})
            sides[str(p)] = [list(s) for s in rules.sides]
            cards[str(p)] = len(rules.deck) - len(rules.removals[0])
        base = Rules.make(game)
        games.append(
            {
                "key": game.key,
                "name": game.name,
                "summary": game.summary,
                "players": list(game.players),
                "teams": sides,
                "deck": {
                    "name": game.deck_name,
                    "title": DECK_TITLES[game.deck_name],
                    "cards": cards,
                },
                "hand_size": game.hand_size,
                "plays_per_trick": game.rounds,
                "turned_trump": game.turned_trump,
                "rules": [
                    {
                        "name": name,
                        "help": RULES[name].help,
                        "choices": list(RULES[name].choices)
                        if name != "players"
                        else list(game.players),
                        "default": base.options[name],
                    }
                    for name in game.rules
                ],
            }
        )
    return games


@app.command()
def variants(as_json: JsonFlag = False) -> None:
    """List every game with its players, teams, deck and house rules."""
    data = variants_json()
    if as_json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return
    for g in data:
        players = ", ".join(str(p) for p in g["players"])
        out.print(f"[bold]{g['key']}[/]  {g['name']}: {g['summary']}")
        teamed = [p for p, s in g["teams"].items() if len(s) < int(p)]
        teams = f"; in teams with {', '.join(teamed)}" if teamed else "; each alone"
        out.print(f"  players {players}{teams}; {g['deck']['title']}; {g['hand_size']} cards each")
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
        table.add_column("  house rule")
        table.add_column("default")
        table.add_column("choices")
        for r in g["rules"]:
            table.add_row(
                f"  {r['name']}", str(r["default"]), " ".join(str(c) for c in r["choices"])
            )
        out.print(table)
        out.print()


# --------------------------------------------------------------------------- replay


def read_records(path: str) -> Iterator[tuple[int, object]]:
    """Yield (line number, JSON value or MalformedError) for each record of the file at
    ``path`` (``-``: standard input), read as :mod:`briscola.recordfile` says."""
    try:
        with nullcontext(sys.stdin.buffer) if path == "-" else open(path, "rb") as stream:
            yield from recordfile.read_records(stream)
    except OSError as e:
        raise fail(f"{path}: cannot read the file ({e.strerror or e})") from None


def print_replay(result: Replay) -> None:
    state = result.state
    for line in narrate(state, result.events):
        out.print(line)
    if state.trick:
        table = ", ".join(f"{s}:{c}" for s, c in zip(state.order, state.trick, strict=False))
        out.print(f"on the table  {table}")
    status = "finished" if state.over else "not finished"
    won = state.winners()
    who = f"; seats {', '.join(str(s) for s in won)} win" if won else ""
    out.print(f"points  {describe_points(state)}  ({status}{who})")
    score = result.to_json().get("score")
    if score is not None:
        out.print(f"score   {'  '.join(f'{s}: {x:+d}' for s, x in enumerate(score))}")


@app.command("replay")
def replay_cmd(
    file: Annotated[str, typer.Argument(help="A record file (JSON, or JSON Lines); - for stdin.")],
    as_json: JsonFlag = False,
) -> None:
    """Check game records and report their tricks and result.

    Exit status 2 for a malformed record, 1 for an illegal move, 0 otherwise.
    """
    status = 0
    for line, value in read_records(file):
        try:
            if isinstance(value, Exception):
                raise value
            record = parse_record(value)
        except MalformedError as e:
            err.print(f"[bold red]error:[/] {escape(f'{file}, line {line}: {e}')}")
            if as_json:
                print(json.dumps({"line": line, "error": str(e)}))
            status = 2
            continue
        result = replay(record)
        if as_json:
            print(json.dumps(result.to_json()))
        else:
            print_replay(result)
        if result.error is not None:
            where = f"{file}, line {line}: {result.error.message()}"
            err.print(f"[bold red]illegal move:[/] {escape(where)}")
            status = max(status, 1)
    raise typer.Exit(status)


# --------------------------------------------------------------------------- simulate


def random_game(rules: Rules, rng: random.Random, dealer: int) -> tuple[GameState, list[str]]:
    state = GameState(rules, shuffled_deal(rules, dealer, rng))
    lines: list[str] = []
    while not state.over:
        actions = state.legal_actions()
        events = state.apply(rng.choice(actions))
        lines.extend(narrate(state, events))
    return state, lines


@app.command()
def simulate(
    game: GameOption = "briscola-2",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many hands.")] = 1,
    seed: Annotated[int, typer.Option(help="Seed of the deals and of the random play.")] = 0,
    rule: RuleOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Play random legal hands: one is printed trick by trick, many are summed up.

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
        state, _ = random_game(rules, rng, g % rules.players)
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
    for side, w, t in zip(rules.sides, wins, totals, strict=True):
        seats = "+".join(str(s) for s in side)
        out.print(f"  seats {seats:7s} won {w:6d}  mean points {t / games:6.2f}")
    out.print(f"  hands with no winner {ties}; {tricks / games:.1f} tricks a hand")


def print_deal(state: GameState) -> None:
    deal = state.deal
    out.print(f"[bold]{state.rules.game.name}[/] ({state.rules.key}), dealer seat {deal.dealer}")
    for s, h in enumerate(deal.hands):
        out.print(f"  seat {s}: {' '.join(str(c) for c in h)}")
    if deal.trump is not None:
        out.print(f"  turned card {deal.trump}: trump is {deal.trump.suit.italian}")
    else:
        out.print("  no trump")


def print_replay_footer(state: GameState) -> None:
    won = state.winners()
    result = f"seats {', '.join(str(s) for s in won)} win" if won else "no winner"
    out.print(f"points  {describe_points(state)}: {result}")
    score = Replay(state).to_json().get("score")
    if score is not None:
        out.print(f"score   {'  '.join(f'{s}: {x:+d}' for s, x in enumerate(score))}")


# --------------------------------------------------------------------------- bench


@app.command()
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
    """Random-play throughput on one core: the reference engine for each game, and the
    search bots' fast core."""
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
                "games": r.games,
                "seconds": round(r.seconds, 4),
                "games_per_second": round(r.games_per_second, 1),
                "actions_per_second": round(r.actions_per_second, 1),
            }
        )
    if fast and "briscola-2" in keys:
        from briscola.ai.fast import bench_fast  # imported here: it loads numba

        rate = bench_fast(games * 100)
        rows.append(
            {
                "game": "briscola-2",
                "engine": "fast core",
                "games": games * 100,
                "seconds": round(games * 100 / rate, 4),
                "games_per_second": round(rate, 1),
                "actions_per_second": round(rate * 40, 1),
            }
        )
    if as_json:
        print(json.dumps(rows))
        return
    table = Table(title="random play, one core (best of 5 slices)")
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


@app.command()
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
    save: Annotated[
        Path | None,
        typer.Option(
            help="Keep every finished game in this file (JSON lines). Run again with the "
            "same file to go on where a run stopped, or with more --games to add deals.",
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """Bots play duplicate deals against each other: each bot's score with its 95%
    interval, point difference and time per move; with more than two bots, every pair
    plays the same deals and a rating table follows."""
    from briscola.ai import arena as arenas  # imported here: loading the bots takes a moment
    from briscola.ai.arena_log import ArenaLog
    from briscola.ai.bot import make_bot

    rules = make_rules(game, rule)
    if len(bots) < 2:
        raise fail(
            f"the arena needs at least two bots, got {len(bots)}: for example "
            "`briscola arena intermediate random`"
        )
    for spec in bots:
        try:
            make_bot(spec, seed=0)
        except BriscolaError as e:
            raise fail(str(e)) from None
    deals = -(-games // arenas.ROTATIONS)
    setup = arenas.Arena(rules.key, tuple(rules.overrides().items()), tuple(bots), deals, seed)
    if setup.games_per_pairing != games and not as_json:
        err.print(
            f"{games} games asked: playing {setup.games_per_pairing}, since each deal is "
            f"played {arenas.ROTATIONS} times"
        )
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


@app.command()
def demo(
    game: GameOption = "briscola-2",
    seed: Annotated[
        int | None, typer.Option(help="Seed for a repeatable game (default: a fresh deal).")
    ] = None,
    rule: RuleOption = None,
) -> None:
    """Watch computer players play a hand, trick by trick, with their hands shown."""
    rules = make_rules(game, rule)
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    state = GameState(rules, shuffled_deal(rules, rules.players - 1, rng))
    print_deal(state)
    out.print()
    shown_at = -1
    while not state.over:
        if not state.trick and state.phase == "play" and shown_at != len(state.tricks):
            shown_at = len(state.tricks)
            hands = "  ".join(
                f"seat {s}: {' '.join(str(c) for c in h)}" for s, h in enumerate(state.hands)
            )
            out.print(f"[dim]{hands}[/]")
        events = state.apply(rng.choice(state.legal_actions()))
        for line in narrate(state, events):
            out.print(line)
    print_replay_footer(state)


# --------------------------------------------------------------------------- play


@app.command()
def play(
    game: GameOption = "briscola-2",
    rule: RuleOption = None,
    seat: Annotated[int, typer.Option(help="Your seat (0 leads the first trick).")] = 0,
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
    plain: Annotated[
        bool, typer.Option("--plain", help="Line by line: read moves from standard input.")
    ] = False,
    save: Annotated[
        str | None, typer.Option(help="Write the records of the hands to this file at the end.")
    ] = None,
) -> None:
    """Play against the computer in the terminal: a full-screen game, or --plain."""
    from briscola.ai import make_bot  # imported here: loading the bots takes a moment
    from briscola.session import Session

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
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    try:
        bots = {
            s: make_bot(level, seed=None if seed is None else seed + s)
            for s, level in zip(others, levels, strict=True)
        }
        session = Session(rules, seat, bots, rng)
    except (BriscolaError, ValueError) as e:
        raise fail(str(e)) from None
    if plain:
        from briscola.plain import run_plain

        def read() -> str | None:
            line = sys.stdin.readline()
            return line if line else None

        raise typer.Exit(run_plain(session, read, sys.stdout, save_to=save))
    from briscola.tui import PlayApp

    raise typer.Exit(PlayApp(session, save_to=save).run() or 0)


DEFAULT_BOT = "intermediate"


def main() -> None:
    app()


if __name__ == "__main__":
    main()
