"""Computer players from outside (``package.module:factory``): the documented command
finds them in the current folder, and one that cannot be made, raises, answers wrongly
or never answers ends `briscola arena` and `briscola play` with one line naming it."""

from __future__ import annotations

import importlib
import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from briscola.ai import BOTS, make_bot
from briscola.ai.bot import DEFAULT_MOVE_LIMIT, BotError, Guarded
from briscola.arena.duplicate import Arena, run
from briscola.engine import GameState, Rules, seat_view, shuffled_deal
from briscola.terminal import cli
from briscola.terminal.cli.common import MOVE_LIMIT

BRISCOLA = str(Path(sys.executable).parent / "briscola")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
runner = CliRunner()

BAD = '''
import time

class Hang:
    """Never answers."""
    def __init__(self, seed=None):
        pass
    def choose(self, view):
        time.sleep(3600)

class Spin:
    """Never answers, and keeps its thread busy."""
    def __init__(self, seed=None):
        pass
    def choose(self, view):
        while True:
            pass

class Raises:
    def __init__(self, seed=None):
        pass
    def choose(self, view):
        return 1 / 0

class Late:
    """Plays its first legal card for two tricks, then raises."""
    def __init__(self, seed=None):
        pass
    def choose(self, view):
        if len(view.tricks) >= 2:
            raise RuntimeError("lost its notes")
        return view.legal[0]

class Wrong:
    def __init__(self, seed=None):
        pass
    def choose(self, view):
        return "5b"

class Sulks:
    def __init__(self, seed=None):
        pass
    def new_hand(self, view):
        raise KeyError("memory")
    def choose(self, view):
        return view.legal[0]

def boom(seed=None):
    raise RuntimeError("no weights file")

def slow(seed=None):
    time.sleep(3600)

number = 3
'''


def the_docs_bot() -> str:
    """The example bot of docs/bots.md (its imports and the class), as a module."""
    lines = DOCS.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(">>> class Cheapest"))
    body = [lines[start][4:]]
    for line in lines[start + 1 :]:
        if not line.startswith("... "):
            break
        body.append(line[4:])
    imports = [
        line[4:]
        for line in lines[:start]
        if line.startswith((">>> import ", ">>> from ")) and "cheap" not in line
    ]
    return "\n".join([*imports, "", *body]) + "\n"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding ``mybots/`` (the docs' ``cheap.py`` and the ``bad.py`` bots),
    made the current one."""
    (tmp_path / "mybots").mkdir()
    (tmp_path / "mybots" / "cheap.py").write_text(the_docs_bot(), encoding="utf-8")
    (tmp_path / "mybots" / "bad.py").write_text(BAD, encoding="utf-8")
    (tmp_path / "mybots" / "broken.py").write_text("def oops(:\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for name in [m for m in sys.modules if m == "mybots" or m.startswith("mybots.")]:
        monkeypatch.delitem(sys.modules, name)
    return tmp_path


def one_error_line(output: str) -> str:
    """The output's only error line (and no traceback)."""
    assert "Traceback" not in output, output
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, output
    return errors[0]


# ---------------------------------------------------------------------------- the docs


def test_the_documented_command_runs_from_the_folder_that_holds_mybots(folder: Path) -> None:
    """docs/bots.md: `briscola arena ... mybots.cheap:Cheapest intermediate`, run by the
    installed script from the folder that holds mybots/ (no __init__.py, as documented)."""
    args = ["arena", "--game", "briscola-2", "--games", "20", "--seed", "1"]
    done = subprocess.run(
        [BRISCOLA, *args, "mybots.cheap:Cheapest", "intermediate"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"mybots\.cheap:Cheapest\s+20\s", done.stdout), done.stdout
    played = subprocess.run(
        [BRISCOLA, "play", "--bot", "mybots.cheap:Cheapest", "--plain", "--seed", "2"],
        cwd=folder,
        input="1\n" * 200,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr
    assert "=== the match is over" in played.stdout


def test_a_module_that_is_nowhere_is_named_with_where_it_was_looked_for(folder: Path) -> None:
    done = subprocess.run(
        [BRISCOLA, "arena", "--games", "2", "nowhere.cheap:Cheapest", "intermediate"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    line = one_error_line(done.stderr)
    assert "there is no module 'nowhere', neither installed nor in the current folder" in line
    assert str(folder) in line


# ---------------------------------------------------------------------------- bad bots

BROKEN = [
    ("mybots.bad:boom", "cannot make the bot 'mybots.bad:boom': RuntimeError: no weights file"),
    ("mybots.bad:number", "cannot make the bot 'mybots.bad:number': it names an int, not a"),
    ("os:getcwd", "cannot make the bot 'os:getcwd': TypeError: "),
    ("builtins:dict", "'builtins:dict' did not make a bot: it made a dict, which has no choose"),
    ("mybots.bad:Nobody", "the module mybots.bad has no 'Nobody'"),
    ("mybots.broken:oops", "importing mybots.broken raised SyntaxError: "),
    ("mybots.bad:Raises", "the bot mybots.bad:Raises at seat 0 failed in choose at trick 1"),
    ("mybots.bad:Sulks", "the bot mybots.bad:Sulks at seat 0 failed in new_hand"),
    ("mybots.bad:Wrong", "the bot mybots.bad:Wrong at seat 0 chose '5b' at trick 1"),
    ("mybots.bad:slow", "the bot mybots.bad:slow was not made within 0.5 s; give it longer"),
    ("mybots.bad:Hang", "the bot mybots.bad:Hang at seat 0 did not answer within 0.5 s"),
]


@pytest.mark.parametrize(("spec", "message"), BROKEN)
def test_a_broken_bot_ends_the_arena_with_one_line(folder: Path, spec: str, message: str) -> None:
    result = runner.invoke(cli.app, ["arena", "-n", "2", "--move-limit", "0.5", spec, "random"])
    assert result.exit_code == 2, result.output
    assert message in one_error_line(result.output)


@pytest.mark.parametrize(("spec", "message"), BROKEN)
def test_a_broken_bot_ends_the_game_with_one_line(folder: Path, spec: str, message: str) -> None:
    if "Sulks" in spec:
        return  # a game does not tell its bots of a new hand
    args = ["play", "--plain", "--seat", "2", "--seed", "1", "--move-limit", "0.5", "-b", spec]
    result = runner.invoke(cli.app, args, input="1\n" * 30)
    assert result.exit_code == 2, result.output
    assert message.replace(" of deal 0", "") in one_error_line(result.output)


def test_a_failed_game_keeps_what_was_played_with_save(folder: Path) -> None:
    path = folder / "match.jsonl"
    args = ["play", "--plain", "--seed", "4", "-b", "mybots.bad:Late", "--save", str(path)]
    result = runner.invoke(cli.app, args, input="1\n" * 30)
    assert result.exit_code == 2, result.output
    line = one_error_line(result.output)
    assert "the bot mybots.bad:Late at seat 1 failed in choose at trick 3" in line
    assert "RuntimeError: lost its notes" in line
    (record,) = [json.loads(x) for x in path.read_text().splitlines()]
    assert len(record["moves"]) == 5  # two tricks and your lead to the third


@pytest.mark.parametrize(
    "args",
    [
        ["arena", "-n", "4", "mybots.bad:Hang", "random"],
        ["arena", "-n", "40", "--jobs", "2", "mybots.bad:Spin", "intermediate"],
        ["play", "--plain", "--seat", "2", "--bot", "mybots.bad:Spin"],
    ],
    ids=["arena", "arena-jobs-2", "play"],
)
def test_a_bot_that_never_answers_ends_the_command_promptly(folder: Path, args: list[str]) -> None:
    start = time.monotonic()
    done = subprocess.run(
        [BRISCOLA, *args, "--move-limit", "1"],
        cwd=folder,
        input="1\n" * 30,
        capture_output=True,
        text=True,
        timeout=60,
    )
    took = time.monotonic() - start
    assert done.returncode == 2, done.stderr
    line = one_error_line(done.stderr)
    assert re.search(r"the bot mybots\.bad:(Hang|Spin) at seat 0 did not answer within 1 s", line)
    assert "at trick 1" in line and "--move-limit SECONDS" in line
    if args[0] == "arena":
        assert "of deal " in line
    assert took < 20


# ---------------------------------------------------------------------------- the guard


def test_the_levels_are_made_as_they_are_and_other_bots_guarded(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for level in ("random", "beginner", "intermediate"):
        assert not isinstance(make_bot(level, seed=1), Guarded)
    outside = make_bot("mybots.cheap:Cheapest", seed=1)
    assert isinstance(outside, Guarded) and outside.limit == DEFAULT_MOVE_LIMIT
    monkeypatch.setitem(BOTS, "hanger", importlib.import_module("mybots.bad").Hang)
    registered = make_bot("hanger", seed=1, limit=0.2)
    assert isinstance(registered, Guarded)  # registered by other code: not one of ours
    rules = Rules.make("briscola-2")
    state = GameState(rules, shuffled_deal(rules, 1, random.Random(0)))
    with pytest.raises(BotError, match=re.escape("did not answer within 0.2 s at trick 1")):
        registered.choose(seat_view(state, 0))


def test_a_guarded_bot_plays_as_the_bot_itself(folder: Path) -> None:
    """The guard changes no move: an outside bot's results are those of the same bot
    registered as it is."""
    plain = run(Arena("briscola-2", (), ("mybots.cheap:Cheapest", "random"), 3, 5, None))
    timed = run(Arena("briscola-2", (), ("mybots.cheap:Cheapest", "random"), 3, 5))
    assert [(b.wins, b.draws, b.points) for b in plain.bots] == [
        (b.wins, b.draws, b.points) for b in timed.bots
    ]


def test_the_command_default_limit_is_the_library_one() -> None:
    assert MOVE_LIMIT == DEFAULT_MOVE_LIMIT
