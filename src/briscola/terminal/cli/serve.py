"""``briscola serve``: online tables (:mod:`briscola.server`), its options checked here
before anything is made."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from briscola.terminal.cli.common import MISSING_EXTRA, fail


def serve(
    data: Annotated[
        Path,
        typer.Option(
            "--data",
            metavar="DIR",
            help="The folder of the SQLite database (made if missing, its owner's alone).",
        ),
    ] = Path("briscola-data"),
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            metavar="URL",
            help="A PostgreSQL database, as postgresql+asyncpg://USER@HOST/DB, instead of "
            "SQLite in the data folder.",
        ),
    ] = None,
    host: Annotated[
        str,
        typer.Option(
            metavar="ADDRESS", help="The address to listen at; 0.0.0.0 for every network."
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, metavar="PORT", help="The port; 0 takes a free one.")
    ] = 8000,
    grace: Annotated[
        float,
        typer.Option(
            min=0,
            metavar="SECONDS",
            help="How long a player may be away from a table in play before a computer "
            "player stands in for them.",
        ),
    ] = 60.0,
    bot_delay: Annotated[
        float,
        typer.Option(min=0, max=10, metavar="SECONDS", help="The pause before each computer move."),
    ] = 0.6,
    min_clock: Annotated[
        float,
        typer.Option(
            min=0, metavar="SECONDS", help="The shortest per-move clock a table may have."
        ),
    ] = 5.0,
    public_url: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help="Behind a reverse proxy, the address people open (https://cards.example.org): "
            "pages of that origin alone may act, and over https the session cookie is Secure.",
        ),
    ] = None,
    session_days: Annotated[
        float,
        typer.Option(
            metavar="DAYS",
            help="How long a session lasts unused before its nickname must be chosen again.",
        ),
    ] = 90.0,
    redis_url: Annotated[
        str | None,
        typer.Option(
            "--redis-url",
            metavar="URL",
            help="Redis (redis://host:6379/0), for several server processes sharing one "
            "PostgreSQL database (--database-url): it carries their wake-ups.",
        ),
    ] = None,
    limits: Annotated[
        str,
        typer.Option(
            metavar="on|off",
            help="Limits per person and per address (sessions and tables made, public tables "
            "and connections open at once); off for benchmarks and tests only.",
        ),
    ] = "on",
    log_level: Annotated[
        str,
        typer.Option(
            help="debug, info, warning or error (info adds a line for each HTTP request)."
        ),
    ] = "warning",
    log_format: Annotated[
        str,
        typer.Option(
            metavar="FORMAT",
            help="The log on standard error: json, one JSON object a line (time, level, "
            "logger, message, table, request); text; auto, text on a terminal, else JSON.",
        ),
    ] = "auto",
    metrics: Annotated[
        str,
        typer.Option(
            metavar="WHO",
            help="Who may read the Prometheus metrics at /metrics: local, this machine "
            "asked directly (not through a reverse proxy); on, anyone; off, nobody; or "
            "networks such as 10.0.0.0/8,192.168.1.0/24 (this machine too).",
        ),
    ] = "local",
) -> None:
    """Serve online tables: the REST API, its page at /docs, and each table's WebSocket.

    Prints the URL once it listens. /healthz answers while the process runs, /readyz
    while its database answers too (503 once it stops), /metrics the Prometheus metrics.
    SIGTERM stops it gracefully: each action in flight stored, each WebSocket closed with
    1012 so that its client connects again, then exit 0 (docs/operations.md)."""
    try:
        from briscola.server.limits import OFF, Limits
        from briscola.server.logs import chosen_format
        from briscola.server.metrics import Access
        from briscola.server.run import AddressError, DatabaseError
        from briscola.server.run import serve as run_server
        from briscola.server.settings import ServerSettings
    except ImportError as e:
        raise fail(MISSING_EXTRA.format(what=f"serving needs {e.name}", extra="server")) from None
    if log_level not in ("debug", "info", "warning", "error"):
        raise fail(f"--log-level is debug, info, warning or error, not {log_level!r}")
    if not 0 < session_days <= 3650:
        raise fail(f"--session-days is more than 0 and at most 3650, not {session_days:g}")
    if limits not in ("on", "off"):
        raise fail(f"--limits is on or off, not {limits!r}")
    try:
        chosen_format(log_format)
    except ValueError:
        raise fail(f"--log-format is json, text or auto, not {log_format!r}") from None
    try:
        Access.parse(metrics)
    except ValueError as e:
        raise fail(f"--metrics: {e}") from None
    if public_url is not None:
        from briscola.server.guard import origin_of

        try:
            origin_of(public_url)
        except ValueError as e:
            raise fail(f"--public-url: {e}") from None
    if data.exists() and not data.is_dir():
        raise fail(f"--data {data}: it is a file; name a folder (it is made if missing)")
    if database_url and not database_url.startswith(
        ("postgresql+asyncpg://", "sqlite+aiosqlite://")
    ):
        raise fail(
            "--database-url: use postgresql+asyncpg://user:password@host/db "
            "(or sqlite+aiosqlite:///path/briscola.db)"
        )
    if redis_url is not None:
        if not redis_url.startswith(("redis://", "rediss://", "unix://")):
            raise fail(
                f"--redis-url: use redis://host:6379/0 (or rediss://, unix://), not {redis_url!r}"
            )
        if not (database_url or "").startswith("postgresql+asyncpg://"):
            raise fail(
                "--redis-url is for several processes sharing one PostgreSQL database: give "
                "--database-url postgresql+asyncpg://... too (SQLite serves one process alone)"
            )
        try:
            import redis  # noqa: F401
        except ImportError:
            raise fail(
                MISSING_EXTRA.format(what="--redis-url needs redis", extra="server")
            ) from None
    try:
        data.mkdir(mode=0o700, parents=True, exist_ok=True)  # private: ServerSettings.data_folder
    except OSError as e:
        raise fail(f"--data {data}: cannot make the folder: {e.strerror}") from None
    settings = ServerSettings(
        data=data,
        database_url=database_url,
        grace=grace,
        bot_delay=bot_delay,
        min_clock=min_clock,
        public_url=public_url,
        redis_url=redis_url,
        session_idle=session_days * 24 * 3600,
        limits=OFF if limits == "off" else Limits(),
        metrics=metrics,
    )
    try:
        run_server(settings, host=host, port=port, log_level=log_level, log_format=log_format)
    except (AddressError, DatabaseError) as e:
        raise fail(str(e)) from None
    except OSError as e:
        raise fail(f"cannot serve at {host}:{port}: {e.strerror or e}") from None
