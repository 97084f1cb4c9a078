"""Every game of ``briscola variants`` (the served ``GET /api/games``) is started from the
setup screen (the game chosen, every other seat a computer player, started) and played
through the page to its first trick taken: chiamata's auction and call and schembil's talk
through their buttons first; any exchange or signal offered is skipped. The table of each
game (its auction, its talk) has no serious accessibility violation. A Briškula hand is
played to its end, whose carichi are checked against the hand's record. One browser context
for every game."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from briscola.catalog import variants_json
from briscola.engine.game_record import parse_record
from briscola.engine.record import replay
from browserkit import Person, need_axe, play_out, token_of
from serverkit import ServerProcess

GAMES = [g["key"] for g in variants_json()]
TRICKS = {"schembil": 2}
"""Tricks to play: schembil's talk (the rais's questions and orders) starts at the second."""
TALKS = {"chiamata", "schembil"}
"""Games where the person (seat 0) must act through the buttons before playing: chiamata's
auction (and the call), schembil's talk (seat 0 is a rais by default)."""


@pytest.fixture(scope="module")
def ana(browser: Any, web: ServerProcess, screenshots: Path) -> Iterator[Person]:
    """One person (one browser context) for every game of this module."""
    person = Person(browser, web.url, "Ana", screenshots)
    person.login()
    person.page.wait_for_selector("#play-now")
    yield person
    person.close()


def test_the_setup_offers_every_game(ana: Person) -> None:
    served = ana.page.evaluate("fetch('/api/games').then(r => r.json())")
    assert [g["key"] for g in served["games"]] == GAMES
    ana.goto("/")
    ana.page.click("#create-table")
    offered = ana.page.locator("#setup-game option").evaluate_all("os => os.map(o => o.value)")
    assert offered == GAMES


@pytest.mark.parametrize("game", GAMES)
def test_each_game_to_its_first_trick(ana: Person, game: str) -> None:
    need_axe()
    page = ana.page
    ana.errors.clear()
    ana.goto("/")
    page.click("#create-table")
    page.select_option("#setup-game", game)
    page.wait_for_selector(f"#setup-game option[value='{game}']:checked", state="attached")
    seats = page.locator("#setup .seats select")
    others = seats.count()
    for i in range(others):
        seats.nth(i).select_option("bot:beginner")
    page.click("#setup-create")
    page.click("#start:not([disabled])")
    page.wait_for_selector("#hand .card")
    ana.events.clear()
    ana.axe(f"the {game} table")
    played = acted = 0
    end = time.monotonic() + 30
    tricks = TRICKS.get(game, 1)
    while sum(e["type"] == "trick_won" for e in ana.events) < tricks:
        assert time.monotonic() < end, f"{game}: no trick taken ({played} cards, {acted} acts)"
        cards = ana.enabled_cards()
        actions = page.locator("#actions .action")
        if cards.count():
            card = cards.first.get_attribute("data-card")
            cards.first.click()
            page.wait_for_selector(f'#hand [data-card="{card}"]', state="detached")
            played += 1
        elif actions.count():
            labels = actions.all_inner_texts()
            assert all(labels) and not any(x.startswith("{") for x in labels), labels
            actions.last.click()  # a pass, the last card to call, the talk done
            page.wait_for_function(
                "n => document.querySelectorAll('#actions .action').length !== n"
                " || document.querySelector('#hand .card[aria-disabled=\"false\"]')",
                arg=len(labels),
            )
            acted += 1
        else:
            page.wait_for_timeout(30)
    assert played >= 1 and others >= 1
    assert acted >= 1 if game in TALKS else acted == 0, (game, acted)
    taken = [e for e in ana.events if e["type"] == "trick_won"][-1]
    # the page shows it: the last trick (these games' default lets one look) names its taker
    page.wait_for_selector("#last-trick summary")
    assert ana.page.locator("#last-trick .card").count() == len(taken["cards"])
    ana.axe(f"the {game} table after {len(taken['cards'])} cards and {acted} acts")
    assert not ana.errors, ana.errors


def test_the_end_of_a_briskula_hand_shows_the_10s_taken(ana: Person, web: ServerProcess) -> None:
    """Briškula's carichi are its aces and 10s (its 32 cards have no three): the end screen
    names, for each side, the ones its tricks took, as the hand's record replayed by the
    engine says; and so it does again once the finished table is loaded afresh."""
    page = ana.page
    ana.errors.clear()
    ana.goto("/")
    page.click("#create-table")
    page.select_option("#setup-game", "briskula")
    page.wait_for_selector("#setup-game option[value='briskula']:checked", state="attached")
    page.select_option("#rule-match", "one-hand")
    page.locator("#setup .seats select").first.select_option("bot:beginner")
    page.click("#setup-create")
    page.click("#start:not([disabled])")
    page.wait_for_selector("#hand .card")
    token = token_of(page.url)
    play_out([ana])
    assert page.locator("#end-title").inner_text() == "The match is over"

    r = httpx.get(f"{web.url}/api/tables/{token}/hands/1", timeout=10)
    assert r.status_code == 200, r.text
    record = parse_record(r.json())
    tricks = replay(record).to_json()["tricks"]
    taken = [
        [c for t in tricks if t["winner"] in side for c in t["cards"] if c[0] in "AT"]
        for side in record.rules.sides
    ]
    assert sorted(c for side in taken for c in side) == sorted(
        f"{rank}{suit}" for rank in "AT" for suit in "cdsb"
    )  # every ace and 10 of the deck was taken by one side or the other
    names = page.evaluate(
        "async (sides) => { const m = await import('/static/js/cards.js');"
        " return sides.map((cards) => cards.map((c) => String(m.cardName(c)))); }",
        taken,
    )
    expected = [", ".join(side) or "—" for side in names]
    assert sum(text.count("ten of") for text in expected) == 4, expected
    shown = page.locator("#hand-points tbody td:nth-child(3)")
    assert shown.all_inner_texts() == expected
    ana.shoot("games-briskula-end")
    page.reload()
    page.wait_for_selector("#hand-points")
    assert shown.all_inner_texts() == expected
    assert not ana.errors, ana.errors
