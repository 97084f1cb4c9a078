"""The storage tests' fixtures: each test runs on SQLite and on PostgreSQL (see
test_store's documentation)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from briscola.storage import Storage
from serverkit import database
from storekit import Clock


@pytest.fixture(params=["sqlite", "postgresql"])
async def url(request: pytest.FixtureRequest, tmp_path: Any) -> AsyncIterator[str]:
    async with database(request.param) as pg:
        yield pg or f"sqlite+aiosqlite:///{tmp_path}/briscola.db"


@pytest.fixture
async def store(url: str) -> AsyncIterator[Storage]:
    opened = await Storage.open(url)
    yield opened
    await opened.close()


@pytest.fixture
async def clocked(url: str) -> AsyncIterator[tuple[Storage, Clock]]:
    clock = Clock()
    opened = await Storage.open(url, clock=clock)
    yield opened, clock
    await opened.close()
