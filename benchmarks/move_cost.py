"""What a move costs the table host before the network: the action applied, then for each
seat its view built, written as JSON and sent as an update frame, as the server does for
every connection after every move (``View.catch_up`` in server/table/view.py).

    python benchmarks/move_cost.py [--game briscola-2] [--matches 100] [--seed 0] [--json FILE]

Plays ``--matches`` best-of-3 matches of random legal moves through :class:`briscola.host.Table`
and reports the CPU time (``time.process_time``) a move of each part, in microseconds,
summed over the seats: ``act`` (the host applies it, numbering every seat's stream),
``view`` (``Table.view``), ``json`` (``View.to_json``), ``frame`` (the stream's messages
after the seat's last number, and ``update_frame``). Run it twice and compare within one
run of the machine: its speed changes from day to day.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from briscola.engine import Match, Rules
from briscola.host import Table
from briscola.server.messages import update_frame

PARTS = ("act", "view", "json", "frame")


def measure(game: str, matches: int, seed: int) -> dict[str, float]:
    """CPU microseconds a move of each of :data:`PARTS`, and the frames' mean size."""
    rules = Rules.make(game)
    spent = dict.fromkeys(PARTS, 0.0)
    moves = size = frames = 0
    clock = time.process_time
    for m in range(matches):
        rng = random.Random(f"{seed} {m}")
        table = Table(Match(rules, rng, dealer=rng.randrange(rules.players)), {})
        seats = range(rules.players)
        while not table.over:
            seat = table.turn
            if seat is None:
                break
            since = {s: table.number(s) for s in seats}
            action = rng.choice(table.view(seat).legal)
            t0 = clock()
            table.act(seat, action)
            t1 = clock()
            spent["act"] += t1 - t0
            for s in seats:
                t0 = clock()
                view = table.view(s)
                t1 = clock()
                data = view.to_json()
                t2 = clock()
                messages = table.messages(s, since[s]) or []
                if messages:
                    events = [e for message in messages for e in message.events]
                    text = update_frame(messages[-1].number, since[s], events, data)
                    size += len(text)
                    frames += 1
                t3 = clock()
                spent["view"] += t1 - t0
                spent["json"] += t2 - t1
                spent["frame"] += t3 - t2
            moves += 1
    out = {part: 1e6 * t / moves for part, t in spent.items()}
    out["total"] = sum(out[p] for p in PARTS)
    out["moves"] = moves
    out["frame_bytes"] = size / max(frames, 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="briscola-2")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures")
    args = parser.parse_args()
    if args.matches < 1:
        parser.error("--matches: give 1 or more")
    try:
        result = measure(args.game, args.matches, args.seed)
    except ValueError as e:  # an unknown game: the engine's words say which there are
        parser.error(str(e))
    print(
        f"{args.game}: {result['moves']:,.0f} moves; CPU a move (all seats): "
        + ", ".join(f"{p} {result[p]:.0f} µs" for p in PARTS)
        + f"; total {result['total']:.0f} µs; an update frame {result['frame_bytes']:.0f} bytes"
    )
    if args.json:
        args.json.write_text(json.dumps({"game": args.game, **result}, indent=2) + "\n")


if __name__ == "__main__":
    main()
