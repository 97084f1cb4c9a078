"""``/api/tables``: the lobby, opening a table, a table, its seats, its start and its
rematch. Each command is the live table's own (:mod:`briscola.server.table`: its seating,
its hints, its rematch), and each answer its view's (:meth:`View.table_out`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi import APIRouter, Request

from briscola.server import nicknames
from briscola.server.deps import (
    Guards,
    GuardsDep,
    Maybe,
    Me,
    TablesDep,
    address,
    errors,
    hint_limited,
    limited,
)
from briscola.server.errors import Refused
from briscola.server.messages import HintOut, SeatChange, TableIn, TableOut, Whole
from briscola.server.tables import Tables
from briscola.storage import NotFound, Player

router = APIRouter(prefix="/api/tables", tags=["tables"])


@router.get("", response_model=list[TableOut])
async def lobby(tables: TablesDep, player: Maybe) -> list[TableOut]:
    """The lobby: the public tables waiting for players or in play, newest first (at
    most 100)."""
    listed = await tables.storage.list_tables(public=True, status=("waiting", "playing"), limit=100)
    return await tables.listed(listed, player.id if player else None)


@router.post("", response_model=TableOut, status_code=201, responses=errors(400, 401, 422, 429))
async def create_table(
    body: TableIn, request: Request, player: Me, tables: TablesDep, guards: GuardsDep
) -> TableOut:
    """Open a table: you are its host. `game` is a key of `GET /api/games`, `rules` its
    house rules that differ from the defaults (`bad_rules` names a wrong one); `seats`,
    one for each seat, are `open`, `me` or `bot` with a `level` (`bad_seats`,
    `bad_level`), by default you at seat 0 and the others open; `clock` the seconds for
    each move (none by default); `stand_in` the level of the computer player that moves
    for a slow or absent player; `lang` the table's language, which its computer players'
    first names are of (`it` by default; `bad_language`). Private tables (the default)
    are found only by their link (`invite`). Opening too many tables too fast, or holding
    too many public ones open at once, is refused with `429` (`too_many`, with
    `Retry-After`)."""
    here = address(request)
    if body.public:
        await check_public(tables, guards, player, here)
    limited(guards.new_tables, player.id, "new tables")
    limited(guards.new_tables_here, here, "new tables from your address")
    live = await tables.create(player.id, body)
    if body.public:
        guards.public_here.setdefault(here, []).append(live.token)
    return live.view.table_out(player.id)


async def check_public(tables: Tables, guards: Guards, player: Player, here: str) -> None:
    """Refuse a public table past the person's or the address's tables open at once."""
    limits = guards.settings.limits
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
    for token in guards.public_here.get(here, []):
        try:
            info = await tables.storage.table_by_token(token)
        except NotFound:
            continue
        if info.status == "playing" or (info.status == "waiting" and info.updated >= day_ago):
            still.append(token)
    guards.public_here[here] = still
    if not still:
        del guards.public_here[here]
    if len(still) >= limits.public_per_address:
        raise Refused(
            "too_many",
            f"{len(still)} public tables opened from your address are open already (at "
            f"most {limits.public_per_address}): finish one, or make this one private",
            429,
            {"Retry-After": "60"},
        )


@router.get("/{token}", response_model=TableOut, responses=errors(404, 422))
async def get_table(token: str, tables: TablesDep, player: Maybe) -> TableOut:
    """A table by its token (the last part of its invite link): its game, rules, seats,
    status and version (your seat's, docs/protocol.md); `you` says where you sit, when you
    have a session."""
    live = await tables.get(token)
    return live.view.table_out(player.id if player else None)


@router.post(
    "/{token}/seats/{seat}", response_model=TableOut, responses=errors(400, 401, 404, 409, 422)
)
async def take_seat(token: str, seat: Whole, player: Me, tables: TablesDep) -> TableOut:
    """Sit at an open seat of a waiting table (one seat a player: `seated` when you sit
    elsewhere; `seat_taken` when someone was quicker; `nickname_alike` when your nickname
    looks like that of someone seated there)."""
    live = await tables.get(token)
    seated = await tables.learn_names([s.player for s in live.info.seats])
    nicknames.check_apart(player.id, player.nickname, seated)
    await live.seating.take_seat(seat, player.id)
    return live.view.table_out(player.id)


@router.delete(
    "/{token}/seats/{seat}", response_model=TableOut, responses=errors(401, 403, 404, 409, 422)
)
async def leave_seat(token: str, seat: Whole, player: Me, tables: TablesDep) -> TableOut:
    """Leave your seat (the host may also clear any seat of a waiting table). At a
    table in play, a computer player takes your seat for the rest of the match (which stays
    in your history)."""
    live = await tables.get(token)
    await live.seating.leave(seat, player.id)
    return live.view.table_out(player.id)


@router.put(
    "/{token}/seats/{seat}", response_model=TableOut, responses=errors(400, 401, 403, 404, 409, 422)
)
async def change_seat(
    token: str, seat: Whole, body: SeatChange, player: Me, tables: TablesDep
) -> TableOut:
    """The host opens a seat (`{"kind": "open"}`), or puts a computer player there
    (`{"kind": "bot", "level": "intermediate"}`), before the start."""
    live = await tables.get(token)
    await live.seating.set_seat(seat, player.id, body.kind, body.level)
    return live.view.table_out(player.id)


@router.post("/{token}/start", response_model=TableOut, responses=errors(401, 403, 404, 409, 422))
async def start(token: str, player: Me, tables: TablesDep) -> TableOut:
    """The host starts the match once every seat is filled (`seats_open` names the
    empty ones): the first hand is dealt and its fair-shuffle commitment published."""
    live = await tables.get(token)
    await live.seating.start(player.id)
    return live.view.table_out(player.id)


@router.post(
    "/{token}/hint", response_model=HintOut, responses=errors(401, 403, 404, 409, 422, 429, 503)
)
async def hint(
    token: str, player: Me, tables: TablesDep, guards: GuardsDep, request: Request
) -> HintOut:
    """A hint for your seat, on your turn to play a card: the card the strong computer
    player would choose, and what each of your choices is worth (the card points your
    side takes from now to the end of the hand), both from your view alone
    (docs/analysis.md). At a practice table (only computer players beside you) or one
    opened with `hints`; else `403 no_hints`. Not your turn: `409 not_your_turn`.
    Worked out in a worker process of its own: past a limit per person or per address,
    `429 too_many_hints`; while the worker has as many as it takes, `503 busy` (both with
    `Retry-After`)."""
    hint_limited(guards, player.id, address(request))
    live = await tables.get(token)
    return await live.hints.hint(player.id)


@router.post("/{token}/rematch", response_model=TableOut, responses=errors(401, 403, 404, 409, 422))
async def rematch(token: str, player: Me, tables: TablesDep) -> TableOut:
    """Once the match is over, one of its players makes a rematch: a new table with the
    same game, rules and seats, started at once (asked again, the same table). The old
    table's `rematch` names the new one's token."""
    live = await (await tables.get(token)).rematch(player.id)
    return live.view.table_out(player.id)
