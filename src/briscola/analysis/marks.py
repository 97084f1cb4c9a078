"""A decision's mark from the points it lost, and a seat's accuracy over a hand.

The thresholds are in expected card points lost against the best choice (docs/analysis.md
says why these): below :data:`INACCURACY` the choice is ``best`` (within the search's own
noise, and less than the least card worth anything, a jack's 2); from :data:`INACCURACY`
an ``inaccuracy``; from :data:`MISTAKE` a ``mistake`` (an ace thrown onto a trick lost
while a blank would do costs 5 to 10 points early in a hand, measured); from
:data:`BLUNDER` a ``blunder`` (as much as a trick with an ace or a three in it, lost for
nothing). A decision with one legal choice is ``forced``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

INACCURACY = 2.0
MISTAKE = 4.0
BLUNDER = 8.0

LABELS = ("best", "inaccuracy", "mistake", "blunder", "forced")

SCALE = 6.0
"""The points lost that bring a decision's accuracy down to 1/e (37 %)."""


def label(loss: float, choices: int) -> str:
    """The mark of a decision that lost ``loss`` points among ``choices`` legal ones."""
    if choices <= 1:
        return "forced"
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return "best"


def accuracy(losses: Iterable[float]) -> float:
    """A seat's accuracy over its decisions that were not forced, ``losses`` their points
    lost: the mean of ``100 * exp(-loss / SCALE)``, so that a decision that lost nothing
    scores 100, one that lost 2 points 72, an ace (11) 16. A seat with no such decision
    scores 100.

    >>> accuracy([0, 0, 11])
    72.0
    >>> accuracy([])
    100.0
    """
    scores = [100.0 * math.exp(-loss / SCALE) for loss in losses]
    return round(sum(scores) / len(scores), 1) if scores else 100.0


def tenths(x: float) -> str:
    """A figure of the analysis with one decimal, as every client shows it: ``x`` as the
    JSON gives it (rounded to two decimals), written as its shortest decimal (the digits
    JSON shows), then rounded, a tie up, as the browser's ``Intl.NumberFormat`` rounds it.
    Python's own formatting rounds the float's exact value, a tie to even: 32.25 would be
    32.2, and 33.55 (a little less than 33.55 as a float) 33.5; the browser says 32.3 and
    33.6.

    >>> tenths(32.25), tenths(32.2467), tenths(33.55), tenths(0.15), tenths(8.95), tenths(7)
    ('32.3', '32.3', '33.6', '0.2', '9.0', '7.0')
    """
    return str(Decimal(repr(round(x, 2))).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
