"""Each seat's own stream, through the real server: at a briscola-4 table where partners
signal to each other alone, a person and a spectator are sent one update for each action
that shows them something, numbered on their own (each update's ``since`` is the version
of the frame before it), never an empty one; the partners' signals they were not shown
leave no gap, and their numbers end below the table's own count of actions."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

pytest.importorskip("fastapi")

from briscola.engine import Match, parse_match_record
from serverkit import Client, ServerProcess, finished, open_table, play_randomly

RULES = {"match": "one-hand", "communication": "signals", "signal_audience": "partner"}


async def watch(client: Client) -> None:
    while not finished(client):
        await client.receive()


class Signaller:
    """Signals whenever it may (the first signal offered), else plays at random."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choice(self, legal: list[dict[str, Any]]) -> dict[str, Any]:
        said = [a for a in legal if "signal" in a]
        return said[0] if said else self.rng.choice(legal)


async def play(url: str, seed: int) -> tuple[Client, Client, dict[str, Any]]:
    """Ana (seat 0) plays at random, Bea (seat 1) signals to her partner at seat 3 whenever
    she may; computer players at seats 2 and 3; Cy watches."""
    ana, bea, cy = Client(url, "Ana"), Client(url, "Bea"), Client(url, "Cy")
    await ana.login()
    await bea.login()
    seats = [{"kind": "me"}, {"kind": "open"}] + [{"kind": "bot", "level": "intermediate"}] * 2
    table = await open_table(ana, "briscola-4", seats, RULES)
    token = table["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    for client in (ana, bea, cy):
        await client.connect(token)
    await ana.call("POST", f"/api/tables/{token}/start")
    try:
        await asyncio.wait_for(
            asyncio.gather(
                play_randomly(ana, random.Random(seed)),
                play_randomly(bea, Signaller(seed)),
                watch(cy),
            ),
            120,
        )
        record = await ana.call("GET", f"/api/tables/{token}/record")
    finally:
        for client in (ana, bea, cy):
            await client.aclose()
    return ana, cy, record


def test_a_seat_is_numbered_only_for_what_it_is_shown(server: ServerProcess) -> None:
    ana, cy, record = asyncio.run(play(server.url, 11))
    match = Match.from_record(parse_match_record(record))
    moves = record["hands"][0]["moves"]
    signals = sum(1 for m in moves if "signal" in m)
    theirs = sum(1 for m in moves if "signal" in m and m["seat"] % 2 == 1)  # Ana's opponents'
    assert theirs > 0
    for client in (ana, cy):
        last = None
        updates = 0
        for frame in client.frames:
            if frame["type"] == "snapshot":
                last = frame["version"]
            elif frame["type"] == "update":
                updates += 1
                assert frame["events"], f"{client.nickname} was sent an empty update"
                assert frame["since"] == last, (client.nickname, frame["since"], last)
                last = frame["version"]
            elif frame["type"] in ("table", "chat", "pong"):
                assert frame["version"] == last
        assert last == updates  # one number a message, from the start's 0
    # Ana is not shown the other side's signals; the spectator no signal at all.
    assert ana.version == len(moves) - theirs
    assert cy.version == len(moves) - signals
    assert match.over
