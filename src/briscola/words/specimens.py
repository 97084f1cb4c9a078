"""Every sentence of a catalogue said once with sample values, for a reader to check
without reading code: each person of a sentence about seats (the reader's own seat,
another's, another's said to the reader), each plural at 1, 2, 3, 5, 11, 21 and 22, each
grammatical form.

``python -m briscola.words.specimens it`` prints Italian's; ``tests/words/specimens/``
keeps each language's, read and checked once, and the tests compare the catalogue with
them (``--write`` writes them again after a change, for the diff to be read).

>>> lines = specimens("it")
>>> lines[lines.index("tell.played") + 1 : lines.index("tell.played") + 3]
["  you: giochi l'asso di coppe", "  other: Ana gioca l'asso di coppe"]
"""

from __future__ import annotations

import sys
from pathlib import Path

from briscola.engine.cards import Card
from briscola.words.cards import card_name, rank_name
from briscola.words.catalogue import (
    GRAMMAR,
    LANGUAGES,
    PERSONS,
    PLACE,
    PLURALS,
    Catalogue,
    catalogue,
)

NUMBERS = (1, 2, 3, 5, 11, 21, 22)
"""The numbers each plural is said at: one of each category in every language, and the
numbers whose category differs between them (Croatian 21 is ``one``, 22 ``few``)."""

NAMES = ("Ana", "Marko", "Lucía")
"""The nicknames the samples seat: player names, which no language declines."""


def samples(words: Catalogue) -> dict[str, object]:
    """A value for every place a sentence may have: cards, seats and numbers as the table
    says them; the places filled by the program alone show their name (``<path>``)."""
    rank = rank_name(Card.parse("Kc").rank, "napoletane", words.lang)
    ace = card_name(Card.parse("Ac"), "napoletane", words.lang)
    three = card_name(Card.parse("3b"), "napoletane", words.lang)
    return {
        "card": ace, "given": three, "taken": ace, "turned": three,
        "who": NAMES[0], "to": NAMES[1], "To": NAMES[1], "caller": NAMES[0],
        "partner": NAMES[1], "dealer": NAMES[2], "side": NAMES[0], "name": NAMES[0],
        "names": words.say("list.and", rest=", ".join(NAMES[:2]), last=NAMES[2]),
        "rank": rank, "suit": words.word("suit.napoletane.c"),
        "trump": words.word("word.trump"),
        "points": words.say("count.points", n=11), "trick": 3, "code": "R",
        "bid": words.word("bid.rank", rank=rank, code="R"), "king": "R", "call": "call Rd",
        "nickname": NAMES[0], "lang": "fr", "rule": "match", "value": "best-of-7",
        "length": 412, "choice": ace, "chance": 64,
        "worth": "31.2" if words.lang == "en" else "31,2",
    }  # fmt: skip


def said(words: Catalogue, key: str, form: str | None, n: int | None) -> str:
    values: dict[str, object] = {name: f"<{name}>" for name, _ in PLACE.findall(_texts(words, key))}
    sample = samples(words)
    values.update((k, v) for k, v in sample.items() if k in values)
    if form == "you":
        values["who"] = words.say("seat.you")
    elif form == "with_you":
        values["who"] = words.say("list.and", rest=NAMES[0], last=words.say("seat.you"))
    elif form == "group":
        values["who"] = sample["names"]
    elif form == "to_you":
        you = words.say("seat.you")
        values["to"], values["To"] = you, you[:1].upper() + you[1:]
    if n is not None:
        values["n"] = n
    if key == "card.name":  # a card's name says its suit as such a name does (Croatian "kupa")
        values["suit"] = words.word("suitof.napoletane.c")
    return words.say(key, form=form, **values)


def _texts(words: Catalogue, key: str) -> str:
    entry = words.entry(key)
    return " ".join(entry.values()) if isinstance(entry, dict) else entry


def specimens(lang: str) -> list[str]:
    """Every key of ``lang``'s catalogue (English's keys), then its sentences indented:
    ``you: ...``, ``other: ...``, ``3: ...``, ``def: ...`` (a text of several lines goes
    on, indented further)."""
    words = catalogue(lang)
    english = catalogue("en")
    lines: list[str] = []
    for key in sorted(english.texts):
        entry = words.entry(key)
        lines.append(key)
        forms = entry if isinstance(entry, dict) else {"other": entry}
        persons = [f for f in PERSONS if f in forms] if set(forms) - {"other"} else []
        persons = persons if set(persons) - {"other"} else []
        plural = any(f in PLURALS and f != "other" for f in forms) or (
            not persons and bool({"n"} & {name for name, _ in PLACE.findall(_texts(words, key))})
        )
        grammar = [f for f in GRAMMAR if f in forms]
        if persons:
            lines += [f"  {f}: {said(words, key, f, 3)}" for f in persons]
        if plural:
            lines += [f"  {n}: {said(words, key, None, n)}" for n in NUMBERS]
        if grammar:
            lines += [f"  {f}: {said(words, key, f, None)}" for f in ["other", *grammar]]
        if not (persons or plural or grammar):
            lines.append(f"  {said(words, key, None, None)}")
    return [part for line in lines for part in line.replace("\n", "\n    ").split("\n")]


def folder() -> Path:
    """Where the tests keep the specimens read and checked (a checkout's ``tests``)."""
    return Path(__file__).resolve().parents[3] / "tests" / "words" / "specimens"


def main(argv: list[str]) -> int:
    write = "--write" in argv
    langs = [a for a in argv if a != "--write"] or list(LANGUAGES)
    for lang in langs:
        text = "\n".join(specimens(lang)) + "\n"
        if write:
            (folder() / f"{lang}.txt").write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))


__all__ = ["NUMBERS", "samples", "specimens"]
