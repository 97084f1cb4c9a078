"""The site installed and light, in Chromium: the page registers its service worker,
which controls it after a reload; a static file and the card art are then answered from
its cache with the network gone, and an ``/api/`` request never is (nor kept in it); a
new static version replaces the old cache. The first load, the home page and a table in
play with its card art, transfers at most 300 KB (benchmarks/first_load.py, measured the
same way: bytes, not time)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from browserkit import Person
from serverkit import ServerProcess

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from first_load import BUDGET, measure_home, measure_table

WAIT_MS = 40_000
"""A worker's install fetches every static file: on a loaded machine, more than a click."""
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
KEPT = """async () => {
  const names = await caches.keys();
  const urls = [];
  for (const n of names) {
    for (const r of await (await caches.open(n)).keys()) urls.push(new URL(r.url).pathname);
  }
  return {names, urls};
}"""


def installed(person: Person) -> Any:
    """The page opened, its service worker active (it claims the page), the page reloaded
    under it."""
    page = person.page
    page.wait_for_function(CONTROLLED, timeout=WAIT_MS)
    page.reload()
    page.wait_for_function(CONTROLLED, timeout=WAIT_MS)
    return page


def test_the_worker_controls_the_page_and_answers_offline(
    people: Callable[[str], Person],
) -> None:
    ana = people("Ana")
    ana.login("/")
    ana.page.wait_for_selector("#play-now")
    page = installed(ana)
    page.wait_for_selector("#play-now")
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == ana.base + "/"
    # a table's card art, asked once online, is kept
    page.click("#play-now")
    page.wait_for_selector("#hand .card img")
    page.wait_for_function("() => [...document.images].every((i) => i.complete)")
    art = page.locator("#hand .card img").first.get_attribute("src")
    kept = page.evaluate(KEPT)
    assert len(kept["names"]) == 1 and kept["names"][0].startswith("briscola-")
    assert "/static/js/main.js" in kept["urls"] and "/static/style.css" in kept["urls"]
    assert art.split("?")[0] in kept["urls"]
    assert not [u for u in kept["urls"] if u.startswith("/api/")], kept["urls"]
    ana.context.set_offline(True)
    try:
        offline = page.evaluate(
            """async (art) => {
              // no-store: the browser's HTTP cache is not asked, the worker alone may answer
              const css = await fetch("/static/style.css", {cache: "no-store"});
              const card = await fetch(art, {cache: "no-store"});
              let api;
              try {
                api = (await fetch("/api/games", {cache: "no-store"})).status;
              } catch (e) {
                api = "failed";
              }
              return {css: css.status, cssText: (await css.text()).length,
                      card: card.status, api};
            }""",
            art,
        )
    finally:
        ana.context.set_offline(False)
    assert offline["css"] == 200 and offline["cssText"] > 1000
    assert offline["card"] == 200
    assert offline["api"] == "failed", "an /api/ answer came from the cache"
    # online again: the API is asked of the server and still not kept
    assert page.evaluate("fetch('/api/games').then((r) => r.status)") == 200
    assert not [u for u in page.evaluate(KEPT)["urls"] if u.startswith("/api/")]


def test_an_old_cache_is_deleted_when_the_worker_activates(
    people: Callable[[str], Person],
) -> None:
    bea = people("Bea")
    page = bea.page
    # a cache an older release's worker left (made on a page of the site that runs no
    # script, so that no worker is registered yet)
    bea.goto("/static/style.css")
    page.evaluate("caches.open('briscola-0.0.1-old').then((c) => c.put('/old', new Response('x')))")
    assert page.evaluate(KEPT)["names"] == ["briscola-0.0.1-old"]
    bea.goto("/")
    page.wait_for_function(CONTROLLED, timeout=WAIT_MS)
    for _ in range(50):  # its activation's clean-up, a moment before it claims the page
        if "briscola-0.0.1-old" not in page.evaluate(KEPT)["names"]:
            break
        page.wait_for_timeout(100)
    names = page.evaluate(KEPT)["names"]
    assert len(names) == 1 and names[0].startswith("briscola-"), names
    assert names[0] != "briscola-0.0.1-old"


def test_the_first_load_is_within_its_budget(browser: Any, web: ServerProcess) -> None:
    home = measure_home(browser, web.url)
    table = measure_table(browser, web.url)
    for name, found in (("home page", home), ("table", table)):
        assert found["total"] <= BUDGET, (
            f"the {name}'s first load transfers {found['total']:,} bytes, over the budget of "
            f"{BUDGET:,}: run benchmarks/first_load.py --detail to see what is big"
        )
    # each picture came over the network once: to the page, or to the worker for the page
    art: dict[str, int] = {}
    for url, sent, *_ in table["entries"] + table["worker_entries"]:
        if "/cards/" in url:
            art[url] = art.get(url, 0) + sent
    assert len(art) >= 3, "the table's card art was not counted"
    assert all(art.values()), f"some card art came from a cache, not an empty one: {art}"
