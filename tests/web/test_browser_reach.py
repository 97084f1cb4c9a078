"""Families in reach and plain words at the end, in real Chromium (issue 39, points 7 and
8): the home screen leads to families before you belong to one; a way to play saved to
the family is on the home screen at once, with its button; every link and code has a
Copy button that copies (or selects the text) and says so; the setup names the seats by
their place, your partner marked; whoever arrives by a seat's link and chooses a nickname
is seated there at once; the end screen's shuffle figures are folded under "Check the
shuffle" with the sentence of what it proves, and its headings are in the reader's
language. At phone portrait (390x844), phone landscape (844x390) and desktop (1280x800);
screenshots in the four languages."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from browserkit import DESKTOP, PHONE, Person, family_match, play_out, resize, token_of

LANDSCAPE = {"width": 844, "height": 390}
SIZES = {"portrait": PHONE, "landscape": LANDSCAPE, "desktop": DESKTOP}
LANGS = ["en", "it", "es", "hr"]


def words(lang: str) -> dict[str, Any]:
    source = resources.files("briscola.words").joinpath("catalogues").joinpath(f"{lang}.json")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


def clipboard(person: Person) -> None:
    """Let `person`'s page write to the clipboard and read it back."""
    person.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=person.base)


def copied_text(person: Person) -> str:
    text: str = person.page.evaluate("() => navigator.clipboard.readText()")
    return text


def each_size(person: Person, check: Callable[[str], None]) -> None:
    """`check(size)` at phone portrait, phone landscape and desktop, the page no wider than
    the screen at each."""
    for name, size in SIZES.items():
        resize(person.page, size)
        person.page.wait_for_timeout(100)
        check(name)
        wide = person.page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= size["width"], f"{name}: the page is {wide} px wide"
    resize(person.page, PHONE)


def make_family(person: Person, name: str) -> str:
    person.goto("/families")
    person.page.fill("#new-family-name", name)
    person.page.click("#new-family button[type=submit]")
    person.page.wait_for_selector("#family-title")
    return person.page.url.split(person.base, 1)[1]


def test_home_leads_to_families_and_shows_a_saved_way_with_its_button(
    people: Callable[[str], Person],
) -> None:
    ana = people("Ana")
    ana.set_prefs()
    ana.login()
    ana.page.wait_for_selector("#families-why")
    # no family yet: the home screen says why to make one, and leads there at every size
    assert "family" in ana.page.locator("#families-why").inner_text().lower()

    def reachable(size: str) -> None:
        link = ana.page.locator("#families-home-link")
        link.scroll_into_view_if_needed()
        assert link.is_visible(), size
        if size == "portrait":
            ana.no_horizontal_scroll()

    each_size(ana, reachable)
    ana.shoot("reach-home-no-family")
    ana.page.click("#families-home-link")
    ana.page.wait_for_selector("#new-family-name")
    page = make_family(ana, "I Rossi")

    # the preferences' two links are two lines, not "…devicesYour families"
    ana.goto("/")
    ana.page.click("#prefs-button")
    ana.page.wait_for_selector("#families-link")
    account = ana.page.locator("#account-link").bounding_box()
    families = ana.page.locator("#families-link").bounding_box()
    assert account and families and families["y"] >= account["y"] + account["height"] - 1
    assert "devicesYour" not in ana.page.locator("#prefs").inner_text()
    ana.page.click("#prefs button:has-text('Close')")

    # a way saved into the family from the setup: on the home screen at once
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "briscola-2")
    ana.page.select_option("#rule-match", "one-hand")
    ana.page.select_option("#seat-1", "bot:beginner")
    ana.page.fill("#family-name", "Sunday lunch")
    ana.page.select_option("#family-where", label="in the family I Rossi")
    ana.page.click("#family-save")
    ana.page.wait_for_selector("#family-said:has-text('every member sees it')")
    ana.page.click("#setup button[type=button]:has-text('Cancel')")
    button = ana.page.locator("#families .way-open[data-way='Sunday lunch']")
    button.wait_for()
    assert button.inner_text() == "New table: Sunday lunch"
    assert ana.page.locator("#ways-none").is_hidden()  # never "Nothing saved yet"
    assert ana.page.locator("#families-home-link").inner_text() == "All your families"
    ana.shoot("reach-home-family")
    button.click()  # one click: a new table of the family's way, its link to send
    ana.page.wait_for_selector("#start:not([disabled])")
    table = ana.page.evaluate(f"fetch('/api/tables/{token_of(ana.page.url)}').then(r => r.json())")
    assert table["overrides"] == {"match": "one-hand"}

    # the table's link copied
    clipboard(ana)
    ana.page.click("#copy-link")
    ana.page.wait_for_selector("#copy-link-said:has-text('Copied')")
    assert ana.page.locator("#copy-link-said").get_attribute("role") == "status"
    assert copied_text(ana) == ana.page.locator("#invite-link").input_value()

    # the family's invitation copied
    ana.goto(page)
    ana.page.click("#make-invite")
    ana.page.click("#copy-invite")
    ana.page.wait_for_selector("#copy-invite-said:has-text('Copied')")
    invitation = ana.page.locator("#invite-link").input_value()
    assert "/join/" in invitation and copied_text(ana) == invitation
    ana.shoot("reach-invitation-link")
    # where the clipboard is refused, the link is selected for the person to copy
    ana.page.evaluate(
        "() => { navigator.clipboard.writeText = () => Promise.reject(new Error('no')); }"
    )
    ana.page.evaluate("() => { document.getElementById('copy-invite-said').textContent = ''; }")
    ana.page.click("#copy-invite")
    ana.page.wait_for_function(
        "() => document.getElementById('copy-invite-said').textContent.length > 0"
    )
    selected = ana.page.evaluate(
        "() => { const i = document.getElementById('invite-link');"
        " return i.value.slice(i.selectionStart, i.selectionEnd); }"
    )
    assert selected == invitation

    # the code for another device copied
    ana.goto("/me")
    ana.page.click("#make-code")
    ana.page.wait_for_selector("#code")
    ana.page.click("#copy-code")
    ana.page.wait_for_selector("#copy-code-said:has-text('Copied')")
    assert copied_text(ana) == ana.page.locator("#code").inner_text()
    ana.axe("the account page with its code copied")


def choose_game(person: Person, game: str) -> None:
    """Choose ``game`` in the setup and wait until the page has taken it."""
    person.page.select_option("#setup-game", game)
    person.page.wait_for_selector(f"#setup-game option[value='{game}']:checked", state="attached")


def seat_places(person: Person) -> list[str]:
    rows: list[str] = person.page.locator("#setup .seats label.seat-row > span").all_inner_texts()
    return rows


def test_the_setup_names_the_seats_by_place_and_marks_the_partner(
    people: Callable[[str], Person],
) -> None:
    ana = people("Ana")
    ana.set_prefs()
    ana.login()
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "briscola-4")
    ana.page.wait_for_selector("#rule-direction")
    assert seat_places(ana) == ["On your right", "Opposite you · your partner", "On your left"]
    assert ana.page.locator("#setup .seats .partner").count() == 1
    assert "Seat 2" not in ana.page.locator("#setup .seats").inner_text()

    def fits(size: str) -> None:
        if size == "portrait":
            ana.no_horizontal_scroll()
        row = ana.page.locator("#setup .seats label.seat-row").nth(1)
        row.scroll_into_view_if_needed()
        assert row.is_visible(), size

    each_size(ana, fits)
    ana.shoot("reach-setup-briscola-4")
    # play going to the left: the seat after yours is on your left
    ana.page.select_option("#rule-direction", "left")
    assert seat_places(ana) == ["On your left", "Opposite you · your partner", "On your right"]
    # six in two teams of three, alternating: two partners, across the table
    choose_game(ana, "briscola-6")
    assert seat_places(ana) == [
        "On your right",
        "Opposite, on the right · your partner",
        "Opposite you",
        "Opposite, on the left · your partner",
        "On your left",
    ]
    # chiamata: five each alone until the call, no partner known
    choose_game(ana, "chiamata")
    assert seat_places(ana) == [
        "On your right",
        "Opposite, on the right",
        "Opposite, on the left",
        "On your left",
    ]
    # three players: one on each side
    choose_game(ana, "briscola-3")
    assert seat_places(ana) == ["On your right", "On your left"]
    # partners drawn by cards: none marked, and the page says why
    ana.page.select_option("#setup-game", "briscola-4")
    ana.page.wait_for_selector("#rule-partners")
    ana.page.select_option("#rule-partners", "drawn")
    assert ana.page.locator("#setup .seats .partner").count() == 0
    assert ana.page.locator("#partners-drawn").is_visible()

    for lang in LANGS[1:]:
        ana.set_prefs(lang=lang)
        ana.page.wait_for_selector("#create-table")
        ana.page.click("#create-table")
        ana.page.select_option("#setup-game", "briscola-4")
        ana.page.wait_for_selector("#rule-direction")
        w = words(lang)
        partner = f"{w['setup.place.top']} · {w['setup.partner']}"
        assert seat_places(ana) == [w["setup.place.right"], partner, w["setup.place.left"]]
        ana.shoot(f"reach-setup-{lang}")
        ana.goto("/")
        ana.page.wait_for_selector("#families")
        ana.shoot(f"reach-home-{lang}")


def test_arriving_by_a_seats_link_and_choosing_a_nickname_seats_you_there(
    people: Callable[[str], Person],
) -> None:
    ana, bo, cy = people("Ana"), people("Bo"), people("Cy")
    ana.set_prefs()
    ana.login()
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "briscola-4")
    ana.page.select_option("#seat-3", "bot:beginner")
    ana.page.click("#setup-create")
    ana.page.wait_for_selector("#invite-link")
    clipboard(ana)
    # the link of seat 3, the host's partner (seats 2 and 3 open)
    ana.page.click("#copy-seat-2")
    ana.page.wait_for_selector("#copy-seat-2-said:has-text('Copied')")
    link = copied_text(ana)
    assert link.endswith("?seat=3")
    ana.shoot("reach-waiting-room")
    bo.set_prefs()
    bo.page.goto(link)
    bo.page.wait_for_selector("#nickname")
    bo.shoot("reach-invitation")
    bo.page.fill("#nickname", "Bo")
    bo.page.click("#nickname-form button[type=submit]")
    # no "Sit here" to press: Bo is at seat 3 already
    bo.page.wait_for_selector(".seats-list .seat-row:has-text('Bo (you)')")
    token = token_of(link)
    table = bo.page.evaluate(f"fetch('/api/tables/{token}').then(r => r.json())")
    assert table["you"]["seat"] == 2
    assert bo.page.locator(".seats-list button.sit").count() == 0
    # and sees the others by their place: Ana, the host, opposite, his partner
    whos = bo.page.locator(".seats-list .seat-row .who").all_inner_texts()
    assert [w.strip() for w in whos] == [
        "Seat 1 · Opposite you · your partner:",
        "Seat 2 · On your left:",
        "Seat 3:",
        "Seat 4 · On your right:",
    ]
    # the table's own link: the first open seat
    for lang, person in (("it", cy),):
        person.set_prefs(lang=lang)
        person.goto(f"/t/{token}")
        person.page.wait_for_selector("#nickname")
        person.shoot(f"reach-invitation-{lang}")
        person.page.fill("#nickname", "Cy")
        person.page.click("#nickname-form button[type=submit]")
        person.page.wait_for_selector(".seats-list .seat-row:has-text('Cy (tu)')")
    table = cy.page.evaluate(f"fetch('/api/tables/{token}').then(r => r.json())")
    assert table["you"]["seat"] == 1
    ana.page.wait_for_selector("#start:not([disabled])")
    for lang in ("es", "hr"):  # the arrival, photographed in the other languages
        someone = people(f"Someone-{lang}")
        someone.set_prefs(lang=lang)
        someone.goto(f"/t/{token}")
        someone.page.wait_for_selector("#nickname")
        assert (
            someone.page.locator("#nickname-form p").first.inner_text()
            == words(lang)["table.invited"]
        )
        someone.shoot(f"reach-invitation-{lang}")


def test_the_standings_read_as_whole_numbers_provisional_the_computers_apart(
    people: Callable[[str], Person],
) -> None:
    """One hand against the computer in the family: the family's page shows Ana's rating
    as a whole number near 1500 with its margin, provisional, and the computer player in
    a table of its own, in every language; and a family's invitation, opened with no
    session, in every language."""
    ana = people("Ana")
    ana.set_prefs()
    ana.login()
    ana.page.wait_for_selector("#families-why")
    page = make_family(ana, "Verdi")
    fid = page.rsplit("/", 1)[1]
    family_match(ana, fid)
    ana.goto(page)
    ana.page.click("#make-invite")
    join = ana.page.locator("#invite-link").input_value().split(ana.base, 1)[1]
    for lang in LANGS:
        w = words(lang)
        ana.set_prefs(lang=lang)
        ana.goto(page)
        ana.page.wait_for_selector("#standings-overall tbody tr")
        assert ana.page.locator("#standings-overall tbody th").all_inner_texts() == ["Ana"]
        bots = ana.page.locator("#standings-overall-computers tbody th").all_inner_texts()
        assert len(bots) == 1 and bots[0] != "Ana"
        for shown in ana.page.locator("#standings-box td.rating").all_inner_texts():
            cell = " ".join(shown.split())
            figure, margin = cell.split(" (")[0].split(" ± ")
            assert 1200 < int(figure) < 1800 and 0 < int(margin) <= 350, cell
            assert cell.endswith(f"({w['family.provisional']})"), cell
        ana.no_horizontal_scroll()
        ana.shoot(f"reach-standings-{lang}")
        guest = people(f"Guest-{lang}")
        guest.set_prefs(lang=lang)
        guest.goto(join)
        guest.page.wait_for_selector("#nickname")
        guest.page.fill("#nickname", f"Guest {lang}")
        guest.page.click("#nickname-form button[type=submit]")
        guest.page.wait_for_selector("#join-family")
        guest.shoot(f"reach-family-invitation-{lang}")


HEADINGS = "#end h2, #end h3, #end h4, #end summary, #end th, #end caption, #end legend"


def one_hand_against_the_computer(person: Person) -> None:
    person.page.click("#create-table")
    person.page.select_option("#setup-game", "briscola-2")
    person.page.select_option("#rule-match", "one-hand")
    person.page.select_option("#seat-1", "bot:beginner")
    person.page.click("#setup-create")
    person.page.click("#start:not([disabled])")
    person.page.wait_for_selector("#hand .card")
    play_out([person])


@pytest.mark.parametrize("lang", LANGS)
def test_the_end_screen_folds_the_shuffle_and_speaks_the_readers_language(
    people: Callable[[str], Person], lang: str
) -> None:
    ana = people("Ana")
    ana.set_prefs(lang=lang)
    ana.login()
    ana.page.wait_for_selector("#create-table")
    one_hand_against_the_computer(ana)
    w = words(lang)
    fold = ana.page.locator("#fair")
    assert fold.evaluate("(d) => d.tagName") == "DETAILS"
    assert fold.get_attribute("open") is None  # closed
    assert ana.page.locator("#fair > summary").inner_text() == w["fair.check"]
    assert not ana.page.locator("#fair .hash").first.is_visible()  # the hex is folded away

    def headings_are_the_readers(size: str) -> None:
        texts = ana.page.locator(HEADINGS).all_inner_texts()
        assert texts, size
        if lang != "en":
            english = {v for v in words("en").values() if isinstance(v, str)}
            ours = {v for v in w.values() if isinstance(v, str)}
            left = [x for x in texts if x.strip() in english and x.strip() not in ours]
            assert not left, (lang, size, left)
        assert not any("Carichi" in x for x in texts) or lang == "it", texts

    each_size(ana, headings_are_the_readers)
    ana.shoot(f"reach-end-{lang}")
    ana.page.click("#fair > summary")
    assert ana.page.locator("#fair-proves").inner_text() == w["fair.proves"]
    assert ana.page.locator("#fair .hash").first.is_visible()
    ana.page.click("#verify")
    ana.page.wait_for_selector("#fair-result.ok")
    if lang == "en":
        ana.shoot("reach-end-shuffle-open")
        ana.axe("the end screen with the shuffle's fold open")
