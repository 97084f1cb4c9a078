"""The lobby's cost at a server process that shares its database with others (issue 40).

    python benchmarks/lobby.py [--database-url URL] [--tables 100] [--finished 1000]
                               [--rounds 20]

Two :class:`~briscola.server.tables.Tables` on one database stand for two server
processes (``redis_url`` set: shared). A opens ``--tables`` public tables waiting for
players, and ``--finished`` public tables more that are over; B has the waiting ones
loaded. Then B answers the lobby (``GET /api/tables``'s route, called directly)
``--rounds`` times, nothing having changed: reported are the statements each answer ran
(SQLAlchemy's cursor events) and its mean wall time. On SQLite in a temporary folder
unless ``--database-url`` names a database (a fresh one: the tables are added to it).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from typing import Any

import sqlalchemy as sa

from briscola.server.broadcast import InProcess
from briscola.server.messages import TableIn
from briscola.server.routes.tables import lobby
from briscola.server.settings import ServerSettings
from briscola.server.tables import Tables
from briscola.storage import OPEN, Storage
from briscola.storage import schema as s


async def measure(url: str, tables: int, finished: int, rounds: int) -> dict[str, float]:
    """Statements and milliseconds of one lobby answered at B (the means of ``rounds``)."""
    settings = ServerSettings(database_url=url, redis_url="redis://unused")
    a, b = [Tables(await Storage.open(url), settings, InProcess()) for _ in range(2)]
    try:
        ana = await a.storage.create_player("Ana")
        for _ in range(finished):
            info = await a.storage.create_table(
                "briscola-2", {}, [OPEN, OPEN], host=ana.id, public=True
            )
            async with a.storage.engine.begin() as conn:
                done = s.tables.update().where(s.tables.c.id == info.id)
                await conn.execute(done.values(status="finished"))
        spec = TableIn(game="briscola-2", public=True)
        for _ in range(tables):
            await b.get((await a.create(ana.id, spec)).token)
        statements = 0

        def count(*_: Any) -> None:
            nonlocal statements
            statements += 1

        sa.event.listen(b.storage.engine.sync_engine, "before_cursor_execute", count)
        listed = await lobby(b, None)  # (once before: anything to catch up is caught up)
        assert len(listed) == min(tables, 100), len(listed)
        statements = 0
        began = time.perf_counter()
        for _ in range(rounds):
            await lobby(b, None)
        took = time.perf_counter() - began
        return {"statements": statements / rounds, "ms": 1000 * took / rounds}
    finally:
        for process in (a, b):
            await process.close()
            await process.storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--finished", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as where:
        url = args.database_url or f"sqlite+aiosqlite:///{where}/briscola.sqlite"
        got = asyncio.run(measure(url, args.tables, args.finished, args.rounds))
    print(
        f"lobby of {min(args.tables, 100)} tables ({args.finished} finished besides), "
        f"shared: {got['statements']:.0f} statements, {got['ms']:.1f} ms"
    )


if __name__ == "__main__":
    main()
