"""How fast a finished hand is analysed, how fast a hint comes, how noisy the values
are, and what an ace thrown onto a lost trick costs (the figures behind the marks'
thresholds, docs/analysis.md); the same for tables that talk, bid and call.

    python benchmarks/analysis.py [--hands 10] [--level strong] [--seeds 5] [--aces 12]
        [--talk-hands 3] [--talk-worlds N] [--twins 0] [--cold] [--worlds N]

Pinned to one core. The hands are dealt by seed and played by intermediate players;
each is analysed for every seat after one hand of warm-up (numba's kernels load from
its cache), and again with every card seen (``--all-cards``). A hint (what the hint
button shows: the strong player's choice and the values of the seat's choices) is timed
at every decision of the hands. ``--seeds 0``, ``--aces 0`` and ``--talk-hands 0`` leave
those parts out. ``--twins N``: N hands of briscola-2 and of briscola-4 each given a twin
deal (the cards a seat cannot see at a decision moved, tests/analysis/test_twins.py),
both analysed at the level for every seat: how many of that seat's decisions up to there
differ (none should: an analysis reads each seat's view alone). ``--cold``: in fresh
processes with an empty kernel cache, the first hand's analysis with no warm-up and
after the server's warm-up (``analysis.hand.warm``), each game. ``--worlds N``: the
level's search on N worlds at every table (a quick run through every part, as the test
suite's; its figures are not the level's).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from briscola.ai import make_bot
from briscola.analysis import LEVELS, analyse_hand, choice_values, hint
from briscola.analysis.hand import TALK_WORLDS
from briscola.engine import GAMES, GameState, Rules, seat_view, shuffled_deal
from briscola.engine.actions import Play
from briscola.engine.game_record import Record


def hand(rules: Rules, seed: int) -> Record:
    rng = random.Random(seed)
    deal = shuffled_deal(rules, rng.randrange(rules.players), rng)
    state, moves = GameState(rules, deal), []
    bots = [make_bot("intermediate", seed=seed * 10 + s) for s in range(rules.players)]
    while not state.over:
        move = bots[state.turn].choose(seat_view(state, state.turn))
        moves.append(move)
        state.apply(move)
    return Record(rules, deal, tuple(moves))


def speed(game: str, hands: int, level: str) -> None:
    rules = Rules.make(game)
    analyse_hand(hand(rules, 999), level)  # warm-up
    times, hints, seen = [], [], []
    for seed in range(hands):
        record = hand(rules, seed)
        start = time.perf_counter()
        analyse_hand(record, level, seed)
        times.append(time.perf_counter() - start)
        start = time.perf_counter()
        analyse_hand(record, level, seed, seen="all")
        seen.append(time.perf_counter() - start)
        state = GameState(rules, record.deal)
        for move in record.moves:
            plays = [a for a in seat_view(state, move.seat).legal if isinstance(a, Play)]
            if isinstance(move, Play) and len(plays) > 1:
                start = time.perf_counter()
                hint(state, move.seat, seed, level)
                hints.append(time.perf_counter() - start)
            state.apply(move)
    print(
        f"{game} ({level}): a hand {statistics.mean(times):.2f} s mean, {max(times):.2f} s "
        f"max ({hands} hands); a hint {1000 * statistics.mean(hints):.0f} ms mean, "
        f"{1000 * max(hints):.0f} ms max ({len(hints)} decisions); with every card seen "
        f"a hand {statistics.mean(seen):.2f} s mean, {max(seen):.2f} s max"
    )


def noise(game: str, seeds: int, level: str) -> None:
    """The spread of each choice's loss (the best's value less its own) over seeds."""
    rules = Rules.make(game)
    config = LEVELS[level]
    spreads = []
    for h in range(3):
        record = hand(rules, 100 + h)
        state = GameState(rules, record.deal)
        for move in record.moves:
            plays = [a for a in seat_view(state, move.seat).legal if isinstance(a, Play)]
            if isinstance(move, Play) and len(plays) > 1 and state.to_draw():
                losses: dict[object, list[float]] = {p: [] for p in plays}
                for seed in range(seeds):
                    v = choice_values(state, move.seat, config, seed).points
                    top = max(v.values())
                    for p in plays:
                        losses[p].append(top - v[p])
                spreads += [statistics.pstdev(x) for x in losses.values()]
            state.apply(move)
    print(
        f"{game} ({level}) noise: a loss's standard deviation over {seeds} seeds "
        f"{statistics.mean(spreads):.2f} mean, {statistics.quantiles(spreads, n=20)[-1]:.2f} "
        f"at the 95th percentile, {max(spreads):.2f} max ({len(spreads)} choices)"
    )


TALKING = (
    ("briscola-4", {"communication": "signals"}),
    ("briscola-4", {"communication": "conversation"}),
    ("schembil", {}),
    ("chiamata", {}),
)
"""Tables that talk, bid or call: their decisions are valued by playouts
(briscola.analysis.talk)."""


def talk(hands: int, seeds: int, level: str, worlds: int | None) -> None:
    """A whole hand's analysis at tables that talk, bid or call, and the spread of a talk
    decision's loss over seeds (its first four decisions in each of three hands)."""
    from briscola.analysis.hand import following
    from briscola.analysis.hand import played as step
    from briscola.analysis.talk import TALK, asked, talk_choices, talk_values

    for game, options in TALKING:
        rules = Rules.make(game, options)
        name = game + "".join(f" {k}={v}" for k, v in options.items())
        times = []
        for seed in range(hands):
            record = hand(rules, seed)
            start = time.perf_counter()
            found = analyse_hand(record, level, seed, talk_worlds=worlds)
            times.append(time.perf_counter() - start)
        talked = sum(isinstance(d.played, TALK) for d in found.decisions)
        line = (
            f"{name} ({level}): a hand {statistics.mean(times):.1f} s mean, "
            f"{max(times):.1f} s max ({hands} hands; the last with {talked} talk, bid or "
            f"call decisions of {len(found.decisions)})"
        )
        spreads = []
        for h in range(3 if seeds else 0):
            record = hand(rules, 100 + h)
            state = GameState(rules, record.deal)
            valued = 0
            for i, move in enumerate(record.moves):
                then = following(record.moves, i)
                if isinstance(move, TALK) and valued < 4:
                    choices = talk_choices(state, move.seat, asked(move), then)
                    if len(choices) > 1:
                        valued += 1
                        many = worlds or TALK_WORLDS[level]
                        losses = []
                        for seed in range(seeds):
                            v = talk_values(state, move.seat, choices, then, many, seed).points
                            losses.append(max(v.values()) - v[asked(move)])
                        spreads.append(statistics.pstdev(losses))
                state = step(state, move)
        if spreads:
            line += (
                f"; noise: a loss's standard deviation over {seeds} seeds "
                f"{statistics.mean(spreads):.2f} mean, {max(spreads):.2f} max "
                f"({len(spreads)} decisions)"
            )
        print(line)


def aces(count: int, level: str) -> None:
    """What an ace thrown onto a trick an opponent takes whatever the seat plays costs,
    while it holds a card worth nothing: in the first third of the hand, and later."""
    from helpers import ace_throws

    config = LEVELS[level]
    for game in sorted(GAMES):
        early: list[float] = []
        late: list[float] = []
        for found in ace_throws(Rules.make(game)):
            into = early if found.early else late
            if len(into) < count:
                v = choice_values(found.state, found.seat, config, found.seed).points
                into.append(max(v.values()) - v[found.ace])
            if len(early) >= count and len(late) >= count:
                break

        def said(xs: list[float]) -> str:
            if not xs:
                return "none found"
            return f"median {statistics.median(xs):.1f}, least {min(xs):.1f} ({len(xs)})"

        print(f"{game}: an ace thrown early {said(early)}; later {said(late)}")


def twins(hands: int, level: str) -> None:
    sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "analysis"))
    from test_twins import common, twin

    from briscola.analysis.hand import following
    from helpers import played_hand

    for game in ("briscola-2", "briscola-4"):
        rules = Rules.make(game)
        rng = random.Random(1)
        n = differ = 0
        for attempt in range(hands):
            record = played_hand(rules, 1000 + attempt)
            seat = attempt % rules.players
            mine = [i for i, m in enumerate(record.moves) if m.seat == seat]
            k = mine[len(mine) * 2 // 3]
            found = twin(record, seat, k, rng)
            if found is None:
                continue
            same = common(record, found)
            upto = {i for i in mine if i <= k and i + len(following(record.moves, i)) < same}
            a = [d for d in analyse_hand(record, level).decisions if d.move_number in upto]
            b = [d for d in analyse_hand(found, level).decisions if d.move_number in upto]
            n += len(a)
            differ += sum(x != y for x, y in zip(a, b, strict=True))
        print(f"{game} ({level}) twins: {differ} of {n} decisions differ ({hands} hands)")


COLD = """
import sys, time
sys.path.insert(0, {tests!r})
from helpers import played_hand
from briscola.analysis import analyse_json
from briscola.analysis.hand import warm
from briscola.engine import Rules
rules = Rules.make({game!r})
start = time.perf_counter()
if {warmed}:
    warm({game!r})
warmed = time.perf_counter()
analyse_json(played_hand(rules, 5).to_json())
print(f"{{warmed - start:.1f}} {{time.perf_counter() - warmed:.1f}}")
"""


def cold() -> None:
    import subprocess
    import tempfile

    tests = str(Path(__file__).parents[1] / "tests")
    for game in ("briscola-2", "briscola-4"):
        said = []
        for warmed in (False, True):
            with tempfile.TemporaryDirectory() as cache:
                env = {**os.environ, "BRISCOLA_CACHE_DIR": cache}
                code = COLD.format(tests=tests, game=game, warmed=warmed)
                out = subprocess.run(
                    [sys.executable, "-c", code], env=env, capture_output=True, text=True
                )
                said.append(out.stdout.split())
        (_, alone), (warm_up, after) = said
        print(
            f"{game} with an empty kernel cache: the first analysis {alone} s; after a "
            f"warm-up of {warm_up} s, {after} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--level", default="strong", choices=sorted(LEVELS))
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--aces", type=int, default=12)
    parser.add_argument("--talk-hands", type=int, default=3)
    parser.add_argument("--talk-worlds", type=int, default=None)
    parser.add_argument("--twins", type=int, default=0)
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--worlds", type=int, default=None)
    args = parser.parse_args()
    if args.worlds:  # (read by name wherever the level is: the analysis, hints, noise)
        LEVELS[args.level] = dataclasses.replace(
            LEVELS[args.level], worlds=args.worlds, table_worlds=args.worlds
        )
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    for game in ("briscola-2", "briscola-4"):
        speed(game, args.hands, args.level)
    for game in ("briscola-2", "briscola-4") if args.seeds else ():
        noise(game, args.seeds, args.level)
    if args.aces:
        aces(args.aces, args.level)
    if args.talk_hands:
        talk(args.talk_hands, args.seeds, args.level, args.talk_worlds)
    if args.twins:
        twins(args.twins, args.level)
    if args.cold:
        cold()


if __name__ == "__main__":
    main()
