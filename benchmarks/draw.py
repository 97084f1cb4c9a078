"""The table's drawing time: how long the page takes to draw each update from the server.

Starts ``briscola serve`` as a real process (SQLite in a temporary folder, see
benchmarks/load.py; ``--limits off``, since one person makes every table; the computer
players wait ``--bot-delay`` seconds before each move, so that their updates come one at a
time as at a real table), and in Debian's Chromium (Playwright, ``/usr/bin/chromium``), for
each game of ``--games`` at each size of ``--sizes`` (desktop 1280x800, phone 390x844),
plays ``--hands`` one-hand tables against beginner computer players from the page: its first
card that may be played, else an auction's or a talk's last button (a pass, the talk done).
For every ``update`` frame the page drew it reads:

- **draw**: the page's own measure ``briscola-draw`` (``table/socket.js``, read with
  ``performance.getEntriesByName``): from the frame's arrival to its drawing done, the JSON
  parsed, the controller's state changed and the views drawn (the DOM built);
- **cpu**: the draw's CPU time: the draw times the share of its task's time that the
  renderer's thread ran (its thread time over its wall time, from a Chromium trace of the
  hand): on a busy machine the draw's wall time includes waits for a core, this not;
- **layout**: the style and layout of what was drawn, forced right after it (what the
  browser does before the next frame anyway);
- **render**: the next frame's rendering, from its ``requestAnimationFrame`` callback to a
  task queued there (which runs once the frame is rendered): its style, layout and paint;
- **frame**: from the frame's arrival to that task: all of the above, and the wait for the
  display's next frame (up to 16.7 ms at 60 Hz);

and how many updates were drawn in a long animation frame (Chromium's
``long-animation-frame`` entries: frames over 50 ms). Counts, median, 95th percentile and
maximum in milliseconds, by game and size; the issue's target is a draw under 16 ms at the
desktop size.

    PYTHONPATH=src .venv/bin/python benchmarks/draw.py [--games briscola-2 chiamata]
        [--sizes desktop phone] [--hands 2] [--bot-delay 0.3] [--json out.json]
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from first_load import launch
from load import start_server

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
GAMES = ["briscola-2", "briscola-4", "chiamata", "briscola-6"]
TARGET_MS = 16.0
"""The issue's budget for drawing an update at the desktop size."""

WATCH = """
window.__after = {};
window.__long = [];
const measure = performance.measure.bind(performance);
performance.measure = (name, options) => {
  const entry = measure(name, options);
  if (name === "briscola-draw") {
    const t = performance.now();
    document.documentElement.getBoundingClientRect();
    const row = { layout: performance.now() - t };
    window.__after[entry.startTime] = row;
    requestAnimationFrame(() => {
      const raf = performance.now();
      setTimeout(() => {
        const now = performance.now();
        row.frame = now - entry.startTime;
        row.render = now - raf;
      });
    });
  }
  return entry;
};
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]);
  }).observe({ type: "long-animation-frame", buffered: true });
} catch (e) {}
"""
"""Added to every page before its own scripts: the layout forced after each measure, the
time to the next frame, and the long animation frames."""

READ = """() => performance.getEntriesByName("briscola-draw").map((e) => ({
  type: e.detail && e.detail.type, start: e.startTime, draw: e.duration,
  ...(window.__after[e.startTime] || {}),
  long: window.__long.some(([s, d]) => s <= e.startTime && e.startTime <= s + d),
}))"""

READY = """() => document.querySelector('#hand .card[aria-disabled="false"]')
  || document.querySelector("#actions .action") || document.querySelector("#end")"""


def summary(values: list[float]) -> dict[str, float]:
    """Count, median, 95th percentile (nearest rank) and maximum."""
    if not values:
        return {"count": 0, "median": 0.0, "p95": 0.0, "max": 0.0}
    ordered = sorted(values)
    p95 = ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]
    return {
        "count": len(ordered),
        "median": round(statistics.median(ordered), 2),
        "p95": round(p95, 2),
        "max": round(ordered[-1], 2),
    }


def play_hand(page: Any, timeout: float) -> None:
    """Play from the page until the hand's end screen: the first card that may be played,
    else the last button offered."""
    end = time.monotonic() + timeout
    while True:
        if time.monotonic() > end:
            raise SystemExit(f"the hand did not end in {timeout:.0f} s at {page.url}")
        page.wait_for_function(READY, polling=50, timeout=timeout * 1000)
        if page.locator("#end").count():
            return
        cards = page.locator('#hand .card[aria-disabled="false"]')
        actions = page.locator("#actions .action")
        if cards.count():
            code = cards.first.get_attribute("data-card")
            cards.first.click()
            page.wait_for_selector(f'#hand [data-card="{code}"]', state="detached")
        elif actions.count():
            n = actions.count()
            actions.last.click()
            page.wait_for_function(
                "n => document.querySelectorAll('#actions .action').length !== n", arg=n
            )


def game_of(game: str) -> dict[str, Any]:
    """The game's entry in the catalogue (``briscola variants``)."""
    from briscola.catalog import variants_json

    for g in variants_json():
        if g["key"] == game:
            return g
    raise SystemExit(f"no game {game!r}: see `briscola variants`")


def table_body(game: str) -> dict[str, Any]:
    """A table of ``game`` at its first number of players, every other seat a beginner
    computer player, for one hand (chiamata's match is one hand already)."""
    g = game_of(game)
    bots = [{"kind": "bot", "level": "beginner"}] * (int(g["players"][0]) - 1)
    names = {r["name"] for r in g["rules"]}
    rules = {"match": "one-hand"} if "match" in names else {}
    return {"game": game, "rules": rules, "seats": [{"kind": "me"}, *bots]}


TRACED = ["toplevel", "blink.user_timing"]
"""The trace's categories: the renderer's tasks (with their thread time) and the user
timing measures."""


def cpu_shares(trace: bytes) -> dict[float, float]:
    """For each ``briscola-draw`` measure of a Chromium trace (by its ``startTime``, in ms):
    the share of its time that its thread ran, that of the innermost task it ran in (the
    task's thread time over its wall time). On a busy machine a thread waits for a core
    in the middle of its work; its draw's CPU time is its draw time times this share."""
    events = json.loads(trace)["traceEvents"]
    tasks: dict[int, list[tuple[int, int, float]]] = {}
    for e in events:
        if e.get("name") == "ThreadControllerImpl::RunTask" and e.get("dur") and "tdur" in e:
            share = min(1.0, e["tdur"] / e["dur"])
            tasks.setdefault(e["tid"], []).append((e["ts"], e["ts"] + e["dur"], share))
    for ts in tasks.values():
        ts.sort()
    starts = {tid: [t[0] for t in ts] for tid, ts in tasks.items()}
    shares = {}
    for e in events:
        if e.get("name") != "briscola-draw" or e.get("ph") != "b" or e["tid"] not in tasks:
            continue
        mine = tasks[e["tid"]]
        i = bisect.bisect_right(starts[e["tid"]], e["ts"])
        around = [t for t in mine[max(0, i - 50) : i] if t[0] <= e["ts"] <= t[1]]
        if around:
            inner = min(around, key=lambda t: t[1] - t[0])
            shares[round(e["args"]["startTime"], 3)] = inner[2]
    return shares


def measure(browser: Any, base: str, game: str, size: str, hands: int) -> dict[str, Any]:
    """``hands`` one-hand tables of ``game`` played at ``size``: every frame drawn."""
    context = browser.new_context(viewport=SIZES[size], locale="en-GB")
    context.add_init_script(WATCH)
    context.set_default_timeout(60_000)
    rows: list[dict[str, Any]] = []
    try:
        http = context.request
        origin = {"Origin": base}
        http.post(base + "/api/session", data={"nickname": "Ana"}, headers=origin)
        body = table_body(game)
        page = context.new_page()
        for _ in range(hands):
            made = http.post(base + "/api/tables", data=body, headers=origin)
            if not made.ok:
                raise SystemExit(f"the table was not made: {made.status} {made.text()}")
            table = made.json()
            http.post(f"{base}/api/tables/{table['token']}/start", headers=origin)
            browser.start_tracing(page=page, categories=TRACED)
            page.goto(f"{base}/t/{table['token']}")
            play_hand(page, 300)
            page.wait_for_timeout(100)  # the last frame's "frame" time
            drawn = page.evaluate(READ)
            shares = cpu_shares(browser.stop_tracing())
            for r in drawn:
                share = shares.get(round(r["start"], 3))
                if share is not None:
                    r["cpu"] = r["draw"] * share
            rows += drawn
    finally:
        context.close()
    updates = [r for r in rows if r["type"] == "update"]
    return {
        "game": game,
        "size": size,
        "hands": hands,
        "draw": summary([r["draw"] for r in updates]),
        "cpu": summary([r["cpu"] for r in updates if "cpu" in r]),
        "layout": summary([r["layout"] for r in updates if "layout" in r]),
        "render": summary([r["render"] for r in updates if "render" in r]),
        "frame": summary([r["frame"] for r in updates if "frame" in r]),
        "long_frames": sum(bool(r["long"]) for r in updates),
        "snapshot_draw": summary([r["draw"] for r in rows if r["type"] == "snapshot"]),
    }


def report(results: list[dict[str, Any]]) -> None:
    print(f"{'game':12} {'size':8} {'what':7} {'count':>6} {'median':>7} {'p95':>7} {'max':>7}")
    for r in results:
        for what in ("draw", "cpu", "layout", "render", "frame"):
            s = r[what]
            print(
                f"{r['game']:12} {r['size']:8} {what:7} {s['count']:6} {s['median']:7.2f}"
                f" {s['p95']:7.2f} {s['max']:7.2f}"
            )
        print(f"{'':12} {'':8} updates drawn in a long animation frame: {r['long_frames']}")
    desk = [r for r in results if r["size"] == "desktop" and r["draw"]["count"]]
    if desk:
        wall = max(r["draw"]["max"] for r in desk)
        cpu = max(r["cpu"]["max"] for r in desk)
        print(
            f"the slowest update drawn at the desktop size: {wall:.2f} ms "
            f"({'within' if wall < TARGET_MS else 'OVER'} the {TARGET_MS:.0f} ms target), "
            f"{cpu:.2f} ms of CPU ({'within' if cpu < TARGET_MS else 'OVER'})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", default=GAMES)
    parser.add_argument("--sizes", nargs="+", default=list(SIZES), choices=list(SIZES))
    parser.add_argument("--hands", type=int, default=2, help="hands played per game and size")
    parser.add_argument(
        "--bot-delay", type=float, default=0.3, help="seconds before each computer move"
    )
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args()
    if args.hands < 1:
        parser.error("--hands: at least 1")
    if args.bot_delay < 0:
        parser.error("--bot-delay: 0 or more seconds")
    for game in args.games:
        game_of(game)
    from playwright.sync_api import sync_playwright

    results = []
    with tempfile.TemporaryDirectory(prefix="draw-") as tmp:
        proc, base = start_server(
            Path(tmp), None, ["--bot-delay", str(args.bot_delay), "--limits", "off"]
        )
        try:
            with sync_playwright() as pw:
                browser = launch(pw)
                for game in args.games:
                    for size in args.sizes:
                        results.append(measure(browser, base, game, size, args.hands))
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    report(results)
    if args.json:
        out = {"hands": args.hands, "bot_delay": args.bot_delay, "results": results}
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
