"""The games and the rule set, under the names the rest of the project imports them by.

The presets (:class:`Game`, :data:`GAMES`, :func:`find_game`) are in
:mod:`briscola.engine.presets`, the rule-set compiler (:class:`Rules`) in
:mod:`briscola.engine.rules`; this module gives them here too, and imports nothing else.
"""

from __future__ import annotations

from briscola.engine.presets import (
    COMMON_RULES,
    DECK_TITLES,
    GAMES,
    TALK_RULES,
    TEAM_RULES,
    TRUMP_RULES,
    TWOS,
    Game,
    find_game,
    register_game,
)
from briscola.engine.rules import Rules

__all__ = [
    "COMMON_RULES",
    "DECK_TITLES",
    "GAMES",
    "TALK_RULES",
    "TEAM_RULES",
    "TRUMP_RULES",
    "TWOS",
    "Game",
    "Rules",
    "find_game",
    "register_game",
]
