"""The game server through a real process: a session, a table against a computer player
played to its end, its records, the history."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from briscola.fair_shuffle import check_record
from serverkit import Client, ServerProcess, open_table


async def test_a_match_against_a_computer_player_to_its_end(server: ServerProcess) -> None:
    ana = await Client(server.url, "Ana").login()
    try:
        seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}]
        table = await open_table(ana, "briscola-2", seats, {"match": "one-hand"})
        assert table["status"] == "waiting" and table["invite"] == f"/t/{table['token']}"
        await ana.call("POST", f"/api/tables/{table['token']}/start")
        await ana.connect(table["token"])
        first = await ana.receive()
        assert first["type"] == "snapshot"  # (the computer player may have led already)
        assert len(first["view"]["hand"]) == 3
        assert first["fairness"][0]["type"] == "hand_committed"
        assert "salt" not in first["fairness"][0]
        rng = random.Random(1)
        while ana.table is None or ana.table["status"] != "finished":
            if ana.my_turn():
                await ana.act(rng.choice(ana.view["legal"]))
            frame = await ana.receive()
            assert frame["type"] != "error", frame
        assert ana.version == 40  # 40 cards, 40 plays
        events = [e for f in ana.frames for e in f.get("events", ())]
        revealed = [e for e in events if e["type"] == "hand_revealed"]
        assert [e["hand"] for e in revealed] == [1]
        record = await ana.call("GET", f"/api/tables/{table['token']}/record")
        assert [c.ok for c in check_record(record)] == [True]
        assert record["hands"][0]["fairness"]["commitment"] == revealed[0]["commitment"]
        hand = await ana.call("GET", f"/api/tables/{table['token']}/hands/1")
        assert [c.ok for c in check_record(hand)] == [True]
        history = await ana.call("GET", "/api/history")
        assert [h["token"] for h in history] == [table["token"]]
    finally:
        await ana.aclose()


async def test_no_record_of_a_hand_before_it_ends(server: ServerProcess) -> None:
    ana = await Client(server.url, "Ana").login()
    try:
        seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}]
        table = await open_table(ana, "briscola-2", seats)
        await ana.call("POST", f"/api/tables/{table['token']}/start")
        r = await ana.http.get(f"/api/tables/{table['token']}/hands/1")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_finished"
        r = await ana.http.get(f"/api/tables/{table['token']}/record")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_finished"
    finally:
        await ana.aclose()


def test_a_database_that_cannot_be_opened_is_one_line_and_status_2(tmp_path: Path) -> None:
    import subprocess
    import sys

    for url, words in [
        ("postgresql+asyncpg://nobody:secret@127.0.0.1:1/x", "nobody:***@127.0.0.1:1/x"),
        (f"sqlite+aiosqlite:///{tmp_path}/missing/briscola.db", "there is no folder"),
    ]:
        done = subprocess.run(
            [sys.executable, "-m", "briscola", "serve", "--data", str(tmp_path / "d"),
             "--port", "0", "--database-url", url],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: cannot open the database at ")
        assert words in lines[0] and "secret" not in lines[0]
