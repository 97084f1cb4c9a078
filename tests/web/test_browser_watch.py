"""Watching a table in the browser (issue 23): a spectator sees the table from one seat's
side, with no hand shown. The seats' names are buttons ("Watch from"): the seat chosen is
drawn at the bottom (its box the lowest), kept for the table in the tab (a reload keeps
it); a public table says, once, that spectators see the play one trick late, a private
one does not (its spectators see the play as it goes, the move's clock running).
Screenshots ``watch-public-phone.png`` and ``watch-public-desktop.png``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from browserkit import Person

OPEN = """async ([publicTable]) => {
  const call = async (path, body) => {
    const r = await fetch(path, {method: "POST", headers: {"content-type": "application/json"},
                                 body: JSON.stringify(body || {})});
    if (!r.ok) throw new Error(path + ": " + r.status + " " + (await r.text()));
    return r.json();
  };
  const bot = {kind: "bot", level: "random"};
  const table = await call("/api/tables", {game: "briscola-4", rules: {match: "one-hand"},
                                          seats: [{kind: "me"}, bot, bot, bot],
                                          public: publicTable, clock: 60});
  await call(`/api/tables/${table.token}/start`);
  return table.token;
}"""

LOWEST = """() => {
  const boxes = [...document.querySelectorAll('[data-role="seat"]')].map((el) => {
    const r = el.getBoundingClientRect();
    return {seat: Number(el.dataset.seat), y: r.top + r.height / 2};
  });
  boxes.sort((a, b) => b.y - a.y);
  return boxes.length ? boxes[0].seat : null;
}"""


def open_table(ana: Person, public: bool) -> str:
    """Ana opens a briscola-4 table (computer players at the other seats) and starts it."""
    token: str = ana.page.evaluate(OPEN, [public])
    return token


def watch(cy: Person, token: str) -> Any:
    page = cy.page
    cy.login(f"/t/{token}")
    page.wait_for_selector("#watching")
    page.wait_for_selector('[data-role="seat"]')
    return page


def test_a_spectator_chooses_the_seat_to_watch_from(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#lobby")
    token = open_table(ana, public=True)
    cy = people("Cy")
    page = watch(cy, token)
    # no hand: the line that says you are watching in its place
    assert page.locator("#hand").count() == 0
    assert page.locator("#watching").inner_text().startswith("You are watching")
    # the first seat at the bottom until another is chosen
    assert page.evaluate(LOWEST) == 0
    buttons = page.locator("#watch-from button")
    assert buttons.count() == 4
    assert page.get_by_role("group", name="Watch from:").count() == 1
    assert buttons.nth(0).get_attribute("aria-pressed") == "true"
    for i in range(4):
        box = buttons.nth(i).bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
    # the public table says, once, that spectators are a trick late; no clock runs for
    # them (the move they see was made long ago)
    assert page.get_by_text("spectators see the play one trick late").count() == 1
    page.wait_for_timeout(1200)
    assert page.locator("#clock").inner_text() == ""
    # watching from seat 3: its box is the lowest, and stays so through a reload
    page.locator('#watch-from button[data-seat="2"]').click()
    page.wait_for_function(
        """() => document.querySelector('#watch-from button[data-seat="2"]')
                   .getAttribute("aria-pressed") === "true" """
    )
    assert page.evaluate(LOWEST) == 2
    assert page.locator('[data-role="seat"][data-seat="2"] .mini-hand').count() == 1
    assert page.locator("#hand").count() == 0
    shots = cy.shoot("watch-public")
    assert all(p.stat().st_size > 1000 for p in shots)
    page.reload()
    page.wait_for_selector("#watching")
    page.wait_for_selector('[data-role="seat"]')
    assert page.evaluate(LOWEST) == 2
    # by the keyboard too: the focus stays on the button pressed
    page.locator('#watch-from button[data-seat="1"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement?.dataset.key === 'watch-1'")
    assert page.evaluate(LOWEST) == 1
    cy.no_horizontal_scroll()


def test_a_private_table_says_nothing_of_a_delay(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#lobby")
    token = open_table(ana, public=False)
    page = watch(people("Cy"), token)
    assert page.locator("#watch-from button").count() == 4
    assert page.locator("#watch-late").count() == 0
    page.wait_for_function("() => /\\d/.test(document.getElementById('clock').textContent)")


def test_the_watching_page_passes_axe(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#lobby")
    cy = people("Cy")
    watch(cy, open_table(ana, public=True))
    cy.axe("a public table watched")
