"""One catalogue of sentences per language, and how a sentence is said.

A catalogue (``catalogues/LANG.json``) maps a key (``tell.played``) to a text with
``{name}`` places, or to the text's forms: the plural categories ``one``, ``few`` and
``other``, chosen by the number ``n`` as ``Intl.PluralRules`` chooses them in the browser;
the persons of a sentence about seats (``you``, ``other``, ...: chosen by ``form``); and the
grammatical forms of a word (:data:`GRAMMAR`: ``def`` with its definite article, the cases
``acc``, ``gen``, ...). A place may ask for a grammatical form of what fills it:
``{card:acc}`` is the accusative of a :class:`Worded` value (its plain text when it has no
such form), so that "Igraj {card:acc}" says "Igraj asa kupa". A key missing in a language
is said in English. The browser gets the same catalogues as JSON from the
server (``GET /api/catalogue?lang=``, :func:`catalogue_json`), so a sentence is written once.

>>> en, hr = catalogue("en"), catalogue("hr")
>>> en.say("count.cards", n=1), en.say("count.cards", n=3)
('1 card', '3 cards')
>>> hr.say("count.cards", n=1), hr.say("count.cards", n=3), hr.say("count.cards", n=5)
('1 karta', '3 karte', '5 karata')
>>> it = catalogue("it")
>>> ace = it.word("card.name", rank=it.word("rank.napoletane.A"), suit="coppe")
>>> ace, ace.form("def"), it.say("tell.played", form="other", who="Ana", card=ace)
('asso di coppe', "l'asso di coppe", "Ana gioca l'asso di coppe")
>>> plural_category("hr", 21), plural_category("hr", 12), plural_category("it", 1)
('one', 'other', 'one')
>>> language_from_env({"LANG": "it_IT.UTF-8"}), language_from_env({"LANG": "C"})
('it', 'en')
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from briscola.engine.errors import BriscolaError, shown

LANGUAGES = ("it", "en", "es", "hr")
"""Italian, English, Spanish, Croatian."""

BASE = "en"
"""The language every catalogue falls back to, and whose keys every catalogue has."""

PLURALS = ("one", "few", "other")
"""The plural categories a text may have forms for (Croatian uses all three)."""

PERSONS = ("you", "other", "with_you", "group", "to_you")
"""The persons of a sentence about seats (:meth:`briscola.words.seating.Voice.say`): the
reader, another seat, several with the reader among them, several others; and another
seat whose sentence is said to the reader or of the reader's cards ("North asks you",
Spanish "Norte te pregunta", where the reader is no name put in a third person's place).
A language writes only the persons it needs: a missing one is said as ``other``."""

GRAMMAR = ("def", "indef", "nom", "gen", "dat", "acc", "voc", "loc", "ins")
"""The grammatical forms a word may have: with its definite or indefinite article (Italian
"l'asso", Spanish "la sota"), and the cases (Croatian "asa", accusative)."""

PHRASES = ("hello", "nice_hand", "well_played", "thanks", "good_luck", "again", "sorry", "bye")
"""The friendly phrases of a table's chat (its ``chat`` setting ``phrases``: all it takes
once the cards are dealt), each said in the reader's language: ``chat.phrase.ID``."""

PLACE = re.compile(r"\{(\w+)(?::(\w+))?\}")
"""A place in a text: ``{name}``, or ``{name:form}`` for a grammatical form of its value."""


class Worded(str):
    """A word or phrase (the text itself) with its grammatical forms (:data:`GRAMMAR`), as
    :meth:`Catalogue.word` makes it: ``{card:acc}`` in a text takes ``forms["acc"]``."""

    forms: dict[str, str]

    def __new__(cls, text: str, forms: Mapping[str, str] | None = None) -> Worded:
        made = super().__new__(cls, text)
        made.forms = dict(forms or {})
        return made

    def form(self, name: str) -> str:
        """The form ``name``, or the plain text when the word has no such form."""
        return self.forms.get(name, str(self))


def fill(text: str, values: Mapping[str, object]) -> str:
    """``text`` with its places filled from ``values`` (a place with no value stays)."""

    def value(m: re.Match[str]) -> str:
        if m[1] not in values:
            return m[0]
        v = values[m[1]]
        return v.form(m[2]) if m[2] and isinstance(v, Worded) else str(v)

    return PLACE.sub(value, text)


class LanguageError(BriscolaError):
    """A language the interface does not speak."""


def check_language(lang: object) -> str:
    """``lang`` (any case, spaces around it) if it is one of :data:`LANGUAGES`, else a
    :class:`LanguageError` naming them."""
    if isinstance(lang, str) and lang.strip().lower() in LANGUAGES:
        return lang.strip().lower()
    raise LanguageError(f"there is no language {shown(lang)}: choose one of {', '.join(LANGUAGES)}")


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The interface's language from the environment's locale (``LC_ALL``, then
    ``LC_MESSAGES``, then ``LANG``: ``it_IT.UTF-8`` is Italian); English when it names
    none of :data:`LANGUAGES`."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            code = re.split(r"[_.@-]", value, maxsplit=1)[0].lower()
            return code if code in LANGUAGES else BASE
    return BASE


def plural_category(lang: str, n: int) -> str:
    """The plural category of the whole number ``n`` in ``lang``, as ``Intl.PluralRules``
    gives it for whole numbers: ``one``, ``few`` (Croatian 2-4, 22-24, ...) or ``other``."""
    n = abs(n)
    if lang == "hr":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "other"
    return "one" if n == 1 else "other"


Text = str | dict[str, str]
"""A catalogue's entry: a text, or its forms by plural category or name."""


class Catalogue:
    """The sentences of one language (:func:`catalogue` gives each once)."""

    def __init__(self, lang: str, texts: Mapping[str, Text], base: Catalogue | None) -> None:
        self.lang = lang
        self.texts = dict(texts)
        self.base = base
        """The catalogue a missing key is said from (English), ``None`` for English."""

    def __contains__(self, key: object) -> bool:
        return key in self.texts or (self.base is not None and key in self.base)

    def entry(self, key: str) -> Text:
        """The text (or forms) of ``key``, in this language or else in English.

        :raises KeyError: when no catalogue has ``key`` (a mistake in the program)."""
        if key in self.texts:
            return self.texts[key]
        if self.base is not None:
            return self.base.entry(key)
        raise KeyError(f"no catalogue has the key {key!r}")

    def say(self, key: str, /, *, form: str | None = None, **values: object) -> str:
        """The text of ``key`` with its ``{name}`` places filled from ``values`` (a place
        with no value stays as it is). Of a text with forms: the form named ``form``, else
        the plural category of ``values["n"]``, else ``other``."""
        return self._say(key, form, values)

    def _say(self, key: str, form: str | None, values: Mapping[str, object]) -> str:
        text = self.entry(key)
        if isinstance(text, dict):
            text = self._form(key, text, form, values.get("n"))
        return fill(text, values)

    def word(self, key: str, /, **values: object) -> Worded:
        """The text of ``key`` as :meth:`say` gives it, with each grammatical form its entry
        has (:data:`GRAMMAR`) said the same way: a card's name with its article and cases.
        """
        text = self.entry(key)
        forms = [f for f in text if f in GRAMMAR] if isinstance(text, dict) else []
        return Worded(self._say(key, None, values), {f: self._say(key, f, values) for f in forms})

    def _form(self, key: str, forms: dict[str, str], form: str | None, n: object) -> str:
        if form is not None and form in forms:
            return forms[form]
        if isinstance(n, int) and not isinstance(n, bool):
            category = plural_category(self.lang, n)
            if category in forms:
                return forms[category]
        if "other" in forms:
            return forms["other"]
        raise KeyError(f"{key!r} has no form {form or 'other'!r} in {self.lang}")

    __call__ = say


def _read(lang: str) -> dict[str, Text]:
    source = resources.files("briscola.words").joinpath("catalogues").joinpath(f"{lang}.json")
    data: dict[str, Text] = json.loads(source.read_text(encoding="utf-8"))
    return data


@cache
def catalogue(lang: str) -> Catalogue:
    """The catalogue of ``lang`` (one of :data:`LANGUAGES`; :class:`LanguageError` else),
    read once."""
    lang = check_language(lang)
    base = None if lang == BASE else catalogue(BASE)
    return Catalogue(lang, _read(lang), base)


def catalogue_json(lang: str) -> dict[str, Any]:
    """What the browser is sent of ``lang``: its language and its texts, the English of
    any key it lacks filled in (``{"lang": "it", "texts": {...}}``)."""
    cat = catalogue(lang)
    texts = dict(cat.base.texts) if cat.base is not None else {}
    texts.update(cat.texts)
    return {"lang": cat.lang, "texts": texts}
