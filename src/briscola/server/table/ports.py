"""What a live table's helpers reach: the server process holding the table
(:class:`Server`, which :class:`~briscola.server.tables.Tables` is) and the table's one
writer (:class:`Writer`, which :class:`~briscola.server.table.writer.LiveTable` is).

Each helper (seating, bots, clock, presence, follow, chat, hints, the view) is handed the
writer when the table is made, and reaches it through :class:`Writer`, or through a
Protocol of its own module that adds the other helpers it calls. No helper imports the
writer's module: the lock, the log and the store stay in one place, and a helper reads
alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Protocol

from briscola.engine import Action, Match, Rules
from briscola.fair_shuffle import FairDeals
from briscola.host import Audience, Table
from briscola.server.analyses import Analyst
from briscola.server.broadcast import ALL, Broadcaster
from briscola.server.metrics import Metrics
from briscola.server.settings import ServerSettings
from briscola.storage import Storage, TableInfo


class Server(Protocol):
    """What a live table needs of the server process holding it."""

    storage: Storage
    settings: ServerSettings
    broadcaster: Broadcaster
    names: dict[int, str]
    """Nicknames by player id, as far as they are known."""
    metrics: Metrics
    draining: bool
    """Whether the process is stopping: no computer player moves any more."""
    analyst: Analyst
    """The finished hands' analyses, and their worker process."""

    @property
    def executor(self) -> Executor:
        """Where the computer players think."""
        ...

    async def learn_names(self, players: Sequence[int | None]) -> dict[int, str]:
        """Look up the nicknames of ``players`` that are not known yet."""
        ...

    @property
    def shared(self) -> bool:
        """Whether other server processes share the database (and act at its tables)."""
        ...

    @property
    def process(self) -> str:
        """This server process among those sharing the database."""
        ...


class Writer(Protocol):
    """A table's one writer, as its helpers reach it: the table as stored, its match, its
    lock, and the writer's own steps (an action taken and stored, the match loaded)."""

    info: TableInfo
    """The table as stored; its ``version`` is that of the last action replayed here."""
    deals: FairDeals | None
    """The fair deal source of the match (``None`` before the start)."""
    stored_hands: int
    """How many of the match's hands are stored."""
    revealed: int
    """How many finished hands are stored to their last move (their salts are told)."""
    meta: int
    """Bumped at each change of what the table's description shows."""

    @property
    def server(self) -> Server: ...

    @property
    def storage(self) -> Storage: ...

    @property
    def settings(self) -> ServerSettings: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def lock(self) -> asyncio.Lock:
        """Held by every command of the table: one at a time."""
        ...

    @property
    def host(self) -> Table | None:
        """The match in the table host (``None`` before the start)."""
        ...

    @property
    def storing(self) -> bool:
        """Whether the match holds an action not stored yet (nobody is told anything)."""
        ...

    @property
    def token(self) -> str: ...

    @property
    def version(self) -> int: ...

    @property
    def match(self) -> Match | None: ...

    def number(self, seat: Audience) -> int:
        """The number of the last message of ``seat``'s stream."""
        ...

    def seat_of(self, player: int | None) -> int | None:
        """The seat ``player`` sits at (``None``: none)."""
        ...

    def touch(self) -> None:
        """Something happened at the table: its idle time starts again."""
        ...

    def playing(self) -> Table:
        """The host of the match in play; :class:`Refused` when there is none."""
        ...

    def host_match(self, match: Match) -> None:
        """Host ``match``, its computer players seated."""
        ...

    async def take(
        self, seat: int, action: Action, *, bot: bool = False, ref: str | None, number: int
    ) -> None:
        """Apply ``action`` at the host, store it, tell (the lock held)."""
        ...

    async def after_action(self, parts: str = ALL) -> None:
        """Set the clock, wake the connections, let a computer player move."""
        ...

    async def load(self) -> None:
        """Rebuild the match from storage."""
        ...

    async def reload(self) -> None:
        """Forget the match in memory and rebuild it from storage."""
        ...
