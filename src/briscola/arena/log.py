"""An arena run kept on disk, so that a long run can stop and go on where it stopped.

The file is JSON lines: the first says what is played (the game, its house rules, the
bots, the seed) and by which code (a fingerprint of the engine's and the bots' source);
each further line is one finished game (:class:`~briscola.arena.duplicate.GameResult`), written
as soon as its deal is done. Running the same arena with the same file plays only the
deals not in it yet, so more games can be asked for later, too; a file made by another
arena, or by other code, is refused rather than mixed.

>>> import tempfile, pathlib
>>> from briscola.arena.duplicate import Arena, run
>>> path = pathlib.Path(tempfile.mkdtemp()) / "run.jsonl"
>>> setup = Arena("briscola-2", (), ("intermediate", "random"), deals=2, seed=1)
>>> log = ArenaLog(path, setup)
>>> first = run(setup, done=log.load(), record=log.append)
>>> again = run(Arena("briscola-2", (), ("intermediate", "random"), deals=3, seed=1),
...             done=log.load(), record=log.append)
>>> len(log.load()), again.games
(3, 6)
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any

from briscola.arena.duplicate import ROTATIONS, Arena, GameResult
from briscola.engine.errors import BriscolaError


@cache
def code_fingerprint() -> str:
    """A hash of the source and data of what games and bots are made of: the
    ``briscola.engine`` and ``briscola.ai`` packages, their trained weights included
    (the rest, the command line or the server, does not change a game's result)."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.blake2b(digest_size=8)
    files = [p for d in ("engine", "ai") for x in ("*.py", "*.json") for p in (root / d).rglob(x)]
    for path in sorted(files):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def header(arena: Arena) -> dict[str, Any]:
    """What the file's first line says: the arena but its number of deals, and the code."""
    played = {
        "game": arena.game,
        "options": [list(o) for o in arena.options],
        "bots": list(arena.bots),
        "seed": arena.seed,
    }
    return {"arena": json.loads(json.dumps(played)), "code": code_fingerprint()}


def to_json(g: GameResult) -> dict[str, Any]:
    return {
        "deal": g.deal,
        "pairing": g.pairing,
        "rotation": g.rotation,
        "seats": g.seats,
        "seat_points": g.seat_points,
        "sides": g.sides,
        "points": g.points,
        "winners": g.winners,
        "scores": g.scores,
        "think": g.think,
        "moves": g.moves,
    }


def from_json(d: dict[str, Any]) -> GameResult:
    return GameResult(
        deal=d["deal"],
        pairing=d["pairing"],
        rotation=d["rotation"],
        seats=tuple(d["seats"]),
        seat_points=tuple(d["seat_points"]),
        sides=tuple(tuple(s) for s in d["sides"]),
        points=tuple(d["points"]),
        winners=tuple(d["winners"]),
        scores=None if d["scores"] is None else tuple(d["scores"]),
        think=tuple(d["think"]),
        moves=tuple(d["moves"]),
    )


LINE_LIMIT = 1_000_000
"""The most bytes of a line read at once: a game takes a few hundred."""


def _json(line: bytes) -> object:
    """The JSON value of a line of the file, or ``None`` when it holds none (a line cut
    short, or bytes that are not JSON in UTF-8)."""
    try:
        return json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # a JSONDecodeError is a ValueError
        return None  # (as is a number of more digits than int() takes)


def _game(value: object, arena: Arena) -> GameResult | None:
    """The game a line holds, or ``None`` when it is not a whole game of this arena."""
    if not isinstance(value, dict) or set(value) != GAME_FIELDS:
        return None
    try:
        g = from_json(value)
    except TypeError:
        return None
    seats = len(g.seats)
    whole = [g.deal, g.pairing, g.rotation, *g.seats, *g.seat_points, *g.points, *g.winners]
    whole += [*g.moves, *(x for s in g.sides for x in s), *(g.scores or ())]
    fits = (
        all(isinstance(x, int) and not isinstance(x, bool) for x in whole)
        and all(isinstance(t, int | float) and not isinstance(t, bool) for t in g.think)
        and g.deal >= 0
        and 0 <= g.pairing < len(arena.pairings)
        and 0 <= g.rotation < ROTATIONS
        and all(0 <= b < len(arena.bots) for b in g.seats)
        and len(g.seat_points) == len(g.think) == len(g.moves) == seats
    )
    return g if fits else None


GAME_FIELDS = frozenset(f.name for f in fields(GameResult))


class ArenaLog:
    """The finished games of ``arena`` kept in the file at ``path``."""

    def __init__(self, path: Path | str, arena: Arena) -> None:
        self.path = Path(path)
        self.arena = arena

    def load(self) -> dict[int, list[GameResult]]:
        """The games of every deal fully played so far (none when the file is new). Lines
        that hold no whole game of this arena (cut short when a run was stopped) are left
        out: their deals are played again."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return {}
        want = header(self.arena)
        by_deal: dict[int, dict[tuple[int, int], GameResult]] = {}
        with self.path.open("rb") as f:
            got = _json(f.readline(LINE_LIMIT))
            played = got.get("arena") if isinstance(got, dict) else None
            if not isinstance(got, dict) or not _same_shape(played, want["arena"]):
                raise BriscolaError(
                    f"{self.path} is not an arena's saved games: give --save a new file"
                )
            if played != want["arena"]:
                raise BriscolaError(
                    f"{self.path} holds the games of another arena ({describe(got['arena'])});"
                    f" this one is {describe(want['arena'])}: give --save another file"
                )
            if got.get("code") != want["code"]:
                raise BriscolaError(
                    f"{self.path} was played by other code (fingerprint {got.get('code')}, "
                    f"this code's is {want['code']}): its games and new ones would not "
                    "measure the same bots; give --save a new file"
                )
            for line in iter(lambda: f.readline(LINE_LIMIT), b""):
                g = _game(_json(line), self.arena)
                if g is not None:  # the same game twice (a deal played again): the last
                    by_deal.setdefault(g.deal, {})[(g.pairing, g.rotation)] = g
        per_deal = len(self.arena.pairings) * ROTATIONS
        return {d: list(gs.values()) for d, gs in by_deal.items() if len(gs) == per_deal}

    def append(self, games: list[GameResult]) -> None:
        """Write finished games (the header first, in a new file)."""
        new = not self.path.exists() or self.path.stat().st_size == 0
        cut = False
        if not new:
            with self.path.open("rb") as f:
                f.seek(-1, 2)
                cut = f.read(1) != b"\n"
        with self.path.open("a") as f:
            if new:
                f.write(json.dumps(header(self.arena)) + "\n")
            elif cut:
                f.write("\n")  # after a line cut short
            for g in games:
                f.write(json.dumps(to_json(g)) + "\n")
            f.flush()


def _same_shape(played: object, want: dict[str, Any]) -> bool:
    """Whether a header's ``arena`` has the fields of ``want`` and their types, as
    :func:`describe` reads them."""
    return (
        isinstance(played, dict)
        and set(played) == set(want)
        and isinstance(played["game"], str)
        and isinstance(played["seed"], int)
        and isinstance(played["bots"], list)
        and all(isinstance(b, str) for b in played["bots"])
        and isinstance(played["options"], list)
        and all(isinstance(o, list) and len(o) == 2 for o in played["options"])
    )


def describe(played: dict[str, Any]) -> str:
    rules = ", ".join(f"{k}={v}" for k, v in played.get("options", []))
    return (
        f"{played.get('game')}{' with ' + rules if rules else ''}, "
        f"{' vs '.join(played.get('bots', []))}, seed {played.get('seed')}"
    )
