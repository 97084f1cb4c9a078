"""``briscola replay`` and ``briscola verify``: the records of a file (JSON, or JSON
Lines, read as :mod:`briscola.terminal.recordfile` says), each checked and reported."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import nullcontext
from typing import Annotated, TypeVar

import typer
from rich.markup import escape

from briscola.engine import MalformedError, parse_record, replay
from briscola.engine.record import Replay
from briscola.terminal import recordfile
from briscola.terminal.cli.common import JsonFlag, err, fail, out
from briscola.words.cards import STYLE_OF_DECK
from briscola.words.narrate import Narrator, describe_points, record_json
from briscola.words.seating import Lettered


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
    voice = Lettered(style=STYLE_OF_DECK[state.rules.game.deck_name])  # Rc: as the cards show
    for line in Narrator(state.rules, voice).tell(list(record_json(result.events))):
        out.print(line)
    if state.trick:
        table = ", ".join(
            f"{s}:{voice.card(c)}" for s, c in zip(state.order, state.trick, strict=False)
        )
        out.print(f"on the table  {table}")
    status = "finished" if state.over else "not finished"
    won = state.winners()
    who = f"; {who_win(won)}" if won else ""
    out.print(f"points  {describe_points(state.sides, state.points)}  ({status}{who})")
    score = result.to_json().get("score")
    if score is not None:
        out.print(f"score   {'  '.join(f'{s}: {x:+d}' for s, x in enumerate(score))}")


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


def verify_cmd(
    file: Annotated[str, typer.Argument(help="A record file (JSON, or JSON Lines); - for stdin.")],
    as_json: JsonFlag = False,
) -> None:
    """Check each hand of downloaded records against the commitment its table published.

    The deal is hashed again with the salt revealed at the end of the hand
    (docs/fairness.md). Exit status 1 when a hand does not match its commitment, 2 for a
    malformed record or one with no commitment or no revealed salt, 0 when all match.
    """
    from briscola.fair_shuffle import check_record

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


def seats_words(seats: Sequence[int], join: str = ", ") -> str:
    """``seat 1``, ``seats 1, 3, 4`` (or ``seats 1+3+4`` with ``join="+"``)."""
    return f"seat{'s' * (len(seats) > 1)} {join.join(str(s) for s in seats)}"


def who_win(seats: Sequence[int]) -> str:
    """``seat 1 wins``, ``seats 1, 3, 4 win``."""
    return f"{seats_words(seats)} {'wins' if len(seats) == 1 else 'win'}"
