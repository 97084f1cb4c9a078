"""The FastAPI application: the routes (:mod:`briscola.server.routes`: sessions, the
games, the lobby and tables, records and history, the pages; their OpenAPI page at
``/docs``) and each table's WebSocket (:mod:`briscola.server.socket`, docs/protocol.md),
behind the guards of :mod:`briscola.server.guard`; its lifespan opens the storage, takes
up the tables in play and watches their deadlines. Its health (``/healthz``, ``/readyz``,
``/metrics``: :mod:`briscola.server.routes.health`) reads ``app.state.readiness`` (the
named readiness checks: the database's, and Redis's when several processes share it)
and ``app.state.metrics`` (:class:`~briscola.server.metrics.Metrics`, the application's own
registry). Every request and WebSocket has an id, sent back in ``X-Request-ID`` and named
in the log lines written meanwhile (:mod:`briscola.server.logs`). :func:`drain` stops it
gracefully, as the process stops (SIGTERM).

Every error is JSON, ``{"error": {"code": ..., "message": ..., "values": ...}}``
(:mod:`briscola.server.errors`), with the HTTP status that fits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from datetime import timedelta

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware

from briscola import __version__
from briscola.server import news, nicknames, sessions, socket
from briscola.server.broadcast import Broadcaster, InProcess, RedisWakeups
from briscola.server.deps import Guards, describe
from briscola.server.errors import Refused, Value, error_json
from briscola.server.failures import storage_failed
from briscola.server.guard import BODY_LIMIT, BodyLimit, Guard
from briscola.server.logs import RequestIds
from briscola.server.messages import SCHEMA_PATH
from briscola.server.metrics import Access, Metrics, is_storage_error
from briscola.server.routes import ROUTERS
from briscola.server.routes.health import Checks, database_check
from briscola.server.routes.pages import STATIC
from briscola.server.settings import ServerSettings
from briscola.server.tables import Tables
from briscola.storage import Storage
from briscola.words.lookalikes import prototypes

log = logging.getLogger("briscola.server")

COMPRESS_FROM = 1024
"""The smallest answer sent gzipped, in bytes (below it, compressing gains too little)."""


async def forget_sessions(storage: Storage, idle: timedelta, metrics: Metrics) -> None:
    """Delete the sessions left unused past their lifetime, every hour, so that the
    table of sessions holds the live ones alone."""
    while True:
        try:
            if dropped := await storage.drop_idle_sessions(idle):
                log.info("%d sessions unused for %s ended", dropped, idle)
        except Exception as e:
            storage_failed(metrics, "sessions", e, "the sessions unused could not be ended")
        await asyncio.sleep(3600)


async def drain(app: FastAPI) -> None:
    """Stop the application gracefully, as its process stops: ``/readyz`` answers 503 from
    now on, the deadlines and sweeps stop, and the tables drain
    (:meth:`~briscola.server.tables.Tables.drain`: the actions in flight stored and told,
    each WebSocket closed with 1012). The caller bounds how long it may take."""
    tables: Tables | None = getattr(app.state, "tables", None)
    if tables is None:  # not started
        return
    tables.draining = True
    for task in getattr(app.state, "running", ()):
        task.cancel()
    await tables.drain()


def fail(
    status: int,
    code: str,
    message: str,
    headers: dict[str, str] | None = None,
    values: Mapping[str, Value] | None = None,
) -> JSONResponse:
    """An error's answer: ``{"error": {"code": ..., "message": ..., "values": ...}}``."""
    return JSONResponse(
        {"error": error_json(code, message, values)}, status_code=status, headers=headers
    )


async def refused(request: Request, e: Exception) -> JSONResponse:
    assert isinstance(e, Refused)
    return fail(e.status, e.code, e.message, e.headers, e.values)


async def invalid(request: Request, e: Exception) -> JSONResponse:
    assert isinstance(e, RequestValidationError)
    return fail(422, "bad_request", describe(e.errors()))


async def http_error(request: Request, e: Exception) -> JSONResponse:
    """Starlette's and FastAPI's own refusals, in the body of every other error: no such
    route, a method the route has not, a body that could not be read."""
    assert isinstance(e, HTTPException)
    answer = None
    if e.status_code == 404:
        answer = fail(
            404, "no_route", f"there is no {request.url.path} on this server: the API's "
            "routes are listed at /docs"
        )  # fmt: skip
    elif e.status_code == 405:
        allowed = (e.headers or {}).get("Allow", "")
        answer = fail(
            405, "bad_method", f"{request.method} is not a method of {request.url.path}: "
            f"use {allowed or 'another'}"
        )  # fmt: skip
    elif e.status_code == 400:  # FastAPI: a body it could not parse (nested too deeply...)
        answer = fail(
            422, "bad_request", "the body could not be read as JSON (not UTF-8, or nested "
            "too deeply): send one JSON object"
        )  # fmt: skip
    if answer is None:
        answer = fail(e.status_code, "bad_request", str(e.detail))
    answer.headers.update(e.headers or {})
    return answer


def crashed(metrics: Metrics) -> Callable[[Request, Exception], Awaitable[Response]]:
    """The answer to a request that failed with an unforeseen error: Starlette's own (``500
    Internal Server Error``, the error logged), a storage failure counted first."""

    async def answer(request: Request, e: Exception) -> Response:
        if is_storage_error(e):
            metrics.storage_failed("request", e)
        return PlainTextResponse("Internal Server Error", status_code=500)

    return answer


def create_app(
    settings: ServerSettings | None = None, broadcaster: Broadcaster | None = None
) -> FastAPI:
    """The server's application; its lifespan opens the storage, takes up the tables in
    play and watches their deadlines."""
    settings = settings or ServerSettings()
    guards = Guards.of(settings)
    metrics = Metrics()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = await Storage.open(settings.url)
        storage.gather = settings.append_gather
        wakeups = None
        if broadcaster is None and settings.redis_url:
            wakeups = RedisWakeups(
                settings.redis_url,
                changed=lambda key, parts: heard_or_changed(key, parts),
                missed=lambda: tables.follow_all(),
                gather=settings.wakeup_gather,
            )
        tables = Tables(storage, settings, broadcaster or wakeups or InProcess(), metrics)

        async def heard_or_changed(key: str, parts: str) -> None:
            if (
                not await sessions.heard(guards, key)
                and not await news.heard(tables.broadcaster, key)
                and not await nicknames.heard(tables, key)
            ):
                await tables.changed(key, parts)

        metrics.counting(tables.counts)
        app.state.storage = storage
        app.state.tables = tables
        readiness: Checks = app.state.readiness
        readiness["database"] = database_check(storage)
        if wakeups is not None:
            readiness["redis"] = wakeups.ping
        await tables.resume()
        prototypes()  # read once, before the first nickname is checked
        running = [
            asyncio.create_task(tables.watch()),
            asyncio.create_task(forget_sessions(storage, guards.idle, metrics)),
            asyncio.create_task(sessions.watch_sockets(guards, storage, metrics)),
            asyncio.create_task(tables.sweep()),
        ]
        if tables.shared:
            running.append(asyncio.create_task(tables.look()))
        if wakeups is not None:
            running.append(asyncio.create_task(wakeups.listen()))
        app.state.running = running
        try:
            yield
        finally:
            for task in running:
                task.cancel()
            await tables.close()
            if wakeups is not None:
                await wakeups.close()
            await storage.close()

    app = FastAPI(
        title="briscola",
        version=__version__,
        summary="Online tables of the Briscola family: the REST part (the WebSocket of a "
        "table is in docs/protocol.md).",
        description="Choose a nickname (`POST /api/session`: the session is a cookie the "
        "server can end), "
        "open a table or find one in the lobby, take a seat, start; then play over the table's "
        "WebSocket, `/api/tables/{token}/ws`. Every error is "
        '`{"error": {"code": ..., "message": ..., "values": ...}}` (`values` fill the '
        "sentence a person reads, `error.CODE` of `GET /api/catalogue`). The whole protocol, "
        "with an example of every message: docs/protocol.md; the JSON Schema of every "
        f"WebSocket message, generated from the server's models: [{SCHEMA_PATH}]({SCHEMA_PATH}).",
        lifespan=lifespan,
    )
    app.state.guards = guards
    app.state.metrics = metrics
    app.state.metrics_access = Access.parse(settings.metrics)
    app.state.readiness = {}  # filled as the lifespan opens what it checks
    app.add_middleware(BodyLimit, limit=BODY_LIMIT)
    app.add_middleware(Guard, public_url=settings.public_url)
    # the client's files and the catalogue sent gzipped (a phone's first load, about a
    # third of its size: benchmarks/first_load.py); small answers, the PNG icons and the
    # WebSocket as they are
    app.add_middleware(GZipMiddleware, minimum_size=COMPRESS_FROM, compresslevel=6)
    # outermost: every request's id, for the log lines written while it is served (the
    # refusals of the guard's too) and its answer's X-Request-ID
    app.add_middleware(RequestIds)
    app.add_exception_handler(Refused, refused)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, crashed(metrics))
    for router in ROUTERS:
        app.include_router(router)
    app.include_router(socket.router)
    app.include_router(news.router)
    # The browser client's ES modules, CSS and strings.
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
