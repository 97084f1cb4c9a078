"""Animations for playing, taking and drawing are decoration that never blocks: the page
draws the new view at once and only marks what moved (``.enter`` on a card just played,
``.drawn`` on a card just drawn, ``.going`` on the trick just taken once its pause is
over and it slides to its taker). A card is playable while the trick taken is still shown;
under reduced motion nothing moves at all."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from browserkit import Person

# Every element the page adds with an animation's class, and the card it shows.
RECORD_MOTION = """
window.__motion = [];
new MutationObserver((records) => {
  for (const r of records) {
    for (const n of r.addedNodes) {
      if (!(n instanceof Element)) continue;
      for (const el of [n, ...n.querySelectorAll(".going, .drawn, .enter")]) {
        for (const c of ["going", "drawn", "enter"]) {
          if (!el.classList.contains(c)) continue;
          window.__motion.push({ cls: c, card: el.dataset.card || null });
        }
      }
    }
  }
}).observe(document, { childList: true, subtree: true });
"""

# While a trick taken is still shown, click the first playable card: its card.
CLICK_DURING_TAKE = """() => {
  const taken = document.querySelector("#trick-done");
  const card = document.querySelector('#hand .card[aria-disabled="false"]');
  if (!taken || !card) return null;
  card.click();
  return card.dataset.card;
}"""


def start(p: Person) -> None:
    p.context.add_init_script(RECORD_MOTION)
    p.login()
    p.page.wait_for_selector("#play-now")
    p.page.click("#play-now")  # briscola-2 against the computer
    p.page.wait_for_selector("#hand .card")


def play_one(p: Person) -> str:
    card = str(p.enabled_cards().first.get_attribute("data-card"))
    p.enabled_cards().first.click()
    p.page.wait_for_selector(f'#hand [data-card="{card}"]', state="detached")
    return card


def my_draws(p: Person) -> list[str]:
    return [e["card"] for e in p.events if e["type"] == "card_drawn" and e["card"]]


def motion(p: Person) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = p.page.evaluate("window.__motion")
    return found


def test_a_card_is_playable_while_the_trick_taken_slides_away(
    people: Callable[[str], Person],
) -> None:
    ana = people("Ana")
    start(ana)  # (a trick taken is shown 1.5 s: a busy machine's computer leads well within)
    for _ in range(3):
        ana.page.wait_for_selector('#hand .card[aria-disabled="false"]')
        play_one(ana)
        # the trick is taken (by Ana, who leads, or by the computer, who leads at once):
        # while it is still shown, the hand is already live and a click plays
        before = len(ana.acts)
        card = ana.page.wait_for_function(CLICK_DURING_TAKE, timeout=3000).json_value()
        ana.page.wait_for_selector(f'#hand [data-card="{card}"]', state="detached")
        assert len(ana.acts) == before + 1 and ana.acts[-1]["action"]["play"] == card
    taken = [e for e in ana.events if e["type"] == "trick_won"]
    assert len(taken) >= 3
    # (each trick was played on while the one before was still shown: the last slides)
    ana.page.wait_for_function("() => !document.querySelector('#trick-done')", timeout=6000)
    moved = motion(ana)
    assert any(m["cls"] == "going" for m in moved)
    drawn = {m["card"] for m in moved if m["cls"] == "drawn"}
    assert my_draws(ana) and set(my_draws(ana)) <= drawn  # each card drawn slid in
    # each card played (in an update: not one already on the table when the page opened)
    # slid onto the table, but a trick's last: that trick is taken at once
    played = {e["card"] for e in ana.events if e["type"] == "card_played"}
    entered = {m["card"] for m in moved if m["cls"] == "enter"}
    assert entered >= played & {c for e in taken for c in e["cards"][:-1]}


def test_nothing_moves_under_reduced_motion(people: Callable[[str], Person]) -> None:
    bea = people("Bea")
    bea.page.emulate_media(reduced_motion="reduce")
    start(bea)
    for _ in range(4):
        bea.page.wait_for_selector('#hand .card[aria-disabled="false"]')
        play_one(bea)
    bea.page.wait_for_function(
        "() => document.querySelectorAll('#hand .card').length === 3"
        " && document.querySelector('#hand .card[aria-disabled=\"false\"]')"
    )
    assert sum(e["type"] == "trick_won" for e in bea.events) >= 3 and my_draws(bea)
    assert motion(bea) == []
