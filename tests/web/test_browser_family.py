"""The family's own place in real Chromium, as the issue's "done when" says: Nonna makes
a family and invites two others by its link; she saves the family's way to play from
the table setup; Ana, on her own device, opens a family table from it in one click,
plays it out, and the family's standings change. And the family's pages photographed
at phone and desktop sizes and checked by axe-core, in the four languages."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from browserkit import Person, family_match, play_out


def make_family(nonna: Person, name: str = "I Rossi") -> str:
    """Nonna makes the family from "/families": its page's path."""
    nonna.goto("/families")
    nonna.page.fill("#new-family-name", name)
    nonna.page.click("#new-family button[type=submit]")
    nonna.page.wait_for_selector("#family-title")
    return nonna.page.url.split(nonna.base, 1)[1]


def invite_link(nonna: Person) -> str:
    nonna.page.click("#make-invite")
    link = nonna.page.locator("#invite-link").input_value()
    assert "/join/" in link
    return link.split(nonna.base, 1)[1]


def test_a_family_invites_saves_its_way_opens_a_table_and_its_standings_change(
    people: Callable[[str], Person],
) -> None:
    nonna, ana, bo = people("Nonna"), people("Ana"), people("Bo")
    for p in (nonna, ana, bo):
        p.set_prefs()
        p.login()
        p.page.wait_for_selector(".hello")
    page = make_family(nonna)
    link = invite_link(nonna)
    nonna.shoot("family-new")
    for p in (ana, bo):
        p.goto(link)
        p.page.wait_for_selector("#join-title:has-text('I Rossi')")
        if p is ana:
            ana.shoot("family-join")
            ana.axe("an invitation to a family")
        p.page.click("#join-family")
        p.page.wait_for_selector("#family-title:has-text('I Rossi')")
    bo.axe("a family's page, for a member")
    nonna.goto(page)
    nonna.page.wait_for_function("() => document.querySelectorAll('#members li').length === 3")
    assert nonna.page.locator("#members li .what").all_inner_texts() == ["Nonna", "Ana", "Bo"]

    # Nonna saves the family's way to play from the table setup
    nonna.goto("/")
    nonna.page.click("#create-table")
    nonna.page.select_option("#setup-game", "briscola-2")
    nonna.page.select_option("#rule-match", "one-hand")
    nonna.page.select_option("#seat-1", "bot:beginner")
    nonna.page.fill("#family-name", "Sunday lunch")
    nonna.page.select_option("#family-where", label="in the family I Rossi")
    nonna.page.click("#family-save")
    nonna.page.wait_for_selector("#family-said:has-text('every member sees it')")

    # Ana, on her own device, opens a table from it in one click and plays it out
    ana.goto(page)
    ana.page.wait_for_selector("#ways li[data-way='Sunday lunch']")
    assert ana.page.locator("#standings-box").inner_text().startswith("The standings come")
    bo.goto("/")  # Bo's home screen is open as she does: he is told at once
    bo.page.wait_for_selector("body[data-news=ready] #family-places")
    ana.page.click("#ways li[data-way='Sunday lunch'] .open-way")
    ana.page.wait_for_selector("#start:not([disabled])")
    bo.page.wait_for_selector(".family-news:has-text('I Rossi: Ana opened a table')")
    bo.page.wait_for_selector("#family-places a.family-table:has-text('with Ana')")
    bo.shoot("family-news")
    bo.page.click(".family-news-join")  # the notice's link: the table's waiting room
    bo.page.wait_for_selector("#copy-link")
    assert "/t/" in bo.page.url
    bo.goto(page)  # the family's page lists the table, and stays open while they play
    bo.page.wait_for_selector("body[data-news=ready] #family-tables li a")
    ana.page.click("#start")
    ana.enabled_cards().first.wait_for()
    play_out([ana])

    # the family's page, open all along: the match, and the standings with Ana and the
    # computer, without Bo loading it again
    bo.page.wait_for_selector("#standings-overall tbody tr")
    # the family's people in one table, the computer players apart; a rating a whole
    # number around 1500, provisional after one match
    assert bo.page.locator("#standings-overall tbody th").all_inner_texts() == ["Ana"]
    computers = bo.page.locator("#standings-overall-computers tbody th").all_inner_texts()
    assert computers == ["Computer (beginner)"]
    rating = " ".join(bo.page.locator("#standings-overall tbody td.rating").inner_text().split())
    assert re.fullmatch(r"1[0-9]{3} ± [0-9]{2,3} \(provisional\)", rating), rating
    assert bo.page.locator("#family-matches li a").count() == 1
    assert bo.page.locator("#family-tables li a").count() == 0
    bo.shoot("family")
    bo.axe("a family's page with its standings")
    bo.no_horizontal_scroll()


def test_strangers_and_revoked_links_get_nothing_of_the_family(
    people: Callable[[str], Person],
) -> None:
    nonna, zed = people("Nonna"), people("Zed")
    for p in (nonna, zed):
        p.set_prefs()
        p.login()
        p.page.wait_for_selector(".hello")
    page = make_family(nonna, "Bianchi")
    link = invite_link(nonna)
    zed.goto(page)
    zed.page.wait_for_selector("#family-error")
    assert "Bianchi" not in zed.page.locator("#app").inner_text()
    nonna.page.click("#revoke-invite")
    nonna.page.wait_for_selector("#family-said:has-text('no longer works')")
    zed.goto(link)
    zed.page.wait_for_selector("#join-error:has-text('expired or was revoked')")
    assert "Bianchi" not in zed.page.locator("#app").inner_text()
    zed.shoot("family-revoked-link")


@pytest.mark.parametrize("lang", ["it", "es", "hr"])
def test_the_family_pages_in_every_language(people: Callable[[str], Person], lang: str) -> None:
    nonna = people("Nonna")
    nonna.set_prefs(lang=lang)
    nonna.login()
    nonna.page.wait_for_selector(".hello")
    make_family(nonna, "Rossi")
    nonna.page.click("#make-invite")
    nonna.page.wait_for_selector("#invite-link")
    text = nonna.page.locator("#app").inner_text()
    for english in ("Members", "Invite", "How our family plays", "Standings", "Leave the family"):
        assert english not in text, (lang, english)
    nonna.axe(f"a family's page in {lang}")
    nonna.shoot(f"family-{lang}")
    # keyboard: every control of the page is reached with Tab
    reached = set()
    for _ in range(30):
        nonna.page.keyboard.press("Tab")
        reached.add(nonna.page.evaluate("() => document.activeElement.id"))
    controls = {"family-rename", "leave-family", "make-invite", "invite-link", "revoke-invite"}
    assert controls <= reached
    nonna.goto("/families")
    nonna.page.wait_for_selector("#family-links li a")
    nonna.axe(f"the families page in {lang}")


def test_the_ways_this_device_keeps_are_offered_to_the_family_once(
    people: Callable[[str], Person],
) -> None:
    nonna = people("Nonna")
    nonna.set_prefs()
    way = {
        "name": "Old Sunday",
        "game": "briscola-2",
        "rules": {"match": "one-hand"},
        "seats": [{"kind": "me"}, {"kind": "bot", "level": "beginner"}],
        "public": False,
    }
    nonna.page.evaluate(
        "(w) => localStorage.setItem('briscola.families', JSON.stringify([w]))", way
    )
    nonna.login()
    nonna.page.wait_for_selector(".hello")
    assert nonna.page.locator("#ways-offer").count() == 0  # no family yet: nothing offered
    make_family(nonna, "Rossi")
    nonna.goto("/")
    nonna.page.wait_for_selector("#ways-offer")
    nonna.axe("the home screen offering this device's ways")
    nonna.page.click("#ways-offer .ways-add")
    nonna.page.wait_for_selector("#ways li[data-way='Old Sunday']")
    nonna.goto("/")
    nonna.page.wait_for_selector(".hello")
    nonna.page.wait_for_timeout(300)
    assert nonna.page.locator("#ways-offer").count() == 0  # offered once


def test_a_deleted_members_old_seats_are_named_in_the_readers_language(
    people: Callable[[str], Person],
) -> None:
    """Cy plays a family match, then deletes her account: Dee, reading in Italian, sees
    her seat in the family's matches and standings as "Anonimo", never the English
    name the server keeps; and nobody may take that name as a nickname."""
    cy, dee = people("Cy"), people("Dee")
    cy.set_prefs()
    dee.set_prefs(lang="it")
    for p in (cy, dee):
        p.login()
        p.page.wait_for_selector(".hello")
    page = make_family(cy, "Verdi")
    link = invite_link(cy)
    dee.goto(link)
    dee.page.click("#join-family")
    dee.page.wait_for_selector("#family-title:has-text('Verdi')")
    fid = page.rsplit("/", 1)[1]
    family_match(cy, fid)
    cy.goto("/me")
    cy.page.fill("#delete-confirm", "Cy")
    cy.page.click("#delete-account button[type=submit]")
    cy.page.wait_for_selector("#nickname-form")
    cy.page.fill("#nickname", "anonymous")
    cy.page.click("#nickname-form button[type=submit]")
    cy.page.wait_for_selector(".error:has-text('kept for deleted accounts')")

    dee.goto(page)
    dee.page.wait_for_selector("#family-matches li a:has-text('Anonimo')")
    dee.page.wait_for_selector("#standings-overall tbody th:has-text('Anonimo')")
    assert "Anonymous" not in dee.page.locator("#app").inner_text()
