"""``/api/session``: choose a nickname (a new player and their session), who you are,
rename, sign out."""

from __future__ import annotations

import contextlib
import secrets

from fastapi import APIRouter, Request, Response

from briscola.server.deps import (
    COOKIE,
    GuardsDep,
    Maybe,
    Me,
    TablesDep,
    address,
    digest,
    errors,
    keep_cookie,
    limited,
)
from briscola.server.errors import Refused
from briscola.server.messages import PlayerOut, SessionIn

router = APIRouter(prefix="/api/session", tags=["session"])


def nickname_of(body: SessionIn) -> str:
    nickname = " ".join(body.nickname.split())
    if not nickname or not nickname.isprintable():
        raise Refused("bad_nickname", "a nickname is letters, digits and spaces you can see")
    return nickname


@router.post("", response_model=PlayerOut, responses=errors(400, 409, 422, 429))
async def new_session(
    body: SessionIn,
    request: Request,
    response: Response,
    tables: TablesDep,
    guards: GuardsDep,
    player: Maybe,
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
            values={"nickname": player.nickname},
        )
    limited(guards.new_sessions, address(request), "new sessions from your address")
    player = await tables.storage.create_player(nickname)
    token = secrets.token_urlsafe(32)
    await tables.storage.create_session(player.id, digest(token))
    tables.names[player.id] = player.nickname
    keep_cookie(response, token, guards.settings)
    return PlayerOut(id=player.id, nickname=player.nickname)


@router.get("", response_model=PlayerOut, responses=errors(401))
async def get_session(player: Me) -> PlayerOut:
    """Who the session's cookie says you are."""
    return PlayerOut(id=player.id, nickname=player.nickname)


@router.patch("", response_model=PlayerOut, responses=errors(400, 401, 422))
async def rename(body: SessionIn, player: Me, tables: TablesDep) -> PlayerOut:
    """Change your nickname: you stay the same player, with your history and seats."""
    renamed = await tables.storage.rename_player(player.id, nickname_of(body))
    tables.names[renamed.id] = renamed.nickname
    for live in list(tables.live.values()):  # the tables loaded show the new name
        if live.seat_of(renamed.id) is not None:
            live.meta += 1
            await tables.broadcaster.publish(live.token)
    return PlayerOut(id=renamed.id, nickname=renamed.nickname)


@router.delete("", status_code=204)
async def sign_out(request: Request, tables: TablesDep, guards: GuardsDep) -> Response:
    """Sign out: the session ends at once (its cookie no longer works, and its open
    WebSockets close with code 4401). Your player and history stay; a new nickname
    makes a new player."""
    token = request.cookies.get(COOKIE)
    answer = Response(status_code=204)
    answer.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="lax", secure=guards.settings.secure_cookie
    )
    if token and len(token) <= 100:
        await tables.storage.end_session(digest(token))
        for ws in list(guards.session_sockets.pop(digest(token), ())):
            with contextlib.suppress(Exception):
                await ws.close(code=4401, reason="signed out")
    return answer
