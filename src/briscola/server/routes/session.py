"""``/api/session``: choose a nickname (a new player and their session), who you are,
rename, sign out; your sessions by device, each ended on its own or all at once; and a
one-time code that signs you in on another device."""

from __future__ import annotations

import functools
import secrets
from datetime import timedelta

from fastapi import APIRouter, Request, Response

from briscola.server import nicknames
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
    me,
    player_of,
)
from briscola.server.devices import device_of
from briscola.server.errors import Refused
from briscola.server.messages import (
    CodeIn,
    CodeOut,
    DeleteAccountIn,
    DeviceOut,
    Id,
    PlayerOut,
    SessionIn,
)
from briscola.server.sessions import ended
from briscola.storage import NotFound, Player
from briscola.storage.accounts import ANONYMOUS
from briscola.words.catalogue import LANGUAGES, catalogue
from briscola.words.lookalikes import looks_like

router = APIRouter(prefix="/api/session", tags=["session"])


def nickname_of(body: SessionIn) -> str:
    nickname = " ".join(body.nickname.split())
    if not nickname or not nickname.isprintable():
        raise Refused("bad_nickname", "a nickname is letters, digits and spaces you can see")
    if looks_like(nickname, kept_names(), accents=False):
        raise Refused(
            "nickname_kept",
            f"{nickname!r} looks like {ANONYMOUS!r}, the name of deleted accounts' old seats "
            "(or like one of its translations): choose another nickname",
        )
    return nickname


@functools.cache
def kept_names() -> tuple[str, ...]:
    """The names no one may take, nor anything that looks like them (accents aside): that
    of deleted accounts' seats, and how each language says it (``name.deleted``)."""
    return (ANONYMOUS, *(catalogue(lang).say("name.deleted") for lang in LANGUAGES))


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
    refuse_signed_in(player)
    limited(guards.new_sessions, address(request), "new sessions from your address")
    player = await tables.storage.create_player(nickname)
    return await signed_in(player, request, response, tables, guards)


async def signed_in(
    player: Player, request: Request, response: Response, tables: TablesDep, guards: GuardsDep
) -> PlayerOut:
    """A new session of ``player`` on the device asking: its cookie set."""
    token = secrets.token_urlsafe(32)
    device = device_of(request.headers.get("user-agent"))
    await tables.storage.create_session(player.id, digest(token), device)
    tables.names[player.id] = player.nickname
    keep_cookie(response, token, guards.settings)
    return PlayerOut(id=player.id, nickname=player.nickname)


def refuse_signed_in(player: Player | None) -> None:
    if player is not None:
        raise Refused(
            "signed_in",
            f"you are signed in as {player.nickname}: to change your nickname, rename "
            "(PATCH /api/session); to be someone else, sign out first (DELETE /api/session)",
            409,
            values={"nickname": player.nickname},
        )


@router.get("", response_model=PlayerOut, responses=errors(401))
async def get_session(player: Me) -> PlayerOut:
    """Who the session's cookie says you are."""
    return PlayerOut(id=player.id, nickname=player.nickname)


@router.patch("", response_model=PlayerOut, responses=errors(400, 401, 409, 422))
async def rename(body: SessionIn, player: Me, tables: TablesDep) -> PlayerOut:
    """Change your nickname: you stay the same player, with your history and seats
    (`nickname_alike` when it looks like the nickname of someone in one of your families,
    or seated with you)."""
    nickname = nickname_of(body)
    await nicknames.check_rename(tables, player.id, nickname)
    renamed = await tables.storage.rename_player(player.id, nickname)
    await nicknames.renamed(tables, renamed.id, renamed.nickname)  # here and elsewhere
    return PlayerOut(id=renamed.id, nickname=renamed.nickname)


@router.delete("", status_code=204)
async def sign_out(request: Request, tables: TablesDep, guards: GuardsDep) -> Response:
    """Sign out: the session ends at once (its cookie no longer works, and its open
    WebSockets close with code 4401). Your player and history stay; a new nickname
    makes a new player."""
    token = request.cookies.get(COOKIE)
    answer = Response(status_code=204)
    forget_cookie(answer, guards)
    if token and len(token) <= 100:
        await tables.storage.end_session(digest(token))
        await ended(guards, tables.broadcaster, [digest(token)])
    return answer


def forget_cookie(response: Response, guards: GuardsDep) -> None:
    response.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="lax", secure=guards.settings.secure_cookie
    )


# -- devices -------------------------------------------------------------------------------


@router.get("/devices", response_model=list[DeviceOut], responses=errors(401))
async def devices(
    request: Request, player: Me, tables: TablesDep, guards: GuardsDep
) -> list[DeviceOut]:
    """Your sessions, each with the device it was opened on and when it was last used,
    the last used first; `current` marks the one asking."""
    mine = digest(request.cookies.get(COOKIE) or "")
    return [
        DeviceOut(
            id=s.id, device=s.device, created=s.created, seen=s.seen, current=s.token_hash == mine
        )
        for s in await tables.storage.sessions_of(player.id, guards.idle)
    ]


async def asking(request: Request, tables: TablesDep, guards: GuardsDep) -> Player:
    """The player asking, as :data:`Me`, but without setting the cookie again: for the
    routes that may end the asking session."""
    return await me(await player_of(tables, request.cookies.get(COOKIE), guards.idle))


@router.delete("/devices/{session}", status_code=204, responses=errors(401, 404, 422))
async def sign_out_device(
    session: Id, request: Request, tables: TablesDep, guards: GuardsDep
) -> Response:
    """End one of your sessions (a lost phone's, say): its cookie no longer works and its
    open WebSockets close with code 4401. Ending the one asking signs you out here."""
    player = await asking(request, tables, guards)
    try:
        gone = await tables.storage.end_session_of(player.id, session)
    except NotFound:
        raise Refused(
            "bad_session",
            f"you have no session {session}: it may have ended already "
            "(GET /api/session/devices lists yours)",
            404,
        ) from None
    await ended(guards, tables.broadcaster, [gone])
    answer = Response(status_code=204)
    if gone == digest(request.cookies.get(COOKIE) or ""):
        forget_cookie(answer, guards)
    return answer


@router.delete("/devices", status_code=204, responses=errors(401))
async def sign_out_everywhere(request: Request, tables: TablesDep, guards: GuardsDep) -> Response:
    """Sign out everywhere: every one of your sessions ends, the one asking too, and their
    open WebSockets close with code 4401. Your player and history stay; a one-time code
    or a passkey brings a device back in."""
    player = await asking(request, tables, guards)
    gone = await tables.storage.end_sessions(player.id)
    await ended(guards, tables.broadcaster, gone)
    answer = Response(status_code=204)
    forget_cookie(answer, guards)
    return answer


# -- one-time codes ------------------------------------------------------------------------

CODE_LETTERS = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
"""The letters of a one-time code: none that reads as another (0 O, 1 I L, U V)."""

CODE_LENGTH = 8

CODE_LIFETIME = timedelta(minutes=5)


def new_code() -> str:
    """A one-time code, as shown: ``K7QM-4XPA``."""
    code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
    return f"{code[:4]}-{code[4:]}"


def code_key(code: str) -> str:
    """The digest a code is kept by, from the code as typed: any case, with or without
    its dash and spaces."""
    return digest("".join(c for c in code.upper() if c.isalnum()))


@router.post("/code", response_model=CodeOut, responses=errors(401, 429))
async def make_code(player: Me, tables: TablesDep, guards: GuardsDep) -> CodeOut:
    """A one-time code to sign in on another device as you (`POST /api/session/code/use`
    there): usable once, for 5 minutes; a new code ends the one before."""
    limited(guards.new_codes, player.id, "one-time codes")
    code = new_code()
    await tables.storage.create_link_code(player.id, code_key(code), CODE_LIFETIME)
    return CodeOut(code=code, expires_in=int(CODE_LIFETIME.total_seconds()))


@router.post("/code/use", response_model=PlayerOut, responses=errors(400, 409, 422, 429))
async def use_code(
    body: CodeIn,
    request: Request,
    response: Response,
    tables: TablesDep,
    guards: GuardsDep,
    player: Maybe,
) -> PlayerOut:
    """Sign in on this device with the one-time code your other device shows: a new
    session of that player (the cookie). Signed in already, you are refused
    (`signed_in`): sign out first. A code works once, for 5 minutes; tries are limited
    per address."""
    refuse_signed_in(player)
    limited(guards.sign_in_tries, address(request), "sign-ins tried from your address")
    try:
        owner = await tables.storage.use_link_code(code_key(body.code))
    except NotFound:
        raise Refused(
            "bad_code",
            "no such code: check it, or make a new one on your other device (a code works "
            "once, for 5 minutes)",
        ) from None
    return await signed_in(owner, request, response, tables, guards)


# -- deleting the account ------------------------------------------------------------------


@router.delete("/account", status_code=204, responses=errors(400, 401, 422))
async def delete_account(
    body: DeleteAccountIn, request: Request, tables: TablesDep, guards: GuardsDep
) -> Response:
    """Delete your account (`confirm`: your nickname, typed again): your sessions and
    passkeys are removed, their WebSockets closed with code 4401; you leave your
    families (where you were the last admin, the member who joined first becomes one)
    and the seats you hold at tables still waiting. Your seats in matches played are
    kept, under the name `Anonymous`. It cannot be undone."""
    player = await asking(request, tables, guards)
    if " ".join(body.confirm.split()) != player.nickname:
        raise Refused(
            "bad_confirm",
            "to delete your account, type your nickname exactly as it is",
            values={"nickname": player.nickname},
        )
    for live in list(tables.live.values()):  # the waiting tables loaded here: seats left
        seat = live.seat_of(player.id)
        if seat is not None and live.info.status == "waiting":
            await live.seating.leave(seat, player.id)
    ended_sessions = await tables.storage.delete_account(player.id)
    await ended(guards, tables.broadcaster, ended_sessions)
    await nicknames.renamed(tables, player.id, ANONYMOUS)  # the tables show it, everywhere
    answer = Response(status_code=204)
    forget_cookie(answer, guards)
    return answer
