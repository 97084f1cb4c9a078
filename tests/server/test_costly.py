"""Costly requests have limits (issue 40): a hint is a search of a third of a second or
more and a hand's analysis one of seconds, so one person, or one address with many
sessions, may ask for only so many in a short while (``429`` with ``Retry-After``); each
server process works out only so many at once (``503 busy`` with ``Retry-After``); and
while hints are hammered, another table's moves keep flowing."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Callable

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("numba")

from serverkit import Client, ServerProcess, open_table, play_randomly

ADDRESSES = (f"198.51.100.{i}" for i in itertools.count(10))
"""A fresh address for each person (new sessions are limited per address too)."""


@pytest.fixture(scope="module")
def server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    """A server with its limits on, working out one analysis at a time."""
    return server_factory(limits=True, settings={"analysis_queue": 1})


async def person(server: ServerProcess, name: str) -> Client:
    """``name`` signed in, from an address of their own (``X-Forwarded-For``, which the
    server trusts from this machine)."""
    c = Client(server.url, name)
    c.http.headers["X-Forwarded-For"] = next(ADDRESSES)
    return await c.login()


async def practising(
    server: ServerProcess, name: str, hands: str = "one-hand"
) -> tuple[Client, str]:
    """``name`` at a practice table against a computer player, started, connected, and
    on their turn to play a card; the client and the table's token."""
    c = await person(server, name)
    table = await open_table(
        c, "briscola-2", [{"kind": "me"}, {"kind": "bot", "level": "beginner"}],
        {"match": hands},
    )  # fmt: skip
    await c.call("POST", f"/api/tables/{table['token']}/start")
    await c.connect(table["token"])
    await c.until(lambda f: c.my_turn())
    return c, table["token"]


async def hints(c: Client, token: str, n: int, address: str | None = None) -> list[httpx.Response]:
    """``n`` hints asked for by ``c`` at once (from ``address`` when given)."""
    headers = {"X-Forwarded-For": address} if address else {}
    path = f"/api/tables/{token}/hint"
    return list(await asyncio.gather(*(c.http.post(path, headers=headers) for _ in range(n))))


def wait_said(r: httpx.Response, code: str) -> int:
    """The seconds a refusal says to wait, checked: ``code`` in the documented error form,
    with ``Retry-After`` and the same seconds as its value ``n``."""
    error = r.json()["error"]
    assert error["code"] == code, r.text
    wait = int(r.headers["retry-after"])
    assert wait >= 1
    if "n" in error["values"]:
        assert error["values"] == {"n": wait}
    return wait


async def test_41_hints_at_once_from_one_person_are_refused_past_the_limit(
    server: ServerProcess,
) -> None:
    ana, token = await practising(server, "Ana")
    try:
        got = await hints(ana, token, 41)
        statuses = [r.status_code for r in got]
        assert set(statuses) <= {200, 429, 503}, statuses
        assert 200 in statuses  # the first are worked out
        assert statuses.count(429) >= 25, statuses  # (10 at once, then one every 2 s)
        waits = [wait_said(r, "too_many_hints") for r in got if r.status_code == 429]
        for r in got:
            if r.status_code == 503:
                wait_said(r, "busy")  # the process's own queue was full
        await asyncio.sleep(max(waits))  # as long as the refusal said: then served again
        r = await ana.http.post(f"/api/tables/{token}/hint")
        assert r.status_code == 200, r.text
        assert r.json()["suggested"] in ana.view["legal"]  # type: ignore[index]
    finally:
        await ana.aclose()


async def test_many_sessions_from_one_address_share_its_limit_of_hints(
    server: ServerProcess,
) -> None:
    """Three people behind one address (each of them under their own limit) together
    ask for more hints than the address may: those past it are refused."""
    seated = [await practising(server, name) for name in ("Bea", "Cam", "Dan")]
    try:
        shared = next(ADDRESSES)
        asked = await asyncio.gather(*(hints(c, token, 9, shared) for c, token in seated))
        got = [r for each in asked for r in each]
        refused = [r for r in got if r.status_code == 429]
        assert refused, [r.status_code for r in got]
        for r in refused:
            wait_said(r, "too_many_hints")
            assert "your address" in r.json()["error"]["message"]
        assert {r.status_code for r in got} <= {200, 429, 503}
    finally:
        for c, _ in seated:
            await c.aclose()


async def test_analyses_past_what_the_process_computes_at_once_are_told_to_wait(
    server: ServerProcess,
) -> None:
    """With room for one analysis at a time, a second one asked for meanwhile (by
    someone without a session, from another address) is refused with ``503 busy`` and
    ``Retry-After``, not queued."""
    eve, token = await practising(server, "Eve")
    try:
        await play_randomly(eve, random.Random(3))
        path = f"/api/tables/{token}/hands/1/analysis"
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as anyone:
            got = await asyncio.gather(
                *(
                    anyone.get(
                        path, params={"seen": seen}, headers={"X-Forwarded-For": next(ADDRESSES)}
                    )
                    for seen in ("seat", "all")
                )
            )
            statuses = sorted(r.status_code for r in got)
            assert statuses in ([200, 503], [202, 503]), [r.text for r in got]
            [busy] = [r for r in got if r.status_code == 503]
            wait_said(busy, "busy")
    finally:
        await eve.aclose()


async def test_another_tables_moves_keep_flowing_while_hints_are_hammered(
    server: ServerProcess,
) -> None:
    """Four people ask for 40 hints each, at once; meanwhile Gil plays at his own table,
    and the computer player there answers each of his cards (before, the hints took the
    computer players' threads: its moves waited behind every one of them)."""
    hammering = [await practising(server, f"Hammer {i}") for i in range(4)]
    gil, token = await practising(server, "Gil", "one-hand")
    try:
        flood = asyncio.gather(*(hints(c, t, 40) for c, t in hammering))
        await asyncio.sleep(0.3)  # (the hints are asked for first)
        start = gil.version
        for _ in range(3):
            await gil.act(gil.view["legal"][0])  # type: ignore[index]
            # his card taken, and the computer player's when it is its turn: within seconds
            await gil.until(
                lambda f, before=gil.version: gil.version > before and gil.my_turn(), timeout=5
            )
        assert gil.version >= start + 4  # (the computer player's cards among them)
        got = [r for each in await flood for r in each]
        assert {r.status_code for r in got} <= {200, 429, 503}
    finally:
        for c, _ in [*hammering, (gil, token)]:
            await c.aclose()


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "ask for the next one in 3 seconds"),
        ("it", "tra 3 secondi"),
        ("es", "dentro de 3 segundos"),
        ("hr", "za 3 sekunde"),
    ],
)
def test_the_terminal_says_a_refused_hint_and_when_to_ask_again(lang: str, said: str) -> None:
    """``briscola play --server``/``join`` say a refusal of the limits in the player's
    language, with the seconds to wait, rather than failing."""
    from briscola.server.errors import error_json
    from briscola.terminal.remote import RemoteError, rest

    def refuse(request: httpx.Request) -> httpx.Response:
        body = {"error": error_json("too_many_hints", "too many hints", {"n": 3})}
        return httpx.Response(429, json=body, headers={"Retry-After": "3"})

    http = httpx.Client(transport=httpx.MockTransport(refuse), base_url="http://x")
    with http, pytest.raises(RemoteError) as refused:
        rest(http, "http://x", "POST", "/api/tables/T/hint", lang=lang)
    assert said in str(refused.value)


def test_an_address_without_a_session_has_its_analyses_limited_too() -> None:
    """An anonymous client (the issue's queued six analyses) is held back by its address:
    4 new analyses at once, then one every 15 s; another address is not."""
    from pathlib import Path

    from briscola.server.deps import Guards, analysis_limited
    from briscola.server.errors import Refused
    from briscola.server.settings import ServerSettings

    guards = Guards.of(ServerSettings(data=Path("unused")))
    for _ in range(4):
        analysis_limited(guards, None, "203.0.113.5")
    with pytest.raises(Refused) as refused:
        analysis_limited(guards, None, "203.0.113.5")
    assert (refused.value.status, refused.value.code) == (429, "too_many_analyses")
    assert refused.value.headers == {"Retry-After": str(refused.value.values["n"])}
    analysis_limited(guards, None, "203.0.113.6")
