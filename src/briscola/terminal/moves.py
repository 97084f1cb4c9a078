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
from briscola.terminal.seat import Source
from briscola.words.cards import hand_order, read_rank, read_short
from briscola.words.seating import Seating

MAX_LISTED_BIDS = 4


def menu(view: View, voice: Seating) -> list[tuple[int, Action]]:
    """The numbered choices to show: the cards to play in the hand's order, then the other
    actions; only the first few of the many "2 at N" bids (type ``bid N`` for the others)."""
    plays = {a.card: a for a in view.legal if isinstance(a, Play)}
    ordered: list[Action] = [plays[c] for c in hand_order(voice.table, plays, view.trump)]
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
    say = voice.words.say
    word = text.strip()
    legal = view.legal
    if not legal:
        raise MalformedError(say("move.not_your_turn"))
    number = ascii_number(word)
    if number is not None:
        choices = menu(view, voice)
        for n, action in choices:
            if n == number:
                return action
        raise MalformedError(say("move.no_choice", n=number, last=len(choices)))
    parts = word.split()
    verb = parts[0].lower() if parts else ""
    seat = view.seat if view.seat is not None else 0
    if verb == "pass" and len(parts) == 1:
        if Pass(seat) in legal:
            return Pass(seat)
        raise MalformedError(say("move.cannot_pass", can=what_you_can_do(view, voice)))
    if verb == "bid":
        return read_bid(parts[1:], view, voice)
    if verb in ("call", "exchange") and len(parts) == 2:
        card = read_short(parts[1], voice.style)
        kind = Call if verb == "call" else Exchange
        options = [a for a in legal if isinstance(a, kind)]
        for a in options:
            if a.card is card:
                return a
        if not options:
            raise MalformedError(say(f"move.cannot_{verb}", can=what_you_can_do(view, voice)))
        names = voice.joined([voice.card_code(a.card) for a in options])
        raise MalformedError(say(f"move.may_{verb}", cards=names, card=voice.card(card)))
    if verb == "signal" and len(parts) == 2:
        signals = [a for a in legal if isinstance(a, Signal)]
        for sig in signals:
            if sig.signal == parts[1].lower():
                return sig
        if not signals:
            raise MalformedError(say("move.cannot_signal", can=what_you_can_do(view, voice)))
        if parts[1].lower() in SIGNALS:
            may = ", ".join(a.signal for a in signals)
            raise MalformedError(say("move.untrue_signal", signal=parts[1], signals=may))
        raise MalformedError(
            say("move.no_signal", signal=repr(parts[1]), signals=", ".join(SIGNALS))
        )
    if len(parts) == 1:
        try:
            card = read_short(word, voice.style)
        except MalformedError:
            pass
        else:
            return read_card(card, view, voice)
    shown = word if len(word) <= 30 else word[:30] + "..."
    example = voice.short(view.hand[0]) if view.hand else "5b"
    raise MalformedError(say("move.not_a_move", typed=repr(shown), card=example))


def read_card(card: Card, view: View, voice: Seating) -> Action:
    say = voice.words.say
    seat = view.seat if view.seat is not None else 0
    plays = [a.card for a in view.legal if isinstance(a, Play)]
    if card in plays:
        return Play(seat, card)
    if card not in view.hand:
        mine = " ".join(voice.short(c) for c in hand_order(voice.table, view.hand, view.trump))
        yours = say("move.your_cards", cards=mine) if mine else ""
        code = voice.short(card)
        raise MalformedError(say("move.not_held", card=voice.card(card), code=code, yours=yours))
    if not plays:
        raise MalformedError(say("move.not_time", can=what_you_can_do(view, voice)))
    led = view.trick[0][1].suit if view.trick else None
    if led is not None and all(c.suit is led for c in plays):
        cards = " ".join(voice.short(c) for c in hand_order(voice.table, plays, view.trump))
        raise MalformedError(say("move.follow", cards=cards))
    raise MalformedError(say("move.cannot_play", card=voice.card(card)))


def read_bid(words: list[str], view: View, voice: Seating) -> Action:
    say = voice.words.say
    seat = view.seat if view.seat is not None else 0
    bids = [a for a in view.legal if isinstance(a, Bid)]
    if not bids and Pass(seat) not in view.legal:
        raise MalformedError(say("move.no_auction", can=what_you_can_do(view, voice)))
    letters = " ".join(voice.letter(r) for r in bid_ranks(voice.table))  # the table's order
    if len(words) != 1:
        raise MalformedError(say("move.bid_form", ranks=letters, king=voice.letter(Rank.KING)))
    value = words[0].upper()
    points = ascii_number(value)
    if points is not None:
        if not 61 <= points <= 120:
            raise MalformedError(say("move.points_range"))
        if Bid(seat, points=points) in bids:
            return Bid(seat, points=points)
        point_bids = [b.points for b in bids if b.points is not None]
        if not point_bids:
            raise MalformedError(say("move.points_after_two"))
        raise MalformedError(say("move.points_higher", n=min(point_bids)))
    rank = read_rank(value, voice.style)
    if rank is not None:
        bid = Bid(seat, rank=rank)
        if bid in bids:
            return bid
        ranks = " ".join(voice.letter(b.rank) for b in bids if b.rank is not None)
        if ranks:
            raise MalformedError(say("move.rank_lower", ranks=ranks))
        raise MalformedError(say("move.after_two"))
    raise MalformedError(say("move.no_bid", bid=repr(words[0]), ranks=letters))


def what_you_can_do(view: View, voice: Seating) -> str:
    say = voice.words.say
    kinds = []
    for label, kind in (("play", Play), ("bid", Bid), ("call", Call)):
        if any(isinstance(a, kind) for a in view.legal):
            kinds.append(say(f"move.can_{label}"))
    return say("move.you_may", what=voice.joined(kinds) or say("move.choose"))


def last_trick_text(session: Source) -> str:
    """What ``last`` (the full-screen ``l``) shows: the last trick gathered, only where
    the table allows looking at it (rules.md §5)."""
    view = session.view()
    voice = session.seating
    say = voice.words.say
    if view.rules.get("last_trick") == "hidden":
        return say("move.last_hidden")
    last = view.last_trick
    if last is None:
        return say("move.no_last")
    cards = ", ".join(
        say("view.played", who=voice.name(s), card=voice.card_code(c))
        for s, c in zip(last.seats, last.cards, strict=True)
    )
    if not voice.points_shown:  # counted in the head: the hand's end says them
        return voice.say("move.last_trick_no_points", last.winner, cards=cards)
    points = voice.count("count.points", last.points)
    return voice.say("move.last_trick", last.winner, cards=cards, points=points)
