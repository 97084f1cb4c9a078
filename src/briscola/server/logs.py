"""The server's logs: one line a record, as JSON (one object a line) or as text, each with
the table and the request it belongs to when they are known.

Two context variables say them: :data:`TABLE` (a table's token) and :data:`REQUEST` (an id
for each HTTP request and each WebSocket connection). :class:`RequestIds`, ASGI middleware,
gives every request its id (the ``X-Request-ID`` a proxy in front sent, when it is a
plain one, or a new one) and sends it back in the answer's ``X-Request-ID`` header (the
WebSocket's handshake too); a request to a table's path names the table. A live table's
own tasks (computer players, a clock run out) run in :func:`table_context`: their
table, no request.

:func:`log_config` is the :func:`logging.config.dictConfig` of a server process: the
``briscola`` loggers and uvicorn's (its errors, and its access lines when the level is
``info`` or ``debug``) through one handler on standard error, formatted by
:class:`JsonFormatter` (``{"time", "level", "logger", "message", "table", "request"}``,
an access line's ``client``, ``method``, ``path`` and ``status`` too, and ``error``, the
traceback, when there is one) or :class:`TextFormatter`.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import secrets
import sys
from datetime import UTC, datetime
from typing import Any

TABLE: contextvars.ContextVar[str | None] = contextvars.ContextVar("briscola_table", default=None)
"""The token of the table the code running serves, when it serves one."""
REQUEST: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "briscola_request", default=None
)
"""The id of the HTTP request or WebSocket connection being served."""

HEADER = b"x-request-id"
PLAIN_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
"""An ``X-Request-ID`` taken from a proxy as it is: short, letters, digits and ``._:-``."""
TABLE_PATH = re.compile(r"/api/tables/([A-Za-z0-9_-]{1,64})(?:/|$)")
FORMATS = ("json", "text")


def new_id() -> str:
    """A new request id: 16 hexadecimal digits."""
    return secrets.token_hex(8)


def table_context(token: str) -> contextvars.Context:
    """A context for a task of the table ``token``'s own: its table, no request."""
    context = contextvars.copy_context()
    context.run(TABLE.set, token)
    context.run(REQUEST.set, None)
    return context


class RequestIds:
    """ASGI middleware: each HTTP request and WebSocket connection gets an id
    (:data:`REQUEST`), sent back in ``X-Request-ID``; a table's path sets :data:`TABLE`."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = next((bytes(v) for k, v in scope.get("headers") or () if k == HEADER), b"")
        text = given.decode("latin-1")
        rid = text if PLAIN_ID.fullmatch(text) else new_id()
        found = TABLE_PATH.match(scope.get("path", ""))
        request = REQUEST.set(rid)
        table = TABLE.set(found.group(1) if found else None)
        start = "http.response.start" if scope["type"] == "http" else "websocket.accept"
        header = (HEADER, rid.encode())

        async def with_id(message: Any) -> None:
            if message["type"] == start:
                message = {**message, "headers": [*message.get("headers", ()), header]}
            await send(message)

        try:
            await self.app(scope, receive, with_id)
        finally:
            TABLE.reset(table)
            REQUEST.reset(request)


def _time(record: logging.LogRecord) -> str:
    at = datetime.fromtimestamp(record.created, UTC)
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _access(record: logging.LogRecord) -> dict[str, Any]:
    """An uvicorn access line's parts: its arguments are (client, method, path, HTTP
    version, status)."""
    args = record.args
    if record.name != "uvicorn.access" or not isinstance(args, tuple) or len(args) != 5:
        return {}
    client, method, path, _, status = args
    return {"client": client, "method": method, "path": path, "status": status}


class JsonFormatter(logging.Formatter):
    """A record as one JSON object on one line: see the module's documentation."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": _time(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        line |= _access(record)
        table, request = TABLE.get(), REQUEST.get()
        if table is not None:
            line["table"] = table
        if request is not None:
            line["request"] = request
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["error"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """A record as a line of text: time, level, logger, message, then ``table=`` and
    ``request=`` when known (a traceback on the lines after)."""

    def format(self, record: logging.LogRecord) -> str:
        parts = [_time(record), record.levelname.lower(), record.name, record.getMessage()]
        table, request = TABLE.get(), REQUEST.get()
        if table is not None:
            parts.append(f"table={table}")
        if request is not None:
            parts.append(f"request={request}")
        line = " ".join(parts)
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def chosen_format(given: str) -> str:
    """``json`` or ``text``; ``auto``: text on a terminal, JSON otherwise (a service
    manager's journal, a container's log, a file). :class:`ValueError` for another."""
    if given == "auto":
        return "text" if sys.stderr.isatty() else "json"
    if given not in FORMATS:
        raise ValueError(f"the log format is json, text or auto, not {given!r}")
    return given


def log_config(level: str, form: str) -> dict[str, Any]:
    """The logging configuration of a server process: ``level`` (``debug``, ``info``,
    ``warning``, ``error``) and ``form`` (``json`` or ``text``)."""
    formatter = JsonFormatter if chosen_format(form) == "json" else TextFormatter
    shown = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": {"()": f"{__name__}.{formatter.__name__}"}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "line",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            name: {"handlers": ["stderr"], "level": shown, "propagate": False}
            for name in ("briscola", "uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }


__all__ = [
    "REQUEST",
    "TABLE",
    "JsonFormatter",
    "RequestIds",
    "TextFormatter",
    "chosen_format",
    "log_config",
    "table_context",
]
