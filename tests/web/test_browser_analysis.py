"""After the hand, what each card cost, in real Chromium: Ana plays a one-hand match
against the computer; the end screen shows each player's points lost, accuracy and
costliest cards (the same figures `briscola analyse` gives on the hand's record); the
replay marks the cards and shows the choices each seat had, and at a press the values
with every card seen; a chiamata replay values the auction and the call. Photographed
at phone and desktop sizes, checked by axe-core, in Italian too."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba")

from briscola.analysis import analyse_json, tenths
from browserkit import Person, play_out, token_of


def play_a_hand(ana: Person) -> str:
    """Ana opens a one-hand briscola-2 table against the beginner and plays it out; its
    token."""
    ana.login()
    ana.page.wait_for_selector("#play-now")
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "briscola-2")
    ana.page.select_option("#rule-match", "one-hand")
    ana.page.select_option("#seat-1", "bot:beginner")
    ana.page.click("#setup-create")
    ana.page.click("#start")
    ana.enabled_cards().first.wait_for()
    play_out([ana])
    return token_of(ana.page.url)


def assert_same_analysis(served: dict[str, Any], truth: dict[str, Any], folder: Path) -> None:
    """The server's analysis is the one computed here from the downloaded record, to the
    last digit; if not, both are kept in ``folder`` and the first decision that differs is
    named."""
    if served == truth:
        return
    (folder / "served.json").write_text(json.dumps(served, indent=1))
    (folder / "here.json").write_text(json.dumps(truth, indent=1))
    pairs = zip(served["decisions"], truth["decisions"], strict=False)
    first = next(((a, b) for a, b in pairs if a != b), None)
    raise AssertionError(
        f"the server's analysis differs from the record's (both in {folder}); the first "
        f"decision that differs: {first}; the seats: {served['seats']} != {truth['seats']}"
    )


def test_every_figure_is_rounded_as_the_terminal_and_briscola_analyse_round_it(
    people: Callable[[str], Person],
) -> None:
    """The page's figures (``num`` of js/analysis.js, in English) are ``tenths`` of the
    figures, for every figure the JSON may give from 0 to 120 (two decimals): the end
    screen says what the terminal and ``briscola analyse`` say, ties and all."""
    ana = people("Ana")
    ana.set_prefs()
    ana.login()
    ana.page.wait_for_selector("#play-now")
    figures = [k / 100 for k in range(12_001)]
    shown = ana.page.evaluate(
        "(xs) => import('/static/js/analysis.js').then((m) => xs.map(m.num))", figures
    )
    differ = [
        (x, page, tenths(x)) for x, page in zip(figures, shown, strict=True) if page != tenths(x)
    ]
    assert not differ, f"{len(differ)} figures shown otherwise, the first: {differ[:5]}"


def test_the_end_screen_and_the_replay_show_what_each_card_cost(
    people: Callable[[str], Person], tmp_path: Path
) -> None:
    ana = people("Ana")
    ana.set_prefs()
    token = play_a_hand(ana)
    ana.page.wait_for_selector("#analysis-seats li", timeout=60_000)
    record = json.loads(
        ana.page.evaluate(f"() => fetch('/api/tables/{token}/hands/1').then(r => r.text())")
    )
    truth = analyse_json(record)  # what `briscola analyse` says of the downloaded record
    served = json.loads(
        ana.page.evaluate(
            f"() => fetch('/api/tables/{token}/hands/1/analysis').then(r => r.text())"
        )
    )
    assert_same_analysis(served, truth, tmp_path)
    lines = ana.page.locator("#analysis-seats li").all_inner_texts()
    assert len(lines) == 2
    for line, seat in zip(lines, truth["seats"], strict=True):
        assert f"points lost {tenths(seat['total_loss'])}" in line, line
        assert f"accuracy {tenths(seat['accuracy'])}%" in line, line
    you = lines[0] if truth["seats"][0]["seat"] == 0 else lines[1]
    assert you.startswith("You: ")
    ana.shoot("analysis-end")
    ana.axe("the end screen with the analysis")
    ana.no_horizontal_scroll()

    # the replay: at each trick the cards' marks and the choices each seat had
    ana.page.click("#analysis-replay")
    ana.page.wait_for_selector("#replay-analysis #analysis-seats li")
    marked = [d for d in truth["decisions"] if d["label"] in ("inaccuracy", "mistake", "blunder")]
    shown = marked[0] if marked else truth["decisions"][0]
    ana.goto(f"/history/{token}/1?trick={shown['trick']}")
    ana.page.wait_for_selector("#replay-decisions li")
    decisions = ana.page.locator("#replay-decisions li").all_inner_texts()
    at_trick = [d for d in truth["decisions"] if d["trick"] == shown["trick"]]
    assert len(decisions) == len(at_trick)
    if marked:
        sign = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[shown["label"]]
        # (two cards of a trick may carry the same mark: take the one of this decision's loss)
        lost = f"{tenths(shown['loss'])} points lost"
        mark = ana.page.locator(f'#replay-trick .mark.{shown["label"]}[aria-label*="{lost}"]').first
        assert mark.inner_text() == sign
        assert f"{tenths(shown['loss'])} points lost" in (mark.get_attribute("aria-label") or "")
        line = next(t for t in decisions if f"(\u2212{tenths(shown['loss'])})" in t)
        assert "the choices then:" in line and "★ the best" in line
    ana.shoot("analysis-replay")
    ana.axe("a replayed trick with its analysis")
    ana.no_horizontal_scroll()

    # the other values, with every card seen: pressed, said so, and `briscola analyse
    # --all-cards`'s figures
    every = analyse_json(record, seen="all")
    ana.page.click("#analysis-seen-all")
    ana.page.wait_for_selector("#analysis-seen-note")
    assert ana.page.get_attribute("#analysis-seen-all", "aria-pressed") == "true"
    assert ana.page.get_attribute("#analysis-seen-seat", "aria-pressed") == "false"
    seen_all = [d for d in every["decisions"] if d["trick"] == shown["trick"]]
    values = [tenths(c["expected_points"]) for d in seen_all if d["label"] != "forced"
              for c in d["choices"]]  # fmt: skip
    ana.page.wait_for_function(
        "vs => { const el = document.getElementById('replay-decisions');"
        " return el && vs.every((v) => el.innerText.includes(v)); }",
        arg=values,
    )
    ana.shoot("analysis-replay-all-cards")
    ana.axe("a replayed trick valued with every card seen")
    ana.goto(f"/history/{token}/1?trick={shown['trick']}&seen=all")  # a link to them
    ana.page.wait_for_selector("#analysis-seen-note")
    ana.page.click("#analysis-seen-seat")
    ana.page.wait_for_selector("#analysis-seen-note", state="detached")


def test_the_analysis_in_italian(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.set_prefs(lang="it")
    play_a_hand(ana)
    ana.page.wait_for_selector("#analysis-seats li", timeout=60_000)
    text = ana.page.locator("#analysis").inner_text()
    assert "Quanto è costata ogni carta" in text and "punti persi" in text
    assert "Tu: " in text
    ana.shoot("analysis-end-it")


def test_a_hint_at_a_practice_table_and_none_between_two_people(
    people: Callable[[str], Person],
) -> None:
    """Against the computer, the hint button on your turn says the strong player's card
    and its chance to win the hand, and each card's, the star on the card it names, in the
    four languages. The practice table counts in its head (points: hidden, the default):
    no figure of points, in the hint either (the terminal's tests show the points beside
    the chance where they are shown). Two people at a table opened without hints see no
    button, and with hints (the setup's checkbox) both do."""
    ana = people("Ana")
    ana.set_prefs()
    ana.login()
    ana.page.wait_for_selector("#play-now")
    ana.page.click("#play-now")  # against the computer: a practice table
    ana.enabled_cards().first.wait_for()
    ana.page.click("#hint")
    said = ana.page.locator("#hint-said")
    said.wait_for()
    text = said.inner_text()
    # one hint, one currency: the sentence names a card, the list stars that card, and
    # every figure says what it is (the chance to win the hand)
    card, rest = text.removeprefix("The strong computer player would play ").split(". ", 1)
    assert text.startswith("The strong computer player would play "), text
    why, listed = rest.split(" each choice: ")
    assert re.fullmatch(
        r"It plays to win the hand: with this choice your side wins it \d+% of the time\.", why
    ), why
    assert not re.search(r"\d\.\d|points?\b", text), text  # no figure of points
    items = listed.split(" · ")
    assert len(items) >= 2  # (the first card of the hand: two or three to choose from)
    for item in items:
        assert re.fullmatch(r".+ \(wins \d+%\)( ★ the best)?", item), item
    [starred] = [i for i in items if "★" in i]
    assert starred.startswith(f"{card} ("), text
    figures = starred.split(" (", 1)[1].split(")")[0]  # "wins 64%"
    assert figures.replace("wins ", "wins it ") in why
    ana.shoot("hint")
    ana.axe("a hint at a practice table")
    # the same hint in the other languages (the same moment: the same figures)
    sentences = {"it": "giocherebbe ", "es": "jugaría ", "hr": "odigrao bi "}
    for lang, verb in sentences.items():
        ana.page.evaluate(
            "(lang) => { const p = JSON.parse(localStorage.getItem('briscola.prefs'));"
            " localStorage.setItem('briscola.prefs', JSON.stringify({...p, lang})); }",
            lang,
        )
        ana.page.reload()
        ana.enabled_cards().first.wait_for()
        ana.page.click("#hint")
        said.wait_for()
        there = said.inner_text()
        assert verb in there and there.count("★") == 1 and there.count("%") == len(items) + 1
        if lang == "it":  # the card with its article: "giocherebbe il due di spade"
            assert re.search(r"giocherebbe (il |l'|lo |la )", there), there
        ana.shoot(f"hint-{lang}")
    ana.page.evaluate(
        "() => { const p = JSON.parse(localStorage.getItem('briscola.prefs'));"
        " localStorage.setItem('briscola.prefs', JSON.stringify({...p, lang: 'en'})); }"
    )
    ana.page.reload()
    ana.enabled_cards().first.wait_for()
    ana.enabled_cards().first.dblclick()  # the table moves on: the hint goes
    ana.page.wait_for_function("() => !document.getElementById('hint-said')")

    for hints in (False, True):
        bea, cy = people("Bea"), people("Cy")
        bea.login()
        bea.page.wait_for_selector("#create-table")
        bea.page.click("#create-table")
        bea.page.select_option("#setup-game", "briscola-2")
        if hints:
            bea.page.check("#setup-hints")
        bea.page.click("#setup-create")
        link = bea.page.locator("#invite-link").input_value()
        cy.login(link.removeprefix(cy.base))
        # by the link, with a nickname: seated at once, no "Sit here" to press
        cy.page.wait_for_selector(".seats-list [data-key=leave]")
        bea.page.wait_for_selector("#start:not([disabled])")
        bea.page.click("#start")
        for p in (bea, cy):
            p.page.wait_for_selector("#hand .card")
        bea.page.wait_for_function(
            "() => document.querySelectorAll('#hand .card[aria-disabled=\"false\"]').length"
            " + document.querySelectorAll('.seat.to-act:not(.mine)').length > 0"
        )
        first = bea if bea.enabled_cards().count() else cy
        first.enabled_cards().first.wait_for()
        assert first.page.locator("#hint").count() == (1 if hints else 0)


def test_the_replay_values_the_auctions_bids_and_the_call(
    people: Callable[[str], Person], tmp_path: Path
) -> None:
    """A chiamata hand (its end screen, the match going on): Ana presses the last button
    offered (the lowest rank, or 120 points once the bids are in points; the last card to
    call) and plays her cards; at the deal the replay lists the auction's decisions and the
    call "at the auction" (not at trick 1, in the four languages), named as their buttons
    name them, each with the choices valued (a pass after a bid of 120 is forced: no
    choice to value); the server's figures are the record's."""
    ana = people("Ana")
    ana.set_prefs()
    ana.login()
    page = ana.page
    page.wait_for_selector("#play-now")
    page.click("#create-table")
    page.select_option("#setup-game", "chiamata")
    page.wait_for_selector("#setup-game option[value='chiamata']:checked", state="attached")
    seats = page.locator("#setup .seats select")
    for i in range(seats.count()):
        seats.nth(i).select_option("bot:beginner")
    page.click("#setup-create")
    page.click("#start:not([disabled])")
    page.wait_for_selector("#hand .card")
    end = time.monotonic() + 120
    while not page.locator("#analysis").count():
        assert time.monotonic() < end, "the hand did not end in time"
        if ana.play_first() is None and not ana.act_last():
            page.wait_for_timeout(50)
    token = token_of(page.url)
    page.wait_for_selector("#analysis-seats li", timeout=120_000)
    record = json.loads(
        page.evaluate(f"() => fetch('/api/tables/{token}/hands/1').then(r => r.text())")
    )
    truth = analyse_json(record)
    served = json.loads(
        page.evaluate(f"() => fetch('/api/tables/{token}/hands/1/analysis').then(r => r.text())")
    )
    assert_same_analysis(served, truth, tmp_path)
    auction = [d for d in truth["decisions"] if "bid" in d["played"] or "call" in d["played"]]
    assert any("call" in d["played"] for d in auction)
    # the auction is listed at the deal, "at the auction", not at trick 1
    ana.goto(f"/history/{token}/1?trick=0")
    page.wait_for_selector("#replay-decisions li")
    lines = page.locator("#replay-decisions li").all_inner_texts()
    assert all(d["when"] == "auction" for d in auction)
    assert len(lines) == len([d for d in truth["decisions"] if d["when"] != "play"])
    assert all(line.startswith("At the auction: ") for line in lines), lines
    said = [line for line in lines if ", pass: " in line or ", bid " in line]
    bids = [d for d in auction if "bid" in d["played"]]
    assert len(said) == len(bids)
    for line, d in zip(said, bids, strict=True):
        if d["label"] == "forced":  # a pass when the bid stands at 120: one choice
            assert line.endswith(": forced"), line
        else:
            assert "the choices then: pass " in line, line
    [call] = [line for line in lines if ", call " in line]
    assert call.count("call ") >= 4  # the card called, and the four it could call
    ana.shoot("analysis-replay-auction")
    ana.axe("a replayed auction with its analysis")
    ana.goto(f"/history/{token}/1?trick=1")  # the first trick: its cards alone
    # the decisions, or the note that there are none here (not the note that the analysis
    # is still loading, #analysis-note)
    page.wait_for_selector("#replay-decisions li, #replay-analysis .note:not(#analysis-note)")
    first = page.locator("#replay-decisions li").all_inner_texts()
    assert len(first) == len(
        [d for d in truth["decisions"] if d["when"] == "play" and d["trick"] == 1]
    )
    assert not any(", bid " in line or ", call " in line for line in first), first
    for lang, at in (("it", "All'asta: "), ("es", "En la subasta: "), ("hr", "Na licitaciji: ")):
        ana.page.evaluate(
            "(lang) => { const p = JSON.parse(localStorage.getItem('briscola.prefs'));"
            " localStorage.setItem('briscola.prefs', JSON.stringify({...p, lang})); }",
            lang,
        )
        ana.goto(f"/history/{token}/1?trick=0")
        page.wait_for_selector("#replay-decisions li")
        there = page.locator("#replay-decisions li").all_inner_texts()
        assert all(line.startswith(at) for line in there), there
        ana.shoot(f"analysis-replay-auction-{lang}")
