"""Game records: one hand as JSON (game, house rules, deal, moves), and their replay.

The format is public and documented in ``docs/records.md``. A record may stop
mid-game. Replaying the moves over the deal rebuilds every state.

>>> rec = {"game": "briscola-2", "rules": {}, "deal": {"dealer": 1,
...        "hands": [["5b", "5c", "Ad"], ["Ab", "Kb", "6s"]], "trump": "4s",
...        "stock": [c + s for s in "cdsb" for c in "A234567JQK"
...                  if c + s not in ("5b", "5c", "Ad", "Ab", "Kb", "6s", "4s")]},
...        "moves": [{"seat": 0, "play": "5b"}, {"seat": 1, "play": "Ab"}]}
>>> result = replay(parse_record(rec))
>>> result.to_json()["tricks"]
[{'leader': 0, 'cards': ['5b', 'Ab'], 'winner': 1, 'points': 11}]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from briscola.engine.actions import (
    Action,
    Ask,
    Look,
    Order,
    Signal,
    action_from_json,
    is_plain,
    keys_of,
)
from briscola.engine.deal import Deal, deal_from_json
from briscola.engine.errors import BriscolaError, IllegalActionError, MalformedError, shown
from briscola.engine.fairness import Fairness, fairness_from_json
from briscola.engine.games import GAMES, Rules
from briscola.engine.state import GameState
from briscola.engine.talk import talk_ended


@dataclass(frozen=True)
class Record:
    """A parsed, checked record: the rules, the deal and the moves (not yet replayed)."""

    rules: Rules
    deal: Deal
    moves: tuple[Action, ...]
    fairness: Fairness | None = None
    """The fair shuffle's commitment (and salt, once revealed), where the table made one."""

    def to_json(self) -> dict[str, Any]:
        out = {
            "game": self.rules.key,
            "rules": self.rules.overrides(),
            "deal": self.deal.to_json(),
            "moves": [m.to_json() for m in self.moves],
        }
        if self.fairness is not None:
            out["fairness"] = self.fairness.to_json()
        return out


def parse_record(obj: object) -> Record:
    """Read a record from its JSON value.

    :raises MalformedError: naming the field that is wrong and saying what it holds.
    """
    if not isinstance(obj, dict):
        raise MalformedError(
            f"record: expected a JSON object with game, rules, deal and moves, got {shown(obj)}"
        )
    if "hands" in obj and "deal" not in obj:
        raise MalformedError(
            "record: this is a match record (it holds hands), not one hand's: read it with "
            "parse_match_record, or replay one of its hands"
        )
    if "deal" not in obj and "moves" not in obj:
        raise MalformedError(
            "record: not a game record, which holds game, rules, deal and moves; "
            f"this object holds {keys_of(obj)}"
        )
    rules = rules_from_json(obj.get("game"), obj.get("rules", {}))
    if "deal" not in obj:
        raise MalformedError("deal: missing")
    deal = deal_from_json(obj["deal"], rules)
    moves_raw = obj.get("moves", [])
    if not isinstance(moves_raw, list):
        raise MalformedError(f"moves: expected a list of moves, got {shown(moves_raw)}")
    moves = tuple(action_from_json(m, f"moves[{i}]") for i, m in enumerate(moves_raw))
    for i, move in enumerate(moves):
        for name, seat in _seats(move):
            if seat >= rules.players:
                raise MalformedError(
                    f"moves[{i}].{name}: {rules.key} has seats 0 to {rules.players - 1}, "
                    f"got {shown(seat)}"
                )
    unknown = set(obj) - {"game", "rules", "deal", "moves", "fairness"}
    if unknown:
        raise MalformedError(f"record: unknown field {shown(min(unknown, key=str))}")
    fairness = fairness_from_json(obj["fairness"]) if "fairness" in obj else None
    return Record(rules, deal, moves, fairness)


def rules_from_json(game: object, options: object, *, fresh: bool = False) -> Rules:
    """The record's ``game`` and ``rules`` fields made into a rule set. A record's rules
    not given take the values they had when records began (:attr:`Game.record_defaults`);
    with ``fresh`` (a new table's house rules) they take today's defaults."""
    if not isinstance(game, str):
        raise MalformedError(f'game: expected a game key like "briscola-2", got {shown(game)}')
    if len(game) > _LONGEST:
        raise MalformedError(
            f"game: there is no game {shown(game)}; the games are: {', '.join(GAMES)}"
        )
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise MalformedError(
            f'rules: expected an object of house rules, like {{"match": "one-hand"}}, '
            f"got {shown(options)}"
        )
    for name, value in options.items():
        if not is_plain(name, _LONGEST):
            raise MalformedError(f"rules: there is no house rule {shown(name)}")
        word = is_plain(value, _LONGEST)  # (a digit like ² is not one: int() refuses it)
        whole = isinstance(value, int) and abs(value) < 10**9  # true, false too
        if not (word or whole):
            raise MalformedError(
                f"rules.{name}: expected one of the rule's values (a word or a whole number), "
                f"got {shown(value)}"
            )
    try:
        return Rules.make(game, options) if fresh else Rules.from_record(game, options)
    except BriscolaError as e:
        field_name = "game" if "no game" in str(e) else "rules"
        raise MalformedError(f"{field_name}: {e}") from None


_LONGEST = 40
"""No game key, house rule name or value is longer (nor anything but printable ASCII)."""


def _seats(move: Action) -> list[tuple[str, int]]:
    """Every seat a move names, with the name of its field."""
    seats = [("seat", move.seat)]
    if isinstance(move, Ask | Order):
        seats.append(("to", move.to))
    elif isinstance(move, Look):
        seats.append(("look", move.at))
    elif isinstance(move, Signal) and move.spotted is not None:
        seats.extend(("spotted", s) for s in move.spotted)
    return seats


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
    each rais's talk is implied: :func:`~briscola.engine.talk.talk_ended`)."""
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
