"""The bot interface and the registry of named levels.

A bot is any object with ``choose(view) -> action``: it gets the view of the seat to
act (``view.legal`` lists its legal actions) and returns one of them. It never sees
the game state, so it cannot cheat. Bots that keep memory between moves get
``new_hand(view)`` (if they define it) when a hand starts.

Named levels are registered here; external bots plug in by import spec,
``package.module:factory``, where ``factory(seed=...)`` returns a bot.

The view fields a bot reads (docs/bots.md has the full guide and an example bot):
``seat``, ``players`` and ``sides`` (who plays with whom; in chiamata
``auction.partner`` once known); ``hand``, ``hand_sizes``, ``trump``, ``turned``,
``stock_size``; the trick on the table as ``trick`` ((seat, card) in order) and
``trick_order`` (the seats that play to it, a seat twice in four-card Briškula);
every finished trick in ``tricks``; the cards known to be in other hands in
``visible_hands`` and ``known_cards``; partner talk in ``talk``; chiamata's bids,
call and partner in ``auction``; and ``legal``, the actions to choose from.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from briscola.engine.actions import Action
from briscola.engine.errors import BriscolaError
from briscola.engine.views import View


@runtime_checkable
class Bot(Protocol):
    """A computer player."""

    def choose(self, view: View) -> Action:
        """Return one of ``view.legal``."""
        ...


BotFactory = Callable[..., Bot]

BOTS: dict[str, BotFactory] = {}
"""Named levels: name -> factory taking ``seed`` (an int or None)."""


def register(name: str) -> Callable[[BotFactory], BotFactory]:
    """Register a bot factory under a level name."""

    def deco(factory: BotFactory) -> BotFactory:
        BOTS[name] = factory
        return factory

    return deco


def bot_names() -> list[str]:
    return list(BOTS)


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a level name (``random``, ...) or an import spec ``package.module:factory``."""
    if spec in BOTS:
        return BOTS[spec](seed=seed)
    if ":" in spec:
        module_name, _, attr = spec.partition(":")
        try:
            factory = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as e:
            raise BriscolaError(f"cannot load the bot {spec!r}: {e}") from None
        bot = factory(seed=seed)
        if not isinstance(bot, Bot):
            raise BriscolaError(f"{spec!r} did not make a bot: it has no choose(view) method")
        return bot
    raise BriscolaError(
        f"there is no bot {spec!r}: the levels are {', '.join(BOTS)}, "
        "or give an import spec like package.module:factory"
    )


@register("random")
class RandomBot:
    """Plays a random legal action."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        return self.rng.choice(view.legal)
