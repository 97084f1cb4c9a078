"""The server's health, as a load balancer, a service manager and Prometheus see it
through a real server process: ``/healthz`` and ``/readyz`` answer anyone (no session, no
``Origin``) and say nothing more than their status; ``/readyz`` fails, in words, while the
database does not answer; ``/metrics`` counts the tables, connections, moves and echoes,
for this machine alone by default; every log line is one JSON object naming its table and
request, the request's id the one its answer carried in ``X-Request-ID``."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")

from serverkit import Client, ServerProcess, database, open_table, play_randomly


def metric(text: str, name: str) -> float:
    """The value of the sample ``name`` (with its labels, as written) in ``text``."""
    for line in text.splitlines():
        sample, _, value = line.rpartition(" ")
        if sample == name:
            return float(value)
    raise AssertionError(f"no {name} in the metrics")


@pytest.fixture(scope="module")
def server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    return server_factory(None, "--log-level", "info", "--min-clock", "0.5")


async def test_healthz_and_readyz_answer_anyone_and_say_only_their_status(
    server: ServerProcess,
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:  # no cookie, no Origin
        alive = await http.get("/healthz")
        ready = await http.get("/readyz")
        posted = await http.post("/readyz", json={})
    assert (alive.status_code, alive.json()) == (200, {"status": "ok"})
    assert (ready.status_code, ready.json()) == (
        200,
        {"status": "ready", "checks": {"database": "ok"}},
    )
    assert posted.status_code == 405
    for r in (alive, ready):
        assert "set-cookie" not in r.headers


async def test_metrics_count_tables_connections_moves_and_echoes(
    server: ServerProcess, clients: Any
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        before = (await http.get("/metrics")).text
    ana = await clients("Ana")
    table = await open_table(
        ana,
        "briscola-2",
        [{"kind": "me"}, {"kind": "bot", "level": "random"}],
        {"match": "one-hand"},
    )
    await ana.call("POST", f"/api/tables/{table['token']}/start")
    await ana.connect(table["token"])
    await play_randomly(ana, random.Random(3))
    async with httpx.AsyncClient(base_url=server.url) as http:
        during = await http.get("/metrics")
    await ana.close()
    assert during.status_code == 200
    assert during.headers["content-type"].startswith("text/plain; version=0.0.4")
    text = during.text
    people = 'briscola_moves_total{by="person"}'
    computers = 'briscola_moves_total{by="computer"}'
    assert metric(text, people) - metric(before, people) == 20  # one hand: 20 cards each
    assert metric(text, computers) - metric(before, computers) == 20
    echoed = metric(text, "briscola_echo_seconds_count") - metric(
        before, "briscola_echo_seconds_count"
    )
    assert echoed == 20  # each of Ana's moves came back to her
    assert metric(text, 'briscola_echo_seconds_bucket{le="+Inf"}') == metric(
        text, "briscola_echo_seconds_count"
    )
    assert metric(text, "briscola_tables_loaded") >= 1
    assert metric(text, "briscola_connections") >= 1
    assert metric(text, "process_cpu_seconds_total") > 0
    assert "briscola_storage_errors" in text


async def test_metrics_are_refused_through_a_proxy_and_when_off(
    server: ServerProcess, server_factory: Callable[..., ServerProcess]
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        proxied = await http.get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"})
    assert proxied.status_code == 404
    assert proxied.json()["error"]["code"] == "no_route"
    assert "briscola serve --metrics" in proxied.json()["error"]["message"]
    assert "briscola_" not in proxied.text
    off = server_factory(None, "--metrics", "off")
    try:
        async with httpx.AsyncClient(base_url=off.url) as http:
            assert (await http.get("/metrics")).status_code == 404
            assert (await http.get("/healthz")).status_code == 200
    finally:
        off.stop()


async def test_every_log_line_is_json_naming_its_table_and_request(
    server: ServerProcess, clients: Any
) -> None:
    ana = await clients("Ana")
    table = await open_table(ana, "briscola-2", [{"kind": "me"}, {"kind": "bot"}], clock=0.5)
    token = table["token"]
    r = await ana.http.get(f"/api/tables/{token}", headers={"X-Request-ID": "lb-7:abc"})
    assert r.headers["x-request-id"] == "lb-7:abc"  # a proxy's plain id is kept
    bad = await ana.http.get("/healthz", headers={"X-Request-ID": "no spaces\tallowed"})
    made = bad.headers["x-request-id"]
    assert made != "no spaces\tallowed" and len(made) == 16
    await ana.call("POST", f"/api/tables/{token}/start")  # Ana's clock runs out: a time-out
    lines: list[dict[str, Any]] = []
    end = time.monotonic() + 20
    while not any("clock ran out" in line.get("message", "") for line in lines):
        assert time.monotonic() < end, "no time-out was logged"
        await asyncio.sleep(0.1)
        lines = [json.loads(x) for x in server.log.read_text().splitlines() if x.strip()]
    for line in lines:
        assert {"time", "level", "logger", "message"} <= set(line), line
    access = [
        x for x in lines if x["logger"] == "uvicorn.access" and x.get("request") == "lb-7:abc"
    ]
    assert len(access) == 1
    assert access[0]["table"] == token and access[0]["method"] == "GET"
    assert access[0]["status"] == 200 and access[0]["path"] == f"/api/tables/{token}"
    timed_out = next(x for x in lines if "clock ran out" in x["message"])
    assert timed_out["table"] == token and "request" not in timed_out  # the table's own task


async def test_readyz_says_which_check_failed_while_the_database_is_unreachable(
    server_factory: Callable[..., ServerProcess],
) -> None:
    """And the action a person sends meanwhile is refused, counted as a storage error of
    its kind; a connection opened meanwhile is closed with 1013 (try again later), for
    its client to connect again; and the server logs no traceback for any of it (each is
    said in a warning: the database is away, not the server at fault)."""
    async with database("postgresql") as url:
        assert url is not None
        srv = server_factory(url)
        ana = await Client(srv.url, "Ana").login()
        seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}]
        token = (await open_table(ana, "briscola-2", seats))["token"]
        await ana.call("POST", f"/api/tables/{token}/start")
        await ana.connect(token)
        await ana.until(lambda f: ana.my_turn())
        import sqlalchemy as sa
        from sqlalchemy.ext.asyncio import create_async_engine

        name = sa.make_url(url).database
        admin = create_async_engine(
            sa.make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT"
        )
        try:
            async with admin.connect() as conn:
                await conn.execute(sa.text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
                await conn.execute(
                    sa.text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = :name AND pid <> pg_backend_pid()"
                    ),
                    {"name": name},
                )
            async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
                down = await http.get("/readyz")
                alive = await http.get("/healthz")
                assert ana.view is not None
                await ana.act(ana.view["legal"][0])
                refused = await ana.until(lambda f: f["type"] == "error")
                twin = Client(srv.url, "Ana")  # her second tab opens the table
                twin.http.cookies = ana.http.cookies
                await twin.connect(token)
                await asyncio.wait_for(twin.ws.wait_closed(), 10)
                closed = twin.ws.close_code, twin.ws.close_reason
                await twin.aclose()
                counted = (await http.get("/metrics")).text
                async with admin.connect() as conn:
                    await conn.execute(sa.text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
                end = time.monotonic() + 20
                while (up := await http.get("/readyz")).status_code != 200:
                    assert time.monotonic() < end, up.text
                    await asyncio.sleep(0.2)
        finally:
            await ana.aclose()
            srv.stop()
            await admin.dispose()
    # the move is refused as the database's fault, not as a table that moved on
    assert refused["code"] == "unavailable" and "database did not answer" in refused["message"]
    assert closed == (1013, "the database did not answer")
    assert "Traceback" not in srv.log.read_text()
    errors = [x for x in counted.splitlines() if x.startswith("briscola_storage_errors_total")]
    assert 'briscola_storage_errors_total{kind="unavailable",operation="append"} 1.0' in errors
    assert down.status_code == 503, down.text
    said = down.json()
    assert said["status"] == "unready"
    assert said["checks"]["database"].startswith("failed (")
    assert "host=" not in down.text and "/tmp" not in down.text  # nothing of its address
    assert alive.status_code == 200  # alive all along: a restart would not help
    assert up.json() == {"status": "ready", "checks": {"database": "ok"}}


@pytest.mark.parametrize(
    ("option", "said"),
    [
        (["--log-format", "xml"], "--log-format is json, text or auto, not 'xml'"),
        (["--metrics", "10.0.0/33"], "--metrics: '10.0.0/33' is not a network"),
    ],
)
def test_a_wrong_log_format_or_metrics_setting_is_one_line(
    tmp_path: Path, option: list[str], said: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "briscola", "serve", "--data", str(tmp_path), *option],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done
    assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


async def test_readyz_answers_503_stopping_once_the_application_drains(tmp_path: Path) -> None:
    """What a balancer is told on a connection kept open while the process stops: the
    application run in this process, its lifespan too, drained as SIGTERM drains it."""
    from briscola.server import create_app
    from briscola.server.app import drain
    from briscola.server.settings import ServerSettings

    app = create_app(ServerSettings(data=tmp_path / "data"))
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://t") as http,
    ):
        assert (await http.get("/readyz")).status_code == 200
        await drain(app)
        stopping = await http.get("/readyz")
        alive = await http.get("/healthz")
    assert stopping.status_code == 503
    assert stopping.json() == {"status": "stopping", "checks": {"database": "ok"}}
    assert alive.status_code == 200


async def test_readyz_checks_redis_too_when_processes_share_one(
    server_factory: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    """With ``--redis-url`` naming a Redis that is not there, the process serves (it finds
    the others' changes by looking) but is not ready."""
    async with database("postgresql") as url:
        srv = server_factory(url, "--redis-url", f"unix://{tmp_path}/no-redis.sock")
        try:
            async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
                ready = await http.get("/readyz")
        finally:
            srv.stop()
    assert ready.status_code == 503, ready.text
    checks = ready.json()["checks"]
    assert checks["database"] == "ok"
    assert checks["redis"].startswith("failed (") and str(tmp_path) not in ready.text


@pytest.mark.parametrize(
    ("error", "counted", "traceback"),
    [
        (ConnectionRefusedError(111, "Connection refused"), "unavailable", False),
        (TimeoutError(), "unavailable", False),
        (KeyError("a bug"), None, True),
    ],
    ids=["refused", "timed-out", "a-bug"],
)
def test_work_the_database_failed_is_counted_and_warned_and_a_bug_is_a_traceback(
    error: BaseException, counted: str | None, traceback: bool, caplog: Any
) -> None:
    """The background work (deadlines, sessions, tables taken up or rebuilt) that fails
    with the database away is counted among the storage errors, by its kind, and said in a
    warning; a fault of the server's is not counted as the database's, and is logged with
    its traceback."""
    from briscola.server.live import storage_failed
    from briscola.server.metrics import Metrics

    metrics = Metrics()
    with caplog.at_level("WARNING", logger="briscola.server"):
        storage_failed(metrics, "deadlines", error, "the deadlines could not be read")
    text = metrics.text().decode()
    samples = [x for x in text.splitlines() if x.startswith("briscola_storage_errors_total{")]
    if counted is None:
        assert samples == []
    else:
        assert samples == [
            f'briscola_storage_errors_total{{kind="{counted}",operation="deadlines"}} 1.0'
        ]
    (record,) = caplog.records
    assert record.getMessage().startswith("the deadlines could not be read")
    assert (record.levelname, record.exc_info is not None) == (
        ("ERROR", True) if traceback else ("WARNING", False)
    )
