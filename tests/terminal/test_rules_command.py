"""``briscola rules GAME [--rule NAME=VALUE ...] [--lang LANG]``: the rules of a game in
plain words in the terminal, the same sentences as the browser's rules page, topic by
topic, in the language of ``--lang`` or of the locale; an unknown game, rule or value is
said in the reader's words (the catalogue's ``error.bad_game`` and ``error.bad_rules``),
with what the rule may be. (That each house rule's every value prints something else, in
each language, is tests/words/test_rules.py's.)"""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from briscola.terminal.cli import app
from briscola.words.catalogue import LANGUAGES, catalogue
from briscola.words.rules import rules_text

runner = CliRunner()


def printed(text: str) -> dict[str, list[str]]:
    """The printed rules: each topic's heading and its sentences, their wrapped lines
    joined."""
    topics: dict[str, list[str]] = {}
    heading = ""
    for line in text.splitlines():
        if line.startswith("  - "):
            topics[heading].append(line[4:])
        elif line.startswith("    "):
            topics[heading][-1] += " " + line.strip()
        else:
            heading = line
            topics[heading] = []
    return topics


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_are_the_browsers_sentences_topic_by_topic(lang: str) -> None:
    rules = {"communication": "signals", "match": "points:11"}
    args = ["rules", "briscola-4", "--lang", lang]
    done = runner.invoke(
        app, [*args, "--rule", "communication=signals", "--rule", "match=points:11"]
    )
    assert done.exit_code == 0, done.output
    said = rules_text("briscola-4", rules, lang)
    words = catalogue(lang)
    topics = list(dict.fromkeys(s.topic for s in said))
    expected = {
        words.say(f"words.topic.{t}"): [s.text for s in said if s.topic == t] for t in topics
    }
    assert printed(done.stdout) == expected
    assert list(printed(done.stdout))[:2] == [words.say("words.topic.game"),
                                              words.say("words.topic.deal")]  # fmt: skip


def test_the_language_comes_from_the_locale_without_lang() -> None:
    env = {"LANG": "es_ES.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    done = runner.invoke(app, ["rules", "brisca"], env=env)
    assert done.exit_code == 0 and catalogue("es").say("words.topic.deal") in done.stdout
    done = runner.invoke(app, ["rules", "brisca", "--lang", "fr"])
    assert done.exit_code == 2 and "choose one of it, en, es, hr" in done.output


@pytest.mark.parametrize(
    ("args", "code", "values", "then"),
    [
        (["poker"], "bad_game", {"game": "poker"}, None),
        (["briscola-2", "--rule", "colour=red"], "bad_rules", {"rule": "colour", "value": "red"},
         "{rules}: match, sixty_sixty, direction, last_trick,"),
        (["briscola-2", "--rule", "direction=up"], "bad_rules",
         {"rule": "direction", "value": "up"}, "direction: right | left"),
        (["briscola-2", "--rule", "match=points:0"], "bad_rules",
         {"rule": "match", "value": "points:0"},
         "match: best-of-3 | one-hand | best-of-5 | hands:N (N: 1-9999) | points:N (N: 1-9999)"),
        (["brisca", "--rule", "communication=signals"], "bad_rules",
         {"rule": "communication", "value": "signals"}, "needs a game in teams"),
        # teams=pairs alone would be refused (two players), but with four it is not
        (["briskula", "--rule", "teams=pairs", "--rule", "players=4", "--rule", "direction=up"],
         "bad_rules", {"rule": "direction", "value": "up"}, "direction: right | left"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("lang", ["hr", "it"])
def test_an_unknown_game_rule_or_value_is_said_in_the_readers_words(
    args: list[str], code: str, values: dict[str, Any], then: str | None, lang: str
) -> None:
    done = runner.invoke(app, ["rules", *args, "--lang", lang])
    assert done.exit_code == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    words = catalogue(lang)
    assert lines[0] == f"error: {words.say(f'error.{code}', **values)}"
    if then is None:
        assert len(lines) == 1
    else:
        assert len(lines) == 2 and then.format(rules=words.say("setup.rules")) in lines[1]


def test_a_rule_that_is_not_name_equals_value_is_told_how_to_write_it() -> None:
    done = runner.invoke(app, ["rules", "briscola-2", "--rule", "match"])
    assert done.exit_code == 2 and "write NAME=VALUE" in done.output
