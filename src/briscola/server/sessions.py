"""Sessions that end close their connections, in every process.

A session ends when its person signs out, signs out another device or everywhere, or
leaves it unused past its lifetime. Its WebSockets in this process close at once (code
:data:`SIGNED_OUT`); the other processes sharing the database hear of it through the
wake-ups (a key :data:`KEY` + the token's digest, :func:`heard`), and, as a wake-up may
be lost, every process also looks every :data:`CHECK_EVERY` seconds for the sessions of
its connections that are gone (:func:`check_sockets`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable

from briscola.server.broadcast import Broadcaster
from briscola.server.deps import Guards
from briscola.server.failures import storage_failed
from briscola.server.metrics import Metrics
from briscola.storage import Storage

log = logging.getLogger("briscola.server")

KEY = "session:"
"""The wake-up key of an ended session: this, then its token's digest."""

SIGNED_OUT = 4401
"""The close code of a connection whose session ended."""

CHECK_EVERY = 30.0
"""Seconds between two looks for the ended sessions of this process's connections."""


async def close_here(guards: Guards, hashes: Iterable[str]) -> int:
    """Close this process's connections of the sessions ``hashes``; how many closed."""
    closed = 0
    for key in hashes:
        for ws in list(guards.session_sockets.pop(key, ())):
            with contextlib.suppress(Exception):
                await ws.close(code=SIGNED_OUT, reason="signed out")
            closed += 1
    return closed


async def ended(guards: Guards, broadcaster: Broadcaster, hashes: Iterable[str]) -> None:
    """The sessions ``hashes`` ended: close their connections here, and tell the other
    processes."""
    hashes = list(hashes)
    await close_here(guards, hashes)
    for key in hashes:
        await broadcaster.publish(KEY + key)


async def heard(guards: Guards, key: str) -> bool:
    """A wake-up from another process: close the connections of the session it names,
    if it names one (``True``); ``False`` for a table's."""
    if not key.startswith(KEY):
        return False
    await close_here(guards, [key.removeprefix(KEY)])
    return True


async def check_sockets(guards: Guards, storage: Storage) -> int:
    """Close the connections whose session is gone from the database; how many closed."""
    held = list(guards.session_sockets)
    if not held:
        return 0
    alive = await storage.session_hashes(held)
    return await close_here(guards, [h for h in held if h not in alive])


async def watch_sockets(guards: Guards, storage: Storage, metrics: Metrics) -> None:
    """:func:`check_sockets` every :data:`CHECK_EVERY` seconds, until cancelled."""
    while True:
        await asyncio.sleep(CHECK_EVERY)
        try:
            if closed := await check_sockets(guards, storage):
                log.info("%d connections of ended sessions closed", closed)
        except Exception as e:
            storage_failed(
                metrics, "sessions", e, "the sessions of the connections were not checked"
            )
