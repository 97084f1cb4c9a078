"""Game records replayed: a hand's moves played over its deal, stopping at the first
illegal one.

The record itself, its JSON form and its reading are in
:mod:`briscola.engine.game_record`. The format is
public and documented in ``docs/records.md``. Replaying the moves over the deal rebuilds
every state.

>>> rec = {"game": "briscola-2", "rules": {}, "deal": {"dealer": 1,
...        "hands": [["5b", "5c", "Ad"], ["Ab", "Kb", "6s"]], "trump": "4s",
...        "stock": [c + s for s in "cdsb" for c in "A234567JQK"
...                  if c + s not in ("5b", "5c", "Ad", "Ab", "Kb", "6s", "4s")]},
...        "moves": [{"seat": 0, "play": "5b"}, {"seat": 1, "play": "Ab"}]}
>>> from briscola.engine.game_record import parse_record
>>> result = replay(parse_record(rec))
>>> result.to_json()["tricks"]
[{'leader': 0, 'cards': ['5b', 'Ab'], 'winner': 1, 'points': 11}]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from briscola.engine.actions import Action, EndTalk
from briscola.engine.errors import IllegalActionError, MalformedError, shown
from briscola.engine.game_record import Record
from briscola.engine.phases import Phase
from briscola.engine.state import GameState

__all__ = [
    "IllegalMove",
    "Replay",
    "replay",
    "talk_ended",
]


@dataclass(frozen=True)
class IllegalMove:
    """Why a record's move could not be played."""

    index: int
    action: Action
    reason: str

    def message(self) -> str:
        what = self.action.to_json()
        detail = ", ".join(f"{k} {v}" for k, v in what.items() if k != "seat")
        return f"moves[{self.index}]: seat {self.action.seat} cannot {detail}: {self.reason}"


@dataclass
class Replay:
    """The result of replaying a record: the state reached, and the first illegal move."""

    state: GameState
    error: IllegalMove | None = None
    events: list[Any] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        st = self.state
        out: dict[str, Any] = {
            "tricks": [
                {
                    "leader": t.leader,
                    "cards": [str(c) for c in t.cards],
                    "winner": t.winner,
                    "points": t.points,
                }
                for t in st.tricks
            ],
            "finished": st.over,
            "points": list(st.points),
            "winners": list(st.winners()),
        }
        for addon in st.addons:
            out.update(addon.report(st))
        if self.error is not None:
            out["error"] = {
                "move": self.error.index,
                "seat": self.error.action.seat,
                "action": self.error.action.to_json(),
                "reason": self.error.reason,
            }
        return out


def replay(record: Record) -> Replay:
    """Play the record's moves over its deal, stopping at the first illegal one. A Schembil
    record written before the rais talked out of their lead replays as it did (the end of
    each rais's talk is implied: :func:`talk_ended`)."""
    if not isinstance(record, Record):
        raise MalformedError(
            f"replay takes a Record, like replay(parse_record(json_value)); got {shown(record)}"
        )
    state = GameState(record.rules, record.deal)
    result = Replay(state, events=state.opening_events())
    for i, move in enumerate(record.moves):
        try:
            result.events.extend(state.apply(move))
        except IllegalActionError as e:
            reason = str(e)
            try:
                ended = talk_ended(state, move)  # a record from before the rais's talk
            except IllegalActionError as after:
                ended, reason = None, str(after)
            if ended is None:
                result.error = IllegalMove(i, move, reason)
                break
            state = result.state = ended
            result.events.extend(state.apply(move))
    return result


def talk_ended(state: GameState, move: Action) -> GameState | None:
    """For a record written before the rais talked out of their own lead (docs/records.md):
    such a record has no ``EndTalk`` moves, so a move that is not legal in Schembil's talk
    before a lead is read as ending the talk of each rais before it. Returns a copy of
    ``state`` with those talks ended, in which ``move`` is legal, or ``None`` when no talk
    is open.

    :raises IllegalActionError: saying why ``move`` is not legal after the talk either.
    """
    if state.phase != Phase.TALK:
        return None
    trial = state.copy()
    while True:
        trial.apply(EndTalk(trial.turn))
        if trial.phase != Phase.TALK:
            trial.check(move)
            return trial
        if trial.is_legal(move):
            return trial
