"""``briscola play --plain``: a line-by-line game for any terminal and for scripts.

It prints what your seat sees and reads one move a line from standard input: the
number of a choice in the list, a card (``5b``), ``pass``, ``bid K``, ``bid 75``,
``call Kd``, ``exchange 7d``, ``signal ace``, or a command: ``last`` (the last trick,
where the rules allow), ``save [FILE]``, ``say TEXT`` (chat, at an online table),
``help``, ``quit``. The table is a local :class:`~briscola.session.Session` or an online
one (:mod:`briscola.remote`): the same :class:`~briscola.session.Source`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import BinaryIO, TextIO

from briscola.engine import BriscolaError, Card, MalformedError
from briscola.engine.actions import SIGNALS, Action, Bid, Call, Exchange, Pass, Play, Signal
from briscola.engine.cards import Rank
from briscola.engine.chiamata import bid_ranks
from briscola.engine.views import View
from briscola.narrate import (
    SIGNAL_WORDS,
    describe_action,
    describe_view,
)
from briscola.session import Source
from briscola.speech import Seating, hand_order, joined, plural

HELP = """\
type the number of a choice, or a card (5b), pass, bid K, bid 75, call Kd, exchange 7d,
  signal ace; last: the last trick (where the table allows it); save [FILE]: save the
  records; say TEXT: chat to the table (online); help: this text; quit: leave the match.
signals: show your partner something true of your hand (ace, three, king, queen, jack:
  that trump; low-trumps, no-trumps, carico), or ask for it: play-carico, play-liscio
questions: before you lead, from trick 2, ask your partner about lisci, trumps, taking
  a trick or carichi (in Schembil each rais asks before every lead); the hand answers
  truly, and everyone hears
orders: before you lead, tell your partner to play a liscio, a high or a low trump, a
  carico, or to take the trick without trumping; an order guides, it binds nobody"""

MAX_LISTED_BIDS = 4


def menu(view: View, voice: Seating) -> list[tuple[int, Action]]:
    """The numbered choices to show: the cards to play in the hand's order, then the other
    actions; only the first few of the many "2 at N" bids (type ``bid N`` for the others)."""
    plays = {a.card: a for a in view.legal if isinstance(a, Play)}
    ordered: list[Action] = [plays[c] for c in hand_order(voice.rules, plays)]
    points_bids = 0
    for action in view.legal:
        if isinstance(action, Play):
            continue
        if isinstance(action, Bid) and action.points is not None:
            points_bids += 1
            if points_bids > MAX_LISTED_BIDS:
                continue
        ordered.append(action)
    return list(enumerate(ordered, 1))


def ascii_number(text: str) -> int | None:
    """The number ``text`` writes in ASCII digits, else ``None`` (``²`` is no number)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None


def parse_move(text: str, view: View, voice: Seating) -> Action:
    """Read a move typed by the person; raises :class:`MalformedError` saying, in the
    player's words, what was wrong and what may be typed."""
    word = text.strip()
    legal = view.legal
    if not legal:
        raise MalformedError("it is not your turn")
    number = ascii_number(word)
    if number is not None:
        choices = menu(view, voice)
        for n, action in choices:
            if n == number:
                return action
        raise MalformedError(f"there is no choice {number}: choose 1 to {len(choices)}")
    parts = word.split()
    verb = parts[0].lower() if parts else ""
    seat = view.seat if view.seat is not None else 0
    if verb == "pass" and len(parts) == 1:
        if Pass(seat) in legal:
            return Pass(seat)
        raise MalformedError(f"you cannot pass now; {what_you_can_do(view, voice)}")
    if verb == "bid":
        return read_bid(parts[1:], view, voice)
    if verb in ("call", "exchange") and len(parts) == 2:
        card = Card.parse(parts[1])
        kind = Call if verb == "call" else Exchange
        options = [a for a in legal if isinstance(a, kind)]
        for a in options:
            if a.card is card:
                return a
        if not options:
            raise MalformedError(f"you cannot {verb} a card now; {what_you_can_do(view, voice)}")
        names = joined([voice.card_code(a.card) for a in options])
        raise MalformedError(f"you may {verb} {names}, not the {voice.card(card)}")
    if verb == "signal" and len(parts) == 2:
        signals = [a for a in legal if isinstance(a, Signal)]
        for sig in signals:
            if sig.signal == parts[1].lower():
                return sig
        if not signals:
            raise MalformedError(f"you cannot signal now; {what_you_can_do(view, voice)}")
        if parts[1].lower() in SIGNAL_WORDS:
            raise MalformedError(
                f"you cannot signal {parts[1]}: a signal must be true of your hand, and each "
                f"kind is given once a trick; you may signal {', '.join(a.signal for a in signals)}"
            )
        raise MalformedError(f"there is no signal {parts[1]!r}; the signals: {', '.join(SIGNALS)}")
    if len(parts) == 1:
        try:
            card = Card.parse(word)
        except MalformedError:
            pass
        else:
            return read_card(card, view, voice)
    shown = word if len(word) <= 30 else word[:30] + "..."
    raise MalformedError(
        f"{shown!r} is not a move: type the number of a choice, a card such as "
        f"{view.hand[0] if view.hand else '5b'}, or help"
    )


def read_card(card: Card, view: View, voice: Seating) -> Action:
    seat = view.seat if view.seat is not None else 0
    plays = [a.card for a in view.legal if isinstance(a, Play)]
    if card in plays:
        return Play(seat, card)
    if card not in view.hand:
        mine = " ".join(str(c) for c in hand_order(voice.rules, view.hand))
        yours = f"; your cards: {mine}" if mine else ""
        raise MalformedError(f"you do not hold the {voice.card(card)} ({card}){yours}")
    if not plays:
        raise MalformedError(f"it is not time to play a card; {what_you_can_do(view, voice)}")
    led = view.trick[0][1].suit if view.trick else None
    if led is not None and all(c.suit is led for c in plays):
        cards = " ".join(str(c) for c in hand_order(voice.rules, plays))
        raise MalformedError(f"you must follow suit when you can: play one of {cards}")
    raise MalformedError(f"you cannot play the {voice.card(card)} now")


def read_bid(words: list[str], view: View, voice: Seating) -> Action:
    seat = view.seat if view.seat is not None else 0
    bids = [a for a in view.legal if isinstance(a, Bid)]
    if not bids and Pass(seat) not in view.legal:
        raise MalformedError(f"there is no auction now; {what_you_can_do(view, voice)}")
    letters = " ".join(r.value for r in bid_ranks(voice.rules))  # the table's order
    if len(words) != 1:
        raise MalformedError(
            f"write bid and a rank ({letters}) or, once a 2 is bid, points "
            "from 61 to 120: bid K, bid 75"
        )
    value = words[0].upper()
    points = ascii_number(value)
    if points is not None:
        if not 61 <= points <= 120:
            raise MalformedError("points bids run from 61 to 120")
        if Bid(seat, points=points) in bids:
            return Bid(seat, points=points)
        point_bids = [b.points for b in bids if b.points is not None]
        if not point_bids:
            raise MalformedError("points are bid only once someone has bid a 2: bid a rank")
        raise MalformedError(
            f"each points bid must be higher than the last: bid {min(point_bids)} or more, or pass"
        )
    if value in {r.value for r in Rank}:
        bid = Bid(seat, rank=Rank(value))
        if bid in bids:
            return bid
        ranks = " ".join(str(b) for b in bids if b.rank is not None)
        if ranks:
            raise MalformedError(
                f"each bid must name a rank lower than the last: you may bid {ranks}, or pass"
            )
        raise MalformedError("a 2 has been bid: bid points from 61 to 120 (bid 75), or pass")
    raise MalformedError(f"{words[0]!r} is no bid: bid a rank ({letters}) or points from 61 to 120")


def what_you_can_do(view: View, voice: Seating) -> str:
    kinds = []
    for label, kind in (("play a card", Play), ("bid or pass", Bid), ("call a card", Call)):
        if any(isinstance(a, kind) for a in view.legal):
            kinds.append(label)
    return f"you may {joined(kinds) or 'choose from the list'}"


def prompt_lines(session: Source) -> Iterator[str]:
    view = session.view()
    voice = session.seating
    yield from describe_view(view, voice, session.drawn)
    choices = menu(view, voice)
    for i, action in choices:
        if isinstance(action, Play):
            drawn = "  (just drawn)" if action.card is session.drawn else ""
            yield f"  {i}) {action.card}  {voice.card(action.card)}{drawn}"
        else:
            yield f"  {i}) {describe_action(action, voice)}"
    hidden = len(view.legal) - len(choices)
    if hidden:
        yield f"  ... and {plural(hidden, 'more bid')}: type bid N (N from 61 to 120)"


def last_trick_text(session: Source) -> str:
    """What ``last`` (the full-screen ``l``) shows: the last trick gathered, only where
    the table allows looking at it (rules.md §5)."""
    view = session.view()
    if view.rules.get("last_trick") == "hidden":
        return "this table does not allow looking at the last trick (last_trick=hidden)"
    last = view.last_trick
    if last is None:
        return "no trick has been taken yet in this hand"
    voice = session.seating
    cards = ", ".join(
        f"{voice.name(s)} {voice.card_code(c)}" for s, c in zip(last.seats, last.cards, strict=True)
    )
    return (
        f"the last trick: {cards}; {voice.says(last.winner, 'take')} {plural(last.points, 'point')}"
    )


def save_text(session: Source, path: str) -> str:
    """Save the records during the match and say so, or say why they could not be saved."""
    try:
        return f"saved the records to {session.save(path)}"
    except BriscolaError as e:
        return f"{e}; the game goes on"


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
            say("your move:")
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
                say(last_trick_text(session))
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
                say(f"cannot do that: {e}")
                continue
            shown = None
    except KeyboardInterrupt:  # Ctrl-C: leave, saving as quit does
        say("you left the match")
        status = 1
    if not session.over:
        say(session.standing())
    if save_to is not None:
        try:
            say(f"saved the records to {session.save(save_to)}")
        except BriscolaError as e:
            say(f"{e}: the records of this match are lost")
            status = max(status, 1)
    return status


DEFAULT_SAVE = "briscola-match.jsonl"
