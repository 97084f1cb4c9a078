"""A briscola-4 table with signals (communication=signals): Ana (seat 1) and her partner
Bea (seat 3) are people, and so is Cy, an opponent (seat 2); a computer player sits at
seat 4. Ana's signal, made with the page's generic action button, is shown to Bea and
not to Cy."""

from __future__ import annotations

from collections.abc import Callable

from browserkit import Person, play_until


def test_a_signal_reaches_the_partner_and_not_an_opponent(
    people: Callable[[str], Person],
) -> None:
    ana, bea, cy = people("Ana"), people("Bea"), people("Cy")
    ana.login()
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "briscola-4")
    ana.page.select_option("#rule-communication", "signals")
    ana.page.select_option("#seat-3", "bot:beginner")
    ana.page.click("#setup-create")
    link = ana.page.locator("#invite-link").input_value().removeprefix(ana.base)
    bea.login(f"{link}?seat=3")  # each by their seat's link: seated there at once
    cy.login(f"{link}?seat=2")
    ana.page.wait_for_selector("#start:not([disabled])")
    ana.page.click("#start")
    signal = ana.page.locator("#actions .action", has_text="Signal:")
    play_until([bea, cy, ana], signal.count, tries=40, failing="Ana was never offered a signal")
    offered = [x.removeprefix("Signal: ") for x in signal.all_inner_texts()]
    # said in words, never by the protocol's names (low-trumps, play-carico, ace ...)
    raw = {"ace", "three", "king", "queen", "jack", "low-trumps", "no-trumps", "carico"}
    assert not raw & set(offered) and not any("-" in x for x in offered), offered
    what = offered[0]
    signal.first.click()
    # the terminal's sentence (tell.signal), in the person that agrees with the seat
    bea.page.wait_for_selector(f"#talk li:has-text('Ana signals: {what}')")
    ana.page.wait_for_selector(f"#talk li:has-text('You signal: {what}')")
    # Cy has been sent everything since (Ana's next move comes after), and never the signal
    assert cy.page.locator("#talk li:has-text('signal')").count() == 0
    cards = ana.enabled_cards()
    if cards.count():
        card = cards.first.get_attribute("data-card")
        cards.first.click()
        cy.page.wait_for_selector(f'#trick [data-card="{card}"], #last-trick')
    assert cy.page.locator("#talk li:has-text('signal')").count() == 0
