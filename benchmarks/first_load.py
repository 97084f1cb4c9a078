"""The first load's size: what a phone downloads the first time it opens the site.

Starts ``briscola serve`` as a real process (SQLite in a temporary folder, see
benchmarks/load.py), and in Debian's Chromium (Playwright, ``/usr/bin/chromium``), each in
a new browser context (an empty cache, no service worker yet):

- **home**: the home page opened, a nickname chosen, the home screen drawn;
- **table**: a table of briscola-2 against a computer player, made and started through the
  API in the context (its session cookie), then its page opened and drawn: the hand, the
  trump and the stock, with their card art.

and sums the bytes transferred of every response: the page's own (the navigation and the
resource timing entries' ``transferSize``, headers included, 0 for what a cache answered),
and the service worker's, which installs as the page loads (its own resource timing:
whatever it fetched from the network rather than from the HTTP cache). The WebSocket's
frames are not counted (a table's snapshot, a few KB). The issue's budget: 300 KB (300 x
1000 bytes), the card art included.

    PYTHONPATH=src .venv/bin/python benchmarks/first_load.py [--style french] [--lang it]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import start_server

BUDGET = 300_000
"""The issue's budget for the first load, the card art included, in bytes."""

CHROMIUM = "/usr/bin/chromium"

ENTRIES = """() => {
  const all = [...performance.getEntriesByType("navigation"),
               ...performance.getEntriesByType("resource")];
  return all.map((e) => [e.name, e.transferSize, e.encodedBodySize, e.decodedBodySize]);
}"""


def settled(page: Any) -> None:
    """Wait until the page's images have loaded and the service worker is active, then a
    moment for the last requests."""
    page.wait_for_function(
        "() => [...document.images].every((i) => i.complete)"
        " && navigator.serviceWorker && navigator.serviceWorker.controller !== null"
    )
    page.wait_for_load_state("networkidle")


def sizes(context: Any, page: Any) -> dict[str, Any]:
    """Every response the page and the service worker took from the network: (address,
    bytes transferred, body encoded, body decoded)."""
    entries: list[list[Any]] = page.evaluate(ENTRIES)
    worker: list[list[Any]] = []
    for sw in context.service_workers:
        worker += sw.evaluate(
            "() => performance.getEntriesByType('resource')"
            ".map((e) => [e.name, e.transferSize, e.encodedBodySize, e.decodedBodySize])"
        )
    page_bytes = sum(e[1] for e in entries)
    worker_bytes = sum(e[1] for e in worker)
    return {
        "page": page_bytes,
        "worker": worker_bytes,
        "total": page_bytes + worker_bytes,
        "entries": entries,
        "worker_entries": worker,
    }


def measure_home(browser: Any, base: str, lang: str = "en") -> dict[str, Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=lang)
    try:
        page = context.new_page()
        page.goto(base + "/")
        page.fill("#nickname", "Ana")
        page.click("#nickname-form button[type=submit]")
        page.wait_for_selector("#play-now")
        settled(page)
        return sizes(context, page)
    finally:
        context.close()


def measure_table(browser: Any, base: str, style: str = "", lang: str = "en") -> dict[str, Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=lang)
    try:
        http = context.request
        origin = {"Origin": base}
        http.post(base + "/api/session", data={"nickname": "Bea"}, headers=origin)
        seats = [{"kind": "me"}, {"kind": "bot", "level": "beginner"}]
        table = http.post(
            base + "/api/tables", data={"game": "briscola-2", "seats": seats}, headers=origin
        ).json()
        http.post(f"{base}/api/tables/{table['token']}/start", headers=origin)
        page = context.new_page()
        if style:
            page.add_init_script(
                f"localStorage.setItem('briscola.prefs', JSON.stringify({{style: '{style}'}}))"
            )
        page.goto(f"{base}/t/{table['token']}")
        page.wait_for_selector("#hand .card img, #hand .card")
        settled(page)
        return sizes(context, page)
    finally:
        context.close()


def launch(pw: Any) -> Any:
    return pw.chromium.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    )


def report(name: str, found: dict[str, Any], detail: bool) -> None:
    print(
        f"{name}: {found['total']:,} bytes ({found['page']:,} the page, "
        f"{found['worker']:,} the service worker); budget {BUDGET:,}"
    )
    if detail:
        rows = [("page", *e) for e in found["entries"]]
        rows += [("sw", *e) for e in found["worker_entries"]]
        for who, url, sent, encoded, decoded in sorted(rows, key=lambda r: -r[2]):
            print(f"  {who:4} {sent:8,} {encoded:8,} {decoded:8,}  {url}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--style", default="", help="the card style (napoletane by default)")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--detail", action="store_true", help="every response, biggest first")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="first-load-") as tmp:
        proc, base = start_server(Path(tmp), None, [])
        try:
            with sync_playwright() as pw:
                browser = launch(pw)
                home = measure_home(browser, base, args.lang)
                table = measure_table(browser, base, args.style, args.lang)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    report("home", home, args.detail)
    report("table", table, args.detail)
    worst = max(home["total"], table["total"])
    print(
        f"the heavier first load: {worst:,} bytes, {'within' if worst <= BUDGET else 'OVER'} "
        f"the budget of {BUDGET:,}"
    )


if __name__ == "__main__":
    main()
