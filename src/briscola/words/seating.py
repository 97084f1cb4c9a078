"""The seats as one reader names them, in the reader's language.

:data:`RECORD` is the voice of records and demos ("seat 1", cards as their codes).
:class:`Seating` is one person's: "you" at the bottom, the others by where they sit
("East", "North-West") or by their names at the table (a nickname, a computer player's
first name, as the web page names them), cards by their names in the table's deck. A
sentence about seats is said with :meth:`Voice.say`, which picks the key's form for who it
is about: ``you`` (the reader), ``other`` (someone else), ``with_you`` (several, the reader
among them), ``group`` (several others) or ``to_you`` (another seat's sentence said to the
reader, or of the reader's cards: ``addressed``), so that each language writes its own
agreement.

>>> from briscola.engine import Card, Rules
>>> seating = Seating.of(Rules.make("briscola-4"), seat=0)
>>> seating.name(0), seating.name(1), seating.name(2), seating.name(3)
('you', 'East', 'North', 'West')
>>> seating.say("tell.played", 1, card="x"), seating.say("tell.played", 0, card="x")
('East plays x', 'you play x')
>>> seating.side((0, 2)), seating.side((1, 3))
('North and you', 'East and West')
>>> seating.card(Card.parse("Qd")), seating.card_code(Card.parse("Qd"))
('knight of coins', 'knight of coins (Cd)')
>>> italian = Seating.of(Rules.make("briscola-4"), seat=0, lang="it")
>>> italian.say("tell.played", 1, card="x"), italian.side((0, 2))
('Est gioca x', 'Nord e tu')
>>> spanish = Seating.of(Rules.make("briscola-4"), seat=0, lang="es")
>>> spanish.say("tell.looked", 2, 1, to="Este"), spanish.say("tell.looked", 2, 0, to="tú")
('Norte mira las cartas de Este', 'Norte mira tus cartas')
>>> named = Seating.of(Rules.make("briscola-4"), seat=0, names={1: "Marco", 2: "Giulia"})
>>> named.name(1), named.name(2), named.name(3), named.place(2)
('Marco', 'Giulia', 'West', 'North')
>>> RECORD.say("tell.took", 1, trick=1, points="2 points"), RECORD.card(Card.parse("Qd"))
('seat 1 takes trick 1: 2 points', 'Qd')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from briscola.engine.cards import Card, Rank, Suit
from briscola.engine.rules import Rules
from briscola.words.cards import STYLE_OF_DECK, card_name, letter, rank_name, short, suit_name
from briscola.words.catalogue import Catalogue, Worded, catalogue


@dataclass(frozen=True)
class Voice:
    """Names of seats and cards for a reader; this one is the records' ("seat 1", "Qd")."""

    lang: str = "en"

    @property
    def words(self) -> Catalogue:
        """The reader's catalogue."""
        return catalogue(self.lang)

    def name(self, seat: int) -> str:
        return self.words.say("seat.number", n=seat)

    def card(self, card: Card) -> str:
        return str(card)

    def letter(self, rank: Rank) -> str:
        """A rank written short: the notation's letter here (``K``)."""
        return rank.value

    def form(self, seats: Sequence[int]) -> str:
        """Which form of a sentence fits ``seats``: ``other`` or ``group`` here."""
        return "other" if len(seats) == 1 else "group"

    def group(self, seats: Sequence[int]) -> str:
        """Several seats, named: ``seats 1, 3`` here, ``East and West`` at the table."""
        if len(seats) == 1:
            return self.name(seats[0])
        return self.words.say("seat.numbers", seats=", ".join(str(s) for s in seats))

    def side(self, seats: Iterable[int]) -> str:
        """A side's name: ``seats 0+2`` here, ``North and you`` at the table."""
        seats = list(seats)
        if len(seats) == 1:
            return self.name(seats[0])
        return self.words.say("seat.numbers", seats="+".join(str(s) for s in seats))

    def say(
        self,
        key: str,
        seats: int | Sequence[int],
        /,
        addressed: int | None = None,
        **values: object,
    ) -> str:
        """The sentence ``key`` about ``seats`` (one seat, or several): ``{who}`` is their
        name, and the form is the one that agrees with them (:meth:`form`). ``addressed``
        is the seat the sentence is said to, or of whose cards: when it is the reader's,
        the form is ``to_you`` ("Norte te pregunta"), where the key has it."""
        group = [seats] if isinstance(seats, int) else list(seats)
        form = self.form(group)
        if form == "other" and addressed is not None and addressed == self.reader:
            form = "to_you"
        return self.words.say(key, form=form, who=self.group(group), **values)

    @property
    def reader(self) -> int | None:
        """The reader's seat: none for the records' voice."""
        return None

    def joined(self, names: Sequence[str]) -> str:
        """``a``, ``a and b``, ``a, b and c`` in the reader's language."""
        if len(names) <= 1:
            return "".join(names)
        return self.words.say("list.and", rest=", ".join(names[:-1]), last=names[-1])

    def count(self, key: str, n: int) -> str:
        """A number and its noun, agreeing (``count.points``: ``1 point``, ``3 points``)."""
        return self.words.say(key, n=n)


RECORD = Voice()


@dataclass(frozen=True)
class Lettered(Voice):
    """The records' voice with the cards written as a deck's faces show them (``Rc``, the
    re of coppe): what ``briscola analyse``, ``replay`` and ``demo`` print for people; the
    records keep the notation (``Kc``)."""

    style: str = "napoletane"

    def card(self, card: Card) -> str:
        return short(card, self.style)

    def letter(self, rank: Rank) -> str:
        return letter(rank, self.style)


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


@dataclass(frozen=True)
class Seating(Voice):
    """One person's table: ``seat`` is "you", at the bottom; the others are named by
    where they sit (``seat.right``: East, ...), going round in the direction of play."""

    rules: Rules | None = None
    seat: int = 0
    slots: tuple[str, ...] = ()
    """Where each seat sits: ``bottom`` (you), ``right``, ``top``, ..."""
    names: tuple[str | None, ...] = ()
    """Each seat's name as the table shows it (a person's nickname, a computer player's
    first name, as the web page names them); a seat with none is named by its place."""
    points_shown: bool = True
    """Whether the points taken are said during a hand (the table's ``points`` setting
    ``shown``); under ``hidden`` the players count them in their head, and only a hand's
    end says them."""

    @classmethod
    def of(
        cls,
        rules: Rules,
        seat: int,
        lang: str = "en",
        names: Mapping[int, str] | None = None,
        points: str = "shown",
    ) -> Seating:
        """The table of the person at ``seat``; ``names``: the other seats' names, by seat
        (the others are named by their place); ``points``: the table's setting, ``shown``
        or ``hidden``."""
        n = rules.players
        around = SLOTS[n]
        if rules.direction == "left":
            around = tuple(MIRROR.get(s, s) for s in around)
        slots = ["bottom"] * n
        for k, slot in enumerate(around, 1):
            slots[(seat + k) % n] = slot
        catalogue(lang)  # a language there is not is refused here, not at the first line
        named = tuple((names or {}).get(s) or None for s in range(n))
        return cls(lang, rules, seat, tuple(slots), named, points != "hidden")

    @property
    def table(self) -> Rules:
        assert self.rules is not None  # made by of()
        return self.rules

    @property
    def deck(self) -> str:
        return self.table.game.deck_name

    @property
    def style(self) -> str:
        return STYLE_OF_DECK[self.deck]

    @property
    def card_lang(self) -> str:
        """The language cards are named in: the reader's, as the browser names them (in
        English the knave of cups, never an Italian name in an English sentence)."""
        return self.lang

    @property
    def reader(self) -> int | None:
        return self.seat

    def name(self, seat: int) -> str:
        """The seat's name: the reader's own is "you" with the forms the language gives
        it (Italian "a te" after a preposition: ``{to:dat}``); another's, its name at the
        table (:attr:`names`), else its place."""
        if seat == self.seat:
            return self.words.word("seat.you")
        if seat < len(self.names) and self.names[seat]:
            return str(self.names[seat])
        return self.place(seat)

    def place(self, seat: int) -> str:
        """Where the seat sits, as seen from the reader's: "East", "North", ..., declined
        like any noun where the language does (Croatian "pita suigrača Sjevera": ``{to:acc}``)."""
        if seat == self.seat:
            return self.words.word("seat.you")
        return self.words.word(f"seat.{self.slots[seat]}")

    def form(self, seats: Sequence[int]) -> str:
        if len(seats) == 1:
            return "you" if seats[0] == self.seat else "other"
        return "with_you" if self.seat in seats else "group"

    def game(self) -> str:
        """The table's game by its name in the reader's language (``Briscola a coppie``)."""
        return self.words.say(f"game.{self.table.game.key}.name")

    def card(self, card: Card) -> str:
        return card_name(card, self.style, self.card_lang)

    def rank(self, rank: Rank) -> str:
        return rank_name(rank, self.style, self.card_lang)

    def suit(self, suit: Suit) -> str:
        return suit_name(suit, self.style, self.card_lang)

    def short(self, card: Card) -> str:
        """The card written short as its face shows it, as a player may type it: ``Fs``
        (the fante of spade), ``Sd`` (the sota de oros), ``Kb``."""
        return short(card, self.style)

    def letter(self, rank: Rank) -> str:
        """A rank as the table's cards print it: ``R``, ``C``, ``F`` on the Italian cards."""
        return letter(rank, self.style)

    def card_code(self, card: Card) -> Worded:
        """The card's name with the code a player types: ``asso di coppe (Ac)``, with the
        card name's forms (Spanish ``def``: ``el as de copas (1c)``)."""
        return self.words.word("card.code", card=self.card(card), code=self.short(card))

    def group(self, seats: Sequence[int]) -> str:
        names = [self.name(s) for s in seats if s != self.seat]
        if self.seat in seats:
            names.append(self.name(self.seat))
        return self.joined(names)

    def side(self, seats: Iterable[int]) -> str:
        return self.group(list(seats))

    def partners(self) -> list[int]:
        """The person's partners, in seat order."""
        side = self.table.sides[self.table.side_of[self.seat]]
        return [s for s in side if s != self.seat]

    def introduction(self) -> str:
        """Who sits where, in a line: ``you sit South; North is your partner; ...``."""
        n = self.table.players
        order = [self.name((self.seat + k) % n) for k in range(1, n)]
        line = self.words.say("seat.intro", n=len(order), order=self.joined(order))
        partners = self.partners()
        if partners:
            names = self.joined([self.name(s) for s in partners])
            line += self.words.say("seat.partners", n=len(partners), names=names)
        return line
