"""A family's standings from its stored matches: how long the server takes to read the
results of ``--matches`` finished matches from the database and compute the standings
(the ratings overall and of the month, head to head, the pairs), as
``GET /api/families/{id}/standings`` does.

    python benchmarks/standings.py [--matches 1000] [--people 8] [--seed 0] [--json FILE]

The matches are stored straight into a fresh SQLite database in a temporary folder (a
family's tables, each finished with its seats, its people and a record's result), half
of them briscola-2 and half briscola-4, the seats drawn from ``--people`` people and two
computer levels. It reports the wall time of the read and of the computation, the best
of three runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from briscola.server.standings import standings
from briscola.storage import Storage, schema


async def fill(store: Storage, family: int, matches: int, people: list[int], seed: int) -> None:
    """Store ``matches`` finished matches of the family, straight into its tables."""
    rng = random.Random(seed)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    levels = ["beginner", "champion"]
    tables, seats, finished, played = [], [], [], []
    for n in range(matches):
        game, size = ("briscola-2", 2) if n % 2 == 0 else ("briscola-4", 4)
        at = start + timedelta(minutes=30 * n)
        tid = n + 1
        tables.append(
            {
                "id": tid, "token": f"bench-{tid}", "public": False, "game": game,
                "rules": {}, "host": people[0], "status": "finished", "version": 40,
                "start": None, "settings": {}, "created": at, "updated": at,
                "family": family,
            }
        )  # fmt: skip
        who = rng.sample([*people, -1, -2], size)  # -1, -2: the computer levels
        for seat, p in enumerate(who):
            level = levels[-p - 1] if p < 0 else None
            seats.append(
                {"table_id": tid, "seat": seat, "player": None if p < 0 else p, "level": level}
            )
            if p >= 0:
                played.append({"table_id": tid, "seat": seat, "player": p})
        first = rng.randrange(2)
        winners = [first] if size == 2 else [first, first + 2]
        record = {"game": game, "result": {"over": True, "winners": winners}}
        finished.append({"table_id": tid, "game": game, "record": record, "at": at})
    async with store.engine.begin() as conn:
        await conn.execute(schema.tables.insert(), tables)
        await conn.execute(schema.seats.insert(), seats)
        await conn.execute(schema.finished.insert(), finished)
        await conn.execute(schema.finished_players.insert(), played)


async def measure(matches: int, people: int, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        store = await Storage.open(f"sqlite+aiosqlite:///{folder}/briscola.db")
        try:
            ids = [(await store.create_player(f"P{i}")).id for i in range(people)]
            family = await store.create_family(ids[0], "Bench")
            await fill(store, family.id, matches, ids, seed)
            best = {"read": float("inf"), "compute": float("inf")}
            for _ in range(3):
                t0 = time.perf_counter()
                results = await store.family_results(family.id)
                t1 = time.perf_counter()
                month = datetime(2026, 1, 15, tzinfo=UTC)
                for game in ("briscola-2", "briscola-4"):
                    mine = [r for r in results if r.game == game]
                    standings(mine)
                    standings(mine, since=month)
                t2 = time.perf_counter()
                best = {
                    "read": min(best["read"], t1 - t0),
                    "compute": min(best["compute"], t2 - t1),
                }
            assert len(results) == matches
        finally:
            await store.close()
    return {"matches": matches, **best, "total": best["read"] + best["compute"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--people", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)
    if not 1 <= args.matches <= 1_000_000:
        ap.error(f"--matches is 1 to 1,000,000, not {args.matches}")
    if not 4 <= args.people <= 1000:
        ap.error(f"--people is 4 to 1,000 (a briscola-4 table needs four), not {args.people}")
    found = asyncio.run(measure(args.matches, args.people, args.seed))
    print(
        f"{found['matches']:,} matches: read {found['read'] * 1000:.0f} ms, standings "
        f"{found['compute'] * 1000:.0f} ms, total {found['total'] * 1000:.0f} ms (best of 3)"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(found, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
