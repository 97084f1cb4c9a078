"""Every legal action the view lists is offered, so nothing is unplayable: at a chiamata
table against four computer players, the auction's bids and passes (and the call, when
the person wins the auction) are buttons, and the hand is played through to its end. The
partner stays unknown on the page until the called card falls (but to the partner), and
the page says who it is right then."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from briscola.words.catalogue import catalogue
from browserkit import Person

EN = catalogue("en")


def capital(text: str) -> str:
    """A sentence of the catalogue at the start of a line, as the page writes it."""
    return text[:1].upper() + text[1:]


# Every message the page's socket receives, and what the page shows after each (the
# auction's partner line, the live region, the end screen's points): ``at`` is how many
# messages had come then, so a change is tied to the message that made it.
RECORD = """
window.__msgs = [];
window.__seen = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => window.__msgs.push(JSON.parse(e.data)));
  }
};
new MutationObserver(() => {
  const text = (sel) => {
    const el = document.querySelector(sel);
    return el ? el.textContent : null;
  };
  const now = { at: window.__msgs.length, auction: text("#auction") !== null,
    partner: text("#partner"), live: text("#live"), points: text("#hand-points") };
  const last = window.__seen[window.__seen.length - 1];
  if (!last || JSON.stringify({ ...last, at: 0 }) !== JSON.stringify({ ...now, at: 0 })) {
    window.__seen.push(now);
  }
}).observe(document, { childList: true, subtree: true, characterData: true });
"""


def test_a_chiamata_hand_through_the_generic_actions(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.context.add_init_script(RECORD)
    ana.login()
    ana.page.select_option("#quick-game", "chiamata")
    ana.page.click("#play-now")
    ana.page.wait_for_selector("#hand .card")
    others = ana.page.locator('[data-role="seat"]:not(.mine)')
    assert others.count() == 4
    assert ana.page.locator("#stock-size").count() == 0  # every card dealt: no stock shown
    names = {
        int(str(o.get_attribute("data-seat"))): o.locator(".who").inner_text() for o in others.all()
    }
    acted = cards = 0
    saw_auction = False
    for _ in range(200):
        ana.page.wait_for_selector(
            '#actions .action, #hand .card[aria-disabled="false"], #next-hand, #end-title'
        )
        if ana.page.locator("#next-hand, #end-title").count():
            break
        saw_auction = saw_auction or ana.page.locator("#auction").count() > 0
        actions = ana.page.locator("#actions .action")
        if actions.count():
            labels = actions.all_inner_texts()
            assert all(labels) and not any(x.startswith("{") for x in labels), labels
            # a bid names its rank as the deck says it ("Bid cavallo"), not by the
            # notation's letter ("Bid Q"); a bid in points by its number
            bids = [x.removeprefix("Bid ") for x in labels if x.startswith("Bid ")]
            assert all(len(b) > 1 or b.isdigit() for b in bids), bids
            actions.last.click()  # a pass, or the last card to call
            ana.page.wait_for_function(
                f"() => document.querySelectorAll('#actions .action').length !== {len(labels)}"
                " || document.querySelector('#next-hand, #end-title')"
            )
            acted += 1
            continue
        card = ana.enabled_cards().first.get_attribute("data-card")
        ana.enabled_cards().first.click()
        ana.page.wait_for_selector(f'#hand [data-card="{card}"]', state="detached")
        cards += 1
    assert saw_auction and acted >= 1
    assert cards == 8  # the whole hand: 40 cards, 8 each
    assert ana.page.locator("#hand-points tbody tr").count() == 2  # caller's side, the others
    partner_shown_when_the_called_card_falls(ana, names)


def partner_shown_when_the_called_card_falls(p: Person, names: dict[int, str]) -> None:
    """Before the ``partner_revealed`` event the page names no partner (but to the partner,
    who knows from the call); the render of that event's message names the partner (or
    says the caller is alone; the end screen's sides, when the hand ended with it), and the
    live region says it."""
    msgs: list[dict[str, Any]] = p.page.evaluate("window.__msgs")
    seen: list[dict[str, Any]] = p.page.evaluate("window.__seen")
    revealed = [e for e in p.events if e["type"] == "partner_revealed"]
    assert len(revealed) == 1, revealed
    event = revealed[0]
    at = next(i + 1 for i, m in enumerate(msgs) if m["type"] == "update" and event in m["events"])
    called_at = next(
        i + 1
        for i, m in enumerate(msgs)
        if m["type"] == "update" and any(e["type"] == "card_called" for e in m["events"])
    )
    me = next(m["view"]["seat"] for m in msgs if m.get("view"))
    caller, partner = event["caller"], event["partner"]

    def name(seat: int) -> str:
        return EN.say("seat.you") if seat == me else names[seat]

    def form(seat: int) -> str:
        return "you" if seat == me else "other"

    # the terminal's sentences (words/narrate.py: describe_view, describe_partner)
    if partner == caller:
        alone = EN.say("tell.alone", form=form(caller), who=name(caller))
        line, who = capital(alone), alone
    elif partner == me:
        line = capital(EN.say("view.you_partner"))
        who = EN.say("tell.you_partner", caller=name(caller))
    else:
        line = capital(EN.say("view.partner_is", who=name(partner)))
        who = (
            EN.say("tell.your_partner", partner=name(partner))
            if caller == me
            else EN.say("tell.partner_of", partner=name(partner), caller=name(caller))
        )
    live = capital(EN.say("tell.partner_out", who=who))
    for s in seen:
        if s["at"] >= at or not s["auction"]:
            continue
        if partner == me and s["at"] >= called_at:
            assert s["partner"] == line, s  # the partner knows it from the call
        else:
            assert s["partner"] is None, s  # nobody else does
    then = [s for s in seen if s["at"] <= at][-1]  # the page once that message was in
    if any(e["type"] == "hand_over" for e in msgs[at - 1]["events"]):
        # the sides on the end screen, their players in each side's tooltip ("You",
        # "Giulia and you"). The end screen waits while the last trick is shown, so
        # another message (a seat's presence, the next hand's offer) may come first.
        end = next((s for s in seen if s["at"] >= at and s["points"]), None)
        assert end is not None, seen[-3:]
        assert name(partner).lower() in str(end["points"]).lower(), end
    else:
        assert then["partner"] == line, then
    assert any(live in str(s["live"]) for s in seen if s["at"] >= at), live
