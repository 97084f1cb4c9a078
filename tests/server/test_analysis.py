"""A hand's analysis through the real server: refused at every turn while the hand is
played (it would tell what a seat could not know), then computed off the tables' way,
kept, the same as ``briscola analyse`` gives on the hand's downloaded record, and still
there after a restart; one kept by an older version of the analysis is computed again."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("numba")

from briscola.analysis import analyse_json
from serverkit import Client, ServerProcess, finished, open_table, play_randomly


@pytest.fixture(scope="module")
def server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    return server_factory()  # (its own: restarted below)


async def analysis(
    client: Client, token: str, hand: int, timeout: float = 60, seen: str = "seat"
) -> dict[str, Any]:
    """The hand's analysis (``seen="all"``: with every card seen), asked again while it is
    being computed."""
    end = time.monotonic() + timeout
    while True:
        r = await client.http.get(f"/api/tables/{token}/hands/{hand}/analysis?seen={seen}")
        if r.status_code == 200:
            return dict(r.json())
        assert r.status_code == 202, r.text
        assert r.json() == {"status": "computing"} and r.headers["retry-after"] == "1"
        assert time.monotonic() < end, "the analysis never came"
        await asyncio.sleep(0.2)


async def test_refused_while_played_then_the_same_as_the_command_line(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    ana = await clients("Ana")
    table = await open_table(
        ana, "briscola-2", [{"kind": "me"}, {"kind": "bot", "level": "beginner"}],
        {"match": "one-hand"},
    )  # fmt: skip
    token = table["token"]
    await ana.call("POST", f"/api/tables/{token}/start")
    await ana.connect(token)
    asked = 0

    async def ask(client: Client, frame: dict[str, Any]) -> None:
        nonlocal asked
        if client.my_turn():  # the hand is in play: nothing of its analysis
            r = await client.http.get(f"/api/tables/{token}/hands/1/analysis")
            assert r.status_code == 404 and r.json()["error"]["code"] == "not_finished"
            assert "decisions" not in r.text and "choices" not in r.text
            asked += 1

    await play_randomly(ana, random.Random(3), on_frame=ask)
    assert finished(ana) and asked >= 10
    found = await analysis(ana, token, 1)
    record = await ana.call("GET", f"/api/tables/{token}/hands/1")
    assert found == analyse_json(record)  # what `briscola analyse` gives on the download
    assert len(found["decisions"]) == 40 and [s["seat"] for s in found["seats"]] == [0, 1]
    assert json.loads(json.dumps(found)) == await analysis(ana, token, 1)  # kept
    every = await analysis(ana, token, 1, seen="all")  # the other values, kept apart
    assert every == analyse_json(record, seen="all") and every["seen"] == "all"
    assert every != found and await analysis(ana, token, 1) == found
    for path, status, code in (
        (f"/api/tables/{token}/hands/2/analysis", 404, "bad_hand"),
        (f"/api/tables/{token}/hands/1/analysis?level=grandmaster", 422, "bad_request"),
        (f"/api/tables/{token}/hands/1/analysis?seen=everything", 422, "bad_request"),
        ("/api/tables/nothing/hands/1/analysis", 404, "not_found"),
    ):
        r = await ana.http.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), path

    server.stop()
    server.start()
    again = await ana.http.get(f"/api/tables/{token}/hands/1/analysis")
    assert again.status_code == 200 and again.json() == found  # kept: not computed again

    # an analysis kept by an older version of the analysis (before version 2: no
    # version, and its talk not valued) is computed again after the upgrade, and replaced
    server.stop()
    with sqlite3.connect(server.data / "briscola.db") as db:
        old = {k: v for k, v in found.items() if k != "version"}
        db.execute("update analyses set body = ? where seen = 'seat'", (json.dumps(old),))
    db.close()
    server.start()
    assert await analysis(ana, token, 1) == found
    with sqlite3.connect(server.data / "briscola.db") as db:
        [(kept,)] = db.execute("select body from analyses where seen = 'seat'").fetchall()
    db.close()
    assert json.loads(kept) == found


async def test_a_table_starting_warms_the_analysis_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """When a table starts, the worker processes (analyses, hints) are started and the
    search's kernels the game's analysis runs are compiled (or loaded) there, while the
    hand is played: then its analysis does not wait on the compiler. Once a process for
    each game and rules; never when BRISCOLA_WARM_ANALYSIS is 0 (the tests' servers)."""
    from briscola.server.analyses import WARM, Analyst

    analyst = Analyst(storage=None)  # type: ignore[arg-type]  # (warming reads no storage)
    try:
        monkeypatch.setenv(WARM, "0")
        assert analyst.warm("briscola-4", {}) is None and analyst.worker._pool is None
        monkeypatch.setenv(WARM, "1")
        job = analyst.warm("briscola-4", {})
        assert job is not None and analyst.worker._pool is not None
        assert analyst.hints._pool is not None  # the hints' worker is warmed as well
        assert await asyncio.wait_for(job, 300) is True
        assert analyst.warm("briscola-4", {}) is None  # once
        assert analyst.warm("briscola-2", {"match": "one-hand"}) is not None  # another game
    finally:
        analyst.close()
