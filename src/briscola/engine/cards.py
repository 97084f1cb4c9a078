"""Cards, suits, ranks and decks, in the project's two-character notation.

A card is written rank then suit: ``5b`` is the 5 of bastoni (clubs), ``Qd`` the
cavallo (queen) of denari (diamonds), ``Ts`` the 10 of spades of a French deck.

>>> Card.parse("Ab")
Card.parse('Ab')
>>> str(Card.parse("qd")), Card.parse("Qd").suit.italian
('Qd', 'denari')

Cards are interned: there is exactly one object per card, so ``is`` and ``==``
agree, cards hash fast, and copying or pickling a card gives back the same object.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, ClassVar

from briscola.engine.errors import MalformedError, shown


class Suit(StrEnum):
    """The four suits; the letter is the notation, the names are the decks' own."""

    COPPE = "c"
    DENARI = "d"
    SPADE = "s"
    BASTONI = "b"

    @property
    def italian(self) -> str:
        return _SUIT_NAMES[self][0]

    @property
    def spanish(self) -> str:
        return _SUIT_NAMES[self][1]

    @property
    def french(self) -> str:
        return _SUIT_NAMES[self][2]


_SUIT_NAMES = {
    Suit.COPPE: ("coppe", "copas", "hearts"),
    Suit.DENARI: ("denari", "oros", "diamonds"),
    Suit.SPADE: ("spade", "espadas", "spades"),
    Suit.BASTONI: ("bastoni", "bastos", "clubs"),
}


class Rank(StrEnum):
    """Ranks: ``J`` is the fante (sota, jack), ``Q`` the cavallo (caballo, queen),
    ``K`` the re (rey, king); ``8 9 T`` exist only in the French 32-card deck."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def italian(self) -> str:
        return _RANK_NAMES.get(self, self.value)


_RANK_NAMES = {
    Rank.ACE: "asso",
    Rank.THREE: "tre",
    Rank.KING: "re",
    Rank.QUEEN: "cavallo",
    Rank.JACK: "fante",
    Rank.TEN: "10",
}

_RANKS = tuple(Rank)
_SUITS = tuple(Suit)


class Card:
    """One card. Build it with :meth:`parse` or ``Card(Rank.ACE, Suit.SPADE)``."""

    __slots__ = ("index", "rank", "suit", "text")
    _interned: ClassVar[dict[tuple[Rank, Suit], Card]] = {}
    _by_text: ClassVar[dict[str, Card]] = {}

    rank: Rank
    suit: Suit
    index: int
    """A small integer unique to the card (0..51), for tables and bitmasks."""
    text: str
    """The card's notation, rank then suit: ``5b``."""

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        try:
            return cls._interned[(rank, suit)]
        except (KeyError, TypeError):  # TypeError: an unhashable rank or suit
            raise MalformedError(
                f"there is no card of rank {shown(rank)} and suit {shown(suit)}"
            ) from None

    @classmethod
    def _make(cls, rank: Rank, suit: Suit) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", _SUITS.index(suit) * len(_RANKS) + _RANKS.index(rank))
        object.__setattr__(card, "text", rank.value + suit.value)
        cls._interned[(rank, suit)] = card
        cls._by_text[rank.value + suit.value] = card
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"5b"``-style notation (case-insensitive; ``10`` is accepted for ``T``).

        >>> Card.parse("10c")
        Card.parse('Tc')
        >>> Card.parse("Xb")
        Traceback (most recent call last):
        ...
        briscola.engine.errors.MalformedError: 'Xb' is not a card: write rank then suit, \
like 5b or Ac (ranks A 2 3 4 5 6 7 8 9 T J Q K, suits c d s b)
        """
        if isinstance(text, str):
            card = cls._by_text.get(text)
            if card is not None:
                return card
            norm = text.strip()
            if norm[:2] == "10":
                norm = "T" + norm[2:]
            if len(norm) == 2:
                card = cls._by_text.get(norm[0].upper() + norm[1].lower())
                if card is not None:
                    return card
        raise MalformedError(
            f"{shown(text)} is not a card: write rank then suit, like 5b or Ac "
            "(ranks A 2 3 4 5 6 7 8 9 T J Q K, suits c d s b)"
        )

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("cards are immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card.parse, (str(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self


for _suit in _SUITS:
    for _rank in _RANKS:
        Card._make(_rank, _suit)


def parse_cards(texts: Iterable[str] | str) -> list[Card]:
    """Parse several cards: ``parse_cards(["Ab", "3c"])``, or ``parse_cards("Ab 3c")``."""
    if isinstance(texts, str):
        texts = texts.split()
    elif not isinstance(texts, Iterable):
        raise MalformedError(f'expected cards like ["Ab", "3c"] or "Ab 3c", got {shown(texts)}')
    return [Card.parse(t) for t in texts]


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as notation separated by spaces.

    >>> cards_text(parse_cards(["Ab", "3c"]))
    'Ab 3c'
    """
    return " ".join(str(c) for c in cards)


ITALIAN_RANKS = (
    Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE,
    Rank.SIX, Rank.SEVEN, Rank.JACK, Rank.QUEEN, Rank.KING,
)  # fmt: skip
"""The ranks of the 40-card Italian and Spanish decks (and the French deck minus 8, 9, 10)."""

FRENCH_32_RANKS = (
    Rank.ACE, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING,
)  # fmt: skip
"""The ranks of Briškula's 32-card French deck."""


def make_deck(ranks: Iterable[Rank]) -> tuple[Card, ...]:
    """Every card of the given ranks in the four suits, in suit then rank order."""
    rank_list = list(ranks)
    return tuple(Card(r, s) for s in _SUITS for r in rank_list)


ITALIAN_40 = make_deck(ITALIAN_RANKS)
FRENCH_32 = make_deck(FRENCH_32_RANKS)


def carichi(cards: Iterable[Card], points: Mapping[Card, int]) -> tuple[Card, ...]:
    """The carichi among ``cards``, in their order: the cards worth one of the two highest
    point values of the deck that ``points`` values (a rule set's ``points``). In the
    40-card decks they are the aces and the threes; in Briškula's 32 cards the aces and
    the 10s.

    >>> french = {c: {"A": 11, "T": 10, "K": 4}.get(c.rank.value, 0) for c in FRENCH_32}
    >>> cards_text(carichi(parse_cards("Kb Tb 7b Ab 3c"), french))
    'Tb Ab'
    """
    top = carichi_values(points)
    return tuple(c for c in cards if points.get(c, 0) in top)


def carichi_values(points: Mapping[Card, int]) -> frozenset[int]:
    """The two highest point values of the deck that ``points`` values: a card worth one
    of them is a carico (:func:`carichi`)."""
    return frozenset(sorted({p for p in points.values() if p > 0}, reverse=True)[:2])
