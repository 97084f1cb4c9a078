"""``briscola backup`` and ``briscola restore``: a backup of the SQLite database taken while
a real server (``briscola serve``) plays a match holds every move as of one moment; put
into a fresh data folder, a server on it goes on with the match from that version. A
restore refuses while a server uses the folder, and keeps the database it replaces."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from typer.testing import CliRunner

from briscola.storage import Storage, StorageError
from briscola.storage.store import open_lock
from briscola.terminal.cli import app
from serverkit import Client, ServerProcess, open_table, play_randomly

runner = CliRunner()


async def two_people(srv: ServerProcess) -> tuple[str, list[Client]]:
    """A started one-hand table of briscola-2 between two people, both connected."""
    ana = await Client(srv.url, "Ana").login()
    bea = await Client(srv.url, "Bea").login()
    table = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}])
    token: str = table["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    await ana.call("POST", f"/api/tables/{token}/start")
    for c in (ana, bea):
        await c.connect(token)
        await c.until(lambda f: f["type"] == "snapshot")
    return token, [ana, bea]


async def play_until(people: list[Client], version: int, seed: int) -> None:
    """Both play random legal moves until they are told of ``version``."""
    await asyncio.gather(
        *(
            play_randomly(c, random.Random(seed + i), until=lambda c: c.version >= version)
            for i, c in enumerate(people)
        )
    )


async def moves(database: str, token: str) -> list[dict[str, Any]]:
    """The actions stored for the table ``token``, in order."""
    store = await Storage.open(database)
    try:
        table = await store.table_by_token(token)
        return [a.action for a in await store.actions_since(table.id)]
    finally:
        await store.close()


async def briscola_backup(data: Path, out: Path) -> str:
    """``briscola backup --data DATA OUT`` as a process of its own; what it printed."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "briscola", "backup", "--data", str(data), str(out),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    printed, _ = await proc.communicate()
    assert proc.returncode == 0, printed
    return printed.decode()


async def test_a_backup_taken_during_a_match_goes_on_in_a_fresh_folder(tmp_path: Path) -> None:
    live = ServerProcess(tmp_path / "live")
    live.start()
    try:
        token, people = await two_people(live)
        await play_until(people, 4, seed=1)
        before = people[0].version
        # the backup while both go on playing
        playing = asyncio.create_task(play_until(people, 16, seed=2))
        printed = await briscola_backup(live.data, tmp_path / "b.db")
        await playing
        last = people[0].version
    finally:
        live.stop()
    assert "backed up" in printed and "1 tables" in printed
    backup = tmp_path / "b.db"
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("b.db")] == ["b.db"]
    every = await moves(live.database, token)
    assert len(every) == last

    result = runner.invoke(app, ["restore", str(backup), "--data", str(tmp_path / "fresh")])
    assert result.exit_code == 0, result.output
    assert "restored" in result.stdout
    again = ServerProcess(tmp_path / "fresh")
    again.port = live.port  # the people's session cookies are for this address
    again.start()
    try:
        for c in people:
            await c.close()
            await c.connect(token)
        snapshots = [await c.until(lambda f: f["type"] == "snapshot") for c in people]
        version = snapshots[0]["version"]
        # every move committed before the backup began, a prefix of the match, no more
        assert before <= version <= last
        assert snapshots[1]["version"] == version
        assert await moves(again.database, token) == every[:version]
        # and the match goes on from there: one move more
        mover = next(c for c in people if c.my_turn())
        await mover.act(mover.view["legal"][0])  # type: ignore[index]
        for c in people:
            update = await c.until(lambda f: f["type"] == "update")
            assert update["version"] == version + 1
    finally:
        for c in people:
            await c.aclose()
        again.stop()


async def test_restore_refuses_while_a_server_uses_the_folder_and_keeps_what_it_replaces(
    tmp_path: Path,
) -> None:
    srv = ServerProcess(tmp_path / "data")
    srv.start()
    try:
        token, people = await two_people(srv)
        await play_until(people, 2, seed=3)
        await briscola_backup(srv.data, tmp_path / "b.db")
        await play_until(people, 6, seed=4)
        result = runner.invoke(app, ["restore", str(tmp_path / "b.db"), "--data", str(srv.data)])
        assert result.exit_code == 2
        assert f"a server is using {srv.data}" in result.stderr and "stop it" in result.stderr
        assert len(await moves(srv.database, token)) == 6  # untouched
        for c in people:
            await c.aclose()
    finally:
        srv.kill()  # as in a crash: its last moves may be in the write-ahead log alone
    result = runner.invoke(app, ["restore", str(tmp_path / "b.db"), "--data", str(srv.data)])
    assert result.exit_code == 0, result.output
    aside = [p for p in srv.data.iterdir() if p.name.startswith("briscola.db.before-restore-")]
    assert len(aside) == 1 and aside[0].name in result.stdout  # one file, its log folded in
    kept = aside[0]
    assert len(await moves(f"sqlite+aiosqlite:///{kept}", token)) == 6
    assert len(await moves(srv.database, token)) == 2


def test_backup_says_what_is_wrong_with_its_folder_and_its_file(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["backup", "--data", str(tmp_path / "nope"), "b.db"])
    assert missing.exit_code == 2
    assert f"--data {tmp_path / 'nope'}: there is no such folder" in missing.stderr
    (tmp_path / "empty").mkdir()
    empty = runner.invoke(app, ["backup", "--data", str(tmp_path / "empty"), "b.db"])
    assert empty.exit_code == 2
    assert "there is no database in it (no briscola.db)" in empty.stderr
    assert "briscola serve --data" in empty.stderr

    data = tmp_path / "data"
    data.mkdir()
    asyncio.run(_new_database(data))
    out = tmp_path / "b.db"
    out.write_text("keep me")
    exists = runner.invoke(app, ["backup", "--data", str(data), str(out)])
    assert exists.exit_code == 2
    assert f"{out} exists" in exists.stderr and "--force" in exists.stderr
    assert out.read_text() == "keep me"
    forced = runner.invoke(app, ["backup", "--data", str(data), str(out), "--force"])
    assert forced.exit_code == 0, forced.output
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    with sqlite3.connect(out) as copy:
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    nowhere = runner.invoke(app, ["backup", "--data", str(data), str(tmp_path / "no" / "b.db")])
    assert nowhere.exit_code == 2 and f"there is no folder {tmp_path / 'no'}" in nowhere.stderr


def test_restore_refuses_what_is_not_a_briscola_database(tmp_path: Path) -> None:
    data = tmp_path / "data"
    missing = runner.invoke(app, ["restore", str(tmp_path / "nope.db"), "--data", str(data)])
    assert missing.exit_code == 2 and "no such file" in missing.stderr
    (tmp_path / "notes.txt").write_text("not a database\n" * 100)
    text = runner.invoke(app, ["restore", str(tmp_path / "notes.txt"), "--data", str(data)])
    assert text.exit_code == 2 and "is not a SQLite database" in text.stderr
    with sqlite3.connect(tmp_path / "other.db") as other:
        other.execute("CREATE TABLE notes (text TEXT)")
    foreign = runner.invoke(app, ["restore", str(tmp_path / "other.db"), "--data", str(data)])
    assert foreign.exit_code == 2
    assert "a SQLite database, but not briscola's" in foreign.stderr
    asyncio.run(_new_database(tmp_path))
    with sqlite3.connect(tmp_path / "briscola.db") as newer:
        newer.execute("UPDATE alembic_version SET version_num = '9999'")
    later = runner.invoke(app, ["restore", str(tmp_path / "briscola.db"), "--data", str(data)])
    assert later.exit_code == 2
    assert "schema revision 9999" in later.stderr and "upgrade briscola" in later.stderr
    assert not (data / "briscola.db").exists()


def test_a_storage_does_not_open_a_database_under_restore(tmp_path: Path) -> None:
    database = tmp_path / "briscola.db"
    lock = open_lock(database, exclusive=True)
    try:
        with pytest.raises(StorageError, match="is being restored"):
            asyncio.run(Storage.open(f"sqlite+aiosqlite:///{database}"))
    finally:
        os.close(lock)
    asyncio.run(_new_database(tmp_path))


async def _new_database(data: Path) -> None:
    store = await Storage.open(f"sqlite+aiosqlite:///{data / 'briscola.db'}")
    await store.close()
