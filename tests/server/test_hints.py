"""Hints through the real server: at a practice table (only computer players beside you)
or one opened with hints, a seated player asks on their turn and gets the strong
player's choice and each legal card's value, from their view; anywhere else, or off
their turn, or to anyone not seated, it is refused and nothing changes."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("numba")

from serverkit import Client, ServerProcess, open_table, play_randomly


def refused(r: Any, status: int, code: str) -> None:
    assert (r.status_code, r.json()["error"]["code"]) == (status, code), r.text


async def test_a_practice_table_gives_hints_on_your_turn(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    ana, zed = await clients("Ana"), await clients("Zed")
    table = await open_table(
        ana, "briscola-2", [{"kind": "me"}, {"kind": "bot", "level": "beginner"}],
        {"match": "one-hand"},
    )  # fmt: skip
    token = table["token"]
    assert table["hints"] is False  # (not opened with hints: a practice table gives them)
    await ana.call("POST", f"/api/tables/{token}/start")
    await ana.connect(token)
    hinted = 0

    async def ask(client: Client, frame: dict[str, Any]) -> None:
        nonlocal hinted
        if not client.my_turn() or hinted >= 4:
            return
        legal = client.view["legal"]  # type: ignore[index]
        got = await client.call("POST", f"/api/tables/{token}/hint")
        assert got["version"] == client.version
        assert got["suggested"] in legal
        assert sorted(map(str, (c["action"] for c in got["choices"]))) == sorted(map(str, legal))
        assert all(0 <= c["expected_points"] <= 120 for c in got["choices"])
        # the strong player plays to win the hand: each choice's chance, its card the best
        assert got["aim"] == "win" and all(0 <= c["win_percent"] <= 100 for c in got["choices"])
        [its] = [c for c in got["choices"] if c["action"] == got["suggested"]]
        assert its["win_percent"] == max(c["win_percent"] for c in got["choices"])
        hinted += 1
        refused(await zed.http.post(f"/api/tables/{token}/hint"), 403, "not_yours")

    await play_randomly(ana, random.Random(5), on_frame=ask)
    assert hinted == 4
    refused(await ana.http.post(f"/api/tables/{token}/hint"), 400, "not_playing")  # over
    async with Client(server.url, "nobody").http as anyone:
        refused(await anyone.post(f"/api/tables/{token}/hint"), 401, "no_session")


async def test_two_people_get_hints_only_at_a_table_opened_with_them(
    server: ServerProcess, clients: Callable[[str], Any]
) -> None:
    for hints in (False, True):
        ana, bea = await clients("Ana"), await clients("Bea")
        table = await open_table(
            ana, "briscola-2", [{"kind": "me"}, {"kind": "open"}], {"match": "one-hand"},
            hints=hints,
        )  # fmt: skip
        token = table["token"]
        assert table["hints"] is hints
        await bea.call("POST", f"/api/tables/{token}/seats/1")
        await ana.call("POST", f"/api/tables/{token}/start")
        for c in (ana, bea):
            await c.connect(token)
            await c.until(lambda f: f["type"] == "snapshot")
        first, other = (ana, bea) if ana.my_turn() else (bea, ana)
        if not hints:
            for c in (first, other):
                refused(await c.http.post(f"/api/tables/{token}/hint"), 403, "no_hints")
            continue
        got = await first.call("POST", f"/api/tables/{token}/hint")
        assert got["suggested"] in first.view["legal"]  # type: ignore[index]
        refused(await other.http.post(f"/api/tables/{token}/hint"), 409, "not_your_turn")
        version = (await first.call("GET", f"/api/tables/{token}"))["version"]
        assert version == got["version"]  # asking changed nothing
