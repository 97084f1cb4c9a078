"""``briscola play --plain``: a line-by-line game for any terminal and for scripts.

It prints what your seat sees and reads one move a line from standard input: the
number of a choice in the list, a card (``5b``; a court by its deck's letter, ``Fs``
for the fante of spade, or the notation's, ``Js``), ``pass``, ``bid R`` (``bid K``),
``bid 75``, ``call Rd``, ``exchange 7d``, ``signal ace``, or a command: ``last`` (the last trick,
where the rules allow), ``analyse`` (what each card of the last finished hand cost; it
is offered once more when the match is over), ``hint`` (the strong player's card and
each card's value, at a practice table or one that gives hints), ``save [FILE]``,
``say TEXT`` (chat, at an online table), ``help``, ``quit``. The table is a local
:class:`~briscola.terminal.local.Session` or an online one
(:mod:`briscola.terminal.remote`): the same :class:`~briscola.terminal.seat.Source`. The
moves are read as
:mod:`briscola.terminal.moves` says, as the full-screen game reads them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import BinaryIO, TextIO

from briscola.engine import BriscolaError
from briscola.engine.actions import Play
from briscola.engine.cards import Rank
from briscola.engine.views import View
from briscola.terminal.moves import last_trick_text, menu, parse_move
from briscola.terminal.seat import DEFAULT_SAVE, Source
from briscola.words.narrate import describe_action, describe_view


def prompt_lines(session: Source) -> Iterator[str]:
    view = session.view()
    voice = session.seating
    words = voice.words
    yield from describe_view(view.to_json(), voice, session.drawn)
    choices = menu(view, voice)
    for i, action in choices:
        if isinstance(action, Play):
            drawn = words.say("plain.just_drawn") if action.card is session.drawn else ""
            name = voice.card(action.card)
            code = voice.short(action.card)
            yield words.say("plain.card_choice", n=i, code=code, card=name, drawn=drawn)
        else:
            yield words.say("plain.choice", n=i, action=describe_action(action.to_json(), voice))
    hidden = len(view.legal) - len(choices)
    if hidden:
        yield words.say("plain.more_bids", n=hidden)


def save_text(session: Source, path: str) -> str:
    """Save the records during the match and say so, or say why they could not be saved."""
    words = session.seating.words
    try:
        return words.say("plain.saved", path=session.save(path))
    except BriscolaError as e:
        return words.say("plain.not_saved", why=e)


MAX_LINE = 1000
"""The longest line a move is read from; the rest of a longer line is skipped."""


def line_reader(stream: BinaryIO) -> Callable[[], str | None]:
    """Read one typed line at a time from a byte stream (``None`` at its end): bytes that
    are not UTF-8 become replacement marks, and a line longer than :data:`MAX_LINE` is cut
    there (its rest skipped), so no input can crash the game or fill the memory."""

    def read() -> str | None:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            return None
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            while (rest := stream.readline(1 << 16)) and not rest.endswith(b"\n"):
                pass
        return line[:MAX_LINE].decode("utf-8", errors="replace")

    return read


def run_plain(
    session: Source,
    read: Callable[[], str | None],
    out: TextIO,
    save_to: str | None = None,
) -> int:
    """Play the session to the end, reading moves with ``read`` (``None`` at the end of
    input). Returns the exit status: 0 when the match was played to the end."""

    words = session.seating.words

    def say(*lines: str) -> None:
        for line in lines:
            print(line, file=out)
        out.flush()

    say(*session.opening())
    status = 0
    shown: View | None = None
    """The view the last prompt showed (``None``: show the next one)."""
    try:
        while not session.over:
            say(*session.poll())
            if shown is None or session.view() != shown:
                while not session.over and not session.my_turn():
                    say(*session.advance())
                if session.over:
                    break
                shown = session.view()
                say("", *prompt_lines(session))
            say(words.say("plain.your_move"))
            line = read()
            if line is None:
                say(words.say("plain.input_ended"))
                status = 1
                break
            command = line.strip().lower()
            if not command:
                continue
            if command in ("quit", "q", "exit"):
                say(words.say("plain.left"))
                status = 1
                break
            if command in ("help", "?"):
                king = session.seating.letter(Rank.KING)
                say(words.say("plain.help", king=king, call=f"call {king}d"))
                continue
            if command == "last":
                say(last_trick_text(session))
                continue
            if command in ("analyse", "analyze"):
                say(*session.analysis())
                continue
            if command in ("hint", "h"):
                say(*session.hint())
                continue
            if command.split()[0] in ("save", "say"):
                verb, *rest = line.strip().split(maxsplit=1)
                if verb.lower() == "say":
                    say(*session.say(rest[0] if rest else ""))
                else:
                    say(save_text(session, rest[0] if rest else save_to or DEFAULT_SAVE))
                continue
            try:
                say(*session.act(parse_move(line, session.view(), session.seating)))
            except BriscolaError as e:
                say(words.say("plain.cannot", why=e))
                continue
            shown = None
    except KeyboardInterrupt:  # Ctrl-C: leave, saving as quit does
        say(words.say("plain.left"))
        status = 1
    if not session.over:
        say(session.standing())
    elif status == 0:  # the match is over: the last hand's analysis, if it is wanted
        say(words.say("plain.after_match"))
        line = read()
        if line is not None and line.strip().lower() in ("analyse", "analyze", "a"):
            say(*session.analysis())
    if save_to is not None:
        try:
            say(words.say("plain.saved", path=session.save(save_to)))
        except BriscolaError as e:
            say(words.say("plain.lost", why=e))
            status = max(status, 1)
    return status
