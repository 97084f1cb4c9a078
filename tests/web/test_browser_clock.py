"""The clock at the table (issue 23): whose turn it is, "with a ring that empties as the
clock runs where there is a clock". The ring is round the seat to act, shrinks as its
seconds go, turns to a hurry in the last quarter, stands still under reduced motion (it
moves each second, with no sliding), and a table with no clock has none."""

from __future__ import annotations

import time
from collections.abc import Callable

from browserkit import Person

RING = '.seat.to-act [data-role="clock"]'
LEFT = (
    f"() => parseFloat(getComputedStyle(document.querySelector('{RING}'))"
    ".getPropertyValue('--left'))"
)


def open_table(ana: Person, clock: str) -> None:
    """A briscola-2 table against a computer player, with ``clock`` seconds a move."""
    ana.login()
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "briscola-2")
    ana.page.select_option("#seat-1", "bot:beginner")
    if clock:
        ana.page.fill("#clock", clock)
    ana.page.click("#setup-create")
    ana.page.click("#start:not([disabled])")
    ana.enabled_cards().first.wait_for()


def test_the_ring_round_the_seat_to_act_empties_as_its_clock_runs(
    people: Callable[[str], Person],
) -> None:
    ana = people("Ana")
    open_table(ana, "8")
    # it is Ana's turn (her cards are enabled): the ring is round her own seat
    ring_seat = ana.page.locator(".seat.to-act").get_attribute("data-seat")
    assert ana.page.locator(".seat.mine").get_attribute("data-seat") == ring_seat
    first = ana.page.evaluate(LEFT)
    assert 0.6 < first <= 1, first
    time.sleep(2.5)
    later = ana.page.evaluate(LEFT)
    # 2.5 s of 8 is about 0.31 of the ring (the ring moves each second: allow a step)
    assert 0.15 < first - later < 0.5, (first, later)
    # in the last quarter the ring is a hurry, still round Ana's seat
    ana.page.wait_for_selector(f"{RING}.hurry", timeout=8_000)
    assert ana.page.locator(".seat.to-act").get_attribute("data-seat") == ring_seat
    ana.shoot("clock-ring")


def test_a_page_opened_again_shows_the_clock_as_the_server_counts_it(
    people: Callable[[str], Person],
) -> None:
    ana = people("Ana")
    open_table(ana, "12")
    time.sleep(3)
    ana.page.reload()
    ana.page.wait_for_selector(RING)
    # 3 s and more of 12 have run: the ring is not full again
    assert ana.page.evaluate(LEFT) < 0.8


def test_under_reduced_motion_the_ring_steps_and_does_not_slide(
    people: Callable[[str], Person],
) -> None:
    ana = people("Ana")
    ana.page.emulate_media(reduced_motion="reduce")
    open_table(ana, "20")
    duration = ana.page.evaluate(
        f"() => getComputedStyle(document.querySelector('{RING}')).transitionDuration"
    )
    assert duration == "0s", duration
    assert ana.page.evaluate(LEFT) > 0.8


def test_a_table_with_no_clock_has_no_ring(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    open_table(ana, "")
    assert ana.page.locator(".seat.to-act").count() == 1
    assert ana.page.locator('[data-role="clock"]').count() == 0
