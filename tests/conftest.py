"""Shared setup of the test suite.

Every Hypothesis property runs under one profile: no deadline (these machines are
shared and noisy: speed is measured by the benchmarks, never by timed tests), the same
examples on every run (``derandomize``), so that main stays green or red for a reason,
and no example database written into the clone. Shared data and helpers (the
conformance configurations, hand-built deals, random play) are in ``helpers.py``, which
the test modules import; they never import each other.
"""

from __future__ import annotations

import contextlib
import inspect
import os
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from hypothesis import settings

settings.register_profile("briscola", deadline=None, derandomize=True, database=None)
settings.load_profile("briscola")

# The tests' servers start no analysis worker when a table starts (each would be a
# process warming the search's kernels beside the tests): only when a hand is analysed.
os.environ.setdefault("BRISCOLA_WARM_ANALYSIS", "0")
# Their hints' and analyses' workers run at the tests' own priority: beside a whole suite
# keeping the cores busy, a worker of lower priority (the servers' default) waits long.
os.environ.setdefault("BRISCOLA_WORKER_NICE", "0")

# The browser tests' fixtures (tests/browserkit.py), defined here once: a session has one
# Chromium and one server however many test modules use them.
from browserkit import browser, people, screenshots, web  # noqa: E402
from serverkit import OPEN_CLIENTS, Client, ServerProcess, redis_dir  # noqa: E402

__all__ = [
    "browser",
    "clients",
    "close_clients",
    "people",
    "redis_dir",
    "screenshots",
    "server",
    "server_factory",
    "web",
]


# The game server's fixtures. ``server_factory`` starts a ``ServerProcess`` with the given
# options; ``server`` is one with the defaults, shared by the tests of a module; a module
# that needs other options, or a server of its own for each test, defines its own
# ``server`` on the factory. ``clients`` makes people's HTTP and WebSocket clients at the
# ``server`` (``people``, from browserkit, are always browser pages).


@pytest.fixture(scope="module")
def server_factory(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[..., ServerProcess]]:
    """``server_factory(*args, **options)``: a ``ServerProcess`` started in a new
    temporary folder, with ``ServerProcess``'s arguments after the folder (a database
    URL, more options of ``briscola serve``, ``grace``, ``bot_delay``, ``limits``,
    ``settings``). Each is stopped at the end of the module, unless stopped sooner."""
    started: list[ServerProcess] = []

    def start(*args: Any, **options: Any) -> ServerProcess:
        srv = ServerProcess(tmp_path_factory.mktemp("server") / "data", *args, **options)
        started.append(srv)
        srv.start()
        return srv

    yield start
    for srv in started:
        srv.stop()


@pytest.fixture(scope="module")
def server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    """A server with ``ServerProcess``'s defaults (SQLite, limits off, computer players
    moving at once), one for the module."""
    return server_factory()


@pytest.fixture
async def clients(server: ServerProcess) -> AsyncIterator[Callable[[str], Any]]:
    """``await clients(nickname)``: a person's ``Client`` signed in at ``server``; all are
    closed at the end of the test."""
    made: list[Client] = []

    async def person(name: str) -> Client:
        c = await Client(server.url, name).login()
        made.append(c)
        return c

    yield person
    for c in made:
        await c.aclose()


@pytest.fixture
async def close_clients() -> AsyncIterator[None]:
    """Close the ``Client``s made during the test that it left open (it failed before it
    could close them): their sockets would otherwise be collected, and warned about, in a
    later test. Every async test uses it (:func:`pytest_collection_modifyitems`)."""
    before = set(OPEN_CLIENTS)
    yield
    for key in [k for k in OPEN_CLIENTS if k not in before]:
        with contextlib.suppress(Exception):
            await OPEN_CLIENTS[key].aclose()
        OPEN_CLIENTS.pop(key, None)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each async test uses ``close_clients``. (Not every test: a sync one may drive
    Playwright, whose own loop an async fixture's would collide with.)"""
    for item in items:
        coroutine = isinstance(item, pytest.Function) and inspect.iscoroutinefunction(item.obj)
        if coroutine and "close_clients" not in item.fixturenames:
            item.fixturenames.append("close_clients")
