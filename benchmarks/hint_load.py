"""Hints hammered while other tables play: does a table's echo stay where it was?

    python benchmarks/hint_load.py [--tables 20] [--hinters 8] [--duration 30]
                                   [--think 0.5:1.5] [--hint-game briscola-2]
                                   [--limits on] [--seed 0] [--json FILE]

Starts ``briscola serve`` as a real process (SQLite in a temporary folder, computer
players moving at once, ``--limits on|off``), then opens ``--tables`` briscola-2 tables of
two people each, who play random legal moves over their WebSockets, each after a think time
drawn from ``--think MIN:MAX`` seconds (a match that ends is followed by its rematch).
It measures, at each mover, the time from a move sent to its echo (the ``update`` of the
move's version): first for ``--duration`` seconds with nobody asking for hints ("quiet"),
then for ``--duration`` seconds while ``--hinters`` people, each at a practice table of
``--hint-game`` against computer players (on their turn, at the hand's first card: the
costliest hint), ask for hints as fast as the server lets them: the next one as soon as
one is answered, or after the ``Retry-After`` a refusal (``429``, ``503``) says
("hammered"). Each hinter asks from an address of its own (``X-Forwarded-For``, which the
server trusts from this machine), as people at home do. The server does not warm its
analysis worker as tables start (``BRISCOLA_WARM_ANALYSIS=0``): each hinter asks for one
hint before anything is measured instead, so that the hints are worked out warm and
nothing else runs meanwhile.

Reported for each phase: moves, echo p50, p99 and max, errors; and for the hammered one
the hints asked for, served (with their time p50 and p99) and refused, by status.

Run it against two trees to compare (the server runs the ``briscola`` that ``python``
imports, so ``PYTHONPATH`` chooses the tree).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

URL_LINE = re.compile(r"briscola is serving at (http://\S+)")
LISTENING: set[asyncio.Task[None]] = set()
"""The hinters' listeners (kept, so that they are not collected)."""
ADDRESSES = (f"10.{i // 250}.{i % 250}.1" for i in itertools.count(1))


def start_server(data: Path, limits: str) -> tuple[subprocess.Popen[str], str]:
    cmd = [
        sys.executable, "-m", "briscola", "serve", "--data", str(data), "--port", "0",
        "--grace", "3600", "--bot-delay", "0", "--limits", limits,
    ]  # fmt: skip
    data.mkdir(parents=True, exist_ok=True)
    log = (data / "server.log").open("a")
    env = {**os.environ, "BRISCOLA_WARM_ANALYSIS": "0"}  # (no warm-up while measuring)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True, env=env)
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        found = URL_LINE.search(line or "")
        if found:
            return proc, found.group(1).rstrip("/")
        if not line:
            break
    proc.kill()
    raise SystemExit(f"the server did not start: {(data / 'server.log').read_text()[-3000:]}")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Person:
    """One person: a session (from an address of their own), one table's WebSocket."""

    def __init__(
        self, base: str, name: str, think: tuple[float, float] = (0.0, 0.0), host: bool = False
    ) -> None:
        self.base = base
        self.think = think
        self.host = host
        """Whether this person asks for the rematch when a match ends."""
        self.http = httpx.AsyncClient(
            base_url=base, timeout=120, headers={"X-Forwarded-For": next(ADDRESSES)}
        )
        self.name = name
        self.ws: Any = None
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None

    async def call(self, method: str, path: str, **kw: Any) -> Any:
        r = await self.http.request(method, path, **kw)
        if r.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text}")
        return r.json()

    async def login(self) -> None:
        await self.call("POST", "/api/session", json={"nickname": self.name})

    async def connect(self, token: str) -> None:
        url = self.base.replace("http://", "ws://") + f"/api/tables/{token}/ws"
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        self.ws = await websockets.connect(
            url, additional_headers={"Cookie": cookie}, max_size=2**24, open_timeout=60
        )

    def take(self, frame: dict[str, Any]) -> None:
        self.version = frame.get("version", self.version)
        if frame.get("table") is not None:
            self.table = frame["table"]
        if frame.get("view") is not None:
            self.view = frame["view"]

    def my_turn(self) -> bool:
        v, t = self.view, self.table
        return bool(v and v.get("legal") and t and t["status"] == "playing")


class Phase:
    """What one phase measured."""

    def __init__(self) -> None:
        self.echoes: list[float] = []
        self.errors: dict[str, int] = {}


async def play(p: Person, rng: random.Random, phases: dict[str, Phase], now: list[str]) -> None:
    """Play ``p``'s table (and its rematches) for ever, timing each move's echo in the
    phase ``now[0]`` names (none: not measured)."""
    lo, hi = p.think
    pending: tuple[int, float] | None = None
    asked: set[str] = set()
    while True:
        if p.my_turn() and pending is None:
            await asyncio.sleep(rng.uniform(lo, hi))
            assert p.view is not None
            action = rng.choice(p.view["legal"])
            pending = (p.version + 1, time.perf_counter())
            await p.ws.send(json.dumps({"type": "act", "version": p.version, "action": action}))
        try:
            text = await asyncio.wait_for(p.ws.recv(), 30)
        except TimeoutError:
            if pending is not None and now[0] in phases:
                phases[now[0]].errors["no_echo"] = phases[now[0]].errors.get("no_echo", 0) + 1
            pending = None
            continue
        arrived = time.perf_counter()
        frame = json.loads(text)
        if frame.get("type") == "error":
            if now[0] in phases:
                errors = phases[now[0]].errors
                errors[frame.get("code")] = errors.get(frame.get("code"), 0) + 1
            pending = None
            continue
        p.take(frame)
        if frame.get("type") == "update" and pending and frame["version"] >= pending[0]:
            if now[0] in phases:
                phases[now[0]].echoes.append(arrived - pending[1])
            pending = None
        if p.table and p.table["status"] == "finished":
            if p.table.get("rematch"):
                await p.ws.close()
                await p.connect(str(p.table["rematch"]))
                p.version, p.view, p.table, pending = 0, None, None, None
            elif p.host and p.table["token"] not in asked:
                asked.add(p.table["token"])
                await p.call("POST", f"/api/tables/{p.table['token']}/rematch")


async def listen(p: Person) -> None:
    """Receive ``p``'s frames for ever (a hinter keeps its view current)."""
    while True:
        p.take(json.loads(await p.ws.recv()))


async def table(base: str, i: int, think: tuple[float, float]) -> list[Person]:
    a, b = Person(base, f"A{i}", think, host=True), Person(base, f"B{i}", think)
    await a.login()
    await b.login()
    t = await a.call(
        "POST",
        "/api/tables",
        json={"game": "briscola-2", "seats": [{"kind": "me"}, {"kind": "open"}]},
    )
    await b.call("POST", f"/api/tables/{t['token']}/seats/1")
    await a.call("POST", f"/api/tables/{t['token']}/start")
    for p in (a, b):
        await p.connect(t["token"])
    return [a, b]


async def hinter(base: str, i: int, game: str) -> tuple[Person, str]:
    """A person at a practice table of ``game``, on their turn to play a card."""
    from briscola.engine import find_game

    h = Person(base, f"H{i}")
    await h.login()
    seats = [{"kind": "me"}] + [{"kind": "bot", "level": "beginner"}] * (
        find_game(game).players[0] - 1
    )
    t = await h.call(
        "POST", "/api/tables", json={"game": game, "seats": seats, "rules": {"match": "one-hand"}}
    )
    await h.call("POST", f"/api/tables/{t['token']}/start")
    await h.connect(t["token"])
    LISTENING.add(asyncio.create_task(listen(h)))
    end = time.monotonic() + 60
    while not h.my_turn():
        if time.monotonic() > end:
            raise SystemExit(f"{game}: the hinter's turn never came (a game with an auction?)")
        await asyncio.sleep(0.05)
    while (r := await h.http.post(f"/api/tables/{t['token']}/hint")).status_code != 200:
        await asyncio.sleep(float(r.headers.get("retry-after", 1)))  # (its first: warmed up)
    return h, t["token"]


async def hammer(h: Person, token: str, until: float, asked: dict[str, Any]) -> None:
    """Ask for hints as fast as the server lets ``h`` until ``until``."""
    while time.monotonic() < until:
        sent = time.perf_counter()
        try:
            r = await h.http.post(f"/api/tables/{token}/hint")
        except httpx.HTTPError as e:
            asked["failed"][type(e).__name__] = asked["failed"].get(type(e).__name__, 0) + 1
            continue
        took = time.perf_counter() - sent
        asked["statuses"][r.status_code] = asked["statuses"].get(r.status_code, 0) + 1
        if r.status_code == 200:
            asked["served"].append(took)
        elif "retry-after" in r.headers:
            await asyncio.sleep(min(float(r.headers["retry-after"]), until - time.monotonic()))
        else:
            await asyncio.sleep(0.1)


async def run(cfg: argparse.Namespace, base: str) -> dict[str, Any]:
    lo, hi = (float(x) for x in cfg.think.split(":"))
    rng = random.Random(cfg.seed)
    people = [p for i in range(cfg.tables) for p in await table(base, i, (lo, hi))]
    hinters = [await hinter(base, i, cfg.hint_game) for i in range(cfg.hinters)]
    phases = {"quiet": Phase(), "hammered": Phase()}
    now = ["warming"]
    players = [
        asyncio.create_task(play(p, random.Random(rng.random()), phases, now)) for p in people
    ]
    await asyncio.sleep(5)  # (every table under way)
    now[0] = "quiet"
    await asyncio.sleep(cfg.duration)
    now[0] = "hammered"
    asked: dict[str, Any] = {"statuses": {}, "served": [], "failed": {}}
    until = time.monotonic() + cfg.duration
    await asyncio.gather(*(hammer(h, token, until, asked) for h, token in hinters))
    now[0] = "done"
    for t in players:
        t.cancel()
    out: dict[str, Any] = {"tables": cfg.tables, "hinters": cfg.hinters, "hint_game": cfg.hint_game}
    for name, phase in phases.items():
        e = phase.echoes
        out[name] = {
            "moves": len(e),
            "echo_p50_ms": round(1000 * percentile(e, 0.5), 1),
            "echo_p99_ms": round(1000 * percentile(e, 0.99), 1),
            "echo_max_ms": round(1000 * max(e, default=float("nan")), 1),
            "errors": phase.errors,
        }
    served = asked["served"]
    out["hints"] = {
        "asked": sum(asked["statuses"].values()),
        "statuses": {str(k): v for k, v in sorted(asked["statuses"].items())},
        "served_p50_ms": round(1000 * percentile(served, 0.5), 1),
        "served_p99_ms": round(1000 * percentile(served, 0.99), 1),
        "failed": asked["failed"],
    }
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--hinters", type=int, default=8)
    ap.add_argument("--duration", type=float, default=30.0)
    ap.add_argument("--think", default="0.5:1.5")
    ap.add_argument("--hint-game", default="briscola-2")
    ap.add_argument("--limits", choices=("on", "off"), default="on")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path)
    cfg = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="hint-load-") as tmp:
        proc, base = start_server(Path(tmp) / "data", cfg.limits)
        try:
            out = asyncio.run(run(cfg, base))
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
    print(json.dumps(out, indent=1))
    if cfg.json:
        cfg.json.write_text(json.dumps(out, indent=1) + "\n")
    return out


if __name__ == "__main__":
    main()
