"""``briscola play`` and ``briscola join``: a person at a table, local
(:mod:`briscola.terminal.local`, against computer players) or online
(:mod:`briscola.terminal.remote`), played in the full-screen game
(:mod:`briscola.terminal.screen`) or line by line (:mod:`briscola.terminal.plain`)."""

from __future__ import annotations

import random
import secrets
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from briscola.engine import BriscolaError, Rules
from briscola.terminal.cli.common import (
    MISSING_EXTRA,
    MOVE_LIMIT,
    GameOption,
    LangOption,
    MoveLimitOption,
    PlainFlag,
    RuleOption,
    err,
    fail,
    make_rules,
    pick_language,
)
from briscola.words.catalogue import catalogue

if TYPE_CHECKING:
    from briscola.terminal.local import Session
    from briscola.terminal.screen import PlayApp

DEFAULT_BOT = "intermediate"


def play(
    game: GameOption = "briscola-2",
    rule: RuleOption = None,
    seat: Annotated[
        int | None,
        typer.Option(
            help="Your seat, counted from 1 as the table counts them (1 leads the first "
            "trick; default 1). Online: the seat to take (default: the first open one)."
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
    points: Annotated[
        str | None,
        typer.Option(
            metavar="hidden|shown",
            help="The points taken during a hand: hidden (by default: counted in your "
            "head, as at the kitchen table; the hand's end shows them) or shown. An online "
            "table has its own setting.",
        ),
    ] = None,
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
    lang: LangOption = None,
) -> None:
    """Play against the computer in the terminal, or at an online table.

    A full-screen game, or with --plain a line-by-line game that reads one move a line
    from standard input. With --server, the same game at a table of `briscola serve`.
    """
    language = pick_language(lang)
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
        if points is not None:
            raise fail(
                "--points is the local game's: an online table has its own setting, chosen "
                "by its host as it is opened"
            )
        play_online(server, table, name, seat, start, plain, save, new, language)
        return
    if table is not None or name is not None or start:
        raise fail("--table, --name and --start are for an online table: give --server URL")
    from briscola.ai.bot import BotError, make_bot  # here: loading the bots takes a moment
    from briscola.terminal.local import Session

    rules = make_rules(game, rule)
    seat = 0 if seat is None else seat_index(seat, rules, language)
    others = [s for s in range(rules.players) if s != seat]
    levels = other_levels(bot or [DEFAULT_BOT], len(others))
    screen = ready_to_play(plain, save, "--plain (briscola play --plain)")
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    try:
        bots = {
            s: make_bot(level, None if seed is None else seed + s, move_limit or None)
            for s, level in zip(others, levels, strict=True)
        }
        session = Session(
            rules,
            seat,
            bots,
            rng,
            lang=language,
            points=points_setting(points),
            name_seed=str(seed) if seed is not None else secrets.token_urlsafe(6),
        )
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
    assert screen is not None  # not plain: ready_to_play gave the screen
    app = screen(session, save_to=save)
    app.run()
    # A crash inside the screen is status 1 (Textual prints its traceback), never 0.
    raise typer.Exit(1 if app.return_code is None else app.return_code)


def points_setting(points: str | None) -> str:
    """``--points``: ``hidden`` (by default) or ``shown``, any case."""
    chosen = (points or "hidden").strip().lower()
    if chosen not in ("hidden", "shown"):
        raise fail(f"--points is hidden or shown, not {points!r}")
    return chosen


def other_levels(levels: list[str], count: int, what: str = "") -> list[str]:
    """The levels (or, online, ``open``) of the ``count`` other seats, from ``--bot``: one
    given for all of them, or one for each."""
    others = levels * count if len(levels) == 1 else levels
    if len(others) != count:
        raise fail(
            f"give one --bot for all the other seats, or one for each of the {count} "
            f"other seats{what}; got {len(levels)}"
        )
    return others


def ready_to_play(plain: bool, save: str | None, plain_hint: str) -> type[PlayApp] | None:
    """What a game needs, checked before a table is made or joined: the full-screen game
    (unless ``plain``) its library and a terminal, ``--save`` a file it can write. Gives
    the full-screen game's class, or ``None`` for the line-by-line game; ``plain_hint`` is
    how the refusal of a missing terminal says to play line by line."""
    screen = None
    if not plain:
        try:
            from briscola.terminal.screen import PlayApp
        except ImportError as e:
            missing = MISSING_EXTRA.format(what=e.name, extra="tui")
            raise fail(f"the full-screen game needs {missing}; or play with --plain") from None
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise fail(
                "the full-screen game needs a terminal, and this input or output is not one: "
                f"play line by line with {plain_hint}"
            )
        screen = PlayApp
    if save is not None:
        from briscola.terminal.seat import check_save_path

        try:
            check_save_path(save)
        except BriscolaError as e:
            raise fail(str(e)) from None
    return screen


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
        typer.Option(help="The seat to take, counted from 1 (default: the first open one)."),
    ] = None,
    start: StartOption = False,
    plain: PlainFlag = False,
    save: Annotated[
        str | None,
        typer.Option(
            help="Save the records of the table's finished hands to this file at the end."
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Sit at an online table and play there: the same as play --server URL.

    Takes a nickname and a seat, waits for the match to start, then plays it in the
    full-screen game, or line by line with --plain (say TEXT chats to the table).
    """
    play_online(url, table, name, seat, start, plain, save, lang=pick_language(lang))


def play_online(
    url: str,
    table: str | None,
    name: str | None,
    seat: int | None,
    start: bool,
    plain: bool,
    save: str | None,
    new: tuple[Rules, list[str]] | None = None,
    lang: str = "en",
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
        others = other_levels(levels, rules.players - 1, " (a level, or open for a person)")
        if seat is not None:
            seat = seat_index(seat, rules, lang)
    else:
        seat = None if seat is None else seat - 1  # the server says when there is no such seat
        try:
            parse_link(url, table)
        except RemoteError as e:
            raise fail(str(e)) from None
    screen = ready_to_play(plain, save, "--plain")
    if name is None and sys.stdin.isatty():
        name = typer.prompt("your nickname", default=default_name())
    try:
        if new is not None:
            remote = open_new(url, new[0].key, new[0].overrides(), others, name, seat or 0, lang)
            start = True
        else:
            remote = join(url, table, name, seat, lang)
    except RemoteError as e:
        raise fail(str(e)) from None

    def say(*lines: str) -> None:
        for line in lines:
            print(line, flush=True)

    words = remote.seating.words
    try:
        seated = words.say("play.seated", seat=remote.seat + 1, token=remote.token,
                           game=remote.rules.key)  # fmt: skip
        say(seated)
        if new is not None:
            say(words.say("play.link", link=f"{remote.base}/t/{remote.token}"))
        remote.wait_start(say, start)
        if plain:
            from briscola.terminal.plain import line_reader, run_plain

            status = run_plain(remote, line_reader(sys.stdin.buffer), sys.stdout, save_to=save)
        else:
            assert screen is not None  # not plain: ready_to_play gave the screen
            app = screen(remote, save_to=save, pace=0)
            app.run()
            status = 1 if app.return_code is None else app.return_code
    except KeyboardInterrupt:
        say(words.say("play.left_table"))
        status = 1
    except RemoteError as e:
        sys.stdout.flush()
        raise fail(str(e), 1) from None
    finally:
        remote.close()
    raise typer.Exit(status)


def save_after_failure(session: Session, path: str) -> None:
    """``--save`` when a game stopped on an error: keep what was played."""
    if not session.records and not session.hand.moves:
        return  # nothing was played
    try:
        err.print(f"saved the records of what was played to {session.save(path)}")
    except BriscolaError as e:
        err.print(f"[bold red]error:[/] {e}")


def seat_index(seat: int, rules: Rules, lang: str) -> int:
    """The engine's seat (from 0) of ``--seat`` as a person gives it (from 1, as the table
    and the browser count seats); a clear error when the game has no such seat."""
    if not 1 <= seat <= rules.players:
        raise fail(catalogue(lang).say("play.bad_seat", game=rules.key, n=rules.players))
    return seat - 1
