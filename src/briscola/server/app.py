"""The FastAPI application: sessions, the lobby, tables, records and history over REST
(their OpenAPI page at ``/docs``), and each table's WebSocket (docs/protocol.md).

A session is a record the server keeps, named by a random token in an HTTP-only cookie
(the database holds its SHA-256 alone): ``POST /api/session`` with a nickname makes one,
``DELETE /api/session`` ends it at once, and one unused for ``session_idle`` ends by
itself. :class:`~briscola.server.guard.Guard` stands in front of every route (the origin
of each state-changing request and handshake, the type of each body, the pages' security
headers), and :mod:`~briscola.server.limits` bounds what one person or address may ask.
Every error is JSON, ``{"error": {"code": ..., "message": ...}}``, with the HTTP status
that fits.
"""

import asyncio
import contextlib
import hashlib
import json
import logging
import math
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException

import briscola
from briscola import __version__
from briscola.server.broadcast import Broadcaster, InProcess
from briscola.server.guard import Guard
from briscola.server.limits import Buckets, Counts
from briscola.server.live import Connection, LiveTable, Refused
from briscola.server.messages import (
    CLIENT,
    Act,
    ErrorBody,
    Failure,
    MatchOut,
    Ping,
    PlayerOut,
    Pong,
    Say,
    SeatChange,
    SessionIn,
    Sync,
    TableIn,
    TableOut,
)
from briscola.server.settings import ServerSettings
from briscola.server.tables import Tables
from briscola.storage import NotFound, Player, Storage

log = logging.getLogger("briscola.server")

COOKIE = "briscola_session"

ERRORS: dict[int, str] = {
    400: "Refused, nothing changed: the error's `code` says why (docs/protocol.md lists them).",
    401: "No session: choose a nickname first (`POST /api/session`); code `no_session`.",
    403: "Not yours to do: only the host (`not_host`), or only a seated player (`not_yours`); "
    "or a page of another origin (`bad_origin`: docs/protocol.md, 'Who may call').",
    404: "No such table (`not_found`), seat (`bad_seat`), hand (`bad_hand`), finished hand "
    "(`not_finished`) or game (`bad_game`).",
    409: "Not now: the table's status or its seats forbid it (`wrong_status`, `seats_open`, "
    "`seat_taken`, `seated`).",
    422: "A body or parameter of the wrong form; code `bad_request`, the message names the field.",
    429: "Too many (`too_many`): past a limit per person or per address; `Retry-After` says "
    "in how many seconds to try again.",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route that may refuse with these HTTP statuses; every
    error body is an :class:`~briscola.server.messages.ErrorBody`."""
    return {s: {"model": ErrorBody, "description": ERRORS[s]} for s in statuses}


class Bucket:
    """A token bucket: ``rate`` a second, at most ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False


class Refusals:
    """A connection's refusals for flooding over a sliding window: :meth:`add` says
    whether more than ``limit`` of them fell within the last ``window`` seconds."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window
        self.times: deque[float] = deque()

    def add(self) -> bool:
        now = time.monotonic()
        self.times.append(now)
        while self.times[0] <= now - self.window:
            self.times.popleft()
        return len(self.times) > self.limit


def create_app(
    settings: ServerSettings | None = None, broadcaster: Broadcaster | None = None
) -> FastAPI:
    """The server's application; its lifespan opens the storage, takes up the tables in
    play and watches their deadlines."""
    settings = settings or ServerSettings()
    limits = settings.limits
    idle = timedelta(seconds=settings.session_idle)
    new_sessions = Buckets(limits.sessions_per_address)
    new_tables = Buckets(limits.tables_per_person)
    new_tables_here = Buckets(limits.tables_per_address)
    public_here: dict[str, list[str]] = {}
    """The public tables opened from each address (their tokens), to count those open."""
    sockets_of = Counts(limits.connections_per_person)
    sockets_here = Counts(limits.connections_per_address)
    session_sockets: dict[str, set[WebSocket]] = {}
    """Each session's open WebSockets (by its token's hash), closed when it ends."""

    async def forget_sessions(storage: Storage) -> None:
        """Delete the sessions left unused past their lifetime, every hour, so that the
        table of sessions holds the live ones alone."""
        while True:
            try:
                if dropped := await storage.drop_idle_sessions(idle):
                    log.info("%d sessions unused for %s ended", dropped, idle)
            except Exception:
                log.exception("the sessions unused could not be ended")
            await asyncio.sleep(3600)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = await Storage.open(settings.url)
        tables = Tables(storage, settings, broadcaster or InProcess())
        app.state.storage = storage
        app.state.tables = tables
        await tables.resume()
        watcher = asyncio.create_task(tables.watch())
        forgetting = asyncio.create_task(forget_sessions(storage))
        sweeper = asyncio.create_task(tables.sweep())
        try:
            yield
        finally:
            watcher.cancel()
            forgetting.cancel()
            sweeper.cancel()
            await tables.close()
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
        '`{"error": {"code": ..., "message": ...}}`. The whole protocol, with an example of '
        "every message: docs/protocol.md.",
        lifespan=lifespan,
    )
    app.add_middleware(BodyLimit, limit=BODY_LIMIT)
    app.add_middleware(Guard, public_url=settings.public_url)

    def fail(
        status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> JSONResponse:
        return JSONResponse(
            {"error": {"code": code, "message": message}}, status_code=status, headers=headers
        )

    @app.exception_handler(Refused)
    async def refused(request: Request, e: Refused) -> JSONResponse:
        return fail(e.status, e.code, e.message, e.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, e: RequestValidationError) -> JSONResponse:
        return fail(422, "bad_request", describe(e.errors()))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, e: HTTPException) -> JSONResponse:
        """Starlette's and FastAPI's own refusals, in the body of every other error: no
        such route, a method the route has not, a body that could not be read."""
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

    def tables_of(request: Request) -> Tables:
        tables: Tables = request.app.state.tables
        return tables

    def keep_cookie(response: Response, token: str) -> None:
        response.set_cookie(
            COOKIE,
            token,
            httponly=True,
            samesite="lax",
            secure=settings.secure_cookie,
            max_age=math.ceil(settings.session_idle),
            path="/",
        )

    async def who(request: Request, response: Response) -> Player | None:
        token = request.cookies.get(COOKIE)
        player = await player_of(request.app.state.tables, token)
        if player is not None and token:
            keep_cookie(response, token)  # each use starts the idle count again
        return player

    async def player_of(tables: Tables, token: str | None) -> Player | None:
        if not token or len(token) > 100:
            return None
        try:
            player = await tables.storage.session_player(digest(token), idle)
        except NotFound:
            return None
        tables.names[player.id] = player.nickname
        return player

    def address(request: Request | WebSocket) -> str:
        return request.client.host if request.client else "?"

    def limited(bucket: Buckets, key: object, what: str) -> None:
        wait = bucket.take(key)
        if wait:
            raise Refused(
                "too_many",
                f"too many {what}: {bucket.rate.says(what)}; try again in {math.ceil(wait)} s",
                429,
                {"Retry-After": str(math.ceil(wait))},
            )

    async def me(request: Request, response: Response) -> Player:
        player = await who(request, response)
        if player is None:
            raise Refused(
                "no_session", 'choose a nickname first: POST /api/session {"nickname": ...}', 401
            )
        return player

    Me = Annotated[Player, Depends(me)]
    Maybe = Annotated[Player | None, Depends(who)]
    TablesDep = Annotated[Tables, Depends(tables_of)]

    # -- sessions --------------------------------------------------------------------------

    def nickname_of(body: SessionIn) -> str:
        nickname = " ".join(body.nickname.split())
        if not nickname or not nickname.isprintable():
            raise Refused("bad_nickname", "a nickname is letters, digits and spaces you can see")
        return nickname

    @app.post(
        "/api/session",
        response_model=PlayerOut,
        tags=["session"],
        responses=errors(400, 409, 422, 429),
    )
    async def new_session(
        body: SessionIn, request: Request, response: Response, tables: TablesDep, player: Maybe
    ) -> PlayerOut:
        """Choose a nickname (1 to 40 characters you can see): a new player, whose session
        the cookie `briscola_session` keeps (HTTP only; it ends when unused for the
        server's idle lifetime, 90 days by default, or at `DELETE /api/session`). Send the
        cookie with every later request, and with the WebSocket's opening request. Signed
        in already, you are refused (`signed_in`): rename (`PATCH`), or sign out first."""
        nickname = nickname_of(body)
        if player is not None:
            raise Refused(
                "signed_in",
                f"you are signed in as {player.nickname}: to change your nickname, rename "
                "(PATCH /api/session); to be someone else, sign out first (DELETE /api/session)",
                409,
            )
        limited(new_sessions, address(request), "new sessions from your address")
        player = await tables.storage.create_player(nickname)
        token = secrets.token_urlsafe(32)
        await tables.storage.create_session(player.id, digest(token))
        tables.names[player.id] = player.nickname
        keep_cookie(response, token)
        return PlayerOut(id=player.id, nickname=player.nickname)

    @app.get("/api/session", response_model=PlayerOut, tags=["session"], responses=errors(401))
    async def get_session(player: Me) -> PlayerOut:
        """Who the session's cookie says you are."""
        return PlayerOut(id=player.id, nickname=player.nickname)

    @app.patch(
        "/api/session", response_model=PlayerOut, tags=["session"], responses=errors(400, 401, 422)
    )
    async def rename(body: SessionIn, player: Me, tables: TablesDep) -> PlayerOut:
        """Change your nickname: you stay the same player, with your history and seats."""
        renamed = await tables.storage.rename_player(player.id, nickname_of(body))
        tables.names[renamed.id] = renamed.nickname
        for live in list(tables.live.values()):  # the tables loaded show the new name
            if live.seat_of(renamed.id) is not None:
                live.meta += 1
                await tables.broadcaster.publish(live.token)
        return PlayerOut(id=renamed.id, nickname=renamed.nickname)

    @app.delete("/api/session", status_code=204, tags=["session"])
    async def sign_out(request: Request, tables: TablesDep) -> Response:
        """Sign out: the session ends at once (its cookie no longer works, and its open
        WebSockets close with code 4401). Your player and history stay; a new nickname
        makes a new player."""
        token = request.cookies.get(COOKIE)
        answer = Response(status_code=204)
        answer.delete_cookie(
            COOKIE, path="/", httponly=True, samesite="lax", secure=settings.secure_cookie
        )
        if token and len(token) <= 100:
            await tables.storage.end_session(digest(token))
            for ws in list(session_sockets.pop(digest(token), ())):
                with contextlib.suppress(Exception):
                    await ws.close(code=4401, reason="signed out")
        return answer

    # -- games -----------------------------------------------------------------------------

    @app.get("/api/games", tags=["games"])
    async def games() -> dict[str, Any]:
        """Every game with its house rules, their choices and defaults (as ``briscola
        variants --json``), the computer players' levels, and the server's version (the card
        pictures' ``?v=``)."""
        from briscola.catalog import variants_json
        from briscola.server.tables import LEVELS

        return {"games": variants_json(), "levels": list(LEVELS), "version": __version__}

    # -- words and rules in plain words (the web client) -----------------------------------

    Lang = Annotated[str, Query(max_length=8, description="it, en, es or hr")]
    TrumpWord = Annotated[
        str | None, Query(max_length=30, description="the family's own word for trump")
    ]

    def explained(make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The words or rules ``make`` gives, a bad language or house rule refused."""
        from briscola.engine import BriscolaError
        from briscola.web.explain import LanguageError

        try:
            return make()
        except LanguageError as e:
            raise Refused("bad_language", str(e)) from None
        except BriscolaError as e:
            raise Refused("bad_rules", str(e)) from None

    @app.get("/api/words", tags=["words"], responses=errors(400, 422))
    async def game_words(lang: Lang = "en", trump_word: TrumpWord = None) -> dict[str, Any]:
        """The game's words in a language (`it`, `en`, `es`, `hr`; `bad_language` else): the
        cards of each card style, each game's name and summary, each house rule's title,
        explanation and choices, the words for trump, trick, hand, match, points..."""
        from briscola.web.explain import words

        return explained(lambda: words(lang, trump_word))

    @app.get("/api/games/{game}/rules-text", tags=["words"], responses=errors(400, 404, 422))
    async def game_rules_text(
        game: str, request: Request, lang: Lang = "en", trump_word: TrumpWord = None
    ) -> dict[str, Any]:
        """The rules of a table of `game` in plain words, its house rules given as query
        parameters (`?match=one-hand&...`, the others at their defaults): `bad_game` (404)
        for a game there is not, `bad_rules` for a rule or value it does not take."""
        from briscola.engine import BriscolaError, find_game
        from briscola.web.explain import rules_json

        try:
            key = find_game(game).key
        except BriscolaError as e:
            raise Refused("bad_game", str(e), 404) from None
        given = {k: v for k, v in request.query_params.items() if k not in ("lang", "trump_word")}
        return explained(lambda: rules_json(key, given, lang, trump_word))

    @app.get("/api/tables/{token}/rules-text", tags=["words"], responses=errors(400, 404, 422))
    async def table_rules_text(
        token: str, tables: TablesDep, lang: Lang = "en", trump_word: TrumpWord = None
    ) -> dict[str, Any]:
        """The rules of this table, from its own settings, in plain words."""
        from briscola.web.explain import rules_json

        rules = (await tables.get(token)).rules
        return explained(lambda: rules_json(rules.key, dict(rules.options), lang, trump_word))

    # -- tables ----------------------------------------------------------------------------

    @app.get("/api/tables", response_model=list[TableOut], tags=["tables"])
    async def lobby(tables: TablesDep, player: Maybe) -> list[TableOut]:
        """The lobby: the public tables waiting for players or in play, newest first (at
        most 100)."""
        out = []
        for info in await tables.storage.list_tables(public=True):
            if info.status == "finished":
                continue
            live = await tables.get(info.token)
            out.append(live.table_out(player.id if player else None))
            if len(out) >= 100:
                break
        return out

    @app.post(
        "/api/tables",
        response_model=TableOut,
        status_code=201,
        tags=["tables"],
        responses=errors(400, 401, 422, 429),
    )
    async def create_table(
        body: TableIn, request: Request, player: Me, tables: TablesDep
    ) -> TableOut:
        """Open a table: you are its host. `game` is a key of `GET /api/games`, `rules` its
        house rules that differ from the defaults (`bad_rules` names a wrong one); `seats`,
        one for each seat, are `open`, `me` or `bot` with a `level` (`bad_seats`,
        `bad_level`), by default you at seat 0 and the others open; `clock` the seconds for
        each move (none by default); `stand_in` the level of the computer player that moves
        for a slow or absent player. Private tables (the default) are found only by their
        link (`invite`). Opening too many tables too fast, or holding too many public ones
        open at once, is refused with `429` (`too_many`, with `Retry-After`)."""
        here = address(request)
        if body.public:
            await check_public(tables, player, here)
        limited(new_tables, player.id, "new tables")
        limited(new_tables_here, here, "new tables from your address")
        live = await tables.create(player.id, body)
        if body.public:
            public_here.setdefault(here, []).append(live.token)
        return live.table_out(player.id)

    async def check_public(tables: Tables, player: Player, here: str) -> None:
        """Refuse a public table past the person's or the address's tables open at once."""
        day_ago = datetime.now(UTC) - timedelta(days=1)
        mine = await tables.storage.count_public_open(player.id, day_ago)
        if mine >= limits.public_per_person:
            raise Refused(
                "too_many",
                f"you host {mine} public tables open already (at most "
                f"{limits.public_per_person}): play or finish one, or make this one private",
                429,
                {"Retry-After": "60"},
            )
        still = []
        for token in public_here.get(here, []):
            try:
                info = await tables.storage.table_by_token(token)
            except NotFound:
                continue
            if info.status == "playing" or (info.status == "waiting" and info.updated >= day_ago):
                still.append(token)
        public_here[here] = still
        if not still:
            del public_here[here]
        if len(still) >= limits.public_per_address:
            raise Refused(
                "too_many",
                f"{len(still)} public tables opened from your address are open already (at "
                f"most {limits.public_per_address}): finish one, or make this one private",
                429,
                {"Retry-After": "60"},
            )

    @app.get(
        "/api/tables/{token}", response_model=TableOut, tags=["tables"], responses=errors(404, 422)
    )
    async def get_table(token: str, tables: TablesDep, player: Maybe) -> TableOut:
        """A table by its token (the last part of its invite link): its game, rules, seats,
        status and version; `you` says where you sit, when you have a session."""
        live = await tables.get(token)
        return live.table_out(player.id if player else None)

    @app.post(
        "/api/tables/{token}/seats/{seat}",
        response_model=TableOut,
        tags=["tables"],
        responses=errors(400, 401, 404, 409, 422),
    )
    async def take_seat(token: str, seat: int, player: Me, tables: TablesDep) -> TableOut:
        """Sit at an open seat of a waiting table (one seat a player: `seated` when you sit
        elsewhere; `seat_taken` when someone was quicker)."""
        live = await tables.take_seat(token, seat, player.id)
        return live.table_out(player.id)

    @app.delete(
        "/api/tables/{token}/seats/{seat}",
        response_model=TableOut,
        tags=["tables"],
        responses=errors(401, 403, 404, 409, 422),
    )
    async def leave_seat(token: str, seat: int, player: Me, tables: TablesDep) -> TableOut:
        """Leave your seat (the host may also clear any seat of a waiting table). At a
        table in play, a computer player takes your seat for the rest of the match (which stays
        in your history)."""
        live = await tables.leave(token, seat, player.id)
        return live.table_out(player.id)

    @app.put(
        "/api/tables/{token}/seats/{seat}",
        response_model=TableOut,
        tags=["tables"],
        responses=errors(400, 401, 403, 404, 409, 422),
    )
    async def change_seat(
        token: str, seat: int, body: SeatChange, player: Me, tables: TablesDep
    ) -> TableOut:
        """The host opens a seat (`{"kind": "open"}`), or puts a computer player there
        (`{"kind": "bot", "level": "intermediate"}`), before the start."""
        live = await tables.set_seat(token, seat, player.id, body.kind, body.level)
        return live.table_out(player.id)

    @app.post(
        "/api/tables/{token}/start",
        response_model=TableOut,
        tags=["tables"],
        responses=errors(401, 403, 404, 409, 422),
    )
    async def start(token: str, player: Me, tables: TablesDep) -> TableOut:
        """The host starts the match once every seat is filled (`seats_open` names the
        empty ones): the first hand is dealt and its fair-shuffle commitment published."""
        live = await tables.start(token, player.id)
        return live.table_out(player.id)

    @app.post(
        "/api/tables/{token}/rematch",
        response_model=TableOut,
        tags=["tables"],
        responses=errors(401, 403, 404, 409, 422),
    )
    async def rematch(token: str, player: Me, tables: TablesDep) -> TableOut:
        """Once the match is over, one of its players makes a rematch: a new table with the
        same game, rules and seats, started at once (asked again, the same table). The old
        table's `rematch` names the new one's token."""
        live = await tables.rematch(token, player.id)
        return live.table_out(player.id)

    # -- records ---------------------------------------------------------------------------

    def check_hand(live: LiveTable, number: int) -> None:
        """Refuse a hand number no hand of the table has or will have: below 1, or past the
        last hand of a match that is over (``bad_hand``)."""
        match = live.match
        if number < 1:
            raise Refused(
                "bad_hand", f"there is no hand {number}: the first hand is 1", 404
            )  # fmt: skip
        if match is not None and match.over and number > len(match.finished):
            raise Refused(
                "bad_hand", f"there is no hand {number}: the match is over, and its hands "
                f"are 1 to {len(match.finished)}", 404
            )  # fmt: skip

    @app.get(
        "/api/tables/{token}/hands/{number}",
        tags=["records"],
        responses={
            200: {"description": "The game record, as a file to save (docs/records.md)."},
            **errors(404, 422),
        },
    )
    async def hand_record(token: str, number: int, tables: TablesDep) -> JSONResponse:
        """Hand `number`'s game record (the first hand is 1), once the hand is over
        (`not_finished` before: its deal stays secret until then), with its fair-shuffle
        commitment and salt: check it with `briscola verify` or by hand
        (docs/fairness.md)."""
        live = await tables.get(token)
        match = live.match
        check_hand(live, number)
        # live.revealed counts the finished hands stored: a hand's salt is never told
        # before its last move is stored (a crash could lose that move, and the hand go on).
        if match is None or not 1 <= number <= live.revealed or live.deals is None:
            raise Refused(
                "not_finished",
                f"hand {number} is not finished (finished hands: "
                f"{live.revealed}): its record comes once it is over",
                404,
            )
        record = live.deals.hand_record(match.finished[number - 1])
        return download(record, f"briscola-{token[:8]}-hand-{number}.json")

    @app.get(
        "/api/tables/{token}/hands/{number}/replay", tags=["records"], responses=errors(404, 422)
    )
    async def hand_replay(token: str, number: int, tables: TablesDep) -> dict[str, Any]:
        """Finished hand `number`'s replay (the web client's history): its positions, the
        deal and then the table as each trick's last card falls (every hand face up: the
        record is public once the hand is over; `not_finished` before), and who sat where
        (`seats`: each seat's `kind`, a person's `nickname`, a computer player's `level`)."""
        from briscola.web.replay import hand_replay

        live = await tables.get(token)
        check_hand(live, number)
        if live.match is None or not 1 <= number <= live.revealed or live.deals is None:
            raise Refused("not_finished", f"hand {number} is not finished: no replay yet", 404)
        out = hand_replay(live.deals.hand_record(live.match.finished[number - 1]))
        keep = {"seat", "kind", "nickname", "level"}
        out["seats"] = [s.model_dump(include=keep) for s in live.table_out(None).seats]
        return out

    @app.get(
        "/api/tables/{token}/record",
        tags=["records"],
        responses={
            200: {"description": "The match record, as a file to save (docs/records.md)."},
            **errors(404, 422),
        },
    )
    async def match_record(token: str, tables: TablesDep) -> JSONResponse:
        """The finished match's record: its game and rules, its hands' records in order
        (each with its commitment and salt), the match score."""
        live = await tables.get(token)
        try:
            finished = await tables.storage.finished_match(live.info.id)
        except NotFound:
            raise Refused(
                "not_finished", "the match is not over: its record comes at its end", 404
            ) from None
        return download(finished.record, f"briscola-{token[:8]}-match.json")

    @app.get("/api/history", response_model=list[MatchOut], tags=["records"], responses=errors(401))
    async def history(player: Me, tables: TablesDep) -> list[MatchOut]:
        """Your finished matches (those you left before their end too), the newest first,
        each with the path of its record."""
        out = []
        for m in await tables.storage.history(player.id):
            info = await tables.storage.get_table(m.table_id)
            await tables.learn_names(list(m.players.values()))
            seat = next(s for s, p in m.players.items() if p == player.id)
            result = m.record.get("result")
            result = result if isinstance(result, dict) else {}
            winners = result.get("winners")
            out.append(
                MatchOut(
                    token=info.token,
                    game=m.game,
                    seat=seat,
                    players={s: tables.names.get(p, "?") for s, p in m.players.items()},
                    winners=list(winners or []),
                    at=m.at.isoformat(),
                    record=f"/api/tables/{info.token}/record",
                    hands_won=list(result.get("hands_won") or []),
                    totals=list(result.get("totals") or []),
                )
            )
        return out

    # -- pages -----------------------------------------------------------------------------

    # The browser client: one page for the home screen and every table (it reads the path),
    # its ES modules, CSS and strings under /static.
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/t/{token}", include_in_schema=False)
    async def invite(token: str) -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/history", include_in_schema=False)
    @app.get("/history/{token}", include_in_schema=False)
    @app.get("/history/{token}/{number}", include_in_schema=False)
    async def history_page(token: str = "", number: str = "") -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/cards/{style}/{card}.svg", include_in_schema=False)
    async def card_picture(style: str, card: str, request: Request, v: str = "") -> Response:
        """A card's face (``Ab``, ``Qd``...), ``back`` or ``slot`` (an empty place), as SVG
        (briscola.web.art); cached a year when asked with ``?v=`` the server's version."""
        from briscola.web import art

        try:
            svg = art.picture(style, card)
        except ValueError as e:
            raise Refused("not_found", str(e), 404) from None
        tag = f'"{__version__}-{hashlib.sha256(svg.encode()).hexdigest()[:16]}"'
        age = "max-age=31536000, immutable" if v == __version__ else "max-age=86400"
        headers = {"ETag": tag, "Cache-Control": f"public, {age}"}
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers=headers)
        return Response(svg, media_type="image/svg+xml", headers=headers)

    @app.get("/healthz", include_in_schema=False)
    async def health(tables: TablesDep) -> dict[str, Any]:
        """The server runs; how many tables and nicknames it holds in memory."""
        loaded = {"tables": len(tables.live), "nicknames": len(tables.names)}
        return {"status": "ok", "loaded": loaded}

    # -- the table's WebSocket -------------------------------------------------------------

    @app.websocket("/api/tables/{token}/ws")
    async def table_socket(websocket: WebSocket, token: str, since: str | None = None) -> None:
        tables: Tables = websocket.app.state.tables
        await websocket.accept()
        try:
            live = await tables.get(token)
        except Refused as e:
            await websocket.send_text(
                Failure(version=0, code=e.code, message=e.message).model_dump_json()
            )
            await websocket.close(code=4404)
            return
        cookie = websocket.cookies.get(COOKIE)
        player = await player_of(tables, cookie)
        here = address(websocket)
        if not sockets_here.enter(here):
            await refuse_socket(
                websocket,
                f"{limits.connections_per_address} connections are open from your address "
                "already: close some (other tabs, other tables) and connect again",
            )
            return
        try:
            if player is not None and not sockets_of.enter(player.id):
                await refuse_socket(
                    websocket,
                    f"you hold {limits.connections_per_person} connections open already: close "
                    "some (other tabs, other tables) and connect again",
                )
                return
            try:
                await serve_connection(websocket, live, player, cookie, since)
            finally:
                if player is not None:
                    sockets_of.leave(player.id)
        finally:
            sockets_here.leave(here)

    async def refuse_socket(websocket: WebSocket, message: str) -> None:
        await websocket.send_text(
            Failure(version=0, code="too_many", message=message).model_dump_json()
        )
        await websocket.close(code=4429, reason="too many connections")

    async def serve_connection(
        websocket: WebSocket,
        live: LiveTable,
        player: Player | None,
        cookie: str | None,
        since: str | None,
    ) -> None:
        conn = Connection(
            player.id if player else None, live.seat_of(player.id if player else None)
        )
        # A client behind the table gets what it missed; one at the table's version nothing
        # new (but the table); a new one, or one with a `since` the table has not reached
        # or that is no version, a snapshot. Version 0 is the table waiting as well as the
        # first hand dealt: from 0, the update begins with the start.
        seen = version_of(since)
        if seen is not None and seen <= live.version:
            conn.version = seen
            conn.from_start = seen == 0
            conn.meta = -1
        key = digest(cookie) if player is not None and cookie else None
        if key is not None:
            session_sockets.setdefault(key, set()).add(websocket)
        try:
            await serve_socket(websocket, live, conn)
        finally:
            if key is not None and (held := session_sockets.get(key)) is not None:
                held.discard(websocket)
                if not held:
                    del session_sockets[key]

    async def serve_socket(websocket: WebSocket, live: LiveTable, conn: Connection) -> None:
        sub = live.tables.broadcaster.subscribe(live.token)
        await live.attach(conn)

        async def writer() -> None:
            while True:
                for text in live.messages_for(conn):
                    await websocket.send_text(text)
                await sub.wait()

        sending = asyncio.create_task(writer())
        messages = Bucket(rate=10, burst=30)
        chats = Bucket(rate=0.5, burst=5)
        refused = Refusals(*settings.flood)

        def reply(model: Failure | Pong) -> None:
            conn.reply(model.model_dump_json())
            sub.wake()

        def error(code: str, message: str, ref: str | None = None) -> None:
            reply(Failure(version=live.version, code=code, message=message, id=ref))

        try:
            while True:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                text = received.get("text")
                if text is None:  # a binary frame
                    error("bad_json", "send each message as a text frame holding JSON")
                    continue
                if len(text) > settings.max_frame or len(text.encode()) > settings.max_frame:
                    error("too_big", f"a message is at most {settings.max_frame} bytes")
                    continue
                if not messages.take():
                    error("flood", "too many messages: at most 10 a second; wait and send again")
                    if refused.add():
                        sending.cancel()  # the replies still queued go first, then the close
                        with contextlib.suppress(asyncio.CancelledError, Exception):
                            await sending
                        for reply_text in live.messages_for(conn):
                            await websocket.send_text(reply_text)
                        await websocket.close(code=1008, reason="flood")
                        break
                    await asyncio.sleep(0)  # the writer sends the refusal meanwhile
                    continue
                try:
                    message = CLIENT.validate_json(text)
                except ValidationError as e:
                    if any(x["type"] == "json_invalid" for x in e.errors()):
                        error("bad_json", "that message is not JSON: send one JSON object")
                    else:
                        error("bad_message", describe(e.errors()))
                    continue
                try:
                    if isinstance(message, Act):
                        if conn.seat is None:
                            raise Refused(
                                "spectator", "you are watching this table: take a seat to play"
                            )
                        await live.submit(conn.seat, message.action, message.version, message.id)
                    elif isinstance(message, Say):
                        if not chats.take():
                            raise Refused("flood", "too many chat messages: wait a little")
                        if conn.player is None:
                            raise Refused("no_session", "choose a nickname to chat")
                        await live.say(conn.player, message.text)
                    elif isinstance(message, Sync):
                        if message.since > live.version:
                            raise Refused(
                                "bad_version",
                                f"the table is at version {live.version}; you asked for what "
                                f"came after {message.since}",
                            )
                        conn.version = message.since
                        conn.from_start = message.since == 0
                        sub.wake()
                    elif isinstance(message, Ping):
                        reply(Pong(version=live.version))
                except Refused as e:
                    error(e.code, e.message, getattr(message, "id", None))
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # sent on a closed socket
            pass
        finally:
            sending.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sending
            live.tables.broadcaster.unsubscribe(live.token, sub)
            await live.detach(conn)

    return app


BODY_LIMIT = 65_536
"""The longest body of a REST request, in bytes (a table's settings are well under 1 KB)."""


class BodyLimit:
    """ASGI middleware refusing a request body over ``limit`` bytes with ``413 too_big``,
    before it is read: by its Content-Length, or as it streams in when it has none."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or ()).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > self.limit:
            await self.refuse(send)
            return
        seen = 0
        refused = False

        async def counted() -> Any:
            nonlocal seen, refused
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit and not refused:
                refused = True
                await self.refuse(send)
            if refused:  # the application stops reading: the client is gone to it
                return {"type": "http.disconnect"}
            return message

        async def quiet(message: Any) -> None:
            if not refused:  # after the refusal the application's answer goes nowhere
                await send(message)

        try:
            await self.app(scope, counted, quiet)
        except Exception:
            if not refused:  # the application's own failure; a refused one's is expected
                raise

    async def refuse(self, send: Any) -> None:
        body = json.dumps(
            {
                "error": {
                    "code": "too_big",
                    "message": f"a request body is at most {self.limit} bytes",
                }
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"connection", b"close")],
            }
        )
        await send({"type": "http.response.body", "body": body})


def describe(errors: Any) -> str:
    """Pydantic's validation errors as one sentence naming each field."""
    parts = []
    for e in list(errors)[:5]:
        where = ".".join(str(x) for x in e.get("loc", ()) if x not in ("body",)) or "message"
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    return "; ".join(parts)


def digest(token: str) -> str:
    """The SHA-256 of a session's token, as the database keeps it (never the token)."""
    return hashlib.sha256(token.encode()).hexdigest()


def version_of(since: str | None) -> int | None:
    """The version a socket's ``?since=`` names, or ``None`` when it names none (absent,
    or not a whole number written in digits: ``abc``, ``-1``, ``1.5``)."""
    if since is None or not (since.isascii() and since.isdigit()) or len(since) > 18:
        return None
    return int(since)


def download(record: dict[str, Any], name: str) -> JSONResponse:
    return JSONResponse(record, headers={"Content-Disposition": f'attachment; filename="{name}"'})


STATIC = Path(briscola.__file__).parent / "web" / "static"
"""The browser client's files (briscola.web's static folder)."""
