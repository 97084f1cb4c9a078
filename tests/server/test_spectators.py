"""Spectators through the real server (issue 23): at a public table a spectator sees the
play one trick late, so that no watcher can tell a player what is going on. Ana and Bea
play a hand of briscola-2 while Cy watches; after every move each of them is asked for a
pong, so that everything the server sent them by then has come (a socket's replies come
after what is new). At a public table Cy is shown each trick's cards only once the next
trick's first card is played, never a card of the trick in play (no event, no view, no
snapshot), and at the hand's end everything, as a fresh spectator's snapshot shows it; a
private table's spectators (the players' guests) see each card as it is played."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")

from briscola.engine import Card
from helpers import CARD
from serverkit import Client, ServerProcess, open_table


def cards_in(obj: object) -> set[Card]:
    """Every card named in a JSON value, but in house rules (whose values are words)."""
    if isinstance(obj, str):
        return {Card.parse(obj)} if CARD.fullmatch(obj) else set()
    if isinstance(obj, list):
        return set().union(*(cards_in(v) for v in obj))
    if isinstance(obj, dict):
        kept = [v for k, v in obj.items() if k not in ("rules", "overrides")]
        return set().union(*(cards_in(v) for v in kept))
    return set()


async def settle(client: Client) -> list[dict[str, Any]]:
    """Everything the server sent ``client`` until now: the frames up to a pong."""
    await client.send({"type": "ping"})
    frames = []
    while (frame := await client.receive()).get("type") != "pong":
        frames.append(frame)
    return frames


def played(view: dict[str, Any]) -> tuple[set[Card], set[Card]]:
    """The cards of the tricks taken, and of the trick in play, in a seat's view."""
    taken = {Card.parse(c) for t in view["tricks"] for c in t["cards"]}
    return taken, {Card.parse(c) for _, c in view["trick"]}


async def watch_a_hand(url: str, public: bool) -> list[str]:
    """Ana and Bea play a hand of briscola-2 at a ``public`` (or private) table, Cy
    watching; after each move, what Cy was shown is checked against the seats' views.
    Returns what went wrong, if anything (empty: all was as it should be)."""
    ana, bea, cy, dee = Client(url, "Ana"), Client(url, "Bea"), Client(url, "Cy"), None
    cy2 = Client(url, "Cy")  # a second tab of Cy's, which drops and comes back
    wrong: list[str] = []
    try:
        await ana.login()
        await bea.login()
        seats = [{"kind": "me"}, {"kind": "open"}]
        table = await open_table(ana, "briscola-2", seats, {"match": "one-hand"}, public=public)
        token = table["token"]
        await bea.call("POST", f"/api/tables/{token}/seats/1")
        for client in (ana, bea, cy, cy2):
            await client.connect(token)
        await ana.call("POST", f"/api/tables/{token}/start")
        for client in (ana, bea, cy, cy2):
            await client.until(lambda f: f["type"] == "snapshot" and f["view"] is not None)
        assert cy.view is not None and cy.view["seat"] is None
        trump = {Card.parse(cy.view["turned"])}
        shown: set[Card] = cards_in(cy.frames)
        rng = random.Random(23)
        moves = 0
        while not ana.finished():
            view = ana.view
            assert view is not None
            player = ana if view["to_act"] == 0 else bea
            assert player.view is not None
            await asyncio.sleep(0.15)  # (a socket takes 10 messages a second)
            await player.act(rng.choice(player.view["legal"]))
            moves += 1
            for client in (ana, bea):
                await settle(client)
            got = await settle(cy)
            shown |= cards_in(got)
            if moves == 5:
                left = cy2.version
                await cy2.close()
            if moves == 9:  # back with the last version seen: what was let out since
                await cy2.connect(token, since=left)
                back = [f for f in await settle(cy2) if f["type"] != "table"]
                if [(f["type"], f.get("since")) for f in back] != [("update", left)]:
                    wrong.append(f"Cy's second tab, back, was sent {back}")
                if (cy2.version, cy2.view) != (cy.version, cy.view):
                    wrong.append("Cy's second tab, back, does not see what Cy sees")
            if ana.finished():
                break
            mine, watched = ana.view, cy.view
            assert mine is not None and watched is not None
            taken, trick = played(mine)
            if public:
                # Trick k reaches Cy as trick k+1's first card is played: while no card of
                # the next trick is down, the last trick taken is still held back.
                last = set(played({"tricks": mine["tricks"][-1:], "trick": []})[0])
                due = taken - last if not trick else taken
            else:
                due = taken | trick
            seen = (shown & (taken | trick)) - trump
            if seen != due - trump:
                wrong.append(
                    f"move {moves}: Cy was shown {sorted(map(str, seen))} of the cards "
                    f"played, not {sorted(map(str, due - trump))}"
                )
            if public and watched["trick"]:
                wrong.append(f"move {moves}: Cy's view shows the trick {watched['trick']}")
            if public and len(trick) == 1 and dee is None:
                # Dee comes to watch in the middle of a trick: her snapshot is Cy's view.
                dee = Client(url, "Dee")
                await dee.connect(token)
                snapshot = await dee.receive()
                assert snapshot["type"] == "snapshot"
                if cards_in(snapshot) & trick:
                    wrong.append(f"move {moves}: Dee's snapshot shows the trick in play")
                if (snapshot["version"], snapshot["view"]) != (cy.version, cy.view):
                    wrong.append(f"move {moves}: Dee's snapshot is not Cy's view")
                # And the table, asked by someone who sits nowhere, is at Cy's version.
                out = await dee.call("GET", f"/api/tables/{token}")
                if out["version"] != cy.version:
                    wrong.append(f"move {moves}: the table says version {out['version']}")
                await dee.aclose()
        # The hand is over: everything reaches Cy, as a fresh spectator sees it.
        assert ana.view is not None and cy.view is not None
        taken, _ = played(ana.view)
        if len(taken) != 40 or not taken <= shown:
            wrong.append("the hand is over, and Cy was not shown all its cards")
        if cy.view["tricks"] != ana.view["tricks"] or cy.view["points"] != ana.view["points"]:
            wrong.append("the hand is over, and Cy's view is not the seats' own")
        fresh = Client(url, "Eve")
        await fresh.connect(token)
        snapshot = await fresh.receive()
        if (snapshot["version"], snapshot["view"]) != (cy.version, cy.view):
            wrong.append("at the end, a fresh spectator's snapshot is not Cy's view")
        await fresh.aclose()
    finally:
        for client in (ana, bea, cy, cy2):
            await client.aclose()
    return wrong


def test_a_spectator_at_a_public_table_gets_each_trick_once_the_next_has_begun(
    server: ServerProcess,
) -> None:
    assert asyncio.run(watch_a_hand(server.url, public=True)) == []


def test_a_spectator_at_a_private_table_sees_each_card_as_it_is_played(
    server: ServerProcess,
) -> None:
    assert asyncio.run(watch_a_hand(server.url, public=False)) == []


async def test_a_spectator_learns_nothing_while_the_held_back_trick_is_played(
    server: ServerProcess,
) -> None:
    """At a public table with a clock, nothing a spectator can read (the table by REST,
    the lobby's line, their socket) changes while the seats play the cards of the trick
    the spectators are held before: not even how long the seat to act has had (the
    clock's ``clock_left``, which restarts at each move)."""
    ana, bea, cy = Client(server.url, "Ana"), Client(server.url, "Bea"), Client(server.url, "Cy")
    try:
        for client in (ana, bea, cy):
            await client.login()
        seats = [{"kind": "me"}, {"kind": "open"}]
        table = await open_table(
            ana, "briscola-2", seats, {"match": "one-hand"}, public=True, clock=60
        )
        token = table["token"]
        await bea.call("POST", f"/api/tables/{token}/seats/1")
        for client in (ana, bea, cy):
            await client.connect(token)
        await ana.call("POST", f"/api/tables/{token}/start")
        for client in (ana, bea, cy):
            await client.until(lambda f: f["type"] == "snapshot" and f["view"] is not None)
        await settle(cy)

        async def watched() -> list[Any]:
            """What Cy, and someone with no session, read of the table now."""
            lobby = await cy.call("GET", "/api/tables")
            line = [t for t in lobby if t["token"] == token]
            async with httpx.AsyncClient(base_url=server.url) as nobody:
                anyone = (await nobody.get(f"/api/tables/{token}")).json()
            return [await cy.call("GET", f"/api/tables/{token}"), line, anyone]

        await asyncio.sleep(1.0)  # the first seat's clock runs a while
        before = await watched()
        assert before[0]["status"] == "playing" and before[0]["clock"] == 60
        for _ in range(2):  # the first trick, both its cards
            assert ana.view is not None
            player = ana if ana.view["to_act"] == 0 else bea
            assert player.view is not None
            await asyncio.sleep(0.15)
            await player.act(player.view["legal"][0])
            for client in (ana, bea):
                await settle(client)
            assert await settle(cy) == []  # not a frame
            now = await watched()
            assert now == before, [
                (i, k, b.get(k), n.get(k))
                for i, (b, n) in enumerate(zip(before, now, strict=True))
                if isinstance(b, dict) and isinstance(n, dict)
                for k in b.keys() | n.keys()
                if b.get(k) != n.get(k)
            ] or (before, now)
            await asyncio.sleep(0.5)
        assert ana.view is not None and len(ana.view["tricks"]) == 1
    finally:
        for client in (ana, bea, cy):
            await client.aclose()
