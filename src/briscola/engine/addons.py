"""Add-ons: the parts of the rules that only some games or tables have.

The generic trick engine (:mod:`briscola.engine.state`) plays cards, resolves
tricks, draws and scores. Everything else hooks in here, once, instead of
being copied into the engine: the trump exchange, partners' talk (signals,
questions and orders, Schembil's rais), and Briscola chiamata's auction and
secret partner. An add-on owns its own action types and phases; the state asks
it for extra legal actions, hands it the actions it owns, and tells it when a
trick has been taken.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from briscola.engine.actions import Action
from briscola.engine.cards import Card
from briscola.engine.errors import MalformedError, shown
from briscola.engine.events import Event, TrickWon
from briscola.engine.phases import Phase

if TYPE_CHECKING:
    from briscola.engine.state import GameState


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

    def start(self, state: GameState) -> list[Event]:
        """Called once the deal is laid out; may set the first phase. Returns events."""
        return []

    def legal(self, state: GameState) -> list[Action]:
        """Extra actions for the seat to act (in play), or every action of an owned phase."""
        return []

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` (one of ``actions``, or any
        action during an owned phase) is legal now."""

    def logged(self, state: GameState, action: Action) -> Action:
        """The action as the hand's log keeps it: ``action`` (which :meth:`check` accepted)
        with what the engine adds to it, such as the opponents who spotted a signal. Called
        once, just before :meth:`apply` is given what it returns."""
        return action

    def apply(self, state: GameState, action: Action) -> list[Event]:
        """Apply an action that :meth:`check` accepted, as :meth:`logged` completed it."""
        raise NotImplementedError

    def after_play(self, state: GameState, seat: int, card: Card, events: list[Event]) -> None:
        """Called when ``seat`` has played ``card`` to the trick, before the trick is taken;
        may add events. Only add-ons that override it are called."""

    def after_trick(self, state: GameState, won: TrickWon, events: list[Event]) -> None:
        """Called when a trick is taken, before drawing; may add events."""

    def before_lead(self, state: GameState, events: list[Event]) -> None:
        """Called when a trick after the first is about to be led (``state.turn`` leads),
        after drawing; may open a phase of its own before the lead, and add events."""

    def sees(self, state: GameState, seat: int) -> set[int]:
        """Other seats whose whole hands ``seat`` sees because of this add-on."""
        return set()

    def view(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """Extra fields of the view of ``seat`` (``None``: a spectator): only what it may know."""
        return {}

    def unseen_moves(self, state: GameState, seat: int | None) -> int:
        """How many of the hand's moves taken through this add-on ``seat`` (``None``: a
        spectator) was not shown at all (a signal for partners only): the view's
        ``move_number`` leaves them out, so that it tells nobody a hidden move was made."""
        return 0

    def report(self, state: GameState) -> dict[str, Any]:
        """Extra fields of a replay report (see docs/records.md)."""
        return {}

    def scores(self, state: GameState) -> tuple[int, ...] | None:
        """Match points per seat for a finished hand, where this add-on scores hands."""
        return None

    def redeal(self, state: GameState) -> bool:
        """Whether the finished hand is void and must be dealt again by the same dealer."""
        return False

    def winners(self, state: GameState) -> tuple[int, ...] | None:
        """The winning seats of a finished hand, where this add-on decides them."""
        return None

    def position(self, state: GameState) -> object:
        """This add-on's part of the hand's position (see :mod:`briscola.engine.position`):
        a frozen value of its own type with what it keeps, or ``None`` when it keeps
        nothing."""
        return None

    def restore(self, state: GameState, part: object) -> None:
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

    def copy(self) -> Addon:
        """An independent copy, for :meth:`GameState.copy`."""
        raise NotImplementedError
