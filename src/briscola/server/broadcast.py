"""Wake-ups for the connections of a table.

The database is the truth and a broadcast only a wake-up: a table that changed publishes
its key, and each connection subscribed to it wakes and asks the table what is new for
its seat. :class:`InProcess` serves one server process. :class:`RedisWakeups` serves
several that share one database: a table changed in one process is published on a Redis
channel, and every other process that has the table loaded catches up with it from the
database (:meth:`LiveTable.follow`), then wakes its own connections.

Redis pub/sub, not Redis Streams: a wake-up carries no state, only "table T changed", so
a lost one costs a delay, never a move. Pub/sub is at-most-once (a process not listening
at that moment misses it), and that is enough because each process also looks at the
stored versions of the tables it follows every few seconds, and at all of them at once
whenever its Redis connection comes back (:meth:`Tables.follow_all`): whatever it missed,
it reads from the log by version. Streams would deliver at least once, at the price of
trimming, consumer groups and acknowledgements, to carry what the log carries already.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger("briscola.server")


class Subscription:
    """One connection's wake-up: :meth:`wait` returns once the table changed since the
    last wait (several changes wake it once)."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def wake(self) -> None:
        self._event.set()

    async def wait(self) -> None:
        await self._event.wait()
        self._event.clear()


ALL = "acpt"
"""The parts of a table a wake-up may name: ``a`` its log (the actions and the hands they
dealt), ``c`` its chat, ``p`` who is connected at other processes, ``t`` its row (seats,
status, settings). A process that follows the table reads only those named."""


FAMILY = "family:"
PERSON = "person:"


def family_key(family: int) -> str:
    """The wake-up key of a family's tables (opened, seated, started, finished), which
    the news of its members follow (:mod:`briscola.server.news`)."""
    return f"{FAMILY}{family}"


def person_key(player: int) -> str:
    """The wake-up key of a person's families (joined, left, removed from)."""
    return f"{PERSON}{player}"


class Broadcaster(Protocol):
    def subscribe(self, key: str, sub: Subscription | None = None) -> Subscription:
        """Wake ``sub`` (a new one when not given) whenever ``key`` changes."""

    def unsubscribe(self, key: str, sub: Subscription) -> None: ...

    async def publish(self, key: str, parts: str = ALL) -> None:
        """The table ``key`` changed here (its ``parts``, :data:`ALL` when unsure): wake its
        connections, in every process."""

    async def wake(self, key: str) -> None:
        """The table ``key`` changed, and this process has caught up: wake its
        connections here alone."""


class InProcess:
    """The broadcaster of a single server process."""

    def __init__(self) -> None:
        self._subs: defaultdict[str, set[Subscription]] = defaultdict(set)

    def subscribe(self, key: str, sub: Subscription | None = None) -> Subscription:
        sub = sub or Subscription()
        self._subs[key].add(sub)
        return sub

    def unsubscribe(self, key: str, sub: Subscription) -> None:
        subs = self._subs.get(key)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[key]

    async def publish(self, key: str, parts: str = ALL) -> None:
        for sub in self._subs.get(key, ()):
            sub.wake()

    async def wake(self, key: str) -> None:
        await InProcess.publish(self, key)


CHANNEL = "briscola:tables"
"""The Redis channel of every table's wake-ups: ``ORIGIN TOKEN PARTS [TOKEN PARTS ...]``,
one message for the tables a process changed at once (:data:`ALL` when a last ``PARTS`` is
left out)."""

BATCH = 500
"""The most tables one message names."""


class RedisWakeups(InProcess):
    """The wake-ups of one server process among several, through Redis pub/sub on
    :data:`CHANNEL` (see the module's documentation). ``changed(token, parts)`` is called
    for each table another process published; ``missed()`` when the subscription starts
    again after Redis was away (wake-ups may have been lost meanwhile). Publishing never
    fails a command, nor waits for Redis: the tables changed are gathered and sent by a
    task of their own, those that came in together in one message (as the moves of a
    busy server, stored together, come back together: one message for them all, not one
    each); with Redis away, the others find the change by looking."""

    def __init__(
        self,
        url: str,
        changed: Callable[[str, str], Awaitable[None]],
        missed: Callable[[], Awaitable[None]],
        gather: float = 0.0,
    ) -> None:
        super().__init__()
        import redis.asyncio as aioredis

        self.client: Any = aioredis.Redis.from_url(
            url, socket_connect_timeout=2, socket_timeout=5, health_check_interval=10
        )
        self.origin = f"{os.getpid()}-{secrets.token_hex(4)}"
        """This process among those sharing the channel."""
        self.changed = changed
        self.missed = missed
        self.up = False
        """Whether the subscription is listening now."""
        self.lost = 0
        """How many wake-ups were not published (Redis away)."""
        self._outgoing: dict[str, str] = {}
        """The tables changed here and not yet published, with their parts."""
        self._sender: asyncio.Task[None] | None = None
        self.gather = gather
        """Seconds before each message: the tables changed meanwhile go with it."""

    async def publish(self, key: str, parts: str = ALL) -> None:
        await super().publish(key)
        had = self._outgoing.get(key, "")
        self._outgoing[key] = had + "".join(p for p in parts if p not in had)
        if self._sender is None:
            self._sender = asyncio.create_task(self._send())

    async def _send(self) -> None:
        """Publish the wake-ups gathered, in messages of :data:`BATCH` tables at most, one
        every :attr:`gather` seconds at most, until none is left."""
        try:
            while True:
                if self.gather > 0:
                    await asyncio.sleep(self.gather)
                if not self._outgoing:
                    break
                keys = list(self._outgoing)[:BATCH]
                batch = {k: self._outgoing.pop(k) for k in keys}
                message = " ".join([self.origin, *(f"{k} {p}" for k, p in batch.items())])
                try:
                    await self.client.publish(CHANNEL, message)
                except Exception as e:  # redis.RedisError, OSError, a timeout: the log has it
                    first = self.lost == 0
                    self.lost += len(batch)
                    if first or self.lost // 1000 > (self.lost - len(batch)) // 1000:
                        log.warning(
                            "Redis: wake-ups were not published (%d so far): %s", self.lost, e
                        )
        finally:
            self._sender = None

    async def flush(self) -> None:
        """Return once the wake-ups gathered so far were published (or given up)."""
        while self._sender is not None:
            await asyncio.shield(self._sender)

    async def listen(self) -> None:
        """Follow the channel until cancelled, subscribing again whenever Redis comes
        back (each time after telling :attr:`missed`)."""
        pause = 0.2
        while True:
            pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                self.up, pause = True, 0.2
                log.info("Redis: listening to %s", CHANNEL)
                await self.missed()
                async for message in pubsub.listen():
                    origin, *named = message["data"].decode().split(" ")
                    if origin == self.origin:
                        continue
                    for i in range(0, len(named), 2):
                        if named[i]:
                            await self.changed(
                                named[i], named[i + 1] if i + 1 < len(named) else ALL
                            )
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if self.up:
                    log.warning("Redis: the subscription was lost (%s); trying again", e)
            finally:
                self.up = False
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(pause)
            pause = min(2 * pause, 2.0)

    async def ping(self) -> None:
        """Return once Redis answers ``PING`` (the readiness check ``redis``); raise what
        the client raised when it does not."""
        await self.client.ping()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.flush(), 2)
        with contextlib.suppress(Exception):
            await self.client.aclose()
