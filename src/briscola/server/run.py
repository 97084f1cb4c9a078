"""Running the server as a process: ``briscola serve``.

:func:`serve` starts uvicorn on the application and prints the URL it listens at once it
does (``--port 0`` takes a free port, and the line printed names it). A killed process
loses nothing stored. SIGTERM (and Ctrl-C) stop it gracefully (:class:`Server`): it stops
listening at once (``/readyz`` answers 503 on the connections still open), each table
finishes the action it is storing, each WebSocket is sent what is new and closed with
1012 (service restart: its client connects again), and the process ends with 0, within
``stop_timeout`` seconds and uvicorn's three for the HTTP requests still running.

Its log lines go to standard error through :func:`briscola.server.logs.log_config`:
uvicorn's and the server's alike, as JSON or as text.

The event loop is uvloop's and HTTP is parsed by httptools where they are installed (the
server extra installs them; benchmarks/README.md, "The game server under load", has what
they give); else asyncio's own loop and uvicorn's pure-Python parser serve. WebSocket
frames go uncompressed (no permessage-deflate): a table's frames are a few kilobytes of
JSON, and compressing each one for each connection cost about a sixth of the server's
CPU time a move.
"""

from __future__ import annotations

import asyncio
import errno
import gc
import importlib.util
import logging
import signal
import socket
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import uvicorn
from fastapi import FastAPI

from briscola.server.app import create_app, drain
from briscola.server.logs import log_config
from briscola.server.settings import ServerSettings

log = logging.getLogger("briscola.server")

CLOSING_WAIT = 2.0
"""Seconds a stopping process waits for its clients to answer the close of their
WebSockets (:meth:`Server.closing_handshakes`)."""


class Server(uvicorn.Server):
    """uvicorn's server, stopping gracefully: before uvicorn's own shutdown (which closes
    the connections left and runs the lifespan's end) it stops listening and drains the
    application (:func:`briscola.server.app.drain`) for at most ``stop_timeout`` seconds;
    and a SIGTERM handled so ends the process with 0 (uvicorn raises the signal again
    once it is done, which would end it by that signal)."""

    def __init__(self, config: uvicorn.Config, app: FastAPI, stop_timeout: float) -> None:
        super().__init__(config)
        self.app = app
        self.stop_timeout = stop_timeout

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        captured: list[int] = getattr(self, "_captured_signals", [])
        if sig == signal.SIGTERM and sig in captured:
            captured.remove(sig)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()  # no new connection
        try:
            async with asyncio.timeout(self.stop_timeout):
                await drain(self.app)
        except TimeoutError:
            log.warning(
                "stopping: the tables and connections took more than %g s; the rest is cut",
                self.stop_timeout,
            )
        await self.closing_handshakes(CLOSING_WAIT)
        await super().shutdown(sockets)

    async def closing_handshakes(self, timeout: float) -> None:
        """Wait, at most ``timeout`` seconds, until every WebSocket closed has its
        client's close back (RFC 6455's closing handshake): closed sooner, a socket that
        the client still writes to is reset, and a reset may lose it the close frame
        (and its code, 1012) before the client has read it."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end and any(
            getattr(c, "close_sent", False) for c in self.server_state.connections
        ):
            await asyncio.sleep(0.02)


def serve(
    settings: ServerSettings,
    host: str = "127.0.0.1",
    port: int = 8000,
    log_level: str = "warning",
    announce: Callable[[str], None] | None = None,
    log_format: str = "auto",
) -> None:
    """Serve until stopped; ``announce`` (printing, by default) is given the URL. The log
    is ``log_format``: ``json``, ``text``, or ``auto`` (text on a terminal, else JSON)."""
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        log_config=log_config(log_level, log_format),
        ws_max_size=max(settings.max_frame * 4, 65_536),
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        http="httptools" if importlib.util.find_spec("httptools") else "h11",
        lifespan="on",
        timeout_graceful_shutdown=3,
    )
    server = Server(config, app, settings.stop_timeout)
    say = announce or (lambda url: print(f"briscola is serving at {url}", flush=True))
    listening = listen(host, port)

    async def run() -> None:
        await check_database(settings.url)
        collecting = asyncio.create_task(collector(settings.collect_every))
        task = asyncio.create_task(server.serve(sockets=[listening]))
        while not server.started:
            if task.done():
                break
            await asyncio.sleep(0.05)
        if server.started:
            sock = server.servers[0].sockets[0]
            bound = sock.getsockname()
            shown = host
            if host in ("0.0.0.0", "::"):
                shown = socket.gethostname()
            say(f"http://{shown if sock.family != socket.AF_INET6 else f'[{shown}]'}:{bound[1]}/")
        try:
            await task
        finally:
            collecting.cancel()

    try:
        with asyncio.Runner(loop_factory=loop_factory()) as runner:
            runner.run(run())
    finally:
        listening.close()
    if not server.started:
        sys.exit(1)


class DatabaseError(Exception):
    """The database cannot be opened: the message says which and why."""


class AddressError(Exception):
    """The server cannot listen at the address asked for: the message says why and what
    to do."""


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` and ``port`` (as uvicorn binds one), for the server to
    listen on: bound before anything else starts, so that a port in use or an address
    this machine does not have is one clear error. :raises AddressError:."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family=family)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise AddressError(_why_not(host, port, e)) from None
    sock.set_inheritable(True)
    return sock


def _why_not(host: str, port: int, e: OSError) -> str:
    if e.errno == errno.EADDRINUSE:
        return (
            f"port {port} is taken at {host} (another program listens there): stop it, or "
            "choose another port (--port 0 picks a free one)"
        )
    if e.errno == errno.EACCES:
        return (
            f"port {port} is reserved for the system administrator: choose a port above 1023 "
            "(--port 0 picks a free one)"
        )
    if isinstance(e, socket.gaierror) or e.errno == errno.EADDRNOTAVAIL:
        return (
            f"cannot listen at {host}: this machine has no such address: give one of its own "
            "with --host (127.0.0.1 for this machine alone, 0.0.0.0 for every network)"
        )
    return f"cannot listen at {host}:{port}: {e.strerror or e}"


async def check_database(url: str) -> None:
    """Open the database once before serving (creating or upgrading its schema), so that
    a wrong address or a server that is down is one clear error, not a failed start-up's
    traceback. :raises DatabaseError:."""
    from sqlalchemy import make_url

    from briscola.storage import Storage

    shown = make_url(url).render_as_string(hide_password=True)
    try:
        storage = await Storage.open(url)
    except Exception as e:
        reason = " ".join(str(e).split()) or type(e).__name__
        raise DatabaseError(f"cannot open the database at {shown}: {reason}") from None
    await storage.close()


async def collector(every: float, freeze_every: float = 5.0) -> None:
    """Python's garbage collector, its long passes made rare. Every ``freeze_every``
    seconds what is alive is frozen (:func:`gc.freeze`): the collector's automatic passes
    look only at what was made since. Every ``every`` seconds it is thawed, collected in
    full (the cycles frozen meanwhile freed) and frozen again. A full pass over a busy
    server's objects stops it for 25 to 110 ms; left to itself the collector made one
    whenever the heap grew by a quarter, every few seconds at a thousand tables
    (benchmarks/README.md, "The game server under load")."""
    gc.freeze()
    loop = asyncio.get_running_loop()
    full = loop.time() + every
    while True:
        await asyncio.sleep(freeze_every)
        if loop.time() >= full:
            gc.unfreeze()
            gc.collect()
            full = loop.time() + every
        gc.freeze()


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop when it is installed (``None``: asyncio's default)."""
    try:
        import uvloop
    except ImportError:
        return None
    new: Any = uvloop.new_event_loop
    return new  # type: ignore[no-any-return]
