"""Words for the people at the table: who sits where, what the cards are called.

A :class:`Voice` names seats and cards for a reader. :data:`RECORD` is the voice of
records and demos ("seat 1 takes", cards as codes). :class:`Seating` is the voice of
one person at the table: "you" at the bottom, the others by where they sit ("East
takes the trick", "North and you: 52"), cards by their names in the table's deck.

>>> from briscola.engine import Card, Rules
>>> seating = Seating.of(Rules.make("briscola-4"), seat=0)
>>> seating.name(0), seating.name(1), seating.name(2), seating.name(3)
('you', 'East', 'North', 'West')
>>> seating.says(1, "take"), seating.says(0, "take")
('East takes', 'you take')
>>> seating.side((0, 2)), seating.side((1, 3))
('North and you', 'East and West')
>>> seating.card(Card.parse("Qd"))
'cavallo di denari'
>>> RECORD.says(1, "take"), RECORD.card(Card.parse("Qd"))
('seat 1 takes', 'Qd')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from briscola.engine.cards import Card, Rank, Suit
from briscola.engine.games import Rules

IRREGULAR = {"have": "has", "do": "does", "are": "is", "hold": "holds"}


def third_person(verb: str) -> str:
    """``take`` -> ``takes``, ``pass`` -> ``passes``, ``have`` -> ``has``."""
    first, _, rest = verb.partition(" ")
    if first in IRREGULAR:
        first = IRREGULAR[first]
    elif first.endswith(("s", "sh", "ch", "x")):
        first += "es"
    else:
        first += "s"
    return f"{first} {rest}".rstrip()


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 point``, ``2 points``, ``0 points``."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def joined(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


# --------------------------------------------------------------------------- cards

CARD_WORDS = {
    "italian-40": (
        {Rank.ACE: "asso", Rank.THREE: "tre", Rank.JACK: "fante", Rank.QUEEN: "cavallo",
         Rank.KING: "re"},
        "di",
        {Suit.COPPE: "coppe", Suit.DENARI: "denari", Suit.SPADE: "spade",
         Suit.BASTONI: "bastoni"},
    ),
    "spanish-40": (
        {Rank.ACE: "as", Rank.THREE: "tres", Rank.JACK: "sota", Rank.QUEEN: "caballo",
         Rank.KING: "rey"},
        "de",
        {Suit.COPPE: "copas", Suit.DENARI: "oros", Suit.SPADE: "espadas",
         Suit.BASTONI: "bastos"},
    ),
    "french-32": (
        {Rank.ACE: "ace", Rank.TEN: "10", Rank.JACK: "jack", Rank.QUEEN: "queen",
         Rank.KING: "king"},
        "of",
        {Suit.COPPE: "hearts", Suit.DENARI: "diamonds", Suit.SPADE: "spades",
         Suit.BASTONI: "clubs"},
    ),
}  # fmt: skip
"""Each deck's words: rank names (the others are their number), the joining word, suits."""

FACE_RANKS = {
    "italian-40": {Rank.JACK: "F", Rank.QUEEN: "C", Rank.KING: "R"},
    "spanish-40": {Rank.JACK: "S", Rank.QUEEN: "C", Rank.KING: "R"},
    "french-32": {Rank.TEN: "10"},
}
"""The letter printed in a card's corner, where it is not the notation's."""

FRENCH_SYMBOLS = {Suit.COPPE: "♥", Suit.DENARI: "♦", Suit.SPADE: "♠", Suit.BASTONI: "♣"}

SUIT_COLOURS = {
    "italian-40": {Suit.COPPE: "red", Suit.DENARI: "yellow", Suit.SPADE: "cyan",
                   Suit.BASTONI: "green"},
    "spanish-40": {Suit.COPPE: "red", Suit.DENARI: "yellow", Suit.SPADE: "cyan",
                   Suit.BASTONI: "green"},
    "french-32": {Suit.COPPE: "red", Suit.DENARI: "red", Suit.SPADE: "white",
                  Suit.BASTONI: "white"},
}  # fmt: skip
"""The colour a card is drawn in: the suit's colour on the deck's faces."""


def card_name(card: Card, deck: str) -> str:
    """The card's name in its deck: ``asso di coppe``, ``sota de oros``, ``10 of spades``."""
    ranks, join, suits = CARD_WORDS[deck]
    return f"{ranks.get(card.rank, card.rank.value)} {join} {suits[card.suit]}"


def suit_name(suit: Suit, deck: str) -> str:
    """The suit's name in the deck: ``coppe``, ``copas``, ``hearts``."""
    return CARD_WORDS[deck][2][suit]


def face(card: Card, deck: str) -> tuple[str, str]:
    """What a small card face shows: its corner (rank, and the suit's symbol in the
    French deck) and the suit's word (``R``, ``coppe``; ``K♥``, ``hearts``)."""
    rank = FACE_RANKS[deck].get(card.rank, card.rank.value)
    if deck == "french-32":
        rank += FRENCH_SYMBOLS[card.suit]
    return rank, suit_name(card.suit, deck)


SUIT_ORDER = {suit: i for i, suit in enumerate(Suit)}
"""The suits in the order a hand is sorted in: coppe, denari, spade, bastoni."""


def hand_order(rules: Rules, cards: Iterable[Card]) -> list[Card]:
    """A hand sorted as players hold it: by suit (coppe, denari, spade, bastoni), the
    strongest card first within each suit."""
    return sorted(cards, key=lambda c: (SUIT_ORDER[c.suit], -rules.strength[c]))


# --------------------------------------------------------------------------- voices


class Voice:
    """Names of seats and cards for a reader; this one is the records' ("seat 1", "Qd")."""

    def name(self, seat: int) -> str:
        return f"seat {seat}"

    def card(self, card: Card) -> str:
        return str(card)

    def says(self, seat: int, verb: str) -> str:
        """The seat and the verb agreeing with it: ``seat 1 takes``, ``you take``."""
        return f"{self.name(seat)} {third_person(verb)}"

    def side(self, seats: Iterable[int]) -> str:
        """A side's name: ``seats 0+2`` here, ``North and you`` at the table."""
        seats = list(seats)
        if len(seats) == 1:
            return self.name(seats[0])
        return "seats " + "+".join(str(s) for s in seats)

    def sides_say(self, seats: Sequence[int], verb: str) -> str:
        """A side (or several seats) and the verb agreeing with it."""
        if len(seats) == 1:
            return self.says(seats[0], verb)
        return f"{self.group(seats)} {verb}"

    def group(self, seats: Sequence[int]) -> str:
        """Several seats, named: ``seats 1, 3`` here, ``East and West`` at the table."""
        if len(seats) == 1:
            return self.name(seats[0])
        return "seats " + ", ".join(str(s) for s in seats)


RECORD = Voice()


SLOTS = {
    2: ("top",),
    3: ("top-right", "top-left"),
    4: ("right", "top", "left"),
    5: ("right", "top-right", "top-left", "left"),
    6: ("right", "top-right", "top", "top-left", "left"),
}
"""Where the other seats sit as seen by a person at the bottom, in the order of play
when play goes to the right (counter-clockwise)."""

MIRROR = {"right": "left", "left": "right", "top-right": "top-left", "top-left": "top-right"}

COMPASS = {
    "bottom": "South",
    "right": "East",
    "top-right": "North-East",
    "top": "North",
    "top-left": "North-West",
    "left": "West",
}


@dataclass(frozen=True)
class Seating(Voice):
    """One person's table: ``seat`` is "you", at the bottom; the others are named by
    where they sit, going round in the direction of play."""

    rules: Rules
    seat: int
    slots: tuple[str, ...]
    """Where each seat sits: ``bottom`` (you), ``right``, ``top``, ..."""

    @classmethod
    def of(cls, rules: Rules, seat: int) -> Seating:
        n = rules.players
        around = SLOTS[n]
        if rules.direction == "left":
            around = tuple(MIRROR.get(s, s) for s in around)
        slots = ["bottom"] * n
        for k, slot in enumerate(around, 1):
            slots[(seat + k) % n] = slot
        return cls(rules, seat, tuple(slots))

    @property
    def deck(self) -> str:
        return self.rules.game.deck_name

    def name(self, seat: int) -> str:
        return "you" if seat == self.seat else COMPASS[self.slots[seat]]

    def says(self, seat: int, verb: str) -> str:
        return f"you {verb}" if seat == self.seat else f"{self.name(seat)} {third_person(verb)}"

    def card(self, card: Card) -> str:
        return card_name(card, self.deck)

    def card_code(self, card: Card) -> str:
        """The card's name with the code a player types: ``asso di coppe (Ac)``."""
        return f"{self.card(card)} ({card})"

    def group(self, seats: Sequence[int]) -> str:
        names = [self.name(s) for s in seats if s != self.seat]
        if self.seat in seats:
            names.append("you")
        return joined(names)

    def side(self, seats: Iterable[int]) -> str:
        return self.group(list(seats))

    def partners(self) -> list[int]:
        """The person's partners, in seat order."""
        side = self.rules.sides[self.rules.side_of[self.seat]]
        return [s for s in side if s != self.seat]

    def introduction(self) -> str:
        """Who sits where, in a line: ``you sit South; North is your partner; ...``."""
        n = self.rules.players
        order = [self.name((self.seat + k) % n) for k in range(1, n)]
        line = f"you sit South; play goes from you to {joined(order)}"
        partners = self.partners()
        if partners:
            names = joined([self.name(s) for s in partners])
            verb = "is" if len(partners) == 1 else "are"
            plural_word = "partner" if len(partners) == 1 else "partners"
            line += f"; {names} {verb} your {plural_word}"
        return line
