"""A person's news: the WebSocket ``/api/session/news`` tells a signed-in person, while
any page of the site is open, that one of their families changed, so that the page shows
a table a member just opened without being loaded again.

Once it follows the person's families it says ``{"type": "ready"}`` (what changed
before, the page asks again). A message says only *which* family changed, ``{"type":
"family", "family": ID}``, or that the person's families did (``{"type": "families"}``:
they joined one, left one or were removed); the page then asks the routes of
``/api/families`` what is new, as a member.

Like a table's, these are wake-ups and the database the truth: a family's tables, seats
and status changing publish the key :func:`~briscola.server.broadcast.family_key`, a
person's memberships changing :func:`~briscola.server.broadcast.person_key`, locally and,
with Redis, to every process (:func:`heard`). The connection is the session's: it closes
with 4401 when the session ends, as a table's does, and counts towards the limits of
connections per person and per address.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from briscola.server.broadcast import (
    FAMILY,
    PERSON,
    Broadcaster,
    Subscription,
    family_key,
    person_key,
)
from briscola.server.deps import COOKIE, address, digest, guards_of, player_of, tables_of
from briscola.server.failures import database_away
from briscola.server.sessions import SIGNED_OUT
from briscola.server.socket import TRY_AGAIN, refuse_socket
from briscola.storage import Storage

log = logging.getLogger("briscola.server")

router = APIRouter()

GATHER = 0.25
"""Seconds a connection waits after a wake-up for the ones that come with it (a table
opened and its seats filled at once): one message for each family changed meanwhile."""


async def heard(broadcaster: Broadcaster, key: str) -> bool:
    """A wake-up from another process: wake the news connections here, if it names a
    family or a person (``True``)."""
    if not key.startswith((FAMILY, PERSON)):
        return False
    await broadcaster.wake(key)
    return True


class Flag(Subscription):
    """A key of a :class:`Watch`: its wake-up tells the watch which key woke."""

    def __init__(self, watch: Watch, key: str) -> None:
        super().__init__()
        self.watch, self.key = watch, key

    def wake(self) -> None:
        self.watch.wake(self.key)


class Watch:
    """One connection's keys: :meth:`changed` returns the keys woken since it last
    returned, waiting for one."""

    def __init__(self, broadcaster: Broadcaster) -> None:
        self.broadcaster = broadcaster
        self.subs: dict[str, Subscription] = {}
        self.woken: set[str] = set()
        self.event = asyncio.Event()

    def follow(self, keys: set[str]) -> None:
        """Follow exactly ``keys`` from now on."""
        for key in set(self.subs) - keys:
            self.broadcaster.unsubscribe(key, self.subs.pop(key))
        for key in keys - set(self.subs):
            self.subs[key] = self.broadcaster.subscribe(key, Flag(self, key))

    def wake(self, key: str) -> None:
        self.woken.add(key)
        self.event.set()

    async def changed(self) -> set[str]:
        await self.event.wait()
        await asyncio.sleep(GATHER)
        self.event.clear()
        woken, self.woken = self.woken, set()
        return woken

    def close(self) -> None:
        self.follow(set())


@router.websocket("/api/session/news")
async def news_socket(websocket: WebSocket) -> None:
    """The signed-in person's news (this module's documentation). Without a live session
    it closes at once with 4401; with the database away, with 1013 (try again)."""
    await websocket.accept()
    tables, guards = tables_of(websocket), guards_of(websocket)
    cookie = websocket.cookies.get(COOKIE)
    try:
        player = await player_of(tables, cookie, guards.idle)
    except Exception as e:
        if not database_away(e):
            raise
        await websocket.close(code=TRY_AGAIN, reason="the database did not answer")
        return
    if player is None or cookie is None:
        await websocket.close(code=SIGNED_OUT, reason="no session: choose a nickname first")
        return
    here = address(websocket)
    if not guards.sockets_here.enter(here):
        await refuse_socket(websocket, "too many connections are open from your address")
        return
    try:
        if not guards.sockets_of.enter(player.id):
            await refuse_socket(websocket, "you hold too many connections open already")
            return
        key = digest(cookie)
        guards.session_sockets.setdefault(key, set()).add(websocket)
        try:
            await tell(websocket, tables.broadcaster, tables.storage, player.id)
        finally:
            guards.sockets_of.leave(player.id)
            if (held := guards.session_sockets.get(key)) is not None:
                held.discard(websocket)
                if not held:
                    del guards.session_sockets[key]
    finally:
        guards.sockets_here.leave(here)


async def tell(
    websocket: WebSocket, broadcaster: Broadcaster, storage: Storage, player: int
) -> None:
    """Send the person's news until the connection closes (the client's frames are read
    and dropped: it has nothing to say)."""
    watch = Watch(broadcaster)
    me = person_key(player)

    async def families() -> None:
        mine = await storage.families_of(player)
        watch.follow({me, *(family_key(f.id) for f, _ in mine)})

    async def reader() -> None:
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                await websocket.receive_text()

    async def writer() -> None:
        await families()
        await websocket.send_json({"type": "ready"})
        while True:
            woken = await watch.changed()
            if me in woken:
                await families()
                await websocket.send_json({"type": "families"})
            for key in sorted(woken - {me}):
                if key in watch.subs:  # (not a family just left)
                    family = int(key.removeprefix(FAMILY))
                    await websocket.send_json({"type": "family", "family": family})

    reading = asyncio.create_task(reader())
    writing = asyncio.create_task(writer())
    try:
        done, _ = await asyncio.wait({reading, writing}, return_when=asyncio.FIRST_COMPLETED)
        error = next((t.exception() for t in done if not t.cancelled() and t.exception()), None)
        if error is not None and database_away(error):
            with contextlib.suppress(Exception):
                await websocket.close(code=TRY_AGAIN, reason="the database did not answer")
        elif error is not None and not isinstance(error, (WebSocketDisconnect, RuntimeError)):
            raise error  # (a disconnect or a send on a closed socket ends it quietly)
    finally:
        for task in (reading, writing):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        watch.close()
