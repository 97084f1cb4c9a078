"""The typed values the storage gives back, and its errors."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property, lru_cache
from typing import Any

from briscola.engine.game_record import rules_from_json
from briscola.engine.rules import Rules


class StorageError(Exception):
    """Something asked of the storage that it cannot do; the message says what and why."""


class NotFound(StorageError):
    """No player, table or hand by that id."""


class StaleVersion(StorageError):
    """A write at a table's version that is already taken (or not the next one)."""

    def __init__(self, table_id: int, version: int, current: int) -> None:
        super().__init__(
            f"table {table_id}: version {version} is not the next one (the log is at version "
            f"{current}): reload the table and apply the action at version {current + 1}"
        )
        self.table_id = table_id
        self.version = version
        self.current = current


class SeatTaken(StorageError):
    """A seat someone else (or a computer player) already holds."""


class WrongStatus(StorageError):
    """A change the table's status does not allow (starting a table already playing...)."""


@dataclass(frozen=True)
class Player:
    id: int
    nickname: str
    created: datetime


@dataclass(frozen=True)
class Seat:
    """Who sits at a seat: a person (``player``), a computer player (``level``), or nobody
    (both ``None``: the seat is open)."""

    player: int | None = None
    level: str | None = None

    def __post_init__(self) -> None:
        if self.player is not None and self.level is not None:
            raise ValueError("Seat: a person or a computer player, not both")

    @property
    def open(self) -> bool:
        return self.player is None and self.level is None


OPEN = Seat()


@dataclass(frozen=True)
class TableInfo:
    id: int
    token: str
    """The unguessable invite token (the private table's link)."""
    public: bool
    game: str
    rules: dict[str, Any]
    """The house rules that differ from the game's defaults (``Rules.overrides()``), as
    stored; :attr:`parsed` is the rule set they make."""
    seats: tuple[Seat, ...]
    host: int | None
    status: str
    """``waiting``, ``playing`` or ``finished``."""
    version: int
    """The last action's version in the log (0: none yet)."""
    start: dict[str, Any] | None
    """Once playing: the match record's ``dealer``, ``seating`` (and ``draw``)."""
    settings: dict[str, Any]
    """The table's own settings beside the game's rules (the server's: its clock...)."""
    created: datetime
    updated: datetime
    family: int | None = None
    """The family whose table it is (``None``: no family's)."""

    @cached_property
    def parsed(self) -> Rules:
        """The table's rule set, its ``game`` and ``rules`` read when first asked for
        (:func:`stored_rules`), and then kept with it."""
        return stored_rules(self.game, self.rules)


def stored_rules(game: str, rules: Mapping[str, Any]) -> Rules:
    """The rule set of a stored table's ``game`` and house ``rules``, read as a record's
    (:func:`~briscola.engine.game_record.rules_from_json`), as the table's match is
    replayed. A table's rules never change and a rule set is frozen: a process reads each
    one once, and hands the same :class:`Rules` to every table that has it.

    :raises MalformedError: when they are not a rule set (as stored, they always are)."""
    return _rule_set(game, tuple(sorted(rules.items())))


@lru_cache(maxsize=1024)
def _rule_set(game: str, rules: tuple[tuple[str, Any], ...]) -> Rules:
    return rules_from_json(game, dict(rules))


@dataclass(frozen=True)
class NewHand:
    """A hand dealt, to store: its number in the match (1, 2, ...), its deal as JSON
    (``Deal.to_json()``), and optionally the fair shuffle's commitment and salt."""

    number: int
    deal: dict[str, Any]
    commitment: str | None = None
    salt: str | None = None


@dataclass(frozen=True)
class Hand:
    table_id: int
    number: int
    deal: dict[str, Any]
    commitment: str | None
    salt: str | None
    at: datetime


@dataclass(frozen=True)
class LoggedAction:
    table_id: int
    version: int
    hand: int
    """The number of the hand the action was taken in."""
    action: dict[str, Any]
    at: datetime


@dataclass(frozen=True)
class Deadline:
    table_id: int
    seat: int
    kind: str
    due: datetime
    version: int | None
    """The table's version the deadline was set at (``None``: any)."""


@dataclass(frozen=True)
class ChatMessage:
    id: int
    table_id: int
    player: int | None
    text: str
    at: datetime


@dataclass(frozen=True)
class News:
    """What changed at a table, as :meth:`Storage.news` read it: each part not asked for
    is ``None`` or empty."""

    info: TableInfo | None
    hands: list[Hand]
    actions: list[LoggedAction]
    chat: list[ChatMessage]
    elsewhere: set[int] | None


@dataclass(frozen=True)
class FinishedMatch:
    table_id: int
    game: str
    record: dict[str, Any]
    """The match record (docs/records.md)."""
    players: dict[int, int]
    """The people who played it: seat to player id (computer players' seats left out)."""
    at: datetime
