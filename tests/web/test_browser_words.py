"""The page speaks the table's language with the project's art: every card, back and
empty place is a picture that loaded (``/cards/STYLE/CARD.svg?v=VERSION``), in the style
of the preferences (French for the 32-card deck), each named as the game's words name it
in the page's language and style; the rules page and the setup screen say the rules of
the settings chosen, in that language and with the family's word for trump; and a
family's saved house rules open a new table in one click."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

import briscola
from browserkit import Person, token_of

STRINGS = Path(briscola.__file__).parent / "words" / "catalogues"


def get(p: Person, path: str) -> Any:
    return httpx.get(p.base + path, timeout=10).json()


CARDS = """() => [...document.querySelectorAll('.card')].map((el) => {
  const img = el.querySelector('img');
  return {
    label: el.getAttribute('aria-label'), card: el.dataset.card || null,
    back: el.classList.contains('back'), slot: el.classList.contains('slot'),
    src: img ? img.getAttribute('src') : null, loaded: !!img && img.naturalWidth > 0,
  };
})"""


@pytest.mark.parametrize(
    ("game", "chosen", "shown"),
    [
        ("briscola-2", "napoletane", "napoletane"),
        ("briscola-2", "spanish", "spanish"),
        ("briscola-2", "french", "french"),
        ("briskula", "napoletane", "french"),  # the 32-card deck: French faces whatever
    ],
)
def test_cards_are_the_art_named_in_the_language_and_style(
    people: Callable[[str], Person], game: str, chosen: str, shown: str
) -> None:
    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#play-now")
    ana.set_prefs(style=chosen, lang="it")
    ana.page.select_option("#quick-game", game)
    ana.page.click("#play-now")
    ana.page.wait_for_selector("#hand .card")
    ana.page.wait_for_selector("[data-role=seat] .mini-hand .card.back")
    ana.page.wait_for_function(
        "() => [...document.querySelectorAll('.card img')].every((i) => i.complete)"
    )
    cards = ana.page.evaluate(CARDS)
    words = get(ana, "/api/words?lang=it")
    version = get(ana, "/api/games")["version"]
    assert version == briscola.__version__
    faces = [c for c in cards if c["card"]]
    backs = [c for c in cards if c["back"]]
    assert len(faces) >= 4 and backs  # the hand, the turned card; the opponent's hand
    for c in cards:
        assert c["loaded"], c
        assert c["src"].startswith(f"/cards/{shown}/"), c
        assert c["src"].endswith(f".svg?v={version}"), c
    for c in faces:
        assert c["label"] == words["cards"][shown][c["card"]], c
    suits = set(words["suits"][shown].values())
    assert all(c["label"].split()[-1] in suits for c in faces)
    assert ana.page.locator(".stock .card.back img").count() == 1  # the stock, face down
    if chosen == "french" or shown == "french":
        ana.shoot(f"table-{game}-{chosen}")


def sentences(page: Any, box: str) -> dict[str, list[str]]:
    got: dict[str, list[str]] = page.evaluate(
        """(box) => {
          const out = {};
          for (const li of document.querySelectorAll(`${box} li[data-rule]`))
            (out[li.dataset.rule] ||= []).push(li.textContent);
          return out;
        }""",
        box,
    )
    return got


def said(answer: dict[str, Any], rule: str) -> list[str]:
    return [s["text"] for s in answer["sentences"] if s["rule"] == rule]


def test_rules_page_in_the_language_from_setup_to_table(
    people: Callable[[str], Person],
) -> None:
    from playwright.sync_api import expect

    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#play-now")
    ana.set_prefs(lang="it", trump="trionfo")
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "briscola-2")
    words = get(ana, "/api/words?lang=it&trump_word=trionfo")
    italian = json.loads((STRINGS / "it.json").read_text())
    # the setup speaks Italian: titles, explanations, choices, the default, the game
    rule = words["rules"]["trump_exchange"]
    assert ana.page.locator("label[for=rule-trump_exchange]").inner_text() == rule["title"]
    assert ana.page.locator("#rule-trump_exchange-help").inner_text() == rule["help"]
    assert "trionfo" in rule["help"]
    labels = ana.page.locator("#rule-trump_exchange option").all_inner_texts()
    assert labels[0] == f"{rule['choices'][0]['label']} ({italian['setup.default']})"
    assert labels[1:] == [c["label"] for c in rule["choices"][1:]]
    game = words["games"]["briscola-2"]
    assert ana.page.locator("#setup-game option:checked").inner_text() == (
        f"{game['name']} ({game['summary']})"
    )

    # the rules in words follow each change of a rule
    ana.page.click("#setup-rules summary")
    ana.page.wait_for_selector("#setup-rules-text li[data-rule=last_trick]")
    base = "/api/games/briscola-2/rules-text?lang=it&trump_word=trionfo"
    before = sentences(ana.page, "#setup-rules-text")
    assert before["last_trick"] == said(get(ana, base), "last_trick")
    ana.page.select_option("#rule-last_trick", "hidden")
    ana.page.wait_for_function(
        "(old) => document.querySelector('#setup-rules-text li[data-rule=last_trick]')"
        ".textContent !== old",
        arg=before["last_trick"][0],
    )
    ana.page.select_option("#rule-trump_exchange", "two")
    ana.page.wait_for_function(
        "(old) => document.querySelector('#setup-rules-text li[data-rule=trump_exchange]')"
        ".textContent !== old",
        arg=before["trump_exchange"][0],
    )
    chosen = get(ana, base + "&last_trick=hidden&trump_exchange=two")
    after = sentences(ana.page, "#setup-rules-text")
    for name in ("last_trick", "trump_exchange"):
        assert after[name] == said(chosen, name) != before[name]
    assert "trionfo" in " ".join(after["trump_exchange"])
    ana.shoot("setup-rules-in-words")

    # a game whose default is a pattern (briscolone: first to 121 points) shows it chosen
    ana.page.select_option("#setup-game", "briscolone")
    expect(ana.page.locator("#rule-match")).to_have_value("p:points:N")
    expect(ana.page.locator("#rule-match ~ input.pattern")).to_have_value("121")
    ana.page.click("#setup-rules summary")
    ana.page.wait_for_selector("#setup-rules-text li[data-rule=match]")
    usual = get(ana, "/api/games/briscolone/rules-text?lang=it&trump_word=trionfo")
    assert sentences(ana.page, "#setup-rules-text")["match"] == said(usual, "match")
    ana.page.select_option("#setup-game", "briscola-2")
    for name, value in (("last_trick", "hidden"), ("trump_exchange", "two")):
        ana.page.select_option(f"#rule-{name}", value)
    ana.page.wait_for_function(
        "(text) => document.querySelector('#setup-rules-text li[data-rule=trump_exchange]')"
        "?.textContent === text",
        arg=after["trump_exchange"][0],
    )

    # the table made of these settings: its rules page says the same
    ana.page.select_option("#seat-1", "bot:beginner")
    ana.page.click("#setup-create")
    ana.page.wait_for_selector("#start:not([disabled])")
    token = token_of(ana.page.url)
    table = get(ana, f"/api/tables/{token}")
    assert table["overrides"] == {"last_trick": "hidden", "trump_exchange": "two"}
    # the waiting room names the house rules in the language, not by their keys
    words = get(ana, "/api/words?lang=it")["rules"]
    hidden = next(c for c in words["last_trick"]["choices"] if c["value"] == "hidden")
    waiting = ana.page.locator("main").inner_text()
    assert f"{words['last_trick']['title']}: {hidden['label']}" in waiting
    assert "last trick: hidden" not in waiting
    ana.page.click("#rules-button")
    ana.page.wait_for_selector("#rules-text li[data-rule=trump_exchange]")
    answer = get(ana, f"/api/tables/{token}/rules-text?lang=it&trump_word=trionfo")
    page = sentences(ana.page, "#rules-text")
    for name in ("last_trick", "trump_exchange"):
        assert page[name] == said(answer, name) == said(chosen, name)
    headings = ana.page.locator("#rules-text .rules-topic > h3").all_inner_texts()
    topics = list(dict.fromkeys(s["topic"] for s in answer["sentences"]))
    assert headings == [italian[f"words.topic.{topic}"] for topic in topics]
    assert ana.page.locator("#rules-button").get_attribute("aria-expanded") == "true"


def test_a_familys_saved_rules_open_a_table_in_one_click(
    people: Callable[[str], Person],
) -> None:
    from playwright.sync_api import expect

    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#play-now")
    assert ana.page.locator("#families .family-open").count() == 0
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "briscola-2")
    ana.page.select_option("#rule-match", "one-hand")
    ana.page.select_option("#rule-last_trick", "hidden")
    ana.page.select_option("#seat-1", "bot:beginner")
    ana.page.fill("#family-name", "Nonna Lina")
    ana.page.click("#family-save")
    ana.page.wait_for_selector("#family-said:has-text('Nonna Lina')")
    # another, renamed, then deleted: the list follows
    ana.page.fill("#family-name", "Zia")
    ana.page.press("#family-name", "Enter")
    ana.page.fill('[aria-label="New name for “Zia”"]', "Zio")
    ana.page.click("li[data-name=Zia] .family-rename")
    assert ana.page.locator("#family-list li").evaluate_all(
        "(lis) => lis.map((li) => li.dataset.name)"
    ) == ["Nonna Lina", "Zio"]
    ana.page.click('[aria-label="Delete “Zio”"]')
    assert ana.page.locator("#family-list li").count() == 1
    # "show in the setup": the saved set comes back into a fresh setup screen
    ana.page.select_option("#rule-match", "best-of-5")
    ana.page.click("li[data-name='Nonna Lina'] .family-use")
    expect(ana.page.locator("#rule-match")).to_have_value("one-hand")
    expect(ana.page.locator("#seat-1")).to_have_value("bot:beginner")

    ana.page.click("#setup button[type=button]:has-text('Cancel')")
    button = ana.page.locator("#families .family-open")
    button.first.wait_for()
    assert button.all_inner_texts() == ["New table: Nonna Lina"]
    ana.shoot("home-families")
    button.click()
    ana.page.wait_for_selector("#invite-link")
    token = token_of(ana.page.url)
    table = get(ana, f"/api/tables/{token}")
    assert table["status"] == "waiting"
    assert table["overrides"] == {"match": "one-hand", "last_trick": "hidden"}
    assert [s["kind"] for s in table["seats"]] == ["person", "bot"]
    assert table["seats"][1]["level"] == "beginner"
