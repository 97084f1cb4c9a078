"""Every legal action the view lists is offered, so nothing is unplayable: at a chiamata
table against four computer players, the auction's bids and passes (and the call, when
the person wins the auction) are buttons, and the hand is played through to its end."""

from __future__ import annotations

from collections.abc import Callable

from browserkit import Person


def test_a_chiamata_hand_through_the_generic_actions(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.login()
    ana.page.select_option("#quick-game", "chiamata")
    ana.page.click("#play-now")
    ana.page.wait_for_selector("#hand .card")
    assert ana.page.locator("#others .opponent").count() == 4
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
