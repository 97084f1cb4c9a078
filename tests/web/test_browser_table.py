"""The card table itself (issue 23): seats round the table, each card played in front of its
player, the turned trump crossways under the stock. Measured from the page's
``data-role`` attributes (``seat``, ``played``, ``stock``, ``turned``) at phone portrait
(390x844), phone landscape (844x390) and desktop (1280x800), for two to six players, under
both directions of play; a screenshot of each kept as ``table-GAME-DIRECTION-SIZE.png``
(in pytest's basetemp ``screenshots/``, and ``BRISCOLA_SCREENSHOTS`` when set). And every
game of the catalogue, played until cards lie on the table at Ana's turn, shot at the three
sizes as ``GAME-SIZE.png``."""

from __future__ import annotations

import itertools
import math
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from briscola.catalog import variants_json
from browserkit import Person, play_until, resize

SIZES = {
    "portrait": {"width": 390, "height": 844},
    "landscape": {"width": 844, "height": 390},
    "desktop": {"width": 1280, "height": 800},
}
GAMES = {  # the game, its players, whether it is played in pairs
    "briscola-2": (2, False),
    "briscola-3": (3, False),
    "briscola-4": (4, True),
    "chiamata": (5, False),
    "briscola-6": (6, False),
    "schembil": (6, False),
}

BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x: r.left, y: r.top, w: r.width, h: r.height, seat: el.dataset.seat}; };
  const all = (role) => [...document.querySelectorAll(`[data-role="${role}"]`)].map(box);
  const turned = document.querySelector('[data-role="turned"]');
  return {
    seats: all("seat"), played: all("played"), stock: all("stock"), turned: all("turned"),
    turnedTransform: turned ? getComputedStyle(turned).transform : null,
    turnedInTrick: turned ? !!turned.closest("#trick") : false,
    me: document.querySelector('[data-role="seat"].mine')?.dataset.seat ?? null,
    hand: [...document.querySelectorAll("#hand .card")].map(box),
    handHeld: ["fixed", "sticky"]
      .includes(getComputedStyle(document.getElementById("mine")).position),
    height: window.innerHeight,
    scroll: document.documentElement.scrollWidth,
  };
}"""


def start(ana: Person, game: str, direction: str) -> None:
    """A table of ``game`` from the setup screen, every other seat a computer player."""
    ana.goto("/")
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", game)
    ana.page.wait_for_selector(f"#setup-game option[value='{game}']:checked", state="attached")
    ana.page.select_option("#rule-direction", direction)
    seats = ana.page.locator("#setup .seats select")
    for i in range(seats.count()):
        seats.nth(i).select_option("bot:beginner")
    ana.page.click("#setup-create")
    ana.page.click("#start:not([disabled])")
    ana.page.wait_for_selector('#hand .card, [data-role="seat"]')


def centre(b: dict[str, Any]) -> tuple[float, float]:
    return b["x"] + b["w"] / 2, b["y"] + b["h"] / 2


def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (
        a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and a["y"] < b["y"] + b["h"]
        and b["y"] < a["y"] + a["h"]
    )


def check(boxes: dict[str, Any], game: str, direction: str, size: str) -> None:
    where = f"{game}, direction={direction}, {size}"
    n, pairs = GAMES[game]
    seats = {int(b["seat"]): b for b in boxes["seats"]}
    assert sorted(seats) == list(range(n)), (where, boxes["seats"])
    me = int(boxes["me"])
    mine = seats[me]
    mx, my = centre(mine)
    # your seat at the bottom: below every other seat's centre
    for s, b in seats.items():
        if s != me:
            assert centre(b)[1] < my, (where, "your seat is not at the bottom", s, b, mine)
    # your hand below your seat, or at the bottom of the window over the table (issue 39:
    # always in sight), and every card at least 44 px wide
    for card in boxes["hand"]:
        assert card["w"] >= 44, (where, "a card of the hand is narrower than 44 px", card)
        at_bottom = boxes["handHeld"] and card["y"] + card["h"] <= boxes["height"]
        assert card["y"] >= mine["y"] or at_bottom, (where, "the hand is above your seat", card)
    # in pairs the partner opposite: above, within a seat's width of your centre
    if pairs:
        partner = seats[(me + n // 2) % n]
        px, py = centre(partner)
        assert py < my and abs(px - mx) <= mine["w"], (where, "the partner is not opposite")
    # the next player in the direction of play on that side
    if n > 2:
        nx = centre(seats[(me + 1) % n])[0]
        if direction == "right":
            assert nx > mx, (where, "the next player is not on your right")
        else:
            assert nx < mx, (where, "the next player is not on your left")
    # no two seats' boxes overlap
    for a in seats:
        for b in seats:
            if a < b:
                assert not overlap(seats[a], seats[b]), (where, "seats overlap", a, b)
    # each card played nearer its own seat than any other seat
    for p in boxes["played"]:
        cx, cy = centre(p)
        dist = {s: math.dist((cx, cy), centre(b)) for s, b in seats.items()}
        own = int(p["seat"])
        assert min(dist, key=dist.__getitem__) == own, (where, "a card far from its seat", p, dist)
    # the turned card crossways, partly under the stock, never in the trick
    if boxes["turned"]:
        (turned,) = boxes["turned"]
        (stock,) = boxes["stock"]
        matrix = boxes["turnedTransform"]
        assert matrix and matrix.startswith("matrix("), (where, matrix)
        a, b = (float(x) for x in matrix[7:-1].split(",")[:2])
        assert abs(abs(math.degrees(math.atan2(b, a))) - 90) < 1, (where, "not crossways", matrix)
        assert turned["w"] > turned["h"], (where, "the turned card stands upright", turned)
        assert overlap(turned, stock), (where, "the turned card is not under the stock")
        assert not boxes["turnedInTrick"], where
        for p in boxes["played"]:
            assert not overlap(turned, p), (where, "the turned card lies in the trick", p)
    assert boxes["scroll"] <= SIZES[size]["width"], (where, "horizontal scroll", boxes["scroll"])


def shoot(ana: Person, name: str) -> Path:
    path = ana.shots / f"{name}.png"
    ana.page.screenshot(path=str(path), full_page=True)
    keep = os.environ.get("BRISCOLA_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / path.name)
    return path


def into_play(ana: Person) -> None:
    """Past chiamata's auction (passing) to Ana's turn to play a card."""
    play_until([ana], ana.enabled_cards().count, tries=40, acts=True, failing="Ana never plays")


@pytest.mark.parametrize("direction", ["right", "left"])
@pytest.mark.parametrize("game", list(GAMES))
def test_the_table_is_round(people: Callable[[str], Person], game: str, direction: str) -> None:
    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#lobby li")
    start(ana, game, direction)
    into_play(ana)
    page = ana.page
    page.wait_for_selector('[data-role="seat"]')
    for round_ in range(2):
        for size, viewport in SIZES.items():
            resize(page, viewport)
            page.wait_for_timeout(120)
            boxes = page.evaluate(BOXES)
            check(boxes, game, direction, size)
            if round_ == 0:
                assert shoot(ana, f"table-{game}-{direction}-{size}").stat().st_size > 1000
        # then a card played, for a trick with cards of others' in it
        if ana.play_first():
            into_play(ana)
    resize(page, {"width": 360, "height": 740})
    page.wait_for_timeout(120)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{game}: the page is {width} px wide at 360 px"


def trick_on_the_table(ana: Person) -> bool:
    """Ana's turn, with another seat's card in the trick."""
    played = ana.page.locator('#trick [data-role="played"]')
    return bool(ana.enabled_cards().count() and played.count())


@pytest.mark.parametrize("game", [g["key"] for g in variants_json()])
def test_every_game_is_shot_at_every_size(people: Callable[[str], Person], game: str) -> None:
    """One page a game, resized: ``GAME-portrait.png``, ``GAME-landscape.png`` and
    ``GAME-desktop.png``, a trick on the table at Ana's turn; and no size scrolls sideways."""
    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#lobby li")
    start(ana, game, "right")
    never = f"{game}: no card was ever on the table at Ana's turn"
    play_until([ana], lambda: trick_on_the_table(ana), acts=True, pause=50, failing=never)
    page = ana.page
    page.wait_for_selector("#trick-done", state="detached")  # the last trick taken went
    page.mouse.move(0, 0)  # no card lifted under the pointer that played the last one
    for size, viewport in SIZES.items():
        resize(page, viewport)
        page.wait_for_timeout(120)
        assert shoot(ana, f"{game}-{size}").stat().st_size > 1000
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{game}: the page is {width} px wide at {size}"


# Every trick taken drawn on the table (shown a while, then sliding to its taker): its
# cards' places and which is marked as the winner.
RECORD_TAKEN = """
window.__taken = [];
new MutationObserver((changes) => {
  for (const c of changes) for (const n of c.addedNodes) {
    if (n.nodeType !== 1) continue;
    for (const done of n.querySelectorAll("#trick-done")) {
      const cards = done.querySelectorAll('[data-role="taken"]');
      window.__taken.push([...cards].map((f) => f.className));
    }
  }
}).observe(document, {childList: true, subtree: true});
"""


def test_the_trick_taken_marks_its_winner_and_counts_for_the_taker(
    people: Callable[[str], Person],
) -> None:
    ana = people("Ana")
    ana.context.add_init_script(RECORD_TAKEN)
    ana.login()
    ana.page.wait_for_selector("#play-now")
    ana.page.click("#play-now")  # briscola-2 against the computer
    ana.page.wait_for_selector("#hand .card")
    taken = lambda: any(e["type"] == "trick_won" for e in ana.events)  # noqa: E731
    play_until([ana], taken, tries=20, failing="no trick was taken")
    won = [e for e in ana.events if e["type"] == "trick_won"]
    first = won[0]
    # the taker's seat counts it
    seat = ana.page.locator(f'[data-role="seat"][data-seat="{first["winner"]}"] .tricks')
    assert seat.inner_text() in ("1 trick", "2 tricks"), seat.inner_text()
    # the trick taken shown: both cards where they lay, the winner's marked
    taken = ana.page.evaluate("() => window.__taken")
    assert taken, "no trick taken was shown"
    for copy in taken:
        assert len(copy) == 2 and sum("winner" in c for c in copy) == 1, copy
        assert all("slot-" in c for c in copy), copy


def test_a_playable_card_under_the_mouse_still_shows_it_is_playable(
    people: Callable[[str], Person],
) -> None:
    """Lifted under the pointer, a card keeps the ring that says it may be played."""
    ana = people("Ana")
    resize(ana.page, SIZES["desktop"])
    ana.login()
    ana.page.wait_for_selector("#lobby li")
    start(ana, "briscola-2", "right")
    card = ana.enabled_cards().first
    card.wait_for()
    ring = (
        "() => getComputedStyle(document.querySelector('#hand [aria-disabled=\"false\"]'))"
        ".boxShadow"
    )
    before = ana.page.evaluate(ring)
    card.hover()
    ana.page.wait_for_timeout(300)  # the lift's transition
    lifted = ana.page.evaluate(ring)
    assert "0px 0px 0px 3px" in before, before
    assert "0px 0px 0px 3px" in lifted, lifted


@pytest.mark.parametrize("size", ["portrait", "desktop"])
def test_a_hand_shown_to_the_table_can_be_read(people: Callable[[str], Person], size: str) -> None:
    """In briscola scoperta the other player's cards are face up: side by side, each wide
    enough to read, not fanned under one another as backs are."""
    ana = people("Ana")
    resize(ana.page, SIZES[size])
    ana.login()
    ana.page.wait_for_selector("#lobby li")
    start(ana, "scoperta", "right")
    shown = ana.page.locator('[data-role="seat"]:not(.mine) .mini-hand .card')
    shown.first.wait_for()
    ana.enabled_cards().first.wait_for()  # Ana's turn: the other hand is still meanwhile
    boxes = [shown.nth(i).bounding_box() for i in range(shown.count())]
    assert len(boxes) >= 2, boxes  # (3, or 2 when it led the first trick)
    for box in boxes:
        assert box is not None and box["width"] >= 28, boxes
    for left, right in itertools.pairwise(boxes):
        assert left is not None and right is not None
        assert left["x"] + left["width"] <= right["x"] + 0.5, boxes
