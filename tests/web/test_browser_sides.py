"""The sides named short (issue 23, "Long names"): a seated reader's pair is "Us", the
other "Them", with the players' names on hover or focus; teams of three have names (the
reader's own "Us", the other after its rais or first player); someone watching never reads
"us"; chiamata says nothing of who is with whom before it is known, "caller" once the
auction is won, "partner" and "the others" once the called card is played, on the points
and as a badge on the seats; the end of the hand names the sides the same way."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import expect

from browserkit import AXE, Person, play_out, token_of

POINTS = "#points"
ROLE_WORDS = re.compile(r"caller|partner|others", re.IGNORECASE)


def start(p: Person, game: str, one_hand: bool = True) -> None:
    """A table of ``game`` with the points shown during the hand, every other seat a
    computer player, started."""
    p.goto("/")
    p.page.click("#create-table")
    p.page.select_option("#setup-game", game)
    p.page.wait_for_selector(f"#setup-game option[value='{game}']:checked", state="attached")
    if one_hand:
        p.page.select_option("#rule-match", "one-hand")
    p.page.select_option("#setup-points", "shown")
    seats = p.page.locator("#setup .seats select")
    for i in range(seats.count()):
        seats.nth(i).select_option("bot:beginner")
    p.page.click("#setup-create")
    p.page.click("#start:not([disabled])")
    p.page.wait_for_selector('[data-role="seat"]')


def points_line(p: Person) -> str:
    """The points line as it reads, no tooltip open (the mouse away from it)."""
    p.page.mouse.move(0, 0)
    return str(p.page.locator(POINTS).inner_text())


def seat_names(p: Person) -> dict[int, str]:
    """Each seat's name round the table ("You" at the reader's, a computer player's first
    name, a nickname)."""
    return {
        int(str(seat.get_attribute("data-seat"))): seat.locator(".who").inner_text()
        for seat in p.page.locator('[data-role="seat"]').all()
    }


def play_one(p: Person) -> None:
    """Play the first card that may be played, once it may."""
    cards = p.enabled_cards()
    cards.first.wait_for()
    code = cards.first.get_attribute("data-card")
    cards.first.click()
    p.page.wait_for_selector(f'#hand [data-card="{code}"]', state="detached")


def test_a_pair_reads_us_and_them_with_the_names_on_focus_and_hover(
    people: Callable[[str], Person],
) -> None:
    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#lobby li")
    start(ana, "briscola-4")
    play_one(ana)
    ana.page.wait_for_selector(POINTS)
    text = points_line(ana)
    assert re.fullmatch(r"Us: \d+ · Them: \d+", text), text
    n = seat_names(ana)
    assert not any(n[s] in text for s in (1, 2, 3)) and "you" not in text, (n, text)
    status = ana.page.locator("#status .match").inner_text()
    assert status == "Hands won: Us 0, Them 0", status

    us, them = (ana.page.locator(f"{POINTS} .side-name").nth(i) for i in (0, 1))
    assert us.get_attribute("tabindex") == "0"
    expect(us).to_have_accessible_description(f"{n[2]} and you")
    expect(them).to_have_accessible_description(f"{n[1]} and {n[3]}")
    # the names shown on keyboard focus, not only in a title
    tip = us.locator(".side-players")
    expect(tip).to_be_hidden()
    ana.page.keyboard.press("Shift")
    us.focus()
    expect(tip).to_be_visible()
    expect(tip).to_have_text(f"{n[2]} and you")
    ana.page.keyboard.press("Escape")  # dismissed, the focus kept
    expect(tip).to_be_hidden()
    ana.page.keyboard.press("Tab")
    ana.page.keyboard.press("Shift+Tab")
    expect(tip).to_be_visible()
    ana.shoot("sides-pair-focus")
    ana.no_horizontal_scroll()
    if AXE.exists():  # (scripts/browser installs it)
        ana.axe("the points line, a side's players shown")
    # and on hover
    ana.page.locator("#hand").click(position={"x": 1, "y": 1})
    them.hover()
    expect(them.locator(".side-players")).to_be_visible()

    # the hand's end names the sides the same way
    play_out([ana])
    names = ana.page.locator("#hand-points tbody td:first-child .side-name")
    expect(names).to_have_count(2)
    assert [n.split("\n")[0] for n in names.all_inner_texts()] == ["Us", "Them"]
    expect(names.first).to_have_accessible_description(f"{n[2]} and you")
    ana.shoot("sides-pair-end")
    if AXE.exists():
        ana.axe("the end of the hand, its sides named")

    # the replay names the teams as someone watching reads them, the players on focus
    ana.goto(f"/history/{token_of(ana.page.url)}/1")
    ana.page.wait_for_selector("#replay-points .side-name")
    ana.page.mouse.move(0, 0)
    said = ana.page.locator("#replay-points").inner_text()
    assert said == f"Points so far: Ana's team 0 · {n[1]}'s team 0", said
    expect(ana.page.locator("#replay-points .side-name").first).to_have_accessible_description(
        f"Ana and {n[2]}"
    )


def test_teams_of_three_have_names_and_a_spectator_never_reads_us(
    people: Callable[[str], Person],
) -> None:
    ana, bea = people("Ana"), people("Bea")
    ana.login()
    ana.page.wait_for_selector("#lobby li")
    start(ana, "briscola-6")
    ana.page.wait_for_selector(POINTS)
    text = points_line(ana)
    # the other team after its first player (the lowest of its seats 1, 3, 5)
    n = seat_names(ana)
    assert re.fullmatch(rf"Us: \d+ · {n[1]}'s team: \d+", text), text
    other = ana.page.locator(f"{POINTS} .side-name").nth(1)
    expect(other).to_have_accessible_description(f"{n[1]}, {n[3]} and {n[5]}")
    ana.shoot("sides-six")
    ana.no_horizontal_scroll()

    # someone watching, in Italian: each team by its first player, never "us"
    bea.goto("/")
    bea.page.evaluate(
        "() => localStorage.setItem('briscola.prefs', JSON.stringify({lang: 'it', sound: false}))"
    )
    bea.login("/t/" + token_of(ana.page.url))
    bea.page.wait_for_selector(POINTS)
    watched = points_line(bea)
    assert re.fullmatch(rf"La squadra di Ana: \d+ · La squadra di {n[1]}: \d+", watched), watched
    assert "Noi" not in watched
    expect(bea.page.locator(f"{POINTS} .side-name").first).to_have_accessible_description(
        f"Ana, {n[2]} e {n[4]}"
    )


def test_schembil_names_a_team_after_its_rais(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#lobby li")
    ana.goto("/")
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "schembil")
    ana.page.wait_for_selector("#setup-game option[value='schembil']:checked", state="attached")
    ana.page.select_option("#rule-rais", "0-3")  # the other team's rais: seat 3
    ana.page.select_option("#setup-points", "shown")
    seats = ana.page.locator("#setup .seats select")
    for i in range(seats.count()):
        seats.nth(i).select_option("bot:beginner")
    ana.page.click("#setup-create")
    ana.page.click("#start:not([disabled])")
    ana.page.wait_for_selector(POINTS)
    text = points_line(ana)
    n = seat_names(ana)
    assert re.fullmatch(rf"Us: \d+ · {n[3]}'s team: \d+", text), text


def revealed(p: Person) -> bool:
    return any(e.get("type") == "partner_revealed" for e in p.events)


def test_chiamata_names_the_caller_and_partner_once_known(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#lobby li")
    start(ana, "chiamata", one_hand=False)
    page = ana.page
    badges = page.locator('[data-role="seat"] .badge.role')
    # the auction: each seat alone, nobody a caller or a partner
    page.wait_for_selector(POINTS)
    text = points_line(ana)
    assert not ROLE_WORDS.search(text), text
    n = seat_names(ana)
    assert text == " · ".join(f"{n[s]}: 0" for s in range(5)), text
    assert badges.count() == 0
    status = page.locator("#status .match").inner_text()
    assert status == "Score: " + ", ".join(f"{n[s]} 0" for s in range(5)), status
    ana.shoot("sides-chiamata-auction")
    for _ in range(100):  # Ana passes; the computer players bid (all passing: a new deal)
        passing = page.locator("#actions .action", has_text="Pass")
        if page.locator("#caller").count():
            break
        if passing.count():
            passing.first.click()
        page.wait_for_timeout(50)
    page.wait_for_selector("#caller")
    ana.enabled_cards().first.wait_for()
    called = str(page.locator("#auction").inner_text())
    mine = page.locator("#hand .card").evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
    caller = int(
        page.locator('[data-role="seat"]:has([data-role-badge="caller"])').get_attribute(
            "data-seat"
        )  # type: ignore[arg-type]
    )
    assert caller != 0, called  # Ana passed
    # the caller is known: "Caller" on the points and a badge on its seat, nothing more
    # unless Ana holds the called card (then she knows she is the partner)
    text = points_line(ana)
    card = next(e["card"] for e in ana.events if e.get("type") == "card_called")
    caller_side = r"Caller( and partner)?: \d+"
    sides = rf"({caller_side} · The others: \d+|The others: \d+ · {caller_side})"
    if "others" in text:  # the called card was played before Ana's first turn: all known
        assert re.fullmatch(sides, text), text
    elif card in mine:  # Ana is the partner, and knows it: "Partner" to her alone
        assert "Partner: " in text and "Caller: " in text, (text, card)
    else:
        assert "Caller: " in text and "Partner" not in text, (text, card, mine)
    ana.shoot("sides-chiamata-caller")
    partner_known = page.locator('[data-role-badge="partner"]').count() == 1
    if not revealed(ana):
        assert partner_known == (page.locator("#partner").count() == 1), (called, mine)
        if not partner_known:
            assert "Partner" not in text, text
    # the hand played until the called card is out
    for _ in range(8):
        if revealed(ana) or page.locator("#hand-points").count():
            break
        play_one(ana)
        page.wait_for_timeout(100)
    assert revealed(ana)
    # the called card may come out in the hand's last trick: then the hand's end shows, and
    # names the sides (below) where the points line did
    page.wait_for_selector("#points:has-text('others'), #hand-points")
    if not page.locator("#hand-points").count():
        text = points_line(ana)
        event = next(e for e in ana.events if e.get("type") == "partner_revealed")
        if event["partner"] == event["caller"]:
            alone = r"(Caller: \d+ · The others: \d+|The others: \d+ · Caller: \d+)"
            assert re.fullmatch(alone, text), text
            assert page.locator('[data-role-badge="partner"]').count() == 0
        else:
            both = r"Caller and partner: \d+"
            assert re.fullmatch(rf"({both} · The others: \d+|The others: \d+ · {both})", text), text
            partner = page.locator('[data-role="seat"]:has([data-role-badge="partner"])')
            assert partner.get_attribute("data-seat") == str(event["partner"])
        ana.shoot("sides-chiamata-partner")

    # the hand's end names the sides the same way
    for _ in range(10):
        if page.locator("#hand-points").count():
            break
        if ana.enabled_cards().count():
            play_one(ana)
        page.wait_for_timeout(100)
    page.wait_for_selector("#hand-points")
    names = page.locator("#hand-points tbody td:first-child .side-name")
    said = sorted(n.split("\n")[0] for n in names.all_inner_texts())
    assert said in (["Caller", "The others"], ["Caller and partner", "The others"]), said
    ana.shoot("sides-chiamata-end")
