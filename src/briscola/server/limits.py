"""How much one person, or one address, may ask of the server.

:class:`Rate` is a limit on how often (a burst at once, then one more every so many
seconds); :class:`Limits` gathers the server's limits (``ServerSettings.limits``), and
:data:`OFF` lifts them, for benchmarks and tests that play many people from one address.
:class:`Buckets` keeps a token bucket for each key (an address, a player) and
:class:`Counts` what each key holds open at once (its connections). Both keep at most a
bounded number of keys, forgetting first those that have nothing left to limit.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass


@dataclass(frozen=True)
class Rate:
    """At most ``burst`` at once, then one more every ``every`` seconds."""

    burst: int
    every: float

    def says(self, what: str) -> str:
        """The limit in words: 'at most 10 new tables at once, then one every 30 s'."""
        return f"at most {self.burst} {what} at once, then one every {self.every:g} s"


@dataclass(frozen=True)
class Limits:
    """The limits of one server process; each is per person (a session's player) or per
    address (the client's, or the one a trusted reverse proxy names)."""

    sessions_per_address: Rate = Rate(10, 60.0)
    """New sessions (nicknames chosen) from one address."""
    tables_per_person: Rate = Rate(20, 30.0)
    """New tables one person opens (rematches too)."""
    tables_per_address: Rate = Rate(60, 10.0)
    """New tables opened from one address."""
    public_per_person: int = 3
    """Public tables one person hosts that are open at once (waiting for players, or in
    play); a waiting table left for a day no longer counts."""
    public_per_address: int = 10
    """Public tables opened from one address that are open at once."""
    connections_per_person: int = 16
    """WebSockets one person holds open at once, over every table."""
    connections_per_address: int = 100
    """WebSockets open at once from one address."""
    codes_per_person: Rate = Rate(5, 60.0)
    """One-time codes one person makes to bring in another device."""
    sign_in_tries_per_address: Rate = Rate(10, 30.0)
    """Sign-ins tried from one address (a one-time code or a passkey), right or wrong: a
    code of 8 letters of 30 lives 5 minutes, so that guessing one is hopeless at this
    pace."""
    hints_per_person: Rate = Rate(10, 2.0)
    """Hints one person asks for (a search of a third of a second or more each): enough
    for one at every card of a quick game."""
    hints_per_address: Rate = Rate(20, 1.0)
    """Hints asked for from one address."""
    analyses_per_person: Rate = Rate(4, 15.0)
    """Hands' analyses one person has computed (a search of seconds each); one kept
    already, or being computed, costs nothing."""
    analyses_per_address: Rate = Rate(4, 15.0)
    """Hands' analyses computed at the asking of one address (with a session or
    without)."""


BIG = 10**9

OFF = Limits(
    sessions_per_address=Rate(BIG, 1e-9),
    tables_per_person=Rate(BIG, 1e-9),
    tables_per_address=Rate(BIG, 1e-9),
    public_per_person=BIG,
    public_per_address=BIG,
    connections_per_person=BIG,
    connections_per_address=BIG,
    codes_per_person=Rate(BIG, 1e-9),
    sign_in_tries_per_address=Rate(BIG, 1e-9),
    hints_per_person=Rate(BIG, 1e-9),
    hints_per_address=Rate(BIG, 1e-9),
    analyses_per_person=Rate(BIG, 1e-9),
    analyses_per_address=Rate(BIG, 1e-9),
)
"""No limit to speak of: ``briscola serve --limits off``."""


class Buckets:
    """A token bucket of ``rate`` for each key. :meth:`take` spends a token of ``key``'s
    bucket, answering ``0`` when it could, else the seconds until one is back."""

    def __init__(
        self,
        rate: Rate,
        most: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.most = most
        self.clock = clock
        self._buckets: dict[Hashable, tuple[float, float]] = {}
        """key -> (tokens, when they were counted)"""

    def _level(self, key: Hashable, now: float) -> float:
        tokens, at = self._buckets.get(key, (float(self.rate.burst), now))
        return min(float(self.rate.burst), tokens + (now - at) / self.rate.every)

    def take(self, key: Hashable) -> float:
        now = self.clock()
        level = self._level(key, now)
        if level < 1:
            return math.ceil((1 - level) * self.rate.every * 10) / 10
        if len(self._buckets) >= self.most and key not in self._buckets:
            self._forget(now)
        self._buckets[key] = (level - 1, now)
        return 0.0

    def _forget(self, now: float) -> None:
        """Drop the keys whose buckets are full again (they limit nothing), and, if that
        is not enough, the oldest half."""
        full = [k for k in self._buckets if self._level(k, now) >= self.rate.burst]
        for k in full:
            del self._buckets[k]
        if len(self._buckets) >= self.most:
            by_age = sorted(self._buckets, key=lambda k: self._buckets[k][1])
            for k in by_age[: len(by_age) // 2]:
                del self._buckets[k]


class Counts:
    """How many of something each key holds open at once, up to ``most`` each."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._counts: dict[Hashable, int] = {}

    def enter(self, key: Hashable) -> bool:
        """Count one more for ``key``; ``False`` (nothing counted) when it holds the most."""
        n = self._counts.get(key, 0)
        if n >= self.most:
            return False
        self._counts[key] = n + 1
        return True

    def leave(self, key: Hashable) -> None:
        n = self._counts.get(key, 0) - 1
        if n > 0:
            self._counts[key] = n
        else:
            self._counts.pop(key, None)

    def __getitem__(self, key: Hashable) -> int:
        return self._counts.get(key, 0)


__all__ = ["OFF", "Buckets", "Counts", "Limits", "Rate"]
