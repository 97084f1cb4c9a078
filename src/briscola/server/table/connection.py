"""One client's WebSocket at a live table, as the table sees it: who it is, what it was
last sent, the replies queued for it alone, and how the process stops it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class Closer(Protocol):
    """How the process stops one connection gracefully (its socket's own)."""

    async def hold(self) -> None:
        """Return once the connection handles no message, and let it handle no other."""
        ...

    async def close(self) -> None:
        """Send what is new for it, then close it with 1012 (service restart)."""
        ...


@dataclass
class Connection:
    """One client's WebSocket at a table: who it is and what it was last sent."""

    player: int | None
    seat: int | None
    number: int = -1
    """The number, in its seat's stream, of the last message sent (-1: nothing sent yet).
    It is the ``version`` of the frames the connection is sent."""
    from_start: bool = False
    """Whether the client asked for what came after 0 (``?since=0``, ``sync`` 0): 0 is the
    table waiting as well as the first hand before its first action, so its update begins
    with the match's start."""
    meta: int = -1
    chat: int = 0
    outbox: list[str] = field(default_factory=list)
    """Replies to this connection alone (errors, pongs), sent after what is new."""
    closer: Closer | None = None
    """How to stop it when the process stops (:meth:`Tables.drain`)."""

    def reply(self, text: str) -> bool:
        """Queue a reply; whether it was kept. A client that reads nothing while it sends
        (its socket full, the writer waiting) has at most :data:`OUTBOX` replies kept:
        the others are dropped, so that its replies never pile up."""
        if len(self.outbox) >= OUTBOX:
            return False
        self.outbox.append(text)
        return True


OUTBOX = 256
"""The most replies kept for a connection that does not read them."""
