"""The package's boundaries, as docs/architecture.md draws them: the engine imports nothing
of the project outside ``briscola.engine``, does no I/O, reads no clock and reaches for no
global randomness; each layer of the computer players imports only what it may; nothing
below the terminal imports it; no import cycle; every import goes down the layers drawn,
and every module is named there, under its own folder. A module is named by its path
(``briscola.engine.talk``), not by its file name alone, which other folders repeat
(``briscola.analysis.talk``)."""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Mapping
from pathlib import Path

import pytest

import briscola.engine
from briscola.engine.state import GameState

ENGINE = Path(briscola.engine.__file__).parent
MODULES = sorted(ENGINE.glob("*.py"))
SRC = ENGINE.parent.parent


def module_name(path: Path) -> str:
    """The dotted name of the module in file ``path`` (``briscola.engine.deal``)."""
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_of(module: str) -> str:
    """The source of the module named ``module`` (``briscola.engine.deal``)."""
    return (SRC / module.replace(".", "/")).with_suffix(".py").read_text(encoding="utf-8")


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
RANDOM_ALLOWED_IN = {"briscola.engine.deal", "briscola.engine.match", "briscola.engine.talk"}
"""Modules that name random.Random: for its type, or to make a generator from a seed the
deal carries (``briscola.engine.talk``, for signals spotted by chance)."""
FORBIDDEN = {
    "os", "sys", "time", "datetime", "socket", "secrets", "asyncio", "io", "pathlib",
    "subprocess", "threading", "multiprocessing", "shutil", "tempfile", "logging", "json",
    "sqlite3", "urllib", "http", "builtins", "importlib", "pickle",
}  # fmt: skip
IO_BUILTINS = {"open", "print", "input", "exec", "eval", "compile", "__import__", "breakpoint"}


def violations(module: str, source: str) -> list[str]:
    """Every way ``source`` (the engine module named ``module``: ``briscola.engine.deal``)
    crosses a boundary."""
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
    names = {module_name(p) for p in MODULES}
    expected = {"cards", "house_rules", "presets", "rules", "deal", "actions", "events"}
    expected |= {"state", "views", "view_types", "addons", "exchange", "talk", "chiamata"}
    expected |= {"position", "game_record", "record", "match"}
    assert {"briscola.engine", *(f"briscola.engine.{m}" for m in expected)} <= names


def test_the_engine_imports_at_the_top_of_its_modules() -> None:
    """No import inside a function or under ``if TYPE_CHECKING:`` in the engine: with no
    cycle (:func:`test_the_package_has_no_import_cycle`), nothing needs hiding."""
    found = [
        f"{module_name(path)}:{node.lineno}"
        for path in MODULES
        for top in ast.parse(path.read_text(encoding="utf-8")).body
        if not isinstance(top, ast.Import | ast.ImportFrom)
        for node in ast.walk(top)
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]
    assert found == []


ADDON_MODULES = ("briscola.engine.exchange", "briscola.engine.talk", "briscola.engine.chiamata")
STATE_FIELDS = set(GameState.__slots__)


def field_changes(source: str) -> list[str]:
    """Every change ``source`` makes to a field of a hand's state by assignment:
    ``state.turn = ...``, ``state.pile[0] = ...``, ``state.known[s] |= ...``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            while isinstance(target, ast.Subscript):
                target = target.value
            if (
                isinstance(target, ast.Attribute)
                and target.attr in STATE_FIELDS
                and isinstance(target.value, ast.Name)
                and target.value.id != "self"
            ):
                out.append(f"line {node.lineno}: {target.value.id}.{target.attr}")
    return out


@pytest.mark.parametrize("name", ADDON_MODULES)
def test_an_add_on_changes_the_hand_only_through_its_interface(name: str) -> None:
    """The add-ons change the hand through the trick engine's narrow interface
    (``set_turn``, ``lead``, ``set_trump``, ``set_sides``, ``swap_turned``, ``finish``),
    never by assigning the state's fields."""
    assert field_changes(source_of(name)) == []


def test_the_field_checker_catches() -> None:
    source = "state.turn = 1\nstate.pile[0] = c\nhand.known[s] |= {c}\nself.turn = 2\n"
    assert field_changes(source) == [
        "line 1: state.turn",
        "line 2: state.pile",
        "line 3: hand.known",
    ]


@pytest.mark.parametrize("path", MODULES, ids=module_name)
def test_engine_module_stays_inside_its_boundaries(path: Path) -> None:
    assert violations(module_name(path), path.read_text(encoding="utf-8")) == []


def test_random_is_imported_only_for_its_type() -> None:
    for name in RANDOM_ALLOWED_IN:
        assert "random.Random" in source_of(name)


@pytest.mark.parametrize(
    ("module", "source", "found"),
    [
        ("briscola.engine.state", "import os", "imports os"),
        ("briscola.engine.state", "import time", "imports time"),
        ("briscola.engine.state", "from datetime import datetime", "imports datetime"),
        ("briscola.engine.state", "import secrets", "imports secrets"),
        ("briscola.engine.state", "from pathlib import Path", "imports pathlib"),
        ("briscola.engine.state", "from briscola.terminal.cli import main", "outside the engine"),
        ("briscola.engine.state", "import briscola.ai", "outside the engine"),
        ("briscola.engine.state", "import numpy", "not on the allowed list"),
        ("briscola.engine.state", "import random", "imports random"),
        ("briscola.engine.deal", "from random import shuffle", "from random import"),
        ("briscola.engine.deal", "import random\nrandom.shuffle(x)", "uses random.shuffle"),
        ("briscola.engine.deal", "import random\nr = random.Random()", "calls random.Random"),
        ("briscola.engine.views", "print('hi')", "calls print"),
        ("briscola.engine.views", "open('f')", "calls open"),
        ("briscola.engine.views", "from .cards import Card", "relative import"),
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
    assert violations("briscola.engine.deal", source) == []


# ---------------------------------------------------------------------------- the computer players

AI = ENGINE.parent / "ai"
ARENA = ENGINE.parent / "arena"
LAYERS = {
    "rules": AI / "rules",
    "search": AI / "search",
    "learned": AI / "learned",
    "cores": AI / "cores",
}

VIEW_MODULES = {
    "briscola.engine.actions",
    "briscola.engine.cards",
    "briscola.engine.errors",
    "briscola.engine.events",
    "briscola.engine.house_rules",
    "briscola.engine.presets",
    "briscola.engine.rules",
    "briscola.engine.view_types",
    "briscola.engine.views",
}
"""What of the engine a rule-based player may import: what a seat's view is made of."""
RULES_MAY_USE = {
    "briscola.ai.search.exact_endgame": "the intermediate level's endgame, from a view"
}
"""The search a rule-based player may call, and why."""
LEVELS = {
    "briscola.ai.rules",
    "briscola.ai.rules.heuristic",
    "briscola.ai.search",
    "briscola.ai.search.players",
}
"""What ``briscola.ai`` itself imports of the layers: the modules that register the levels."""


def imported(source: str, package: str = "") -> set[str]:
    """Every module ``source`` imports anywhere (type-checking and function-level imports
    included); ``from p import m`` counts as ``p.m`` when ``p.m`` is a module."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                if (ENGINE.parent.parent / name.replace(".", "/")).with_suffix(".py").exists():
                    out.add(name)
    return out


def ai_modules(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def layer_violations(layer: str, source: str) -> list[str]:
    """How the source of a module in ``layer`` (``rules``, ``search``, ``cores``, ``ai``
    for the rest of ``briscola.ai``, ``arena``) crosses the layers' boundaries."""
    out = []
    for name in sorted(imported(source)):
        top = name.split(".")[0]
        inside = name.startswith("briscola.")
        if layer != "arena" and name.startswith("briscola.arena"):
            out.append(f"imports {name}: the arena hosts the players, they never import it")
        if layer == "rules":
            if name.startswith("briscola.engine.") and name not in VIEW_MODULES:
                out.append(f"imports {name}: a rule-based player sees only views")
            elif name.startswith(("briscola.ai.search", "briscola.ai.cores")):
                if name not in RULES_MAY_USE:
                    out.append(f"imports {name}: rule-based players use no search core")
            elif top in ("numba", "numpy"):
                out.append(f"imports {name}: rule-based players need no compiled code")
        if layer == "cores" and name.startswith(("briscola.ai.search", "briscola.ai.rules")):
            out.append(f"imports {name}: a core imports no player and no search")
        if layer == "cores" and name in ("briscola.ai", "briscola.ai.bot"):
            out.append(f"imports {name}: a core knows nothing of players")
        if (
            layer == "ai"
            and name.startswith(("briscola.ai.search", "briscola.ai.rules"))
            and name not in LEVELS
        ):
            out.append(f"imports {name}: the interfaces import only the levels they list")
        if inside and name.startswith("briscola.terminal"):
            out.append(f"imports {name}: the interfaces of people are above every player")
    return out


def layer_of(path: Path) -> str:
    if path.is_relative_to(ARENA):
        return "arena"
    for layer, folder in LAYERS.items():
        if path.is_relative_to(folder):
            return layer
    return "ai"


@pytest.mark.parametrize("path", ai_modules(AI) + ai_modules(ARENA), ids=lambda p: module_name(p))
def test_computer_player_module_stays_in_its_layer(path: Path) -> None:
    assert layer_violations(layer_of(path), path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", ai_modules(AI), ids=lambda p: module_name(p))
def test_a_computer_player_reads_no_add_on_and_no_pile(path: Path) -> None:
    """The search reads a hand through the state's queries (``to_draw``, ``contract``) and
    the add-ons' own hooks, never an add-on's fields or the state's pile."""
    source = path.read_text(encoding="utf-8")
    names = imported(source)
    assert not names & {f"briscola.engine.{m}" for m in ("chiamata", "exchange", "talk")}
    piles = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Attribute)]
    assert [n.lineno for n in piles if n.attr == "pile"] == []


def test_the_interface_imports_no_player() -> None:
    """The bot interface and registry (``briscola.ai.bot``) import no level: the levels
    register themselves with it."""
    names = imported((AI / "bot.py").read_text(encoding="utf-8"))
    assert {n for n in names if n.startswith("briscola.")} <= {
        "briscola.engine.actions",
        "briscola.engine.errors",
        "briscola.engine.views",
    }


def test_the_computer_players_import_no_cycle() -> None:
    graph: dict[str, set[str]] = {}
    for path in ai_modules(AI) + ai_modules(ARENA):
        names = imported(path.read_text(encoding="utf-8"))
        graph[module_name(path)] = {
            n for n in names if n.startswith(("briscola.ai", "briscola.arena"))
        }
    done: set[str] = set()

    def visit(node: str, path: tuple[str, ...]) -> None:
        assert node not in path, f"an import cycle: {' -> '.join((*path, node))}"
        if node in done:
            return
        for nxt in sorted(graph.get(node, ())):
            if nxt != node and not node.startswith(nxt + "."):  # a package's own __init__
                visit(nxt, (*path, node))
        done.add(node)

    for node in sorted(graph):
        visit(node, ())


@pytest.mark.parametrize(
    ("layer", "source", "found"),
    [
        ("rules", "from briscola.engine.state import GameState", "sees only views"),
        ("rules", "from briscola.ai.cores.head_to_head import Codec", "no search core"),
        ("rules", "import numpy as np", "no compiled code"),
        ("cores", "from briscola.ai.search.determinize import Sampler", "no player and no search"),
        ("cores", "from briscola.ai.rules import counting", "no player and no search"),
        ("cores", "from briscola.ai.bot import Bot", "nothing of players"),
        ("search", "from briscola.arena.duplicate import Arena", "never import it"),
        ("ai", "from briscola.ai.search.pimc import head_to_head", "only the levels"),
        ("search", "from briscola.terminal.cli import app", "interfaces of people"),
    ],
)
def test_the_layer_checker_catches(layer: str, source: str, found: str) -> None:
    assert any(found in v for v in layer_violations(layer, source))


def test_test_modules_do_not_import_each_other() -> None:
    """Shared test data lives in helpers.py (and setup in conftest.py), not in a test module
    that others import."""
    tests = Path(__file__).resolve().parent
    found = [
        f"{path.relative_to(tests)}: {line.strip()}"
        for path in sorted(tests.rglob("*.py"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.match(r"\s*(from|import) ([\w.]+\.)?test_\w+", line)
    ]
    assert found == []


def test_the_test_modules_mirror_the_package() -> None:
    """A test module sits in the folder of the package it tests (``tests/engine/`` for
    ``briscola/engine/``), or in ``rules/`` under its section of docs/rules.md
    (``test_3_chiamata.py``), or in ``docs/``, ``benchmarks/`` or ``scripts/`` for the
    repository's folders of those names; at the top of ``tests/`` are only the tests of the
    package's top modules (``test_host.py`` for ``host.py``) and of the whole package."""
    tests = Path(__file__).resolve().parent
    package = ENGINE.parent
    folders = {p.name for p in package.iterdir() if (p / "__init__.py").exists()}
    folders |= {"rules", "docs", "benchmarks", "scripts"}
    top = {f"test_{p.stem}.py" for p in package.glob("*.py")}
    top |= {"test_boundaries.py", "test_extras.py"}
    misplaced = []
    for path in sorted(tests.rglob("test_*.py")):
        where = path.relative_to(tests).parts
        if len(where) == 1:
            misplaced += [] if path.name in top else [str(where[0])]
        elif where[0] not in folders or (
            where[0] == "rules" and not re.match(r"test_\d_", where[-1])
        ):
            misplaced.append("/".join(where))
    assert misplaced == []


def test_the_files_named_here_exist() -> None:
    """Every file that a docstring of this module names (``docs/architecture.md``,
    ``tests/helpers.py``, ``test_host.py``) is in the repository."""
    root = SRC.parent
    said = [
        node.value.value
        for node in ast.walk(ast.parse(Path(__file__).read_text(encoding="utf-8")))
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    ]
    named = {name for text in said for name in re.findall(r"[\w/]+\.(?:py|md)\b", text)}
    assert named, "the search for file names finds none"
    files = {p.relative_to(root).as_posix() for p in root.glob("*.md")}
    for folder in ("src", "tests", "docs", "benchmarks", "scripts"):
        files |= {
            p.relative_to(root).as_posix()
            for p in (root / folder).rglob("*")
            if p.suffix in (".py", ".md")
        }
    missing = sorted(n for n in named if not any(f == n or f.endswith(f"/{n}") for f in files))
    assert missing == [], f"named here, not in the repository: {missing}"


# ---------------------------------------------------------------------------- the terminal

PACKAGE = ENGINE.parent
TERMINAL = PACKAGE / "terminal"
BELOW_THE_TERMINAL = ("server", "engine", "ai", "arena", "storage", "web", "words")
"""The packages under the terminal: it may use them, none of them may use it."""


def terminal_imports(source: str) -> list[str]:
    """Every import of ``briscola.terminal`` (or of a module in it) in ``source``, at any
    depth (type-checking and function-level imports included)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        found += [
            f"line {node.lineno}: imports {name}"
            for name in names
            if name == "briscola.terminal" or name.startswith("briscola.terminal.")
        ]
    return sorted(set(found))


@pytest.mark.parametrize(
    "path",
    [p for package in BELOW_THE_TERMINAL for p in sorted((PACKAGE / package).rglob("*.py"))],
    ids=lambda p: module_name(p),
)
def test_nothing_below_imports_the_terminal(path: Path) -> None:
    """The terminal is a top floor: the server, the engine, the computer players, the
    arena, the storage and the web client never import it."""
    assert terminal_imports(path.read_text(encoding="utf-8")) == []


def test_the_terminal_is_a_package_of_its_own() -> None:
    modules = {module_name(p) for p in TERMINAL.glob("*.py")}
    assert modules >= {f"briscola.terminal.{m}" for m in ("seat", "local", "remote")}
    assert (TERMINAL / "cli" / "__init__.py").exists()
    for package in BELOW_THE_TERMINAL:
        assert list((PACKAGE / package).rglob("*.py")), package


@pytest.mark.parametrize(
    "source",
    [
        "from briscola.terminal.cli import app",
        "import briscola.terminal.local",
        "from briscola import terminal",
        "def f():\n    from briscola.terminal.seat import Source",
    ],
)
def test_the_terminal_checker_catches(source: str) -> None:
    assert terminal_imports(source) != []


def test_the_terminal_checker_passes_its_neighbours() -> None:
    assert terminal_imports("from briscola import host\nimport briscola.terminals_elsewhere") == []


# ---------------------------------------------------------------------------- the whole package


def package_modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name)."""
    src = package.parent
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def imports_of(name: str, path: Path, modules: Collection[str]) -> set[str]:
    """The package's modules that the module ``name`` (its file ``path``) imports anywhere
    (function-level and type-checking imports included; relative ones resolved; ``from p
    import m`` is ``p.m`` when that is a module), but its own packages above it: importing
    ``a.b.c`` runs ``a`` and ``a.b`` first anyway."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                up = here[: len(here) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {m for m in found if m in modules and m != name and not name.startswith(m + ".")}


def package_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """The import graph of the package: each module and the modules it imports."""
    modules = package_modules(package)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: Mapping[str, Collection[str]]) -> list[list[str]]:
    """The import cycles of ``graph``: each strongly connected set of more than one module
    (Tarjan's algorithm, without recursion), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return sorted(found)


def graph_size(package: Path = PACKAGE) -> tuple[int, int, int]:
    """The package's modules, import arrows and cycles, as counted here.

    >>> modules, edges, knots = graph_size()
    >>> modules > 50 and edges > modules
    True
    """
    graph = package_graph(package)
    return len(graph), sum(len(v) for v in graph.values()), len(cycles(graph))


def test_the_package_has_no_import_cycle() -> None:
    """No cycle anywhere, the engine's included: an add-on sees the hand through
    ``addons.TrickEngine``, and the presets name their add-ons by key."""
    found = cycles(package_graph())
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_cycle_finder_finds_cycles_and_only_them() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"d"}, "f": set()}
    assert cycles(graph) == [["a", "b", "c"], ["d", "e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_reads_every_kind_of_import(tmp_path: Path) -> None:
    package = tmp_path / "p"
    (package / "q").mkdir(parents=True)
    for name in ("__init__.py", "a.py", "b.py", "q/__init__.py", "q/c.py", "q/d.py"):
        (package / name).write_text("")
    (package / "a.py").write_text("def f():\n    from p.q import c\n")
    (package / "q" / "c.py").write_text("from . import d\nfrom ..b import x\nimport p\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import p.a\n"
    )
    graph = package_graph(package)
    assert graph["p.a"] == {"p.q", "p.q.c"}
    assert graph["p.q.c"] == {"p.q.d", "p.b"}  # its own packages (p, p.q) not counted
    assert graph["p.b"] == {"p.a"}
    assert cycles(graph) == [["p.a", "p.b", "p.q.c"]]


# ---------------------------------------------------------------------------- the live table

TABLE = PACKAGE / "server" / "table"
WRITER = "briscola.server.table.writer"
WRITERS = {WRITER, "briscola.server.live"}
"""The live table's one writer (``LiveTable``), and the module that still names it."""
WRITER_LINES = 500
"""The most lines the writer's module may have: the lock, the actions taken and stored,
the match loaded and finished; the rest is its helpers'."""


def reached(graph: Mapping[str, Collection[str]], start: str) -> set[str]:
    """The modules ``start`` imports in ``graph``, directly or through others."""
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph.get(name, ()))
    return seen


def table_helpers() -> list[str]:
    """The modules of the live table's package but the writer (its helpers and theirs)."""
    table = module_name(TABLE / "__init__.py")
    return [m for m in package_modules() if m.startswith(f"{table}.") and m != WRITER]


def test_the_live_table_has_its_helpers() -> None:
    names = {p.stem for p in TABLE.glob("*.py")}
    assert names >= {"writer", "ports", "seating", "bots", "clock", "presence", "follow"}
    assert names >= {"chat", "view"}


@pytest.mark.parametrize("name", table_helpers())
def test_a_table_helper_imports_no_writer(name: str) -> None:
    """The live table's helpers (seating, bots, clock, presence, follow, chat, hints, the
    view) reach the writer through a Protocol (``server/table/ports.py``, or their own),
    never by importing its module, even through other modules."""
    graph = package_graph()
    assert reached(graph, name) & WRITERS == set()


def test_the_writer_checker_catches() -> None:
    graph = {"h": {"p"}, "p": {"q"}, "q": {WRITER}, "ok": {"p2"}, "p2": set()}
    assert reached(graph, "h") & WRITERS == {WRITER}
    assert reached(graph, "ok") == {"p2"}


def test_the_writer_is_small() -> None:
    path = package_modules()[WRITER]
    assert len(path.read_text(encoding="utf-8").splitlines()) <= WRITER_LINES


# ---------------------------------------------------------------------------- docs/architecture.md

ARCHITECTURE = PACKAGE.parent.parent / "docs" / "architecture.md"


def drawn_layers(text: str) -> list[tuple[int, str]]:
    """The layers docs/architecture.md draws: its table under "The layers", each row's
    number (1 the top floor) and each path in its second column (``server/``,
    ``host.py``), as written."""
    section = text.split("## The layers", 1)[1].split("\n## ", 1)[0]
    out = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].isdigit():
            out.extend((int(cells[0]), p) for p in re.findall(r"`([\w/.]+)`", cells[1]))
    return out


def layer_of_module(name: str, layers: list[tuple[int, str]]) -> int | None:
    """The layer of module ``name`` (``briscola.server.app``): the row naming its file or
    the deepest folder holding it."""
    path = name.removeprefix("briscola").lstrip(".").replace(".", "/") or "__init__"
    best: tuple[int, int] | None = None
    for number, drawn in layers:
        if drawn.endswith("/"):
            folder = drawn.rstrip("/")
            hit = path == folder or path.startswith(folder + "/")
            depth = folder.count("/") + 1
        else:
            hit = path in (drawn.removesuffix(".py"), drawn.removesuffix("/__init__.py"))
            depth = 99  # a file named is the most specific
        if hit and (best is None or depth > best[1]):
            best = (number, depth)
    return None if best is None else best[0]


def test_the_layers_drawn_are_the_layers_the_imports_have() -> None:
    """Every module is in a layer of docs/architecture.md, and every import goes to a layer
    at or below the importer's (the same layer: modules side by side)."""
    layers = drawn_layers(ARCHITECTURE.read_text(encoding="utf-8"))
    assert layers, "docs/architecture.md draws no layers"
    graph = package_graph()
    unplaced = sorted(m for m in graph if layer_of_module(m, layers) is None)
    assert unplaced == [], f"draw these in docs/architecture.md's layers: {unplaced}"
    upward = sorted(
        f"{m} (layer {layer_of_module(m, layers)}) imports {n} (layer {layer_of_module(n, layers)})"
        for m, names in graph.items()
        for n in names
        if (layer_of_module(n, layers) or 0) < (layer_of_module(m, layers) or 0)
    )
    assert upward == [], "imports up the layers:\n" + "\n".join(upward)


def named_by_folder(text: str) -> dict[str, set[str]]:
    """The file names docs/architecture.md gives under each folder of the package (``""``
    the package's own, ``"server/routes"``): in its tree "Every module, by folder", a
    folder's line with the lines under it, where a group ``routes/ (tables.py, ...)``
    stands for ``routes/``; and in a bullet that opens with a folder (``- **engine/**``)."""
    tree = text.split("Every module, by folder:", 1)[1].split("```", 2)[1]
    entries: list[tuple[str, str]] = []
    folders: list[str] = []
    for line in tree.splitlines()[2:]:  # (after "```" and "briscola/")
        indent = len(line) - len(line.lstrip())
        if not line.strip():
            continue
        if indent >= 8:  # a line going on with the entry above
            where, said = entries[-1]
            entries[-1] = (where, f"{said} {line.strip()}")
            continue
        first, _, said = line.strip().partition(" ")
        folders = folders[: indent // 2 - 1]
        if first.endswith("/"):
            folders.append(first.rstrip("/"))
        else:
            said = line
        entries.append(("/".join(folders), said))
    for bullet in re.findall(r"^- \*\*([\w/]+)/\*\*(.*?)(?=^- |^$)", text, re.M | re.S):
        entries.append(bullet)
    out: dict[str, set[str]] = {}
    for where, said in entries:
        for sub, group in re.findall(r"(\w+)/ \(([^()]*)\)", said):
            out.setdefault(f"{where}/{sub}".lstrip("/"), set()).update(FILE.findall(group))
        rest = re.sub(r"(\w+)/ \(([^()]*)\)", "", said)
        out.setdefault(where, set()).update(FILE.findall(rest))
    return out


FILE = re.compile(r"\b\w+\.py\b")


def unnamed_modules(text: str) -> list[str]:
    """The package's modules (but its packages' ``__init__.py`` and the migrations) that
    docs/architecture.md does not name: a file name that no other folder repeats may be
    named anywhere; one that others repeat (``tables.py``), under its own folder."""
    paths = [
        path.relative_to(PACKAGE)
        for path in package_modules().values()
        if path.name != "__init__.py" and "migrations" not in path.parts
    ]
    repeated = {p.name for p in paths if sum(q.name == p.name for q in paths) > 1}
    named = named_by_folder(text)
    return sorted(
        str(path)
        for path in paths
        if (
            path.name not in named.get(path.parent.as_posix().strip("."), set())
            if path.name in repeated
            else not re.search(rf"\b{re.escape(path.name)}\b", text)
        )
    )


def test_every_module_is_named_in_the_architecture() -> None:
    missing = unnamed_modules(ARCHITECTURE.read_text(encoding="utf-8"))
    assert missing == [], f"name these modules in docs/architecture.md: {missing}"


def test_the_architecture_reader_reads_each_folder() -> None:
    text = """Every module, by folder:

```
briscola/
  host.py                      one table
  ai/                          computer players
    bot.py                       the interface
    rules/                       rule-based: auction.py,
                                 counting.py
  server/                      app.py, routes/ (tables.py,
                               games.py), live.py
```

- **engine/** holds cards (`cards.py`),
  the rules (`rules.py`).
"""
    assert named_by_folder(text) == {
        "": {"host.py"},
        "ai": {"bot.py"},
        "ai/rules": {"auction.py", "counting.py"},
        "server": {"app.py", "live.py"},
        "server/routes": {"tables.py", "games.py"},
        "engine": {"cards.py", "rules.py"},
    }


def test_the_layer_reader_reads_the_table() -> None:
    text = "## The layers\n\n| layer | modules | what |\n|---|---|---|\n"
    text += "| 1 | `server/` | the server |\n| 2 | `ai/bot.py`, `ai/` | players |\n\n## Next\n"
    layers = drawn_layers(text)
    assert layers == [(1, "server/"), (2, "ai/bot.py"), (2, "ai/")]
    assert layer_of_module("briscola.server.live", layers) == 1
    assert layer_of_module("briscola.ai.bot", layers) == 2
    assert layer_of_module("briscola.engine.state", layers) is None
