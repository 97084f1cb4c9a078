"""The rules in plain words and the game's words (briscola.words.rules): every game and
house rule of the catalogue has its sentences, each choice of a rule says something else,
every text is a key of the four catalogues, and the routes answer and refuse as documented."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from briscola.catalog import variants_json
from briscola.engine import GAMES, RULES, BriscolaError
from briscola.engine.cards import FRENCH_32, ITALIAN_40
from briscola.engine.house_rules import HouseRule
from briscola.engine.presets import COMMON_RULES, TALK_RULES, TEAM_RULES, Game
from briscola.words.catalogue import Catalogue, catalogue
from briscola.words.rules import (
    LANGUAGES,
    TRUMP,
    K,
    LanguageError,
    P,
    Sentence,
    choice_label,
    rules_text,
    words,
)

CATALOGUE = variants_json()


def in_force(game: dict[str, Any], rule: str) -> dict[str, Any]:
    """House rules under which ``rule`` has an effect at a table of ``game``: team rules
    in a game played in teams, the signals' audience with signals, their spotting chance
    when opponents spot them, the exchange's timing with an exchange."""
    names = {r["name"] for r in game["rules"]}
    given: dict[str, Any] = {}
    if rule in (*TEAM_RULES, *TALK_RULES, "teams"):
        if "players" in names:
            given["players"] = 4
        if "teams" in names and rule != "teams":
            given["teams"] = "pairs"
    if rule in ("signal_audience", "spot_chance"):
        given["communication"] = "signals"
    if rule == "spot_chance":
        given["signal_audience"] = "spotted"
    if rule == "exchange_timing":
        given["trump_exchange"] = "seven"
    return given


def values_of(rule: dict[str, Any]) -> list[Any]:
    """Each choice of a rule in the catalogue, and two values of each of its patterns."""
    out = list(rule["choices"])
    for form in rule["patterns"]:
        prefix = form["pattern"].removesuffix("N")
        low, high = form["min"], form["max"]
        for n in (low, (low + high) // 2):
            out.append(f"{prefix}{n}" if prefix else n)
    return list(dict.fromkeys(out))


def cases() -> Iterator[tuple[str, str]]:
    for game in CATALOGUE:
        for rule in game["rules"]:
            yield game["key"], rule["name"]


def texts(sentences: list[Sentence], rule: str = "") -> list[str]:
    """The sentences' texts: all, or those of house rule ``rule``."""
    return [s.text for s in sentences if not rule or s.rule == rule]


@functools.cache
def briscola_command() -> Any:
    """The ``briscola`` command as Click runs it, made once (Typer makes it at each call)."""
    import typer

    from briscola.terminal.cli import app

    return typer.main.get_command(app)


def terminal_rules(game: str, rules: dict[str, Any], lang: str) -> str:
    """What ``briscola rules GAME --rule NAME=VALUE... --lang LANG`` prints."""
    from click.testing import CliRunner

    args = ["rules", game, "--lang", lang]
    for name, value in rules.items():
        args += ["--rule", f"{name}={value}"]
    done = CliRunner().invoke(briscola_command(), args)
    assert done.exit_code == 0, (args, done.output)
    return done.stdout


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("key", "name"), list(cases()))
def test_each_choice_of_each_rule_says_something_else(key: str, name: str, lang: str) -> None:
    """In the rules text, and in the terminal's ``briscola rules``, which says it."""
    game = next(g for g in CATALOGUE if g["key"] == key)
    rule = next(r for r in game["rules"] if r["name"] == name)
    base = in_force(game, name)
    default = rules_text(key, base, lang)
    own = texts(default, name)
    assert own, f"{key}: house rule {name} has no sentence of its own"
    seen = {tuple(texts(default))}
    printed = {terminal_rules(key, base, lang)}
    for value in values_of(rule):
        if value == rule["default"]:
            continue
        said = rules_text(key, {**base, name: value}, lang)
        assert texts(said, name) != own, f"{key} {name}={value} ({lang}): the same sentences"
        assert tuple(texts(said)) not in seen, f"{key} {name}={value} ({lang}) says no more"
        seen.add(tuple(texts(said)))
        shown = terminal_rules(key, {**base, name: value}, lang)
        assert shown not in printed, f"briscola rules {key} {name}={value} ({lang}) prints no more"
        printed.add(shown)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_has_sentences_of_its_own_and_none_is_empty(lang: str) -> None:
    placeholder = re.compile(r"[{}]|\bNone\b")
    for game in CATALOGUE:
        rules_sets: list[dict[str, Any]] = [{}] + [in_force(game, r["name"]) for r in game["rules"]]
        for given in rules_sets:
            said = rules_text(game["key"], given, lang)
            assert [s for s in said if s.rule is None], game["key"]
            assert said[0].topic == "game" and words(lang)["games"][game["key"]]["name"] in (
                said[0].text
            )
            for s in said:
                assert s.text.strip() and not placeholder.search(s.text), (game["key"], s)
                assert s.text[0].isupper() or s.text[0].isdigit(), s
                assert s.text.endswith("."), s
                assert s.rule is None or s.rule in {r["name"] for r in game["rules"]}, s
                assert s.topic in ("game", "deal", "play", "scoring", "match", "talk"), s


def test_the_sentences_follow_the_settings() -> None:
    """Spot checks of what the sentences say, against the engine's behaviour."""

    def en(game: str, **rules: Any) -> str:
        return " ".join(s.text for s in rules_text(game, rules, "en"))

    assert "You must follow suit" in en("briscola-2", follow_suit="required")
    assert "You need not follow suit" in en("briscola-2")
    assert "Nobody may look at the last trick." in en("briscola-2", last_trick="hidden")
    two = en("briscola-2", trump_exchange="two")
    assert "If you hold the trump 2 you may swap it for the turned card." in two
    assert "on your turn, before you play, while the stock lasts" in two
    assert "only the last one" in en("briscola-2")
    assert "39 cards" in en("briscola-3") and "two of cups" in en("briscola-3")
    assert "36 cards" in en("briscola-6") and "seven, six, five, four." in en("briscola-6")
    assert "no trump suit" in en("briscolone") and "121 points" in en("briscolone")
    assert "most points" in en("briskula", players=3)
    assert "only the players who drew" in en("briskula", players=3)
    assert "only the players who drew" not in en("briskula", players=4)
    assert "ace, ten, king, queen, jack, nine, eight, seven" in en("briskula")
    assert "king, knave, knight" in en("briscola-2", court_order="south")
    assert "knave 3, knight 2" in en("briscola-2", court_order="south")
    assert "bid rank" in en("chiamata") and "knave, knight" in en("chiamata", court_order="south")
    assert "either partner" in en("briscola-6", communication="conversation")
    assert "Whoever first wins 1 hand wins" in en("briscola-2", match="hands:1")
    assert "changes nothing" in en("briscolone", cappotto="double")
    assert "seat 5 for one team and seat 4" in en("schembil", rais="4-3")  # from 1
    assert "Briscola" not in en("briskula")  # its own name
    hr = " ".join(s.text for s in rules_text("briscola-2", {"match": "hands:3"}, "hr"))
    assert "dobije 3 igre" in hr  # a deal is an "igra", a trick a "ruka"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_familys_word_for_trump_replaces_the_word_wherever_trump_is_named(
    lang: str,
) -> None:
    word = catalogue(lang).word(TRUMP.key)  # in any of its forms: Croatian "briškulu"
    said = sorted({word, *word.forms.values()}, key=len, reverse=True)
    whole = re.compile(rf"(?<!\w)({'|'.join(re.escape(w) for w in said)})(?!\w)")
    names = sorted((g["name"] for g in words(lang)["games"].values()), key=len, reverse=True)

    def unnamed(text: str) -> str:
        """The text without the games' names (Zvana briškula keeps its name)."""
        for name in names:
            text = text.replace(name, "")
        return text

    settings = [
        ("briscola-2", {"trump_exchange": "seven-or-two"}),
        ("briscola-4", {"communication": "signals"}),
        ("briscola-4", {"communication": "conversation"}),
        ("chiamata", {}),
        ("briscolone", {}),
        ("briskula", {}),
    ]
    for key, given in settings:
        plain = rules_text(key, given, lang)
        family = rules_text(key, given, lang, trump_word="Drumpf")
        assert len(plain) == len(family)
        named = [p for p in plain if whole.search(unnamed(p.text))]
        assert named, f"{key} ({lang}) never names trump"
        for p, f in zip(plain, family, strict=True):
            assert not whole.search(unnamed(f.text)), f
            assert bool(whole.search(unnamed(p.text))) == ("Drumpf" in f.text), (p, f)
    assert words(lang, "Drumpf")["trump"] == "Drumpf"
    exchange = words(lang, "Drumpf")["rules"]["trump_exchange"]["choices"]
    assert any("Drumpf" in c["label"] for c in exchange)


def all_texts() -> Iterator[tuple[str, K | P]]:
    from briscola.words import rules

    for name in dir(rules):
        value = getattr(rules, name)
        if isinstance(value, K | P):
            yield name, value
        elif isinstance(value, dict):
            for k, v in value.items():
                items = v if isinstance(v, tuple) else (v,)
                for i, item in enumerate(items):
                    if isinstance(item, K):
                        yield f"{name}[{k!r}][{i}]", item
                    elif isinstance(item, dict):
                        for kk, vv in item.items():
                            if isinstance(vv, K):
                                yield f"{name}[{k!r}][{kk!r}]", vv


def test_every_text_is_a_key_of_every_catalogue() -> None:
    """Each sentence of the rules is a key every catalogue has (words/test_catalogue.py
    checks that every catalogue has the English places and forms)."""
    found = list(all_texts())
    assert len(found) > 100  # the walk finds the tables
    for lang in LANGUAGES:
        texts = catalogue(lang).texts
        for where, text in found:
            assert text.key in texts, (lang, where, text.key)


def own_words(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the rules' words come from ``lang``'s catalogue alone: a key it lacks is a
    ``KeyError``, not the English said in its place."""
    own = Catalogue(lang, catalogue(lang).texts, None)
    monkeypatch.setattr("briscola.words.rules.catalogue", lambda _: own)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_rule_and_choice_of_the_engine_has_its_words_in_every_catalogue(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Walked from the engine's registries (every game, every house rule, each of its
    choices and forms, every number of players), each said from the language's own
    catalogue."""
    own_words(lang, monkeypatch)
    said = words(lang)
    assert set(said["games"]) == set(GAMES) and set(said["rules"]) == set(RULES)
    for key, game in GAMES.items():
        assert said["games"][key]["name"] and said["games"][key]["summary"]
        assert len(rules_text(key, {}, lang)) > 5
        for name in game.rules:
            for value in game.allowed(name):
                assert choice_label(name, value, lang), (key, name, value)
    for name, rule in RULES.items():
        mine = said["rules"][name]
        assert mine["title"] and mine["help"], name
        values: list[Any] = list(rule.choices)
        values += [f"{f.prefix}{f.high}" if f.prefix else f.high for f in rule.forms]
        for value in values:
            assert choice_label(name, value, lang), (name, value)
        assert set(mine["patterns"]) == {f.pattern for f in rule.forms}


def test_a_new_house_rule_and_game_need_the_engine_and_the_catalogues_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A house rule and a game registered in the engine, with their words in the
    catalogues, are named and explained by the words, the rules text and their choices
    labelled, with no table of the words to add them to."""
    monkeypatch.setitem(RULES, "tempo", HouseRule("tempo", "how fast", ("calm", "brisk")))
    game = Game("briscola-lampo", "Briscola lampo", "quick", (2,), "italian-40", 3,
                (*COMMON_RULES, "tempo"))  # fmt: skip
    monkeypatch.setitem(GAMES, game.key, game)
    texts = {
        "game.briscola-lampo.name": "Briscola lampo",
        "game.briscola-lampo.summary": "una briscola veloce",
        "rule.tempo.title": "Ritmo",
        "rule.tempo.help": "quanto in fretta si gioca",
        "choice.tempo.calm": "con calma",
        "choice.tempo.brisk": "di corsa",
    }
    for lang in ("en", "it"):
        for key, text in texts.items():
            monkeypatch.setitem(catalogue(lang).texts, key, text)
    said = words("it")
    assert said["games"]["briscola-lampo"]["name"] == "Briscola lampo"
    assert said["games"]["briscola-lampo"]["rules"]["tempo"]["label"] == "con calma"
    assert said["rules"]["tempo"]["title"] == "Ritmo"
    assert [c["label"] for c in said["rules"]["tempo"]["choices"]] == ["con calma", "di corsa"]
    assert choice_label("tempo", "brisk", "it") == "di corsa"
    first = rules_text("briscola-lampo", {"tempo": "brisk"}, "it")[0]
    assert "Briscola lampo" in first.text and "una briscola veloce" in first.text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_words_name_every_card_and_every_game_rule_and_choice(lang: str) -> None:
    w = words(lang)
    for style, decks in (
        ("napoletane", [ITALIAN_40]),
        ("spanish", [ITALIAN_40]),
        ("french", [ITALIAN_40, FRENCH_32]),
    ):
        for deck in decks:
            names = [w["cards"][style][str(c)] for c in deck]
            assert len(set(names)) == len(deck) and all(names), (style, lang)
        assert len(w["suits"][style]) == 4
    for key in ("trump", "trick", "hand", "match", "points", "carichi"):
        assert w["words"][key], key
    assert (
        w["cards"]["napoletane"]["Ab"]
        == {
            "it": "asso di bastoni",
            "en": "ace of batons",
            "es": "as de bastos",
            "hr": "as baštona",
        }[lang]
    )
    for game in CATALOGUE:
        entry = w["games"][game["key"]]
        assert entry["name"] and entry["summary"]
        for rule in game["rules"]:
            mine = entry["rules"][rule["name"]]
            assert mine["default"] == rule["default"] and mine["label"]
            assert w["rules"][rule["name"]]["title"] and w["rules"][rule["name"]]["help"]
            labels = [choice_label(rule["name"], v, lang) for v in values_of(rule)]
            assert all(label and "{" not in label for label in labels), rule["name"]
            assert len(set(labels)) == len(labels), (rule["name"], labels)
            for form in rule["patterns"]:
                assert "{n}" in w["rules"][rule["name"]]["patterns"][form["pattern"]]
    for name, rule in w["rules"].items():
        assert [c["value"] for c in rule["choices"] if c["default"]] == [RULES[name].choices[0]]
    assert set(w["games"]) == set(GAMES) and set(w["rules"]) == set(RULES)


def test_a_bad_language_game_or_rule_is_the_engines_clear_error() -> None:
    with pytest.raises(LanguageError, match="choose one of it, en, es, hr"):
        rules_text("briscola-2", {}, "fr")
    with pytest.raises(LanguageError):
        words("de")
    with pytest.raises(BriscolaError, match="the games are"):
        rules_text("poker", {}, "en")
    with pytest.raises(BriscolaError, match="choose one of right, left"):
        rules_text("briscola-2", {"direction": "up"}, "en")
    with pytest.raises(BriscolaError, match="needs a game in teams"):
        rules_text("brisca", {"communication": "signals"}, "en")


# -- the routes, through a real server -----------------------------------------------------


async def test_the_routes_answer_and_refuse_as_documented(server: Any) -> None:
    import httpx

    from serverkit import Client, open_table

    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        r = await http.get("/api/words", params={"lang": "hr"})
        assert r.status_code == 200 and r.json() == words("hr")
        r = await http.get("/api/words", params={"lang": "it", "trump_word": "drumpf"})
        assert r.json()["trump"] == "drumpf"
        r = await http.get(
            "/api/games/briscola-2/rules-text",
            params={"lang": "es", "last_trick": "hidden", "trump_word": "pinta"},
        )
        body = r.json()
        assert r.status_code == 200 and body["game"] == "briscola-2" and body["lang"] == "es"
        assert body["rules"]["last_trick"] == "hidden" and body["rules"]["match"] == "best-of-3"
        expected = rules_text("briscola-2", {"last_trick": "hidden"}, "es", "pinta")
        assert body["sentences"] == [s.to_json() for s in expected]
        r = await http.get("/api/games/brisca/rules-text", params={"players": "4"})
        assert r.status_code == 200 and r.json()["lang"] == "en"
        for path, params, status, code in [
            ("/api/words", {"lang": "fr"}, 400, "bad_language"),
            ("/api/games/briscola-2/rules-text", {"lang": "fr"}, 400, "bad_language"),
            ("/api/games/poker/rules-text", {}, 404, "bad_game"),
            ("/api/games/briscola-2/rules-text", {"direction": "up"}, 400, "bad_rules"),
            ("/api/games/briscola-2/rules-text", {"colour": "red"}, 400, "bad_rules"),
            ("/api/tables/nosuch/rules-text", {}, 404, "not_found"),
            ("/api/words", {"trump_word": "x" * 31}, 422, "bad_request"),
        ]:
            r = await http.get(path, params=params)
            error = r.json()["error"]
            assert (r.status_code, error["code"]) == (status, code), (path, params, r.text)
            assert error["message"] and f"`{code}`" in doc
        assert (
            "right, left"
            in (
                await http.get("/api/games/briscola-2/rules-text", params={"direction": "up"})
            ).json()["error"]["message"]
        )
    host = await Client(server.url, "Ana").login()
    try:
        rules = {"follow_suit": "required", "last_trick": "hidden"}
        table = await open_table(host, "briscola-2", [{"kind": "me"}, {"kind": "open"}], rules)
        r = await host.http.get(f"/api/tables/{table['token']}/rules-text", params={"lang": "it"})
        body = r.json()
        assert r.status_code == 200 and body["rules"]["follow_suit"] == "required"
        expected = rules_text("briscola-2", rules, "it")
        assert body["sentences"] == [s.to_json() for s in expected]
        assert "Nessuno può guardare l'ultima presa." in [s["text"] for s in body["sentences"]]
    finally:
        await host.aclose()
