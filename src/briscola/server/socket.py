"""A table's WebSocket (docs/protocol.md): each connection has a receive loop (this
module: every frame checked, limited and turned into a command of the live table) and a
writer that sends what is new for its seat whenever the table wakes it
(:meth:`~briscola.server.table.view.View.messages_for`). As the process stops, each
connection finishes the message it handles, is sent what is new, and is closed with
1012 (service restart: :class:`Stopper`, :meth:`~briscola.server.tables.Tables.drain`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from briscola.server.deps import (
    COOKIE,
    Guards,
    address,
    describe,
    digest,
    guards_of,
    player_of,
    tables_of,
)
from briscola.server.errors import Refused, Value, error_json
from briscola.server.failures import database_away
from briscola.server.messages import CLIENT, Act, Failure, Ping, Pong, Say, Sync
from briscola.server.table.connection import Connection
from briscola.server.table.writer import LiveTable
from briscola.storage import Player

log = logging.getLogger("briscola.server")

router = APIRouter()


class Bucket:
    """A token bucket: ``rate`` a second, at most ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False


class Refusals:
    """A connection's refusals for flooding over a sliding window: :meth:`add` says
    whether more than ``limit`` of them fell within the last ``window`` seconds."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window
        self.times: deque[float] = deque()

    def add(self) -> bool:
        now = time.monotonic()
        self.times.append(now)
        while self.times[0] <= now - self.window:
            self.times.popleft()
        return len(self.times) > self.limit


def version_of(since: str | None) -> int | None:
    """The version a socket's ``?since=`` names, or ``None`` when it names none (absent,
    or not a whole number written in digits: ``abc``, ``-1``, ``1.5``)."""
    if since is None or not (since.isascii() and since.isdigit()) or len(since) > 18:
        return None
    return int(since)


TRY_AGAIN = 1013
"""The close code of a connection the database failed (try again later): its client
connects again."""


@router.websocket("/api/tables/{token}/ws")
async def table_socket(websocket: WebSocket, token: str, since: str | None = None) -> None:
    """A table's WebSocket (docs/protocol.md). With the database away (PostgreSQL
    restarting), the socket closes with :data:`TRY_AGAIN`: its client connects again, to
    this process or another, as after a restart."""
    await websocket.accept()
    try:
        await open_socket(websocket, token, since)
    except Exception as e:
        if not database_away(e):
            raise
        tables_of(websocket).metrics.storage_failed("socket", e)
        log.warning("table %s: a connection closed, the database away: %r", token, e)
        with contextlib.suppress(Exception):  # (the socket may be gone already)
            await websocket.close(code=TRY_AGAIN, reason="the database did not answer")


async def open_socket(websocket: WebSocket, token: str, since: str | None) -> None:
    tables, guards = tables_of(websocket), guards_of(websocket)
    try:
        live = await tables.get(token)
    except Refused as e:
        await websocket.send_text(Failure(version=0, **e.json()).model_dump_json())
        await websocket.close(code=4404)
        return
    cookie = websocket.cookies.get(COOKIE)
    player = await player_of(tables, cookie, guards.idle)
    here = address(websocket)
    limits = guards.settings.limits
    if not guards.sockets_here.enter(here):
        await refuse_socket(
            websocket,
            f"{limits.connections_per_address} connections are open from your address "
            "already: close some (other tabs, other tables) and connect again",
        )
        return
    try:
        if player is not None and not guards.sockets_of.enter(player.id):
            await refuse_socket(
                websocket,
                f"you hold {limits.connections_per_person} connections open already: close "
                "some (other tabs, other tables) and connect again",
            )
            return
        try:
            await serve_connection(websocket, guards, live, player, cookie, since)
        finally:
            if player is not None:
                guards.sockets_of.leave(player.id)
    finally:
        guards.sockets_here.leave(here)


async def refuse_socket(websocket: WebSocket, message: str) -> None:
    await websocket.send_text(
        Failure(version=0, **error_json("too_many", message)).model_dump_json()
    )
    await websocket.close(code=4429, reason="too many connections")


async def serve_connection(
    websocket: WebSocket,
    guards: Guards,
    live: LiveTable,
    player: Player | None,
    cookie: str | None,
    since: str | None,
) -> None:
    conn = Connection(player.id if player else None, live.seat_of(player.id if player else None))
    # A client behind its seat's stream gets what it missed; one at its stream's version
    # nothing new (but the table); a new one, or one with a `since` the stream has not
    # reached or that is no version, a snapshot. Version 0 is the table waiting as well
    # as the first hand dealt: from 0, the update begins with the start.
    seen = version_of(since)
    if seen is not None and seen <= live.number(conn.seat):
        conn.number = seen
        conn.from_start = seen == 0
        conn.meta = -1
    key = digest(cookie) if player is not None and cookie else None
    if key is not None:
        guards.session_sockets.setdefault(key, set()).add(websocket)
    try:
        await serve_socket(websocket, guards, live, conn)
    finally:
        if key is not None and (held := guards.session_sockets.get(key)) is not None:
            held.discard(websocket)
            if not held:
                del guards.session_sockets[key]


RESTART = 1012
"""The close code of a connection the process closes as it stops (service restart): its
client connects again."""

DRAIN_SEND = 2.0
"""Seconds a connection closing as the process stops has to send what is new for it."""


class Stopper:
    """A connection's :class:`~briscola.server.table.connection.Closer`: the receive loop
    handles each message under :attr:`handling`, and none once :attr:`stopping` is set;
    the writer ends once :attr:`closed` is, after sending what is new."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.handling = asyncio.Lock()
        self.stopping = False
        self.writer: asyncio.Task[None] | None = None
        self.wake: Callable[[], None] = lambda: None
        self.closing = False
        self.closed = False

    async def hold(self) -> None:
        async with self.handling:
            self.stopping = True

    async def close(self) -> None:
        if self.closing:
            return
        self.closing = True
        await self.hold()
        self.closed = True
        self.wake()  # the writer sends what is new, then ends
        if self.writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.writer, DRAIN_SEND)
        with contextlib.suppress(Exception):
            await self.websocket.close(code=RESTART, reason="the server is restarting")


async def serve_socket(
    websocket: WebSocket, guards: Guards, live: LiveTable, conn: Connection
) -> None:
    settings = guards.settings
    metrics = live.server.metrics
    sub = live.server.broadcaster.subscribe(live.token)
    stopper = Stopper(websocket)
    stopper.wake = sub.wake
    conn.closer = stopper
    echo: tuple[int, float] | None = None
    """The number of the stream the result of an action taken will carry, and when the
    action was received (:func:`time.perf_counter`): its echo, once sent, is measured."""

    def echoed() -> None:
        nonlocal echo
        if echo is not None and conn.number >= echo[0]:
            metrics.echoed(echo[1])
            echo = None

    async def writer() -> None:
        while True:
            for text in live.view.messages_for(conn):
                await websocket.send_text(text)
            echoed()
            if stopper.closed:
                return
            await sub.wait()

    await live.presence.attach(conn)
    sending = asyncio.create_task(writer())
    stopper.writer = sending
    if live.server.draining:  # the process began to stop as this connection came
        await stopper.close()
    messages = Bucket(rate=10, burst=30)
    chats = Bucket(rate=0.5, burst=5)
    refused = Refusals(*settings.flood)

    def reply(model: Failure | Pong) -> None:
        conn.reply(model.model_dump_json())
        sub.wake()

    def error(
        code: str, message: str, ref: str | None = None, values: dict[str, Value] | None = None
    ) -> None:
        said = error_json(code, message, values)
        reply(Failure(version=max(conn.number, 0), **said, id=ref))

    async def handle(text: str | None, received_at: float) -> bool:
        """Handle one frame; whether to go on reading."""
        nonlocal echo
        if text is None:  # a binary frame
            error("bad_json", "send each message as a text frame holding JSON")
            return True
        if len(text) > settings.max_frame or len(text.encode()) > settings.max_frame:
            error(
                "too_big",
                f"a message is at most {settings.max_frame} bytes",
                values={"n": settings.max_frame},
            )
            return True
        if not messages.take():
            error("flood", "too many messages: at most 10 a second; wait and send again")
            if refused.add():
                sending.cancel()  # the replies still queued go first, then the close
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await sending
                for reply_text in live.view.messages_for(conn):
                    await websocket.send_text(reply_text)
                await websocket.close(code=1008, reason="flood")
                return False
            await asyncio.sleep(0)  # the writer sends the refusal meanwhile
            return True
        try:
            message = CLIENT.validate_json(text)
        except ValidationError as e:
            if any(x["type"] == "json_invalid" for x in e.errors()):
                error("bad_json", "that message is not JSON: send one JSON object")
            else:
                error("bad_message", describe(e.errors()))
            return True
        try:
            if isinstance(message, Act):
                if conn.seat is None:
                    raise Refused("spectator", "you are watching this table: take a seat to play")
                await live.submit(conn.seat, message.action, message.version, message.id)
                echo = (live.number(conn.seat), received_at)
                echoed()  # (the writer may have sent it already)
            elif isinstance(message, Say):
                if not chats.take():
                    raise Refused("flood", "too many chat messages: wait a little")
                if conn.player is None:
                    raise Refused("no_session", "choose a nickname to chat")
                await live.chat.say(conn.player, message.text, message.phrase)
            elif isinstance(message, Sync):
                now = live.number(conn.seat)
                if message.since > now:
                    raise Refused(
                        "bad_version",
                        f"the table is at version {now}; you asked for what "
                        f"came after {message.since}",
                    )
                conn.number = message.since
                conn.from_start = message.since == 0
                sub.wake()
            elif isinstance(message, Ping):
                reply(Pong(version=max(conn.number, 0)))
        except Refused as e:
            error(e.code, e.message, getattr(message, "id", None), e.values)
        return True

    try:
        while True:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            at = time.perf_counter()
            async with stopper.handling:
                if stopper.stopping:
                    continue  # not taken: the closer closes the socket (1012) soon
                if not await handle(received.get("text"), at):
                    break
    except WebSocketDisconnect:
        pass
    except RuntimeError:  # sent on a closed socket
        pass
    finally:
        sending.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sending
        live.server.broadcaster.unsubscribe(live.token, sub)
        await live.presence.detach(conn)
