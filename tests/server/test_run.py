"""`briscola serve` at a port in use or an address it cannot have says so in one line."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")


def serve_at(tmp_path: Path, *where: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "briscola", "serve", "--data", str(tmp_path), *where],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_serve_at_a_port_in_use_says_so_and_what_to_do(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = serve_at(tmp_path, "--port", str(port))
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"port {port} is taken" in lines[0], done.stderr
    assert "--port 0" in lines[0]


def test_serve_at_an_address_this_machine_lacks_says_so(tmp_path: Path) -> None:
    for host in ("203.0.113.7", "no-such-host.invalid"):  # TEST-NET-3; a reserved name
        done = serve_at(tmp_path, "--host", host, "--port", "0")
        assert done.returncode == 2, done
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and f"cannot listen at {host}" in lines[0], done.stderr
        assert "--host" in lines[0]
