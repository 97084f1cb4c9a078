"""The arena's players, seat by seat: a bot plays a whole side, or a side is several
players, ``A+B`` (in a team game, the first seat of the side A, the second B, and so on
in turn: ``intermediate+strong`` against ``intermediate+strong-2026`` asks which level
partners the weaker player better).

>>> from briscola.engine.rules import Rules
>>> four = Rules.make("briscola-4")
>>> [seat_player(four, "intermediate+strong", s) for s in range(4)]
['intermediate', 'intermediate', 'strong', 'strong']
"""

from __future__ import annotations

from collections.abc import Sequence

from briscola.ai.bot import make_bot
from briscola.engine.errors import BriscolaError
from briscola.engine.rules import Rules


def members(spec: str) -> list[str]:
    """The players of a bot of the arena: ``A+B`` a side of A and B, else the bot alone."""
    return spec.split("+")


def check_sides(rules: Rules, specs: Sequence[str]) -> None:
    """A side of several players (``A+B``) only in a game played in teams, of no more
    players than its side has seats: a :class:`BriscolaError` says what is wrong."""
    for spec in specs:
        players = members(spec)
        if len(players) == 1:
            continue
        if "" in players:
            raise BriscolaError(f"{spec!r}: a side of several players is A+B, no name left empty")
        if not rules.teams:
            raise BriscolaError(
                f"{spec!r} is a side of several players, and {rules.key} is not played in "
                "teams: give one bot, or play a game in teams (briscola-4, briscola-6)"
            )
        seats = len(rules.sides[0])
        if len(players) > seats:
            raise BriscolaError(
                f"{spec!r} names {len(players)} players, and a side of {rules.key} has "
                f"{seats} seats"
            )


def check_bots(
    rules: Rules, specs: Sequence[str], names: Sequence[str], limit: float | None
) -> None:
    """Each player of the bots ``specs`` (named ``names``) made once, with ``limit``
    seconds, and the sides checked (:func:`check_sides`): a :class:`BriscolaError` (a
    :class:`~briscola.ai.bot.BotError` for a bot) says what is wrong."""
    check_sides(rules, specs)
    for spec, name in zip(specs, names, strict=True):
        for player in members(spec):
            make_bot(player, 0, limit, name)


def seat_player(rules: Rules, spec: str, seat: int) -> str:
    """The player of ``spec`` at ``seat``: a side ``A+B`` gives the first seat of its side
    A, the second B, and so on in turn."""
    players = members(spec)
    if len(players) == 1:
        return spec
    side = next(side for side in rules.sides if seat in side)
    return players[side.index(seat) % len(players)]
