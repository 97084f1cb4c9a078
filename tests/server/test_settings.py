"""The server's settings (briscola.server.settings): the data folder and what it keeps."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from briscola.server.settings import ServerSettings


@pytest.fixture(autouse=True)
def shell_umask(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The umask of a normal shell (0o022: new files readable by everyone)."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_the_data_folder_is_made_its_owners_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The data folder holds the database (the deals of the hands in play, the
    sessions): made for the database URL, it is 0700."""
    data = tmp_path / "home" / "briscola-data"
    assert ServerSettings(data=data).url.endswith("/briscola-data/briscola.db")
    assert mode(data) == 0o700
    assert mode(data.parent) == 0o755  # only the data folder itself
    assert warnings(caplog) == []


def test_a_data_folder_open_to_others_is_tightened_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data = tmp_path / "briscola-data"
    data.mkdir()
    data.chmod(0o775)
    settings = ServerSettings(data=data)
    with caplog.at_level(logging.WARNING, "briscola.server"):
        assert settings.url.endswith("/briscola-data/briscola.db")
        assert settings.url.endswith("/briscola-data/briscola.db")  # warned once
    assert mode(data) == 0o700
    found = warnings(caplog)
    assert len(found) == 1, found
    assert "the data folder" in found[0] and "0775" in found[0]


def test_a_folder_not_used_is_not_made(tmp_path: Path) -> None:
    """With PostgreSQL, the server keeps nothing in the data folder."""
    settings = ServerSettings(data=tmp_path / "unused", database_url="postgresql+asyncpg://db/b")
    assert settings.url == "postgresql+asyncpg://db/b"
    assert not (tmp_path / "unused").exists()
