"""requirements.lock pins every dependency pyproject.toml declares (every extra's, and the
build backend), at a version the declaration allows, with the hashes scripts/setup checks:
a dependency added or changed without running scripts/lock fails here, saying so."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements.lock"
RELOCK = "run scripts/lock (then scripts/setup installs the new lock), and commit requirements.lock"

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)(?:\s*;\s*([^\\]+?))?\s*\\?$")


def declared() -> list[Requirement]:
    """Every requirement of pyproject.toml: the dependencies, each extra's (the project's
    own extras, like ``briscola[ai,tui,server]``, are named by their parts), the build's."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    texts = list(project["project"]["dependencies"])
    for extra in project["project"]["optional-dependencies"].values():
        texts += extra
    texts += project["build-system"]["requires"]
    own = canonicalize_name(project["project"]["name"])
    return [r for r in map(Requirement, texts) if canonicalize_name(r.name) != own]


def pinned() -> dict[str, list[tuple[Version, str, bool]]]:
    """The lock's pins by name: each version with its marker ("" for everywhere) and
    whether hashes follow it."""
    lines = LOCK.read_text().splitlines()
    pins: dict[str, list[tuple[Version, str, bool]]] = {}
    for i, line in enumerate(lines):
        found = PIN.match(line)
        if found:
            name, version, marker = found.groups()
            hashed = i + 1 < len(lines) and lines[i + 1].strip().startswith("--hash=sha256:")
            pins.setdefault(canonicalize_name(name), []).append(
                (Version(version), marker or "", hashed)
            )
    return pins


def test_the_lock_pins_every_declared_dependency_at_an_allowed_version() -> None:
    assert LOCK.is_file(), f"there is no {LOCK.name}: {RELOCK}"
    pins = pinned()
    missing = [str(r) for r in declared() if canonicalize_name(r.name) not in pins]
    assert not missing, f"{LOCK.name} does not pin {', '.join(missing)}: {RELOCK}"
    outside = [
        f"{r} (pinned {', '.join(str(v) for v, _, _ in pins[canonicalize_name(r.name)])})"
        for r in declared()
        if not any(
            r.specifier.contains(v, prereleases=True) for v, _, _ in pins[canonicalize_name(r.name)]
        )
    ]
    assert not outside, (
        f"{LOCK.name} pins versions pyproject.toml does not allow: {'; '.join(outside)}: {RELOCK}"
    )


def test_every_pin_has_the_hashes_scripts_setup_checks() -> None:
    pins = pinned()
    assert pins, f"{LOCK.name} pins nothing: {RELOCK}"
    unhashed = [name for name, each in pins.items() if not all(h for _, _, h in each)]
    assert not unhashed, f"{LOCK.name} has no hashes for {', '.join(unhashed)}: {RELOCK}"
