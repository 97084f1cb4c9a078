"""A hint for someone learning: the card the strong computer player would play in their
seat now, and what each of their choices is worth, in the currency that player plays
for, all from their view alone.

The strong player plays to win the hand (:mod:`briscola.ai.search.players`: a point
margin only breaks near ties), so a hint gives each choice's **chance to win the hand**
(:func:`~briscola.analysis.values.win_chances`), and, as a second figure, the card points
the side then takes from now to the end of the hand, as the analysis values them after
the hand (:func:`~briscola.analysis.values.choice_values`). Its card is the choice of best
chance as shown (a whole percent), of equal ones the one of more points, then the cheapest
to lose. Where the strong player plays for points instead (head to head in a match to a
points target: Briscolone), the points are the one figure and its card is the one of most
points. So the card the hint names is the one its figures put first."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from briscola.ai.search.config import SearchConfig
from briscola.ai.search.determinize import rules_for
from briscola.analysis.marks import tenths
from briscola.analysis.values import LEVELS, choice_values, plays_for_points, win_chances
from briscola.engine.actions import Action, Exchange, Play
from briscola.engine.errors import BriscolaError
from briscola.engine.state import GameState
from briscola.engine.views import seat_view


class NoHint(BriscolaError):
    """Nothing to hint now: not the seat's turn, or not a card to play."""


@dataclass(frozen=True)
class Hint:
    suggested: Action
    """The hint's choice: the best by :attr:`wins` (else :attr:`values`), as shown."""
    values: dict[Action, float]
    """Each choice's expected card points for the seat's side, from now to the end of
    the hand."""
    exact: bool
    """Whether nothing is hidden from the seat: the values are exact."""
    wins: dict[Action, float] | None = None
    """Each choice's chance that the seat's side wins the hand (a tie counting half), or
    ``None`` where the strong player plays for points (:attr:`aim`)."""

    @property
    def aim(self) -> str:
        """What the strong player plays for here: ``win`` (the hand) or ``points``."""
        return "points" if self.wins is None else "win"

    def to_json(self) -> dict[str, Any]:
        return {
            "suggested": self.suggested.to_json(),
            "aim": self.aim,
            "choices": [
                {
                    "action": a.to_json(),
                    "expected_points": round(v, 2),
                    "win_percent": None if self.wins is None else percent(self.wins[a]),
                }
                for a, v in self.values.items()
            ],
            "exact": self.exact,
        }


def percent(chance: float) -> int:
    """A chance (0 to 1) in whole percent, a half up."""
    return int(Decimal(repr(100 * chance)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def shown(
    values: dict[Action, float], wins: dict[Action, float] | None, a: Action
) -> tuple[int, float]:
    """A choice's figures as a hint shows them: its chance in whole percent (0 where the
    points are the one figure) and its points to a tenth
    (:func:`~briscola.analysis.tenths`)."""
    chance = 0 if wins is None else percent(wins[a])
    return chance, float(tenths(values[a]))


def hint(
    state: GameState,
    seat: int,
    seed: int = 0,
    level: str = "strong",
    config: SearchConfig | None = None,
) -> Hint:
    """The hint for ``seat``, to act in ``state`` with a card to play (or a trump to
    exchange): read from its view alone, with the search of ``level`` (``config``, when
    given, replaces its settings: for tests).

    :raises NoHint: when it is not ``seat``'s turn to play a card.
    """
    view = seat_view(state, seat)
    if view.to_act != seat or not any(isinstance(a, Play | Exchange) for a in view.legal):
        raise NoHint("a hint is for the card you play, on your turn")
    config = config or LEVELS[level]
    rules = rules_for(view)
    values = choice_values(state, seat, config, seed)
    wins = None if plays_for_points(view, rules) else win_chances(state, seat, config, seed)
    points = values.points

    def cheap(a: Action) -> tuple[int, int, int, int]:
        if not isinstance(a, Play):
            return (0, 0, 0, 0)  # an exchange: the strong player always makes it
        return (1, a.card.suit is view.trump, rules.points[a.card], rules.strength[a.card])

    top = max(shown(points, wins, a) for a in points)
    suggested = min((a for a in points if shown(points, wins, a) == top), key=cheap)
    return Hint(suggested, points, values.exact, wins)
