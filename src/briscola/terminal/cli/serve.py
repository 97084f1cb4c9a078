"""``briscola serve``: online tables (:mod:`briscola.server`), its options checked here
before anything is made.

Each option comes from the command line, else from its environment variable
(``BRISCOLA_PORT`` for ``--port``), else from the TOML file of ``--config`` (``port = 8001``:
the option's name with underscores), else from its default. The file is read by the eager
``--config`` option, which checks it whole (a key no option has, a value of the wrong type
or out of range) and hands it to click as the command's ``default_map``, the source click
consults after the command line and the environment."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Any, get_args, get_type_hints

import typer
import typer.models

from briscola.terminal.cli.common import MISSING_EXTRA, fail


def settings_of_file() -> dict[str, tuple[type, typer.models.OptionInfo]]:
    """The settings a ``--config`` file may hold: each option of :func:`serve` but
    ``config``, by its name with underscores, with its type (``int``, ``float``, ``str``;
    ``Path`` for ``data``) and its option (its range)."""
    found: dict[str, tuple[type, typer.models.OptionInfo]] = {}
    for name, hint in get_type_hints(serve, include_extras=True).items():
        if name in ("ctx", "config", "return"):
            continue
        kind, option = get_args(hint)[:2]
        kinds = [k for k in get_args(kind) or (kind,) if k is not type(None)]
        found[name] = (kinds[0], option)
    return found


def read_config(ctx: typer.Context, path: Path | None) -> Path | None:
    """``--config FILE``: its settings become the defaults of the other options (what the
    command line and the environment leave unset). Fails, naming the file and the key, on a
    file that is missing or not TOML, on a key no option has, and on a value of the wrong
    type or out of the option's range."""
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise fail(f"--config {path}: no such file") from None
    except IsADirectoryError:
        raise fail(f"--config {path}: it is a folder; name a TOML file") from None
    except PermissionError:
        raise fail(f"--config {path}: not allowed to read it") from None
    except (OSError, UnicodeDecodeError) as e:
        raise fail(f"--config {path}: cannot read it: {e}") from None
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise fail(f"--config {path}: not TOML: {e}") from None
    known = settings_of_file()
    settings: dict[str, Any] = {}
    for key, value in table.items():
        if key not in known:
            names = ", ".join(known)
            raise fail(f"--config {path}: unknown setting {key!r}; the settings are: {names}")
        kind, option = known[key]
        if kind is int:
            ok, what = isinstance(value, int) and not isinstance(value, bool), "a whole number"
        elif kind is float:
            ok, what = isinstance(value, int | float) and not isinstance(value, bool), "a number"
        else:
            ok, what = isinstance(value, str), "a string (in quotes)"
        if not ok:
            raise fail(f"--config {path}: {key} = {value!r}: {key} is {what}")
        low, high = getattr(option, "min", None), getattr(option, "max", None)
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = " and ".join(
                f"{word} {bound:g}"
                for word, bound in (("at least", low), ("at most", high))
                if bound is not None
            )
            raise fail(f"--config {path}: {key} = {value!r}: {key} is {bounds}")
        settings[key] = value
    ctx.default_map = {**(ctx.default_map or {}), **settings}
    ctx.meta["briscola.config"] = path
    return path


def named(ctx: typer.Context, name: str) -> str:
    """How a message names the setting ``name`` (``log_level``), by where its value came
    from: ``--log-level`` (the command line, or the default), ``BRISCOLA_LOG_LEVEL`` (the
    environment) or ``--config FILE: log_level`` (the file)."""
    source = ctx.get_parameter_source(name)
    kind = source.name if source is not None else ""
    if kind == "ENVIRONMENT":
        return f"BRISCOLA_{name.upper()}"
    if kind == "DEFAULT_MAP":
        return f"--config {ctx.meta['briscola.config']}: {name}"
    return "--" + name.replace("_", "-")


def serve(
    ctx: typer.Context,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            metavar="FILE",
            envvar="BRISCOLA_CONFIG",
            is_eager=True,
            callback=read_config,
            help="A TOML file of settings, one an option, named with underscores "
            '(port = 8001, public_url = "https://cards.example.org"). The command line '
            "wins over an option's environment variable, which wins over the file.",
        ),
    ] = None,
    data: Annotated[
        Path,
        typer.Option(
            "--data",
            metavar="DIR",
            envvar="BRISCOLA_DATA",
            help="The folder of the SQLite database (made if missing, its owner's alone).",
        ),
    ] = Path("briscola-data"),
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            metavar="URL",
            envvar="BRISCOLA_DATABASE_URL",
            help="A PostgreSQL database, as postgresql+asyncpg://USER@HOST/DB, instead of "
            "SQLite in the data folder.",
        ),
    ] = None,
    host: Annotated[
        str,
        typer.Option(
            metavar="ADDRESS",
            envvar="BRISCOLA_HOST",
            help="The address to listen at; 0.0.0.0 for every network.",
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(
            min=0,
            max=65535,
            metavar="PORT",
            envvar="BRISCOLA_PORT",
            help="The port; 0 takes a free one.",
        ),
    ] = 8000,
    grace: Annotated[
        float,
        typer.Option(
            min=0,
            metavar="SECONDS",
            envvar="BRISCOLA_GRACE",
            help="How long a player may be away from a table in play before a computer "
            "player stands in for them.",
        ),
    ] = 60.0,
    bot_delay: Annotated[
        float,
        typer.Option(
            min=0,
            max=10,
            metavar="SECONDS",
            envvar="BRISCOLA_BOT_DELAY",
            help="The pause before each computer move.",
        ),
    ] = 0.6,
    min_clock: Annotated[
        float,
        typer.Option(
            min=0,
            metavar="SECONDS",
            envvar="BRISCOLA_MIN_CLOCK",
            help="The shortest per-move clock a table may have.",
        ),
    ] = 5.0,
    public_url: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            envvar="BRISCOLA_PUBLIC_URL",
            help="Behind a reverse proxy, the address people open (https://cards.example.org): "
            "pages of that origin alone may act, and over https the session cookie is Secure.",
        ),
    ] = None,
    session_days: Annotated[
        float,
        typer.Option(
            metavar="DAYS",
            envvar="BRISCOLA_SESSION_DAYS",
            help="How long a session lasts unused before its nickname must be chosen again.",
        ),
    ] = 90.0,
    redis_url: Annotated[
        str | None,
        typer.Option(
            "--redis-url",
            metavar="URL",
            envvar="BRISCOLA_REDIS_URL",
            help="Redis (redis://host:6379/0), for several server processes sharing one "
            "PostgreSQL database (--database-url): it carries their wake-ups.",
        ),
    ] = None,
    limits: Annotated[
        str,
        typer.Option(
            metavar="on|off",
            envvar="BRISCOLA_LIMITS",
            help="Limits per person and per address (sessions and tables made, public tables "
            "and connections open at once); off for benchmarks and tests only.",
        ),
    ] = "on",
    log_level: Annotated[
        str,
        typer.Option(
            envvar="BRISCOLA_LOG_LEVEL",
            help="debug, info, warning or error (info adds a line for each HTTP request).",
        ),
    ] = "warning",
    log_format: Annotated[
        str,
        typer.Option(
            metavar="FORMAT",
            envvar="BRISCOLA_LOG_FORMAT",
            help="The log on standard error: json, one JSON object a line (time, level, "
            "logger, message, table, request); text; auto, text on a terminal, else JSON.",
        ),
    ] = "auto",
    metrics: Annotated[
        str,
        typer.Option(
            metavar="WHO",
            envvar="BRISCOLA_METRICS",
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
    1012 so that its client connects again, then exit 0 (docs/operations.md).

    Each option may also come from its environment variable (shown with it) or from the
    --config file: the command line first, then the environment, then the file, then the
    default (docs/deploy.md)."""
    del config  # read by its callback, read_config
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
        raise fail(f"{named(ctx, 'log_level')} is debug, info, warning or error, not {log_level!r}")
    if not 0 < session_days <= 3650:
        raise fail(
            f"{named(ctx, 'session_days')} is more than 0 and at most 3650, not {session_days:g}"
        )
    if limits not in ("on", "off"):
        raise fail(f"{named(ctx, 'limits')} is on or off, not {limits!r}")
    try:
        chosen_format(log_format)
    except ValueError:
        raise fail(
            f"{named(ctx, 'log_format')} is json, text or auto, not {log_format!r}"
        ) from None
    try:
        Access.parse(metrics)
    except ValueError as e:
        raise fail(f"{named(ctx, 'metrics')}: {e}") from None
    if public_url is not None:
        from briscola.server.guard import origin_of

        try:
            origin_of(public_url)
        except ValueError as e:
            raise fail(f"{named(ctx, 'public_url')}: {e}") from None
    if data.exists() and not data.is_dir():
        raise fail(
            f"{named(ctx, 'data')} {data}: it is a file; name a folder (it is made if missing)"
        )
    if database_url and not database_url.startswith(
        ("postgresql+asyncpg://", "sqlite+aiosqlite://")
    ):
        raise fail(
            f"{named(ctx, 'database_url')}: use postgresql+asyncpg://user:password@host/db "
            "(or sqlite+aiosqlite:///path/briscola.db)"
        )
    if redis_url is not None:
        if not redis_url.startswith(("redis://", "rediss://", "unix://")):
            raise fail(
                f"{named(ctx, 'redis_url')}: use redis://host:6379/0 (or rediss://, unix://), "
                f"not {redis_url!r}"
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
        raise fail(f"{named(ctx, 'data')} {data}: cannot make the folder: {e.strerror}") from None
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
