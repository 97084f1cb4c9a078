"""The bot interface and the registry of named levels.

A bot is any object with ``choose(view) -> action``: it gets the view of the seat to
act (``view.legal`` lists its legal actions) and returns one of them. It never sees
the game state, so it cannot cheat. Bots that keep memory between moves get
``new_hand(view)`` (if they define it) when a hand starts.

Named levels are registered here; external bots plug in by import spec,
``package.module:factory``, where ``factory(seed=...)`` returns a bot. The module is
looked for where Python looks, then in the current folder.

**Outside bots are guarded.** The project's own levels are trusted and made as they
are. Any other bot (an import spec, or a level registered by other code) is wrapped in
a :class:`Guarded` bot: each call into it (making it, ``new_hand``, ``choose``) may take
at most ``limit`` seconds, and must not raise; each answer must be one of
``view.legal``. Anything else raises a :class:`BotError` that names the bot, in one
line. A call that runs over its time is left running in a daemon thread, which dies
when the process ends: a program that meets a :class:`BotError` should end, as the
``briscola`` command does. (A bot stuck inside C code that never lets other threads
run cannot be stopped this way.)

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
import os
import random
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from briscola.engine.actions import Action
from briscola.engine.errors import BriscolaError
from briscola.engine.views import View

T = TypeVar("T")

DEFAULT_MOVE_LIMIT = 10.0
"""Seconds an outside bot may take over one call (its making, ``new_hand``, a move)."""

LIMIT_HINT = "give it longer with --move-limit SECONDS (0: no limit)"
"""How to raise the limit, said when a bot runs over it."""


@runtime_checkable
class Bot(Protocol):
    """A computer player."""

    def choose(self, view: View) -> Action:
        """Return one of ``view.legal``."""
        ...


BotFactory = Callable[..., Bot]

BOTS: dict[str, BotFactory] = {}
"""Named levels: name -> factory taking ``seed`` (an int or None)."""


class BotError(BriscolaError):
    """A computer player failed: it could not be made, raised, ran over its time or
    answered with an action that is not one of its legal ones. The message names it."""


class TimedOut(Exception):
    """A call did not return within its time."""


def register(name: str) -> Callable[[BotFactory], BotFactory]:
    """Register a bot factory under a level name."""

    def deco(factory: BotFactory) -> BotFactory:
        BOTS[name] = factory
        return factory

    return deco


def bot_names() -> list[str]:
    return list(BOTS)


def trusted(spec: str) -> bool:
    """Whether ``spec`` is one of the project's own levels (made and played unguarded)."""
    factory = BOTS.get(spec)
    return factory is not None and getattr(factory, "__module__", "").startswith("briscola.")


def within(limit: float | None, call: Callable[..., T], *args: Any) -> T:
    """``call(*args)``, waiting at most ``limit`` seconds (``None``, or more than a thread
    can wait: no limit) for it to return; raises :class:`TimedOut` when it does not,
    leaving it to run in a daemon thread. Whatever ``call`` raises is raised here."""
    if limit is None or limit >= threading.TIMEOUT_MAX:
        return call(*args)
    box: list[tuple[bool, Any]] = []

    def target() -> None:
        try:
            box.append((True, call(*args)))
        except BaseException as e:  # a bot may raise anything, SystemExit included
            box.append((False, e))

    thread = threading.Thread(target=target, name="briscola-bot", daemon=True)
    thread.start()
    thread.join(limit)
    if not box:
        raise TimedOut
    ok, value = box[0]
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]


def failure(e: BaseException) -> str:
    """An exception in a few words: its type and message."""
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0]}" if text else type(e).__name__


def make_bot(
    spec: str,
    seed: int | None = None,
    limit: float | None = DEFAULT_MOVE_LIMIT,
    name: str | None = None,
) -> Bot:
    """A bot from a level name (``random``, ...) or an import spec ``package.module:factory``.
    The project's own levels come as they are; any other bot comes :class:`Guarded`, with
    ``limit`` seconds (``None``: no limit) for its making and each of its moves, named
    ``name`` (the spec by default) in errors. Raises :class:`BotError`."""
    if trusted(spec):
        return BOTS[spec](seed=seed)
    name = name or spec
    if spec in BOTS:
        factory: Any = BOTS[spec]
    elif ":" in spec:
        factory = load(spec, limit)
    else:
        raise BotError(
            f"there is no bot {spec!r}: the levels are {', '.join(BOTS)}, "
            "or give an import spec like package.module:factory"
        )
    if not callable(factory):
        raise BotError(
            f"cannot make the bot {spec!r}: it names {with_article(type(factory).__name__)}, not a "
            "factory (a class or function taking the keyword seed)"
        )
    try:
        bot = within(limit, lambda: factory(seed=seed))
    except TimedOut:
        raise BotError(f"the bot {name} was not made within {limit:g} s; {LIMIT_HINT}") from None
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        hint = " (a factory takes the keyword seed)" if isinstance(e, TypeError) else ""
        raise BotError(f"cannot make the bot {spec!r}: {failure(e)}{hint}") from None
    if not callable(getattr(bot, "choose", None)):
        raise BotError(
            f"{spec!r} did not make a bot: it made {with_article(type(bot).__name__)}, "
            "which has no choose(view) method"
        )
    return Guarded(bot, name, limit)


def load(spec: str, limit: float | None) -> object:
    """The object an import spec names. The module is looked for on ``sys.path``, then
    in the current folder."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise BotError(f"cannot load the bot {spec!r}: write it package.module:factory")
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.append(here)  # the command's own folder is not on the path, unlike python's
    try:
        module = within(limit, importlib.import_module, module_name)
    except TimedOut:
        raise BotError(
            f"the module of the bot {spec!r} did not load within {limit:g} s; {LIMIT_HINT}"
        ) from None
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        missing = e.name if isinstance(e, ModuleNotFoundError) else None
        if missing and (missing == module_name or module_name.startswith(missing + ".")):
            raise BotError(
                f"cannot load the bot {spec!r}: there is no module {missing!r}, neither "
                f"installed nor in the current folder ({here})"
            ) from None
        raise BotError(
            f"cannot load the bot {spec!r}: importing {module_name} raised {failure(e)}"
        ) from None
    try:
        return getattr(module, attr)
    except AttributeError:
        raise BotError(
            f"cannot load the bot {spec!r}: the module {module_name} has no {attr!r}"
        ) from None


class Guarded:
    """An outside bot whose every call is timed and checked: it answers within ``limit``
    seconds (``None``: no limit), without raising, with one of ``view.legal``; else
    :class:`BotError`, naming the bot, its seat and the move. ``where`` is added to
    the move (the arena sets the deal)."""

    def __init__(self, bot: Bot, name: str, limit: float | None) -> None:
        self.bot = bot
        self.name = name
        self.limit = limit
        self.where = ""

    def new_hand(self, view: View) -> None:
        new_hand = getattr(self.bot, "new_hand", None)
        if callable(new_hand):
            self._call("new_hand", new_hand, view)

    def choose(self, view: View) -> Action:
        action = self._call("choose", self.bot.choose, view)
        try:
            legal = action in view.legal
        except Exception:  # an answer that cannot even be compared
            legal = False
        if not legal:
            shown = ", ".join(str(a) for a in view.legal[:6])
            more = " ..." if len(view.legal) > 6 else ""
            raise BotError(
                f"the bot {self.name} at seat {view.seat} chose {short(action)} "
                f"{self._move(view)}, which is not one of its legal actions: {shown}{more}"
            )
        return action

    def _call(self, what: str, call: Callable[[View], T], view: View) -> T:
        try:
            return within(self.limit, call, view)
        except TimedOut:
            raise BotError(
                f"the bot {self.name} at seat {view.seat} did not answer within "
                f"{self.limit:g} s {self._move(view)}; {LIMIT_HINT}"
            ) from None
        except KeyboardInterrupt:
            raise
        except BaseException as e:
            raise BotError(
                f"the bot {self.name} at seat {view.seat} failed in {what} "
                f"{self._move(view)}: {failure(e)}"
            ) from None

    def _move(self, view: View) -> str:
        """Which move: the trick (or the auction), and ``where``."""
        if view.phase == "play":
            move = f"at trick {len(view.tricks) + 1}"
        else:
            move = f"in the {view.phase}"
        return f"{move} of {self.where}" if self.where else move


def with_article(noun: str) -> str:
    """``noun`` with its indefinite article."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def short(value: object, width: int = 60) -> str:
    """``repr(value)``, cut to ``width`` characters."""
    try:
        text = repr(value)
    except Exception:
        text = f"a {type(value).__name__}"
    return text if len(text) <= width else text[: width - 3] + "..."


@register("random")
class RandomBot:
    """Plays a random legal action, drawn from its own generator of ``seed``, or from
    ``rng`` when it is given (``briscola simulate`` passes the one the deals come from,
    so that one seed fixes the whole game)."""

    def __init__(self, seed: int | None = None, rng: random.Random | None = None) -> None:
        self.rng = random.Random(seed) if rng is None else rng

    def choose(self, view: View) -> Action:
        return self.rng.choice(view.legal)

    def choose_legal(self, legal: Sequence[Action]) -> Action:
        """The same choice from the legal actions alone: a host then builds no view."""
        return self.rng.choice(legal)
