"""Wake-ups for the connections of a table.

The database is the truth and a broadcast only a wake-up: a table that changed publishes
its key, and each connection subscribed to it wakes and asks the table what is new for
its seat. :class:`InProcess` serves one server process; a broadcaster shared by several
processes (through Redis, say) implements the same two methods.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Protocol


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


class Broadcaster(Protocol):
    def subscribe(self, key: str) -> Subscription: ...

    def unsubscribe(self, key: str, sub: Subscription) -> None: ...

    async def publish(self, key: str) -> None: ...


class InProcess:
    """The broadcaster of a single server process."""

    def __init__(self) -> None:
        self._subs: defaultdict[str, set[Subscription]] = defaultdict(set)

    def subscribe(self, key: str) -> Subscription:
        sub = Subscription()
        self._subs[key].add(sub)
        return sub

    def unsubscribe(self, key: str, sub: Subscription) -> None:
        subs = self._subs.get(key)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[key]

    async def publish(self, key: str) -> None:
        for sub in self._subs.get(key, ()):
            sub.wake()
