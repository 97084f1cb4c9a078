"""The first names of a table's computer players, by the table's language.

A computer player is called by a common first name of its table's language: Italian at an
``it`` table, and at an ``en`` one too (the family's game is Italian, and so are the people
it is played with), Spanish at an ``es`` table, Croatian (from Dalmatia, where briškula is
played) at an ``hr`` one. The names are chosen from the table's token alone, so that every
page, terminal, server process and restart names the same computer player alike, and they
differ from each other and, when there are names enough, from the nicknames of the people
at the table.

>>> names = computer_names("ypEoIK3q", "it", [0, 2], ["Ana"])
>>> sorted(names) == [0, 2] and len(set(names.values())) == 2
True
>>> all(name in NAMES["it"] for name in names.values())
True
>>> computer_names("ypEoIK3q", "it", [0, 2], ["Ana"]) == names
True
>>> taken = names[2]
>>> computer_names("ypEoIK3q", "it", [0, 2], [taken.upper()])[2] != taken
True
>>> lookalike = taken.translate(str.maketrans("aeo", "\u0430\u0435\u043e"))  # Cyrillic
>>> lookalike != taken and computer_names("ypEoIK3q", "it", [0, 2], [lookalike])[2] != taken
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from briscola.words.lookalikes import looks_like

ITALIAN = (
    "Giulia", "Marco", "Francesca", "Luca", "Chiara",
    "Matteo", "Sofia", "Giuseppe", "Anna", "Paolo",
)  # fmt: skip

SPANISH = (
    "Lucía", "Javier", "Carmen", "Pablo", "Elena",
    "Diego", "María", "Andrés", "Isabel", "Manuel",
)  # fmt: skip

CROATIAN = (
    "Ante", "Mare", "Jure", "Kate", "Frane",
    "Ivana", "Duje", "Tonka", "Šime", "Marija",
)  # fmt: skip

NAMES: dict[str, tuple[str, ...]] = {
    "it": ITALIAN,
    "en": ITALIAN,
    "es": SPANISH,
    "hr": CROATIAN,
}
"""The computer players' names by table language: ``en`` has the Italian ones (see the
module's documentation)."""


def name_order(seed: str, lang: str) -> list[str]:
    """The names of ``lang`` (an unknown language has the Italian ones) in the order
    ``seed`` (a table's token) gives them: the same order everywhere, at every run."""
    names = NAMES.get(lang, ITALIAN)
    return sorted(names, key=lambda n: hashlib.sha256(f"{seed}\n{n}".encode()).digest())


def computer_names(
    seed: str, lang: str, seats: Iterable[int], nicknames: Iterable[str]
) -> dict[int, str]:
    """The name of each computer player at ``seats`` (counted from 0, fewer than the
    language has names), by seat: seat ``s`` has the ``s``-th name of :func:`name_order`,
    unless it looks like one of the people's ``nicknames`` (case, spaces and look-alike
    letters aside: :func:`~briscola.words.lookalikes.name_keys`); then it has the first
    name in that order that no seat has and no one is called (the ``s``-th still, when
    there is none left)."""
    order = name_order(seed, lang)
    chosen = sorted(seats)
    people = list(nicknames)
    first = {order[s % len(order)] for s in chosen}
    taken = {n for n in order if people and looks_like(n, people)}
    spare = [n for n in order if n not in first and n not in taken]
    names: dict[int, str] = {}
    for s in chosen:
        name = order[s % len(order)]
        if name in taken and spare:
            name = spare.pop(0)
        names[s] = name
    return names


__all__ = ["NAMES", "computer_names", "name_order"]
