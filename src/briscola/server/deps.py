"""What the routes depend on, as FastAPI dependencies (the full-stack FastAPI template's
``api/deps.py`` is the model): the tables, the server's own counts for its limits, and who
is asking (:data:`Me`, :data:`Maybe`), with the session's cookie and the errors' bodies.

A session is a record the server keeps, named by a random token in an HTTP-only cookie
(:data:`COOKIE`; the database holds its SHA-256 alone, :func:`digest`). Each use of it
sets the cookie again, so that its idle time starts again.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Annotated, Any

from fastapi import Depends, Response, WebSocket
from fastapi.requests import HTTPConnection

from briscola.server.errors import Refused
from briscola.server.limits import Buckets, Counts
from briscola.server.messages import ErrorBody
from briscola.server.settings import ServerSettings
from briscola.server.tables import Tables
from briscola.storage import NotFound, Player

COOKIE = "briscola_session"

ERRORS: dict[int, str] = {
    400: "Refused, nothing changed: the error's `code` says why (docs/protocol.md lists them).",
    401: "No session: choose a nickname first (`POST /api/session`); code `no_session`.",
    403: "Not yours to do: only the host (`not_host`), or only a seated player (`not_yours`); "
    "or a page of another origin (`bad_origin`: docs/protocol.md, 'Who may call').",
    404: "No such session of yours (`bad_session`), table (`not_found`), seat (`bad_seat`), "
    "hand (`bad_hand`), finished hand (`not_finished`) or game (`bad_game`).",
    409: "Not now: the table's status or its seats forbid it (`wrong_status`, `seats_open`, "
    "`seat_taken`, `seated`).",
    422: "A body or parameter of the wrong form; code `bad_request`, the message names the field.",
    429: "Too many (`too_many`; `too_many_hints`, `too_many_analyses`): past a limit per "
    "person or per address; `Retry-After` says in how many seconds to try again.",
    503: "Not now: the server is busy working out other hints or analyses (`busy`, with "
    "`Retry-After`) or cannot analyse hands (`no_analysis`); ask again later.",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route that may refuse with these HTTP statuses; every
    error body is an :class:`~briscola.server.messages.ErrorBody`."""
    return {s: {"model": ErrorBody, "description": ERRORS[s]} for s in statuses}


@dataclass
class Guards:
    """The server process's own counts for its limits (:mod:`briscola.server.limits`), and
    each session's open sockets (closed when the session ends)."""

    settings: ServerSettings
    new_sessions: Buckets
    new_tables: Buckets
    new_tables_here: Buckets
    sockets_of: Counts
    sockets_here: Counts
    new_codes: Buckets
    sign_in_tries: Buckets
    hints: Buckets
    hints_here: Buckets
    analyses: Buckets
    analyses_here: Buckets
    public_here: dict[str, list[str]] = field(default_factory=dict)
    """The public tables opened from each address (their tokens), to count those open."""
    session_sockets: dict[str, set[WebSocket]] = field(default_factory=dict)
    """Each session's open WebSockets (by its token's hash), closed when it ends."""

    @classmethod
    def of(cls, settings: ServerSettings) -> Guards:
        limits = settings.limits
        return cls(
            settings,
            new_sessions=Buckets(limits.sessions_per_address),
            new_tables=Buckets(limits.tables_per_person),
            new_tables_here=Buckets(limits.tables_per_address),
            sockets_of=Counts(limits.connections_per_person),
            sockets_here=Counts(limits.connections_per_address),
            new_codes=Buckets(limits.codes_per_person),
            sign_in_tries=Buckets(limits.sign_in_tries_per_address),
            hints=Buckets(limits.hints_per_person),
            hints_here=Buckets(limits.hints_per_address),
            analyses=Buckets(limits.analyses_per_person),
            analyses_here=Buckets(limits.analyses_per_address),
        )

    @property
    def idle(self) -> timedelta:
        """How long a session may go unused before it ends."""
        return timedelta(seconds=self.settings.session_idle)


def tables_of(conn: HTTPConnection) -> Tables:
    """The server's tables (a request's or a WebSocket's)."""
    tables: Tables = conn.app.state.tables
    return tables


def guards_of(conn: HTTPConnection) -> Guards:
    guards: Guards = conn.app.state.guards
    return guards


TablesDep = Annotated[Tables, Depends(tables_of)]
GuardsDep = Annotated[Guards, Depends(guards_of)]


def keep_cookie(response: Response, token: str, settings: ServerSettings) -> None:
    """Set the session's cookie (again: its idle time starts again)."""
    response.set_cookie(
        COOKIE,
        token,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookie,
        max_age=math.ceil(settings.session_idle),
        path="/",
    )


async def player_of(tables: Tables, token: str | None, idle: timedelta) -> Player | None:
    """The player of the session named ``token``, if it is one still alive."""
    if not token or len(token) > 100:
        return None
    try:
        player = await tables.storage.session_player(digest(token), idle)
    except NotFound:
        return None
    tables.names[player.id] = player.nickname
    return player


async def who(
    conn: HTTPConnection, response: Response, tables: TablesDep, guards: GuardsDep
) -> Player | None:
    """The player asking, by the session's cookie; ``None`` without a live session."""
    token = conn.cookies.get(COOKIE)
    player = await player_of(tables, token, guards.idle)
    if player is not None and token:
        keep_cookie(response, token, guards.settings)  # each use starts the idle count again
    return player


async def me(player: Annotated[Player | None, Depends(who)]) -> Player:
    """The player asking; ``401 no_session`` without a session."""
    if player is None:
        raise Refused(
            "no_session", 'choose a nickname first: POST /api/session {"nickname": ...}', 401
        )
    return player


Me = Annotated[Player, Depends(me)]
Maybe = Annotated[Player | None, Depends(who)]


def address(conn: HTTPConnection) -> str:
    """The address a request or WebSocket comes from."""
    return conn.client.host if conn.client else "?"


def limited(bucket: Buckets, key: object, what: str) -> None:
    """Take one from ``bucket`` for ``key``, or refuse with ``429 too_many``."""
    wait = bucket.take(key)
    if wait:
        raise Refused(
            "too_many",
            f"too many {what}: {bucket.rate.says(what)}; try again in {math.ceil(wait)} s",
            429,
            {"Retry-After": str(math.ceil(wait))},
        )


def hint_limited(guards: Guards, player: int, here: str) -> None:
    """Count a hint asked for by ``player`` from the address ``here``; past the limit of
    either, ``429 too_many_hints`` with the seconds to wait (``n``, ``Retry-After``)."""
    counted: list[tuple[Buckets, object, str]] = [
        (guards.hints, player, "you"),
        (guards.hints_here, here, "your address"),
    ]
    over = _over("hints", counted)
    if over:
        n, message = over
        raise Refused("too_many_hints", message, 429, {"Retry-After": str(n)}, values={"n": n})


def analysis_limited(guards: Guards, player: int | None, here: str) -> None:
    """Count a hand's analysis to compute, asked for by ``player`` (``None``: no
    session) from the address ``here``; past the limit of either, ``429
    too_many_analyses`` with the seconds to wait (``n``, ``Retry-After``)."""
    counted: list[tuple[Buckets, object, str]] = [(guards.analyses_here, here, "your address")]
    if player is not None:
        counted.append((guards.analyses, player, "you"))
    over = _over("analyses", counted)
    if over:
        n, message = over
        raise Refused("too_many_analyses", message, 429, {"Retry-After": str(n)}, values={"n": n})


def _over(what: str, counted: list[tuple[Buckets, object, str]]) -> tuple[int, str] | None:
    """Take one from each bucket of ``counted`` for its key; past one, the seconds to
    wait and a message naming whose limit (``what`` asked for) it was, else ``None``."""
    for bucket, key, whose in counted:
        n = math.ceil(bucket.take(key))
        if n:
            says = bucket.rate.says(what)
            return n, f"too many {what} asked for by {whose}: {says}; try again in {n} s"
    return None


def digest(token: str) -> str:
    """The SHA-256 of a session's token, as the database keeps it (never the token)."""
    return hashlib.sha256(token.encode()).hexdigest()


def describe(errors: Any) -> str:
    """Pydantic's validation errors as one sentence naming each field."""
    parts = []
    for e in list(errors)[:5]:
        where = ".".join(str(x) for x in e.get("loc", ()) if x not in ("body",)) or "message"
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    return "; ".join(parts)
