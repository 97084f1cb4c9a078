"""The server's settings: where it keeps its data and how its tables behave."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ServerSettings:
    """How one server process runs.

    ``data`` is the folder of the SQLite database (unless ``database_url`` names another
    database) and of the secret that signs the session cookies (unless ``secret`` is
    given): a restarted server keeps its players' sessions."""

    data: Path = Path("briscola-data")
    database_url: str | None = None
    """``sqlite+aiosqlite:///...`` or ``postgresql+asyncpg://...``; default: SQLite in
    ``data``."""
    secret: str | None = None
    grace: float = 60.0
    """Seconds a seated player may stay away from a table in play before a computer
    player stands in for them (until they come back)."""
    min_clock: float = 5.0
    """The shortest per-move clock a table may have, in seconds."""
    bot_delay: float = 0.6
    """Seconds a computer player waits before its move, so that people can follow."""
    stand_in: str = "intermediate"
    """The level of the computer player that stands in for an absent player, or moves
    for one whose clock ran out, unless the table names another."""
    max_frame: int = 16_384
    """The longest WebSocket message a client may send, in bytes."""
    recent: int = 256
    """How many of its last actions a table keeps in memory for clients catching up; a
    client further behind gets a snapshot of its view."""
    flood: tuple[int, float] = (200, 30.0)
    """A connection refused more than this many messages for flooding within this many
    seconds is closed (close code 1008); one refused now and then stays."""
    chat_length: int = 300
    """The longest chat message, in characters."""
    tick: float = 0.25
    """Seconds between two looks at the stored deadlines."""
    idle_unload: float = 120.0
    """Seconds after a table's last command, connection or look (``Tables.get``) from
    which it may leave memory, when nobody is connected and no computer player is to
    act: finished tables, waiting ones, and those whose turn is an absent person's
    (their stored deadlines still fire). It is loaded again from storage when asked for."""
    sweep: float = 30.0
    """Seconds between two looks for idle tables to unload (``Tables.sweep``)."""
    collect_every: float = 600.0
    """Seconds between two full passes of the garbage collector (``run.collector``)."""
    cookie_secure: bool = False

    @property
    def url(self) -> str:
        """The database URL in use."""
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{self.data.resolve() / 'briscola.db'}"

    def signing_secret(self) -> str:
        """The secret that signs session cookies: ``secret``, else ``BRISCOLA_SECRET``, else
        the one kept in ``data/secret`` (made on first use, readable by its owner only)."""
        if self.secret:
            return self.secret
        if env := os.environ.get("BRISCOLA_SECRET"):
            return env
        self.data.mkdir(parents=True, exist_ok=True)
        path = self.data / "secret"
        try:
            return path.read_text().strip()
        except FileNotFoundError:
            value = secrets.token_urlsafe(32)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(value + "\n")
            return value
