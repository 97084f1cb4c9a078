"""The family's own table manners and points in the browser (issue 23): the setup shows and
explains both settings; under the defaults no running points are on the page during a
hand (the hand's end shows them) and once the cards are dealt the chat is a row of friendly
phrases, each said to every reader in their own language, and the server refuses a free
line sent all the same (issue 39); ``shown`` draws the points, and ``none`` has no chat box
at all."""

from __future__ import annotations

import re
from collections.abc import Callable

from browserkit import AXE, DESKTOP, LIVE, PHONE, Person, play_out, play_until, resize, token_of
from helpers import POINT_FIGURE

RUNNING = re.compile(r":\s*\d+\s*·")
"""The side points line: "you: 17 · Bea: 38"."""


def setup(p: Person) -> None:
    """From the home screen to the setup of a one-hand briscola-2."""
    p.page.wait_for_selector("#create-table")
    p.page.click("#create-table")
    p.page.select_option("#setup-game", "briscola-2")
    p.page.select_option("#rule-match", "one-hand")


SEND_RAW = """async ([token, message]) => {
  const ws = new WebSocket(`${location.origin.replace(/^http/, "ws")}/api/tables/${token}/ws`);
  const frames = [];
  return await new Promise((resolve, reject) => {
    setTimeout(() => reject(new Error(`no answer: ${JSON.stringify(frames)}`)), 10000);
    ws.onmessage = (m) => {
      const f = JSON.parse(m.data);
      frames.push(f.type);
      if (f.type === "snapshot") ws.send(JSON.stringify(message));
      if (f.type === "error" || (f.type === "chat" && f.text === message.text)) {
        ws.close();
        resolve(f);
      }
    };
  });
}"""
"""Open a WebSocket of the page's own (the person's session cookie goes with it), send
``message`` once the snapshot came, and give back the server's answer: the error, or the
chat line it sent to everyone."""


def send_raw(p: Person, message: dict[str, object]) -> dict[str, object]:
    """``message`` sent to ``p``'s table over a socket of ``p``'s page, not through its
    form: what the server answered (:data:`SEND_RAW`)."""
    answer: dict[str, object] = p.page.evaluate(SEND_RAW, [token_of(p.page.url), message])
    return answer


def taken(p: Person) -> int:
    """The points of the tricks taken so far, by anyone."""
    return sum(int(e["points"]) for e in p.events if e.get("type") == "trick_won")


def play_tricks(players: list[Person], points: int) -> None:
    """Play the first enabled card in turn until tricks worth ``points`` are taken."""
    play_until(players, lambda: taken(players[0]) >= points, failing="no points taken")


def test_the_defaults_hide_the_points_and_talk_in_phrases(people: Callable[[str], Person]) -> None:
    ana, bea = people("Ana"), people("Bea")
    ana.login()
    setup(ana)
    # both settings are there, explained, their defaults chosen
    assert ana.page.locator("#setup-points").input_value() == "hidden"
    assert ana.page.locator("#setup-chat").input_value() == "phrases"
    assert "in their head" in ana.page.locator("#setup-points-help").inner_text()
    assert "hint" in ana.page.locator("#setup-chat-help").inner_text()
    ana.page.locator("#setup-manners").scroll_into_view_if_needed()
    ana.shoot("setup-manners")
    ana.no_horizontal_scroll()
    ana.page.click("#setup-create")
    link = ana.page.locator("#invite-link").input_value()

    bea.set_prefs(lang="it")  # Bea reads Italian
    bea.login(link.removeprefix(bea.base))
    # by the link, with a nickname: seated at once, no "Sit here" to press
    bea.page.wait_for_selector(".seats-list [data-key=leave]")
    # before the start: free text
    ana.page.fill("#chat-input", "in bocca al lupo")
    ana.page.press("#chat-input", "Enter")
    bea.page.wait_for_selector("#chat-log li:has-text('in bocca al lupo')")
    ana.page.wait_for_selector("#start:not([disabled])")
    ana.page.click("#start")
    for p in (ana, bea):
        p.page.wait_for_selector("#hand .card")

    # the cards dealt, no card played yet: the phrases, no free text box; and a free line
    # sent all the same, over a socket of the page's, is refused and reaches nobody
    for p in (ana, bea):
        p.page.wait_for_selector("#chat-phrases button")
        for viewport in SIZES.values():  # at every size: the phrases, no free text box
            resize(p.page, viewport)
            assert p.page.locator("#chat-input").count() == 0
            assert p.page.locator("#chat-phrases button").count() == 8
        resize(p.page, PHONE)
    assert not [e for e in ana.events if e.get("type") == "card_played"]
    answer = send_raw(ana, {"type": "chat", "text": "Bea, I have the king and knave of swords!"})
    assert (answer["type"], answer["code"]) == ("error", "chat_phrases"), answer
    for p in (ana, bea):
        p.page.wait_for_timeout(300)
        assert "knave" not in p.page.locator("#chat-log").inner_text()
    ana.shoot("table-chat-phrases-dealt")
    # while the hand is played: the phrases still
    play_tricks([ana, bea], 1)
    for p in (ana, bea):
        p.page.wait_for_selector("#chat-phrases button")
        assert p.page.locator("#chat-input").count() == 0
        assert p.page.locator("#chat-phrases button").count() == 8
    if AXE.exists():  # (scripts/browser installs it; the other tests need it not)
        ana.axe("the table with the phrases")
    ana.page.click("#chat-phrases button[data-phrase='nice_hand']")
    ana.page.wait_for_selector("#chat-log li:has-text('Nice hand!')")
    bea.page.wait_for_selector("#chat-log li:has-text('Bella mano!')")
    assert bea.page.locator("#chat-phrases button[data-phrase='again']").inner_text() == (
        "Ancora una?"
    )

    # no running points on the page during the hand, points taken or not
    play_tricks([ana, bea], 1)
    for p in (ana, bea):
        text = p.page.locator("body").inner_text()
        assert p.page.locator("#points").count() == 0
        assert not RUNNING.search(text), text
    ana.shoot("table-points-hidden")
    ana.no_horizontal_scroll()

    # the end shows everything, and takes free text again
    play_out([ana, bea])
    for p in (ana, bea):
        points = p.page.locator("#hand-points tbody td:nth-child(2)").all_inner_texts()
        assert sum(int(x) for x in points) == 120
    ana.page.fill("#chat-input", "ancora una?")
    ana.page.press("#chat-input", "Enter")
    bea.page.wait_for_selector("#chat-log li:has-text('ancora una?')")


def test_shown_draws_the_points_and_none_has_no_chat(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.login()
    setup(ana)
    ana.page.select_option("#setup-points", "shown")
    ana.page.select_option("#setup-chat", "none")
    ana.page.select_option("#seat-1", "bot:random")
    ana.page.click("#setup-create")
    ana.page.wait_for_selector("#start:not([disabled])")
    assert ana.page.locator("#chat-log, #chat-input").count() == 0
    ana.page.click("#start")
    ana.page.wait_for_selector("#hand .card")
    play_tricks([ana], 1)
    ana.page.wait_for_selector("#points")
    assert RUNNING.search(ana.page.locator("#points").inner_text())
    assert ana.page.locator("#chat-log, #chat-input, #chat-phrases").count() == 0
    ana.shoot("table-points-shown")


def test_a_person_mutes_another_player_and_hears_them_again(
    people: Callable[[str], Person],
) -> None:
    """Each person can mute another player: that player's lines then say only that they
    are muted, for the one who muted them alone, until heard again."""
    ana, bea = people("Ana"), people("Bea")
    ana.login()
    setup(ana)
    ana.page.click("#setup-create")
    link = ana.page.locator("#invite-link").input_value()
    bea.login(link.removeprefix(bea.base))
    # by the link, with a nickname: seated at once, no "Sit here" to press
    bea.page.wait_for_selector(".seats-list [data-key=leave]")

    def write(p: Person, text: str) -> None:
        p.page.fill("#chat-input", text)
        p.page.press("#chat-input", "Enter")

    write(bea, "ciao a tutti")
    ana.page.wait_for_selector("#chat-log li:has-text('ciao a tutti')")
    assert ana.page.locator("button[data-mute='Ana']").count() == 0  # not oneself
    mute = ana.page.locator("button[data-mute='Bea']")
    assert mute.get_attribute("aria-pressed") == "false"
    assert mute.bounding_box()["height"] >= 44  # type: ignore[index]
    mute.click()
    write(bea, "la mia seconda riga")
    bea.page.wait_for_selector("#chat-log li:has-text('la mia seconda riga')")
    ana.page.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 2")
    log = ana.page.locator("#chat-log").inner_text()
    assert "ciao a tutti" not in log and "la mia seconda riga" not in log, log
    assert log.count("(muted)") == 2, log
    assert ana.page.locator("button[data-mute='Bea']").get_attribute("aria-pressed") == "true"
    ana.shoot("chat-muted")
    ana.page.click("button[data-mute='Bea']")
    log = ana.page.locator("#chat-log").inner_text()
    assert "ciao a tutti" in log and "la mia seconda riga" in log, log


SIZES = {"portrait": PHONE, "landscape": {"width": 844, "height": 390}, "desktop": DESKTOP}
"""The three sizes the issue names: phone portrait and landscape, desktop."""


PAGE_TEXT = """() => [
  document.body.innerText,
  ...[...document.querySelectorAll("[aria-label], [title], [aria-description], [alt]")].map(
    (e) => ["aria-label", "title", "aria-description", "alt"]
      .map((a) => e.getAttribute(a) || "")
      .join(" "),
  ),
  ...(window.__live || []),
].join("\\n")"""
"""Everything the page says: its text, its elements' labels and titles, and what its live
region said so far (the narration, recorded from the page's start)."""


def no_figure_of_points(players: list[Person], moment: str) -> None:
    """At each of the three sizes, nothing any page shows or says is a figure of points."""
    for p in players:
        for size, viewport in SIZES.items():
            resize(p.page, viewport)
            text = p.page.evaluate(PAGE_TEXT)
            found = POINT_FIGURE.search(text)
            assert not found, f"{p.name}, {size}, {moment}: {found and found[0]!r} in {text}"
        resize(p.page, PHONE)


def tricks_taken(p: Person) -> int:
    return sum(e.get("type") == "trick_won" for e in p.events)


def test_counting_in_the_head_no_figure_of_points_during_a_hand_in_four_languages(
    people: Callable[[str], Person],
) -> None:
    """Issue 39: under the default points: hidden, no figure of points appears anywhere
    during a hand (not "Last trick: Francesca took 17 points", not in the talk), at the
    three sizes, in the four languages; only the hand's end shows them."""
    langs = {"Ana": "en", "Bea": "it", "Cate": "es", "Dani": "hr"}
    players = []
    for name, lang in langs.items():
        p = people(name)
        p.context.add_init_script(LIVE)
        p.set_prefs(lang=lang)
        players.append(p)
    ana = players[0]
    ana.login()
    ana.page.wait_for_selector("#create-table")
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "briscola-4")
    ana.page.select_option("#rule-match", "one-hand")
    assert ana.page.locator("#setup-points").input_value() == "hidden"
    ana.page.click("#setup-create")
    link = ana.page.locator("#invite-link").input_value().removeprefix(ana.base)
    for p in players[1:]:
        p.login(link)  # by the link, with a nickname: seated at once
        p.page.wait_for_selector("[data-key=leave]")
    ana.page.wait_for_selector("#start:not([disabled])")
    ana.page.click("#start")
    for p in players:
        p.page.wait_for_selector("#hand .card")
    no_figure_of_points(players, "the cards dealt")
    for goal in (1, 3, 9):  # early, mid-hand (the last trick open), the last trick to come
        play_until(players, lambda g=goal: tricks_taken(ana) >= g, failing=f"no trick {goal}")
        for p in players:
            p.page.wait_for_selector("#last-trick summary")
            summary = p.page.locator("#last-trick summary")
            if p.page.locator("#last-trick[open]").count() == 0:
                summary.click()
        no_figure_of_points(players, f"after trick {tricks_taken(ana)}")
        if goal == 3:
            for p in players:
                p.shoot(f"table-points-hidden-last-trick-{langs[p.name]}")
    # the hand's end shows them: each side's points, 120 in all
    play_out(players)
    for p in players:
        points = p.page.locator("#hand-points tbody td:nth-child(2)").all_inner_texts()
        assert sum(int(x) for x in points) == 120, points
