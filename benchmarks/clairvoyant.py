"""How far could any player get against a bot? A clairvoyant player's score.

    python benchmarks/clairvoyant.py --deals 200 --seed 1 --jobs 2 --b intermediate

The clairvoyant player cheats: it reads the true hand of its opponent and the true
order of the stock (it is not a bot of the project, and never could be one: bots get
views). It searches that one true world with the search bots' own machinery (playouts
by the card-counting policy, solved exactly once ``--exact-draw`` cards or fewer are
left to draw). No honest player knows more, so its score against a bot is a ceiling,
give or take search quality, for what search and inference can reach against it.
Head to head games only (``briscola-2`` and the two-player variants of the fast core).
"""

from __future__ import annotations

import argparse
import os
from typing import Any

import numpy as np
from search_match import importable_here, play_match

from briscola.ai.cores.head_to_head import COUNTING, COUNTING_JUDGE, DRAW, SP, Codec
from briscola.ai.cores.head_to_head_solver import NO_EACH, Transpositions, evaluate
from briscola.ai.search.config import STRONG
from briscola.ai.search.pimc import fill_worlds, utility_params
from briscola.ai.search.players import pick
from briscola.arena import duplicate as arena_module
from briscola.engine.actions import Action, Play
from briscola.engine.state import GameState
from briscola.engine.views import View

_CURRENT: list[GameState] = []


class _Watched(GameState):
    """The arena's game state, remembered where the clairvoyant player can read it."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        _CURRENT[:] = [self]


class Clairvoyant:
    def __init__(self, seed: int | None, exact_draw: int, rollouts: int, know: str) -> None:
        arena_module.GameState = _Watched  # type: ignore[misc]
        self.seed = seed or 0
        self.exact_draw = exact_draw
        self.rollouts = rollouts
        self.moves = 0
        self.know = know
        self.tt = Transpositions()

    def choose(self, view: View) -> Action:
        plays = [a for a in view.legal if isinstance(a, Play)]
        if len(plays) != len(view.legal):
            return view.legal[0]  # the trump exchange (always worth it), if offered
        if len(plays) == 1:
            return plays[0]
        state = _CURRENT[0]
        rules = state.rules
        seat = view.seat
        assert seat is not None
        codec = Codec(rules)
        pile = state.pile
        down = pile[1:] if state.turned is not None else pile
        stock = list(reversed(down))  # the top first
        pos = codec.from_view(view, state.hands[1 - seat], stock, state.turned)
        moves = np.array([codec.id[p.card] for p in plays], np.int64)
        margin, tie_last = utility_params(view, rules, STRONG)
        out = np.zeros((moves.shape[0], 3), np.float64)
        tt = self.tt
        self.moves += 1
        worlds = pos.reshape(1, -1)
        if self.know == "hand" and len(stock) > 1:
            # the true hand, but the stock shuffled: what perfect inference could give
            start = DRAW + int(pos[SP])
            slots = np.arange(start, start + len(stock), dtype=np.int64)
            ids = np.array([codec.id[c] for c in stock], np.int64)
            worlds = fill_worlds(pos, slots, ids, 128, self.seed + self.moves)
        evaluate(
            worlds,
            moves,
            seat,
            self.rollouts if worlds.shape[0] == 1 else 2,
            COUNTING,
            COUNTING,
            COUNTING_JUDGE,
            COUNTING_JUDGE,
            STRONG.eps,
            STRONG.eps,
            self.exact_draw,
            2,
            margin,
            tie_last,
            (self.seed + self.moves) & 0xFFFFFFFF,
            tt.entries,
            tt.reserve(worlds.shape[0]),
            out,
            np.zeros(1, np.int64),
            np.empty(0, np.float64),
            NO_EACH,
        )
        values = {
            codec.card[int(c)]: (out[i, 0] / out[i, 2], out[i, 1] / out[i, 2])
            for i, c in enumerate(moves)
        }
        card = pick(values, [p.card for p in plays], rules, view.trump)
        return next(p for p in plays if p.card is card)


def clairvoyant(seed: int | None = None) -> Clairvoyant:
    return Clairvoyant(
        seed,
        int(os.environ.get("CLAIRVOYANT_EXACT", "10")),
        int(os.environ.get("CLAIRVOYANT_ROLLOUTS", "64")),
        os.environ.get("CLAIRVOYANT_KNOW", "all"),
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--b", default="intermediate")
    p.add_argument("--game", default="briscola-2")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--exact-draw", type=int, default=10)
    p.add_argument("--rollouts", type=int, default=64)
    p.add_argument(
        "--know",
        choices=("all", "hand"),
        default="all",
        help="all: the opponent's hand and the stock's order; hand: only the hand",
    )
    args = p.parse_args()
    importable_here()
    os.environ["CLAIRVOYANT_EXACT"] = str(args.exact_draw)
    os.environ["CLAIRVOYANT_ROLLOUTS"] = str(args.rollouts)
    os.environ["CLAIRVOYANT_KNOW"] = args.know
    bots = ("clairvoyant:clairvoyant", args.b)
    title = f"clairvoyant ({args.know}) vs {args.b}"
    play_match(title, bots, args.game, args.deals, args.seed, args.jobs)


if __name__ == "__main__":
    main()
