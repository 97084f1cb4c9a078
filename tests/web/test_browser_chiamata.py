"""Chiamata on every screen (issue 39): at a table of one person and four computer players,
at phone portrait (390x844), phone landscape (844x390) and desktop (1280x800), the cards of
your hand (``data-role="hand-card"``) are inside the window, in sight, with the page not
scrolled, at every step of the auction, the call and the play; the auction has six buttons
at most (``data-role="bid-control"`` and any other button in its box), however many bids
are legal; its stepper shows the bids the server listed, in its order, and Bid sends the one
shown; a long auction's history is folded to its last lines, the rest a click away. A hand
of 4 cards or more is sorted by suit then rank, trumps last (the trump once called), or by
rank as the person's preference says; Briškula's 32 French cards by their own order; the
replay's hands as the table's.
Screenshots: ``chiamata-auction``, ``chiamata-call`` and ``chiamata-play`` at the three
sizes, and the auction in the four languages at phone size."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from briscola.engine import Card, Rules
from briscola.words.catalogue import catalogue
from browserkit import Person, need_axe, resize, token_of

SIZES = {
    "portrait": {"width": 390, "height": 844},
    "landscape": {"width": 844, "height": 390},
    "desktop": {"width": 1280, "height": 800},
}

# The last view the page's socket received (its legal actions, its hand, its trump).
VIEWS = """
window.__view = null;
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => {
      const m = JSON.parse(e.data);
      if (m.view) window.__view = m.view;
    });
  }
};
"""

# With the page scrolled to its top: the hand's cards outside the window, or not in sight
# at their middle (something else drawn over them); the buttons of the auction.
MEASURE = """() => {
  window.scrollTo(0, 0);
  const cards = [...document.querySelectorAll('[data-role="hand-card"]')];
  const out = [];
  for (const c of cards) {
    const r = c.getBoundingClientRect();
    const inside = r.width > 0 && r.left >= 0 && r.top >= 0
      && r.right <= window.innerWidth && r.bottom <= window.innerHeight;
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    const top = inside ? document.elementFromPoint(x, y) : null;
    if (!inside || !top || !c.contains(top)) out.push([c.dataset.card, r.left, r.top, r.bottom]);
  }
  const box = document.getElementById("auction");
  const buttons = new Set([
    ...document.querySelectorAll('[data-role="bid-control"]'),
    ...(box ? box.querySelectorAll("button") : []),
  ]);
  return { cards: cards.length, out, buttons: buttons.size, scrollY: window.scrollY };
}"""


def keep(ana: Person, name: str) -> None:
    """A screenshot of the window as it is (what the person sees), its cards' art loaded,
    kept as ``NAME.png``."""
    ana.page.wait_for_function(
        "() => [...document.querySelectorAll('.card img')].every((i) => i.complete)"
    )
    path = ana.shots / f"{name}.png"
    ana.page.screenshot(path=str(path))
    folder = os.environ.get("BRISCOLA_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(folder) / path.name)


def start(ana: Person, game: str = "chiamata", level: str = "intermediate") -> None:
    """A table of ``game`` from the setup screen, every other seat a computer player of
    ``level`` (intermediate players bid, so that auctions run long)."""
    ana.goto("/")
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", game)
    ana.page.wait_for_selector(f"#setup-game option[value='{game}']:checked", state="attached")
    seats = ana.page.locator("#setup .seats select")
    for i in range(seats.count()):
        seats.nth(i).select_option(f"bot:{level}")
    ana.page.click("#setup-create")
    ana.page.click("#start:not([disabled])")
    ana.page.wait_for_selector('[data-role="hand-card"]')


def fits(ana: Person, where: str, shot: str | None = None) -> None:
    """At each size: every card of the hand in sight, six buttons at most in the auction;
    the window shot as ``SHOT-SIZE.png`` when asked."""
    page = ana.page
    for size, viewport in SIZES.items():
        resize(page, viewport)
        page.wait_for_timeout(120)  # the bottom's height measured, the page laid out again
        m = page.evaluate(MEASURE)
        assert m["cards"] > 0, (where, size, "no card of the hand on the page")
        assert not m["out"], (where, size, "cards of the hand out of sight", m)
        assert m["buttons"] <= 6, (where, size, f"{m['buttons']} buttons in the auction")
        if shot:
            keep(ana, f"{shot}-{size}")
    resize(page, SIZES["portrait"])
    page.wait_for_timeout(60)


def suit_then_rank(game: str, cards: list[str], trump: str | None) -> list[str]:
    """The hand sorted as the issue says, from the engine's order of strength: suit by suit
    (coppe, denari, spade, bastoni; with French faces red and black alternate), the trump
    last, each suit from its strongest card."""
    strength = Rules.make(game).strength
    suits = "csdb" if game.startswith("brisk") else "cdsb"
    suits = [s for s in suits if s != trump] + ([trump] if trump else [])
    return sorted(cards, key=lambda c: (suits.index(c[1]), -strength[Card.parse(c)]))


def by_rank(game: str, cards: list[str], trump: str | None) -> list[str]:
    """The hand by rank: the strongest rank first, each rank's cards by suit, trump last."""
    strength = Rules.make(game).strength
    suits = [s for s in "cdsb" if s != trump] + ([trump] if trump else [])
    return sorted(cards, key=lambda c: (-strength[Card.parse(c)], suits.index(c[1])))


def hand(ana: Person) -> list[str]:
    cards = ana.page.locator('[data-role="hand-card"]')
    return [str(c) for c in cards.evaluate_all("cs => cs.map((c) => c.dataset.card)")]


def test_the_hand_and_the_auction_fit_every_screen(people: Callable[[str], Person]) -> None:
    need_axe()
    ana = people("Ana")
    ana.context.add_init_script(VIEWS)
    ana.login()
    ana.page.wait_for_selector("#play-now")
    start(ana)
    page = ana.page
    fits(ana, "the deal")
    dealt = hand(ana)
    assert len(dealt) == 8
    assert dealt == suit_then_rank("chiamata", dealt, None), dealt  # no trump before the call
    turns = 0
    stepped = False
    for _ in range(400):
        if page.locator(".call-control").count() or ana.enabled_cards().count():
            break
        if not page.locator('[data-key="bid"]').count():
            page.wait_for_timeout(30)
            continue
        turns += 1
        fits(ana, f"the auction, Ana's turn {turns}", "chiamata-auction" if turns == 1 else None)
        view = page.evaluate("window.__view")
        raises = [a["bid"] for a in view["legal"] if a["bid"] != "pass"]
        # where it stands: the highest bid and its holder, or none yet
        high = page.locator("#auction-high").inner_text()
        if view["auction"]["high"] is None:
            assert high == "No bid yet", high
        else:
            assert "holds the highest bid" in high, high
        assert page.locator("#auction-passed").count() == any(
            b["bid"] == "pass" for b in view["auction"]["bids"]
        )
        # the stepper: + and - walk the view's list of bids, by mouse and by keyboard (the
        # focus stays on the button pressed); Bid sends the one shown, the lowest at first
        bid = page.locator('[data-key="bid"]')
        chosen = raises[0]
        if not stepped and len(raises) >= 3:
            shown = [bid.inner_text()]
            page.click('[data-key="bid-up"]')
            shown.append(bid.inner_text())
            page.focus('[data-key="bid-up"]')
            page.keyboard.press("Enter")
            page.wait_for_function(
                "(t) => document.querySelector('[data-key=\"bid\"]').textContent !== t",
                arg=shown[-1],
            )
            shown.append(bid.inner_text())
            assert page.evaluate("document.activeElement.dataset.key") == "bid-up"
            assert len(set(shown)) == 3, shown
            page.click('[data-key="bid-down"]')
            assert bid.inner_text() == shown[1]
            stepped = True
            chosen = raises[1]
        sent = len(ana.acts)
        # Ana raises every time (the auction runs on, and she wins it): once with the
        # keyboard, whose place stays in her part of the screen
        keyboard = chosen != raises[0]
        if keyboard:
            bid.focus()
            page.keyboard.press("Enter")
        else:
            bid.click()
        page.wait_for_function("(n) => window.__view.move_number !== n", arg=view["move_number"])
        assert ana.acts[sent]["action"] == {"seat": view["seat"], "bid": chosen}
        if keyboard:
            assert page.evaluate("!!document.activeElement.closest('#mine, #auction')")
    assert turns >= 1 and stepped, (turns, stepped)
    page.wait_for_selector(".call-control")  # Ana won the auction: she calls
    fits(ana, "the call", "chiamata-call")
    ana.axe("chiamata's call")
    # the history folded to its last three lines (five at least: four passed, Ana bid)
    lines = page.locator("#auction li")
    total = lines.count()
    assert total >= 5
    assert page.locator("#auction .auction-last li").count() == 3
    folded = page.locator("#auction-earlier")
    assert folded.get_attribute("open") is None
    assert folded.locator("summary").inner_text() == f"Earlier moves of the auction ({total - 3})"
    assert not folded.locator("li").first.is_visible()
    folded.locator("summary").click()
    assert folded.locator("li").first.is_visible()
    # the call: a card of each suit, of the rank bid
    calls = page.locator('[data-role="call-control"]')
    assert calls.count() == 4
    page.locator('[data-role="call-control"]').last.click()
    page.wait_for_selector("#caller")
    for turn in range(8):
        ana.enabled_cards().first.wait_for()
        view = page.evaluate("window.__view")
        if turn == 0:
            cards = hand(ana)
            assert view["trump"], view["trump"]
            assert cards == suit_then_rank("chiamata", cards, view["trump"]), cards
        fits(ana, f"the play, Ana's card {turn + 1}", "chiamata-play" if turn == 0 else None)
        assert ana.play_first()
    # the hand's replay shows each seat's eight cards dealt sorted alike (no trump turned)
    ana.goto(f"/history/{token_of(page.url)}/1")
    page.wait_for_selector(".replay-seat [data-card]")
    for seat in range(5):
        held = page.locator(f'.replay-seat[data-seat="{seat}"] [data-card]').evaluate_all(
            "els => els.map((e) => e.dataset.card)"
        )
        assert len(held) == 8 and held == suit_then_rank("chiamata", held, None), (seat, held)
    assert not ana.errors, ana.errors


def test_the_hand_by_rank_and_briskula_sorted(people: Callable[[str], Person]) -> None:
    """The preference "by rank", chosen in the preferences, sorts the chiamata hand by rank
    at once; a four-card Briškula hand, French cards, is sorted by its deck's order with
    the turned trump's suit last."""
    ana = people("Ana")
    ana.context.add_init_script(VIEWS)
    ana.login()
    ana.page.wait_for_selector("#play-now")
    start(ana, "chiamata", "beginner")
    page = ana.page
    dealt = hand(ana)
    assert dealt == suit_then_rank("chiamata", dealt, None)
    page.click("#prefs-button")
    page.wait_for_selector("#account-nickname")
    assert page.locator("#pref-sort option").all_inner_texts() == [
        "By suit, trumps last",
        "By rank: aces, then threes…",
    ]
    page.select_option("#pref-sort", "rank")
    page.wait_for_function(
        "(want) => [...document.querySelectorAll('[data-role=\"hand-card\"]')]"
        ".map((c) => c.dataset.card).join() === want",
        arg=",".join(by_rank("chiamata", dealt, None)),
    )
    page.select_option("#pref-sort", "suit")
    page.click("#prefs-button")
    start(ana, "briskula-double", "beginner")
    view = page.evaluate("window.__view")
    cards = hand(ana)
    assert len(cards) == 4 and view["trump"]
    assert cards == suit_then_rank("briskula-double", cards, view["trump"]), cards
    assert not ana.errors, ana.errors


@pytest.mark.parametrize("lang", ["en", "it", "es", "hr"])
def test_the_auction_in_every_language(people: Callable[[str], Person], lang: str) -> None:
    """The auction at phone size, in the language: its words are the catalogue's, the
    buttons the terminal's menu; shot as ``chiamata-auction-LANG.png``."""
    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#play-now")
    ana.set_prefs(lang=lang)
    ana.page.wait_for_selector("#play-now")
    start(ana)
    page = ana.page
    page.wait_for_selector('[data-key="bid"]')
    words = catalogue(lang)
    assert page.locator("#auction-title").inner_text() == words.say("table.auction")
    passing = words.say("menu.pass")
    assert page.locator('[data-key="pass"]').inner_text() == passing[:1].upper() + passing[1:]
    assert page.locator('[data-key="bid-up"]').get_attribute("aria-label") == words.say(
        "table.bid_up"
    )
    assert page.locator('[data-role="bid-control"]').count() == 4
    keep(ana, f"chiamata-auction-{lang}")
    assert not ana.errors, ana.errors
