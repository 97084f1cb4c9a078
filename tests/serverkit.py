"""A real server process and protocol clients, for the tests of the game server.

:class:`ServerProcess` runs ``briscola serve`` as a child process on a free port (on
SQLite in a folder, or on the PostgreSQL the test command starts), reads the URL it
prints, and can be stopped, killed (SIGKILL) and started again on the same database.
:class:`Client` is one person: an HTTP session (its cookie) and a table's WebSocket,
keeping every frame it received so that a test can scan them.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

URL_LINE = re.compile(r"briscola is serving at (http://\S+)")


class ServerProcess:
    """``briscola serve`` in a child process."""

    def __init__(
        self,
        data: Path,
        database_url: str | None = None,
        *args: str,
        grace: float = 60.0,
        bot_delay: float = 0.0,
    ) -> None:
        self.data = data
        self.database_url = database_url
        self.args = list(args)
        self.grace = grace
        self.bot_delay = bot_delay
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.log = data / "server.log"

    def start(self, timeout: float = 30.0) -> str:
        cmd = [
            sys.executable, "-m", "briscola", "serve", "--data", str(self.data), "--port", "0",
            "--grace", str(self.grace), "--bot-delay", str(self.bot_delay), *self.args,
        ]  # fmt: skip
        if self.database_url:
            cmd += ["--database-url", self.database_url]
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
                return self.url
        self.stop()
        raise RuntimeError(f"the server did not start: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: the process ends at once, as in a crash."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
            self._closed()

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
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


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

    def __post_init__(self) -> None:
        self.http = httpx.AsyncClient(base_url=self.base, timeout=30)

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

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def aclose(self) -> None:
        await self.close()
        await self.http.aclose()

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def receive(self, timeout: float = 20.0) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        self.raw.append(text)
        frame: dict[str, Any] = json.loads(text)
        self.frames.append(frame)
        if "version" in frame:
            self.version = frame["version"]
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
