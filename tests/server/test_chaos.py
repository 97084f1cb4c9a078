"""Chaos (issue 24): three ``briscola serve`` processes on one PostgreSQL cluster of the
test's own and one Redis, 50 tables of briscola-2 (one hand each) played by clients spread
over the processes, people at some seats and computer players at others, a move's clock
on some tables with a person slower than it, so that time-outs fire. While the matches are
played, a random process is killed (SIGKILL) every few seconds and started again, Redis is
stopped for 10 seconds, and PostgreSQL is restarted once; each client reconnects by itself,
to another process when its own is dead.

At the end, for every table: its stored log replays (``Storage.load_match``), versions
1..n one action each; every action a client was told of (an update to its seat) is the
log's at that version and no version was told twice; every client's view is a fresh
snapshot's; no server process had a second move at one version refused (a computer
player moving twice, or a clock firing twice, would show there first: the unique append
turns the second away); no server logged a traceback (each failure of the chaos is
foreseen, and said in a warning); the leak scan finds nothing in any frame. The counts are written
to the terminal and to ``chaos.json`` in pytest's base temporary folder.

Run it alone with ``-m chaos``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("redis")

from briscola.storage import Storage
from server import test_leaks as leaks
from serverkit import Client, Driver, ServerProcess, open_table

pytestmark = pytest.mark.chaos

ROOT = Path(__file__).parents[2]
TABLES = 50
CLOCK = 1.0
"""A move's clock on the clock tables, in seconds."""
BENIGN = {"stale", "conflict", "not_playing", "unavailable"}
"""Errors a client may be sent in the chaos: it acted on a version another process (or
the clock) had moved past, or after the clock made the match's last move, or while
PostgreSQL restarted; it acts again on what it is sent next."""
NEVER = ("its log did not replay here",)
"""What no server process may log: a copy of a table that the log does not replay on (it
was not the log's at its version)."""
NOT_STORED = re.compile(r"table (\S+): the action at version (\d+) was not stored \((\w+)\)")
REFUSED = re.compile(r"table (\S+): seat (\d+)'s computer move refused")


def refused_computer_moves(log: str) -> list[tuple[str, int, int, str]]:
    """Each computer move (a computer player's, or a person's when their clock ran out)
    that a server process made and could not store: (table, seat, version, why), ``why``
    the exception's name (``StaleVersion``: another action was stored at that version)."""
    out: list[tuple[str, int, int, str]] = []
    last: dict[str, tuple[int, str]] = {}  # a table's last action not stored: version, why
    for line in log.splitlines():
        said = [line]
        if line.startswith("{"):  # a structured log's record: its message, its traceback
            record = json.loads(line)
            said = [record.get("message", ""), *str(record.get("error", "")).splitlines()]
        for text in said:
            if m := NOT_STORED.search(text):
                last[m[1]] = int(m[2]), m[3]
            elif m := REFUSED.search(text):
                out.append((m[1], int(m[2]), *last.get(m[1], (-1, ""))))
    return out


@dataclass
class Counts:
    processes_killed: int = 0
    redis_stopped: int = 0
    postgres_restarted: int = 0
    tables: int = 0
    actions: int = 0
    reconnections: int = 0
    moved_to_another_process: int = 0
    frames_scanned: int = 0
    time_outs: int = 0
    refused_computer_moves: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    server_log_errors: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def script(name: str, *args: object) -> str:
    done = subprocess.run(
        [ROOT / "scripts" / name, *map(str, args)], check=True, text=True, capture_output=True
    )
    return done.stdout.strip()


@contextlib.asynccontextmanager
async def servers(where: Path) -> AsyncIterator[tuple[Path, Path, str, list[ServerProcess]]]:
    """A PostgreSQL cluster and a Redis of the test's own, three server processes on them;
    (the cluster's folder, Redis's folder, the database URL, the processes)."""
    # the cluster's owner (not root, as initdb wants) must reach its folder: not in pytest's
    pg = Path(tempfile.mkdtemp(prefix="briscola-chaos-pg."))
    rd = where / "redis"
    try:
        url = script("postgres", "start", pg)
        script("redis", "start", rd)
    except subprocess.CalledProcessError as e:
        if os.environ.get("CI"):
            pytest.fail(f"CI: scripts/postgres or scripts/redis failed: {e.stderr}")
        pytest.skip(f"the chaos test needs PostgreSQL and Redis (scripts/...): {e.stderr}")
    settings = {
        "redis_url": f"unix://{rd}/redis.sock",
        "follow_every": 0.5,
        "min_clock": CLOCK,
        "lease": 5.0,
    }
    procs = [
        ServerProcess(where / n, url, bot_delay=0.3, settings=settings) for n in ("a", "b", "c")
    ]
    try:
        for p in procs:
            await asyncio.to_thread(p.start)
        yield pg, rd, url, procs
    finally:
        for p in procs:
            p.stop()
        subprocess.run([ROOT / "scripts" / "redis", "stop", rd], check=False)
        subprocess.run([ROOT / "scripts" / "postgres", "stop", pg], check=False)


@dataclass
class Table:
    token: str
    drivers: list[Driver]
    seats: list[int | None]
    """Each driver's seat."""
    clock: bool


async def make_table(n: int, procs: list[ServerProcess]) -> Table:
    """Table ``n``: two people on two processes (every third with a clock, its second person
    slower than it), or a person and a computer player."""
    urls = [p.url for p in procs]
    first, second = urls[n % 3], urls[(n + 1) % 3]
    kind = n % 3  # 0: a person and a computer player, 1: two people, 2: two, a clock
    host = await Client(first, f"t{n}a", others=[u for u in urls if u != first]).login()
    seats: list[dict[str, Any]] = [{"kind": "me"}]
    seats.append({"kind": "bot", "level": "random"} if kind == 0 else {"kind": "open"})
    extra = {"clock": CLOCK} if kind == 2 else {}
    table = await open_table(host, "briscola-2", seats, {"match": "one-hand"}, **extra)
    token = table["token"]
    people = [host]
    if kind:
        guest = await Client(second, f"t{n}b", others=[u for u in urls if u != second]).login()
        await guest.call("POST", f"/api/tables/{token}/seats/1")
        people.append(guest)
    await host.call("POST", f"/api/tables/{token}/start")
    think = [0.4, 0.4 if kind == 1 else 1.6]  # slower than the clock: it runs out
    drivers = [Driver(c, token, seed=100 * n + i, think=think[i]) for i, c in enumerate(people)]
    return Table(token, drivers, list(range(len(people))), kind == 2)


async def chaos(
    pg: Path, rd: Path, procs: list[ServerProcess], done: asyncio.Event, counts: Counts
) -> None:
    """Until ``done``: a random process killed every few seconds and started again; Redis
    away for 10 seconds (once), a process killed and started meanwhile; PostgreSQL
    restarted (once)."""
    rng = random.Random(24)
    start = time.monotonic()
    redis_done = postgres_done = False
    while not done.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), rng.uniform(2.0, 4.0))
        if done.is_set():
            return
        victim = rng.choice(procs)
        await asyncio.to_thread(victim.kill)
        counts.processes_killed += 1
        await asyncio.sleep(rng.uniform(0.2, 1.5))
        await asyncio.to_thread(victim.start)
        elapsed = time.monotonic() - start
        if not redis_done and elapsed > 6:
            redis_done = True
            counts.redis_stopped += 1
            sock = rd / "redis.sock"
            await asyncio.to_thread(
                subprocess.run, ["redis-cli", "-s", sock, "shutdown", "nosave"], check=False
            )
            began = time.monotonic()
            await asyncio.sleep(2)
            victim = rng.choice(procs)  # killed, and started with Redis away
            await asyncio.to_thread(victim.kill)
            counts.processes_killed += 1
            await asyncio.to_thread(victim.start)
            await asyncio.sleep(max(0.0, 10 - (time.monotonic() - began)))
            await asyncio.to_thread(subprocess.run, ["redis-server", rd / "redis.conf"], check=True)
        elif not postgres_done and elapsed > 20:
            postgres_done = True
            counts.postgres_restarted += 1
            await asyncio.to_thread(script, "postgres", "restart", pg)


async def actions_of(url: str, token: str) -> list[dict[str, Any]]:
    storage = await Storage.open(url)
    try:
        info = await storage.table_by_token(token)
        return [a.action for a in await storage.actions_since(info.id)]
    finally:
        await storage.close()


async def fresh_view(url: str, client: Client, token: str) -> dict[str, Any] | None:
    """``client``'s view in a snapshot from the process at ``url``, on a new connection."""
    again = Client(url, client.nickname)
    again.http.cookies = client.http.cookies
    try:
        await again.connect(token)
        frame = await again.until(lambda f: f["type"] == "snapshot")
    finally:
        await again.aclose()
    view: dict[str, Any] | None = frame["view"]
    return view


async def check_table(
    t: Table, url: str, storage: Storage, procs: list[ServerProcess], counts: Counts
) -> None:
    info = await storage.table_by_token(t.token)
    logged = await storage.actions_since(info.id)
    match = await storage.load_match(info.id)
    assert match.over, t.token
    # versions 1..n, each one action: none applied twice
    assert [a.version for a in logged] == list(range(1, info.version + 1)), t.token
    actions = [a.action for a in logged]
    counts.actions += len(actions)
    for d in t.drivers:
        c = d.client
        assert c.finished() and c.version == info.version, (c.nickname, c.version, info.version)
        told: set[int] = set()
        for since, version, events in d.session.seen:
            versions = set(range(since + 1, version + 1))
            if told & versions:
                trace = [
                    (f["type"], f.get("since"), f.get("version"), f.get("code")) for f in c.frames
                ]
                raise AssertionError(
                    f"{c.nickname} at {t.token} was told a move twice: {sorted(told & versions)}; "
                    f"its frames {trace}; its connections closed at "
                    f"{[v for v, _ in d.session.closed]}"
                )
            told |= versions
            played = [(e["seat"], e["card"]) for e in events if e["type"] == "card_played"]
            stored = [(a["seat"], a["play"]) for a in actions[since:version] if "play" in a]
            assert played == stored, (c.nickname, t.token, since, version)
        assert await fresh_view(url, c, t.token) == c.view, (c.nickname, t.token)
        counts.reconnections += len(d.session.closed)
        counts.moved_to_another_process += c.moved
        for e in d.errors:
            counts.errors[e["code"]] = counts.errors.get(e["code"], 0) + 1
    if t.clock:  # the slow person's moves that the clock made (theirs came too late)
        sent = {v + 1 for v, _ in t.drivers[1].sent_actions}
        counts.time_outs += sum(
            1 for a in logged if a.action["seat"] == 1 and a.version not in sent
        )
    # the leak scan, on every frame every client received
    record = await t.drivers[0].client.call("GET", f"/api/tables/{t.token}/record")
    replay = leaks.Replay(record)
    for d, seat in zip(t.drivers, t.seats, strict=True):
        pairs = [
            (f, r) for f, r in zip(d.client.frames, d.client.raw, strict=True) if "version" in f
        ]
        leaks.scan([f for f, _ in pairs], [r for _, r in pairs], seat, replay)
        counts.frames_scanned += len(pairs)


async def test_three_processes_killed_redis_and_postgres_away_lose_nothing(
    tmp_path: Path, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    counts = Counts(tables=TABLES)
    began = time.monotonic()
    async with servers(tmp_path) as (pg, rd, url, procs):
        tables: list[Table] = []
        try:
            await play(pg, rd, url, procs, tables, counts)
        finally:
            for t in tables:
                for d in t.drivers:
                    await d.client.aclose()
    counts.seconds = round(time.monotonic() - began, 1)
    path = tmp_path_factory.getbasetemp() / "chaos.json"
    path.write_text(json.dumps(counts.__dict__, indent=1) + "\n")
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"\nchaos: {json.dumps(counts.__dict__)} (written to {path})")
    assert set(counts.errors) <= BENIGN, counts.errors
    assert not set(NEVER) & set(counts.server_log_errors), counts
    assert counts.time_outs > 0, "no clock ran out: the test did not test the clocks"


async def play(
    pg: Path, rd: Path, url: str, procs: list[ServerProcess], tables: list[Table], counts: Counts
) -> None:
    """The matches played through the chaos, then checked."""
    for n in range(TABLES):
        tables.append(await make_table(n, procs))
    done = asyncio.Event()
    mayhem = asyncio.create_task(chaos(pg, rd, procs, done, counts))
    tasks = [asyncio.create_task(d.run(420)) for t in tables for d in t.drivers]
    try:
        await asyncio.gather(*tasks)
    finally:
        done.set()
        for task in tasks:
            task.cancel()
        await mayhem
    for p in procs:  # the last one killed is back
        assert p.proc is not None
    storage = await Storage.open(url)
    try:
        for n, t in enumerate(tables):
            await check_table(t, procs[n % 3].url, storage, procs, counts)
    finally:
        await storage.close()
    # A computer move refused as another action took its version: a second move (two
    # computer moves, or two time-outs, at one version) but where it is a time-out that
    # lost to the person's own move, sent in time.
    by_token = {t.token: t for t in tables}
    logged = {t.token: await actions_of(url, t.token) for t in tables}
    for p in procs:
        for token, seat, version, why in refused_computer_moves(p.log.read_text()):
            counts.refused_computer_moves[why] = counts.refused_computer_moves.get(why, 0) + 1
            assert why, f"{token}: a computer move refused, and the log does not say why"
            if why != "StaleVersion":
                continue  # the database did not answer: no move stored, none twice
            t = by_token[token]
            person = t.drivers[seat] if seat < len(t.drivers) else None
            taken = logged[token][version - 1]
            own = person is not None and (version - 1, taken) in person.sent_actions
            assert t.clock and own, (
                f"{token}: a second move at version {version} (seat {seat}), the log's "
                f"{taken}, not the person's own (they sent "
                f"{[a for a in (person.sent_actions if person else []) if a[0] >= version - 3]}; "
                f"the log {logged[token][max(0, version - 4) : version + 2]})"
            )
    faults = []
    for p in procs:
        log = p.log.read_text()
        for line in log.splitlines():
            for what in (*NEVER, "Traceback"):
                if what in line:
                    counts.server_log_errors[what] = counts.server_log_errors.get(what, 0) + 1
            if "Traceback" in line:
                faults.append(line[:300] + " ... " + line[-500:])
    # every failure here was foreseen (a process killed, Redis away, PostgreSQL restarted):
    # the servers say each in a warning; a traceback is a fault of theirs
    assert not faults, "\n".join(faults)
