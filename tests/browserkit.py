"""Browser tests' kit: Debian's Chromium driven by Playwright, and a real server.

The fixtures (tests/conftest.py takes them in): ``browser``, one headless Chromium for
each test module (``executable_path="/usr/bin/chromium"``: Playwright's own browser
download is never used; ``scripts/browser`` installs Debian's package), skipped where it
is missing and failing under CI; ``web``, a real ``briscola serve`` process
(``tests/serverkit.py``) with no pause before the computer players' moves; ``people``, a
factory of :class:`Person`, each in a new browser context (so each has their own cookie,
their own session). Screenshots go under pytest's basetemp, in
``screenshots/NAME-phone.png`` and ``NAME-desktop.png``, and are also copied to the folder
that ``BRISCOLA_SCREENSHOTS`` names, when it is set (so CI can keep them).
:meth:`Person.axe` runs axe-core (``scripts/browser`` installs it from the npm registry
into ``.cache/axe``) on the page and fails on serious or critical violations.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from serverkit import ServerProcess

LIVE = """
window.__live = [];
new MutationObserver(() => {
  const el = document.getElementById("live");
  const text = el ? el.textContent : "";
  if (text && window.__live[window.__live.length - 1] !== text) window.__live.push(text);
}).observe(document, { childList: true, subtree: true, characterData: true });
"""
"""An init script that records every text of the table's live region (what a screen reader
is told; it is replaced at each announcement) in ``window.__live``, in order."""

CHROMIUM = Path("/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
TIMEOUT_MS = 15_000
AXE = Path(__file__).parent.parent / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SEVERE = ("serious", "critical")


FRAME = """([width, height]) => new Promise((done) => {
  const late = setTimeout(() => done(false), 2000);
  requestAnimationFrame(() => {
    clearTimeout(late);
    done(innerWidth === width && innerHeight === height);
  });
})"""
"""Whether the page draws a frame at ``width`` x ``height`` within two seconds."""


def resize(page: Any, viewport: dict[str, int]) -> None:
    """Give ``page`` the size ``viewport`` and wait until it has drawn a frame at that size.

    Headless Chromium under load has been seen to draw no frame after a resize: the page's
    ``requestAnimationFrame`` stopped, and with it Playwright's wait for an element to be
    stable, so the next click hung for its whole timeout (CI, on the setup screen after
    axe-core's check at two sizes). The page is brought to the front and given its size
    again until a frame comes, three times at most; then the test fails, saying so."""
    for _ in range(3):
        page.set_viewport_size(viewport)
        if page.evaluate(FRAME, [viewport["width"], viewport["height"]]):
            return
        page.bring_to_front()
    raise AssertionError(f"Chromium drew no frame at {viewport} after three resizes")


def need_axe() -> Path:
    """axe-core's script, installed by ``scripts/browser``: skip without it, fail under CI."""
    if AXE.exists():
        return AXE
    if os.environ.get("CI"):
        pytest.fail(f"CI: {AXE} is missing: run scripts/browser (scripts/test does)")
    pytest.skip(f"the accessibility tests need axe-core at {AXE}: run scripts/browser")


def axe_report(violations: list[dict[str, Any]]) -> str:
    """One line a violation (id, impact, what it is), then the selectors of its nodes."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"]:
            where = " ".join(map(str, node["target"]))
            lines.append(f"    {where}: {node.get('failureSummary', '')}")
    return "\n".join(lines)


def need_chromium() -> None:
    """Skip without Debian's Chromium; fail under CI (``CI`` set), which must have it."""
    if CHROMIUM.exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI: {CHROMIUM} is missing: run scripts/browser (scripts/test does)")
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM}: run scripts/browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module. Not for the whole session: while Playwright's sync API
    runs, its event loop stays the thread's running loop, which the asyncio tests of later
    modules cannot share; it is stopped at the module's end (a launch takes under a
    second)."""
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the browser tests (SQLite), computer players moving at once."""
    server = ServerProcess(tmp_path_factory.mktemp("web-server"), None, bot_delay=0.0)
    with server:
        yield server


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.getbasetemp() / "screenshots"
    folder.mkdir(exist_ok=True)
    return folder


class Person:
    """One person at the browser: their own context (cookie, storage) and page. JavaScript
    errors on the page are kept in ``errors`` and fail the test at its end, and so is
    anything the server's Content-Security-Policy refuses. Under that policy the page
    evaluates no string: give ``wait_for_function`` a function (``"() => ..."``), not an
    expression, and add styles as constructed style sheets, not ``<style>``."""

    def __init__(self, browser: Any, base: str, name: str, shots: Path, **context: Any) -> None:
        """``context``: more options of the browser context (``ignore_https_errors``...)."""
        self.base = base
        self.name = name
        self.shots = shots
        self.context = browser.new_context(viewport=PHONE, locale="en-GB", **context)
        self.context.set_default_timeout(TIMEOUT_MS)
        self.errors: list[str] = []
        self.acts: list[dict[str, Any]] = []
        """Every ``act`` message the page sent over its WebSocket, in order."""
        self.events: list[dict[str, Any]] = []
        """Every event of the ``update`` messages the page received, in order."""
        self.page = self.new_page()

    def new_page(self) -> Any:
        import json

        page = self.context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        # the server's Content-Security-Policy refusing anything of the client's own is a
        # bug too (an inline style or script, a source of another host)
        page.on(
            "console",
            lambda m: (
                self.errors.append(m.text)
                if m.type == "error" and "Content Security Policy" in m.text
                else None
            ),
        )

        def socket(ws: Any) -> None:
            def sent(payload: Any) -> None:
                if isinstance(payload, str) and '"act"' in payload:
                    message = json.loads(payload)
                    if message.get("type") == "act":
                        self.acts.append(message)

            def received(payload: Any) -> None:
                if isinstance(payload, str) and '"update"' in payload:
                    message = json.loads(payload)
                    if message.get("type") == "update":
                        self.events.extend(message.get("events", []))

            ws.on("framesent", sent)
            ws.on("framereceived", received)

        page.on("websocket", socket)
        return page

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)

    def set_prefs(self, **prefs: object) -> None:
        """Keep the page's preferences (the Neapolitan cards, no word of one's own for
        trump, English, no sound; ``prefs`` over them) and open the home screen with them."""
        if not self.page.url.startswith(self.base):
            self.goto("/")  # (the site's storage: a page of its own first)
        self.page.evaluate(
            "(prefs) => localStorage.setItem('briscola.prefs', JSON.stringify(prefs))",
            {"style": "napoletane", "trump": "", "lang": "en", "sound": False, **prefs},
        )
        self.goto("/")

    def login(self, path: str = "/") -> None:
        """Open ``path`` and choose the nickname (a session)."""
        self.goto(path)
        self.page.fill("#nickname", self.name)
        self.page.click("#nickname-form button[type=submit]")

    def shoot(self, name: str) -> list[Path]:
        """Screenshots of the page at phone and desktop sizes (then phone again)."""
        out = []
        for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            resize(self.page, viewport)
            self.page.wait_for_timeout(150)
            path = self.shots / f"{name}-{size}.png"
            self.page.screenshot(path=str(path), full_page=True)
            out.append(path)
            keep = os.environ.get("BRISCOLA_SCREENSHOTS")
            if keep:
                Path(keep).mkdir(parents=True, exist_ok=True)
                shutil.copy(path, Path(keep) / path.name)
        resize(self.page, PHONE)
        return out

    def axe(self, where: str) -> list[dict[str, Any]]:
        """Run axe-core on the page as it is now; fail, naming each serious or critical
        violation (its id, impact and the nodes' selectors), if there is any. Returns every
        violation found (the lesser ones too)."""
        script = need_axe()
        if not self.page.evaluate("typeof window.axe === 'object'"):
            # evaluated, not added as a script tag: the page's Content-Security-Policy
            # runs no inline script (Playwright's evaluation is not the page's)
            self.page.evaluate(script.read_text(encoding="utf-8"))
        found: list[dict[str, Any]] = self.page.evaluate(
            "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        )
        severe = [v for v in found if v["impact"] in SEVERE]
        assert not severe, f"axe-core on {where}:\n{axe_report(severe)}"
        return found

    def no_horizontal_scroll(self) -> None:
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{self.name}: the page is {width} px wide at 390 px"

    def enabled_cards(self) -> Any:
        return self.page.locator('#hand .card[aria-disabled="false"]')

    def play_first(self) -> str | None:
        """Play the first card that may be played and wait until it has left the hand: its
        code; ``None`` (nothing done) when no card may be played now."""
        cards = self.enabled_cards()
        if not cards.count():
            return None
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        code = str(cards.first.get_attribute("data-card"))
        card = f'#hand [data-card="{code}"]'  # that card, though the hand be redrawn
        self.page.click(card)
        # A click the page did not act on (the card still there and still playable after a
        # while: a redraw took it, or the move was refused as the table moved on) is made
        # again, as a person would; a card whose move is on its way is waited for.
        for _ in range(3):
            try:
                self.page.wait_for_selector(card, state="detached", timeout=5000)
                return code
            except PlaywrightTimeout:
                if self.page.locator(f'{card}[aria-disabled="false"]').count():
                    self.page.click(card)
        self.page.wait_for_selector(card, state="detached")
        return code

    def act_last(self) -> bool:
        """Press the last button of the actions offered (an auction's pass, chiamata's last
        card to call, schembil's talk done) and wait until the buttons change; whether
        there was one."""
        actions = self.page.locator("#actions .action")
        n = actions.count()
        if not n:
            return False
        actions.last.click()
        self.page.wait_for_function(
            "n => document.querySelectorAll('#actions .action').length !== n"
            " || document.querySelector('#hand .card[aria-disabled=\"false\"]')",
            arg=n,
        )
        return True

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def people(
    browser: Any, web: ServerProcess, screenshots: Path
) -> Iterator[Callable[[str], Person]]:
    made: list[Person] = []

    def make(name: str) -> Person:
        person = Person(browser, web.url, name, screenshots)
        made.append(person)
        return person

    yield make
    errors = [f"{p.name}: {e}" for p in made for e in p.errors]
    for p in made:
        p.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


TOKEN = re.compile(r"/t/([A-Za-z0-9_-]+)")


def token_of(url: str) -> str:
    found = TOKEN.search(url)
    assert found, url
    return found.group(1)


def play_until(
    players: list[Person],
    done: Callable[[], object],
    *,
    tries: int = 200,
    pause: int = 100,
    acts: bool = False,
    failing: str = "it never came",
) -> None:
    """Each person in turn plays their first card that may be played (with ``acts``, one
    who has none presses the last button offered: :meth:`Person.act_last`), until ``done()``
    is true, which is asked before each person's move. After each round a pause of
    ``pause`` ms; after ``tries`` rounds the test fails, saying ``failing``."""
    for _ in range(tries):
        for p in players:
            if done():
                return
            if p.play_first() is None and acts:
                p.act_last()
        players[0].page.wait_for_timeout(pause)
    assert done(), failing


def play_out(players: list[Person], timeout_s: float = 120.0) -> None:
    """Each person in turn plays their first enabled card, until every page shows the
    end of the match (``#end``, the table finished); a hand's end screen is passed with
    its "next hand" button."""
    import time

    end = time.monotonic() + timeout_s
    while True:
        assert time.monotonic() < end, "the match did not end in time"
        done = 0
        moved = False
        for p in players:
            page = p.page
            if page.locator("#next-hand").count():
                page.click("#next-hand")
                moved = True
                continue
            if page.locator("#end").count() and page.locator("#rematch").count():
                done += 1
                continue
            if p.play_first() is not None:
                moved = True
        if done == len(players):
            return
        if not moved:
            players[0].page.wait_for_timeout(50)


def family_match(p: Person, fid: str) -> None:
    """A one-hand briscola-2 against a beginner, opened by ``p`` from a way to play saved
    to the family ``fid`` (as the family page's button does) and played out."""
    invite = p.page.evaluate(
        """async (fid) => {
            const post = (path, body) => fetch(path, {method: "POST", headers: {"Content-Type":
              "application/json"}, body: JSON.stringify(body)}).then((r) => r.json());
            const way = await post(`/api/families/${fid}/rules`, {name: "Quick", body: {game:
              "briscola-2", rules: {match: "one-hand"}, seats: [{kind: "me"}, {kind: "bot",
              level: "beginner"}]}});
            const table = await post(`/api/families/${fid}/rules/${way.id}/table`);
            await post(`/api/tables/${table.token}/start`);
            return table.invite;
        }""",
        fid,
    )
    p.goto(invite)
    p.enabled_cards().first.wait_for()
    play_out([p])
