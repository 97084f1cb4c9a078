"""A game record's JSON form: one hand as game, house rules, deal and moves.

The format is public and documented in ``docs/records.md``: :class:`Record` writes it and
:func:`parse_record` reads it back, checked (a record may stop mid-game). Playing a record
over the engine is :func:`briscola.engine.record.replay`'s; this module knows nothing of
the engine's state, so that the state can write its own record.

>>> rec = parse_record({"game": "briscola", "rules": {"match": "one-hand"}, "moves": [],
...     "deal": {"dealer": 0, "hands": [["Ac", "2c", "3c"], ["4c", "5c", "6c"]],
...              "trump": "7c", "stock": [c + s for s in "dsb" for c in "A234567JQK"]
...                                       + ["Jc", "Qc", "Kc"]}})
>>> rec.rules.key, rec.to_json()["rules"], len(rec.deal.stock)
('briscola-2', {'match': 'one-hand'}, 33)
"""

from __future__ import annotations

from dataclasses import dataclass
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
from briscola.engine.errors import (
    MalformedError,
    MalformedRulesError,
    RulesError,
    shown,
)
from briscola.engine.fairness import Fairness, fairness_from_json
from briscola.engine.presets import GAMES
from briscola.engine.rules import Rules


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


def parse_record(obj: object, rules: Rules | None = None) -> Record:
    """Read a record from its JSON value. ``rules``, when given, is its rule set as the
    caller parsed it already (a match's, a stored table's): its ``game`` and ``rules``
    fields are then not read again.

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
    if rules is None:
        rules = rules_from_json(obj.get("game"), obj.get("rules", {}))
    elif not isinstance(rules, Rules):
        raise MalformedError(f"parse_record: rules is a rule set (Rules), got {shown(rules)}")
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
    with ``fresh`` (a new table's house rules) they take today's defaults.

    :raises MalformedRulesError: a :class:`MalformedError` and a :class:`RulesError`,
        naming the field (``game`` or ``rules``) and the rule and value at fault.
    """
    if not isinstance(game, str):
        raise MalformedRulesError(
            f'game: expected a game key like "briscola-2", got {shown(game)}', value=game
        )
    if len(game) > _LONGEST:
        raise MalformedRulesError(
            f"game: there is no game {shown(game)}; the games are: {', '.join(GAMES)}",
            value=game,
        )
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise MalformedRulesError(
            f'rules: expected an object of house rules, like {{"match": "one-hand"}}, '
            f"got {shown(options)}",
            value=options,
        )
    for name, value in options.items():
        if not is_plain(name, _LONGEST):
            raise MalformedRulesError(
                f"rules: there is no house rule {shown(name)}",
                rule=name if isinstance(name, str) else shown(name),
                value=value,
            )
        word = is_plain(value, _LONGEST)  # (a digit like ² is not one: int() refuses it)
        whole = isinstance(value, int) and abs(value) < 10**9  # true, false too
        if not (word or whole):
            raise MalformedRulesError(
                f"rules.{name}: expected one of the rule's values (a word or a whole number), "
                f"got {shown(value)}",
                rule=name,
                value=value,
            )
    try:
        return Rules.make(game, options) if fresh else Rules.from_record(game, options)
    except RulesError as e:
        field_name = "game" if e.rule is None else "rules"  # (options is a dict)
        raise MalformedRulesError(f"{field_name}: {e}", rule=e.rule, value=e.value) from None


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
