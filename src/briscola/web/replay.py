"""A finished hand's replay for the browser's history: the table as each trick's last card
falls, from its record (the browser holds no rules: who took a trick is the engine's).

>>> deck = [c + s for s in "cdsb" for c in "A234567JQK"]
>>> dealt = ["5b", "5c", "Ad", "Ab", "Kb", "6s", "4s"]
>>> rec = {"game": "briscola-2", "rules": {}, "deal": {"dealer": 1,
...        "hands": [["5b", "5c", "Ad"], ["Ab", "Kb", "6s"]], "trump": "4s",
...        "stock": [c for c in deck if c not in dealt]},
...        "moves": [{"seat": 0, "play": "5b"}, {"seat": 1, "play": "Ab"}]}
>>> out = hand_replay(rec)
>>> [p["trick"] for p in out["positions"]]
[0, 1]
>>> after = out["positions"][1]
>>> after["played"], after["hands"], after["points"], after["stock"]
([{'seat': 0, 'card': '5b'}, {'seat': 1, 'card': 'Ab'}], [['5c', 'Ad'], ['Kb', '6s']], [0, 11], 33)
>>> after["winner"], after["taken"]
(1, 11)
"""

from __future__ import annotations

from typing import Any

from briscola.engine.actions import Play
from briscola.engine.game_record import parse_record
from briscola.engine.state import GameState


def _position(state: GameState, hands: list[list[Any]], stock: int, turned: Any) -> dict[str, Any]:
    return {
        "trick": len(state.tricks),
        "hands": [[str(c) for c in h] for h in hands],
        "stock": stock,
        "turned": None if turned is None else str(turned),
        "sides": [list(s) for s in state.sides],
        "points": list(state.points),
        "played": [],
        "leader": None,
        "winner": None,
        "taken": 0,
    }


def hand_replay(record: dict[str, Any]) -> dict[str, Any]:
    """Hand ``record``'s positions: the deal (``trick`` 0), then after each trick K the
    cards each seat holds as its last card falls (before the draw), the trick's cards with
    who played each, who took it and its points, the stock and the turned card, and the
    points so far by side (``sides``: as known then, chiamata's partner once revealed).

    :raises MalformedError: for a record that is not one.
    """
    rec = parse_record(record)
    state = GameState(rec.rules, rec.deal)
    positions = [_position(state, state.hands, state.stock_size, state.turned)]
    for move in rec.moves:
        hands = [list(h) for h in state.hands]
        stock, turned, tricks = state.stock_size, state.turned, len(state.tricks)
        state.apply(move)
        if len(state.tricks) == tricks or not isinstance(move, Play):
            continue
        hands[move.seat].remove(move.card)
        won = state.tricks[-1]
        pos = _position(state, hands, stock, turned)
        pos["played"] = [
            {"seat": s, "card": str(c)} for s, c in zip(won.seats, won.cards, strict=False)
        ]
        pos.update(leader=won.leader, winner=won.winner, taken=won.points)
        positions.append(pos)
    return {
        "game": rec.rules.key,
        "players": rec.rules.players,
        "trump": None if rec.deal.trump is None else str(rec.deal.trump),
        "finished": state.over,
        "points": list(state.points),
        "sides": [list(s) for s in state.sides],
        "winners": list(state.winners()),
        "positions": positions,
    }
