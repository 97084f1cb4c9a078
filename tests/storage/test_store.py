"""The storage layer (briscola.storage) on SQLite and on PostgreSQL.

Every test runs on both databases. PostgreSQL's URL comes from BRISCOLA_TEST_POSTGRES_URL,
which scripts/test sets after starting a throwaway cluster (scripts/postgres); each test
gets a database of its own. Without the variable the PostgreSQL tests are skipped, but
under CI (``CI`` set) they fail: CI never passes without PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import create_async_engine

from briscola.engine import Match, Rules
from briscola.engine.deal import Deal, shuffled_deal
from briscola.engine.game_record import rules_from_json
from briscola.storage import (
    OPEN,
    NewHand,
    NotFound,
    Player,
    Seat,
    SeatTaken,
    StaleVersion,
    Storage,
    StorageError,
    WrongStatus,
    dealt_hands,
    match_start,
    schema,
)
from briscola.storage import store as store_module
from briscola.storage.schema import actions, metadata
from briscola.storage.sqlite_log import sqlite_time
from serverkit import database
from storekit import DAY, HEAD, T0, Clock, token_hash


class Deals:
    """A deal source that deals hand number n the same way every time (seeded by n), so
    a match and its rebuilt copy deal the same hands from any point on."""

    def __init__(self, seed: int, dealt: int = 0) -> None:
        self.seed = seed
        self.dealt = dealt

    def __call__(self, rules: Rules, dealer: int) -> Deal:
        self.dealt += 1
        return shuffled_deal(rules, dealer, random.Random(self.seed * 1000 + self.dealt))


async def playing_table(
    store: Storage, game: str, rules: dict[str, Any], seed: int = 1
) -> tuple[int, Match]:
    parsed = Rules.make(game, rules)
    table = await store.create_table(game, rules, [OPEN] * parsed.players, host=None, public=True)
    match = Match(parsed, random.Random(seed), deals=Deals(seed))
    await store.start_table(table.id, match_start(match), dealt_hands(match))
    return table.id, match


async def play_stored(
    store: Storage, table_id: int, match: Match, rng: random.Random, moves: int | None
) -> None:
    """Play up to ``moves`` random legal actions (all: to the end), storing each."""
    version = (await store.get_table(table_id)).version
    while not match.over and moves != 0:
        before = match.number
        action = rng.choice(match.hand.legal_actions())
        logged = match.apply_logged(action)
        version += 1
        await store.append_action(
            table_id, version, logged.action.to_json(), dealt=dealt_hands(match, before)
        )
        moves = None if moves is None else moves - 1


# -- opening and migrations ----------------------------------------------------------------


async def test_open_creates_the_schema_of_the_metadata(url: str) -> None:
    store = await Storage.open(url)
    try:
        async with store.engine.connect() as conn:

            def differences(sync: sa.Connection) -> list[Any]:
                return compare_metadata(MigrationContext.configure(sync), metadata)

            assert await conn.run_sync(differences) == []
            head = (await conn.execute(sa.text("SELECT version_num FROM alembic_version"))).all()
            assert head == [(HEAD,)]
    finally:
        await store.close()


async def test_open_twice_is_harmless_and_keeps_the_data(url: str) -> None:
    first = await Storage.open(url)
    ana = await first.create_player("Ana")
    await first.close()
    again = await Storage.open(url)
    try:
        assert await again.get_player(ana.id) == ana
    finally:
        await again.close()


async def test_an_upgrade_from_0002_keeps_the_data(url: str) -> None:
    """A database made at migration 0002, with a player and a table in it, upgraded to
    the newest: the player and the table are as they were, and sessions work for them."""
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(store_module._upgrade, "0002")
            ana = (
                await conn.execute(
                    schema.players.insert()
                    .values(nickname="Ana", created=T0)
                    .returning(schema.players.c.id)
                )
            ).scalar_one()
            table_id = (
                await conn.execute(
                    schema.tables.insert()
                    .values(
                        token="invite",
                        public=False,
                        game="briscola-2",
                        rules={"match": "best-of-3"},
                        host=ana,
                        status="waiting",
                        version=0,
                        settings={"clock": 30},
                        created=T0,
                        updated=T0,
                    )
                    .returning(schema.tables.c.id)
                )
            ).scalar_one()
            await conn.execute(
                schema.seats.insert(),
                [
                    {"table_id": table_id, "seat": 0, "player": ana, "level": None},
                    {"table_id": table_id, "seat": 1, "player": None, "level": "beginner"},
                ],
            )
    finally:
        await engine.dispose()
    store = await Storage.open(url)
    try:
        async with store.engine.connect() as conn:
            head = (await conn.execute(sa.text("SELECT version_num FROM alembic_version"))).all()
        assert head == [(HEAD,)]
        assert await store.get_player(ana) == Player(ana, "Ana", T0)
        table = await store.get_table(table_id)
        assert (table.token, table.host, table.rules, table.settings, table.created) == (
            "invite",
            ana,
            {"match": "best-of-3"},
            {"clock": 30},
            T0,
        )
        assert table.seats == (Seat(ana), Seat(level="beginner"))
        await store.create_session(ana, token_hash(1))
        assert (await store.session_player(token_hash(1), timedelta(days=1))).id == ana
    finally:
        await store.close()


async def test_two_opens_at_once_both_succeed(url: str) -> None:
    stores = await asyncio.gather(Storage.open(url), Storage.open(url))
    try:
        ana = await stores[0].create_player("Ana")
        assert await stores[1].get_player(ana.id) == ana
    finally:
        for s in stores:
            await s.close()


def _sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


def _writer(path: Path) -> sqlite3.Connection:
    """Another program's connection to the database at ``path`` (SQLite's defaults: a
    rollback journal on a new database), usable from a timer's thread."""
    return sqlite3.connect(path, isolation_level=None, check_same_thread=False)


async def test_open_waits_for_a_fresh_database_another_program_is_writing(
    tmp_path: Path,
) -> None:
    """Turning a database to the write-ahead log needs its write lock, and SQLite does not
    wait for that lock (the busy timeout does not apply to it): the first opening of a
    database that another connection is writing waits until it is done, then succeeds."""
    path = tmp_path / "briscola.db"
    other = _writer(path)
    other.execute("BEGIN IMMEDIATE")
    other.execute("CREATE TABLE notes (text TEXT)")
    release = threading.Timer(1.0, other.execute, ("COMMIT",))
    release.start()
    try:
        store = await Storage.open(_sqlite_url(path))
    finally:
        release.join()
        other.close()
    try:
        ana = await store.create_player("Ana")
        assert await store.get_player(ana.id) == ana
        async with store.engine.connect() as conn:
            mode = (await conn.execute(sa.text("PRAGMA journal_mode"))).scalar()
        assert mode == "wal"
    finally:
        await store.close()


async def test_open_waits_out_a_lock_held_longer_than_the_busy_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holding the write lock (its migration, a long write) for longer than
    a connection's busy timeout: the migration step tries again until the lock is free."""
    path = tmp_path / "briscola.db"
    await (await Storage.open(_sqlite_url(path))).close()
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.1)
    other = _writer(path)
    other.execute("BEGIN IMMEDIATE")
    release = threading.Timer(1.0, other.execute, ("COMMIT",))
    release.start()
    try:
        store = await Storage.open(_sqlite_url(path))
    finally:
        release.join()
        other.close()
    await store.close()


async def test_open_gives_up_on_a_database_locked_for_too_long(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "briscola.db"
    await (await Storage.open(_sqlite_url(path))).close()
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.1)
    other = _writer(path)
    other.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        with pytest.raises(
            StorageError, match=r"locked for more than 0\.5 s.*another program"
        ) as e:
            await Storage.open(_sqlite_url(path), patience=0.5)
        assert time.monotonic() - started < 5
        assert str(path) in str(e.value)
    finally:
        other.rollback()
        other.close()


# Opens the same fresh databases (one a round, every round at the same moment as the other
# processes) from several tasks at once; prints the errors of each round as JSON.
OPENER = """
import asyncio, json, sys, time
from briscola.storage import Storage

async def opens(url, tasks, name):
    found = await asyncio.gather(
        *(Storage.open(url) for _ in range(tasks)), return_exceptions=True
    )
    errors = [f"{type(e).__name__}: {e}" for e in found if isinstance(e, BaseException)]
    for i, store in enumerate(s for s in found if isinstance(s, Storage)):
        try:
            await store.create_player(f"{name}-{i}")
        except Exception as e:
            errors.append(f"{type(e).__name__}: {e}")
        await store.close()
    return errors

folder, rounds, tasks, step, name = sys.argv[1:]
print("ready", flush=True)
start = float(sys.stdin.readline())
out = []
for i in range(int(rounds)):
    time.sleep(max(0.0, start + i * float(step) - time.time()))
    out.append(asyncio.run(opens(f"sqlite+aiosqlite:///{folder}/{i}.db", int(tasks), name)))
print(json.dumps(out), flush=True)
"""


async def test_a_fresh_database_opened_by_several_processes_and_tasks_at_once(
    tmp_path: Path,
) -> None:
    """Servers and migrations starting together: three processes, each opening the same
    fresh database from four tasks at once, round after round; every opening succeeds and
    each database keeps every player made in it."""
    import briscola

    rounds, processes, tasks = 6, 3, 4
    src = str(Path(briscola.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    children = [
        subprocess.Popen(
            [sys.executable, "-c", OPENER, str(tmp_path), str(rounds), str(tasks), "0.4", f"p{k}"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for k in range(processes)
    ]
    try:
        for child in children:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        start = time.time() + 0.2
        outputs = [child.communicate(f"{start}\n", timeout=120)[0] for child in children]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
    errors = [e for out in outputs for each in json.loads(out) for e in each]
    assert errors == []
    for i in range(rounds):
        store = await Storage.open(_sqlite_url(tmp_path / f"{i}.db"))
        try:
            async with store.engine.connect() as conn:
                names = (await conn.execute(sa.text("SELECT nickname FROM players"))).scalars()
                assert sorted(names) == sorted(
                    f"p{k}-{t}" for k in range(processes) for t in range(tasks)
                )
        finally:
            await store.close()


# -- data at rest --------------------------------------------------------------------------


@pytest.fixture
def shell_umask() -> Iterator[None]:
    """The umask of a normal shell (0o022: new files readable by everyone)."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def _modes(folder: Path) -> dict[str, int]:
    return {p.name: stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()}


@pytest.mark.usefixtures("shell_umask")
async def test_a_new_database_and_its_log_are_their_owners_alone(tmp_path: Path) -> None:
    """The database holds the deals of the hands in play: its file, its write-ahead log
    and the log's index are readable and writable by their owner alone."""
    store = await Storage.open(_sqlite_url(tmp_path / "briscola.db"))
    try:
        table_id, match = await playing_table(store, "briscola-2", {})
        await play_stored(store, table_id, match, random.Random(1), 4)
        assert _modes(tmp_path) == {
            "briscola.db": 0o600,
            "briscola.db-wal": 0o600,
            "briscola.db-shm": 0o600,
            "briscola.db.lock": 0o600,  # a restore's check (briscola.storage.backup)
        }
    finally:
        await store.close()


@pytest.mark.usefixtures("shell_umask")
async def test_a_database_open_to_others_is_made_private_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "briscola.db"
    await (await Storage.open(_sqlite_url(path))).close()
    other = sqlite3.connect(path)  # keeps the log and its index while it is open
    try:
        other.execute("CREATE TABLE notes (text TEXT)")
        other.commit()
        for name, mode in [("briscola.db", 0o644), ("briscola.db-wal", 0o664)]:
            os.chmod(tmp_path / name, mode)
        os.chmod(tmp_path / "briscola.db-shm", 0o666)
        with caplog.at_level(logging.WARNING, "briscola.storage"):
            await (await Storage.open(_sqlite_url(path))).close()
            assert set(_modes(tmp_path).values()) == {0o600}
            warned = [r for r in caplog.records if r.levelno == logging.WARNING]
            assert len(warned) == 1, warned
            for name in ("briscola.db (was 0644)", "briscola.db-wal", "briscola.db-shm"):
                assert name in warned[0].getMessage()
            caplog.clear()
            await (await Storage.open(_sqlite_url(path))).close()
            assert [r for r in caplog.records if r.levelno == logging.WARNING] == []
    finally:
        other.close()


async def test_unknown_database_url_is_refused() -> None:
    with pytest.raises(StorageError, match="unsupported database URL 'mysql"):
        await Storage.open("mysql://localhost/briscola")


# -- players and tables --------------------------------------------------------------------


async def test_players(store: Storage) -> None:
    ana = await store.create_player("  Ana ")
    assert ana.nickname == "Ana" and ana.created.tzinfo is not None
    assert await store.get_player(ana.id) == ana
    assert (await store.create_player("Ana")).id != ana.id  # nicknames need not be unique
    with pytest.raises(NotFound, match="no player 999"):
        await store.get_player(999)
    for bad in ("", "   ", "x" * 41):
        with pytest.raises(StorageError, match="1 to 40 characters"):
            await store.create_player(bad)


async def test_tables(store: Storage) -> None:
    ana = await store.create_player("Ana")
    private = await store.create_table(
        "briscola-2",
        {"match": "best-of-3", "last_trick": "allowed"},
        [Seat(ana.id), Seat(level="intermediate")],
        host=ana.id,
        public=False,
    )
    assert private.status == "waiting" and private.version == 0 and private.start is None
    assert private.seats == (Seat(ana.id), Seat(level="intermediate"))
    assert private.host == ana.id and not private.public
    assert private.rules == Rules.make("briscola-2", {"match": "best-of-3"}).overrides()
    assert await store.get_table(private.id) == private
    assert await store.table_by_token(private.token) == private
    public = await store.create_table("briscola-4", {}, [OPEN] * 4, host=None, public=True)
    assert len(public.token) >= 32 and public.token != private.token
    assert [t.id for t in await store.list_tables()] == [public.id]
    assert [t.id for t in await store.list_tables(public=None)] == [public.id, private.id]
    assert await store.list_tables(public=None, status="playing") == []
    assert await store.list_tables(public=None, status=("waiting", "playing")) == [public, private]
    with pytest.raises(NotFound, match="no table 999"):
        await store.get_table(999)
    with pytest.raises(NotFound, match="invite"):
        await store.table_by_token("guess")
    with pytest.raises(StorageError, match="status is one of"):
        await store.list_tables(status="lost")
    with pytest.raises(StorageError, match="briscola-2 has 2 seats, got 3"):
        await store.create_table("briscola-2", {}, [OPEN] * 3, host=None, public=True)
    with pytest.raises(StorageError, match=r"create_table: .*match"):
        await store.create_table(
            "briscola-2", {"match": "never"}, [OPEN] * 2, host=None, public=True
        )
    with pytest.raises(StorageError, match="create_table"):
        await store.create_table("poker", {}, [OPEN] * 2, host=None, public=True)
    made = await store.set_public(private.id, True)
    assert made.public and made.updated >= private.updated


async def test_seats(store: Storage) -> None:
    ana, bo = await store.create_player("Ana"), await store.create_player("Bo")
    table = await store.create_table(
        "briscola-3", {}, [OPEN, OPEN, Seat(level="beginner")], host=ana.id, public=True
    )
    assert (await store.take_seat(table.id, 0, ana.id)).seats[0] == Seat(ana.id)
    with pytest.raises(SeatTaken, match="seat 0 is taken"):
        await store.take_seat(table.id, 0, bo.id)
    with pytest.raises(SeatTaken, match="seat 2 is taken"):
        await store.take_seat(table.id, 2, bo.id)
    with pytest.raises(StorageError, match="seats 0 to 2, there is no seat 3"):
        await store.take_seat(table.id, 3, bo.id)
    with pytest.raises(StorageError, match="no seat -1"):
        await store.set_seat(table.id, -1, OPEN)
    # Two people rush for one open seat: exactly one gets it.
    results = await asyncio.gather(
        store.take_seat(table.id, 1, ana.id),
        store.take_seat(table.id, 1, bo.id),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["SeatTaken", "TableInfo"]
    seats = (await store.set_seat(table.id, 0, OPEN)).seats
    assert seats[0] == OPEN and seats[1] in (Seat(ana.id), Seat(bo.id))
    assert (await store.set_seat(table.id, 2, Seat(bo.id))).seats[2] == Seat(bo.id)
    with pytest.raises(ValueError, match="not both"):
        Seat(ana.id, "beginner")
    rules = Rules.make("briscola-3")
    match = Match(rules, random.Random(1))
    await store.start_table(table.id, match_start(match), dealt_hands(match))
    with pytest.raises(WrongStatus, match="playing: its seats are set"):
        await store.take_seat(table.id, 0, ana.id)
    # A computer player stands in for someone who left, at a table in play.
    assert (await store.set_seat(table.id, 2, Seat(level="beginner"))).seats[2].level


async def test_start_only_once(store: Storage) -> None:
    table_id, match = await playing_table(store, "briscola-2", {})
    info = await store.get_table(table_id)
    assert info.status == "playing" and info.start == {"dealer": 0, "seating": [0, 1]}
    with pytest.raises(WrongStatus, match="cannot start again"):
        await store.start_table(table_id, match_start(match), dealt_hands(match))
    hands = await store.hands(table_id)
    assert [(h.number, h.deal) for h in hands] == [(1, match.hand.deal.to_json())]
    assert hands[0].commitment is None and hands[0].salt is None


async def test_hands_keep_commitment_and_salt(store: Storage) -> None:
    table = await store.create_table("briscola-2", {}, [OPEN] * 2, host=None, public=True)
    match = Match(Rules.make("briscola-2"), random.Random(2))
    deal = match.hand.deal.to_json()
    await store.start_table(table.id, match_start(match), [NewHand(1, deal, "ab" * 32, "salt")])
    (hand,) = await store.hands(table.id)
    assert (hand.number, hand.deal, hand.commitment, hand.salt) == (1, deal, "ab" * 32, "salt")
    with pytest.raises(StorageError, match="next hand is number 2, got 5"):
        await store.append_action(
            table.id, 1, match.hand.legal_actions()[0].to_json(), dealt=[NewHand(5, deal)]
        )
    assert (await store.get_table(table.id)).version == 0  # nothing of it was stored


# -- the log -------------------------------------------------------------------------------


async def test_append_action_and_actions_since(store: Storage) -> None:
    table_id, match = await playing_table(store, "briscola-2", {})
    await play_stored(store, table_id, match, random.Random(3), 6)
    log = await store.actions_since(table_id)
    assert [a.version for a in log] == [1, 2, 3, 4, 5, 6]
    assert [a.action for a in log] == [m.to_json() for m in match.hand.moves]
    assert {a.hand for a in log} == {1} and all(a.at.tzinfo is not None for a in log)
    assert [a.version for a in await store.actions_since(table_id, 4)] == [5, 6]
    assert await store.actions_since(table_id, 6) == []
    assert (await store.get_table(table_id)).version == 6
    with pytest.raises(NotFound):
        await store.actions_since(999)


async def test_news_reads_only_the_parts_asked_for_after_what_the_follower_has(
    store: Storage,
) -> None:
    table_id, match = await playing_table(store, "briscola-2", {})
    await play_stored(store, table_id, match, random.Random(3), 6)
    ana = (await store.get_table(table_id)).seats[0].player
    await store.add_chat(table_id, ana, "ciao")
    await store.add_chat(table_id, ana, "tocca a te")
    await store.heartbeat("elsewhere", timedelta(minutes=1))
    await store.set_presence("elsewhere", table_id, 1, True)

    nothing = await store.news(table_id, table=False)
    assert (nothing.info, nothing.hands, nothing.actions, nothing.chat) == (None, [], [], [])
    assert nothing.elsewhere is None

    everything = await store.news(
        table_id, log=(0, 4), chat_after=0, presence=("here", timedelta(minutes=1))
    )
    assert everything.info is not None and everything.info.version == 6
    assert [h.number for h in everything.hands] == [1]
    assert [a.version for a in everything.actions] == [5, 6]
    assert [m.text for m in everything.chat] == ["ciao", "tocca a te"]
    assert everything.elsewhere == {1}

    caught_up = await store.news(
        table_id,
        table=False,
        log=(1, 6),
        chat_after=everything.chat[-1].id,
        presence=("elsewhere", timedelta(minutes=1)),  # its own seat is not elsewhere
    )
    assert (caught_up.hands, caught_up.actions, caught_up.chat) == ([], [], [])
    assert caught_up.elsewhere == set()


async def test_a_version_already_taken_or_skipped_is_stale(store: Storage) -> None:
    table_id, match = await playing_table(store, "briscola-2", {})
    action = match.hand.legal_actions()[0].to_json()
    await store.append_action(table_id, 1, action)
    for version in (1, 0, 3, -5):
        with pytest.raises(StaleVersion, match=f"version {version} is not the next one") as e:
            await store.append_action(table_id, version, action)
        assert e.value.current == 1
    assert len(await store.actions_since(table_id)) == 1


async def test_the_log_key_itself_refuses_a_second_write(store: Storage) -> None:
    """Below the API: the database's unique (table, version) key holds on its own."""
    table_id, match = await playing_table(store, "briscola-2", {})
    await store.append_action(table_id, 1, match.hand.legal_actions()[0].to_json())
    row = {"table_id": table_id, "version": 1, "hand": 1, "action": {}, "at": T0}
    with pytest.raises(IntegrityError):
        async with store.engine.begin() as conn:
            await conn.execute(actions.insert().values(**row))


async def test_no_action_at_a_table_not_playing(store: Storage) -> None:
    table = await store.create_table("briscola-2", {}, [OPEN] * 2, host=None, public=True)
    with pytest.raises(WrongStatus, match="waiting: no action is stored"):
        await store.append_action(table.id, 1, {"seat": 0, "play": "Ab"})
    with pytest.raises(NotFound):
        await store.append_action(999, 1, {"seat": 0, "play": "Ab"})


async def test_two_concurrent_writers_exactly_one_wins(url: str) -> None:
    """Two storages (two connection pools, as two server processes would have) append at
    the same version at once, round after round: each time exactly one wins."""
    a, b = await Storage.open(url), await Storage.open(url)
    try:
        table_id, match = await playing_table(a, "briscola-2", {})
        rng = random.Random(4)
        for version in range(1, 21):
            action = rng.choice(match.hand.legal_actions())
            logged = match.apply_logged(action).action.to_json()
            results = await asyncio.gather(
                a.append_action(table_id, version, logged),
                b.append_action(table_id, version, logged),
                return_exceptions=True,
            )
            won = [r for r in results if not isinstance(r, BaseException)]
            lost = [r for r in results if isinstance(r, BaseException)]
            assert len(won) == 1, results
            assert len(lost) == 1 and isinstance(lost[0], StaleVersion), results
        log = await b.actions_since(table_id)
        assert [x.version for x in log] == list(range(1, 21))
    finally:
        await a.close()
        await b.close()


async def test_a_rematch_asked_by_two_processes_at_once_is_made_once(url: str) -> None:
    """Both players ask for the rematch of a table at once, each at their own server
    process (two storages): one table is made, both are given it, and the old table
    points at it; asked again later, it is the same table."""
    a, b = await Storage.open(url), await Storage.open(url)
    try:
        ana, bea = await a.create_player("Ana"), await a.create_player("Bea")
        for round_ in range(5):
            old = await a.create_table(
                "briscola-2", {"match": "one-hand"}, [Seat(ana.id), Seat(bea.id)],
                host=ana.id, public=False, settings={"chat": "phrases"},
            )  # fmt: skip
            made = await asyncio.gather(
                a.create_rematch(old.id, {"chat": "phrases", "rematch_of": old.token}),
                b.create_rematch(old.id, {"chat": "phrases", "rematch_of": old.token}),
            )
            assert made[0].token == made[1].token, round_
            new = made[0]
            assert (new.game, new.rules, new.seats, new.host, new.public) == (
                old.game, old.rules, old.seats, old.host, old.public
            )  # fmt: skip
            assert new.status == "waiting" and new.settings["rematch_of"] == old.token
            assert (await b.get_table(old.id)).settings == {"chat": "phrases", "rematch": new.token}
            again = await b.create_rematch(old.id, {})
            assert again.id == new.id
        listed = await a.list_tables(public=None)
        assert len(listed) == 10  # five tables and their five rematches, none more
    finally:
        await a.close()
        await b.close()


async def test_a_new_table_takes_todays_defaults(store: Storage) -> None:
    """A new table's house rules not given take the game's defaults of today, not those
    older records are read with (briscolone follows suit now; its records before did not)."""
    ana = await store.create_player("Ana")
    seats = [Seat(ana.id), Seat(level="beginner")]
    table = await store.create_table("briscolone", {}, seats, host=ana.id, public=False)
    assert table.rules["follow_suit"] == "required"
    assert rules_from_json("briscolone", table.rules).option("follow_suit") == "required"
    assert rules_from_json("briscolone", {}).option("follow_suit") == "free"  # an old record


async def test_appends_stored_together_one_refused(store: Storage) -> None:
    """Appends that arrive together share one transaction (group commit); one refused
    (a stale version, a table not playing) leaves the others stored."""
    tables = [await playing_table(store, "briscola-2", {}) for _ in range(3)]
    logged = [m.apply_logged(m.hand.legal_actions()[0]).action.to_json() for _, m in tables]
    (a, _), (b, _), (c, _) = tables
    results = await asyncio.gather(
        store.append_action(a, 1, logged[0]),
        store.append_action(b, 2, logged[1]),  # version 1 is next: stale
        store.append_action(c, 1, logged[2]),
        store.append_action(999, 1, logged[2]),  # no such table
        return_exceptions=True,
    )
    assert [type(r).__name__ for r in results] == [
        "LoggedAction", "StaleVersion", "LoggedAction", "NotFound",
    ]  # fmt: skip
    assert [x.version for x in await store.actions_since(a)] == [1]
    assert await store.actions_since(b) == []
    assert [x.action for x in await store.actions_since(c)] == [logged[2]]
    # All well, all stored together.
    results = await asyncio.gather(
        *(store.append_action(t, 2 if t != b else 1, logged[0]) for t in (a, b, c))
    )
    assert [r.version for r in results] == [2, 1, 2]
    # One table's next two actions in one batch: both stored, in order.
    results = await asyncio.gather(
        store.append_action(a, 3, logged[0]), store.append_action(a, 4, logged[0])
    )
    assert [r.version for r in results] == [3, 4]
    assert [x.version for x in await store.actions_since(a)] == [1, 2, 3, 4]


async def test_appends_a_moment_apart_share_a_statement_on_postgresql_alone(
    store: Storage,
) -> None:
    """With ``gather`` set, PostgreSQL's appends made within that many seconds of the
    first are stored by one statement; SQLite stores each at once all the same (its
    append costs less than the wait would)."""
    tables = [await playing_table(store, "briscola-2", {}) for _ in range(3)]
    logged = [m.apply_logged(m.hand.legal_actions()[0]).action.to_json() for _, m in tables]
    sizes: list[int] = []
    if store._now is not None:
        sqlite_now = store._now
        real_now = sqlite_now.append

        def counted_now(batch: list[Any]) -> list[Any]:
            sizes.append(len(batch))
            return real_now(batch)

        sqlite_now.append = counted_now  # type: ignore[method-assign]
    else:
        real = store._append_batch

        async def counted(batch: list[Any]) -> list[Any]:
            sizes.append(len(batch))
            return await real(batch)

        store._append_batch = counted  # type: ignore[method-assign]

    async def apart(gather: float, version: int) -> list[int]:
        store.gather = gather
        sizes.clear()
        appends = []
        for (table, _), action in zip(tables, logged, strict=True):
            appends.append(asyncio.create_task(store.append_action(table, version, action)))
            await asyncio.sleep(0.01)
        assert [r.version for r in await asyncio.gather(*appends)] == [version] * 3
        return list(sizes)

    if store._now is not None:  # SQLite
        assert await apart(0.5, 1) == [1, 1, 1]
        stored = [1]
    else:
        assert await apart(0.5, 1) == [3]
        assert await apart(0.0, 2) == [1, 1, 1]
        stored = [1, 2]
    for table, _ in tables:
        assert [x.version for x in await store.actions_since(table)] == stored


# -- rebuilding a table --------------------------------------------------------------------

REBUILT = [
    ("briscola-2", {"match": "best-of-3"}),
    ("briscola-4", {"match": "best-of-3", "partners": "drawn", "communication": "signals"}),
    ("chiamata", {"throw_in": "yes"}),
    ("schembil", {}),
    ("briscola-6", {"communication": "conversation"}),
    ("briscola-3", {"trump_exchange": "seven"}),
]


@pytest.mark.parametrize(("game", "rules"), REBUILT, ids=[g for g, _ in REBUILT])
async def test_a_rebuilt_table_plays_on_identically(
    store: Storage, game: str, rules: dict[str, Any]
) -> None:
    table_id, match = await playing_table(store, game, rules, seed=5)
    rng = random.Random(6)
    await play_stored(store, table_id, match, rng, 40)
    hands = len(await store.hands(table_id))
    rebuilt = await store.load_match(table_id, deals=Deals(5, dealt=hands))
    assert rebuilt.to_record() == match.to_record()
    # Both play on with the same moves: the same events, views and records throughout.
    while not match.over:
        action = rng.choice(match.hand.legal_actions())
        assert rebuilt.hand.legal_actions() == match.hand.legal_actions()
        before = match.number
        ours, theirs = match.apply_logged(action), rebuilt.apply_logged(action)
        assert (ours.action, repr(ours.events)) == (theirs.action, repr(theirs.events))
        version = (await store.get_table(table_id)).version + 1
        await store.append_action(
            table_id, version, ours.action.to_json(), dealt=dealt_hands(match, before)
        )
    assert rebuilt.result() == match.result()
    final = await store.load_match(table_id)
    assert final.over and final.to_record() == match.to_record()


async def test_a_rebuilt_match_needs_a_deal_source_for_its_next_hand(store: Storage) -> None:
    table_id, match = await playing_table(store, "briscola-2", {"match": "best-of-3"})
    await play_stored(store, table_id, match, random.Random(7), 39)  # one card left
    rebuilt = await store.load_match(table_id)
    with pytest.raises(StorageError, match="give load_match a deal source"):
        rebuilt.apply(rebuilt.hand.legal_actions()[0])


async def test_a_log_that_does_not_replay_is_reported(store: Storage) -> None:
    table_id, match = await playing_table(store, "briscola-2", {})
    legal = {str(a.card) for a in match.hand.legal_actions()}  # type: ignore[attr-defined]
    stranger = next(c for c in ("Ab", "2c", "3d", "4s") if c not in legal)
    await store.append_action(table_id, 1, {"seat": 1, "play": stranger})
    with pytest.raises(StorageError, match=r"does not replay: hands\[0\]\.moves\[0\]"):
        await store.load_match(table_id)
    waiting = await store.create_table("briscola-2", {}, [OPEN] * 2, host=None, public=True)
    with pytest.raises(WrongStatus, match="no match yet"):
        await store.load_match(waiting.id)


# -- sessions ------------------------------------------------------------------------------


async def stored_seen(store: Storage, token: str) -> datetime | None:
    """The session's ``seen`` time as stored (``None``: no such session)."""
    async with store.engine.connect() as conn:
        q = sa.select(schema.sessions.c.seen).where(schema.sessions.c.token_hash == token)
        seen: datetime | None = (await conn.execute(q)).scalar()
        return seen


async def test_a_session_finds_its_player_until_it_ends(store: Storage) -> None:
    ana, bo = await store.create_player("Ana"), await store.create_player("Bo")
    for n, player in [(1, ana), (2, ana), (3, bo)]:
        await store.create_session(player.id, token_hash(n))
    assert await store.session_player(token_hash(1), DAY) == ana
    assert await store.session_player(token_hash(3), DAY) == bo
    with pytest.raises(NotFound, match="no session by that token: sign in again"):
        await store.session_player(token_hash(9), DAY)
    await store.end_session(token_hash(1))
    await store.end_session(token_hash(1))  # already gone: no error
    await store.end_session(token_hash(9))
    with pytest.raises(NotFound):
        await store.session_player(token_hash(1), DAY)
    assert await store.session_player(token_hash(2), DAY) == ana
    await store.create_session(ana.id, token_hash(4))
    await store.end_sessions(ana.id)  # every one of Ana's, none of Bo's
    for n in (2, 4):
        with pytest.raises(NotFound):
            await store.session_player(token_hash(n), DAY)
    assert await store.session_player(token_hash(3), DAY) == bo
    await store.end_sessions(ana.id)  # none left: no error


async def test_a_session_keeps_only_the_hash_of_a_token(store: Storage) -> None:
    ana = await store.create_player("Ana")
    with pytest.raises(NotFound, match="no player 999"):
        await store.create_session(999, token_hash(1))
    for not_a_hash in ("a-random-token-in-a-cookie", token_hash(1).upper(), token_hash(1)[:63]):
        with pytest.raises(StorageError, match="SHA-256 hex digest of its token"):
            await store.create_session(ana.id, not_a_hash)
        with pytest.raises(StorageError, match="SHA-256"):
            await store.session_player(not_a_hash, DAY)
    await store.create_session(ana.id, token_hash(1))
    with pytest.raises(StorageError, match="exists already: make a new random token"):
        await store.create_session(ana.id, token_hash(1))
    assert await store.session_player(token_hash(1), DAY) == ana
    with pytest.raises(StorageError, match="idle time must be positive"):
        await store.session_player(token_hash(1), timedelta(0))
    async with store.engine.connect() as conn:
        rows = (await conn.execute(sa.select(schema.sessions))).all()
    assert [(r.token_hash, r.player) for r in rows] == [(token_hash(1), ana.id)]
    assert rows[0].seen == rows[0].created and rows[0].created.tzinfo is not None


async def test_a_session_unused_longer_than_idle_expires(
    clocked: tuple[Storage, Clock],
) -> None:
    store, clock = clocked
    ana = await store.create_player("Ana")
    await store.create_session(ana.id, token_hash(1))
    clock.now = T0 + timedelta(hours=23)
    assert await store.session_player(token_hash(1), DAY) == ana  # seen again: a day more
    clock.now = T0 + timedelta(hours=46)
    assert await store.session_player(token_hash(1), DAY) == ana
    clock.now = T0 + timedelta(hours=46) + DAY  # exactly idle: still live
    assert await store.session_player(token_hash(1), DAY) == ana
    clock.now += DAY + timedelta(seconds=1)
    with pytest.raises(NotFound, match="expired"):
        await store.session_player(token_hash(1), DAY)
    assert await stored_seen(store, token_hash(1)) is None  # deleted
    with pytest.raises(NotFound, match="no session"):
        await store.session_player(token_hash(1), timedelta(days=400))


@pytest.mark.parametrize(
    ("idle", "step"),
    [(DAY, timedelta(minutes=24)), (timedelta(days=400), timedelta(hours=1))],
    ids=["a sixtieth of a day", "at most an hour"],
)
async def test_a_session_is_seen_again_in_steps(
    clocked: tuple[Storage, Clock], idle: timedelta, step: timedelta
) -> None:
    """Using a session writes its ``seen`` time only once it is a step old (a sixtieth of
    the idle time, at most an hour), so that each request does not cost a write."""
    store, clock = clocked
    ana = await store.create_player("Ana")
    await store.create_session(ana.id, token_hash(1))
    for at in (timedelta(minutes=1), step - timedelta(seconds=1), step):
        clock.now = T0 + at
        assert await store.session_player(token_hash(1), idle) == ana
        assert await stored_seen(store, token_hash(1)) == T0, at
    clock.now = T0 + step + timedelta(seconds=1)
    await store.session_player(token_hash(1), idle)
    assert await stored_seen(store, token_hash(1)) == clock.now


async def test_idle_sessions_are_dropped(clocked: tuple[Storage, Clock]) -> None:
    store, clock = clocked
    ana = await store.create_player("Ana")
    for n, hours in enumerate([0, 10, 30, 50]):
        clock.now = T0 + timedelta(hours=hours)
        await store.create_session(ana.id, token_hash(n))
    clock.now = T0 + timedelta(hours=50) + DAY  # the one of hour 30 is 44 hours old
    assert await store.drop_idle_sessions(timedelta(hours=44)) == 2
    assert await store.drop_idle_sessions(timedelta(hours=44)) == 0
    assert await stored_seen(store, token_hash(2)) == T0 + timedelta(hours=30)
    assert await store.session_player(token_hash(3), DAY) == ana
    for n in (0, 1):
        with pytest.raises(NotFound):
            await store.session_player(token_hash(n), timedelta(days=400))


async def test_a_player_is_renamed(store: Storage) -> None:
    ana = await store.create_player("Ana")
    await store.create_session(ana.id, token_hash(1))
    renamed = await store.rename_player(ana.id, "  Anna ")
    assert renamed == Player(ana.id, "Anna", ana.created)
    assert await store.get_player(ana.id) == renamed
    assert await store.session_player(token_hash(1), DAY) == renamed
    for bad in ("", "   ", "x" * 41):
        with pytest.raises(StorageError, match="1 to 40 characters"):
            await store.rename_player(ana.id, bad)
    assert (await store.get_player(ana.id)).nickname == "Anna"
    with pytest.raises(NotFound, match="no player 999"):
        await store.rename_player(999, "Bo")


async def test_count_public_open(clocked: tuple[Storage, Clock]) -> None:
    """The public tables a person hosts that are open: playing, or waiting and changed
    since the time given; not private ones, finished ones, or someone else's."""
    store, clock = clocked
    ana, bo = await store.create_player("Ana"), await store.create_player("Bo")

    async def table(host: int, *, public: bool = True, at: timedelta) -> int:
        clock.now = T0 + at
        made = await store.create_table("briscola-2", {}, [OPEN, OPEN], host=host, public=public)
        return made.id

    await table(ana.id, at=timedelta(hours=5))  # waiting, changed lately
    await table(ana.id, at=timedelta(hours=4))  # waiting, changed at the cut: counts
    await table(ana.id, at=timedelta(hours=1))  # waiting, left alone
    await table(ana.id, public=False, at=timedelta(hours=5))
    await table(bo.id, at=timedelta(hours=5))
    playing = await table(ana.id, at=timedelta(hours=1))
    match = Match(Rules.make("briscola-2"), random.Random(1), deals=Deals(1))
    await store.start_table(playing, match_start(match), dealt_hands(match))
    finished = await table(ana.id, at=timedelta(hours=1))
    match = Match(Rules.make("briscola-2"), random.Random(2), deals=Deals(2))
    await store.start_table(finished, match_start(match), dealt_hands(match))
    await store.finish_table(finished, match.to_record())
    since = T0 + timedelta(hours=4)
    assert await store.count_public_open(ana.id, since) == 3
    assert await store.count_public_open(bo.id, since) == 1
    assert await store.count_public_open(ana.id, T0) == 4
    assert await store.count_public_open(999, since) == 0
    with pytest.raises(StorageError, match="timezone"):
        await store.count_public_open(ana.id, datetime(2026, 12, 1))


# -- finished matches and history ----------------------------------------------------------


async def test_finished_matches_and_history(store: Storage) -> None:
    ana, bo = await store.create_player("Ana"), await store.create_player("Bo")
    ids = []
    for seats in ([Seat(ana.id), Seat(bo.id)], [Seat(level="random"), Seat(ana.id)]):
        table = await store.create_table("briscola-2", {}, seats, host=ana.id, public=False)
        match = Match(Rules.make("briscola-2"), random.Random(len(ids)), deals=Deals(len(ids)))
        await store.start_table(table.id, match_start(match), dealt_hands(match))
        await play_stored(store, table.id, match, random.Random(1), None)
        done = await store.finish_table(table.id, match.to_record())
        assert done.players == {i: s.player for i, s in enumerate(seats) if s.player}
        assert (await store.get_table(table.id)).status == "finished"
        assert await store.finished_match(table.id) == done
        ids.append(table.id)
        with pytest.raises(WrongStatus, match="only a match in play ends"):
            await store.finish_table(table.id, match.to_record())
        with pytest.raises(WrongStatus, match="finished: no action"):
            await store.append_action(table.id, 1000, {"seat": 0, "play": "Ab"})
    assert [m.table_id for m in await store.history(ana.id)] == ids[::-1]
    assert [m.table_id for m in await store.history(bo.id)] == ids[:1]
    assert [m.table_id for m in await store.history(ana.id, limit=1)] == ids[1:]
    assert (await store.history(bo.id))[0].record["game"] == "briscola-2"
    assert await store.history(999) == []
    with pytest.raises(NotFound, match="no finished match"):
        await store.finished_match(999)


async def test_who_left_mid_match_is_among_its_players(store: Storage) -> None:
    ana, bo, cy = [await store.create_player(n) for n in ("Ana", "Bo", "Cy")]
    table = await store.create_table(
        "briscola-2", {}, [Seat(ana.id), Seat(bo.id)], host=ana.id, public=False
    )
    match = Match(Rules.make("briscola-2"), random.Random(3), deals=Deals(3))
    await store.start_table(table.id, match_start(match), dealt_hands(match))
    await store.set_seat(table.id, 0, Seat(level="random"))  # Ana left; a stand-in finished
    await play_stored(store, table.id, match, random.Random(1), None)
    # Seats out of the table, or seated already, or a player there at the end, are not added.
    left = {0: ana.id, 1: cy.id, 5: cy.id}
    done = await store.finish_table(table.id, match.to_record(), left=left)
    assert done.players == {0: ana.id, 1: bo.id}
    assert [m.table_id for m in await store.history(ana.id)] == [table.id]
    assert await store.history(cy.id) == []


async def test_a_start_may_seat_the_players_anew(store: Storage) -> None:
    ana, bo = await store.create_player("Ana"), await store.create_player("Bo")
    seats = [Seat(ana.id), Seat(bo.id), Seat(level="random"), Seat(level="strong")]
    rules = Rules.make("briscola-4", {"partners": "drawn"})
    table = await store.create_table(
        "briscola-4", rules.overrides(), seats, host=ana.id, public=False
    )
    match = Match(rules, random.Random(5))
    drawn = [seats[chose] for chose in match.seating]
    started = await store.start_table(table.id, match_start(match), dealt_hands(match), seats=drawn)
    assert list(started.seats) == drawn == list((await store.get_table(table.id)).seats)
    other = await store.create_table("briscola-4", {}, seats, host=ana.id, public=False)
    with pytest.raises(StorageError, match="has 4 seats, got 2"):
        await store.start_table(other.id, match_start(match), [], seats=seats[:2])
    assert (await store.get_table(other.id)).status == "waiting"  # nothing changed


# -- deadlines and chat --------------------------------------------------------------------


async def test_deadlines(store: Storage) -> None:
    t1, _ = await playing_table(store, "briscola-2", {})
    t2, _ = await playing_table(store, "briscola-4", {})
    await store.set_deadline(t1, 0, "move", T0 + timedelta(seconds=30), version=3)
    await store.set_deadline(t2, 1, "move", T0 + timedelta(seconds=10))
    await store.set_deadline(t2, 3, "away", T0 + timedelta(minutes=5))
    # Setting a deadline again moves it; a time in another zone is the same instant.
    cet = datetime(2026, 12, 1, 10, 0, 20, tzinfo=__import__("zoneinfo").ZoneInfo("Europe/Rome"))
    moved = await store.set_deadline(t1, 0, "move", cet, version=4)
    assert moved.due == T0 + timedelta(seconds=20)
    due = await store.deadlines_due(T0 + timedelta(seconds=20))
    assert [(d.table_id, d.seat, d.kind, d.due, d.version) for d in due] == [
        (t2, 1, "move", T0 + timedelta(seconds=10), None),
        (t1, 0, "move", T0 + timedelta(seconds=20), 4),
    ]
    assert all(d.due.tzinfo is not None for d in due)
    assert await store.deadlines_due(T0) == []
    assert len(await store.deadlines_due(T0 + timedelta(hours=1))) == 3
    assert await store.clear_deadlines(t2, seat=1) == 1
    assert await store.clear_deadlines(t2, kind="move") == 0
    assert await store.clear_deadlines(t1) == 1
    assert [(d.table_id, d.kind) for d in await store.deadlines_due(T0 + timedelta(hours=1))] == [
        (t2, "away")
    ]
    with pytest.raises(StorageError, match="timezone"):
        await store.set_deadline(t1, 0, "move", datetime(2026, 12, 1))


async def test_chat(store: Storage) -> None:
    ana = await store.create_player("Ana")
    table = await store.create_table("briscola-2", {}, [OPEN] * 2, host=ana.id, public=True)
    other = await store.create_table("briscola-2", {}, [OPEN] * 2, host=ana.id, public=True)
    sent = [await store.add_chat(table.id, ana.id, f"<b>{i}</b> ciao") for i in range(5)]
    await store.add_chat(other.id, None, "elsewhere")
    assert await store.chat(table.id) == sent
    assert await store.chat(table.id, after=sent[2].id) == sent[3:]
    assert await store.chat(table.id, limit=2) == sent[:2]
    assert await store.chat(table.id, limit=2, newest=True) == sent[3:]  # still oldest first
    assert sent[0].text == "<b>0</b> ciao"  # kept as given: the server escapes
    with pytest.raises(NotFound):
        await store.add_chat(999, ana.id, "hello")


def test_storage_uses_only_the_engine_and_no_http() -> None:
    """The layer's line: of the project, storage imports only the engine and itself; of
    the web, nothing."""
    import ast
    from pathlib import Path

    import briscola.storage

    root = Path(briscola.storage.__file__).parent
    found = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
    ours = {m for m in found if m.startswith("briscola")}
    assert ours and all(m.startswith(("briscola.engine", "briscola.storage")) for m in ours)
    web = ("fastapi", "starlette", "uvicorn", "httpx", "websockets", "aiohttp")
    assert not [m for m in found if m.split(".")[0] in web]


async def test_a_tables_settings_are_kept_and_replaced(url: str) -> None:
    store = await Storage.open(url)
    try:
        table = await store.create_table(
            "briscola-2", {}, [OPEN, OPEN], host=None, public=True, settings={"clock": 30}
        )
        assert (await store.get_table(table.id)).settings == {"clock": 30}
        await store.set_settings(table.id, {"clock": None, "level": "beginner"})
        assert (await store.get_table(table.id)).settings == {"clock": None, "level": "beginner"}
        plain = await store.create_table("briscola-2", {}, [OPEN, OPEN], host=None, public=True)
        assert plain.settings == {}
    finally:
        await store.close()


async def test_a_connection_asyncpg_left_broken_is_not_handed_out_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When PostgreSQL ends a session in the middle of a transaction (it restarts), asyncpg
    may leave the connection open but broken ("cannot switch to state ...; another
    operation is in progress"): the pool drops it, and the next transaction works."""
    asyncpg = pytest.importorskip("asyncpg")
    from sqlalchemy.dialects.postgresql.asyncpg import AsyncAdapt_asyncpg_connection as Adapted

    async with database("postgresql") as url:
        assert url is not None
        store = await Storage.open(url)
        try:
            real = Adapted._prepare
            calls = 0

            async def broken_once(self: Any, *args: Any, **kw: Any) -> Any:
                nonlocal calls
                calls += 1
                if calls == 1:
                    raise asyncpg.exceptions.InternalClientError(
                        "cannot switch to state 12; another operation (2) is in progress"
                    )
                return await real(self, *args, **kw)

            monkeypatch.setattr(Adapted, "_prepare", broken_once)
            async with store.engine.connect() as conn:
                with pytest.raises(sa.exc.DBAPIError):
                    await conn.execute(sa.text("SELECT 1"))
                assert conn.invalidated  # not given back to the pool
            async with store.engine.connect() as conn:
                assert (await conn.execute(sa.text("SELECT 1"))).scalar() == 1
        finally:
            await store.close()


async def test_a_clock_of_a_version_gone_by_is_not_claimed_but_cleared(store: Storage) -> None:
    """A move's clock set at a version fires only while the table is still there: once a
    move was stored (made in time, or by another process whose clock ran out), claiming
    it wins nothing, and it goes."""
    table_id, match = await playing_table(store, "briscola-2", {})
    await play_stored(store, table_id, match, random.Random(7), 2)
    lease = timedelta(seconds=30)
    past = datetime.now(UTC) - timedelta(seconds=1)
    await store.set_deadline(table_id, 0, "move", past, version=2)
    (due,) = await store.deadlines_due(datetime.now(UTC))
    await play_stored(store, table_id, match, random.Random(8), 1)  # version 3
    assert not await store.claim_deadline(due, lease)
    assert await store.deadlines_due(datetime.now(UTC) + timedelta(hours=1)) == []
    await store.set_deadline(table_id, 1, "move", past, version=3)
    (due,) = await store.deadlines_due(datetime.now(UTC))
    assert await store.claim_deadline(due, lease)  # at its version: won, once
    assert not await store.claim_deadline(due, lease)


async def test_a_computer_players_move_is_claimed_once_and_never_for_a_version_gone_by(
    store: Storage,
) -> None:
    """Of the processes that would make a computer player's move at a version, one claim
    wins; once the move is stored and its claim cleared (as the process that made it
    does), a process behind the log that claims the move at that version wins nothing,
    so that it does not make the move a second time."""
    table_id, match = await playing_table(store, "briscola-2", {})
    await play_stored(store, table_id, match, random.Random(3), 2)
    lease = timedelta(seconds=30)
    assert await store.claim_turn(table_id, 0, 2, lease)
    assert not await store.claim_turn(table_id, 0, 2, lease)  # another process: lost
    await play_stored(store, table_id, match, random.Random(4), 1)  # the move, version 3
    await store.clear_deadline(table_id, 0, "bot", 2)
    assert not await store.claim_turn(table_id, 0, 2, lease)  # behind the log: in vain
    assert not await store.claim_turn(table_id, 1, 2, lease)
    assert await store.claim_turn(table_id, 1, 3, lease)  # the table's version: won
    (claim,) = await store.deadlines_due(datetime.now(UTC) + 2 * lease)
    assert (claim.seat, claim.kind, claim.version) == (1, "bot", 3)
    assert claim.due > datetime.now(UTC) + lease / 2


# -- the log's appends on SQLite's own driver (storage/sqlite_log.py) --------------------------


def test_a_time_is_written_on_sqlite_as_sqlalchemy_writes_it() -> None:
    write = sqlite_dialect.DATETIME().bind_processor(sqlite_dialect.dialect())
    assert write is not None
    for at in (
        datetime(2026, 12, 4, 21, 30, 5, 123456, tzinfo=UTC),
        datetime(2026, 1, 1, 0, 0, 0, 0, tzinfo=UTC),  # no microseconds: still six zeros
    ):
        assert sqlite_time(at) == write(at.replace(tzinfo=None))


async def test_sqlite_appends_across_a_new_hand_read_back_whole(tmp_path: Path) -> None:
    store = await Storage.open(f"sqlite+aiosqlite:///{tmp_path}/briscola.db")
    try:
        table_id, match = await playing_table(store, "briscola-2", {"match": "hands:3"})
        rng, sent = random.Random(5), []
        for version in range(1, 46):  # a hand of 40 cards, then 5 of the next
            before = match.number
            logged = match.apply_logged(rng.choice(match.hand.legal_actions()))
            sent.append(logged.action.to_json())
            await store.append_action(table_id, version, sent[-1], dealt=dealt_hands(match, before))
        log = await store.actions_since(table_id)
        assert [a.action for a in log] == sent
        assert [a.hand for a in log] == [1] * 40 + [2] * 5
        assert all(a.at.tzinfo is UTC for a in log)
        assert [h.number for h in await store.hands(table_id)] == [1, 2]
        assert (await store.get_table(table_id)).version == 45
        with pytest.raises(StaleVersion):
            await store.append_action(table_id, 45, sent[-1])
    finally:
        await store.close()


async def test_a_sqlite_database_locked_elsewhere_waits_off_the_event_loop(
    tmp_path: Path,
) -> None:
    path = tmp_path / "briscola.db"
    store = await Storage.open(f"sqlite+aiosqlite:///{path}")
    other = sqlite3.connect(path, isolation_level=None)
    try:
        table_id, match = await playing_table(store, "briscola-2", {})
        await play_stored(store, table_id, match, random.Random(1), 2)
        other.execute("BEGIN IMMEDIATE")  # another program holds SQLite's write lock
        action = match.hand.legal_actions()[0].to_json()
        stored = asyncio.create_task(store.append_action(table_id, 3, action))
        ticks, started = 0, time.monotonic()
        while time.monotonic() - started < 0.5:
            await asyncio.sleep(0.01)
            ticks += 1
        assert not stored.done()  # the append waits for the lock ...
        assert ticks >= 20  # ... and the event loop goes on meanwhile
        other.execute("COMMIT")
        logged = await asyncio.wait_for(stored, 10)
        assert (logged.version, logged.action) == (3, action)
        assert [a.version for a in await store.actions_since(table_id)] == [1, 2, 3]
    finally:
        other.close()
        await store.close()
