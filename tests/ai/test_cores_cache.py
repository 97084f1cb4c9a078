"""The compiled cores' machine-code cache: a folder the application is told (or the user's
cache folder), never the package; importing the cores touches no file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import briscola
from briscola.ai.cores import compiled

PACKAGE = Path(briscola.__file__).resolve().parent

IMPORT_ALL = (
    "import briscola.ai, briscola.ai.cores.head_to_head, briscola.ai.cores.head_to_head_solver, "
    "briscola.ai.cores.table_games, briscola.ai.search.pimc"
)


def files_under(root: Path) -> set[Path]:
    return {p.relative_to(root) for p in root.rglob("*")}


def run(code: str, tmp: Path, env: dict[str, str]) -> None:
    """Run ``code`` in a fresh interpreter on a copy of the package in ``tmp``."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "BRISCOLA_"))}
    full.update(env, PYTHONPATH=str(tmp / "src"), PYTHONDONTWRITEBYTECODE="1")
    subprocess.run([sys.executable, "-c", code], env=full, check=True, timeout=300)


@pytest.fixture()
def package_copy(tmp_path: Path) -> Path:
    """A copy of the package without any cache, for a fresh interpreter to import."""
    shutil.copytree(
        PACKAGE, tmp_path / "src" / "briscola", ignore=shutil.ignore_patterns("__pycache__")
    )
    return tmp_path / "src" / "briscola"


def test_importing_and_running_the_cores_writes_only_to_the_cache_folder(
    tmp_path: Path, package_copy: Path
) -> None:
    before = files_under(package_copy)
    cache = tmp_path / "cache"
    env = {"BRISCOLA_CACHE_DIR": str(cache), "HOME": str(tmp_path / "home")}
    run(f"{IMPORT_ALL}\nimport os\nassert not os.path.exists({str(cache)!r})", tmp_path, env)
    assert not cache.exists()  # importing did no file I/O
    assert not (tmp_path / "home").exists()
    run(
        "from briscola.ai.cores.head_to_head import fast_random_games\nfast_random_games(3)",
        tmp_path,
        env,
    )
    assert files_under(package_copy) == before  # nothing written into the package
    folders = list(cache.glob("numba-*"))
    assert len(folders) == 1 and any(folders[0].rglob("*.nbi"))  # the machine code is there


def test_a_read_only_package_imports_and_plays(tmp_path: Path, package_copy: Path) -> None:
    for p in [package_copy, *package_copy.rglob("*")]:
        p.chmod(0o555 if p.is_dir() else 0o444)
    try:
        env = {"BRISCOLA_CACHE_DIR": str(tmp_path / "cache")}
        run(
            "from briscola.ai.cores.head_to_head import fast_random_games\n"
            "assert fast_random_games(3, seed=1) == 120",
            tmp_path,
            env,
        )
    finally:
        for p in [package_copy, *package_copy.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)


def test_the_cache_folder_follows_the_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BRISCOLA_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert compiled.cache_root() == tmp_path / ".cache" / "briscola"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert compiled.cache_root() == tmp_path / "xdg" / "briscola"
    monkeypatch.setenv("BRISCOLA_CACHE_DIR", str(tmp_path / "mine"))
    assert compiled.cache_root() == tmp_path / "mine"
    assert compiled.kernel_folder().parent == tmp_path / "mine"
