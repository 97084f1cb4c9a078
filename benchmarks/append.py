"""The CPU time of the log's appends: ``Storage.append_action`` on many tables at once.

    python benchmarks/append.py [--url URL] [--appends 3000] [--tables 50]

Opens the storage at ``--url`` (by default SQLite in a temporary folder; a PostgreSQL
URL such as the one ``scripts/postgres start DIR`` prints), starts ``--tables`` briscola-2
tables, then appends ``--appends`` actions, one round of all the tables at a time (so
that the appends wait together and are stored as batches, as on a busy server), and
reports the CPU time and the wall time an append in this process.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time

from briscola.engine.deal import shuffled_deal
from briscola.engine.rules import Rules
from briscola.storage import NewHand, Seat, Storage


async def run(url: str, appends: int, tables: int) -> None:
    store = await Storage.open(url)
    try:
        rules = Rules.make("briscola-2")
        deal = shuffled_deal(rules, dealer=0, rng=random.Random(1)).to_json()
        player = await store.create_player("bench")
        ids = []
        for _ in range(tables):
            seats = [Seat(player=player.id), Seat(player=player.id)]
            t = await store.create_table("briscola-2", {}, seats, host=player.id, public=False)
            await store.start_table(t.id, {"dealer": 0, "seating": [0, 1]}, [NewHand(1, deal)])
            ids.append(t.id)
        action = {"seat": 0, "play": "Ab"}  # the storage does not check what it logs
        rounds = max(1, appends // tables)
        cpu, wall = time.process_time(), time.perf_counter()
        for version in range(1, rounds + 1):
            await asyncio.gather(*(store.append_action(t, version, action) for t in ids))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        n = rounds * tables
        kind = url.split(":", 1)[0]
        print(
            f"{kind}: {n:,} appends over {tables} tables: {cpu / n * 1e3:.3f} ms CPU and "
            f"{wall / n * 1e3:.3f} ms wall an append"
        )
    finally:
        await store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", help="the database (default: SQLite in a temporary folder)")
    ap.add_argument("--appends", type=int, default=3000)
    ap.add_argument("--tables", type=int, default=50)
    args = ap.parse_args()
    if args.appends < 1 or args.tables < 1:
        ap.error("--appends and --tables must be at least 1")
    with tempfile.TemporaryDirectory() as folder:
        url = args.url or f"sqlite+aiosqlite:///{folder}/briscola.db"
        asyncio.run(run(url, args.appends, args.tables))


if __name__ == "__main__":
    main()
