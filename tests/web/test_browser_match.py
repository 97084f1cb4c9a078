"""Two people in two browser contexts: one sets up a private briscola-2 table (one hand),
the other joins by its link; they play the whole match through the page to its end, and
the page's fair-shuffle check says the deal was fixed before play."""

from __future__ import annotations

from collections.abc import Callable

from browserkit import Person, play_out, token_of


def test_two_people_play_a_match_by_its_link(people: Callable[[str], Person]) -> None:
    ana, bea = people("Ana"), people("Bea")
    ana.login()
    ana.page.wait_for_selector("#play-now")
    ana.shoot("home")
    ana.no_horizontal_scroll()
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "briscola-2")
    # every house rule has its explanation and its default chosen
    rules = ana.page.locator(".rule")
    assert rules.count() >= 10
    assert ana.page.locator(".rule .help").count() == rules.count()
    assert "(default)" in ana.page.locator("#rule-match option:checked").inner_text()
    ana.page.select_option("#rule-match", "one-hand")
    ana.page.select_option("#setup-chat", "free")  # free text while the hand is played
    ana.shoot("setup")
    ana.no_horizontal_scroll()
    ana.page.click("#setup-create")
    link = ana.page.locator("#invite-link").input_value()
    assert token_of(link) == token_of(ana.page.url)
    assert ana.page.locator("#start").is_disabled()  # a seat is still open

    bea.login(link.removeprefix(bea.base))
    # by the link, with a nickname: seated at once, no "Sit here" to press
    bea.page.wait_for_selector(".seats-list [data-key=leave]")
    ana.page.wait_for_selector("#start:not([disabled])")
    ana.shoot("waiting")
    ana.page.click("#start")

    for p in (ana, bea):
        p.page.wait_for_selector("#hand .card")
        assert p.page.locator("#hand .card").count() == 3
    # whoever is to play: only their cards are enabled, and a double click plays one card
    first = ana if ana.enabled_cards().count() else bea
    other = bea if first is ana else ana
    assert first.enabled_cards().count() == 3 and other.enabled_cards().count() == 0
    first.shoot("table")
    first.no_horizontal_scroll()
    card = first.enabled_cards().first.get_attribute("data-card")
    first.enabled_cards().first.dblclick()
    other.page.wait_for_selector(f'#trick [data-card="{card}"]')
    assert first.page.locator("#hand .card").count() == 2

    # the chat: a line reaches the other, shown as the text it is (no markup)
    ana.page.fill("#chat-input", "ciao <b>Bea</b>")
    ana.page.press("#chat-input", "Enter")
    bea.page.wait_for_selector("#chat-log li:has-text('ciao <b>Bea</b>')")
    assert bea.page.locator("#chat-log b").all_inner_texts() == ["Ana: "]

    play_out([ana, bea])
    for p in (ana, bea):
        assert p.page.locator("#end-title").inner_text() == "The match is over"
        versions = [a["version"] for a in p.acts]
        assert len(versions) == 20 and len(set(versions)) == 20  # one act a move, each once
        points = p.page.locator("#hand-points tbody td:nth-child(2)").all_inner_texts()
        assert sum(int(x) for x in points) == 120
        p.page.click("#fair > summary")  # the shuffle's figures are folded
        p.page.click("#verify")
        p.page.wait_for_selector("#fair-result.ok")
        assert p.page.locator("#fair-result").inner_text() == "The deal was fixed before play"
    ana.shoot("end")
    ana.no_horizontal_scroll()
    # the rematch: a new table with the same seats, started; the other is shown the way
    ana.page.click("#rematch")
    ana.page.wait_for_url(lambda url: token_of(url) != token_of(link))
    new = token_of(ana.page.url)
    assert new != token_of(link)
    ana.page.wait_for_selector("#hand .card")
    bea.page.wait_for_selector("#rematch:has-text('Go to the rematch')")
    bea.page.click("#rematch")
    bea.page.wait_for_selector("#hand .card")
    assert token_of(bea.page.url) == new
