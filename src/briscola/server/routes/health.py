"""The server's health, for a load balancer, a service manager and Prometheus; none needs
a session or an ``Origin``, and none says anything of the players or the database's
address.

- ``GET /healthz``: ``200 {"status": "ok"}`` while the process runs its event loop.
- ``GET /readyz``: ``200 {"status": "ready", "checks": {"database": "ok", ...}}`` when every
  readiness check passes, else ``503`` with ``"status": "unready"`` and, for each check
  that failed, what went wrong in words; ``503`` with ``"status": "stopping"`` once the
  process has begun to stop (SIGTERM), so that a balancer sends it nobody new.
- ``GET /metrics``: the Prometheus metrics (:mod:`briscola.server.metrics`), to the
  addresses ``briscola serve --metrics`` lets read them (this machine alone by default);
  ``404`` to the others.

The readiness checks are the named coroutines of ``app.state.readiness``
(:data:`Checks`): each returns when its part answers and raises when it does not, and
each is given :data:`CHECK_TIMEOUT` seconds. The database's is :func:`database_check`
(``SELECT 1``); with several processes (``--redis-url``) Redis's joins it as ``redis``
(``PING``: :meth:`briscola.server.broadcast.RedisWakeups.ping`); another part a process
comes to depend on joins with a check of its own under its name.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from briscola.server.deps import TablesDep
from briscola.server.errors import Refused
from briscola.server.metrics import CONTENT_TYPE, Access, Metrics
from briscola.storage import Storage

log = logging.getLogger("briscola.server")

router = APIRouter(include_in_schema=False)

Check = Callable[[], Awaitable[None]]
Checks = dict[str, Check]
"""The readiness checks by name (``app.state.readiness``)."""

CHECK_TIMEOUT = 2.0
"""Seconds a readiness check may take before it counts as failed."""

PROXY_HEADERS = (b"x-forwarded-for", b"forwarded", b"x-real-ip")
"""Headers a reverse proxy adds: a request carrying one came from outside the machine."""


def database_check(storage: Storage) -> Check:
    """The database's readiness check: it answers ``SELECT 1``."""
    return storage.ping


async def run_check(name: str, check: Check, timeout: float = CHECK_TIMEOUT) -> str | None:
    """``None`` when ``check`` passes within ``timeout`` seconds, else what went wrong
    in words (the error's kind alone: its message, which may name a host, goes to the
    log)."""
    try:
        await asyncio.wait_for(check(), timeout)
    except TimeoutError:
        log.warning("readiness: %s did not answer within %g s", name, timeout)
        return f"did not answer within {timeout:g} s"
    except Exception as e:
        log.warning("readiness: %s failed: %s", name, e)
        return f"failed ({type(e).__name__}): the server's log says more"
    return None


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process runs (its event loop answers)."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(request: Request, tables: TablesDep) -> JSONResponse:
    """Ready to serve: every check passes, and the process is not stopping."""
    checks: Checks = request.app.state.readiness
    names = list(checks)
    failed = await asyncio.gather(*(run_check(n, checks[n]) for n in names))
    said: dict[str, Any] = {n: why or "ok" for n, why in zip(names, failed, strict=True)}
    if tables.draining:
        return JSONResponse({"status": "stopping", "checks": said}, status_code=503)
    if any(failed):
        return JSONResponse({"status": "unready", "checks": said}, status_code=503)
    return JSONResponse({"status": "ready", "checks": said})


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    """The Prometheus metrics, to the addresses allowed (``--metrics``)."""
    access: Access = request.app.state.metrics_access
    headers = request.scope.get("headers") or ()
    proxied = any(k in PROXY_HEADERS for k, _ in headers)
    client = request.client.host if request.client else None
    if not access.allows(client, proxied=proxied):
        raise Refused(
            "no_route",
            f"there is no /metrics for you on this server: its metrics are read by "
            f"{access.says()} (briscola serve --metrics)",
            404,
        )
    counted: Metrics = request.app.state.metrics
    return Response(counted.text(), media_type=CONTENT_TYPE)
