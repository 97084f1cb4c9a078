"""Every message of the protocol, as pydantic models (docs/protocol.md shows each).

Client to server, over a table's WebSocket: :class:`Act`, :class:`Say`, :class:`Sync`,
:class:`Ping`, told apart by ``type`` (:data:`CLIENT`). Server to client: a
:class:`Snapshot`, :class:`Update`, :class:`ChatLine`, :class:`TableChanged`,
:class:`Failure` or :class:`Pong` (:data:`SERVER`), each with the ``version`` of your
seat's stream. The views and events they carry are typed too
(:mod:`briscola.server.wire`), and :func:`protocol_schema` is the JSON Schema of every
message, published at ``/api/protocol.json``. The REST part's bodies are the ``...In``
and ``...Out`` models.

The server writes its updates and snapshots with :func:`update_frame` and
:func:`snapshot_frame`: the engine's JSON as it is, not validated again on each move,
in the bytes these models write (the tests validate every view and event of whole games,
and check that the frames are the models' own).
"""

from __future__ import annotations

import functools
import json
from datetime import datetime
from typing import Annotated, Any, Literal, get_args

import orjson
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    model_validator,
)
from pydantic_core import to_json

from briscola.server.wire import Action, Event, Fairness, RuleValue, View
from briscola.words.catalogue import LANGUAGES
from briscola.words.catalogue import PHRASES as WORDED_PHRASES


def _as_sent(value: Any) -> Any:
    return value


AnAction = Annotated[dict[str, Any], BeforeValidator(_as_sent, json_schema_input_type=Action)]
"""An action as a view's ``legal`` lists it (its schema is :data:`briscola.server.wire.Action`);
taken as any JSON object here, and read by the engine, which names what is wrong with it
(``bad_action``)."""


LARGEST = 2**63 - 1
"""The largest whole number a client may send, in a path, a query or a body: the storage
keeps signed 64-bit integers (SQLite's, PostgreSQL's ``BIGINT``). A number past it, or
below ``-LARGEST - 1``, is refused where it enters (``422 bad_request``), before it can
reach a query."""

Id = Annotated[int, Field(ge=1, le=LARGEST)]
"""The id of something stored, as a client names it: a family, a member, an invitation,
a way to play, a passkey, one of your sessions."""

Whole = Annotated[int, Field(ge=-LARGEST - 1, le=LARGEST)]
"""Any other whole number a client sends (a seat, a hand's number), whose range is
checked where it is used (``bad_seat``, ``bad_hand``), within the storage's."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Sent(BaseModel):
    """A message the server sends: every field is always written."""

    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)


# -- client to server (WebSocket) ---------------------------------------------------------


class Act(_Message):
    """Take an action for your seat: one of the view's ``legal`` actions, as it is there.
    ``version`` is the table's version you saw; an action sent at an older version is
    refused (``stale``) and changes nothing."""

    type: Literal["act"]
    version: StrictInt = Field(ge=-LARGEST - 1, le=LARGEST)
    action: AnAction
    id: StrictStr | None = Field(default=None, max_length=64)
    """Any tag of yours, given back in the error should the action be refused. An action
    sent again with the ``id`` and ``version`` of one the seat had taken is not taken
    twice: it is refused, ``already_taken``."""


Phrase = Literal[
    "hello", "nice_hand", "well_played", "thanks", "good_luck", "again", "sorry", "bye"
]
"""The friendly phrases a table's chat takes, once the cards are dealt, under ``chat=phrases``
(each said to every reader in their own language: the catalogues' ``chat.phrase.ID``):
:data:`briscola.words.catalogue.PHRASES`, for the schema."""

PHRASES: tuple[str, ...] = get_args(Phrase)
assert PHRASES == WORDED_PHRASES, "the phrases of the schema are the catalogues' own"

PointsSetting = Literal["hidden", "shown"]
"""Whether the points taken are shown during a hand (``hidden``: counted in your head)."""

TableLanguage = Literal["it", "en", "es", "hr"]
"""A table's language: its computer players' first names are of it (``en`` has the Italian
ones: :mod:`briscola.words.names`). Each reader still reads the table in their own."""
assert get_args(TableLanguage) == LANGUAGES, "a table's languages are the catalogues' own"

ChatSetting = Literal["free", "phrases", "none"]
"""A table's chat: free text at any time; free text while no cards are in anyone's hand
(before the first deal, after the match) and only the friendly phrases from the deal on
(``phrases``); no chat at all (``none``)."""


class Say(_Message):
    """A line of chat to the table: free ``text``, or one of the friendly ``phrase`` ids."""

    type: Literal["chat"]
    text: StrictStr | None = None
    phrase: Phrase | None = None

    @model_validator(mode="after")
    def _one(self) -> Say:
        if (self.text is None) == (self.phrase is None):
            raise ValueError("a chat message has a text or a phrase, one of the two")
        return self


class Sync(_Message):
    """Ask for what happened after ``since``: the events missed (from 0: the match's start
    first), a snapshot when they are not all kept, nothing at the table's version."""

    type: Literal["sync"]
    since: StrictInt = Field(ge=0, le=LARGEST)


class Ping(_Message):
    type: Literal["ping"]


ClientMessage = Annotated[Act | Say | Sync | Ping, Field(discriminator="type")]
CLIENT: TypeAdapter[Act | Say | Sync | Ping] = TypeAdapter(ClientMessage)


# -- server to client (WebSocket) ----------------------------------------------------------


class SeatOut(_Sent):
    seat: int
    kind: Literal["open", "person", "bot"]
    nickname: str | None = None
    player: int | None = None
    level: str | None = None
    """The computer player's level (``kind`` bot)."""
    name: str | None = None
    """The computer player's first name (``kind`` bot), of the table's ``lang``, the same
    for every reader; a stand-in plays under the person's ``nickname`` and has none."""
    connected: bool = False
    """Whether the person at the seat has the table open now."""
    stand_in: bool = False
    """Whether a computer player plays for the absent person at the seat."""


class You(_Sent):
    player: int | None
    seat: int | None
    """Your seat at this table, or ``None``: you watch (or have not sat down yet)."""
    host: bool


class TableOut(_Sent):
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
    clock_left: float | None = None
    """The seconds left on the clock of the seat to act when this was sent (``None``: no
    clock is running, or the server does not know it; a client then counts from when it
    learned whose turn it is)."""
    points: PointsSetting = "hidden"
    """Whether a client shows the points taken during a hand (``hidden``: counted in your
    head, shown at the hand's end)."""
    chat: ChatSetting = "phrases"
    """The table's chat: ``free``, ``phrases`` (only the friendly phrases while anyone holds
    cards) or ``none``."""
    lang: TableLanguage = "it"
    """The table's language, which its computer players' names are of."""
    hints: bool = False
    """Whether the table allows hints to every seated player (``hints`` as it was opened);
    at a practice table, where only computer players sit beside a person, that person
    may ask anyway."""
    stand_in: str
    """The level of the computer player standing in for an absent or slow player."""
    hands: int
    """Hands dealt so far."""
    rematch: str | None
    """The rematch's table token, once there is one."""
    you: You | None = None


class Snapshot(_Sent):
    """Everything your seat may know now: sent when you connect, and when you asked for
    events too old to be kept (``since`` further back than the table keeps)."""

    type: Literal["snapshot"] = "snapshot"
    version: int
    table: TableOut
    view: View | None
    """Your seat's view (the spectator's when you watch); ``None`` before the start."""
    fairness: list[Fairness]
    """Each hand's commitment; the finished hands' salts and deals too."""


class Update(_Sent):
    """What happened since ``since``, as your seat sees it, and your view after it."""

    type: Literal["update"] = "update"
    version: int
    since: int
    events: list[Event]
    """The events as your seat sees them, in order."""
    view: View


class ChatLine(_Sent):
    type: Literal["chat"] = "chat"
    version: int
    id: int
    seat: int | None
    nickname: str | None
    text: str
    """As it was typed (control characters out): a page puts it in as text, never as
    markup. Of a phrase: its English text."""
    phrase: Phrase | None = None
    """The friendly phrase said, to be shown in the reader's language
    (``chat.phrase.ID``); ``None``: free text."""
    at: str


class TableChanged(_Sent):
    """The table's seats, status or settings changed (someone sat down, left, came back;
    the match started or ended; a rematch was made)."""

    type: Literal["table"] = "table"
    version: int
    table: TableOut


ErrorValues = dict[str, StrictInt | float | str]
"""An error's values: the places of its sentence (``error.CODE`` in the catalogues), by
name, each a number or a short text (a seat counted from 1); ``briscola.server.errors``
names each code's."""


class Failure(_Sent):
    """Something you sent was refused, and nothing changed: ``code`` for programs,
    ``message`` in English for their authors, ``values`` for the sentence a person reads
    (the catalogues' ``error.CODE``, in the reader's language)."""

    type: Literal["error"] = "error"
    version: int
    code: str
    message: str
    values: ErrorValues = Field(default_factory=dict)
    id: str | None = None


class Pong(_Sent):
    type: Literal["pong"] = "pong"
    version: int


ServerMessage = Annotated[
    Snapshot | Update | ChatLine | TableChanged | Failure | Pong, Field(discriminator="type")
]
SERVER: TypeAdapter[Snapshot | Update | ChatLine | TableChanged | Failure | Pong] = TypeAdapter(
    ServerMessage
)


def update_frame(
    version: int, since: int, events: list[dict[str, Any]], view: dict[str, Any]
) -> str:
    """An :class:`Update`'s JSON, from the events and the view as the engine wrote them:
    the bytes ``Update(...).model_dump_json()`` writes, without validating the view and
    every event again on each move."""
    frame = {"type": "update", "version": version, "since": since, "events": events, "view": view}
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


def snapshot_frame(
    version: int, table: TableOut, view: dict[str, Any] | None, fairness: list[dict[str, Any]]
) -> str:
    """A :class:`Snapshot`'s JSON, its view and fairness as written (see
    :func:`update_frame`)."""
    frame = {
        "type": "snapshot",
        "version": version,
        "table": table,
        "view": view,
        "fairness": fairness,
    }
    return to_json(frame).decode()


SCHEMA_PATH = "/api/protocol.json"
"""Where the server publishes :func:`protocol_schema`, beside its OpenAPI page."""


@functools.cache
def schema_text() -> str:
    """:func:`protocol_schema` as JSON text, made once."""
    event: TypeAdapter[Any] = TypeAdapter(Event)
    keys, defs = TypeAdapter.json_schemas(
        [
            ("ClientMessage", "validation", CLIENT),
            ("ServerMessage", "serialization", SERVER),
            ("Event", "serialization", event),
        ],
        ref_template="#/$defs/{model}",
    )
    named = dict(defs["$defs"])
    for (name, _), schema in keys.items():
        named[name] = schema
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "briscola: the messages of a table's WebSocket",
        "description": "Every message of /api/tables/{token}/ws (docs/protocol.md): what a "
        "client sends is a ClientMessage, what the server sends a ServerMessage, each told "
        "apart by its `type`. An update's events are each an Event; a view is a View. "
        "Generated from the server's models (briscola.server.messages, briscola.server.wire).",
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": dict(sorted(named.items())),
    }
    return to_json(schema).decode()


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every message of a table's WebSocket, generated
    from these models: ``$defs/ClientMessage`` (what a client sends: :data:`CLIENT`),
    ``$defs/ServerMessage`` (what the server sends: :data:`SERVER`), ``$defs/Event`` (an
    update's event) and every model they hold, by name (``View``, ``CardPlayed``...).

    >>> sorted(protocol_schema()["$defs"]["ServerMessage"]["discriminator"]["mapping"])
    ['chat', 'error', 'pong', 'snapshot', 'table', 'update']
    """
    schema: dict[str, Any] = json.loads(schema_text())
    return schema


# -- REST ----------------------------------------------------------------------------------


class SessionIn(_Message):
    nickname: StrictStr = Field(min_length=1, max_length=40)


class PlayerOut(BaseModel):
    id: int
    nickname: str


class DeviceOut(BaseModel):
    """One of your sessions: the device it was opened on (its browser and system, or a
    program's name; ``null`` when it said none), when it began and when it was last used
    (to the hour at most), and whether it is the one asking."""

    id: int
    device: str | None
    created: datetime
    seen: datetime
    current: bool


class CodeOut(BaseModel):
    """A one-time code to sign in on another device: usable once, for ``expires_in``
    seconds."""

    code: str
    expires_in: int


class DeleteAccountIn(_Message):
    """Deleting your account: ``confirm`` is your nickname, typed again."""

    confirm: StrictStr = Field(min_length=1, max_length=60)


class CodeIn(_Message):
    code: StrictStr = Field(min_length=1, max_length=40)


class CeremonyOut(BaseModel):
    """A passkey ceremony's start: the ``options`` to give the browser
    (``PublicKeyCredential.parseCreationOptionsFromJSON`` or
    ``parseRequestOptionsFromJSON``), and the ``ticket`` to send back with its answer."""

    ticket: str
    options: dict[str, Any]


class AnswerIn(_Message):
    """The browser's answer (``credential.toJSON()``) to the ceremony of ``ticket``."""

    ticket: StrictStr = Field(min_length=1, max_length=100)
    credential: dict[str, Any]


class FamilyIn(_Message):
    name: StrictStr = Field(min_length=1, max_length=60)


class FamilyBrief(BaseModel):
    """A family of yours, and your role in it (``admin`` or ``member``)."""

    id: int
    name: str
    role: str


class MemberOut(BaseModel):
    player: int
    nickname: str
    role: str
    joined: datetime


class FamilyOut(BaseModel):
    """A family of yours: your role, and its members (the admins first)."""

    id: int
    name: str
    role: str
    created: datetime
    members: list[MemberOut]


class RoleIn(_Message):
    role: Literal["admin", "member"]


class StandingOut(BaseModel):
    """A line of a family's table: a person (``player``, ``nickname``) or a computer
    player (``level``); ``rating`` is the conservative estimate the table is ordered by
    (OpenSkill's ordinal, ``mu - 3 sigma``). ``shown`` and ``margin`` are the rating as
    people read it (a whole number, 1500 for a newcomer, ± ``margin``), ``provisional``
    until 5 matches."""

    key: str
    player: int | None
    nickname: str | None
    level: str | None
    rating: float
    mu: float
    sigma: float
    played: int
    won: int
    shown: int
    margin: int
    provisional: bool


class RecordOut(BaseModel):
    """Two players (keys of the table's lines): head to head, how often each beat the
    other; as a pair, how often they played side by side and won."""

    a: str
    b: str
    a_won: int = 0
    b_won: int = 0
    played: int = 0
    won: int = 0


class GameStandingsOut(BaseModel):
    table: list[StandingOut]
    head_to_head: list[RecordOut]
    pairs: list[RecordOut]


class StandingsOut(BaseModel):
    """A family's standings in ``game`` (``null`` when it has finished no match yet):
    this month's (from ``month_from``) and overall; ``games`` are those it has played,
    the most played first."""

    game: str | None
    games: list[str]
    month_from: datetime
    month: GameStandingsOut
    overall: GameStandingsOut


class InviteIn(_Message):
    days: int = Field(default=7, ge=1, le=30)
    """How many days the link lets people join."""


class InviteOut(BaseModel):
    """An invitation to a family: its ``link`` (the page that joins, ``/join/TOKEN``) in
    the answer that made it alone (``null`` when listed: the token is not kept)."""

    id: int
    link: str | None
    created: datetime
    expires: datetime


class InvitePreview(BaseModel):
    """The family an invitation link invites to."""

    family: str


class PasskeyOut(BaseModel):
    """One of your passkeys: the device it was registered on, when, and when it last
    signed you in (``null``: never)."""

    id: int
    device: str | None
    created: datetime
    used: datetime | None


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
    points: StrictStr = "hidden"
    """``hidden`` (the points taken are not shown during a hand) or ``shown``
    (``bad_points``)."""
    chat: StrictStr = "phrases"
    """``free``, ``phrases`` or ``none`` (``bad_chat``)."""
    lang: StrictStr = "it"
    """The table's language, ``it``, ``en``, ``es`` or ``hr`` (``bad_language``): its
    computer players are called by first names of it."""
    hints: StrictBool = False
    """Whether a seated player may ask for a hint (``POST /api/tables/{token}/hint``);
    at a practice table, where only computer players sit beside you, one may anyway."""


class RuleSetIn(_Message):
    """A way to play, as the family keeps it: its ``name`` and the table it opens
    (``body``, as ``POST /api/tables`` takes it; a family's tables are private). An edit
    names the ``version`` it was made from."""

    name: StrictStr = Field(min_length=1, max_length=60)
    body: TableIn
    version: Annotated[int, Field(ge=0, le=LARGEST)] | None = None


class RuleSetOut(BaseModel):
    id: int
    name: str
    body: dict[str, Any]
    version: int
    updated_by: str | None
    """The nickname of whoever saved it last."""
    updated: datetime


class SeatChange(_Message):
    kind: Literal["open", "bot"]
    level: StrictStr | None = None


class ErrorOut(BaseModel):
    """An error: ``code`` for programs (docs/protocol.md, Errors), ``message`` in English
    for their authors, ``values`` for the sentence a person reads (the catalogues'
    ``error.CODE``, in the reader's language)."""

    code: str
    message: str
    values: ErrorValues = Field(default_factory=dict)


class ErrorBody(BaseModel):
    error: ErrorOut


class MatchOut(BaseModel):
    """A finished match in a player's history."""

    token: str
    game: str
    seat: int | None
    """Your seat (``null`` in a family's list, for a match you did not play)."""
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


class HintChoice(BaseModel):
    action: dict[str, Any]
    """The choice, as the record writes a move (``{"seat": 0, "play": "Ad"}``)."""
    expected_points: float
    """The card points your side takes from now to the end of the hand after it, had
    everyone then played well, valued from your view alone (docs/analysis.md)."""
    win_percent: int | None = None
    """The chance that your side then wins the hand, in whole percent (a tie counting
    half), from your view alone; ``null`` where ``aim`` is ``points``."""


class HintOut(BaseModel):
    """A hint: the card the strong computer player would play in your seat now, and what
    each of your choices is worth in what it plays for, from your view alone."""

    version: int
    """The table's version the hint is for."""
    suggested: dict[str, Any]
    """The strong computer player's choice in your seat: the choice of best chance to win
    the hand (``aim`` ``win``; of equal chances in whole percent, the one of more
    points), or of most points (``aim`` ``points``)."""
    aim: str = "win"
    """What the strong player plays for here: ``win`` the hand, or ``points`` (head to head
    in a match to a points target)."""
    choices: list[HintChoice]
    exact: bool
    """Whether nothing is hidden from you now: the values are exact."""
