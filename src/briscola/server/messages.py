"""Every message of the protocol, as pydantic models (docs/protocol.md shows each).

Client to server, over a table's WebSocket: :class:`Act`, :class:`Say`, :class:`Sync`,
:class:`Ping`, told apart by ``type`` (:data:`CLIENT`). Server to client: a
:class:`Snapshot`, :class:`Update`, :class:`ChatLine`, :class:`TableChanged`,
:class:`Failure` or :class:`Pong`, each with the table's ``version``: the number of
actions in its log. The REST part's bodies are the ``...In`` and ``...Out`` models.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter

RuleValue = StrictStr | StrictInt | StrictBool


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- client to server (WebSocket) ---------------------------------------------------------


class Act(_Message):
    """Take an action for your seat: one of the view's ``legal`` actions, as it is there.
    ``version`` is the table's version you saw; an action sent at an older version is
    refused (``stale``) and changes nothing."""

    type: Literal["act"]
    version: StrictInt
    action: dict[str, Any]
    id: StrictStr | None = Field(default=None, max_length=64)
    """Any tag of yours, given back in the error should the action be refused. An action
    sent again with the ``id`` and ``version`` of one the seat had taken is not taken
    twice: it is refused, ``already_taken``."""


class Say(_Message):
    """A line of chat to the table."""

    type: Literal["chat"]
    text: StrictStr


class Sync(_Message):
    """Ask for what happened after ``since``: the events missed (from 0: the match's start
    first), a snapshot when they are not all kept, nothing at the table's version."""

    type: Literal["sync"]
    since: StrictInt = Field(ge=0)


class Ping(_Message):
    type: Literal["ping"]


ClientMessage = Annotated[Act | Say | Sync | Ping, Field(discriminator="type")]
CLIENT: TypeAdapter[Act | Say | Sync | Ping] = TypeAdapter(ClientMessage)


# -- server to client (WebSocket) ----------------------------------------------------------


class SeatOut(BaseModel):
    seat: int
    kind: Literal["open", "person", "bot"]
    nickname: str | None = None
    player: int | None = None
    level: str | None = None
    """The computer player's level (``kind`` bot)."""
    connected: bool = False
    """Whether the person at the seat has the table open now."""
    stand_in: bool = False
    """Whether a computer player plays for the absent person at the seat."""


class You(BaseModel):
    player: int | None
    seat: int | None
    """Your seat at this table, or ``None``: you watch (or have not sat down yet)."""
    host: bool


class TableOut(BaseModel):
    """A table as the lobby and its players see it."""

    token: str
    invite: str
    """The table's link (its path on this server); it is all anyone needs to join."""
    game: str
    name: str
    rules: dict[str, RuleValue]
    """Every house rule of the table, defaults included."""
    overrides: dict[str, RuleValue]
    """The house rules that differ from the game's defaults."""
    public: bool
    status: Literal["waiting", "playing", "finished"]
    host: int | None
    seats: list[SeatOut]
    version: int
    clock: float | None
    """Seconds for each move (``None``: no clock)."""
    stand_in: str
    """The level of the computer player standing in for an absent or slow player."""
    hands: int
    """Hands dealt so far."""
    rematch: str | None
    """The rematch's table token, once there is one."""
    you: You | None = None


class Snapshot(BaseModel):
    """Everything your seat may know now: sent when you connect, and when you asked for
    events too old to be kept (``since`` further back than the table keeps)."""

    type: Literal["snapshot"] = "snapshot"
    version: int
    table: TableOut
    view: dict[str, Any] | None
    """Your seat's view (the spectator's when you watch); ``None`` before the start."""
    fairness: list[dict[str, Any]]
    """Each hand's commitment; the finished hands' salts and deals too."""


class Update(BaseModel):
    """What happened since ``since``, as your seat sees it, and your view after it."""

    type: Literal["update"] = "update"
    version: int
    since: int
    events: list[dict[str, Any]]
    view: dict[str, Any]


class ChatLine(BaseModel):
    type: Literal["chat"] = "chat"
    version: int
    id: int
    seat: int | None
    nickname: str | None
    text: str
    """As it was typed (control characters out): a page puts it in as text, never as
    markup."""
    at: str


class TableChanged(BaseModel):
    """The table's seats, status or settings changed (someone sat down, left, came back;
    the match started or ended; a rematch was made)."""

    type: Literal["table"] = "table"
    version: int
    table: TableOut


class Failure(BaseModel):
    """Something you sent was refused, and nothing changed: ``code`` for programs,
    ``message`` for people."""

    type: Literal["error"] = "error"
    version: int
    code: str
    message: str
    id: str | None = None


class Pong(BaseModel):
    type: Literal["pong"] = "pong"
    version: int


# -- REST ----------------------------------------------------------------------------------


class SessionIn(_Message):
    nickname: StrictStr = Field(min_length=1, max_length=40)


class PlayerOut(BaseModel):
    id: int
    nickname: str


class SeatIn(_Message):
    """A seat as the host sets it: ``open`` for a person to take, ``me`` (the host sits
    there) or ``bot`` with a ``level``."""

    kind: Literal["open", "me", "bot"]
    level: StrictStr | None = None


class TableIn(_Message):
    game: StrictStr
    rules: dict[str, RuleValue] = Field(default_factory=dict)
    seats: list[SeatIn] | None = None
    """One for each seat; by default the host takes seat 0 and the others are open."""
    public: StrictBool = False
    clock: float | None = Field(default=None, gt=0, le=3600)
    """Seconds for each move (at least the server's ``min_clock``, 5 by default)."""
    stand_in: StrictStr | None = None


class SeatChange(_Message):
    kind: Literal["open", "bot"]
    level: StrictStr | None = None


class ErrorOut(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    error: ErrorOut


class MatchOut(BaseModel):
    """A finished match in a player's history."""

    token: str
    game: str
    seat: int
    players: dict[int, str]
    """The people's nicknames by seat."""
    winners: list[int]
    """The winning seats."""
    at: str
    record: str
    """The path of its match record."""
    hands_won: list[int] = Field(default_factory=list)
    """The match score: hands won by each side (sides in the order of their lowest seat)."""
    totals: list[int] = Field(default_factory=list)
    """Card points taken over the match by each side."""
