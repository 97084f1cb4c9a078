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
    """The umask of a normal shell (0o022: new files readable by everyone), and no
    secret from the environment."""
    monkeypatch.delenv("BRISCOLA_SECRET", raising=False)
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
    """The data folder holds the database (the deals of the hands in play) and the
    signing secret: made for the database URL or for the secret, it is 0700."""
    for made_by in ("url", "signing_secret"):
        data = tmp_path / made_by / "briscola-data"
        settings = ServerSettings(data=data)
        _ = settings.url if made_by == "url" else settings.signing_secret()
        assert mode(data) == 0o700, made_by
        assert mode(data.parent) == 0o755  # only the data folder itself
    assert mode(tmp_path / "signing_secret" / "briscola-data" / "secret") == 0o600
    assert warnings(caplog) == []


def test_a_data_folder_and_secret_open_to_others_are_tightened_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data = tmp_path / "briscola-data"
    data.mkdir()
    data.chmod(0o775)
    secret = data / "secret"
    secret.write_text("kept\n")
    secret.chmod(0o644)
    settings = ServerSettings(data=data)
    with caplog.at_level(logging.WARNING, "briscola.server"):
        assert settings.signing_secret() == "kept"
        assert settings.url.endswith("/briscola-data/briscola.db")
    assert (mode(data), mode(secret)) == (0o700, 0o600)
    found = warnings(caplog)
    assert len(found) == 2, found
    assert "the data folder" in found[0] and "0775" in found[0]
    assert "the signing secret" in found[1] and "0644" in found[1]


def test_a_folder_not_used_is_not_made(tmp_path: Path) -> None:
    """With PostgreSQL and a secret given, the server keeps nothing in the data folder."""
    settings = ServerSettings(
        data=tmp_path / "unused", database_url="postgresql+asyncpg://db/briscola", secret="s"
    )
    assert settings.url == "postgresql+asyncpg://db/briscola"
    assert settings.signing_secret() == "s"
    assert not (tmp_path / "unused").exists()
