"""Load on the game server: many briscola-2 tables played at once over real WebSockets.

    python benchmarks/load.py [--tables 1000] [--think 0.5:2] [--duration 60]
                              [--database-url URL | --postgres] [--moves random]
                              [--workers 1] [--seed 0] [--json FILE]
                              [--processes 1] [--redis-url URL | --redis]

Starts ``briscola serve`` as a real process (on SQLite in a temporary folder unless
``--database-url`` names a database; ``--postgres`` starts a throwaway PostgreSQL cluster
with ``scripts/postgres`` and stops it afterwards), then, in ``--workers`` client
processes (asyncio, ``httpx`` and ``websockets``), opens ``--tables`` briscola-2 tables,
each with two people: two sessions, one table, a seat taken, the match started, two
WebSockets. Once every table is set up, each person plays for ``--duration`` seconds:
when the view it was sent gives it legal actions, it waits a think time drawn uniformly
from ``--think MIN:MAX`` seconds (human-like pacing: the target assumes people, who take
a second or so a card; ``--think 0:0`` plays flat out and shows the server's saturation
throughput), then sends a random legal action (``--moves intermediate``: the
intermediate computer player's choice, from the view). A match that ends is followed by
its rematch, so the tables stay busy.

``--processes N`` starts N server processes on the one database (PostgreSQL: give
``--postgres`` or a PostgreSQL ``--database-url``) and one Redis (``--redis-url``, or a
throwaway one from ``scripts/redis``, started for N above 1 or with ``--redis``). With
``--spread table`` (the default) each table's two people connect to one process, drawn at
random (by ``--seed``), as Caddy sends them in deploy/Caddyfile (by the table's token);
with ``--spread person`` each person connects to a process drawn for them, so that the two
people of a table are mostly on two processes, each following what the other appends
(the worst case: a proxy that does not route by table).

Reported: tables, clients, moves a second, the time from a move sent to its echo (the
``update`` frame of the move's version, at the client that sent it): p50, p99, max;
errors (every ``error`` frame, a connection dropped, an echo that never came); the
server's resident memory (``VmRSS`` from /proc) at its peak and the server's and the
clients' CPU use during the measured window (a client process near 100 % means the
clients, not the server, set the pace: give more ``--workers``), and the throwaway
PostgreSQL's (its backends' included) and Redis's, where the run started them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing as mp
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parent.parent
URL_LINE = re.compile(r"briscola is serving at (http://\S+)")
ECHO_TIMEOUT = 30.0
"""Seconds after which a move with no echo counts as an error."""


# -- the server -------------------------------------------------------------------------------


CPU_PROFILE = """
import cProfile, runpy, signal, sys, time
out = sys.argv.pop(1)
profile = cProfile.Profile(time.thread_time)
signal.signal(signal.SIGUSR1, lambda *_: profile.enable())
def stop(*_):
    profile.disable()
    profile.dump_stats(out)
signal.signal(signal.SIGUSR2, stop)
runpy.run_module("briscola", run_name="__main__")
"""
"""``python -c CPU_PROFILE FILE ARGS``: ``python -m briscola ARGS``, profiled by cProfile
from SIGUSR1 to SIGUSR2 (the measured window, not the set-up), timed by the CPU time of
the event loop's thread (time waited for the network or the database not counted, nor the
CPU of the threads that run SQLite's statements meanwhile, which the process's CPU time
would lend to whatever the loop ran then), the profile written to FILE on SIGUSR2."""


def start_server(
    data: Path, database_url: str | None, extra: list[str], profile: str | None = None
) -> tuple[Any, str]:
    briscola = [sys.executable, *(("-c", CPU_PROFILE, profile) if profile else ("-m", "briscola"))]
    cmd = [
        *briscola, "serve", "--data", str(data), "--port", "0",
        "--grace", "3600", "--bot-delay", "0", *extra,
    ]  # fmt: skip
    if database_url:
        cmd += ["--database-url", database_url]
    data.mkdir(parents=True, exist_ok=True)
    log = (data / "server.log").open("a")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        found = URL_LINE.search(line)
        if found:
            return proc, found.group(1).rstrip("/")
    proc.kill()
    raise SystemExit(f"the server did not start: {(data / 'server.log').read_text()[-3000:]}")


def start_postgres(prefix: str) -> tuple[Path, str]:
    """A throwaway PostgreSQL cluster (``scripts/postgres``): its folder and its URL. The
    folder is its own: scripts/postgres hands it to the cluster's user (as root), who could
    not reach it inside a run's temporary folder (readable by its owner only)."""
    pgdir = Path(tempfile.mkdtemp(prefix=prefix))
    out = subprocess.run(
        [str(ROOT / "scripts" / "postgres"), "start", str(pgdir)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return pgdir, out.stdout.strip().splitlines()[-1]


def start_redis() -> tuple[Path, str]:
    """A throwaway Redis (``scripts/redis``): its folder and its URL."""
    where = Path(tempfile.mkdtemp(prefix="briscola-load-redis-"))
    out = subprocess.run(
        [str(ROOT / "scripts" / "redis"), "start", str(where)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return where, out.stdout.strip().splitlines()[-1]


def stop_redis(where: Path) -> None:
    subprocess.run([str(ROOT / "scripts" / "redis"), "stop", str(where)], check=False)


def stop_postgres(pgdir: Path) -> None:
    subprocess.run([str(ROOT / "scripts" / "postgres"), "stop", str(pgdir)], check=False)


def rss_kib(pid: int) -> int:
    """The process's resident memory in KiB (0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int, children: bool = False) -> float:
    """The process's user and system CPU time so far; with ``children``, that of its
    children too, ended (reaped) or running (PostgreSQL's backends)."""

    def stat(pid: int) -> list[str]:
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return []

    own = stat(pid)
    if not own:
        return 0.0
    ticks = int(own[11]) + int(own[12])
    if children:
        ticks += int(own[13]) + int(own[14])  # those that ended
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit() and (child := stat(int(entry.name))) and child[1] == str(pid):
                ticks += sum(int(x) for x in child[11:15])
    return ticks / os.sysconf("SC_CLK_TCK")


def helper_pids(pgdir: Path | None, redis_dir: Path | None) -> dict[str, int]:
    """The throwaway PostgreSQL's postmaster and Redis's server, by name, where started."""
    pids = {}
    for name, pidfile in (("postgres", pgdir and pgdir / "data" / "postmaster.pid"),
                          ("redis", redis_dir and redis_dir / "redis.pid")):  # fmt: skip
        with contextlib.suppress(OSError, ValueError, IndexError):
            if pidfile:
                pids[name] = int(pidfile.read_text().split()[0])
    return pids


# -- the clients ------------------------------------------------------------------------------


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    moves: int = 0
    matches: int = 0

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class Person:
    """One person at one table: a session and the table's WebSocket."""

    def __init__(self, base: str, name: str, rng: random.Random, cfg: dict[str, Any]) -> None:
        self.base = base
        self.http = httpx.AsyncClient(base_url=base, timeout=60)
        self.name = name
        self.rng = rng
        self.cfg = cfg
        self.ws: Any = None
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.pending: tuple[int, float] | None = None
        """The version the move sent will have, and when it was sent."""
        self.bot: Any = None
        self.told = -1
        self.host = False

    async def call(self, method: str, path: str, **kw: Any) -> Any:
        try:
            r = await self.http.request(method, path, **kw)
        except (httpx.ReadError, httpx.RemoteProtocolError):
            # The server closed the idle kept-alive connection as this request went out
            # (uvicorn closes them after 5 s; a set-up on a busy machine waits longer).
            r = await self.http.request(method, path, **kw)
        if r.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text}")
        return r.json()

    async def connect(self, token: str) -> None:
        url = self.base.replace("http://", "ws://") + f"/api/tables/{token}/ws"
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        self.ws = await websockets.connect(
            url, additional_headers={"Cookie": cookie}, max_size=2**24, open_timeout=60
        )
        self.version, self.view, self.table, self.pending = 0, None, None, None

    def choose(self) -> dict[str, Any]:
        assert self.view is not None
        legal: list[dict[str, Any]] = self.view["legal"]
        if self.cfg["moves"] == "random":
            return self.rng.choice(legal)
        from briscola.engine.views import View

        view = View.from_json(self.view)
        if self.bot is None:
            from briscola.ai.bot import make_bot

            self.bot = make_bot("intermediate", self.rng.randrange(2**32))
        if self.told != view.hand_number and hasattr(self.bot, "new_hand"):
            self.told = view.hand_number or 0
            self.bot.new_hand(view)
        action: dict[str, Any] = self.bot.choose(view).to_json()
        return action

    def my_turn(self) -> bool:
        v, t = self.view, self.table
        return bool(v and v.get("legal") and t and t["status"] == "playing")

    async def play(self, stats: Stats, until: float, measured: list[bool]) -> str | None:
        """Receive and move until ``until``; the rematch token once the match is over."""
        think_lo, think_hi = self.cfg["think"]
        mover: asyncio.Task[None] | None = None
        asked = False

        async def move(version: int, action: dict[str, Any]) -> None:
            await asyncio.sleep(self.rng.uniform(think_lo, think_hi))
            if time.monotonic() >= until:
                return
            self.pending = (version + 1, time.perf_counter())
            await self.ws.send(json.dumps({"type": "act", "version": version, "action": action}))

        try:
            while True:
                left = until - time.monotonic()
                if self.pending is not None:
                    left = min(left, self.pending[1] + ECHO_TIMEOUT - time.perf_counter())
                if left <= 0:
                    if self.pending is not None and time.monotonic() < until:
                        stats.error("no_echo")
                        self.pending = None
                        continue
                    return None
                try:
                    text = await asyncio.wait_for(self.ws.recv(), left)
                except TimeoutError:
                    continue
                now = time.perf_counter()
                frame = json.loads(text)
                kind = frame.get("type")
                if kind == "error":
                    stats.error(f"error:{frame.get('code')}")
                    self.pending = None
                    continue
                self.version = frame.get("version", self.version)
                if frame.get("table") is not None:
                    self.table = frame["table"]
                if frame.get("view") is not None:
                    self.view = frame["view"]
                if kind == "update" and self.pending and frame["version"] >= self.pending[0]:
                    if measured[0]:
                        stats.latencies.append(now - self.pending[1])
                        stats.moves += 1
                    self.pending = None
                if self.table and self.table["status"] == "finished":
                    if self.table.get("rematch"):
                        return str(self.table["rematch"])
                    if self.host and not asked:  # the host asks for the rematch, once
                        asked = True
                        token = self.table["token"]
                        await self.call("POST", f"/api/tables/{token}/rematch")
                    continue
                if self.my_turn() and self.pending is None and (mover is None or mover.done()):
                    mover = asyncio.create_task(move(self.version, self.choose()))
        except ConnectionClosed:
            if time.monotonic() < until:
                stats.error("dropped")
            return None
        finally:
            if mover is not None:
                mover.cancel()


async def set_up(
    bases: list[str], index: int, rng: random.Random, cfg: dict[str, Any]
) -> list[Person]:
    """Table ``index``'s two people, at one of the server processes ``bases`` (each at
    one of their own with ``cfg["spread"]`` ``person``)."""
    base = rng.choice(bases)
    a = Person(base, f"a{index}", random.Random(rng.random()), cfg)
    a.host = True
    if cfg["spread"] == "person":
        base = rng.choice(bases)
    b = Person(base, f"b{index}", random.Random(rng.random()), cfg)
    await a.call("POST", "/api/session", json={"nickname": a.name})
    await b.call("POST", "/api/session", json={"nickname": b.name})
    seats = [{"kind": "me"}, {"kind": "open"}]
    rules = {"match": cfg["match"]} if cfg["match"] else {}
    body = {"game": "briscola-2", "seats": seats, "rules": rules}
    table = await a.call("POST", "/api/tables", json=body)
    token = table["token"]
    await b.call("POST", f"/api/tables/{token}/seats/1")
    await a.call("POST", f"/api/tables/{token}/start")
    await a.connect(token)
    await b.connect(token)
    return [a, b]


async def run_table(people: list[Person], stats: Stats, until: float, measured: list[bool]) -> None:
    while time.monotonic() < until:
        tokens = await asyncio.gather(*(p.play(stats, until, measured) for p in people))
        if time.monotonic() >= until or not all(tokens):
            if not all(tokens) and time.monotonic() < until:
                stats.error("table_stopped")
            return
        stats.matches += 1
        for p in people:
            await p.ws.close()
        for p in people:
            await p.connect(str(tokens[0]))


async def worker_main(
    bases: list[str], first: int, count: int, cfg: dict[str, Any], pipe: Any, go: Any
) -> None:
    rng = random.Random(cfg["seed"] * 1_000_003 + first)
    gate = asyncio.Semaphore(32)

    async def one(i: int) -> list[Person]:
        async with gate:
            return await set_up(bases, i, rng, cfg)

    tables = await asyncio.gather(*(one(first + i) for i in range(count)))
    pipe.send(("ready", count))
    await asyncio.get_running_loop().run_in_executor(None, go.wait)
    stats = Stats()
    measured = [True]
    # The clients' own collector off while they measure: its pauses are not the server's.
    gc.collect()
    gc.freeze()
    gc.disable()
    start_cpu = time.process_time()
    started = time.monotonic()
    until = started + cfg["duration"]
    await asyncio.gather(*(run_table(people, stats, until, measured) for people in tables))
    elapsed = time.monotonic() - started
    cpu = time.process_time() - start_cpu
    pipe.send(
        (
            "done",
            {
                "latencies": stats.latencies,
                "errors": stats.errors,
                "moves": stats.moves,
                "matches": stats.matches,
                "elapsed": elapsed,
                "cpu": cpu,
            },
        )
    )
    # Closed once the window is measured: the server's work for 2,000 people leaving at
    # once is not a move's.
    for people in tables:
        for p in people:
            if p.ws is not None:
                await p.ws.close()
            await p.http.aclose()


def worker(
    bases: list[str], first: int, count: int, cfg: dict[str, Any], pipe: Any, go: Any
) -> None:
    try:
        asyncio.run(worker_main(bases, first, count, cfg, pipe, go))
    except BaseException as e:
        pipe.send(("failed", f"{type(e).__name__}: {e}"))
        raise


# -- the run ----------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def think_range(text: str) -> tuple[float, float]:
    try:
        lo, hi = (float(x) for x in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--think is MIN:MAX in seconds, got {text!r}") from None
    if not 0 <= lo <= hi:
        raise argparse.ArgumentTypeError(f"--think: need 0 <= MIN <= MAX, got {text!r}")
    return lo, hi


def spy(pid: int, duration: float, output: str) -> subprocess.Popen[bytes]:
    """py-spy sampling the server ``pid`` for the measured window, less its last seconds
    (when the people leave): raw stacks, 200 a second, every thread apart (``BRISCOLA_SPY_NATIVE``
    set: C frames too, uvloop's and SQLite's, the server paused at each sample)."""
    exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    native = ["--native"] if os.environ.get("BRISCOLA_SPY_NATIVE") else ["--nonblocking"]
    seconds = str(max(1, int(duration) - 3))
    return subprocess.Popen(
        [exe, "record", "--pid", str(pid), "--duration", seconds, "--rate", "200",
         "--format", "raw", "--threads", *native, "--output", output],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--think", type=think_range, default=(0.5, 2.0), metavar="MIN:MAX")
    ap.add_argument("--duration", type=float, default=60.0, metavar="S")
    ap.add_argument("--database-url", metavar="URL")
    ap.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL cluster")
    ap.add_argument("--moves", choices=("random", "intermediate"), default="random")
    ap.add_argument("--workers", type=int, default=1, help="client processes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--match", help="the match house rule (one-hand: a rematch every 40 moves)")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    ap.add_argument(
        "--profile",
        metavar="FILE",
        help="profile the server during the measured window (cProfile, CPU time; "
        "with --processes N: FILE.0 ... FILE.N-1)",
    )
    ap.add_argument(
        "--py-spy",
        metavar="FILE",
        help="sample the server with py-spy during the measured window (raw stacks, "
        "200 a second, every thread; with --processes N: FILE.0 ... FILE.N-1)",
    )
    ap.add_argument("--server-arg", action="append", default=[], help="passed to briscola serve")
    ap.add_argument("--processes", type=int, default=1, help="server processes (PostgreSQL)")
    ap.add_argument("--redis-url", metavar="URL", help="the Redis of several processes")
    ap.add_argument(
        "--spread",
        choices=("table", "person"),
        default="table",
        help="several processes: a table's people at one (as Caddy sends them), or each at one",
    )
    ap.add_argument("--redis", action="store_true", help="a throwaway Redis (scripts/redis)")
    args = ap.parse_args(argv)
    if args.tables < 1 or args.workers < 1 or args.duration <= 0:
        ap.error("--tables and --workers are at least 1, --duration above 0")
    if args.processes < 1:
        ap.error("--processes is at least 1")
    on_postgres = args.postgres or (args.database_url or "").startswith("postgresql")
    if args.processes > 1 and not on_postgres:
        ap.error(
            "--processes above 1 share one PostgreSQL database: give --postgres (a throwaway "
            "cluster) or --database-url postgresql+asyncpg://..."
        )
    if (args.redis or args.redis_url) and not on_postgres:
        ap.error("Redis is for several processes on PostgreSQL: give --postgres too")

    tmp = Path(tempfile.mkdtemp(prefix="briscola-load-"))
    pgdir: Path | None = None
    redis_dir: Path | None = None
    redis_url: str | None = None
    servers: list[Any] = []
    try:
        url = args.database_url
        if args.postgres:
            pgdir, url = start_postgres("briscola-load-pg-")
        redis_url = args.redis_url
        if redis_url is None and (args.redis or args.processes > 1):
            redis_dir, redis_url = start_redis()
        # every client is this one address: the limits per person and address are off
        extra = ["--limits", "off", *args.server_arg]
        if redis_url:
            extra += ["--redis-url", redis_url]
        bases = []
        for n in range(args.processes):
            profile = args.profile
            if profile and args.processes > 1:
                profile = f"{profile}.{n}"
            one, base = start_server(tmp / f"data{n}", url, extra, profile)
            servers.append(one)
            bases.append(base)
        cfg = {"think": args.think, "duration": args.duration, "moves": args.moves}
        cfg["seed"], cfg["match"], cfg["spread"] = args.seed, args.match, args.spread
        ctx = mp.get_context("spawn")
        go = ctx.Event()
        pipes, procs = [], []
        n, k = args.tables, args.workers
        per = [n // k + (i < n % k) for i in range(k)]
        first = 0
        for count in per:
            parent, child = ctx.Pipe()
            p = ctx.Process(target=worker, args=(bases, first, count, cfg, child, go), daemon=True)
            p.start()
            pipes.append(parent)
            procs.append(p)
            first += count
        setup_start = time.monotonic()
        peak = 0

        def sample() -> None:
            nonlocal peak
            peak = max(peak, sum(rss_kib(one.pid) for one in servers))

        def collect(tag: str) -> list[Any]:
            got: list[Any] = [None] * len(pipes)
            while any(g is None for g in got):
                sample()
                for i, pipe in enumerate(pipes):
                    if got[i] is None and pipe.poll(0.1):
                        kind, value = pipe.recv()
                        if kind == "failed":
                            raise SystemExit(f"a client process failed: {value}")
                        got[i] = value
                if any(one.poll() is not None for one in servers):
                    raise SystemExit("a server process ended during the run")
            return got

        collect("ready")
        setup = time.monotonic() - setup_start
        rss_ready = sum(rss_kib(one.pid) for one in servers)
        server_cpu0 = sum(cpu_seconds(one.pid) for one in servers)
        helpers = helper_pids(pgdir, redis_dir)
        helper_cpu0 = {k: cpu_seconds(pid, children=True) for k, pid in helpers.items()}
        t0 = time.monotonic()
        if args.profile:
            for one in servers:
                one.send_signal(signal.SIGUSR1)
        spies = [
            spy(one.pid, args.duration, args.py_spy if len(servers) == 1 else f"{args.py_spy}.{i}")
            for i, one in enumerate(servers)
            if args.py_spy
        ]
        go.set()
        results = collect("done")
        for one_spy in spies:
            one_spy.wait(120)
        window = time.monotonic() - t0
        server_cpu = sum(cpu_seconds(one.pid) for one in servers) - server_cpu0
        helper_cpu = {
            k: cpu_seconds(pid, children=True) - helper_cpu0[k] for k, pid in helpers.items()
        }
        if args.profile:
            for one in servers:
                one.send_signal(signal.SIGUSR2)
        for p in procs:
            p.join(30)
    finally:
        for proc in servers:
            proc.send_signal(signal.SIGTERM)
        for proc in servers:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        if redis_dir is not None:
            stop_redis(redis_dir)
        if pgdir is not None:
            stop_postgres(pgdir)
        shutil.rmtree(tmp, ignore_errors=True)

    latencies = [x for r in results for x in r["latencies"]]
    errors: dict[str, int] = {}
    for r in results:
        for k, v in r["errors"].items():
            errors[k] = errors.get(k, 0) + v
    elapsed = max(r["elapsed"] for r in results)
    moves = sum(r["moves"] for r in results)
    report = {
        "database": "postgresql" if (url or "").startswith("postgresql") else "sqlite",
        "processes": args.processes,
        "spread": args.spread,
        "redis": bool(redis_url),
        "tables": args.tables,
        "clients": 2 * args.tables,
        "workers": args.workers,
        "think": list(args.think),
        "moves_kind": args.moves,
        "duration": round(elapsed, 2),
        "setup_s": round(setup, 1),
        "moves": sum(r["moves"] for r in results),
        "moves_per_s": round(sum(r["moves"] for r in results) / elapsed, 1),
        "rematches": sum(r["matches"] for r in results),
        "p50_ms": round(percentile(latencies, 0.5) * 1000, 2),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "max_ms": round(max(latencies, default=float("nan")) * 1000, 2),
        "errors": sum(errors.values()),
        "error_kinds": errors,
        "server_rss_peak_mib": round(peak / 1024, 1),
        "server_rss_ready_mib": round(rss_ready / 1024, 1),
        "server_cpu_pct": round(100 * server_cpu / window, 1),
        "server_cpu_ms_per_move": round(1000 * server_cpu / max(1, moves), 2),
        "client_cpu_pct": [round(100 * r["cpu"] / r["elapsed"], 1) for r in results],
        **{f"{k}_cpu_pct": round(100 * v / window, 1) for k, v in helper_cpu.items()},
        **{
            f"{k}_cpu_ms_per_move": round(1000 * v / max(1, moves), 2)
            for k, v in helper_cpu.items()
        },
    }
    print(
        f"{report['database']}"
        + (f" + redis, {args.processes} server processes" if redis_url else "")
        + (f" (spread by {args.spread})" if args.processes > 1 else "")
        + f": {report['tables']} tables, {report['clients']} clients "
        f"({args.workers} client process{'es' if args.workers > 1 else ''}), think "
        f"{args.think[0]:g}-{args.think[1]:g} s, {args.moves} moves, {elapsed:.0f} s "
        f"(set up in {setup:.0f} s)\n"
        f"  moves/s {report['moves_per_s']:,.1f} ({report['moves']:,} moves, "
        f"{report['rematches']} rematches)\n"
        f"  move to echo: p50 {report['p50_ms']:.1f} ms  p99 {report['p99_ms']:.1f} ms  "
        f"max {report['max_ms']:.1f} ms\n"
        f"  errors {report['errors']} {errors or ''}\n"
        f"  server RSS peak {report['server_rss_peak_mib']:.0f} MiB (all processes) "
        f"(after set-up {report['server_rss_ready_mib']:.0f} MiB); CPU: server "
        f"{report['server_cpu_pct']:.0f} % ({report['server_cpu_ms_per_move']:.2f} ms a move), "
        "clients "
        + ", ".join(f"{c:.0f} %" for c in report["client_cpu_pct"])
        + "".join(
            f", {k} {report[f'{k}_cpu_pct']:.0f} % ({report[f'{k}_cpu_ms_per_move']:.2f} ms a move)"
            for k in helper_cpu
        ),
        flush=True,
    )
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return report


if __name__ == "__main__":
    main()
