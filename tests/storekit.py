"""What the storage tests share: a fixed time, a clock the test moves, session tokens'
digests, and the newest migration. Their fixtures (``url``, ``store``, ``clocked``) are in
tests/storage/conftest.py."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
HEAD = "0010"
"""The newest migration."""


DAY = timedelta(days=1)


def token_hash(n: int) -> str:
    """The SHA-256 hex digest of a session's token, as the server keeps it."""
    return hashlib.sha256(f"token-{n}".encode()).hexdigest()


class Clock:
    """A clock the test moves."""

    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now
