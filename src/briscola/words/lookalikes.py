"""Names that look alike: Unicode's confusables skeleton (UTS #39, section 4).

Two nicknames are mistaken for each other when they look the same, not only when they
are spelt the same: ``Anonymous`` written with a Cyrillic capital A is ``Anonymous`` to
the eye, and ``Marco`` written with the Roman numeral M is ``Marco``. UTS #39 tells them
apart by a *skeleton*: the text decomposed (NFD), its default-ignorable characters
dropped, each character replaced by the prototype of the characters it may be confused
with, and decomposed again. Strings with one skeleton are confusable. A skeleton is a
key for comparing, never a name to show.

The mapping comes from Unicode's ``confusables.txt``, as the package
``confusable-homoglyphs`` ships it: each line there pairs a character with its prototype,
and the package keeps both ends of every pair (without saying which is the prototype),
so the mapping is rebuilt here as classes: every character paired with another single
character joins its class, named by the class's least character; a character whose
prototype is several characters (``m``: ``rn``) maps to their classes' names.

:func:`name_keys` is what nicknames are compared by: the skeleton of the name with its
spaces collapsed and NFKC applied (``marco`` in full-width letters is ``marco``), as
written, case folded and in capitals. :func:`bare_keys` drops the accents too, for the
names no one may take (:func:`looks_like`: an accent on ``Anonymous`` is easily missed,
and the deleted account's name is ``Anónimo`` in Spanish, ``Anonimo`` in Italian).

>>> looks_like("\\u0410nonymous", ["Anonymous"])
True
>>> looks_like("Anonymou\\u0301s", ["Anonymous"], accents=False)
True
>>> looks_like("Marko", ["Marco"])
False
>>> looks_like("Šime", ["Sime"]) or looks_like("Ćiro", ["Čiro"])
False
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

DIRECTION_MARKS = "\u200e\u200f"
"""Left-to-right and right-to-left marks: the package's data writes them around the
characters of right-to-left scripts (they are no part of the pairs)."""

DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)  # fmt: skip
"""The ranges of Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties):
invisible, and dropped from a skeleton."""


IGNORABLE = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in DEFAULT_IGNORABLE) + "]")
"""A default-ignorable code point (:data:`DEFAULT_IGNORABLE`)."""


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character's prototype (see the module's documentation); the
    characters not in it are their own. Read once, from the package's data (the
    server's extra: ``confusable-homoglyphs``)."""
    from confusable_homoglyphs.utils import load  # type: ignore[import-untyped]

    pairs: dict[str, list[dict[str, str]]] = load("confusables.json")
    parent: dict[str, str] = {}

    def root(c: str) -> str:
        parent.setdefault(c, c)
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    longer: dict[str, str] = {}
    for key, others in pairs.items():
        one = key.strip(DIRECTION_MARKS)
        if len(one) != 1:
            continue  # a prototype of several characters: its sources name it
        for other in others:
            two = other["c"].strip(DIRECTION_MARKS)
            if len(two) == 1:
                a, b = root(one), root(two)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            elif two:
                longer[one] = two
    mapping = {c: root(c) for c in parent if root(c) != c}
    for source, target in longer.items():
        mapping[source] = "".join(root(c) if c in parent else c for c in target)
    return mapping


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: strings with one skeleton are confusable."""
    mapping = prototypes()
    seen = IGNORABLE.sub("", unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", "".join([mapping.get(c, c) for c in seen]))


@functools.lru_cache(maxsize=4096)
def name_keys(name: str) -> frozenset[str]:
    """What ``name`` is compared by: the skeletons of it with its spaces collapsed and
    NFKC applied, as written, case folded and in capitals (``Marco`` is ``MARCO``, which
    looks like ``MARC0`` with a zero). Two names look alike when they share one."""
    plain = unicodedata.normalize("NFKC", " ".join(name.split()))
    return frozenset({skeleton(plain), skeleton(plain.casefold()), skeleton(plain.upper())})


@functools.lru_cache(maxsize=4096)
def bare_keys(name: str) -> frozenset[str]:
    """:func:`name_keys` without the accents (the combining marks), for the names no
    one may take."""
    return frozenset(
        "".join(c for c in key if unicodedata.category(c) != "Mn") for key in name_keys(name)
    )


def looks_like(name: str, others: Iterable[str], accents: bool = True) -> bool:
    """Whether ``name`` may be mistaken for one of ``others`` (``accents=False``: were
    the accents not seen)."""
    keys = name_keys if accents else bare_keys
    mine = keys(name)
    return any(mine & keys(other) for other in others)


__all__ = ["bare_keys", "looks_like", "name_keys", "prototypes", "skeleton"]
