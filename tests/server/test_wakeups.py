"""The wake-ups between server processes on a real Redis (scripts/redis): each table one
process changed reaches the others once with the parts that changed, never the process
itself; the tables changed at once go in few messages; with Redis away, publishing fails
nothing and counts what it lost."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("redis")

from briscola.server.broadcast import ALL, BATCH, CHANNEL, RedisWakeups
from serverkit import redis_dir  # noqa: F401  (the module's Redis)


class Heard:
    """What one process's subscription was told: (table, parts) in order, and how often
    it was told to look at everything (Redis came back)."""

    def __init__(self) -> None:
        self.changed: list[tuple[str, str]] = []
        self.missed = 0

    async def change(self, key: str, parts: str) -> None:
        self.changed.append((key, parts))

    async def miss(self) -> None:
        self.missed += 1


Pair = tuple[RedisWakeups, Heard, RedisWakeups, Heard]
"""Two processes' wake-ups, and what each heard."""


async def until(what: Callable[[], bool], seconds: float = 10) -> None:
    async with asyncio.timeout(seconds):
        while not what():
            await asyncio.sleep(0.02)


async def received(pubsub: Any) -> list[dict[str, Any]]:
    """The messages a subscription has waiting (until none comes for half a second)."""
    out = []
    quiet = asyncio.get_running_loop().time() + 0.5
    while asyncio.get_running_loop().time() < quiet:
        m = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
        if m is not None:
            out.append(m)
            quiet = asyncio.get_running_loop().time() + 0.5
    return out


@pytest.fixture
async def pair(redis_dir: Path) -> AsyncIterator[Pair]:  # noqa: F811
    """Two processes' wake-ups on the Redis, both listening; and what each heard."""
    url = f"unix://{redis_dir}/redis.sock"
    heard = [Heard(), Heard()]
    wakeups = [RedisWakeups(url, h.change, h.miss) for h in heard]
    tasks = [asyncio.create_task(w.listen()) for w in wakeups]
    await until(lambda: all(w.up for w in wakeups))
    yield wakeups[0], heard[0], wakeups[1], heard[1]
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for w in wakeups:
        await w.close()


async def test_each_table_changed_reaches_the_other_process_once_with_its_parts(
    pair: Pair,
) -> None:
    a, heard_a, b, heard_b = pair
    raw = b.client.pubsub(ignore_subscribe_messages=True)  # every message on the channel
    await raw.subscribe(CHANNEL)
    tables = [f"table{n}" for n in range(2 * BATCH + 7)]
    for n, key in enumerate(tables):  # a busy process's moves, stored together
        await a.publish(key, "a" if n % 2 else "c")
    await a.publish(tables[0], "p")  # changed again before it was sent: one wake-up
    await a.publish(tables[1])
    await a.flush()
    await until(lambda: len(heard_b.changed) >= len(tables))
    await asyncio.sleep(0.3)  # nothing more comes
    assert sorted(heard_b.changed) == sorted(
        [(tables[0], "cp"), (tables[1], ALL), *((k, "a" if n % 2 else "c") for n, k in
                                                enumerate(tables) if n > 1)]
    )  # fmt: skip
    assert heard_a.changed == []  # its own wake-ups are not its news
    messages = await received(raw)
    await raw.aclose()
    assert len(messages) == 3, [len(m["data"]) for m in messages]  # 1,007 tables, 500 a message

    # a message of one table with its parts left out (an older process's) means all of it
    await a.client.publish(CHANNEL, "older-process table9")
    await until(lambda: ("table9", ALL) in heard_b.changed and ("table9", ALL) in heard_a.changed)


async def test_tables_changed_a_moment_apart_go_in_one_message_with_a_gather(
    pair: Pair,
) -> None:
    """With ``gather`` seconds, the tables a process changes a moment apart (its moves of
    those instants, each stored on its own) reach the others in one message; without,
    each as it comes."""
    a, _, b, heard_b = pair
    raw = b.client.pubsub(ignore_subscribe_messages=True)
    await raw.subscribe(CHANNEL)

    async def apart(gather: float, tables: list[str]) -> list[dict[str, Any]]:
        a.gather = gather
        for key in tables:
            await a.publish(key, "a")
            await asyncio.sleep(0.02)
        await a.flush()
        await until(lambda: all((k, "a") in heard_b.changed for k in tables))
        return await received(raw)

    together = await apart(0.5, ["t1", "t2", "t3"])
    assert [m["data"].decode().split(" ")[1:] for m in together] == [
        ["t1", "a", "t2", "a", "t3", "a"]
    ]
    assert len(await apart(0.0, ["t4", "t5", "t6"])) == 3
    await raw.aclose()


async def test_with_redis_away_publishing_fails_nothing_and_listening_comes_back(
    pair: Pair,
    redis_dir: Path,  # noqa: F811
) -> None:
    a, _, b, heard_b = pair
    sock = redis_dir / "redis.sock"
    subprocess.run(["redis-cli", "-s", sock, "shutdown", "nosave"], check=False)
    try:
        await until(lambda: not b.up)
        for n in range(3):
            await a.publish(f"lost{n}", "a")  # returns at once: the sender has them
        await a.flush()
        assert a.lost == 3
    finally:
        subprocess.run(["redis-server", redis_dir / "redis.conf"], check=True)
    await until(lambda: a.up and b.up and heard_b.missed == 2)  # so it looks at everything
    await a.publish("found", "t")
    await a.flush()
    await until(lambda: ("found", "t") in heard_b.changed)
    assert not any(k.startswith("lost") for k, _ in heard_b.changed)
