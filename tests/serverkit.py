"""A real server process and protocol clients, for the tests of the game server.

:class:`ServerProcess` runs ``briscola serve`` as a child process on a free port (on
SQLite in a folder, or on the PostgreSQL the test command starts), reads the URL it
prints, and can be stopped, killed (SIGKILL) and started again on the same database.
:class:`Client` is one person: an HTTP session (its cookie) and a table's WebSocket,
keeping every frame it received so that a test can scan them. :class:`Driver` plays a
table's seat to the end, reconnecting by itself; :func:`seated_table`,
:func:`stored_versions` and :func:`check_finished` set up, look into and check the
matches of the restart and shutdown tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from briscola.engine import Match
from briscola.fair_shuffle import check_record

PG_URL = os.environ.get("BRISCOLA_TEST_POSTGRES_URL")

URL_LINE = re.compile(r"briscola is serving at (http://\S+)")

SERVE_WITH_SETTINGS = """
import ast, sys
from pathlib import Path
from briscola.server.limits import OFF, Limits
from briscola.server.run import serve
from briscola.server.settings import ServerSettings
data, port, grace, bot_delay, limits, database_url, more = sys.argv[1:]
settings = ServerSettings(
    data=Path(data), database_url=database_url or None, grace=float(grace),
    bot_delay=float(bot_delay), limits=Limits() if limits == "on" else OFF,
    **ast.literal_eval(more),
)
serve(settings, port=int(port))
"""
"""``ServerProcess`` with ``settings``: the server run on settings the command has no option
for."""


class ServerProcess:
    """``briscola serve`` in a child process."""

    def __init__(
        self,
        data: Path,
        database_url: str | None = None,
        *args: str,
        grace: float = 60.0,
        bot_delay: float = 0.0,
        limits: bool = False,
        settings: dict[str, Any] | None = None,
    ) -> None:
        """``limits``: the server's limits per person and per address are on (off by
        default: a test plays many people from this one address). ``settings``: more
        fields of ``ServerSettings`` (``idle_unload``, ``sweep``, ``flood``, ``min_clock``...),
        for which the process runs the server on its settings instead of ``briscola serve``
        (``args``, the command's options, are then refused)."""
        assert not (settings and args), "settings or the command's options, not both"
        self.data = data
        self.database_url = database_url
        self.args = list(args)
        self.grace = grace
        self.bot_delay = bot_delay
        self.limits = limits
        self.settings = settings
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.port = 0
        """The port of the first start, kept by every later start (clients find the server
        where it was); 0 before the first start takes a free one."""
        self.log = data / "server.log"

    def start(self, timeout: float = 30.0) -> str:
        cmd = [
            sys.executable, "-m", "briscola", "serve", "--data", str(self.data),
            "--port", str(self.port),
            "--grace", str(self.grace), "--bot-delay", str(self.bot_delay),
            "--limits", "on" if self.limits else "off", *self.args,
        ]  # fmt: skip
        if self.database_url:
            cmd += ["--database-url", self.database_url]
        if self.settings:
            cmd = [
                sys.executable, "-c", SERVE_WITH_SETTINGS, str(self.data), str(self.port),
                str(self.grace), str(self.bot_delay), "on" if self.limits else "off",
                self.database_url or "", repr(self.settings),
            ]  # fmt: skip
        self.data.mkdir(parents=True, exist_ok=True)
        with self.log.open("a") as err:
            self.proc = subprocess.Popen(
                cmd, stdout=subprocess.PIPE, stderr=err, text=True, env={**os.environ}
            )
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            found = URL_LINE.search(line)
            if found:
                self.url = found.group(1).rstrip("/")
                self.port = int(self.url.rsplit(":", 1)[1])
                return self.url
        self.stop()
        raise RuntimeError(f"the server did not start: {self.log.read_text()[-3000:]}")

    @property
    def database(self) -> str:
        """The URL of the server's database, for a test to look at what it stored."""
        return self.database_url or f"sqlite+aiosqlite:///{self.data.resolve() / 'briscola.db'}"

    def kill(self) -> None:
        """SIGKILL: the process ends at once, as in a crash."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
            self._closed()

    def terminate(self, timeout: float = 30.0) -> int:
        """SIGTERM, as a service manager stops it: the process's exit status once it has
        ended (a process still running after ``timeout`` seconds is killed, and that fails)."""
        assert self.proc is not None, "the server is not running"
        self.proc.send_signal(signal.SIGTERM)
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(
                f"the server was still running {timeout:g} s after SIGTERM"
            ) from None
        self._closed()
        return status

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            self._closed()

    def _closed(self) -> None:
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()
        self.proc = None

    def __enter__(self) -> ServerProcess:
        if self.proc is None:  # (one from the server_factory fixture is started already)
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


OPEN_CLIENTS: dict[int, Client] = {}
"""The clients not closed yet, by their ``id``: those a test left open (it failed
half-way) are closed after it (tests/conftest.py), so that their sockets are not
collected, and warned about, in a later test."""


@dataclass
class Client:
    """One person at the server: their session, and at most one table's socket."""

    base: str
    nickname: str
    http: httpx.AsyncClient = field(init=False)
    ws: Any = None
    frames: list[dict[str, Any]] = field(default_factory=list)
    """Every frame received, in order, parsed."""
    raw: list[str] = field(default_factory=list)
    view: dict[str, Any] | None = None
    version: int = 0
    table: dict[str, Any] | None = None
    player: int | None = None
    others: list[str] = field(default_factory=list)
    """Other server processes' URLs, on one database: :meth:`reconnect` goes on to the next
    of them (round) when the one it is at refuses."""
    moved: int = 0
    """How many times :meth:`reconnect` went on to another process."""

    def __post_init__(self) -> None:
        self.http = httpx.AsyncClient(base_url=self.base, timeout=30)
        OPEN_CLIENTS[id(self)] = self

    def move_on(self) -> None:
        """Go on to the next of :attr:`others` (this one joins their end)."""
        if self.others:
            self.others.append(self.base)
            self.base = self.others.pop(0)
            self.http.base_url = httpx.URL(self.base)
            self.moved += 1

    async def login(self) -> Client:
        r = await self.http.post("/api/session", json={"nickname": self.nickname})
        r.raise_for_status()
        self.player = r.json()["id"]
        return self

    async def call(self, method: str, path: str, **kw: Any) -> Any:
        r = await self.http.request(method, path, **kw)
        if r.status_code >= 400:
            raise AssertionError(f"{method} {path}: {r.status_code} {r.text}")
        return r.json()

    async def connect(self, token: str, since: int | None = None) -> None:
        url = self.base.replace("http://", "ws://") + f"/api/tables/{token}/ws"
        if since is not None:
            url += f"?since={since}"
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        headers = {"Cookie": cookie} if cookie else {}
        self.ws = await websockets.connect(
            url, additional_headers=headers, max_size=2**24, close_timeout=2
        )

    async def reconnect(self, token: str, timeout: float = 60.0) -> None:
        """Connect again to ``token``'s table, saying the last version seen
        (``?since=VERSION``), trying every tenth of a second until the server is back, at
        the next of :attr:`others` after each refusal (when there are others)."""
        self.ws = None
        end = time.monotonic() + timeout
        while True:
            try:
                await self.connect(token, since=self.version)
                return
            except (OSError, TimeoutError, websockets.exceptions.InvalidHandshake):
                if time.monotonic() > end:
                    raise
                self.move_on()
                await asyncio.sleep(0.1)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def aclose(self) -> None:
        OPEN_CLIENTS.pop(id(self), None)
        await self.close()
        await self.http.aclose()

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def receive(self, timeout: float = 20.0) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        self.raw.append(text)
        frame: dict[str, Any] = json.loads(text)
        self.frames.append(frame)
        if frame["type"] in ("snapshot", "update"):  # as the browser's: a reply (an error)
            self.version = frame["version"]  # may say the version it was refused at, older
        if frame.get("view") is not None:
            self.view = frame["view"]
        if frame.get("table") is not None:
            self.table = frame["table"]
        return frame

    async def until(self, test: Any, timeout: float = 30.0) -> dict[str, Any]:
        """Receive until a frame passes ``test``; that frame."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("no frame passed the test in time")
            frame = await self.receive(left)
            if test(frame):
                return frame

    async def act(self, action: dict[str, Any]) -> None:
        await self.send({"type": "act", "version": self.version, "action": action})

    def finished(self) -> bool:
        return self.table is not None and self.table["status"] == "finished"

    def my_turn(self) -> bool:
        v = self.view
        return bool(v and v.get("legal") and self.table and self.table["status"] == "playing")


async def open_table(
    host: Client,
    game: str,
    seats: list[dict[str, Any]],
    rules: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """``host`` opens a table of ``game`` with ``seats``; the table as the server gives it."""
    body = {"game": game, "rules": rules or {}, "seats": seats, **extra}
    table: dict[str, Any] = await host.call("POST", "/api/tables", json=body)
    return table


@dataclass
class Session:
    """What a :class:`Driver`'s client lived through at one table, connection by connection:
    ``closed[i]`` is the (version, view) it had when its ``i``-th connection closed,
    ``reopened[i]`` the first frame of the next one that carried a view."""

    closed: list[tuple[int, dict[str, Any] | None]] = field(default_factory=list)
    reopened: list[dict[str, Any]] = field(default_factory=list)
    seen: list[tuple[int, int, list[dict[str, Any]]]] = field(default_factory=list)
    """Each update's (since, version, events), in the order received."""
    codes: list[int | None] = field(default_factory=list)
    """The close code of each connection closed (``None``: no close frame came)."""


class Driver:
    """A person playing random legal moves at a table until its match is over, and
    reconnecting by themselves (``?since=`` their last version) whenever the connection
    closes. Clearing ``playing`` stops their moves (they keep listening); ``think`` is the
    wait before each move."""

    def __init__(
        self,
        client: Client,
        token: str,
        seed: int,
        think: float = 0.0,
        pause_after_hand: int | None = None,
    ) -> None:
        self.client = client
        self.token = token
        self.rng = random.Random(seed)
        self.think = think
        self.playing = asyncio.Event()
        self.playing.set()
        self.pause_after_hand = pause_after_hand
        """Stop moving once this hand is revealed (:attr:`paused` set then)."""
        self.paused = asyncio.Event()
        self.session = Session()
        self.errors: list[dict[str, Any]] = []
        self.sent_actions: list[tuple[int, dict[str, Any]]] = []
        """Each action sent, with the version it was sent at (taken, it is the log's at
        the next one)."""

    async def run(self, timeout: float = 60.0) -> None:
        c = self.client
        end = time.monotonic() + timeout
        if c.ws is None:
            await c.connect(self.token)
        fresh = False
        acted = -1
        while not c.finished():
            if time.monotonic() > end:
                v = c.view or {}
                last = [(f["type"], f["version"], f.get("code")) for f in c.frames[-6:]]
                raise TimeoutError(
                    f"{c.nickname}: the match at {self.token} did not end: at version "
                    f"{c.version}, {v.get('to_act')} to act, legal {v.get('legal')}, "
                    f"playing {self.playing.is_set()}, last frames "
                    f"{last}"
                )
            try:
                if c.my_turn() and self.playing.is_set() and acted != c.version:
                    if self.think:
                        await asyncio.sleep(self.think)
                    acted = c.version
                    action = self.rng.choice(c.view["legal"])  # type: ignore[index]
                    self.sent_actions.append((c.version, action))
                    await c.act(action)
                frame = await c.receive(0.5 if not self.playing.is_set() else 20.0)
            except TimeoutError:
                continue
            except (websockets.exceptions.ConnectionClosed, OSError) as e:
                rcvd = getattr(e, "rcvd", None)
                self.session.codes.append(rcvd.code if rcvd is not None else None)
                self.session.closed.append((c.version, c.view))
                await c.reconnect(self.token)
                fresh = True
                acted = -1  # a move sent as the server died may be lost: send it again
                continue
            if frame["type"] == "update":
                self.session.seen.append((frame["since"], frame["version"], frame["events"]))
                if any(
                    e["type"] == "hand_revealed" and e["hand"] == self.pause_after_hand
                    for e in frame["events"]
                ):
                    self.playing.clear()
                    self.paused.set()
            elif frame["type"] == "error" and frame["code"] == "flood":
                await asyncio.sleep(0.2)  # the server takes 10 messages a second
                acted = -1
            elif frame["type"] == "error" and frame["code"] != "stale":
                self.errors.append(frame)
            if fresh and frame.get("view") is not None:
                self.session.reopened.append(frame)
                fresh = False


@contextlib.asynccontextmanager
async def database(kind: str) -> AsyncIterator[str | None]:
    """The ``--database-url`` of a test: ``None`` for SQLite (in the data folder), or a
    fresh PostgreSQL database on the cluster of ``BRISCOLA_TEST_POSTGRES_URL``, dropped
    afterwards. Without that variable the test is skipped, but under CI (``CI`` set) it
    fails: CI never passes without PostgreSQL."""
    if kind == "sqlite":
        yield None
        return
    if not PG_URL:
        if os.environ.get("CI"):
            pytest.fail("CI: BRISCOLA_TEST_POSTGRES_URL is not set: run scripts/test")
        pytest.skip("PostgreSQL: set BRISCOLA_TEST_POSTGRES_URL (scripts/test does)")
    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine

    name = f"t_{uuid.uuid4().hex[:16]}"
    admin = create_async_engine(PG_URL, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        yield sa.make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
        async with admin.connect() as conn:
            await conn.execute(sa.text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    finally:
        await admin.dispose()


@pytest.fixture(name="server", params=["sqlite", "postgresql"])
async def server_on_each_database(
    request: pytest.FixtureRequest, server_factory: Any
) -> AsyncIterator[ServerProcess]:
    """``server``, for a module that imports this fixture: one server for each test, on
    SQLite or on a PostgreSQL database of its own."""
    async with database(request.param) as url:
        srv = server_factory(url, bot_delay=0.01)
        try:
            yield srv
        finally:
            srv.stop()


SCRIPTS = Path(__file__).parents[1] / "scripts"


@pytest.fixture(scope="module")
def redis_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A throwaway Redis for the module (scripts/redis), its folder: its URL is
    ``unix://FOLDER/redis.sock``. Skipped where it cannot start, but under CI (as root,
    scripts/redis installs Debian's package) it fails."""
    pytest.importorskip("redis")
    where = tmp_path_factory.mktemp("redis")
    try:
        subprocess.run([SCRIPTS / "redis", "start", where], check=True, text=True)
    except subprocess.CalledProcessError as e:
        if os.environ.get("CI"):
            pytest.fail(f"CI: scripts/redis could not start a Redis server: {e}")
        pytest.skip(f"several processes need Redis: scripts/redis could not start one ({e})")
    yield where
    subprocess.run([SCRIPTS / "redis", "stop", where], check=False)


# -- playing ---------------------------------------------------------------------------


def finished(client: Client) -> bool:
    """Whether ``client`` was told that its table's match is over."""
    return client.table is not None and client.table["status"] == "finished"


async def play_randomly(
    client: Client,
    rng: Any,
    *,
    until: Any = finished,
    on_frame: Any = None,
) -> None:
    """Drive ``client``: whenever its view offers legal actions, send one chosen by ``rng``
    (once per version), and receive, until ``until(client)``. Any error frame fails, but
    ``flood`` (faster than a person: the action is sent again a little later).
    ``on_frame(client, frame)`` (a coroutine function) runs after each frame received."""
    acted = -1
    while not until(client):
        if client.my_turn() and acted != client.version:
            acted = client.version
            await client.act(rng.choice(client.view["legal"]))  # type: ignore[index]
        frame = await client.receive()
        if frame["type"] == "error" and frame["code"] == "flood":
            await asyncio.sleep(0.2)
            acted = -1
        elif frame["type"] == "error":
            raise AssertionError(f"{client.nickname} was sent an error: {frame}")
        if on_frame is not None:
            await on_frame(client, frame)


# -- restarts ----------------------------------------------------------------------------


async def stored_versions(srv: ServerProcess, tokens: list[str]) -> dict[str, int]:
    """Each table's version as the (stopped) server left it in its database."""
    from briscola.storage import Storage

    store = await Storage.open(srv.database)
    try:
        return {t: (await store.table_by_token(t)).version for t in tokens}
    finally:
        await store.close()


async def seated_table(
    srv: ServerProcess, game: str, rules: dict[str, Any], seats: list[str], name: str
) -> tuple[str, list[Client]]:
    """A started table of ``game``: ``me`` the host's seat, ``person`` a seat another
    client takes, ``bot:LEVEL`` a computer player. The token and the people's clients."""
    host = await Client(srv.url, f"{name}0").login()
    spec = []
    for s in seats:
        if s.startswith("bot:"):
            spec.append({"kind": "bot", "level": s[4:]})
        else:
            spec.append({"kind": "me" if s == "me" else "open"})
    table = await open_table(host, game, spec, rules)
    token = table["token"]
    people = [host]
    for i, s in enumerate(seats):
        if s == "person":
            guest = await Client(srv.url, f"{name}{i}").login()
            await guest.call("POST", f"/api/tables/{token}/seats/{i}")
            people.append(guest)
    await host.call("POST", f"/api/tables/{token}/start")
    return token, people


def moves_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The match's actions in the order they were stored: version v is moves[v - 1]."""
    return [m for hand in record["hands"] for m in hand["moves"]]


async def check_finished(token: str, drivers: list[Driver]) -> dict[str, Any]:
    """The match record replays with the engine, its commitments hold, and every update a
    client received is the record's moves at those versions, each version seen once."""
    record: dict[str, Any] = await drivers[0].client.call("GET", f"/api/tables/{token}/record")
    replayed = Match.from_record(record)
    assert replayed.over
    assert all(c.ok for c in check_record(record))
    moves = moves_of(record)
    assert len(moves) == drivers[0].client.version
    for d in drivers:
        assert d.errors == [], d.errors
        seen: set[int] = set()
        for since, version, events in d.session.seen:
            versions = range(since + 1, version + 1)
            assert not seen & set(versions), f"{d.client.nickname} was told a move twice"
            seen |= set(versions)
            played = [(e["seat"], e["card"]) for e in events if e["type"] == "card_played"]
            stored = [(m["seat"], m["play"]) for m in moves[since:version] if "play" in m]
            assert played == stored, (d.client.nickname, since, version)
    return record


async def news(person: Client, origin: str | None = None, ready: bool = True) -> Any:
    """``person``'s news socket (``/api/session/news``), as their browser opens it, once
    it says it follows their families (``ready``)."""
    cookie = "; ".join(f"{k}={v}" for k, v in person.http.cookies.items())
    headers = {"Cookie": cookie} if cookie else {}
    if origin is not None:
        headers["Origin"] = origin
    url = person.base.replace("http://", "ws://") + "/api/session/news"
    ws = await websockets.connect(url, additional_headers=headers, close_timeout=2)
    if ready:
        assert await heard(ws) == {"type": "ready"}
    return ws


async def heard(ws: Any, timeout: float = 5.0) -> dict[str, Any]:
    return dict(json.loads(await asyncio.wait_for(ws.recv(), timeout)))


async def silent(ws: Any, wait: float = 1.5) -> None:
    """Nothing comes on ``ws`` for ``wait`` seconds."""
    with pytest.raises(TimeoutError):
        said = await asyncio.wait_for(ws.recv(), wait)
        pytest.fail(f"heard {said}")
