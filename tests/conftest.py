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


LONGEST_FIRST = (
    "tests/server/test_chaos.py",
    "tests/web/test_browser_table.py",
    "tests/web/test_browser_reach.py",
    "tests/terminal/test_play.py",
    "tests/terminal/test_remote.py",
    "tests/analysis/test_talk.py",
    "tests/terminal/test_serve_config.py",
    "tests/server/test_restart.py",
    "tests/web/test_browser_analysis.py",
    "tests/terminal/test_analyse_cli.py",
    "tests/web/test_browser_manners.py",
    "tests/storage/test_store.py",
    "tests/server/test_shutdown.py",
    "tests/web/test_browser_trick.py",
    "tests/web/test_browser_reconnect.py",
    "tests/engine/test_conformance.py",
    "tests/web/test_browser_family.py",
    "tests/server/test_health.py",
    "tests/server/test_tables.py",
    "tests/arena/test_arena.py",
)
"""The test files that took longest, longest first (``--durations`` and ``--junitxml``
summed by file over two whole runs, benchmarks/README.md, issue 40), but the chaos test
at the head: one test of two minutes, the longest piece a worker cannot share. The test
command's workers (``--dist loadscope --no-loadscope-reorder``) take a module at a time
in the order of collection: these go first, so that the last module to start is a short
one and no worker idles while another runs a long one. A file missing from the list only
starts later; the list orders, it checks nothing."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The modules of :data:`LONGEST_FIRST` first, in its order, then the others, those
    with more tests first (as xdist's own reordering does), each module's tests together
    and in their order. And each async test uses ``close_clients``. (Not every test: a
    sync one may drive Playwright, whose own loop an async fixture's would collide with.)"""
    root = config.rootpath
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    files = [
        (item.path.relative_to(root) if item.path.is_relative_to(root) else item.path).as_posix()
        for item in items
    ]
    count: dict[str, int] = {}
    first: dict[str, int] = {}
    for i, name in enumerate(files):
        count[name] = count.get(name, 0) + 1
        first.setdefault(name, i)
    order = sorted(
        range(len(items)),
        key=lambda i: (rank.get(files[i], len(rank)), -count[files[i]], first[files[i]], i),
    )
    items[:] = [items[i] for i in order]
    for item in items:
        coroutine = isinstance(item, pytest.Function) and inspect.iscoroutinefunction(item.obj)
        if coroutine and "close_clients" not in item.fixturenames:
            item.fixturenames.append("close_clients")
