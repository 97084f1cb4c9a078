"""The deployment of docs/deploy.md, on this machine: Caddy (Debian's package, which
scripts/caddy installs) with its internal certificate authority in front of two
``briscola serve`` processes on one PostgreSQL database and one Redis, and two people
playing a match in Chromium through ``https://localhost:PORT``.

The files are the repository's own: Caddy runs deploy/Caddyfile, its site's name and
upstreams changed for this machine's ports, under a global block of the test's (no admin
endpoint, its data in a temporary folder, the internal authority, nothing installed in
the system's trust store); each server process runs as deploy/briscola@.service runs it
(its ``Environment=`` lines, the port from the instance, its ``ExecStart`` command) on
deploy/briscola.toml, with the test's database, Redis, address and data folder given in
the environment, which wins over the file. The browser does not trust Caddy's
authority: its contexts take the certificate anyway (``ignore_https_errors``), which
changes nothing else (the pages are still a secure origin: the Secure cookie is kept).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("redis")

import httpx

from browserkit import Person, need_chromium, play_out, token_of
from serverkit import URL_LINE, database

ROOT = Path(__file__).parents[2]
DEPLOY = ROOT / "deploy"
SITE = "cards.example.org"
UPSTREAMS = "127.0.0.1:8001 127.0.0.1:8002"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def need_caddy() -> str:
    """The caddy binary, which scripts/caddy installs where it is missing (as root): skip
    without it, fail under CI (which runs as root)."""
    done = subprocess.run(
        [ROOT / "scripts" / "caddy", "install"], capture_output=True, text=True, check=False
    )
    if done.returncode == 0:
        return done.stdout.strip().splitlines()[-1]
    if os.environ.get("CI"):
        pytest.fail(f"CI: scripts/caddy could not install Caddy: {done.stderr}")
    pytest.skip(f"the deployment test needs Caddy: scripts/caddy said {done.stderr.strip()}")


def unit_command(port: int) -> tuple[dict[str, str], list[str]]:
    """What deploy/briscola@.service gives the process of instance ``port``: the
    environment of its ``Environment=`` lines (``%i`` the port) and the arguments of its
    ``ExecStart`` after the program (``briscola``)."""
    env: dict[str, str] = {}
    args: list[str] = []
    for line in (DEPLOY / "briscola@.service").read_text().splitlines():
        key, _, value = line.partition("=")
        if key == "Environment":
            name, _, setting = value.replace("%i", str(port)).partition("=")
            env[name] = setting
        elif key == "ExecStart":
            program, *args = value.split()
            assert program.endswith("/briscola"), program
    assert env["BRISCOLA_PORT"] == str(port) and args, "the unit names no port or command"
    return env, args


class Unit:
    """One server process started as its systemd unit would start it."""

    def __init__(self, where: Path, port: int, env: dict[str, str]) -> None:
        self.port = port
        self.where = where
        self.log = where / "server.log"
        where.mkdir(parents=True)
        unit_env, args = unit_command(port)
        unit_env["BRISCOLA_CONFIG"] = str(DEPLOY / "briscola.toml")  # not /etc/briscola's
        unit_env["BRISCOLA_CACHE_DIR"] = os.environ.get("BRISCOLA_CACHE_DIR", "")
        clean = {k: v for k, v in os.environ.items() if not k.startswith("BRISCOLA_")}
        with self.log.open("w") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "briscola", *args],
                cwd=where,
                env={**clean, **unit_env, "BRISCOLA_DATA": str(where / "data"), **env},
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
            )
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if found := URL_LINE.search(line):
                assert found.group(1) == f"http://127.0.0.1:{port}/"
                return
        self.stop()
        raise RuntimeError(f"the server did not start: {self.log.read_text()[-3000:]}")

    def requests(self) -> list[str]:
        """The paths of the HTTP requests its access log has and of the WebSockets it
        accepted (uvicorn says those apart, not in the access log); JSON lines."""
        paths = []
        for line in self.log.read_text().splitlines():
            with contextlib.suppress(ValueError):
                record = json.loads(line)
                if record.get("logger") == "uvicorn.access":
                    paths.append(str(record.get("path")))
                elif m := re.search(r'"WebSocket (\S+)" \[accepted\]', record.get("message", "")):
                    paths.append(m[1])
        return paths

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def caddyfile(https_port: int, http_port: int, upstreams: list[int], data: Path) -> str:
    """deploy/Caddyfile for this machine: the site ``localhost:PORT`` and the test's
    upstreams, under a global block that keeps this Caddy to itself."""
    site = (DEPLOY / "Caddyfile").read_text()
    assert SITE in site and UPSTREAMS in site, "deploy/Caddyfile changed: change this test"
    site = site.replace(SITE, f"localhost:{https_port}")
    site = site.replace(UPSTREAMS, " ".join(f"127.0.0.1:{p}" for p in upstreams))
    return f"""{{
	admin off
	local_certs
	skip_install_trust
	http_port {http_port}
	https_port {https_port}
	storage file_system {data}
	auto_https disable_redirects
}}
{site}"""


@pytest.fixture
def site(tmp_path: Path, redis_dir: Path) -> Iterator[tuple[str, list[Unit]]]:
    """Caddy at https://localhost:PORT in front of two server processes on one PostgreSQL
    database and one Redis: its URL, and the processes."""
    caddy = need_caddy()
    need_chromium()
    # a loop of its own, in a thread: Playwright's runs in this one
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    made = database("postgres")
    units: list[Unit] = []
    proxy: subprocess.Popen[bytes] | None = None
    try:
        url = asyncio.run_coroutine_threadsafe(made.__aenter__(), loop).result(60)
        assert url is not None
        https_port = free_port()
        public = f"https://localhost:{https_port}"
        env = {
            "BRISCOLA_DATABASE_URL": url,
            "BRISCOLA_REDIS_URL": f"unix://{redis_dir}/redis.sock",
            "BRISCOLA_PUBLIC_URL": public,
            "BRISCOLA_LOG_LEVEL": "info",  # an access line a request
            "BRISCOLA_BOT_DELAY": "0",
        }
        for name in ("a", "b"):
            units.append(Unit(tmp_path / name, free_port(), env))
        home = tmp_path / "caddy"
        home.mkdir()
        config = home / "Caddyfile"
        config.write_text(caddyfile(https_port, free_port(), [u.port for u in units], home))
        caddy_env = {
            **os.environ,
            "HOME": str(home),
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CONFIG_HOME": str(home / "config"),
        }
        with (home / "caddy.log").open("wb") as log:
            proxy = subprocess.Popen(
                [caddy, "run", "--adapter", "caddyfile", "--config", str(config)],
                env=caddy_env,
                cwd=home,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while True:
            assert proxy.poll() is None, (home / "caddy.log").read_text()[-3000:]
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{public}/readyz", verify=False, timeout=2).status_code == 200:
                    break
            assert time.monotonic() < deadline, (home / "caddy.log").read_text()[-3000:]
            time.sleep(0.2)
        yield public, units
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(10)
        for u in units:
            u.stop()
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(made.__aexit__(None, None, None), loop).result(60)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def test_a_match_through_caddy_over_https_on_two_processes(
    site: tuple[str, list[Unit]], browser: Any, screenshots: Path
) -> None:
    public, units = site
    people = [
        Person(browser, public, name, screenshots, ignore_https_errors=True)
        for name in ("Ana", "Bea")
    ]
    urls: list[str] = []
    sockets: list[str] = []
    for p in people:
        p.page.on("request", lambda r: urls.append(r.url))
        p.page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        ana, bea = people
        ana.login()
        ana.page.wait_for_selector("#play-now")
        ana.page.click("#create-table")
        ana.page.select_option("#setup-game", "briscola-2")
        ana.page.select_option("#rule-match", "one-hand")
        ana.page.click("#setup-create")
        link = ana.page.locator("#invite-link").input_value()
        assert link.startswith(f"{public}/t/")
        bea.login(link.removeprefix(public))  # with a nickname: seated at once
        bea.page.wait_for_selector("[data-key=leave]")
        ana.page.wait_for_selector("#start:not([disabled])")
        ana.page.click("#start")
        play_out([ana, bea])
        for p in people:
            assert p.page.locator("#end-title").inner_text() == "The match is over"
            assert len(p.acts) == 20  # each move of the match sent once, over the socket
            # the session cookie: Secure, since the public URL is https
            cookies = {c["name"]: c for c in p.context.cookies()}
            assert cookies["briscola_session"]["secure"], cookies
            assert cookies["briscola_session"]["httpOnly"]
        errors = [f"{p.name}: {e}" for p in people for e in p.errors]
        assert not errors, errors
    finally:
        for p in people:
            p.close()

    # every request of the pages went over https, every WebSocket over wss, to Caddy
    web = [u for u in urls if re.match(r"[a-z]+://", u) and not u.startswith(("data:", "blob:"))]
    assert web and all(u.startswith(f"{public}/") for u in web), web
    wss = "wss://" + public.removeprefix("https://")
    table = token_of(link)
    news = f"{wss}/api/session/news"  # (the home screen's: each person's news)
    assert any(u.startswith(f"{wss}/api/tables/{table}/ws") for u in sockets), sockets
    assert all(u.startswith(f"{wss}/api/tables/{table}/ws") or u == news for u in sockets)
    # and Caddy spread them over both processes: each served some of the pages'
    # requests (its access log, Caddy's own health checks left out), but the table's own,
    # its WebSockets among them, all went to one, chosen by the table's token
    served = [[p for p in u.requests() if p not in ("/readyz", "/healthz")] for u in units]
    assert all(served), f"requests served by each process: {[len(s) for s in served]}"
    assert sum(len(s) for s in served) >= len(web)
    tables = [[p for p in s if p.startswith(f"/api/tables/{table}")] for s in served]
    assert sorted(bool(t) for t in tables) == [False, True], [len(t) for t in tables]
    assert any(p.startswith(f"/api/tables/{table}/ws") for t in tables for p in t), tables
    # the metrics stay on the machine; the health routes answer through Caddy too
    assert httpx.get(f"{public}/metrics", verify=False).status_code == 404
    assert httpx.get(f"{public}/healthz", verify=False).status_code == 200


def test_the_unit_and_the_caddyfile_are_read_whole(tmp_path: Path) -> None:
    """systemd reads every line of deploy/briscola@.service (no key it does not know: it
    would ignore it, hardening lost with a warning alone), and Caddy takes
    deploy/Caddyfile as it is, formatted as ``caddy fmt`` writes it."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze (Debian's systemd) is missing: the unit is not checked")
    unit = tmp_path / "briscola@.service"
    program = Path(sys.executable).with_name("briscola")
    assert program.exists(), program
    unit.write_text(
        (DEPLOY / "briscola@.service")
        .read_text()
        .replace("/opt/briscola/.venv/bin/briscola", str(program))
    )
    done = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and not done.stdout + done.stderr, done.stdout + done.stderr
    caddy = need_caddy()
    text = (DEPLOY / "Caddyfile").read_text()
    done = subprocess.run(
        [caddy, "fmt", "-"], input=text, capture_output=True, text=True, check=True
    )
    assert done.stdout == text, "deploy/Caddyfile: caddy fmt would change it"
    done = subprocess.run(
        [caddy, "validate", "--adapter", "caddyfile", "--config", DEPLOY / "Caddyfile"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
