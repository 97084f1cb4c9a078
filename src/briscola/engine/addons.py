"""Add-ons: the parts of the rules that only some games or tables have, and their registry.

The generic trick engine (:mod:`briscola.engine.state`) plays cards, resolves
tricks, draws and scores. Everything else hooks in here, once, instead of
being copied into the engine: the trump exchange, partners' talk (signals,
questions and orders, Schembil's rais), and Briscola chiamata's auction and
secret partner. An add-on owns its own action types and phases; the state asks
it for extra legal actions, hands it the actions it owns, and tells it when a
trick has been taken.

An add-on sees the hand as a :class:`TrickEngine`: what it may read of the hand, and
the few changes it may make (whose turn it is, the trump, the sides, the turned card),
never the engine's fields themselves.

Each add-on module registers its kinds at import, as OpenSpiel's games call
``register_game``: :func:`register_addon` files an :class:`AddonKind` under its key, a
game's preset names the keys of its add-ons (:attr:`Game.addons
<briscola.engine.presets.Game.addons>`), and :func:`make_addons` makes a hand's add-ons
from them. This module imports none of the add-ons; the engine package imports them all,
so they are registered whenever any part of the engine is imported.

>>> sorted(ADDONS)
['chiamata', 'exchange', 'rais', 'talk']
>>> from briscola.engine.rules import Rules
>>> rules = Rules.make("briscola-4", {"trump_exchange": "seven", "communication": "signals"})
>>> rules.game.addons, [type(a).__name__ for a in make_addons(rules)]
(('exchange', 'talk'), ['TrumpExchange', 'TableTalk'])
>>> make_addons(Rules.make("briscola-4"))  # the house rules leave both out
()
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Protocol, TypeVar

from briscola.engine.actions import Action
from briscola.engine.cards import Card, Suit
from briscola.engine.deal import Deal
from briscola.engine.errors import MalformedError, RulesError, shown
from briscola.engine.events import Event, TrickWon
from briscola.engine.house_rules import RuleValue
from briscola.engine.phases import Phase
from briscola.engine.rules import Rules
from briscola.engine.view_types import View


class TrickEngine(Protocol):
    """The hand in play as an add-on sees it: the trick engine's narrow interface, which
    :class:`~briscola.engine.state.GameState` implements. An add-on reads these and
    changes the hand only through the methods below."""

    @property
    def rules(self) -> Rules: ...
    @property
    def deal(self) -> Deal: ...
    @property
    def n(self) -> int: ...
    @property
    def hands(self) -> Sequence[Sequence[Card]]:
        """Each seat's cards, by seat."""

    @property
    def pile(self) -> Sequence[Card]:
        """Cards still to draw, the next at the end; the turned card, while there, first."""

    @property
    def turned(self) -> Card | None: ...
    @property
    def trump(self) -> Suit | None: ...
    @property
    def order(self) -> Sequence[int]:
        """The seats that play to this trick, in playing order."""

    @property
    def trick(self) -> Sequence[Card]: ...
    @property
    def tricks(self) -> Sequence[TrickWon]: ...
    @property
    def turn(self) -> int: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def seat_points(self) -> Sequence[int]: ...
    @property
    def over(self) -> bool: ...

    def winners(self) -> tuple[int, ...]:
        """The seats of the side that won the finished hand, or ``()``."""

    def set_turn(self, seat: int, phase: Phase) -> None:
        """Give the turn to ``seat``, in ``phase``."""

    def lead(self, seat: int) -> None:
        """Let ``seat`` lead the next trick, in the play phase."""

    def set_trump(self, suit: Suit | None) -> None:
        """Make ``suit`` the trump suit."""

    def set_sides(self, sides: tuple[tuple[int, ...], ...]) -> None:
        """The sides as the whole table now knows them."""

    def swap_turned(self, seat: int, card: Card) -> Card:
        """``seat`` gives ``card`` for the turned card; returns the card it took."""

    def finish(self, events: list[Event]) -> None:
        """End the hand now."""


T = TypeVar("T")


def part_of(addon: Addon, part: object, kind: type[T]) -> T:
    """``part`` as ``addon``'s part of a position, which must be a ``kind``.

    :raises MalformedError: when it is not.
    """
    if not isinstance(part, kind):
        raise MalformedError(
            f"{type(addon).__name__}: its part of a position must be a {kind.__name__}, "
            f"got {shown(part)}"
        )
    return part


class Addon:
    """Base of every add-on; each hook does nothing unless overridden."""

    actions: ClassVar[tuple[type, ...]] = ()
    """The action types this add-on checks and applies."""
    phases: ClassVar[tuple[Phase, ...]] = ()
    """The phases in which this add-on alone says what is legal."""

    def start(self, state: TrickEngine) -> list[Event]:
        """Called once the deal is laid out; may set the first phase. Returns events."""
        return []

    def legal(self, state: TrickEngine) -> list[Action]:
        """Extra actions for the seat to act (in play), or every action of an owned phase."""
        return []

    def check(self, state: TrickEngine, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` (one of ``actions``, or any
        action during an owned phase) is legal now."""

    def logged(self, state: TrickEngine, action: Action) -> Action:
        """The action as the hand's log keeps it: ``action`` (which :meth:`check` accepted)
        with what the engine adds to it, such as the opponents who spotted a signal. Called
        once, just before :meth:`apply` is given what it returns."""
        return action

    def apply(self, state: TrickEngine, action: Action) -> list[Event]:
        """Apply an action that :meth:`check` accepted, as :meth:`logged` completed it."""
        raise NotImplementedError

    def after_play(self, state: TrickEngine, seat: int, card: Card, events: list[Event]) -> None:
        """Called when ``seat`` has played ``card`` to the trick, before the trick is taken;
        may add events. Only add-ons that override it are called."""

    def after_trick(self, state: TrickEngine, won: TrickWon, events: list[Event]) -> None:
        """Called when a trick is taken, before drawing; may add events."""

    def before_lead(self, state: TrickEngine, events: list[Event]) -> None:
        """Called when a trick after the first is about to be led (``state.turn`` leads),
        after drawing; may open a phase of its own before the lead, and add events."""

    def sees(self, state: TrickEngine, seat: int) -> set[int]:
        """Other seats whose whole hands ``seat`` sees because of this add-on."""
        return set()

    def view(self, state: TrickEngine, seat: int | None) -> dict[str, Any]:
        """Extra fields of the view of ``seat`` (``None``: a spectator): only what it may know."""
        return {}

    def unseen_moves(self, state: TrickEngine, seat: int | None) -> int:
        """How many of the hand's moves taken through this add-on ``seat`` (``None``: a
        spectator) was not shown at all (a signal for partners only): the view's
        ``move_number`` leaves them out, so that it tells nobody a hidden move was made."""
        return 0

    def report(self, state: TrickEngine) -> dict[str, Any]:
        """Extra fields of a replay report (see docs/records.md)."""
        return {}

    def scores(self, state: TrickEngine) -> tuple[int, ...] | None:
        """Match points per seat for a finished hand, where this add-on scores hands."""
        return None

    def redeal(self, state: TrickEngine) -> bool:
        """Whether the finished hand is void and must be dealt again by the same dealer."""
        return False

    def winners(self, state: TrickEngine) -> tuple[int, ...] | None:
        """The winning seats of a finished hand, where this add-on decides them."""
        return None

    def contract(self, state: TrickEngine) -> tuple[tuple[int, ...], int] | None:
        """A side that wins the hand by taking at least so many card points, as
        ``(seats, points)``, whether or not the table knows its seats yet (chiamata's caller
        and the holder of the called card, with the points of the bid); ``None`` when this
        add-on sets none (the side with the most points wins)."""
        return None

    def position(self, state: TrickEngine) -> object:
        """This add-on's part of the hand's position (see :mod:`briscola.engine.position`):
        a frozen value of its own type with what it keeps, or ``None`` when it keeps
        nothing."""
        return None

    def restore(self, state: TrickEngine, part: object) -> None:
        """Take up ``part`` (what :meth:`position` gives) in a state being built from a
        position; the state's own fields are already set, and this may set the phase's
        details it owns.

        :raises MalformedError: when ``part`` is not this add-on's part.
        """
        if part is not None:
            raise MalformedError(
                f"{type(self).__name__} keeps no part in a position: expected None, "
                f"got {shown(part)}"
            )

    def part_from_view(self, view: View, hands: Sequence[Sequence[Card]], rules: Rules) -> object:
        """This add-on's part of the position of a world made from ``view`` (of a hand under
        ``rules``), with the hidden cards dealt so that each seat holds ``hands``: what
        :meth:`position` would give, read from what the view shows. What no view records
        is left at its start, and talk before leads is off (a search plays cards only).
        ``None`` for an add-on that keeps nothing."""
        return None

    def copy(self) -> Addon:
        """An independent copy, for :meth:`GameState.copy`."""
        raise NotImplementedError


AddonMaker = Callable[[], Addon]
"""Makes a fresh add-on for one hand, its config read from the house rules once."""


@dataclass(frozen=True)
class AddonKind:
    """A kind of add-on a game's preset may name: its key, its name in words, the house
    rules it reads, and what reads them (every house rule of the table, with its value)
    into a maker of the add-on (``None`` when these house rules leave it out)."""

    key: str
    name: str
    rules: tuple[str, ...]
    configure: Callable[[Mapping[str, RuleValue]], AddonMaker | None]


ADDONS: dict[str, AddonKind] = {}
"""Every registered add-on kind, by key."""


def register_addon(kind: AddonKind) -> AddonKind:
    """File ``kind`` under its key, for the presets that name it; returns it.

    :raises RulesError: when another kind has that key.
    """
    if ADDONS.get(kind.key, kind) is not kind:
        raise RulesError(f"register_addon: the add-on key {shown(kind.key)} is taken")
    ADDONS[kind.key] = kind
    return kind


def find_addon(key: str) -> AddonKind:
    """The add-on kind registered under ``key``.

    :raises RulesError: when there is none.
    """
    try:
        return ADDONS[key]
    except (KeyError, TypeError):  # TypeError: an unhashable key
        raise RulesError(
            f"there is no add-on {shown(key)}; the add-ons are: {', '.join(sorted(ADDONS))}"
        ) from None


@lru_cache(maxsize=256)
def addon_makers(rules: Rules) -> tuple[AddonMaker, ...]:
    """The makers of the add-ons that ``rules`` play with: those of the game's preset
    (:attr:`Game.addons <briscola.engine.presets.Game.addons>`) that its house rules do
    not leave out, in the preset's order, each with its config read once per rule set.

    :raises RulesError: when the preset names an add-on that no module registered.
    """
    found = (find_addon(key).configure(rules.options) for key in rules.game.addons)
    return tuple(make for make in found if make is not None)


def make_addons(rules: Rules) -> tuple[Addon, ...]:
    """Fresh add-ons for one hand under ``rules`` (see :func:`addon_makers`)."""
    return tuple(make() for make in addon_makers(rules))
