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

from briscola.ai.bot import BOTS, Bot, bot_names, make_bot, register
from briscola.ai.rules import heuristic as heuristic  # registers beginner and intermediate
from briscola.ai.search import players as players  # registers strong and champion

__all__ = ["BOTS", "Bot", "bot_names", "make_bot", "register"]
