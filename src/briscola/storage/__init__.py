"""Durable storage for the game server: players, tables and their seats, each table's
append-only action log, the hands dealt, deadlines, chat and finished matches. It knows
nothing of HTTP; the server calls it.

``await Storage.open(url)`` connects (SQLite by default, ``sqlite+aiosqlite:///DIR/briscola.db``;
PostgreSQL with ``postgresql+asyncpg://...``) and creates or upgrades the schema with the
Alembic migrations shipped in ``briscola/storage/migrations``; opening again is harmless.

**The log.** A table's actions are stored one by one, each at the table's next version
(1, 2, ...) with :meth:`Storage.append_action`, before anyone is told of it. The log's key
is (table, version): a write at a version already taken fails with :class:`StaleVersion`,
so two writers can never both win.

**Rebuilding a table.** A table's match is rebuilt by replaying its log over its stored
deals: :meth:`Storage.start_table` keeps the match's start (the match record's dealer,
seating and partner draw) with the hands dealt before the first action, and
:meth:`Storage.append_action` keeps, in the same transaction as an action, the hands that
action made the match deal (the next hand, and any thrown in at the deal). Each action
belongs to the last hand stored before it. :meth:`Storage.load_match` puts the start, the
hands' deals and each hand's actions together into a match record and rebuilds the match
with :meth:`Match.from_record`, which replays and checks every move: the engine's one
checked path, the same as for a downloaded record. The hands' deals are kept apart from
the moves (with the fair shuffle's commitment and salt) because a hand is dealt, and
committed to, before it is played.

A rematch is a new table (with the same seats): a table holds one match.

**Sessions.** A person's signed-in session is a row (:meth:`Storage.create_session`),
found by the SHA-256 hex digest of the random token in its cookie, so that the database
never holds a usable token. :meth:`Storage.session_player` finds its player while it is
live, and deletes it once it has gone unused longer than the idle time given; it ends
with :meth:`Storage.end_session`, or with all of the player's (:meth:`Storage.end_sessions`).

>>> import asyncio, random, tempfile
>>> from briscola.engine import Match, Rules
>>> async def demo(folder: str) -> bool:
...     store = await Storage.open(f"sqlite+aiosqlite:///{folder}/briscola.db")
...     ana = await store.create_player("Ana")
...     table = await store.create_table(
...         "briscola-2", {}, [Seat(ana.id), Seat(level="random")], host=ana.id, public=False
...     )
...     match = Match(Rules.make("briscola-2"), random.Random(1))
...     await store.start_table(table.id, match_start(match), dealt_hands(match))
...     logged = match.apply_logged(match.hand.legal_actions()[0])
...     await store.append_action(table.id, 1, logged.action.to_json())
...     again = await store.load_match(table.id)
...     await store.close()
...     return again.to_record() == match.to_record()
>>> with tempfile.TemporaryDirectory() as folder:
...     asyncio.run(demo(folder))
True
"""

from briscola.storage.accounts import Challenge, Passkey, SessionInfo
from briscola.storage.families import (
    EditedMeanwhile,
    Family,
    Invite,
    LastAdmin,
    MatchResult,
    Member,
    NameTaken,
    RuleSet,
)
from briscola.storage.match_log import dealt_hands, match_start
from briscola.storage.store import Storage
from briscola.storage.values import (
    OPEN,
    ChatMessage,
    Deadline,
    FinishedMatch,
    Hand,
    LoggedAction,
    NewHand,
    News,
    NotFound,
    Player,
    Seat,
    SeatTaken,
    StaleVersion,
    StorageError,
    TableInfo,
    WrongStatus,
)

__all__ = [
    "OPEN",
    "Challenge",
    "ChatMessage",
    "Deadline",
    "EditedMeanwhile",
    "Family",
    "FinishedMatch",
    "Hand",
    "Invite",
    "LastAdmin",
    "LoggedAction",
    "MatchResult",
    "Member",
    "NameTaken",
    "NewHand",
    "News",
    "NotFound",
    "Passkey",
    "Player",
    "RuleSet",
    "Seat",
    "SeatTaken",
    "SessionInfo",
    "StaleVersion",
    "Storage",
    "StorageError",
    "TableInfo",
    "WrongStatus",
    "dealt_hands",
    "match_start",
]
