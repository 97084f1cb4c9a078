"""Soak on the game server: many short tables made, played and finished over time, the
server process's memory followed as they go.

    python benchmarks/soak.py [--tables 20000] [--at-once 40] [--people 0.25]
                              [--level random] [--every 1000] [--linger 0]
                              [--database-url URL | --postgres] [--server-arg ARG]
                              [--seed 0] [--json FILE]

Starts ``briscola serve`` as a real process, as ``benchmarks/load.py`` does (SQLite in a
temporary folder unless ``--database-url`` names a database, ``--postgres`` a throwaway
cluster; computer players move at once, ``--bot-delay 0``), then, in one asyncio client
process, keeps ``--at-once`` tables going until ``--tables`` are finished. Each table is a
``briscola-2`` match of one hand (``match=one-hand``) opened by a new player (a session
of its own): a ``--people`` share of them a person against a computer player, the person
playing random legal moves over the table's WebSocket as fast as the server answers, the
others two computer players, their host waiting for the end on ``GET /api/tables/TOKEN``.
Each finished table is left alone: nobody comes back to it.

Every ``--every`` tables finished it prints the server's resident memory (``VmRSS`` from
/proc), its peak so far (``VmHWM``) and, when its ``/metrics`` says so, how many tables and
nicknames it holds in memory; ``--linger S`` goes on sampling for S seconds after the last
table (every tenth of it), the server idle. At the end the first table a person played is
asked for again (its seats and record): it comes back from storage as it was left.

The tables are made by one address, 20,000 players and 20,000 tables: the server is
started with its limits per person and per address off (``--limits off``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from load import rss_kib, start_postgres, start_server, stop_postgres

RULES = {"match": "one-hand"}


def status_kib(pid: int, key: str) -> int:
    """A figure of the process's /proc status in KiB (``VmHWM``...; 0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


@dataclass
class Run:
    base: str
    cfg: dict[str, Any]
    rng: random.Random
    made: int = 0
    done: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    first_person: tuple[str, str] | None = None
    """The first table a person played: its token, the person's nickname."""
    done_event: asyncio.Event = field(default_factory=asyncio.Event)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


async def call(http: httpx.AsyncClient, method: str, path: str, **kw: Any) -> Any:
    try:
        r = await http.request(method, path, **kw)
    except (httpx.ReadError, httpx.RemoteProtocolError):  # a kept-alive connection closed
        r = await http.request(method, path, **kw)
    if r.status_code >= 400:
        raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:300]}")
    return r.json()


async def person_plays(run: Run, http: httpx.AsyncClient, token: str, rng: random.Random) -> None:
    """A person at seat 0 plays random legal moves until the match is over."""
    url = run.base.replace("http://", "ws://") + f"/api/tables/{token}/ws"
    cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    async with websockets.connect(
        url, additional_headers={"Cookie": cookie}, max_size=2**24, open_timeout=60
    ) as ws:
        acted = -1
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if frame["type"] == "error":
                run.error(f"error:{frame.get('code')}")
                acted = -1
                if frame.get("code") == "flood":
                    await asyncio.sleep(0.2)
                continue
            table, view = frame.get("table"), frame.get("view")
            if table is not None and table["status"] == "finished":
                return
            version = frame.get("version", -1)
            if view is not None and view.get("legal") and acted != version:
                acted = version
                action = rng.choice(view["legal"])
                await ws.send(json.dumps({"type": "act", "version": version, "action": action}))


async def one_table(run: Run, http: httpx.AsyncClient, index: int) -> None:
    """A new player opens a table, starts it, and sees it to its end."""
    rng = random.Random(run.rng.random())
    http.cookies.clear()
    nickname = f"soak{index}"
    await call(http, "POST", "/api/session", json={"nickname": nickname})
    person = rng.random() < run.cfg["people"]
    bot = {"kind": "bot", "level": run.cfg["level"]}
    seats = [{"kind": "me"}, bot] if person else [bot, bot]
    table = await call(
        http, "POST", "/api/tables", json={"game": "briscola-2", "rules": RULES, "seats": seats}
    )
    token = table["token"]
    await call(http, "POST", f"/api/tables/{token}/start")
    if person:
        if run.first_person is None:
            run.first_person = (token, nickname)
        await person_plays(run, http, token, rng)
        return
    wait = 0.05
    while True:
        await asyncio.sleep(wait)
        if (await call(http, "GET", f"/api/tables/{token}"))["status"] == "finished":
            return
        wait = min(1.0, wait * 2)


async def lane(run: Run) -> None:
    async with httpx.AsyncClient(base_url=run.base, timeout=60) as http:
        while run.made < run.cfg["tables"]:
            index = run.made
            run.made += 1
            try:
                await one_table(run, http, index)
            except Exception as e:
                run.error(type(e).__name__)
                if sum(run.errors.values()) > 100:
                    raise SystemExit(f"too many errors: {run.errors}; the last: {e}") from None
            run.done += 1
            if run.done % run.cfg["every"] == 0 or run.done == run.cfg["tables"]:
                run.done_event.set()


async def loaded_counts(base: str) -> dict[str, int] | None:
    """How many tables and nicknames the server holds, when its /metrics says
    (``briscola_tables_loaded``, ``briscola_nicknames_loaded``)."""
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            r = await http.get("/metrics")
    except httpx.HTTPError:
        return None
    if r.status_code != 200:
        return None
    names = {"briscola_tables_loaded": "tables", "briscola_nicknames_loaded": "nicknames"}
    loaded = {}
    for line in r.text.splitlines():
        name, _, value = line.partition(" ")
        if name in names:
            loaded[names[name]] = int(float(value))
    return loaded or None


async def soak(base: str, pid: int, cfg: dict[str, Any]) -> dict[str, Any]:
    run = Run(base, cfg, random.Random(cfg["seed"]))
    samples: list[dict[str, Any]] = []
    started = time.monotonic()

    async def sample(done: int) -> None:
        loaded = await loaded_counts(base)
        row = {
            "tables_done": done,
            "seconds": round(time.monotonic() - started, 1),
            "rss_mib": round(rss_kib(pid) / 1024, 1),
            "peak_mib": round(status_kib(pid, "VmHWM") / 1024, 1),
            "tables_loaded": loaded.get("tables") if loaded else None,
            "nicknames": loaded.get("nicknames") if loaded else None,
        }
        samples.append(row)
        shown = "-" if row["tables_loaded"] is None else f"{row['tables_loaded']:,}"
        names = "-" if row["nicknames"] is None else f"{row['nicknames']:,}"
        print(
            f"{done:>7,} tables  {row['seconds']:>7.0f} s  RSS {row['rss_mib']:7.1f} MiB  "
            f"(peak {row['peak_mib']:.1f})  loaded: {shown} tables, {names} nicknames  "
            f"errors {sum(run.errors.values())}",
            flush=True,
        )

    await sample(0)
    lanes = [asyncio.create_task(lane(run)) for _ in range(cfg["at_once"])]
    every = cfg["every"]
    next_mark = every
    while not all(t.done() for t in lanes):
        try:
            await asyncio.wait_for(run.done_event.wait(), 1.0)
        except TimeoutError:
            continue
        run.done_event.clear()
        while run.done >= next_mark:
            await sample(next_mark)
            next_mark += every
    for t in lanes:
        t.result()  # a lane's SystemExit
    if run.done % every:
        await sample(run.done)
    elapsed = time.monotonic() - started
    if cfg["linger"] > 0:
        end = time.monotonic() + cfg["linger"]
        while time.monotonic() < end:
            await asyncio.sleep(min(cfg["linger"] / 10, end - time.monotonic()))
            await sample(run.done)
    came_back = None
    if run.first_person is not None:
        token, nickname = run.first_person
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            table = await call(http, "GET", f"/api/tables/{token}")
            record = await call(http, "GET", f"/api/tables/{token}/record")
        came_back = (
            table["status"] == "finished"
            and table["seats"][0]["nickname"] == nickname
            and len(record["hands"]) == 1
        )
    return {
        "samples": samples,
        "errors": run.errors,
        "seconds": round(elapsed, 1),
        "first_table_came_back": came_back,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", type=int, default=20_000)
    ap.add_argument("--at-once", type=int, default=40, help="tables in play at a time")
    ap.add_argument("--people", type=float, default=0.25, help="the share of person tables")
    ap.add_argument("--level", default="random", help="the computer players' level")
    ap.add_argument("--every", type=int, default=1000, help="tables between two samples")
    ap.add_argument("--linger", type=float, default=0.0, metavar="S", help="sample after")
    ap.add_argument("--database-url", metavar="URL")
    ap.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL cluster")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    ap.add_argument("--server-arg", action="append", default=[], help="passed to briscola serve")
    args = ap.parse_args(argv)
    if args.tables < 1 or args.at_once < 1 or args.every < 1 or not 0 <= args.people <= 1:
        ap.error("--tables, --at-once and --every are at least 1, --people between 0 and 1")

    tmp = Path(tempfile.mkdtemp(prefix="briscola-soak-"))
    pgdir: Path | None = None
    proc = None
    try:
        url = args.database_url
        if args.postgres:
            pgdir, url = start_postgres("briscola-soak-pg-")
        # every client is this one address: the limits per person and address are off
        proc, base = start_server(tmp / "data", url, ["--limits", "off", *args.server_arg])
        cfg = {
            "tables": args.tables, "at_once": args.at_once, "people": args.people,
            "level": args.level, "every": args.every, "linger": args.linger, "seed": args.seed,
        }  # fmt: skip
        report = asyncio.run(soak(base, proc.pid, cfg))
        if proc.poll() is not None:
            raise SystemExit("the server process ended during the run")
    finally:
        if proc is not None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        if pgdir is not None:
            stop_postgres(pgdir)
        shutil.rmtree(tmp, ignore_errors=True)

    report = {
        "database": "postgresql" if (url or "").startswith("postgresql") else "sqlite",
        **{k: cfg[k] for k in ("tables", "at_once", "people", "level")},
        **report,
    }
    done = report["samples"][-1]
    print(
        f"{report['database']}: {args.tables:,} tables ({args.people:.0%} a person against a "
        f"computer player), {args.at_once} at a time, in {report['seconds']:.0f} s "
        f"({args.tables / max(report['seconds'], 1e-9):.1f} tables/s); errors "
        f"{sum(report['errors'].values())} {report['errors'] or ''}\n"
        f"  server RSS at the end {done['rss_mib']:.0f} MiB, peak {done['peak_mib']:.0f} MiB; "
        f"the first person's table came back: {report['first_table_came_back']}",
        flush=True,
    )
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return report


if __name__ == "__main__":
    main()
