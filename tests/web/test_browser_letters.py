"""The letters match the cards (issue 39): wherever the page writes a rank short, in
chiamata's bids above all, it is the letter the person's cards show in their corner (R, C
and F on the Neapolitan cards, R, C and S on the Spanish), never the notation's K, Q and J
("king (K)", "knight (Q)", "knave (J)" under an F card). Photographed in the four
languages at phone portrait, phone landscape and desktop sizes."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from briscola.engine.cards import Rank
from briscola.words.cards import letter, rank_name
from briscola.words.catalogue import catalogue
from browserkit import Person, resize

SIZES = {
    "phone": {"width": 390, "height": 844},
    "landscape": {"width": 844, "height": 390},
    "desktop": {"width": 1280, "height": 800},
}

BID_WORDS = """async (ranks) => {
  const talk = await import('/static/js/talk.js');
  return Object.fromEntries(ranks.map((r) => [r, String(talk.bidWords(r))]));
}"""
BID_WORDS_DEF = """async (ranks) => {
  const talk = await import('/static/js/talk.js');
  return Object.fromEntries(ranks.map((r) => [r, talk.bidWords(r).form('def')]));
}"""
"""The page's own words for a bid of each rank, as its controls and auction lines say it
(js/talk.js, the module the page itself loaded)."""

SHOWN = """() => [...document.querySelectorAll('#actions, #auction, [data-role=bid-control]')]
  .map((el) => {
    const copy = el.cloneNode(true);  // the fold's count of earlier lines is no rank
    copy.querySelectorAll('summary').forEach((s) => s.remove());
    return copy.innerText;
  }).join('\\n')"""


def shoot(p: Person, name: str) -> None:
    """Screenshots at the three sizes the issue names, kept where BRISCOLA_SCREENSHOTS says."""
    for size, viewport in SIZES.items():
        resize(p.page, viewport)
        p.page.wait_for_timeout(150)
        path = p.shots / f"{name}-{size}.png"
        p.page.screenshot(path=str(path), full_page=True)
        keep = os.environ.get("BRISCOLA_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(keep) / path.name)
    resize(p.page, SIZES["phone"])


@pytest.mark.parametrize(
    ("lang", "style"),
    [("en", "napoletane"), ("it", "napoletane"), ("es", "spanish"), ("hr", "napoletane")],
)
def test_chiamata_bids_name_a_rank_by_the_letter_its_card_shows(
    people: Callable[[str], Person], lang: str, style: str
) -> None:
    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#play-now")
    ana.set_prefs(lang=lang, style=style)
    ana.page.wait_for_selector("#play-now")
    ana.page.select_option("#quick-game", "chiamata")
    ana.page.click("#play-now")
    ana.page.wait_for_selector("#hand .card")
    ana.page.wait_for_selector("#actions .action, [data-role=bid-control]")  # Ana's turn
    said = ana.page.evaluate(BID_WORDS, ["K", "Q", "J", "A", "7"])
    words = catalogue(lang)
    courts = {Rank.KING: "R", Rank.QUEEN: "C", Rank.JACK: "F" if style == "napoletane" else "S"}
    for rank, shows in courts.items():
        assert letter(rank, style) == shows
        expected = words.word("bid.rank", rank=rank_name(rank, style, lang), code=shows)
        assert said[rank.value] == expected, (said, expected)
        assert said[rank.value].endswith(f"({shows})")
    assert said["7"].endswith("(7)")
    assert said["A"].endswith("(1)" if style == "spanish" else "(A)")
    if lang == "es":  # with its article: "con la sota"
        article = ana.page.evaluate(BID_WORDS_DEF, ["K", "J"])
        assert article == {"K": "el rey (R)", "J": "la sota (S)"}
    shown = ana.page.evaluate(SHOWN)  # the bid controls and the auction's lines
    codes = re.findall(r"\(([^()\s]{1,2})\)", shown)
    allowed = {"1" if style == "spanish" else "A", "3", *courts.values(), "7", "6", "5", "4", "2"}
    assert codes and set(codes) <= allowed, shown  # never "(K)", "(Q)", "(J)"
    cards = ana.page.locator("#hand .card img").evaluate_all(
        "(imgs) => imgs.map((i) => i.getAttribute('src'))"
    )
    assert cards and all(f"/cards/{style}/" in src for src in cards), cards
    shoot(ana, f"letters-chiamata-{lang}-{style}")
