"""axe-core (from the npm registry, injected into the page) finds no serious or critical
violation on the home, setup, waiting, table and end screens, at phone and desktop sizes
(the preferences panel open once too)."""

from __future__ import annotations

from collections.abc import Callable

from browserkit import DESKTOP, PHONE, Person, need_axe, play_out, play_until, resize


def check(person: Person, where: str) -> None:
    """axe-core on the page as it is, at phone size then at desktop size."""
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        resize(person.page, viewport)
        person.page.wait_for_timeout(100)
        found = person.axe(f"{where} ({size})")
        # Of the moderate ones: every screen has its level-one heading (the site's name).
        assert "page-has-heading-one" not in {v["id"] for v in found}, where
    resize(person.page, PHONE)


def test_no_serious_violations_on_any_screen(people: Callable[[str], Person]) -> None:
    need_axe()
    ana = people("Ana")
    ana.goto("/")
    ana.page.wait_for_selector("#nickname")
    check(ana, "the nickname form")
    ana.login()
    ana.page.wait_for_selector("#play-now")
    ana.page.wait_for_selector("#lobby li")
    check(ana, "home")
    ana.page.click("#prefs-button")
    ana.page.wait_for_selector("#pref-style")
    check(ana, "home with the preferences open")
    ana.page.click("#prefs-button")

    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "briscola-2")
    ana.page.select_option("#rule-match", "one-hand")
    ana.page.select_option("#seat-1", "bot:beginner")
    ana.page.select_option("#setup-chat", "free")  # free text while the hand is played
    check(ana, "setup")
    ana.page.click("#setup-create")
    ana.page.wait_for_selector("#start:not([disabled])")
    check(ana, "waiting room")
    ana.page.click("#start")
    ana.enabled_cards().first.wait_for()
    check(ana, "table")
    ana.play_first()
    ana.page.wait_for_selector("#last-trick")
    ana.page.click("#last-trick summary")
    ana.page.click("#rules-button")
    ana.page.wait_for_selector("#rules-text li, #rules-text p")
    for i in range(4):  # enough chat to scroll its log (5 lines at once at most)
        ana.page.fill("#chat-input", f"line {i} " + "chat " * 50)
        ana.page.press("#chat-input", "Enter")
        ana.page.wait_for_selector(f"#chat-log li:has-text('line {i}')")
    assert ana.page.evaluate(
        "(l => l.scrollHeight > l.clientHeight)(document.getElementById('chat-log'))"
    )
    check(ana, "table after a trick, rules and last trick open, the chat scrolled")

    play_out([ana])
    ana.page.click("#fair > summary")
    ana.page.click("#verify")
    ana.page.wait_for_selector("#fair-result.ok")
    check(ana, "end")


def test_no_serious_violations_in_the_communication_panel(
    people: Callable[[str], Person],
) -> None:
    """A briscola-4 table with signals: the signals offered, and the panel of what was
    signalled once one is used. (A conversation's questions are asked by the leader from
    the second trick on, like schembil's talk, which test_browser_games checks.)"""
    need_axe()
    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#play-now")  # the session is made before the page moves on
    for communication in ("signals",):
        ana.goto("/")
        ana.page.click("#create-table")
        ana.page.select_option("#setup-game", "briscola-4")
        ana.page.select_option("#rule-communication", communication)
        for i in (1, 2, 3):
            ana.page.select_option(f"#seat-{i}", "bot:beginner")
        ana.page.click("#setup-create")
        ana.page.click("#start:not([disabled])")
        ana.page.wait_for_selector("#hand .card")
        # the talk is offered on some turns: play cards until it is
        actions = ana.page.locator("#actions .action")
        never = f"Ana was never offered a word ({communication})"
        play_until([ana], actions.count, pause=50, failing=never)
        check(ana, f"a briscola-4 table with {communication}")
        ana.page.locator("#actions .action").first.click()
        ana.page.wait_for_selector("#talk li")
        check(ana, f"a briscola-4 table with {communication}, after a word")
