"""The computer players as a person sees them (issue 23): each called by a first name of
the page's language (Italian ones for an Italian or an English page, Croatian ones for a
Croatian page), the same at everyone's page, their level a badge at the seat and said in
the seat's label and the waiting room, never in the name; the name alone in a sentence."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from briscola.words.catalogue import catalogue
from browserkit import LIVE, Person, token_of
from helpers import CROATIAN, ITALIAN, LEVELS


def in_language(people: Callable[[str], Person], name: str, lang: str) -> Person:
    """Someone with a session and the page in ``lang``."""
    p = people(name)
    p.login()
    p.page.wait_for_selector("#play-now")
    p.set_prefs(lang=lang)
    p.page.wait_for_selector("#play-now")
    return p


def seats_seen(p: Person) -> dict[int, tuple[str, str | None, str | None]]:
    """The other seats round the table: each one's name, the level badge, the label."""
    seen = {}
    for seat in p.page.locator('[data-role="seat"]:not(.mine)').all():
        badge = seat.locator(".badge.level")
        seen[int(str(seat.get_attribute("data-seat")))] = (
            seat.locator(".who").inner_text(),
            badge.inner_text() if badge.count() else None,
            seat.get_attribute("aria-label"),
        )
    return seen


def every_level_word(lang: str) -> list[str]:
    return [catalogue(lang).say(f"level.{level}") for level in LEVELS]


@pytest.mark.parametrize(("lang", "names"), [("it", ITALIAN), ("hr", CROATIAN)])
def test_three_computer_players_are_three_first_names_of_the_pages_language(
    people: Callable[[str], Person], lang: str, names: set[str]
) -> None:
    words = catalogue(lang)
    ana = in_language(people, "Ana", lang)
    ana.page.select_option("#quick-game", "briscola-4")
    ana.page.select_option("#quick-level", "strong")
    ana.page.click("#play-now")
    ana.page.wait_for_selector("#hand .card")
    seen = seats_seen(ana)
    shown = [name for name, _, _ in seen.values()]
    assert len(seen) == 3 and set(shown) <= names and len(set(shown)) == 3, seen
    level = words.say("level.strong")
    for name, badge, label in seen.values():
        assert badge == level  # the level: a badge of its own
        assert not any(word in name for word in every_level_word(lang)), name
        assert label == words.say("table.bot_label", name=name, level=level)
    ana.shoot(f"bot-names-{lang}")

    # Bea, on an English page, watches the same table: the same names (the table's)
    bea = people("Bea")
    bea.login(f"/t/{token_of(ana.page.url)}")
    bea.page.wait_for_selector('[data-role="seat"]')
    watched = {s: seen for s, seen in seats_seen(bea).items() if seen[1] is not None}
    assert {s: name for s, (name, _, _) in watched.items()} == {
        s: name for s, (name, _, _) in seen.items()
    }
    english = catalogue("en")
    for name, badge, label in watched.values():
        assert badge == english.say("level.strong")
        assert label == english.say("table.bot_label", name=name, level=badge)


def test_the_waiting_room_says_each_computer_players_name_and_level(
    people: Callable[[str], Person],
) -> None:
    """An English page's table: Italian names (the family's game is Italian). The waiting
    room says the level with the name; once the match starts, a sentence names the
    computer player by its name alone."""
    ana = people("Ana")
    ana.context.add_init_script(LIVE)
    ana.login()
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "briscola-2")
    ana.page.wait_for_selector("#setup-game option[value='briscola-2']:checked", state="attached")
    ana.page.select_option("#rule-match", "one-hand")
    ana.page.locator("#setup .seats select").first.select_option("bot:champion")
    ana.page.click("#setup-create")
    row = ana.page.locator(".seats-list .seat-row .bot-name")
    row.wait_for()
    said = row.inner_text()
    name = said.split(",")[0]
    assert name in ITALIAN, said
    assert said == catalogue("en").say("table.bot_label", name=name, level="champion")
    ana.shoot("bot-names-waiting")
    ana.page.click("#start:not([disabled])")
    ana.page.wait_for_selector("#hand .card")
    ((seen_name, badge, _),) = seats_seen(ana).values()
    assert (seen_name, badge) == (name, "champion")
    # the computer's cards and tricks in the live region: its name alone in the sentence
    for _ in range(60):
        told = ana.page.evaluate("() => window.__live")
        if any(name in line for line in told):
            break
        cards = ana.enabled_cards()
        if cards.count():
            cards.first.click()
        ana.page.wait_for_timeout(100)
    told = [line for line in ana.page.evaluate("() => window.__live") if name in line]
    assert told, ana.page.evaluate("() => window.__live")
    assert not [line for line in told if "champion" in line or "Computer" in line], told
