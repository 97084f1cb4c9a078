"""The setup screen's choices reach the table (a rule's pattern as a number, a computer
player's seat, the clock), and the preferences change the page at once (the word for
trump, the language)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path

from browserkit import Person, token_of


def test_setup_choices_and_preferences(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.login()
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "briscola-2")
    ana.page.select_option("#rule-match", "p:points:N")
    ana.page.fill("#rule-match ~ input.pattern", "31")
    ana.page.select_option("#rule-last_trick", "hidden")
    ana.page.select_option("#seat-1", "bot:beginner")
    ana.page.fill("#clock", "30")
    ana.page.click("#setup-create")
    ana.page.wait_for_selector("#start:not([disabled])")
    token = token_of(ana.page.url)
    table = ana.page.evaluate(f"fetch('/api/tables/{token}').then(r => r.json())")
    assert table["overrides"] == {"match": "points:31", "last_trick": "hidden"}
    assert table["clock"] == 30 and table["seats"][1]["level"] == "beginner"
    ana.page.click("#start")
    ana.enabled_cards().first.wait_for()
    assert re.fullmatch(r"(30|29|28) s left", ana.page.locator("#clock").inner_text())
    # one trick played: with last_trick=hidden the view has no last trick, none is shown
    card = ana.enabled_cards().first.get_attribute("data-card")
    ana.enabled_cards().first.click()
    ana.page.wait_for_selector(f'#hand [data-card="{card}"]', state="detached")
    ana.page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 3")
    assert ana.page.locator("#last-trick").count() == 0

    ana.page.click("#prefs-button")
    ana.page.fill("#pref-trump", "adut")
    ana.page.press("#pref-trump", "Enter")
    ana.page.wait_for_selector("[data-role=stock] .trump-name:has-text('adut:')")
    ana.page.select_option("#pref-lang", "hr")
    ana.page.wait_for_selector("html[lang=hr]")
    assert ana.page.locator("#prefs-button").inner_text() == "Postavke"
    ana.page.wait_for_selector("#hand .card")
    name = ana.page.locator("#hand .card").first.get_attribute("aria-label") or ""
    assert re.search(r"(kupa|dinara|špada|baštona)$", name), name


def test_the_pages_hash_is_the_fairness_docs(people: Callable[[str], Person]) -> None:
    """The page's canonical deal and SHA-256 (crypto.subtle, and the JavaScript one used
    where crypto.subtle is missing) give the commitment of docs/fairness.md's example, and
    agree with Python's on texts of every length around SHA-256's 64-byte blocks."""
    doc = Path(__file__).parents[2] / "docs" / "fairness.md"
    record = json.loads(doc.read_text().split("```json\n")[2].split("```")[0])
    ana = people("Ana")
    ana.goto("/")
    got = ana.page.evaluate(
        """async ([deal, salt]) => {
          const m = await import('/static/js/fair.js');
          const text = m.canonical(deal) + salt;
          const hex = (b) =>
            Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, '0')).join('');
          const lengths = [0, 1, 55, 56, 63, 64, 65, 119, 120, 200];
          return {
            subtle: await m.sha256(text),
            js: hex(m.sha256js(new TextEncoder().encode(text))),
            canonical: m.canonical(deal),
            lengths: lengths.map((n) => hex(m.sha256js(new TextEncoder().encode('é'.repeat(n))))),
          };
        }""",
        [record["deal"], record["fairness"]["salt"]],
    )
    python = json.dumps(record["deal"], sort_keys=True, separators=(",", ":"))
    assert got["canonical"] == python
    assert got["subtle"] == got["js"] == record["fairness"]["commitment"]
    for n, digest in zip([0, 1, 55, 56, 63, 64, 65, 119, 120, 200], got["lengths"], strict=True):
        assert digest == hashlib.sha256(("é" * n).encode()).hexdigest(), n
