"""The person's choices, as both terminal games offer them: the numbered menu of the
legal actions (:func:`menu`), a typed move read into an action (:func:`parse_move`,
:func:`read_bid`), each mistake told in the player's words, and what ``last`` shows
(:func:`last_trick_text`). The plain game (:mod:`briscola.terminal.plain`) and the
full-screen one (:mod:`briscola.terminal.screen`) both use them.
"""

from __future__ import annotations

from briscola.engine import Card, MalformedError
from briscola.engine.actions import SIGNALS, Action, Bid, Call, Exchange, Pass, Play, Signal
from briscola.engine.cards import Rank
from briscola.engine.chiamata import bid_ranks
from briscola.engine.views import View
from briscola.narrate import SIGNAL_WORDS
from briscola.speech import Seating, hand_order, joined, plural
from briscola.terminal.seat import Source

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
