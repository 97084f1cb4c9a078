"""Screenshots kept as test artifacts, at phone (390x844) and desktop (1280x800) sizes:
the home and setup screens, a table in each card style (Napoletane, Spanish,
French; Briškula's 32 cards in French faces; a chiamata table in its auction) and the
end screen. They go under pytest's basetemp ``screenshots/``, and to the folder
``BRISCOLA_SCREENSHOTS`` names when it is set. At phone size no screen is wider than the
phone."""

from __future__ import annotations

from collections.abc import Callable

from browserkit import Person, play_out


def start_against_computers(ana: Person, game: str, one_hand: bool = False) -> None:
    """A table of ``game`` from the setup screen, every other seat a computer player."""
    ana.goto("/")
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", game)
    ana.page.wait_for_selector(f"#setup-game option[value='{game}']:checked", state="attached")
    if one_hand:
        ana.page.select_option("#rule-match", "one-hand")
    seats = ana.page.locator("#setup .seats select")
    for i in range(seats.count()):
        seats.nth(i).select_option("bot:beginner")
    ana.page.click("#setup-create")
    ana.page.click("#start:not([disabled])")
    ana.page.wait_for_selector("#hand .card")


def choose_style(ana: Person, style: str) -> None:
    ana.page.click("#prefs-button")
    # the signed-in person's part fills in after a request and moves the Close button down
    ana.page.wait_for_selector("#account-nickname")
    ana.page.select_option("#pref-style", style)
    ana.page.click("#prefs button:has-text('Close')")
    ana.page.wait_for_selector("#prefs", state="hidden")


def shoot(ana: Person, name: str) -> None:
    """``screens-NAME-phone.png`` and ``-desktop.png`` (other tests shoot plain names)."""
    paths = ana.shoot(f"screens-{name}")
    assert all(p.stat().st_size > 1000 for p in paths), paths
    ana.no_horizontal_scroll()


def wait_for_art(ana: Person) -> None:
    """Every card image on the page loaded (so the screenshot shows the art)."""
    ana.page.wait_for_function(
        "() => [...document.querySelectorAll('.card img')].every(i => i.complete)"
    )


def test_screenshots_of_every_screen(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#lobby li")
    shoot(ana, "home")
    ana.page.click("#create-table")
    ana.page.select_option("#setup-game", "chiamata")
    ana.page.wait_for_selector("#setup-game option[value=chiamata]:checked", state="attached")
    shoot(ana, "setup")
    # at phone size each seat's name starts at its choice's left edge (not centred above it)
    edges = ana.page.locator(".seats label.seat-row").evaluate_all(
        "ls => ls.map(l => [l.querySelector('span').getBoundingClientRect().left,"
        " l.querySelector('select').getBoundingClientRect().left])"
    )
    assert len(edges) == 4 and all(abs(a - b) < 2 for a, b in edges), edges

    start_against_computers(ana, "briscola-2", one_hand=True)
    card = ana.enabled_cards().first.get_attribute("data-card")
    ana.enabled_cards().first.click()
    ana.page.wait_for_selector(f'#hand [data-card="{card}"]', state="detached")
    ana.page.wait_for_selector("#last-trick")
    ana.page.click("#last-trick summary")
    for style in ("napoletane", "spanish", "french"):
        choose_style(ana, style)
        ana.page.wait_for_selector(f'#hand .card img[src^="/cards/{style}/"]')
        wait_for_art(ana)
        shoot(ana, f"table-{style}")
    choose_style(ana, "napoletane")
    play_out([ana])
    ana.page.click("#fair > summary")
    ana.page.click("#verify")
    ana.page.wait_for_selector("#fair-result.ok")
    shoot(ana, "end")

    start_against_computers(ana, "briskula")
    ana.page.wait_for_selector('#hand .card img[src^="/cards/french/"]')
    wait_for_art(ana)
    shoot(ana, "table-briskula-french32")
    start_against_computers(ana, "chiamata")
    ana.page.wait_for_selector("#actions .action")
    wait_for_art(ana)
    shoot(ana, "table-chiamata-auction")
    # at phone size the four others sit round the table: two on the top row, two at the sides
    # (laid out again after the desktop screenshot: wait until every seat has its box and
    # they are not all at one height: two runs read every top as 0 right after the resize)
    ana.page.wait_for_function(
        "() => { const os = [...document.querySelectorAll('[data-role=\"seat\"]:not(.mine)')];"
        " return os.every(o => o.getBoundingClientRect().height > 0)"
        " && new Set(os.map(o => Math.round(o.getBoundingClientRect().top))).size > 1; }"
    )
    tops = ana.page.locator('[data-role="seat"]:not(.mine)').evaluate_all(
        "os => os.map(o => Math.round(o.getBoundingClientRect().top))"
    )
    assert len(tops) == 4 and len(set(tops)) == 2, tops
