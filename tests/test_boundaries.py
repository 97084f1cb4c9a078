"""The engine's boundaries (DESIGN.md): it imports nothing of the project outside
``briscola.engine``, does no I/O, reads no clock and reaches for no global randomness."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import briscola.engine

ENGINE = Path(briscola.engine.__file__).parent
MODULES = sorted(ENGINE.glob("*.py"))

ALLOWED_STDLIB = {
    "__future__",
    "collections",
    "collections.abc",
    "dataclasses",
    "enum",
    "functools",
    "re",
    "types",
    "typing",
}
RANDOM_ALLOWED_IN = {"deal.py", "match.py", "talk.py"}
"""Modules that name random.Random: for its type, or to make a generator from a seed the
deal carries (talk.py, for signals spotted by chance)."""
FORBIDDEN = {
    "os", "sys", "time", "datetime", "socket", "secrets", "asyncio", "io", "pathlib",
    "subprocess", "threading", "multiprocessing", "shutil", "tempfile", "logging", "json",
    "sqlite3", "urllib", "http", "builtins", "importlib", "pickle",
}  # fmt: skip
IO_BUILTINS = {"open", "print", "input", "exec", "eval", "compile", "__import__", "breakpoint"}


def violations(module: str, source: str) -> list[str]:
    """Every way ``source`` (the engine module named ``module``) crosses a boundary."""
    out: list[str] = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                out.append(f"line {node.lineno}: relative import")
            names = [node.module or ""]
            if node.module == "random":
                out.append(f"line {node.lineno}: from random import ...")
        for name in names:
            top = name.split(".")[0]
            if top in FORBIDDEN:
                out.append(f"line {node.lineno}: imports {name}")
            elif top == "briscola":
                if name != "briscola.engine" and not name.startswith("briscola.engine."):
                    out.append(f"line {node.lineno}: imports {name}, outside the engine")
            elif name == "random":
                if module not in RANDOM_ALLOWED_IN:
                    out.append(f"line {node.lineno}: imports random")
            elif name not in ALLOWED_STDLIB:
                out.append(f"line {node.lineno}: imports {name}, not on the allowed list")
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"
        ):
            out.append(f"line {node.lineno}: uses random.{node.attr}")
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
                seeded = f.attr == "Random" and (node.args or node.keywords)
                if f.value.id == "random" and not seeded:
                    out.append(f"line {node.lineno}: calls random.{f.attr}")
            elif isinstance(f, ast.Name) and f.id in IO_BUILTINS:
                out.append(f"line {node.lineno}: calls {f.id}")
    return out


def test_the_engine_modules_are_all_here() -> None:
    names = {p.name for p in MODULES}
    expected = {"__init__.py", "cards.py", "house_rules.py", "games.py", "deal.py"}
    expected |= {"actions.py", "events.py", "state.py", "views.py", "record.py", "match.py"}
    assert expected <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_engine_module_stays_inside_its_boundaries(path: Path) -> None:
    assert violations(path.name, path.read_text(encoding="utf-8")) == []


def test_random_is_imported_only_for_its_type() -> None:
    for name in RANDOM_ALLOWED_IN:
        source = (ENGINE / name).read_text(encoding="utf-8")
        assert "random.Random" in source


@pytest.mark.parametrize(
    ("module", "source", "found"),
    [
        ("state.py", "import os", "imports os"),
        ("state.py", "import time", "imports time"),
        ("state.py", "from datetime import datetime", "imports datetime"),
        ("state.py", "import secrets", "imports secrets"),
        ("state.py", "from pathlib import Path", "imports pathlib"),
        ("state.py", "from briscola.cli import main", "outside the engine"),
        ("state.py", "import briscola.ai", "outside the engine"),
        ("state.py", "import numpy", "not on the allowed list"),
        ("state.py", "import random", "imports random"),
        ("deal.py", "from random import shuffle", "from random import"),
        ("deal.py", "import random\nrandom.shuffle(x)", "uses random.shuffle"),
        ("deal.py", "import random\nr = random.Random()", "calls random.Random"),
        ("views.py", "print('hi')", "calls print"),
        ("views.py", "open('f')", "calls open"),
        ("views.py", "from .cards import Card", "relative import"),
    ],
)
def test_the_checker_catches(module: str, source: str, found: str) -> None:
    assert any(found in v for v in violations(module, source))


def test_the_checker_accepts_the_engine_style() -> None:
    source = (
        "from __future__ import annotations\nimport random\n"
        "from briscola.engine.cards import Card\n"
        "def f(rng: random.Random) -> None: ...\n"
    )
    assert violations("deal.py", source) == []
