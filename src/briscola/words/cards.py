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

DECK_LANGUAGE = {"italian-40": "it", "spanish-40": "es", "french-32": "en"}
"""The language a deck's faces are printed in: the letters in the corner of its courts."""

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


def corner(card: Card, deck: str) -> str:
    """The rank as a deck's face prints it in its corner: a Latin court by the initial of
    its name on the deck (``F``, ``C``, ``R``; ``S`` for the sota), the French 10 as
    ``10``, the others as the notation writes them."""
    if deck == "french-32":
        return "10" if card.rank is Rank.TEN else card.rank.value
    if card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        return rank_name(card.rank, STYLE_OF_DECK[deck], DECK_LANGUAGE[deck])[0].upper()
    return card.rank.value


SUIT_ORDER = {suit: i for i, suit in enumerate(Suit)}
"""The suits in the order a hand is sorted in: coppe, denari, spade, bastoni."""


def hand_order(rules: Rules, cards: Iterable[Card]) -> list[Card]:
    """A hand sorted as players hold it: by suit (coppe, denari, spade, bastoni), the
    strongest card first within each suit."""
    return sorted(cards, key=lambda c: (SUIT_ORDER[c.suit], -rules.strength[c]))
