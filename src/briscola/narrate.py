"""Words for what happens at the table: tricks, talk, the auction, results.

Every function takes a :class:`~briscola.speech.Voice`: the records' voice (the
default: "seat 1", cards as codes, each trick told with its cards) or a person's
:class:`~briscola.speech.Seating` ("you", "East", cards by name; each card told as it
is played, and a trick once gathered only by who took it and its points: rules.md §5,
looking back at gathered cards is the ``last_trick`` house rule's business).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from briscola.engine.actions import (
    Action,
    Ask,
    Bid,
    EndTalk,
    Exchange,
    Look,
    Order,
    Pass,
    Play,
    Signal,
)
from briscola.engine.cards import Card, Rank
from briscola.engine.events import (
    AuctionEnded,
    BidMade,
    CardCalled,
    CardDrawn,
    CardPlayed,
    HandShown,
    PartnerRevealed,
    Talk,
    ThrownIn,
    TrickWon,
    TrumpExchanged,
)
from briscola.engine.state import GameState
from briscola.engine.views import View
from briscola.speech import RECORD, Seating, Voice, hand_order, plural, suit_name

SIGNAL_WORDS = {
    "ace": "I hold the ace of trumps",
    "three": "I hold the three of trumps",
    "king": "I hold the king of trumps",
    "queen": "I hold the cavallo (queen) of trumps",
    "jack": "I hold the fante (jack) of trumps",
    "low-trumps": "I hold a low trump (7 to 2)",
    "no-trumps": "I hold no trumps",
    "carico": "I hold a carico (an ace or a three of a plain suit)",
    "play-carico": "play a carico",
    "play-liscio": "play a liscio",
}
"""What each signal says, in words (40-card decks)."""

QUESTION_WORDS = {
    "lisci": "do you hold lisci (cards worth nothing)",
    "trumps": "what trumps do you hold (briscoline 2 to 6; vestite K Q J)",
    "take": "can you take a trick without trumping",
    "carichi": "do you hold carichi (an ace or a three of a plain suit)",
}

FRENCH_WORDS = {
    "three": "I hold the 10 of trumps",
    "queen": "I hold the queen of trumps",
    "jack": "I hold the jack of trumps",
    "low-trumps": "I hold a low trump (9 to 7)",
    "carico": "I hold a carico (an ace or a 10 of a plain suit)",
    "trumps": "what trumps do you hold (briscoline 7 and 8; vestite K Q J)",
    "carichi": "do you hold carichi (an ace or a 10 of a plain suit)",
}
"""The same in Briškula's 32 French cards, where the 10 is the second card."""


def talk_words(word: str, voice: Voice, table: dict[str, str]) -> str:
    """A signal's or question's words in the table's deck (a record's voice, knowing no
    deck, says them for the 40 cards)."""
    if isinstance(voice, Seating) and voice.deck == "french-32" and word in FRENCH_WORDS:
        return FRENCH_WORDS[word]
    return table.get(word, word)


ORDER_WORDS = {
    "liscio": "play a liscio",
    "trump-high": "play a high trump",
    "trump-low": "play a low trump",
    "take": "take the trick without trumping",
    "carico": "play a carico",
}

RANK_WORDS = {
    Rank.ACE: "asso",
    Rank.THREE: "tre",
    Rank.KING: "re",
    Rank.QUEEN: "cavallo",
    Rank.JACK: "fante",
}
"""Chiamata's bids name ranks of the Italian deck."""


def describe_trick(number: int, won: TrickWon, voice: Voice = RECORD) -> str:
    """A finished trick with its cards, as a record tells it."""
    plays = ", ".join(f"{s}:{voice.card(c)}" for s, c in zip(won.seats, won.cards, strict=True))
    return f"trick {number:2d}  {plays}  -> {voice.says(won.winner, 'take')} {won.points}"


def describe_bid(bid: str) -> str:
    """A bid in words: ``K`` -> ``re (K)``, ``6`` and ``2 at 75`` as they are."""
    if bid in RANK_CODES and Rank(bid) in RANK_WORDS:
        return f"{RANK_WORDS[Rank(bid)]} ({bid})"
    return bid


RANK_CODES = {r.value for r in Rank}


def narrate(
    state: GameState, events: Iterable[object], voice: Voice = RECORD, plays: bool = True
) -> Iterator[str]:
    """Lines telling ``events``, which happened in ``state`` (``state`` is as they left it).
    For a person, ``plays`` says whether to tell each card played and drawn."""
    events = list(events)
    person = isinstance(voice, Seating)
    tricks = len(state.tricks) - sum(isinstance(e, TrickWon) for e in events)
    pad = "" if person else " " * 10
    turned_trump = state.rules.game.turned_trump
    for e in events:
        if isinstance(e, CardPlayed) and person and plays:
            yield f"{voice.says(e.seat, 'play')} {voice.card(e.card)}"
        elif isinstance(e, TrickWon):
            tricks += 1
            if person:
                points = plural(e.points, "point")
                yield f"{voice.says(e.winner, 'take')} trick {tricks}: {points}"
            else:
                yield describe_trick(tricks, e, voice)
        elif isinstance(e, TrumpExchanged):
            yield (
                f"{pad}{voice.says(e.seat, 'give')} {voice.card(e.given)} "
                f"for the turned {voice.card(e.taken)}"
            )
        elif isinstance(e, CardDrawn) and e.card is not None and turned_trump:
            if e.audience is None and not state.rules.game.open_hands:
                yield f"{pad}{voice.says(e.seat, 'draw')} the turned card {voice.card(e.card)}"
            elif isinstance(voice, Seating) and plays and e.audience and e.seat == voice.seat:
                yield f"{pad}you draw {voice.card(e.card)}"
        elif isinstance(e, HandShown) and e.audience is not None and len(e.audience) > 1:
            continue
        elif isinstance(e, HandShown) and state.shown and e.seat == 0:
            yield f"{pad}the stock is out: partners show their hands"
        elif isinstance(e, Talk) and e.kind != "done":
            yield f"{pad}{describe_talk(e, voice)}"
        elif isinstance(e, BidMade):
            yield (
                f"{pad}{voice.says(e.seat, 'pass')}"
                if e.bid == "pass"
                else f"{pad}{voice.says(e.seat, 'bid')} {describe_bid(e.bid)}"
            )
        elif isinstance(e, AuctionEnded):
            if e.caller is None:
                yield f"{pad}all pass: the same dealer deals again"
            else:
                bid = describe_bid(e.bid or "")
                yield f"{pad}{voice.says(e.caller, 'win')} the auction with {bid}"
        elif isinstance(e, CardCalled):
            yield (
                f"{pad}{voice.says(e.seat, 'call')} {voice.card(e.card)}: "
                f"trump is {e.card.suit.italian}"
            )
        elif isinstance(e, PartnerRevealed):
            yield f"{pad}the called card is out: {describe_partner(e, voice)}"
        elif isinstance(e, ThrownIn):
            cards = ", ".join(voice.card(c) for c in e.cards)
            yield (
                f"{pad}{voice.says(e.seat, 'hold')} no card points ({cards}): "
                "the deal is thrown in and dealt again"
            )


def describe_partner(e: PartnerRevealed, voice: Voice) -> str:
    if e.partner == e.caller:
        return f"{voice.says(e.caller, 'play')} alone"
    if isinstance(voice, Seating) and e.partner == voice.seat:
        return f"you are {voice.name(e.caller)}'s partner"
    if isinstance(voice, Seating) and e.caller == voice.seat:
        return f"{voice.name(e.partner)} is your partner"
    return f"{voice.name(e.partner)} is {voice.name(e.caller)}'s partner"


def describe_talk(t: Talk, voice: Voice = RECORD) -> str:
    if t.kind == "signal":
        # Who else saw a signal is nobody's to know: say only whether the table saw it.
        seen = " (seen by everyone)" if t.audience is None else ""
        said = talk_words(t.what, voice, SIGNAL_WORDS)
        return f"{voice.says(t.seat, 'signal')}: {said}{seen}"
    to = voice.name(t.to) if t.to is not None else "?"
    if t.kind == "ask":
        answer = t.answer if t.answer is not None else "?"
        question = talk_words(t.what, voice, QUESTION_WORDS)
        return f"{voice.says(t.seat, 'ask')} {to}: {question}? {to.capitalize()}: {answer}"
    if t.kind == "order":
        return f"{voice.says(t.seat, 'tell')} {to}: {ORDER_WORDS.get(t.what, t.what)}"
    if t.kind == "done":
        return f"{voice.says(t.seat, 'end')} the talk"
    return f"{voice.says(t.seat, 'look')} at the hand of {to}"


def per_side(voice: Voice, sides: Iterable[Iterable[int]], figures: Iterable[object]) -> str:
    """A figure for each side, named: ``North and you 52, East and West 68``."""
    return ", ".join(f"{voice.side(side)} {x}" for side, x in zip(sides, figures, strict=True))


def describe_points(state: GameState, voice: Voice = RECORD) -> str:
    """Each side's card points: ``0+2: 52 v 1+3: 68``, or ``North and you 52, ...``."""
    if isinstance(voice, Seating):
        return per_side(voice, state.sides, state.points)
    return " v ".join(
        f"{'+'.join(str(s) for s in side)}: {p}"
        for side, p in zip(state.sides, state.points, strict=True)
    )


def describe_action(action: Action, voice: Voice = RECORD) -> str:
    """A short label for an action, as a menu shows it."""
    if isinstance(action, Play):
        return f"play {voice.card(action.card)}"
    if isinstance(action, Exchange):
        return f"exchange {voice.card(action.card)} for the turned card"
    if isinstance(action, Signal):
        return f"signal: {talk_words(action.signal, voice, SIGNAL_WORDS)}"
    if isinstance(action, Ask):
        return f"ask {voice.name(action.to)}: {talk_words(action.question, voice, QUESTION_WORDS)}?"
    if isinstance(action, Order):
        return f"tell {voice.name(action.to)}: {ORDER_WORDS.get(action.order, action.order)}"
    if isinstance(action, Look):
        return f"look at the hand of {voice.name(action.at)}"
    if isinstance(action, Bid):
        return f"bid {describe_bid(str(action))}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, EndTalk):
        return "say no more (end your talk)"
    return f"call {voice.card(action.card)}"


def describe_view(view: View, voice: Seating, drawn: Card | None = None) -> list[str]:
    """The table as the person sees it: trump and stock, the auction, points, open
    hands, the trick on the table and the hand (sorted; the card just drawn marked)."""
    lines = []
    auction = view.auction
    if auction is not None and auction.called is None:
        bids = ", ".join(
            voice.says(s, "pass") if b == "pass" else f"{voice.name(s)} {describe_bid(b)}"
            for s, b in auction.bids
        )
        lines.append(f"the auction: {bids or 'no bid yet'}")
    elif auction is not None and auction.called is not None and auction.caller is not None:
        partner = auction.partner
        if partner is None:
            who = "the partner is not known yet"
        elif partner == auction.caller:
            who = f"{voice.says(auction.caller, 'play')} alone"
        elif partner == voice.seat:
            who = "you are the partner"
        else:
            who = f"the partner is {voice.name(partner)}"
        called = voice.card(auction.called)
        bid = describe_bid(auction.high or "")
        lines.append(
            f"trump: {auction.called.suit.italian}; {voice.name(auction.caller)} called "
            f"the {called} with a bid of {bid}; {who}"
        )
    elif view.trump is not None:
        line = f"trump: {suit_name(view.trump, voice.deck)}"
        if view.turned is not None:
            line += f"; the turned card is the {voice.card_code(view.turned)}"
        if view.turned is not None or view.stock_size:
            line += f"; {plural(view.stock_size + (view.turned is not None), 'card')} to draw"
        else:
            line += "; nothing left to draw"
        lines.append(line)
    else:
        stock = (
            plural(view.stock_size, "card") + " to draw"
            if view.stock_size
            else "nothing left to draw"
        )
        lines.append(f"no trump; {stock}")
    lines.append(f"points: {per_side(voice, view.sides, view.points)}")
    if view.stock_top is not None:
        lines.append(f"top of the stock: {voice.card_code(view.stock_top)}")
    for seat, cards in sorted(view.visible_hands.items()):
        if cards:
            lines.append(f"{voice.says(seat, 'hold')} {cards_line(voice, cards)}")
    for seat, cards in sorted(view.known_cards.items()):
        if cards:
            lines.append(f"{voice.name(seat)} is known to hold {cards_line(voice, cards)}")
    table = ", ".join(f"{voice.name(s)} {voice.card_code(c)}" for s, c in view.trick)
    lines.append(f"on the table: {table or 'nothing yet'}")
    hand = " ".join(f"{c}*" if c is drawn else str(c) for c in hand_order(voice.rules, view.hand))
    if hand:
        mark = " (* just drawn)" if drawn is not None and drawn in view.hand else ""
        lines.append(f"your hand: {hand}{mark}")
    return lines


def cards_line(voice: Seating, cards: Iterable[Card]) -> str:
    return ", ".join(voice.card_code(c) for c in hand_order(voice.rules, cards))
