"""The server's settings: where it keeps its data and how its tables behave."""

from __future__ import annotations

import logging
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from briscola.server.limits import Limits

log = logging.getLogger("briscola.server")


@dataclass(frozen=True)
class ServerSettings:
    """How one server process runs.

    ``data`` is the folder of the SQLite database (unless ``database_url`` names another
    database), which keeps the players' sessions too: a restarted server keeps them. It
    is its owner's alone (:meth:`data_folder`)."""

    data: Path = Path("briscola-data")
    database_url: str | None = None
    """``sqlite+aiosqlite:///...`` or ``postgresql+asyncpg://...``; default: SQLite in
    ``data``."""
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
    public_url: str | None = None
    """The address people open the server at, behind a reverse proxy
    (``https://cards.example.org``): then pages of that origin alone may act here
    (:mod:`briscola.server.guard`), and over https the session cookie is ``Secure``.
    Unset, the server answers pages of the address each request was sent to."""
    cookie_secure: bool | None = None
    """Whether the session cookie is sent over https alone; by default, when
    ``public_url`` is https."""
    session_idle: float = 90 * 24 * 3600.0
    """Seconds a session lasts unused: past them it ends, and its nickname must be chosen
    again (each use starts the count again)."""
    redis_url: str | None = None
    """Redis (``redis://HOST:PORT/DB``), for several server processes sharing one
    PostgreSQL database: it carries their wake-ups (:mod:`briscola.server.broadcast`).
    Unset, this process is the only one serving its database."""
    follow_every: float = 3.0
    """Seconds between two looks, with several processes, at the stored versions of the
    tables loaded here (a wake-up missed); while Redis is away, every table is caught up
    as often."""
    append_gather: float = 0.002
    """Seconds a move waits, on PostgreSQL, for the moves made meanwhile to be stored in
    the same statement (group commit): each statement costs the server and the database
    about as much for one move as for fifty. SQLite stores at once: its appends are
    cheap (``0``: PostgreSQL stores at once too)."""
    wakeup_gather: float = 0.005
    """Seconds, with several processes, between two messages of wake-ups this process
    sends through Redis: the tables changed meanwhile go in one message (each costs the
    sender a write and each other process a read, about as much for one table as for
    many). It delays what another process shows by as much."""
    lease: float = 30.0
    """Seconds a deadline claimed by a process (a clock run out, a computer player's
    move) stays its own: if it has not acted by then (it died), another process may."""
    metrics: str = "local"
    """Who may read ``/metrics``: ``local`` (this machine, asked directly, not through a
    proxy), ``on`` (anyone), ``off`` (nobody), or networks separated by commas
    (:class:`briscola.server.metrics.Access`)."""
    stop_timeout: float = 10.0
    """Seconds a process stopping (SIGTERM) gives its tables and connections to finish
    what they are doing before it ends anyway (:func:`briscola.server.app.drain`)."""
    limits: Limits = field(default_factory=Limits)
    """How much one person or address may ask (:class:`~briscola.server.limits.Limits`)."""
    hint_queue: int = 6
    """The most hints waiting or being worked out at once in this process (in a worker
    process of low priority); past them ``503 busy`` with ``Retry-After``."""
    analysis_queue: int = 8
    """The most hands' analyses waiting or being computed at once in this process; past
    them ``503 busy`` with ``Retry-After``."""

    @property
    def secure_cookie(self) -> bool:
        """Whether the session cookie carries ``Secure``."""
        if self.cookie_secure is not None:
            return self.cookie_secure
        return bool(self.public_url and self.public_url.strip().lower().startswith("https:"))

    @property
    def url(self) -> str:
        """The database URL in use. The default, SQLite in ``data``, makes the folder
        first when it is missing (:meth:`data_folder`)."""
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{self.data_folder().resolve() / 'briscola.db'}"

    def data_folder(self) -> Path:
        """The folder ``data``, made when missing (with its parents) and kept private:
        readable, writable and searchable by its owner alone (0700), for it holds the
        database (the deals of the hands in play, the sessions). A folder open
        to other users is tightened to its owner's bits, with a warning."""
        self.data.mkdir(mode=0o700, parents=True, exist_ok=True)
        _private(self.data, "the data folder")
        return self.data


def _private(path: Path, what: str) -> None:
    """Take away every permission other users have on ``path`` (its group's and the
    world's), with a warning when there were some."""
    mode = stat.S_IMODE(path.stat().st_mode)
    if not mode & 0o077:
        return
    try:
        os.chmod(path, mode & ~0o077)
    except OSError as e:
        raise OSError(
            f"{what} {path} is open to other users (mode {mode:04o}) and cannot be made "
            f"private: {e.strerror}: run the server as its owner, or take the others' "
            f"permissions away (chmod go= {path})"
        ) from None
    log.warning(
        "%s %s was open to other users (mode %04o): now its owner's alone (%04o)",
        what,
        path,
        mode,
        mode & ~0o077,
    )
