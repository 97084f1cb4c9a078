"""The browser says the terminal's sentences (issue 22): the catalogue's ``tell.*``,
``menu.*`` and ``view.*`` entries, in Italian, Spanish and Croatian, each said as
:class:`~briscola.words.catalogue.Catalogue` says it. Your own move is said in the "you"
form ("giochi l'asso di coppe", never "tu ha giocato"), another seat's in the third person
with the card's article ("Ana gioca l'asso di coppe"); the last trick and whose turn it is
in the person of the seat; a count agrees with its number ("3 karte u ruci", "5 karata");
a chiamata bid is said in words ("re (K)", never a bare "K"), on its buttons, in the
auction and in the line of who won it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from briscola.engine import Card, Rules
from briscola.words.cards import card_name
from briscola.words.catalogue import Worded, catalogue
from briscola.words.narrate import describe_action, describe_bid
from briscola.words.seating import Seating
from browserkit import LIVE, Person

FIRST_NAMES = {
    "es": {"Lucía", "Javier", "Carmen", "Pablo", "Elena"}
    | {"Diego", "María", "Andrés", "Isabel", "Manuel"},
    "hr": {"Ante", "Mare", "Jure", "Kate", "Frane"} | {"Ivana", "Duje", "Tonka", "Šime", "Marija"},
}
"""The computer players' first names a person expects at a Spanish, a Croatian table."""


def capital(text: str) -> str:
    """A sentence at the start of a line, as the page writes it."""
    return text[:1].upper() + text[1:]


def card(code: str, lang: str) -> Worded:
    """A card's name with its forms, in the faces the page shows (napoletane)."""
    return card_name(Card.parse(code), "napoletane", lang)


def said(lang: str, key: str, form: str, who: str, **values: object) -> str:
    """The sentence ``key`` as the catalogue says it, about one seat: yours (``you``) or
    another's, named ``who``; its first letter a capital."""
    words = catalogue(lang)
    name = words.say("seat.you") if form == "you" else who
    return capital(words.say(key, form=form, who=name, **values))


def person(people: Callable[[str], Person], name: str, lang: str) -> Person:
    """Someone with a session and the page in ``lang``, its live region recorded."""
    p = people(name)
    p.context.add_init_script(LIVE)
    p.login()
    p.page.wait_for_selector("#play-now")
    p.set_prefs(lang=lang)
    p.page.wait_for_selector("#play-now")
    return p


def live(p: Person) -> str:
    return " | ".join(p.page.evaluate("window.__live"))


def wait_said(p: Person, text: str) -> None:
    """Wait until the live region has said ``text``; fail showing what it said."""
    try:
        p.page.wait_for_function(
            "(text) => window.__live.some((said) => said.includes(text))", arg=text, timeout=8000
        )
    except Exception as e:
        raise AssertionError(f"{p.name}'s page never said {text!r}; it said: {live(p)}") from e


def wait_text(p: Person, selector: str, text: str) -> None:
    """Wait until ``selector``'s text is ``text``; fail showing what it is."""
    try:
        p.page.wait_for_function(
            "([sel, text]) => document.querySelector(sel)?.textContent === text",
            arg=[selector, text],
            timeout=8000,
        )
    except Exception as e:
        shown = p.page.locator(selector).all_inner_texts()
        raise AssertionError(f"{p.name}'s {selector} is {shown}, not {text!r}") from e


def quick(p: Person, game: str) -> None:
    """A quick game against the computer, to the first card in the hand."""
    p.page.select_option("#quick-game", game)
    p.page.click("#play-now")
    p.page.wait_for_selector("#hand .card")


def play_first(p: Person) -> str:
    """Play the first card that may be played; its code."""
    cards = p.enabled_cards()
    cards.first.wait_for()
    code = str(cards.first.get_attribute("data-card"))
    cards.first.click()
    p.page.wait_for_selector(f'#hand [data-card="{code}"]', state="detached")
    return code


def full(p: Person, cards: int) -> None:
    """Play on until it is the person's turn to lead: the computer's hand is full then
    (``cards`` cards), the trick before taken and drawn after."""
    for _ in range(20):
        p.enabled_cards().first.wait_for()
        if p.page.locator("#trick figure").count() == 0:
            assert p.page.locator('[data-role="seat"] .mini-hand .card').count() == cards
            return
        play_first(p)
    raise AssertionError(f"{p.name} never led")


def plays(p: Person) -> list[dict[str, Any]]:
    return [e for e in p.events if e["type"] == "card_played"]


def test_two_people_each_told_their_own_move_as_you_and_the_other_by_name(
    people: Callable[[str], Person],
) -> None:
    ana, bea = person(people, "Ana", "it"), person(people, "Bea", "it")
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "briscola-2")
    ana.page.select_option("#rule-match", "one-hand")
    ana.page.click("#setup-create")
    link = ana.page.locator("#invite-link").input_value().removeprefix(ana.base)
    bea.goto(link)
    bea.page.click(".sit")
    ana.page.wait_for_selector("#start:not([disabled])")
    ana.page.click("#start")
    for p in (ana, bea):
        p.page.wait_for_selector("#hand .card")
    first = ana if ana.enabled_cards().count() else bea
    other = bea if first is ana else ana

    code = play_first(first)
    ace = card(code, "it")
    mine = said("it", "tell.played", "you", "", card=ace)
    theirs = said("it", "tell.played", "other", first.name, card=ace)
    wait_said(first, mine)
    wait_said(other, theirs)
    # as the issue says it: "giochi l'asso di coppe", "Ana gioca l'asso di coppe"
    assert ace.form("def") != str(ace)  # the card's name with its article
    assert re.search(rf"\bgiochi {re.escape(ace.form('def'))}", mine, re.IGNORECASE), mine
    assert theirs == f"{first.name} gioca {ace.form('def')}", theirs
    for text in (live(first), live(other)):
        assert not re.search(r"\b(tu|Tu) ha\b", text), text

    code = play_first(other)
    wait_said(first, said("it", "tell.played", "other", other.name, card=card(code, "it")))
    for p in (ana, bea):
        p.page.wait_for_selector("#last-trick summary")
    won = next(e for e in other.events if e["type"] == "trick_won")
    taker = ana if won["winner"] == ana.acts[0]["action"]["seat"] else bea
    for p in (ana, bea):
        form = "you" if p is taker else "other"
        # "la 1ª presa è tua", "Ana fa la 1ª presa": no points, the table's default
        # (points: hidden) counts them in the head
        took = said("it", "tell.took_no_points", form, taker.name, trick=1)
        wait_said(p, took)
        assert re.fullmatch(r"(La 1ª presa è tua|\w+ fa la 1ª presa)", took), took
        summary = said("it", "table.last_trick_no_points", form, taker.name)
        wait_text(p, "#last-trick summary", summary)
        # whose turn: yours, or the other's by name ("Tocca a te", "Tocca a Ana")
        wait_text(p, "#turn", said("it", "table.turn_of", form, taker.name))
    other.shoot("sentences-it-table")


@pytest.mark.parametrize("lang", ["es", "hr"])
def test_against_the_computer_your_move_and_its_in_their_persons(
    people: Callable[[str], Person], lang: str
) -> None:
    ana = person(people, "Ana", lang)
    quick(ana, "briscola-2")
    code = play_first(ana)
    wait_said(ana, said(lang, "tell.played", "you", "", card=card(code, lang)))
    me = ana.acts[0]["action"]["seat"]
    bot = 1 - me
    seat = ana.page.locator(f"[data-role=seat][data-seat='{bot}']")
    name = seat.locator(".who").inner_text()
    # the computer's first card the page was sent as an event (one it led before the page
    # connected came in its first view)
    for _ in range(100):
        if any(e["seat"] == bot for e in plays(ana)):
            break
        if ana.enabled_cards().count():
            play_first(ana)
        ana.page.wait_for_timeout(50)
    theirs = next(e for e in plays(ana) if e["seat"] == bot)
    played = card(theirs["card"], lang)
    sentence = said(lang, "tell.played", "other", name, card=played)
    wait_said(ana, sentence)
    # the card after the verb with its article (Spanish "la sota de oros") or in the
    # accusative (Croatian "asa kupa")
    form = {"es": "def", "hr": "acc"}[lang]
    assert played.form(form) != str(played) and sentence.endswith(played.form(form)), sentence
    text = live(ana)
    assert not re.search(r"\b(tú|Tú) jugó\b|\b(ti|Ti): ", text), text
    # the computer is called by a first name of the page's language, its level said apart
    # in the seat's label ("Lucía, ordenador de nivel intermedio")
    words = catalogue(lang)
    assert name in FIRST_NAMES[lang], name
    level = words.say("level.intermediate")
    assert seat.get_attribute("aria-label") == words.say("table.bot_label", name=name, level=level)
    assert seat.locator(".badge.level").inner_text() == level


def karata(n: int) -> str:
    """Croatian "cards" after the number ``n``: 1, 21, 31 karta; 2-4, 22-24 karte; 5-20,
    25-30 karata."""
    if n % 10 == 1 and n % 100 != 11:
        return "karta"
    return "karte" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "karata"


def test_croatian_counts_agree_with_their_number(people: Callable[[str], Person]) -> None:
    ana = person(people, "Ana", "hr")
    hr = catalogue("hr")
    quick(ana, "briscola-2")
    full(ana, 3)
    hand = ana.page.locator('[data-role="seat"] .mini-hand').get_attribute("aria-label")
    assert hand == hr.say("table.cards_in_hand", n=3) and hand.startswith("3 karte "), hand
    stock = ana.page.locator("#stock-size").inner_text()
    n = int(stock.split()[0])
    assert stock == hr.say("table.stock", n=n) and stock.startswith(f"{n} {karata(n)} "), stock
    ana.shoot("sentences-hr-counts")
    ana.goto("/")
    ana.page.wait_for_selector("#play-now")
    quick(ana, "briscolone")  # five cards each, and no turned card: 30 in the stock
    full(ana, 5)
    hand = ana.page.locator('[data-role="seat"] .mini-hand').get_attribute("aria-label")
    assert hand == hr.say("table.cards_in_hand", n=5) and hand.startswith("5 karata "), hand
    stock = ana.page.locator("#stock-size").inner_text()
    n = int(stock.split()[0])
    assert stock == hr.say("table.stock", n=n) and stock.startswith(f"{n} {karata(n)} "), stock


@pytest.mark.parametrize("lang", ["it", "es", "hr"])
def test_a_chiamata_bid_is_said_in_words(people: Callable[[str], Person], lang: str) -> None:
    """The buttons say the terminal's menu (``menu.bid``, ``menu.pass``), the auction's
    lines and the line of who won it the terminal's sentences, every bid in words."""
    ana = person(people, "Ana", lang)
    quick(ana, "chiamata")
    rules = Rules.make("chiamata")
    words = catalogue(lang)
    seating = Seating.of(rules, 0, lang)
    menu = {capital(describe_action({"bid": "pass"}, seating))}
    menu |= {capital(describe_action({"bid": r}, seating)) for r in "A3KQJ765432"}
    menu |= {capital(describe_action({"bid": n}, seating)) for n in range(61, 121)}
    buttons = ana.page.locator("#actions .action")
    offered: list[str] = []

    def won() -> bool:
        return any(e["type"] == "auction_ended" and e["caller"] is not None for e in ana.events)

    for _ in range(200):
        if won():
            break
        labels = buttons.all_inner_texts()
        if not labels:  # not Ana's turn
            ana.page.wait_for_timeout(50)
            continue
        assert all(x in menu for x in labels), f"not the terminal's menu: {labels}"
        offered += labels
        buttons.filter(has_text=capital(words.say("menu.pass"))).click()
        ana.page.wait_for_function(
            "(n) => document.querySelectorAll('#actions .action').length !== n", arg=len(labels)
        )
    assert won(), "nobody won the auction"
    ana.page.wait_for_selector("#auction > p")
    assert offered, "Ana was never asked to bid"
    assert any(x != capital(words.say("menu.pass")) for x in offered), offered
    me = ana.acts[0]["action"]["seat"]
    ended = next(e for e in ana.events if e["type"] == "auction_ended" and e["caller"] is not None)

    def name(seat: int) -> str:
        if seat == me:
            return ""
        return ana.page.locator(f"[data-role=seat][data-seat='{seat}'] .who").inner_text()

    def form(seat: int) -> str:
        return "you" if seat == me else "other"

    bid = describe_bid(ended["bid"], seating)
    # in words: "re (K)", "2 a 75"; a low rank by its number ("7")
    assert not re.fullmatch(r"[AKQJ3]|2 at \d+", bid) and " at " not in bid, bid
    line = said(lang, "tell.auction_won", form(ended["caller"]), name(ended["caller"]), bid=bid)
    assert not re.search(r"\s[AKQJ3]$", line), line  # never "vince l'asta con K"
    wait_text(ana, "#auction > p", line)
    # the bids of this deal's auction the page was sent as events (those before it connected
    # came in its first view)
    started = [i for i, e in enumerate(ana.events) if e["type"] == "hand_started"]
    bids = [e for e in ana.events[started[-1] if started else 0 :] if e["type"] == "bid_made"]
    lines = ana.page.locator("#auction li").all_text_contents()  # the earlier ones folded
    expected = [
        said(lang, "tell.passed", form(e["seat"]), name(e["seat"]))
        if e["bid"] == "pass"
        else said(
            lang, "tell.bid", form(e["seat"]), name(e["seat"]), bid=describe_bid(e["bid"], seating)
        )
        for e in bids
    ]
    assert bids and lines[-len(expected) :] == expected
    wait_said(ana, line)
    ana.shoot(f"sentences-{lang}-auction")
