"""The words package: every catalogue says every English sentence, with the same places
and forms; no English is left in another language; plural forms follow the browser's
``Intl.PluralRules``; a card has one name, from one table of ranks per card style."""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import pytest

from briscola.engine import Card, Rules
from briscola.engine.cards import FRENCH_32, ITALIAN_40
from briscola.words.cards import STYLE_CARDS, STYLES, card_name, corner
from briscola.words.catalogue import (
    GRAMMAR,
    LANGUAGES,
    PERSONS,
    PLACE,
    PLURALS,
    LanguageError,
    catalogue,
    catalogue_json,
    check_language,
    language_from_env,
    plural_category,
)
from briscola.words.names import NAMES
from briscola.words.narrate import Narrator
from briscola.words.seating import Seating

SAME_AS_ENGLISH = {
    "app.title", "bid.rank", "card.code", "chat.title", "lang.en", "lang.es", "lang.hr",
    "lang.it", "plain.card_choice", "plain.choice", "rules.game",
    "session.introduction", "side.figure", "table.trump_card", "table.trump_suit",
    "view.bid", "view.played", "style.napoletane", "setup.seat_bot", "remote.bot",
    "remote.seat_who",
    "talkword.answer.no", "word.no", "word.cappotto", "word.carichi",
    "word.carico", "word.lisci", "word.liscio", "rule.cappotto.title", "rule.rais.title",
}  # fmt: skip
"""Keys whose text may be the same as the English one: formats with nothing to
translate, names, and the Italian words English players use."""

PROPER_NAMES = {
    "game.brisca.name", "game.briscola-2.name", "game.briscolone.name", "game.briskula.name",
    "game.chiamata.name", "game.schembil.name",
}  # fmt: skip
"""The games' own names, which a language may keep as the English page writes them."""


def raw(lang: str) -> dict[str, Any]:
    source = resources.files("briscola.words").joinpath("catalogues").joinpath(f"{lang}.json")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


def places(text: str) -> set[str]:
    """The names of a text's places (the grammatical form each asks for is the language's
    own: ``{card:acc}`` is a ``card`` place)."""
    return {name for name, _ in PLACE.findall(text)}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_catalogue_has_every_english_key_with_the_same_places_and_forms(lang: str) -> None:
    """A language may add the plural and grammatical forms English needs none of, with the
    same places, and persons: a person English says with its ``other`` form (Spanish "Norte
    te pregunta" for "North asks you") has that form's places, less those its own words
    say (the reader, in the verb)."""
    english, other = raw("en"), raw(lang)
    assert set(other) == set(english), sorted(set(english) ^ set(other))[:10]
    for key, text in english.items():
        theirs = other[key]
        ours = text if isinstance(text, dict) else {"other": text}
        if isinstance(theirs, str):
            assert isinstance(text, str), (key, theirs)
            assert places(theirs) == places(ours["other"]), (key, theirs)
            continue
        assert set(ours) <= set(theirs), (key, theirs)
        assert set(theirs) - set(ours) <= set(PLURALS) | set(GRAMMAR) | set(PERSONS), key
        for form, said in theirs.items():
            if form in PERSONS and form not in ours:
                assert places(said) <= places(ours["other"]), (key, form, said)
            else:
                assert places(said) == places(ours.get(form, ours["other"])), (key, form, said)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_is_whole_and_its_forms_are_known(lang: str) -> None:
    for key, text in raw(lang).items():
        forms = text if isinstance(text, dict) else {"other": text}
        assert set(forms) <= set(PLURALS) | set(PERSONS) | set(GRAMMAR), key
        assert "other" in forms, key
        assert all(isinstance(s, str) and s.strip() for s in forms.values()), key


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_no_english_is_left_where_the_words_differ(lang: str) -> None:
    english, other = raw("en"), raw(lang)
    kept = SAME_AS_ENGLISH | PROPER_NAMES
    left = sorted(k for k, v in english.items() if other.get(k) == v and k not in kept)
    assert not left, left


def test_plural_categories_are_the_browsers() -> None:
    """Intl.PluralRules: one/other in it, en, es; one/few/other in hr."""
    assert [plural_category("en", n) for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural_category("hr", n) for n in (1, 2, 4, 5, 11, 12, 21, 22, 25, 101)] == [
        "one", "few", "few", "other", "other", "other", "one", "few", "other", "one",
    ]  # fmt: skip
    hr = catalogue("hr")
    assert [hr.say("count.points", n=n) for n in (1, 3, 5)] == ["1 bod", "3 boda", "5 bodova"]


def test_a_missing_key_is_said_in_english_and_an_unknown_one_is_a_clear_error() -> None:
    it = catalogue("it")
    it.texts.pop("app.title")
    try:
        assert it.say("app.title") == "Briscola"
    finally:
        catalogue.cache_clear()
    with pytest.raises(KeyError, match="no catalogue has the key"):
        catalogue("en").say("no.such.key")


def test_the_language_comes_from_the_flag_or_the_locale() -> None:
    assert check_language(" IT ") == "it"
    with pytest.raises(LanguageError, match="choose one of it, en, es, hr"):
        check_language("fr")
    assert language_from_env({"LANG": "hr_HR.UTF-8"}) == "hr"
    assert language_from_env({"LC_ALL": "es_ES", "LANG": "it_IT"}) == "es"
    assert language_from_env({"LANG": "fr_FR.UTF-8"}) == "en"
    assert language_from_env({}) == "en"


def test_the_browser_gets_the_same_catalogue() -> None:
    sent = catalogue_json("hr")
    assert sent["lang"] == "hr" and sent["texts"] == {**raw("en"), **raw("hr")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_of_every_style_has_its_own_name(lang: str) -> None:
    for style in STYLES:
        names = [card_name(c, style, lang) for c in STYLE_CARDS[style]]
        assert len(set(names)) == len(names) and all(names), (style, lang)
    assert len(STYLE_CARDS["french"]) == len(set(ITALIAN_40) | set(FRENCH_32))


def test_the_terminal_names_cards_in_the_readers_language_with_the_decks_letters() -> None:
    """One form for card names in English text, the browser's: the English name, never an
    Italian name in an English sentence ("the turned card is the asso di bastoni"); a rank
    written short is the letter the deck's card shows (issue 39: R C F on the Italian cards,
    R C S on the Spanish, K Q J on the French)."""
    english = Seating.of(Rules.make("briscola-2"), 0)
    italian = Seating.of(Rules.make("briscola-2"), 0, "it")
    croatian = Seating.of(Rules.make("briscola-2"), 0, "hr")
    card = Card.parse("Jb")
    assert english.card(card) == "knave of batons"
    assert italian.card(card) == "fante di bastoni"
    assert croatian.card(card) == "fanat baštona"
    assert Seating.of(Rules.make("briskula"), 0).card(Card.parse("Tc")) == "ten of hearts"
    assert english.card_code(card) == "knave of batons (Fb)"
    turned = english.words.say("view.turned", card=english.card_code(Card.parse("Ab")))
    assert "asso" not in turned and "ace of batons" in turned
    brisca = Seating.of(Rules.make("brisca"), 0, "es")
    assert brisca.card_code(Card.parse("Jd")).form("def") == "la sota de oros (Sd)"
    assert [corner(Card.parse(c), "italian-40") for c in ("Jc", "Qc", "Kc", "7c")] == [
        "F", "C", "R", "7",
    ]  # fmt: skip
    assert [corner(Card.parse(c), "spanish-40") for c in ("Jc", "Qc", "Kc")] == ["S", "C", "R"]
    assert [corner(Card.parse(c), "french-32") for c in ("Jc", "Qc", "Kc")] == ["J", "Q", "K"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_seats_are_named_in_every_language(lang: str) -> None:
    seating = Seating.of(Rules.make("briscola-6"), 0, lang)
    names = [seating.name(s) for s in range(6)]
    assert len(set(names)) == 6
    assert seating.introduction() and "{" not in seating.introduction()


def test_the_terminal_game_speaks_the_language_of_lang_or_of_the_locale() -> None:
    from typer.testing import CliRunner

    from briscola.terminal.cli import app

    runner = CliRunner()
    args = ["play", "--plain", "--seed", "1", "--bot", "random"]
    italian = runner.invoke(app, [*args, "--lang", "it"], input="1\nquit\n")
    # the computer player named as at a web table (the seed's Italian first name)
    found = re.search(r"sei a Sud; dopo di te gioca (\w+)", italian.stdout)
    assert found and found[1] in NAMES["it"], italian.stdout
    assert "la tua mossa:" in italian.stdout and "\ngiochi il " in italian.stdout
    assert "tu giochi" not in italian.stdout and "hai lasciato la partita" in italian.stdout
    spanish = runner.invoke(
        app, args, input="quit\n", env={"LANG": "es_ES.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    )
    found = re.search(r"estás en el Sur; después de ti juega (\w+)", spanish.stdout)
    assert found and found[1] in NAMES["es"], spanish.stdout
    english = runner.invoke(
        app, args, input="quit\n", env={"LANG": "fr_FR.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    )
    assert "you sit South" in english.stdout
    wrong = runner.invoke(app, [*args, "--lang", "fr"])
    assert wrong.exit_code != 0 and "choose one of it, en, es, hr" in wrong.output


def test_the_words_use_only_the_engine() -> None:
    """The words are one floor: the terminal, the server and the browser (through the
    server) use them; they use only the engine's cards and rules."""
    import ast

    folder = resources.files("briscola.words")
    for name in ("catalogue", "cards", "seating", "narrate", "rules"):
        tree = ast.parse(folder.joinpath(f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("briscola")
            ):
                assert node.module.startswith(("briscola.engine", "briscola.words")), (
                    name,
                    node.module,
                )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_trump_question_and_low_trumps_hold_in_games_without_twos(lang: str) -> None:
    """Schembil and Briscola a 6 play without the 2s: the trump question said "from the 2
    to the 6" (issue 39); what it and the low-trumps signal say holds in every deck."""
    words = catalogue(lang)
    twos = re.compile(r"\b2\b|\bdue\b|\bdos\b|dvic|\btwo\b")
    for key in ("question.trumps", "signal.low-trumps"):
        assert not twos.search(words.say(key)), (lang, key, words.say(key))
    rules = Rules.make("schembil")
    narrator = Narrator(rules, Seating.of(rules, 0, lang))
    asked = {"kind": "ask", "seat": 0, "to": 2, "what": "trumps", "answer": "briscoline"}
    assert not twos.search(narrator.describe_talk(asked, True).split("?")[0])


def test_english_reads_as_english() -> None:
    """Issue 39's English lines."""
    en = catalogue("en")
    assert "the 2 who draw the highest cards play together" in en.say("rules.partners.drawn", k=2)
    assert en.say("signal.queen") == "I hold the cavallo (knight) of trumps"
    assert en.say("rules.rais_talk").startswith("Only the rais ask and give orders")
    assert "Dalmatian briškula is played with the 40 Triestine cards" in en.say(
        "game.briskula.summary"
    )


def test_the_browser_is_sent_the_one_table_of_the_decks_letters() -> None:
    """``GET /api/words``'s ``letters`` are words/cards.py's: the page writes a rank short
    as the terminal and the card art do."""
    from briscola.web import art
    from briscola.words.rules import words

    sent = words("it")["letters"]
    assert sent["napoletane"] == {**{r: r for r in "A234567"}, "J": "F", "Q": "C", "K": "R",
                                       "8": "8", "9": "9", "T": "T"}  # fmt: skip
    assert [sent["spanish"][r] for r in "AJQK"] == ["1", "S", "C", "R"]
    assert [sent["french"][r] for r in "TJQK"] == ["10", "J", "Q", "K"]
    for style in STYLES:
        for rank, shown in art.STYLE[style].corners.items():
            assert sent[style][rank.value] == shown, (style, rank)
