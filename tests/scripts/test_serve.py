"""scripts/serve: it sets the checkout up, starts the server, prints the URL it listens at,
and passes its arguments on to ``briscola serve`` (a relative ``--data`` is the caller's)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import threading
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

import httpx

from serverkit import URL_LINE

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "serve"
STAMP = ROOT / ".venv" / ".installed"


def set_up() -> bool:
    """Whether scripts/setup installed this checkout's lock and pyproject.toml: its stamp
    holds their checksums (``sha256sum requirements.lock pyproject.toml``)."""
    if not STAMP.exists():
        return False
    want = "".join(
        f"{hashlib.sha256((ROOT / name).read_bytes()).hexdigest()}  {name}\n"
        for name in ("requirements.lock", "pyproject.toml")
    )
    return STAMP.read_text() == want


pytestmark = pytest.mark.skipif(
    not set_up(),
    reason="the checkout is not set up (scripts/setup, which scripts/test runs first): "
    "scripts/serve would install everything",
)


def first_url(proc: subprocess.Popen[str], timeout: float = 60.0) -> tuple[str, list[str]]:
    """The URL of the first ``briscola is serving at`` line, with the lines read."""
    lines: list[str] = []
    found: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if m := URL_LINE.search(line):
                found.append(m.group(1))
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout)
    return (found[0] if found else ""), lines


def test_serve_prints_the_url_and_answers(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [str(SCRIPT), "--port", "0", "--data", "data"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ},
    )
    try:
        url, lines = first_url(proc)
        assert url.startswith("http://127.0.0.1:"), lines
        assert not url.endswith(":0/"), url  # the port taken, not the one asked for
        r = httpx.get(url + "healthz", timeout=10)
        assert r.status_code == 200 and r.json()["status"] == "ok"
        assert (tmp_path / "data" / "briscola.db").is_file()
        assert not (ROOT / "data").exists()
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        if proc.stdout is not None:
            proc.stdout.close()
    # SIGTERM stops it gracefully, and it ends with 0 (docs/operations.md, "Stopping")
    assert proc.returncode == 0, lines


def test_the_data_folder_is_ignored_by_git() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    done = subprocess.run(
        ["git", "check-ignore", "-q", "briscola-data/briscola.db"], cwd=ROOT, check=False
    )
    assert done.returncode == 0, "add briscola-data/ to .gitignore"
