"""The cards' names: one table of rank names per card style, in each language's catalogue
(``rank.napoletane.A``, ``suit.french.c``, ``suitof.napoletane.b``, ``card.name``), and the
one function that names a card (:func:`card_name`).

>>> from briscola.engine import Card
>>> card_name(Card.parse("Ab"), "napoletane", "it"), card_name(Card.parse("Ab"), "napoletane", "hr")
('asso di bastoni', 'as baštona')
>>> card_name(Card.parse("Qd"), "spanish", "es"), card_name(Card.parse("Ts"), "french", "en")
('caballo de oros', 'ten of spades')
>>> corner(Card.parse("Qd"), "italian-40"), corner(Card.parse("Ts"), "french-32")
('C', '10')

A rank written short, by a person's words (a bid, the terminal's card list, a hint), is
the letter its card shows (:func:`letter`): ``R C F`` on the Italian cards, ``R C S`` on
the Spanish (and ``1`` for the as), ``K Q J`` on the French. The records and the protocol
keep the notation (``K Q J``); :func:`short` writes a card as a person reads it and
:func:`read_short` reads it back, in the deck's letters or the notation:

>>> short(Card.parse("Jd"), "napoletane"), short(Card.parse("Jd"), "spanish")
('Fd', 'Sd')
>>> read_short("Fd", "napoletane"), read_short("jd", "napoletane"), read_short("10c", "french")
(Card.parse('Jd'), Card.parse('Jd'), Card.parse('Tc'))
"""

from __future__ import annotations

from collections.abc import Iterable

from briscola.engine.cards import FRENCH_32, ITALIAN_40, Card, Rank, Suit
from briscola.engine.rules import Rules
from briscola.words.catalogue import Worded, catalogue

STYLES = ("napoletane", "spanish", "french")
"""The card faces a player may choose; each has its table of rank and suit names."""

STYLE_OF_DECK = {"italian-40": "napoletane", "spanish-40": "spanish", "french-32": "french"}
"""The faces a game's own deck is named by."""


STYLE_CARDS = {
    "napoletane": ITALIAN_40,
    "spanish": ITALIAN_40,
    "french": ITALIAN_40 + tuple(c for c in FRENCH_32 if c not in ITALIAN_40),
}
"""The cards each style names: the French faces serve the 40-card games and Briškula's 32."""


def rank_name(rank: Rank, style: str, lang: str) -> Worded:
    """A rank's name in a style's words, with its forms: ``asso`` (``l'asso``), ``sota``
    (``la sota``), ``queen``."""
    return catalogue(lang).word(f"rank.{style}.{rank.value}")


def suit_name(suit: Suit, style: str, lang: str) -> Worded:
    """A suit's name, alone: ``coppe``, ``oros``, ``hearts``."""
    return catalogue(lang).word(f"suit.{style}.{suit.value}")


def card_name(card: Card, style: str, lang: str) -> Worded:
    """A card's name in a style's words and a language, with its forms: ``asso di
    bastoni`` (``l'asso di bastoni``), ``as baštona`` (``asa baštona``: the accusative;
    the suit as a card's name needs it: ``suitof``).

    >>> card_name(Card.parse("Jd"), "spanish", "es").form("def")
    'la sota de oros'
    """
    words = catalogue(lang)
    rank = rank_name(card.rank, style, lang)
    return words.word("card.name", rank=rank, suit=words.word(f"suitof.{style}.{card.suit.value}"))


LETTERS: dict[str, dict[Rank, str]] = {
    "napoletane": {Rank.JACK: "F", Rank.QUEEN: "C", Rank.KING: "R"},
    "spanish": {Rank.ACE: "1", Rank.JACK: "S", Rank.QUEEN: "C", Rank.KING: "R"},
    "french": {Rank.TEN: "10"},
}
"""The letters each style's cards print in their corners where they differ from the
notation: the courts by the initials of their names on the deck (fante, cavallo, re; sota,
caballo, rey), the Spanish as as ``1``, the French 10 as ``10``. The one table of them:
the card art (:mod:`briscola.web.art`), the terminal and the browser (``letters`` of
``GET /api/words``) read it."""


def letter(rank: Rank, style: str) -> str:
    """A rank as a style's cards print it: ``R`` (re), ``S`` (sota), ``K``, ``10``, ``7``.

    >>> [letter(Rank.KING, s) for s in STYLES], letter(Rank.SEVEN, "spanish")
    (['R', 'R', 'K'], '7')
    """
    return LETTERS[style].get(rank, rank.value)


def letters(style: str) -> dict[str, str]:
    """Every rank's letter in a style, by the rank's notation: ``{"K": "R", ...}``."""
    return {r.value: letter(r, style) for r in Rank}


def short(card: Card, style: str) -> str:
    """A card written short as a person reads it: the rank as its card shows it, then the
    suit's letter of the notation (``Fs``: the fante of spade; ``10c``)."""
    return letter(card.rank, style) + card.suit.value


def read_short(text: str, style: str) -> Card:
    """A card written short (:func:`short`) or in the notation, read back: the style's
    letters first (``Cs``, the cavallo of spade, in the Italian style).

    :raises MalformedError: when ``text`` is neither (the notation's own message)."""
    word = text.strip()
    by_letter = {v.upper(): r for r, v in LETTERS[style].items()}
    for head, rank in by_letter.items():
        suit = word[len(head) :]
        if word[: len(head)].upper() == head and len(suit) == 1:
            return Card.parse(rank.value + suit)
    return Card.parse(word)


def read_rank(text: str, style: str) -> Rank | None:
    """A rank written as a style's cards print it or in the notation (``R``, ``K``,
    ``6``), or ``None``."""
    word = text.strip().upper()
    for rank, shown in LETTERS[style].items():
        if shown.upper() == word:
            return rank
    return Rank(word) if word in {r.value for r in Rank} else None


def corner(card: Card, deck: str) -> str:
    """The rank as a deck's face prints it in its corner (:func:`letter` of the deck's
    style)."""
    return letter(card.rank, STYLE_OF_DECK[deck])


SUIT_ORDER = {suit: i for i, suit in enumerate(Suit)}
"""The suits in the order a hand is sorted in: coppe, denari, spade, bastoni."""


def hand_order(rules: Rules, cards: Iterable[Card], trump: Suit | None = None) -> list[Card]:
    """A hand sorted as players hold it, as the browser sorts it by suit (js/handsort.js):
    by suit (coppe, denari, spade, bastoni), the trumps last once the trump is known, the
    strongest card first within each suit.

    >>> from briscola.engine import Rules
    >>> cards = [Card.parse(c) for c in ("2b", "Ac", "3b", "Kd")]
    >>> [str(c) for c in hand_order(Rules.make("briscola-2"), cards, Suit.COPPE)]
    ['Kd', '3b', '2b', 'Ac']
    """
    return sorted(cards, key=lambda c: (c.suit is trump, SUIT_ORDER[c.suit], -rules.strength[c]))
