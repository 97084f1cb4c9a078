"""Computer players. A bot sees what a player in its seat sees (a
:class:`~briscola.engine.views.View` with its legal actions), never the game state.

>>> import random
>>> from briscola.engine import GameState, Rules, seat_view, shuffled_deal
>>> rules = Rules.make("briscola-2")
>>> state = GameState(rules, shuffled_deal(rules, 1, random.Random(0)))
>>> bot = make_bot("random", seed=1)
>>> view = seat_view(state, state.turn)
>>> bot.choose(view) in view.legal
True
"""

import importlib.util

from briscola.ai.bot import BOTS, Bot, BotError, bot_names, make_bot, register
from briscola.ai.rules import heuristic as heuristic  # registers beginner and intermediate


def _missing(*modules: str) -> str | None:
    """The first of ``modules`` that cannot be imported (looked up, not imported: numba
    takes a while to load)."""
    for name in modules:
        try:
            if importlib.util.find_spec(name) is None:
                return name
        except (ImportError, ValueError):  # a module blocked, or half there
            return name
    return None


_absent = _missing("numpy", "numba")  # the ai extra: the search levels run compiled code
if _absent is None:
    from briscola.ai.search import players as players  # registers strong and champion
else:

    def _needs_the_ai_extra(level: str) -> None:
        why = (
            f"the {level} level searches in compiled code and needs {_absent}, which is not "
            "installed: pip install 'briscola[ai]'"
        )

        def factory(seed: int | None = None) -> Bot:
            raise BotError(why)

        register(level)(factory)

    for _level in ("strong", "champion"):
        _needs_the_ai_extra(_level)

__all__ = ["BOTS", "Bot", "bot_names", "make_bot", "register"]
