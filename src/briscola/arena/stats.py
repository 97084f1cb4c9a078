"""The statistics of the arena: intervals and Elo-like ratings.

>>> iv = mean_interval([1.0, 0.5, 0.0, 1.0])
>>> round(iv.mean, 3), round(iv.low, 3), round(iv.high, 3)
(0.625, 0.156, 1.094)
>>> round(elo_difference(0.75), 1)
190.8
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class Interval:
    """A mean with its 95% interval."""

    mean: float
    low: float
    high: float

    def clip(self, low: float, high: float) -> Interval:
        return Interval(self.mean, max(low, self.low), min(high, self.high))

    def to_json(self, digits: int = 4) -> dict[str, float]:
        return {
            "mean": round(self.mean, digits),
            "low": round(self.low, digits),
            "high": round(self.high, digits),
        }


class Mean:
    """The mean of values given one at a time, with its normal-approximation interval.
    It keeps their count, sum and sum of squares, exactly (as fractions): its memory
    does not grow with the values, and its result does not depend on their order.

    >>> m = Mean()
    >>> for v in (1.0, 0.5, 0.0, 1.0):
    ...     m.add(v)
    >>> m.interval() == mean_interval([0.0, 1.0, 1.0, 0.5])
    True
    """

    __slots__ = ("n", "squares", "total")

    def __init__(self) -> None:
        self.n = 0
        self.total = Fraction(0)
        self.squares = Fraction(0)

    def add(self, value: float) -> None:
        v = Fraction(value)
        self.n += 1
        self.total += v
        self.squares += v * v

    @property
    def varies(self) -> bool:
        """Whether the values are not all the same (told exactly, not up to rounding)."""
        return self.n * self.squares != self.total * self.total

    def interval(self, z: float = Z95) -> Interval:
        """The mean ± z·s/√n (s the sample standard deviation); with fewer than two
        values there is no spread to measure: the interval is then unbounded."""
        n = self.n
        if n == 0:
            return Interval(math.nan, -math.inf, math.inf)
        mean = float(self.total) / n
        if n < 2:
            return Interval(mean, -math.inf, math.inf)
        m = Fraction(mean)
        spread = self.squares - 2 * m * self.total + n * m * m  # sum of (v - mean)^2
        half = z * math.sqrt(float(spread) / (n - 1) / n)
        return Interval(mean, mean - half, mean + half)


def mean_interval(values: Iterable[float], z: float = Z95) -> Interval:
    """The mean of ``values`` with its normal-approximation interval, as :class:`Mean`."""
    m = Mean()
    for v in values:
        m.add(v)
    return m.interval(z)


def wilson(successes: float, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval of a proportion (draws may count as half successes).

    >>> iv = wilson(60, 100)
    >>> round(iv.low, 3), round(iv.high, 3)
    (0.502, 0.691)
    """
    if n == 0:
        return Interval(math.nan, 0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def elo_difference(score: float) -> float:
    """The Elo difference that predicts this expected score: 400·log10(s / (1 - s))."""
    s = min(max(score, 1e-6), 1 - 1e-6)
    return 400 * math.log10(s / (1 - s))


def elo_ratings(
    players: int, results: Mapping[tuple[int, int], tuple[float, float]]
) -> list[float]:
    """Elo-like ratings from pairwise results, centred on a mean of 0.

    ``results[(i, j)] = (score of i against j, games)``. The ratings are the maximum
    likelihood fit of the Bradley-Terry model on the Elo scale (the expected score of
    i against j is 1 / (1 + 10^((Rj - Ri)/400))), found by the usual MM iteration; a
    score of 0 or 1 is pulled in by half a game so that no rating is infinite. A bot
    that met no other has rating 0.
    """
    wins = [0.0] * players
    games: dict[tuple[int, int], float] = {}
    for (i, j), (score, n) in results.items():
        if n <= 0 or i == j:
            continue
        s = min(max(score, 0.5 / n), 1 - 0.5 / n)
        wins[i] += s * n
        wins[j] += (1 - s) * n
        key = (min(i, j), max(i, j))
        games[key] = games.get(key, 0.0) + n
    gamma = [1.0] * players
    met = {k for pair in games for k in pair}
    for _ in range(2000):
        new = list(gamma)
        for i in met:
            denom = 0.0
            for (a, b), n in games.items():
                if i in (a, b):
                    other = b if i == a else a
                    denom += n / (gamma[i] + gamma[other])
            new[i] = wins[i] / denom if denom > 0 else gamma[i]
        logs = [math.log(g) for g in new]
        mean = sum(logs[i] for i in met) / len(met) if met else 0.0
        new = [math.exp(x - mean) if i in met else 1.0 for i, x in enumerate(logs)]
        done = max(abs(a - b) for a, b in zip(new, gamma, strict=True)) < 1e-10
        gamma = new
        if done:
            break
    return [400 * math.log10(g) for g in gamma]
