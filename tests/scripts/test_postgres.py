"""scripts/postgres: a throwaway cluster started in a folder, restarted and stopped, also
where the folder above it is private to root (as a fresh ``mktemp -d`` is) and the
cluster, which runs as another user, cannot reach it."""

from __future__ import annotations

import glob
import os
import subprocess
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

asyncpg = pytest.importorskip("asyncpg")

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "postgres"

pytestmark = [
    pytest.mark.skipif(
        not glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        reason="PostgreSQL is not installed (scripts/postgres would install it)",
    ),
    pytest.mark.skipif(os.geteuid() != 0, reason="as root alone the cluster runs as another user"),
]


def postgres(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *args], capture_output=True, text=True, timeout=120, check=False
    )


async def answers(url: str) -> bool:
    """Whether the database at ``url`` answers a query."""
    socket = parse_qs(urlsplit(url).query)["host"][0]
    conn = await asyncpg.connect(host=socket, user="briscola", database="briscola")
    try:
        return bool(await conn.fetchval("SELECT 1"))
    finally:
        await conn.close()


async def test_a_cluster_in_a_folder_under_a_private_one(tmp_path: Path) -> None:
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    folder = private / "pg"
    started = postgres("start", str(folder))
    try:
        assert started.returncode == 0, started.stderr
        url = started.stdout.strip()
        assert url.startswith("postgresql+asyncpg://briscola@/briscola?host=/"), url
        assert await answers(url)
        restarted = postgres("restart", str(folder))
        assert restarted.returncode == 0, restarted.stderr
        assert await answers(url)
    finally:
        stopped = postgres("stop", str(folder))
    assert stopped.returncode == 0, stopped.stderr
    assert not folder.exists()
    socket = parse_qs(urlsplit(url).query)["host"][0]
    assert not Path(socket).exists()  # the cluster's own folder is gone too
    assert (private.stat().st_mode & 0o777) == 0o700  # and no folder was opened to others
