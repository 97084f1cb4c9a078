"""After the hand, what each card cost: every decision of a finished hand (its card plays
and trump exchanges, and its talk, bids and call) valued from what its seat knew at that
moment, the points it lost against the best choice, its mark, and each seat's accuracy
(docs/analysis.md).

>>> import random
>>> from briscola.engine import GameState, Rules, shuffled_deal
>>> from briscola.engine.game_record import Record
>>> rules = Rules.make("briscola-2")
>>> deal = shuffled_deal(rules, 0, random.Random(3))
>>> state, moves = GameState(rules, deal), []
>>> while not state.over:
...     move = state.legal_actions()[0]
...     moves.append(move)
...     _ = state.apply(move)
>>> found = analyse_hand(Record(rules, deal, tuple(moves)))
>>> [d.loss for d in found.decisions if d.label == "forced"] == [0.0] * 2
True
>>> all(d.loss >= 0 for d in found.decisions)
True
"""

from briscola.analysis.hand import (
    Choice,
    Decision,
    HandAnalysis,
    SeatSummary,
    analyse_hand,
    analyse_json,
    analyse_match,
)
from briscola.analysis.hints import Hint, NoHint, hint
from briscola.analysis.marks import LABELS, accuracy, label, tenths
from briscola.analysis.values import LEVELS, Values, choice_values

__all__ = [
    "LABELS",
    "LEVELS",
    "Choice",
    "Decision",
    "HandAnalysis",
    "Hint",
    "NoHint",
    "SeatSummary",
    "Values",
    "accuracy",
    "analyse_hand",
    "analyse_json",
    "analyse_match",
    "choice_values",
    "hint",
    "label",
    "tenths",
]
