"""The socket loop's flood guard through the real server: a long session refused now and
then for flooding stays connected, a real flood is still closed."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

import pytest

pytest.importorskip("fastapi")

from serverkit import Client, ServerProcess, open_table


@pytest.fixture(scope="module")
def flood_server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    """A server process closing a connection refused more than 100 messages within one
    second (``ServerSettings.flood``), its limits on."""
    return server_factory(bot_delay=0.6, limits=True, settings={"flood": (100, 1.0)})


@pytest.fixture
async def flooder(flood_server: ServerProcess) -> AsyncIterator[Client]:
    """Ana connected to a table of her own at the flood server, her snapshot received."""
    ana = await Client(flood_server.url, "Ana").login()
    table = await open_table(ana, "briscola-2", [])
    await ana.connect(table["token"])
    await ana.until(lambda f: f["type"] == "snapshot")
    yield ana
    await ana.aclose()


async def pings(c: Client, n: int) -> list[str]:
    """Send ``n`` pings at once; what each got (``pong`` or an error's code)."""
    for _ in range(n):
        await c.send({"type": "ping"})
    got: list[str] = []
    while len(got) < n:
        frame = await c.receive()
        if frame["type"] in ("pong", "error"):
            got.append(frame.get("code", frame["type"]))
    return got


async def test_a_client_refused_now_and_then_stays_connected(flooder: Client) -> None:
    refused = 0
    for _ in range(4):  # 100 at once: 10 a second pass (30 at first), the rest refused
        got = await pings(flooder, 100)
        assert set(got) == {"pong", "flood"}
        refused += got.count("flood")
        await asyncio.sleep(1.2)  # the window passes: those refusals are forgotten
    assert refused > 200  # more than a whole connection's life was allowed
    assert await pings(flooder, 1) == ["pong"]


async def test_a_sustained_flood_is_closed(flooder: Client) -> None:
    import websockets

    with contextlib.suppress(websockets.exceptions.ConnectionClosed):  # closed meanwhile
        for _ in range(200):
            await flooder.send({"type": "ping"})
    codes = []
    with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
        while True:
            frame = await flooder.receive()
            codes.append(frame.get("code", frame["type"]))
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    assert codes.count("flood") == 101  # closed at the 101st refusal within the second
