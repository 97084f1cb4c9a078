"""``briscola play --plain``: a line-by-line game for any terminal and for scripts.

It prints what your seat sees and reads one move a line from standard input: the
number of an action in the list, a card (``5b``), ``pass``, ``bid K``, ``bid 75``,
``call Kd``, or a command: ``last`` (the last trick, where the rules allow),
``save [FILE]``, ``help``, ``quit``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TextIO

from briscola.engine import BriscolaError, Card, MalformedError
from briscola.engine.actions import Action, Bid, Play, action_from_json
from briscola.engine.views import View
from briscola.narrate import describe_action, describe_view
from briscola.session import Session

HELP = """\
type the number of an action, or a card (5b), pass, bid K, bid 75, call Kd;
  last: show the last trick (where the rules allow); save [FILE]: save the records;
  help: this text; quit: leave the match"""

MAX_LISTED_BIDS = 4


def menu(view: View) -> list[tuple[int, Action]]:
    """The numbered actions to show: every legal action, but only the first few of the
    many "2 at N" bids (type ``bid N`` for the others)."""
    out = []
    points_bids = 0
    for i, action in enumerate(view.legal, 1):
        if isinstance(action, Bid) and action.points is not None:
            points_bids += 1
            if points_bids > MAX_LISTED_BIDS:
                continue
        out.append((i, action))
    return out


def parse_move(text: str, view: View) -> Action:
    """Read a move typed by a person; raises :class:`MalformedError` saying what to type."""
    word = text.strip()
    legal = view.legal
    if word.isdigit():
        index = int(word)
        if 1 <= index <= len(legal):
            return legal[index - 1]
        raise MalformedError(f"there is no action {index}: choose 1 to {len(legal)}")
    parts = word.split()
    seat = view.seat if view.seat is not None else 0
    if len(parts) == 1 and parts[0].lower() == "pass":
        return action_from_json({"seat": seat, "bid": "pass"})
    if len(parts) == 2 and parts[0].lower() in ("bid", "call", "exchange", "signal", "look"):
        kind, value = parts[0].lower(), parts[1]
        arg: object = int(value) if value.isdigit() else value
        return action_from_json({"seat": seat, kind: arg})
    if len(parts) == 1:
        try:
            card = Card.parse(word)
        except MalformedError:
            pass
        else:
            return Play(seat, card)
    raise MalformedError(f"{word!r} is not a move; type help for the choices")


def prompt_lines(session: Session) -> Iterator[str]:
    view = session.view()
    yield from describe_view(view)
    for i, action in menu(view):
        yield f"  {i}) {describe_action(action)}"
    hidden = len(view.legal) - len(menu(view))
    if hidden:
        yield f"  ... {hidden} more bids: type bid N (61 to 120)"


def run_plain(
    session: Session,
    read: Callable[[], str | None],
    out: TextIO,
    save_to: str | None = None,
) -> int:
    """Play the session to the end, reading moves with ``read`` (``None`` at the end of
    input). Returns the exit status: 0 when the match was played to the end."""

    def say(*lines: str) -> None:
        for line in lines:
            print(line, file=out)
        out.flush()

    say(f"{session.rules.game.name}: you are seat {session.seat}", *session.opening())
    status = 0
    while not session.over:
        say(*session.run_bots())
        if session.over:
            break
        say("", *prompt_lines(session), "your move:")
        line = read()
        if line is None:
            say("the input ended before the match did: the match is left unfinished")
            status = 1
            break
        command = line.strip().lower()
        if not command:
            continue
        if command in ("quit", "q", "exit"):
            say("you left the match")
            status = 1
            break
        if command in ("help", "?"):
            say(HELP)
            continue
        if command == "last":
            last = session.view().last_trick
            if last is None:
                say("no trick to show (none taken yet, or the table does not allow it)")
            else:
                cards = ", ".join(f"{s}:{c}" for s, c in zip(last.seats, last.cards, strict=True))
                say(f"last trick: {cards}, taken by seat {last.winner}")
            continue
        if command.split()[0] == "save":
            parts = line.split()
            path = session.save(parts[1] if len(parts) > 1 else save_to or "briscola-match.jsonl")
            say(f"saved the records to {path}")
            continue
        try:
            say(*session.act(parse_move(line, session.view())))
        except BriscolaError as e:
            say(f"cannot do that: {e}")
    if not session.over:
        say(session.standing())
    if save_to is not None:
        say(f"saved the records to {session.save(save_to)}")
    return status
