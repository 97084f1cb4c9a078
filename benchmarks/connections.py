"""A flood of connections at one table, and what it costs everyone else.

    python benchmarks/connections.py [--connections 500] [--rounds 3] [--quiet 10]
                                     [--think 0.05:0.1] [--old] [--json FILE]

Starts ``briscola serve`` as a real process (SQLite in a temporary folder, the limits per
person and address off: every client here is one address), then:

1. **quiet**: a briscola-2 table (table B) is played by two people over real WebSockets,
   each move sent after a think time drawn from ``--think MIN:MAX`` seconds, for
   ``--quiet`` seconds; the time from each move sent to its echo (the ``update`` of its
   version at the sender) is measured;
2. **flood**: while table B plays on, ``--connections`` idle WebSockets are opened to
   another table (table A, waiting, its host connected), one after another as fast as
   the server takes them, each counting every frame it receives; a second later they
   are closed (table B's echoes while they close and rest a second are not counted),
   ``--rounds`` times.

Reported: the frames table A's sockets received in all (a new connection's own snapshot
is one frame: N connections should cost N frames, not N²/2), table B's echo p50 / p95 /
max in each phase and the flood's p95 over the quiet one, and the server's peak
resident memory. ``--old`` starts a server that knows no ``--limits`` option (the code
before the limits existed), to measure it too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import Person, rss_kib, run_table, set_up, start_server


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(latencies: list[float]) -> dict[str, float]:
    ms = [x * 1000 for x in latencies]
    return {
        "moves": len(ms),
        "p50_ms": round(statistics.median(ms), 2) if ms else float("nan"),
        "p95_ms": round(quantile(ms, 0.95), 2),
        "max_ms": round(max(ms), 2) if ms else float("nan"),
    }


async def watcher(url: str, frames: list[int]) -> Any:
    """An idle socket at table A, counting what it is sent."""
    ws = await websockets.connect(url, max_size=2**24, open_timeout=60)

    async def count() -> None:
        try:
            async for _ in ws:
                frames[0] += 1
        except websockets.exceptions.ConnectionClosed:
            pass

    return ws, asyncio.create_task(count())


class Phased:
    """Table B's statistics, its echoes kept apart by the phase they fell in (the play
    runs on, one task, across the phases)."""

    def __init__(self) -> None:
        self.phases: dict[str, list[float]] = {"quiet": [], "flood": [], "rest": []}
        self.phase = "quiet"
        self.errors: dict[str, int] = {}
        self.moves = 0
        self.matches = 0

    @property
    def latencies(self) -> list[float]:
        return self.phases[self.phase]

    def error(self, kind: str) -> None:
        key = f"{self.phase}:{kind}"
        self.errors[key] = self.errors.get(key, 0) + 1


async def run(base: str, pid: int, cfg: dict[str, Any]) -> dict[str, Any]:
    rng = random.Random(cfg["seed"])
    table_b = await set_up(base, 0, rng, cfg)
    host = Person(base, "host-a", rng, cfg)
    await host.call("POST", "/api/session", json={"nickname": "host-a"})
    body = {"game": "briscola-2", "seats": [{"kind": "me"}, {"kind": "open"}]}
    table_a = await host.call("POST", "/api/tables", json=body)
    await host.connect(table_a["token"])
    url = base.replace("http://", "ws://") + f"/api/tables/{table_a['token']}/ws"
    peak = rss_kib(pid)

    stats = Phased()
    # table B plays on, a rematch after each match, until cancelled
    playing = asyncio.create_task(run_table(table_b, stats, time.monotonic() + 10**6, [True]))
    await asyncio.sleep(cfg["quiet"])

    frames = [0]
    opened = 0
    flood_time = 0.0
    for _ in range(cfg["rounds"]):
        stats.phase = "flood"
        started = time.monotonic()
        held = []
        for _ in range(cfg["connections"]):
            held.append(await watcher(url, frames))
            opened += 1
        flood_time += time.monotonic() - started
        peak = max(peak, rss_kib(pid))
        await asyncio.sleep(1.0)
        stats.phase = "rest"  # the closing, and a rest before the next round
        for ws, task in held:
            await ws.close()
            task.cancel()
        await asyncio.sleep(1.0)
    playing.cancel()
    for p in [*table_b, host]:
        if p.ws is not None:
            await p.ws.close()
        await p.http.aclose()
    quiet, flood = summary(stats.phases["quiet"]), summary(stats.phases["flood"])
    return {
        "connections": opened,
        "rounds": cfg["rounds"],
        "frames_to_table_a": frames[0],
        "frames_per_connection": round(frames[0] / max(1, opened), 2),
        "seconds_to_open": round(flood_time, 2),
        "quiet": quiet,
        "flood": flood,
        "p95_ratio": round(flood["p95_ms"] / quiet["p95_ms"], 2),
        "errors": stats.errors,
        "server_rss_mib": round(peak / 1024, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--connections", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quiet", type=float, default=10.0, help="seconds of the quiet phase")
    ap.add_argument("--think", default="0.05:0.1", metavar="MIN:MAX")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--old", action="store_true", help="a server with no --limits option")
    ap.add_argument("--json", type=Path, help="write the results here too")
    args = ap.parse_args()
    lo, hi = (float(x) for x in args.think.split(":"))
    cfg = {
        "think": (lo, hi),
        "moves": "random",
        "match": "",
        "seed": args.seed,
        "connections": args.connections,
        "rounds": args.rounds,
        "quiet": args.quiet,
    }
    with tempfile.TemporaryDirectory(prefix="briscola-conns-") as tmp:
        extra = [] if args.old else ["--limits", "off"]
        proc, base = start_server(Path(tmp) / "data", None, extra)
        try:
            out = asyncio.run(run(base, proc.pid, cfg))
        finally:
            proc.terminate()
            proc.wait(10)
    print(json.dumps(out, indent=2))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
