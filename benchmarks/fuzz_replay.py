"""Fuzz `briscola replay`: mutated records of every game and house-rule setting, and
random bytes, each replayed in-process; count how each ends.

The property: every input ends in exit status 0, 1 or 2 with a message (`error: ...`
for 2, `illegal move: ...` for 1), never in an uncaught exception. Valid records come
from random hands played under each setting (stopped at a random move or played out);
the mutations drop, duplicate and swap moves and keys, put values of other types (huge
numbers, floats, NaN, booleans, lists, long or odd texts) anywhere, put wrong cards in,
and work on the text: cut it short, flip, insert and delete bytes, pretty-print it,
put several records in one file.

    python benchmarks/fuzz_replay.py --records 20000 --seed 1

The test suite runs a few hundred of the same inputs (tests/terminal/test_replay_fuzz.py).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import typer
from typer.testing import CliRunner

from briscola.engine import GAMES, RULES, BriscolaError, GameState, Rules, shuffled_deal
from briscola.engine.actions import ORDERS, QUESTIONS, SIGNALS
from briscola.engine.cards import FRENCH_32, ITALIAN_40
from briscola.terminal.cli.records import replay_cmd

Json = Any


def settings() -> list[Rules]:
    """Every game with its defaults, and with each value of each house rule it accepts
    (one rule at a time, and the talk rules with their companions), for each number of
    players and in pairs where the game has them, wherever the game takes the combination."""
    out: list[Rules] = []
    seen: set[str] = set()

    def add(game: str, options: dict[str, object]) -> None:
        try:
            rules = Rules.make(game, options)
        except BriscolaError:
            return
        key = repr(rules)
        if key not in seen:
            seen.add(key)
            out.append(rules)

    for game in GAMES.values():
        bases: list[dict[str, object]] = [{}]
        if "players" in game.rules:
            bases = [{"players": n} for n in game.players]
        if "teams" in game.rules:
            bases += [{**b, "teams": "pairs"} for b in bases]
        for base in bases:
            add(game.key, base)
            for name in game.rules:
                forms = [f.pattern.replace("N", "3") for f in RULES[name].forms]
                for value in [*RULES[name].choices, *forms]:
                    add(game.key, {**base, name: value})
            for talk in ("signals", "conversation"):
                add(game.key, {**base, "communication": talk})
            for audience in ("partner", "table", "spotted"):
                add(
                    game.key,
                    {**base, "communication": "signals", "signal_audience": audience},
                )
            add(
                game.key,
                {
                    **base,
                    "communication": "signals",
                    "signal_audience": "spotted",
                    "spot_chance": 100,
                },
            )
    return out


def valid_record(rules: Rules, rng: random.Random) -> dict[str, Json]:
    """A record of a random hand under ``rules``: played out, or stopped at a random move."""
    state = GameState(rules, shuffled_deal(rules, rng.randrange(rules.players), rng))
    stop = rng.choice([None, None, rng.randrange(60)])
    while not state.over and (stop is None or len(state.moves) < stop):
        state.apply(rng.choice(state.legal_actions()))
    return state.to_record()


# ------------------------------------------------------------------ mutations of the value

ODD = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    6,
    7,
    61,
    121,
    2**63,
    2**64,
    10**40,
    1.0,
    2.5,
    -0.0,
    float("nan"),
    float("inf"),
    float("-inf"),
    "",
    " ",
    "pass",
    "Ab",
    "ab",
    "10c",
    "8b",
    "Xz",
    "\u00b2",
    "\u0663",
    "\ud800",
    "\x00",
    "\n",
    "[/]",
    "[bold]",
    "hands:0",
    "points:99999",
    "x" * 3000,
    [],
    [[]],
    [0, 1],
    {},
    {"seat": 0},
    {"seat": 0, "play": "Ab"},
]
"""Values put where others were."""

HUGE_DIGITS = (30, 500, 4301, 5000)
"""Numbers of this many digits are written into the text itself (beyond what int() reads)."""

CARDS = [str(c) for c in ITALIAN_40 + FRENCH_32]


def nodes(value: Json, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Json]]:
    """Every (path, value) in a JSON value, itself first."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from nodes(v, (*path, i))


def get(value: Json, path: tuple[Any, ...]) -> Json:
    for k in path:
        value = value[k]
    return value


def containers(rec: Json) -> list[tuple[tuple[Any, ...], Json]]:
    return [(p, v) for p, v in nodes(rec) if isinstance(v, dict | list) and v]


def replace_value(rec: Json, rng: random.Random) -> None:
    path, _ = rng.choice([(p, v) for p, v in nodes(rec) if p])
    parent = get(rec, path[:-1])
    roll = rng.random()
    if roll < 0.5:
        parent[path[-1]] = copy.deepcopy(rng.choice(ODD))
    elif roll < 0.7:
        parent[path[-1]] = rng.choice(CARDS)
    elif roll < 0.85:
        parent[path[-1]] = Huge(rng.choice(HUGE_DIGITS), rng.random() < 0.2)
    else:  # a value from elsewhere in the record
        parent[path[-1]] = copy.deepcopy(rng.choice(list(nodes(rec)))[1])


def nudge_number(rec: Json, rng: random.Random) -> None:
    numbers = [p for p, v in nodes(rec) if p and isinstance(v, int) and not isinstance(v, bool)]
    if numbers:
        path = rng.choice(numbers)
        parent = get(rec, path[:-1])
        parent[path[-1]] += rng.choice([-2, -1, 1, 2, 5, 60])


def wrong_card(rec: Json, rng: random.Random) -> None:
    cards = [p for p, v in nodes(rec) if p and isinstance(v, str) and v in CARDS]
    if cards:
        path = rng.choice(cards)
        get(rec, path[:-1])[path[-1]] = rng.choice([*CARDS, "Xz", "", "5", "5bb"])


def drop_key(rec: Json, rng: random.Random) -> None:
    dicts = [v for _, v in containers(rec) if isinstance(v, dict)]
    if dicts:
        d = rng.choice(dicts)
        del d[rng.choice(list(d))]


def add_key(rec: Json, rng: random.Random) -> None:
    dicts = [v for _, v in containers(rec) if isinstance(v, dict)]
    if dicts:
        names = [*RULES, "seat", "play", "to", "spotted", "bid", "call", "look", "seed", "x"]
        names += ["", "\ud800", "\n", "[/]", "é", "k" * 100]
        rng.choice(dicts)[rng.choice(names)] = copy.deepcopy(rng.choice(ODD))


def swap_keys(rec: Json, rng: random.Random) -> None:
    dicts = [v for _, v in containers(rec) if isinstance(v, dict) and len(v) > 1]
    if dicts:
        d = rng.choice(dicts)
        a, b = rng.sample(list(d), 2)
        d[a], d[b] = d[b], d[a]


def add_rule(rec: Json, rng: random.Random) -> None:
    if isinstance(rec.get("rules"), dict):
        name = rng.choice(list(RULES))
        rec["rules"][name] = rng.choice([*RULES[name].choices, *ODD[:12]])


def list_edit(rec: Json, rng: random.Random) -> None:
    """Drop, duplicate, swap or cut the items of a list: moves, hands, cards."""
    lists = [v for _, v in containers(rec) if isinstance(v, list)]
    moves = rec.get("moves")
    if isinstance(moves, list) and moves and rng.random() < 0.6:
        items = moves
    elif lists:
        items = rng.choice(lists)
    else:
        return
    i = rng.randrange(len(items))
    j = rng.randrange(len(items))
    kind = rng.randrange(4)
    if kind == 0:
        del items[i]
    elif kind == 1:
        items.insert(j, copy.deepcopy(items[i]))
    elif kind == 2:
        items[i], items[j] = items[j], items[i]
    else:
        del items[i:]


def any_move(rng: random.Random, players: int) -> dict[str, Json]:
    """A well-formed move of any kind, by any seat of the table."""
    seat = rng.randrange(players)
    kind = rng.choice(["play", "exchange", "signal", "ask", "order", "look", "bid", "call"])
    values: dict[str, list[Json]] = {
        "play": CARDS,
        "exchange": CARDS,
        "call": CARDS,
        "signal": list(SIGNALS),
        "ask": list(QUESTIONS),
        "order": list(ORDERS),
        "look": list(range(players)),
        "bid": ["pass", "A", "3", "K", "Q", "J", "7", "2", 61, 62, 75, 120],
    }
    move: dict[str, Json] = {"seat": seat, kind: rng.choice(values[kind])}
    if kind in ("ask", "order"):
        move["to"] = rng.randrange(players)
    if kind == "signal" and rng.random() < 0.5:
        move["spotted"] = sorted(rng.sample(range(players), rng.randint(0, players)))
    return move


def seats(rec: Json) -> int:
    """The number of seats of the record's table (6 once it cannot be told)."""
    try:
        return len(rec["deal"]["hands"]) or 6
    except (KeyError, TypeError):
        return 6


def insert_move(rec: Json, rng: random.Random) -> None:
    moves = rec.get("moves")
    if isinstance(moves, list):
        moves.insert(rng.randint(0, len(moves)), any_move(rng, seats(rec)))


def change_move(rec: Json, rng: random.Random) -> None:
    """A move's value (its card, signal, bid...) or its seat changed to another of its kind."""
    moves = rec.get("moves")
    if isinstance(moves, list) and moves:
        i = rng.randrange(len(moves))
        other = any_move(rng, seats(rec))
        if rng.random() < 0.5 and isinstance(moves[i], dict) and "seat" in moves[i]:
            other["seat"] = moves[i]["seat"]
        moves[i] = other


MOVE_MUTATIONS: list[Callable[[Json, random.Random], None]] = [
    insert_move,
    change_move,
    list_edit,
]
"""Mutations that keep a record well formed, or nearly: its moves go wrong."""

VALUE_MUTATIONS: list[Callable[[Json, random.Random], None]] = [
    replace_value,
    nudge_number,
    wrong_card,
    drop_key,
    add_key,
    swap_keys,
    add_rule,
    list_edit,
    list_edit,
]


@dataclass(frozen=True)
class Huge:
    """A number written into the text with this many digits (JSON has no limit)."""

    digits: int
    negative: bool


def dumps(value: Json, rng: random.Random) -> str:
    """JSON text of a mutated value, on one line or pretty-printed, huge numbers spelt out."""

    def default(o: object) -> str:
        if isinstance(o, Huge):
            return f"@@{'-' if o.negative else ''}{o.digits}@@"
        raise TypeError(o)

    text = json.dumps(
        value,
        default=default,
        indent=2 if rng.random() < 0.2 else None,
        ensure_ascii=rng.random() < 0.7,  # else raw UTF-8 (and raw surrogates: not UTF-8)
    )
    while "@@" in text:  # a number of so many digits, in place of its marker "@@N@@"
        start = text.index('"@@')
        end = text.index('@@"', start + 3)
        spec = text[start + 3 : end]
        digits = "9" * int(spec.lstrip("-"))
        text = text[:start] + ("-" if spec.startswith("-") else "") + digits + text[end + 3 :]
    return text


# ------------------------------------------------------------------- mutations of the text


def text_edit(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    kind = rng.randrange(6)
    i = rng.randrange(len(data))
    if kind == 0:  # cut short
        return data[:i]
    if kind == 1:  # flip bits of a few bytes
        out = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            k = rng.randrange(len(out))
            out[k] ^= 1 << rng.randrange(8)
        return bytes(out)
    if kind == 2:  # insert random bytes or JSON punctuation
        junk = rng.choice(
            [bytes([rng.randrange(256)]), b",", b"]", b"{", b'"', b"\n", b"\\", b"[/]"]
        )
        return data[:i] + junk * rng.randint(1, 3) + data[i:]
    if kind == 3:  # delete a run
        return data[:i] + data[i + rng.randint(1, 40) :]
    if kind == 4:  # a stray comma after a comma
        k = data.find(b",", i)
        return data if k < 0 else data[: k + 1] + b"," + data[k + 1 :]
    return data[:i] + data[i:].replace(b"\n", b"\r\n", 1)


def random_bytes(rng: random.Random) -> bytes:
    kind = rng.randrange(4)
    n = rng.choice([0, 1, 2, 10, 100, 2000])
    if kind == 0:
        return rng.randbytes(n)
    if kind == 1:  # JSON-looking noise
        alphabet = b'{}[]:,"0123456789.eE-+ \n\tnulltruefalseNaN\\u'
        return bytes(rng.choice(alphabet) for _ in range(n))
    if kind == 2:  # nesting
        depth = rng.choice([10, 900, 1100, 50_000])
        return b"[" * depth + b"]" * rng.choice([0, depth]) + b"\n"
    return rng.choice([b"null", b"[]", b"{}", b'"x"', b"1e999", b"NaN", b"-0", b"\xef\xbb\xbf{}"])


# ------------------------------------------------------------------------ inputs and runs


def inputs(seed: int, count: int) -> Iterator[tuple[str, bytes]]:
    """``count`` inputs for replay, each with the kind of its mutation; the same for a seed.
    One in ten is random bytes, the rest records of every setting in turn, mutated."""
    rng = random.Random(seed)
    tables = settings()
    rng.shuffle(tables)
    for k in range(count):
        if k % 10 == 9:
            yield "random bytes", random_bytes(rng)
            continue
        rules = tables[k % len(tables)]
        records = [valid_record(rules, rng) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
        kinds = []
        for rec in records:
            for _ in range(rng.choice([0, 1, 1, 2, 3])):
                mutation = rng.choice(MOVE_MUTATIONS if rng.random() < 0.4 else VALUE_MUTATIONS)
                mutation(rec, rng)
                kinds.append(mutation.__name__)
        text = "\n".join(dumps(r, rng) for r in records) + "\n"
        data = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.3:
            data = text_edit(data, rng)
            kinds.append("text_edit")
        yield f"{rules.key}: {', '.join(kinds) or 'none'}", data


@dataclass
class Counts:
    records: int = 0
    by_status: Counter[int] = field(default_factory=Counter)
    tracebacks: int = 0
    silent: int = 0
    """Exits without the message their status promises."""
    failures: list[tuple[str, bytes, str]] = field(default_factory=list)

    def bad(self) -> int:
        return self.tracebacks + self.silent


REPLAY = typer.Typer(pretty_exceptions_enable=False)
"""The replay command alone (Typer builds the whole command line at each call: seven
times slower)."""
REPLAY.command()(replay_cmd)


def replay_input(runner: CliRunner, data: bytes, as_json: bool) -> tuple[int, str | None]:
    """Replay ``data`` from standard input: the exit status and what went wrong, if
    anything did (a traceback, or no message)."""
    result = runner.invoke(REPLAY, ["-", *(["--json"] if as_json else [])], input=data)
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        trace = "".join(traceback.format_exception(exc))
        return result.exit_code, trace
    lines = result.stderr.splitlines()
    if result.exit_code not in (0, 1, 2):
        return result.exit_code, f"exit status {result.exit_code}"
    if any(not line.startswith(("error: ", "illegal move: ")) for line in lines):
        return result.exit_code, "a message that is not one line of error: or illegal move:"
    if result.exit_code == 2 and not any(line.startswith("error: ") for line in lines):
        return result.exit_code, "exit 2 without an error: message"
    if result.exit_code == 1 and not any(line.startswith("illegal move: ") for line in lines):
        return result.exit_code, "exit 1 without an illegal move: message"
    return result.exit_code, None


def run(seed: int, count: int, keep: int = 5) -> Counts:
    """Replay ``count`` inputs made from ``seed``; keep the first ``keep`` failures."""
    runner = CliRunner()
    counts = Counts()
    rng = random.Random(seed + 1)
    for kind, data in inputs(seed, count):
        status, problem = replay_input(runner, data, rng.random() < 0.5)
        counts.records += 1
        counts.by_status[status] += 1
        if problem is not None:
            if problem.startswith("Traceback"):
                counts.tracebacks += 1
            else:
                counts.silent += 1
            if len(counts.failures) < keep:
                counts.failures.append((kind, data, problem))
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=2000, help="inputs to replay")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    counts = run(args.seed, args.records)
    seconds = time.perf_counter() - start
    print(
        f"{counts.records:,} inputs (seed {args.seed}, {len(settings())} game and house-rule "
        f"settings) in {seconds:.0f} s"
    )
    for status in (0, 1, 2):
        print(f"  exit {status}: {counts.by_status[status]:7,}")
    others = sum(n for s, n in counts.by_status.items() if s not in (0, 1, 2))
    print(f"  other exits: {others:,}")
    print(f"  tracebacks: {counts.tracebacks:,}")
    print(f"  exits without their message: {counts.silent:,}")
    for kind, data, problem in counts.failures:
        print(f"\n--- {kind}: {data[:300]!r}\n{problem}")
    raise SystemExit(1 if counts.bad() else 0)


if __name__ == "__main__":
    main()
