"""A hint for someone learning: what the strong computer player would do in their seat
now, and what each of their choices is worth, both from their view alone (the values as
the analysis gives them after the hand, :mod:`briscola.analysis.values`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from briscola.ai import make_bot
from briscola.analysis.values import LEVELS, choice_values
from briscola.engine.actions import Action, Exchange, Play
from briscola.engine.errors import BriscolaError
from briscola.engine.state import GameState
from briscola.engine.views import seat_view


class NoHint(BriscolaError):
    """Nothing to hint now: not the seat's turn, or not a card to play."""


@dataclass(frozen=True)
class Hint:
    suggested: Action
    """The strong computer player's choice in the seat."""
    values: dict[Action, float]
    """Each choice's expected card points for the seat's side, from now to the end of
    the hand."""
    exact: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "suggested": self.suggested.to_json(),
            "choices": [
                {"action": a.to_json(), "expected_points": round(v, 2)}
                for a, v in self.values.items()
            ],
            "exact": self.exact,
        }


def hint(state: GameState, seat: int, seed: int = 0, level: str = "strong") -> Hint:
    """The hint for ``seat``, to act in ``state`` with a card to play (or a trump to
    exchange): read from its view alone.

    :raises NoHint: when it is not ``seat``'s turn to play a card.
    """
    view = seat_view(state, seat)
    if view.to_act != seat or not any(isinstance(a, Play | Exchange) for a in view.legal):
        raise NoHint("a hint is for the card you play, on your turn")
    suggested = make_bot(level, seed=seed).choose(view)
    values = choice_values(state, seat, LEVELS[level], seed)
    return Hint(suggested, values.points, values.exact)
