"""Ids past 64 bits: what a server answers, and what it writes to its log.

    python benchmarks/big_ids.py [--requests 300]

Starts ``briscola serve`` as a real process (SQLite in a temporary folder), opens a
session, and sends ``GET /api/families/9223372036854775808`` (2^63, one past the largest
id the storage keeps) ``--requests`` times on one kept-alive connection. Reported: the
answers by status, the requests that failed at the connection (no answer at all), the
bytes the server wrote to its log meanwhile, and the time taken.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import httpx
from load import start_server


async def measure(requests: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "data"
        proc, base = start_server(data, None, [])
        try:
            async with httpx.AsyncClient(base_url=base, timeout=30) as http:
                r = await http.post("/api/session", json={"nickname": "Ana"})
                r.raise_for_status()
                log = data / "server.log"
                before = log.stat().st_size
                statuses: dict[int, int] = {}
                failed = 0
                start = time.perf_counter()
                for _ in range(requests):
                    try:
                        r = await http.get(f"/api/families/{2**63}")
                    except httpx.TransportError:
                        failed += 1
                        continue
                    statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
                took = time.perf_counter() - start
                written = log.stat().st_size - before
        finally:
            proc.terminate()
            proc.wait(30)
    answers = ", ".join(f"{n} answered {status}" for status, n in sorted(statuses.items()))
    print(
        f"{requests} requests: {answers or 'no answer'}; {failed} failed at the connection; "
        f"{written:,} bytes of log; {took:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    asyncio.run(measure(parser.parse_args().requests))


if __name__ == "__main__":
    main()
