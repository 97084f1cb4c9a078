"""A match between one person and computer players: the part every interface shares.

The session owns the match; the person acts through :meth:`Session.act`, the bots
through :meth:`Session.run_bots`, each seeing only its seat's view. Every step
returns lines telling what the person's seat saw happen.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from briscola.ai.bot import Bot
from briscola.engine import GameState, IllegalActionError, Match, Rules, seat_view, visible
from briscola.engine.actions import Action
from briscola.engine.match import HandScored, HandStarted, MatchOver
from briscola.engine.views import View
from briscola.narrate import describe_points, narrate


@dataclass
class Session:
    """One person at ``seat``; a bot in every other seat."""

    rules: Rules
    seat: int
    bots: Mapping[int, Bot]
    rng: random.Random
    dealer: int | None = None
    match: Match = field(init=False)
    records: list[dict[str, Any]] = field(default_factory=list)
    """The record of every finished hand."""

    def __post_init__(self) -> None:
        if not 0 <= self.seat < self.rules.players:
            raise ValueError(
                f"seat {self.seat} does not exist: {self.rules.key} has seats 0 to "
                f"{self.rules.players - 1}"
            )
        first = self.rules.players - 1 if self.dealer is None else self.dealer
        self.match = Match(self.rules, self.rng, dealer=first)

    @property
    def hand(self) -> GameState:
        return self.match.hand

    @property
    def over(self) -> bool:
        return self.match.over

    def view(self) -> View:
        return seat_view(self.match.hand, self.seat)

    def my_turn(self) -> bool:
        return not self.match.over and self.match.hand.turn == self.seat

    def opening(self) -> list[str]:
        """What the person sees as the first hand is dealt."""
        hand = self.match.hand
        first = [f"--- hand {self.match.number}, dealer seat {hand.deal.dealer} ---"]
        return first + self._tell(hand, hand.opening_events())

    def act(self, action: Action) -> list[str]:
        """The person's action; raises :class:`IllegalActionError` (changing nothing)."""
        if not self.my_turn():
            raise IllegalActionError("it is not your turn")
        return self._apply(action)

    def run_bots(self) -> list[str]:
        """Let the bots act until it is the person's turn or the match is over."""
        lines: list[str] = []
        while not self.match.over and self.match.hand.turn != self.seat:
            lines.extend(self.run_one_bot())
        return lines

    def run_one_bot(self) -> list[str]:
        """Let the bot whose turn it is act once."""
        turn = self.match.hand.turn
        return self._apply(self.bots[turn].choose(seat_view(self.match.hand, turn)))

    def _apply(self, action: Action) -> list[str]:
        hand = self.match.hand
        events = self.match.apply(action)
        if hand.over:
            self.records.append(hand.to_record())
        return self._tell(hand, events)

    def _tell(self, hand: GameState, events: list[Any]) -> list[str]:
        """Narrate what this seat sees of ``events`` (those of ``hand``, then the match's)."""
        lines: list[str] = []
        own: list[object] = []
        for e in events:
            if isinstance(e, HandScored | HandStarted | MatchOver):
                lines.extend(narrate(hand, own))
                own = []
                lines.extend(self._tell_match(hand, e))
                if isinstance(e, HandStarted):
                    hand = self.match.hand
                continue
            seen = visible(e, self.seat)
            if seen is not None:
                own.append(seen)
        lines.extend(narrate(hand, own))
        return lines

    def _tell_match(self, hand: GameState, e: HandScored | HandStarted | MatchOver) -> list[str]:
        if isinstance(e, HandStarted):
            return [f"--- hand {e.number}, dealer seat {e.dealer} ---"]
        if isinstance(e, HandScored):
            if e.replayed:
                return [f"hand {e.number}: {describe_points(hand)}; it is dealt again"]
            won = ", ".join(str(s) for s in e.winners) or "nobody"
            line = f"hand {e.number}: {describe_points(hand)}; won by seats {won}"
            if e.scores is not None:
                line += "; score " + " ".join(f"{s}:{x:+d}" for s, x in enumerate(e.scores))
            return [line, self.standing()]
        won = ", ".join(str(s) for s in e.winners) or "nobody"
        return [f"=== the match is over: seats {won} win ==="]

    def standing(self) -> str:
        """The match score so far."""
        m = self.match
        if m.per_seat:
            return "match: " + "  ".join(f"seat {s}: {x}" for s, x in enumerate(m.scores))
        sides = ["+".join(str(s) for s in side) for side in self.rules.sides]
        if m.target.kind == "points":
            parts = [f"{side}: {p}" for side, p in zip(sides, m.totals, strict=True)]
            return f"match (to {m.target.goal} points): " + "  ".join(parts)
        parts = [f"{side}: {w}" for side, w in zip(sides, m.hands_won, strict=True)]
        return "match (hands won): " + "  ".join(parts)

    def save(self, path: str | Path) -> Path:
        """Write the records of the hands so far (the current one included), one per line."""
        target = Path(path)
        records = [*self.records]
        if self.match.hand.moves and not self.match.hand.over:
            records.append(self.match.hand.to_record())
        target.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        return target
