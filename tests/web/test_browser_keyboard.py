"""Keyboard only: a person chooses a nickname, starts a game against the computer and plays
a whole hand with Tab and Enter, never the mouse; focus is visible, and the live region
says whose turn it is."""

from __future__ import annotations

from collections.abc import Callable

from browserkit import Person

FOCUSED_CARD = """() => {
  const el = document.activeElement;
  return el && el.matches('#hand .card[aria-disabled="false"]') ? el.dataset.card : null;
}"""


def tab_to(p: Person, test: str, most: int = 60) -> str:
    """Press Tab until ``test`` (a JavaScript function) gives something; that."""
    for _ in range(most):
        found = p.page.evaluate(test)
        if found:
            return str(found)
        p.page.keyboard.press("Tab")
    raise AssertionError(f"{most} presses of Tab did not reach it")


def test_a_hand_played_with_the_keyboard_alone(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.goto("/")
    ana.page.wait_for_selector("#nickname:focus")
    ana.page.keyboard.type("Ana")
    ana.page.keyboard.press("Enter")
    ana.page.wait_for_selector("#play-now")
    tab_to(ana, "() => document.activeElement.id === 'play-now'")
    ana.page.keyboard.press("Enter")
    ana.page.wait_for_selector("#hand .card")
    played = 0
    while not ana.page.locator("#next-hand").count():
        ana.page.wait_for_selector('#hand .card[aria-disabled="false"], #next-hand')
        if ana.page.locator("#next-hand").count():
            break
        card = tab_to(ana, FOCUSED_CARD)
        if played == 0:
            outline = ana.page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
            assert outline not in ("none", ""), "the focused card shows no focus"
        ana.page.keyboard.press("Space" if played % 2 else "Enter")
        ana.page.wait_for_selector(f'#hand [data-card="{card}"]', state="detached")
        played += 1
        if played == 1:  # the live region tells what was played, and then whose turn it is
            ana.page.wait_for_selector("#live:has-text('Your turn')")
            assert " play" in ana.page.locator("#live").inner_text().lower()  # tell.played
    assert played == 20  # every card of a briscola-2 hand: 3 dealt, 17 drawn
    assert ana.page.locator("#end-title").inner_text() == "Hand 1 is over"
    tab_to(ana, "() => document.activeElement.id === 'fair-title'")
    ana.page.keyboard.press("Enter")  # the fold of the shuffle's figures opens
    tab_to(ana, "() => document.activeElement.id === 'verify'")
    ana.page.keyboard.press("Enter")
    ana.page.wait_for_selector("#fair-result.ok")
    assert len({a["version"] for a in ana.acts}) == len(ana.acts) == 20
