"""The records: a finished hand's game record and its replay, a finished match's record,
and your history of matches."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from briscola.server.deps import (
    GuardsDep,
    Maybe,
    Me,
    TablesDep,
    address,
    analysis_limited,
    errors,
)
from briscola.server.errors import Refused
from briscola.server.messages import MatchOut, Whole
from briscola.server.table.writer import LiveTable
from briscola.server.tables import Tables
from briscola.storage import FinishedMatch, NotFound
from briscola.web.replay import hand_replay as replay_of

router = APIRouter(tags=["records"])


def check_hand(live: LiveTable, number: int) -> None:
    """Refuse a hand number no hand of the table has or will have: below 1, or past the
    last hand of a match that is over (``bad_hand``)."""
    match = live.match
    if number < 1:
        raise Refused(
            "bad_hand", f"there is no hand {number}: the first hand is 1", 404, values={"n": number}
        )
    if match is not None and match.over and number > len(match.finished):
        raise Refused(
            "bad_hand", f"there is no hand {number}: the match is over, and its hands "
            f"are 1 to {len(match.finished)}", 404, values={"n": number}
        )  # fmt: skip


def download(record: dict[str, Any], name: str) -> JSONResponse:
    return JSONResponse(record, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get(
    "/api/tables/{token}/hands/{number}",
    responses={
        200: {"description": "The game record, as a file to save (docs/records.md)."},
        **errors(404, 422),
    },
)
async def hand_record(token: str, number: Whole, tables: TablesDep) -> JSONResponse:
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


@router.get("/api/tables/{token}/hands/{number}/replay", responses=errors(404, 422))
async def hand_replay(token: str, number: Whole, tables: TablesDep) -> dict[str, Any]:
    """Finished hand `number`'s replay (the web client's history): its positions, the
    deal and then the table as each trick's last card falls (every hand face up: the
    record is public once the hand is over; `not_finished` before), and who sat where
    (`seats`: each seat's `kind`, a person's `nickname`, a computer player's `name` and
    `level`)."""
    live = await tables.get(token)
    check_hand(live, number)
    if live.match is None or not 1 <= number <= live.revealed or live.deals is None:
        raise Refused("not_finished", f"hand {number} is not finished: no replay yet", 404)
    out = replay_of(live.deals.hand_record(live.match.finished[number - 1]))
    keep = {"seat", "kind", "nickname", "name", "level"}
    out["seats"] = [s.model_dump(include=keep) for s in live.view.table_out(None).seats]
    return out


@router.get(
    "/api/tables/{token}/hands/{number}/analysis",
    responses={
        200: {"description": "The hand's analysis (docs/records.md, 'Analysis reports')."},
        202: {"description": "Being computed: ask again (`Retry-After` seconds)."},
        **errors(404, 422, 429, 503),
    },
)
async def hand_analysis(
    token: str,
    number: Whole,
    tables: TablesDep,
    guards: GuardsDep,
    request: Request,
    player: Maybe,
    level: Literal["strong", "champion"] = "strong",
    seen: Literal["seat", "all"] = "seat",
) -> JSONResponse:
    """Finished hand `number`'s analysis: each decision (a card, an exchange, a talk, a
    bid, a call) valued from what its seat knew then, the points it lost and its mark,
    and each seat's total loss and accuracy (docs/analysis.md) — what `briscola analyse`
    gives on the hand's record. Refused (`not_finished`) until the hand is over: it would
    tell what a seat could not know yet. `seen=all` gives the other values, each choice
    valued with every card seen (`briscola analyse --all-cards`). Computed once, off the
    tables' way, then kept
    (one kept by an older version of the analysis is computed again): while it is being
    computed the answer is `202` (ask again); `503 busy` when many are being computed.
    A new computation counts against a limit per person and per address
    (`429 too_many_analyses`); one kept, or being computed, does not. Both refusals carry
    `Retry-After`."""
    live = await tables.get(token)
    check_hand(live, number)
    if live.match is None or not 1 <= number <= live.revealed or live.deals is None:
        raise Refused(
            "not_finished",
            f"hand {number} is not finished: its analysis comes once it is over",
            404,
        )
    record = live.deals.hand_record(live.match.finished[number - 1])

    def admit() -> None:
        analysis_limited(guards, player.id if player else None, address(request))

    found = await tables.analyst.get(live.info.id, number, level, record, seen, admit)
    if found is None:
        return JSONResponse({"status": "computing"}, 202, headers={"Retry-After": "1"})
    return JSONResponse(found)


@router.get(
    "/api/tables/{token}/record",
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


@router.get("/api/history", response_model=list[MatchOut], responses=errors(401))
async def history(player: Me, tables: TablesDep) -> list[MatchOut]:
    """Your finished matches (those you left before their end too), the newest first,
    each with the path of its record."""
    return [await match_out(tables, m, player.id) for m in await tables.storage.history(player.id)]


async def match_out(tables: Tables, m: FinishedMatch, player: int | None) -> MatchOut:
    """A finished match as a history lists it; ``seat`` is ``player``'s (``None`` when
    they did not play it)."""
    info = await tables.storage.get_table(m.table_id)
    await tables.learn_names(list(m.players.values()))
    seat = next((s for s, p in m.players.items() if p == player), None)
    result = m.record.get("result")
    result = result if isinstance(result, dict) else {}
    winners = result.get("winners")
    return MatchOut(
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
