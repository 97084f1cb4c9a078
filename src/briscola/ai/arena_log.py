"""An arena run kept on disk, so that a long run can stop and go on where it stopped.

The file is JSON lines: the first says what is played (the game, its house rules, the
bots, the seed) and by which code (a fingerprint of the engine's and the bots' source);
each further line is one finished game (:class:`~briscola.ai.arena.GameResult`), written
as soon as its deal is done. Running the same arena with the same file plays only the
deals not in it yet, so more games can be asked for later, too; a file made by another
arena, or by other code, is refused rather than mixed.

>>> import tempfile, pathlib
>>> from briscola.ai.arena import Arena, run
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
from functools import cache
from pathlib import Path
from typing import Any

from briscola.ai.arena import ROTATIONS, Arena, GameResult
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


class ArenaLog:
    """The finished games of ``arena`` kept in the file at ``path``."""

    def __init__(self, path: Path | str, arena: Arena) -> None:
        self.path = Path(path)
        self.arena = arena

    def load(self) -> dict[int, list[GameResult]]:
        """The games of every deal fully played so far (none when the file is new)."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return {}
        want = header(self.arena)
        by_deal: dict[int, list[GameResult]] = {}
        with self.path.open() as f:
            try:
                got = json.loads(f.readline())
            except json.JSONDecodeError:
                got = None
            if not isinstance(got, dict) or "arena" not in got:
                raise BriscolaError(
                    f"{self.path} is not an arena's saved games: give --save a new file"
                )
            if got["arena"] != want["arena"]:
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
            for line in f:
                if not line.strip():
                    continue
                try:
                    g = from_json(json.loads(line))
                except (json.JSONDecodeError, KeyError, TypeError):
                    continue  # a line cut short when a run was stopped: its deal is replayed
                by_deal.setdefault(g.deal, []).append(g)
        per_deal = len(self.arena.pairings) * ROTATIONS
        return {d: gs for d, gs in by_deal.items() if len(gs) == per_deal}

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


def describe(played: dict[str, Any]) -> str:
    rules = ", ".join(f"{k}={v}" for k, v in played.get("options", []))
    return (
        f"{played.get('game')}{' with ' + rules if rules else ''}, "
        f"{' vs '.join(played.get('bots', []))}, seed {played.get('seed')}"
    )
