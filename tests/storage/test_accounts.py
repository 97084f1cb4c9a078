"""A person's sessions, listed by device and ended one at a time or all at once, and the
one-time codes that bring another device in: on SQLite and on PostgreSQL (the fixtures
of test_store)."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from briscola.storage import NotFound, Storage, StorageError, schema
from briscola.storage import store as store_module
from storekit import DAY, T0, Clock, token_hash

MINUTES_5 = timedelta(minutes=5)


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


async def test_a_persons_sessions_are_listed_by_device_last_seen_first(
    clocked: tuple[Storage, Clock],
) -> None:
    store, clock = clocked
    ana, bo = await store.create_player("Ana"), await store.create_player("Bo")
    await store.create_session(ana.id, token_hash(1), "Firefox on Android")
    clock.now = T0 + timedelta(hours=2)
    await store.create_session(ana.id, token_hash(2), "Chrome on Windows " + "x" * 200)
    await store.create_session(bo.id, token_hash(3), "Safari on iPhone")
    clock.now = T0 + timedelta(hours=3)
    await store.create_session(ana.id, token_hash(4))  # no device named
    listed = await store.sessions_of(ana.id, DAY)
    assert [s.token_hash for s in listed] == [token_hash(n) for n in (4, 2, 1)]
    assert [s.device for s in listed][:2] == [None, "Chrome on Windows " + "x" * 82]
    assert listed[2].device == "Firefox on Android" and listed[2].created == T0
    clock.now = T0 + DAY + timedelta(hours=1)  # the first is past its idle time: not live
    assert [s.token_hash for s in await store.sessions_of(ana.id, DAY)] == [
        token_hash(4),
        token_hash(2),
    ]
    assert await store.sessions_of(999, DAY) == []


async def test_a_session_is_ended_by_its_own_player_alone(store: Storage) -> None:
    ana, bo = await store.create_player("Ana"), await store.create_player("Bo")
    await store.create_session(ana.id, token_hash(1), "phone")
    await store.create_session(ana.id, token_hash(2), "laptop")
    await store.create_session(bo.id, token_hash(3), "Bo's")
    phone, bos = (
        (await store.sessions_of(ana.id, DAY))[-1],
        (await store.sessions_of(bo.id, DAY))[0],
    )
    with pytest.raises(NotFound, match=f"you have no session {bos.id}"):
        await store.end_session_of(ana.id, bos.id)  # Bo's is not Ana's to end
    assert await store.session_player(token_hash(3), DAY) == bo
    assert await store.end_session_of(ana.id, phone.id) == token_hash(1)
    with pytest.raises(NotFound):
        await store.session_player(token_hash(1), DAY)
    with pytest.raises(NotFound, match="ended already"):
        await store.end_session_of(ana.id, phone.id)
    assert await store.session_player(token_hash(2), DAY) == ana
    assert await store.session_hashes([token_hash(n) for n in (1, 2, 3)]) == {
        token_hash(2),
        token_hash(3),
    }
    assert sorted(await store.end_sessions(ana.id)) == [token_hash(2)]
    assert await store.end_sessions(ana.id) == []
    assert await store.session_hashes([]) == set()
    many = [token_hash(n) for n in range(100, 2600)]  # in three statements
    assert await store.session_hashes([*many, token_hash(3)]) == {token_hash(3)}


async def test_a_code_signs_in_once_and_only_while_it_lives(
    clocked: tuple[Storage, Clock],
) -> None:
    store, clock = clocked
    ana, bo = await store.create_player("Ana"), await store.create_player("Bo")
    await store.create_link_code(ana.id, code_hash("K7QM4XPA"), MINUTES_5)
    await store.create_link_code(bo.id, code_hash("BOBOBOBO"), MINUTES_5)
    with pytest.raises(NotFound, match="mistyped, used already or too old"):
        await store.use_link_code(code_hash("K7QM4XPB"))
    assert await store.use_link_code(code_hash("K7QM4XPA")) == ana
    with pytest.raises(NotFound):  # once
        await store.use_link_code(code_hash("K7QM4XPA"))
    await store.create_link_code(ana.id, code_hash("FIRSTONE"), MINUTES_5)
    await store.create_link_code(ana.id, code_hash("SECONDAA"), MINUTES_5)
    with pytest.raises(NotFound):  # a new code ends the one before
        await store.use_link_code(code_hash("FIRSTONE"))
    clock.now = T0 + MINUTES_5  # exactly its lifetime: gone
    with pytest.raises(NotFound):
        await store.use_link_code(code_hash("SECONDAA"))
    with pytest.raises(NotFound):
        await store.use_link_code(code_hash("BOBOBOBO"))
    await store.drop_idle_sessions(DAY)  # the sweep drops the codes past their time
    async with store.engine.connect() as conn:
        assert (await conn.execute(sa.select(schema.link_codes))).all() == []


async def test_a_code_is_kept_by_its_digest_and_its_player_must_exist(
    store: Storage,
) -> None:
    ana = await store.create_player("Ana")
    with pytest.raises(StorageError, match="one-time code is kept by the SHA-256"):
        await store.create_link_code(ana.id, "K7QM4XPA", MINUTES_5)
    with pytest.raises(StorageError, match="lifetime must be positive"):
        await store.create_link_code(ana.id, code_hash("A"), timedelta(0))
    with pytest.raises(NotFound, match="no player 999"):
        await store.create_link_code(999, code_hash("A"), MINUTES_5)
    with pytest.raises(StorageError, match="SHA-256"):
        await store.use_link_code("K7QM4XPA")


async def test_an_upgrade_from_0004_keeps_the_sessions(url: str) -> None:
    """A database at migration 0004 with a signed-in player, upgraded: the session still
    works, with no device named."""
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(store_module._upgrade, "0004")
            ana = (
                await conn.execute(
                    sa.text(
                        "INSERT INTO players (nickname, created) VALUES ('Ana', :t) RETURNING id"
                    ),
                    {"t": T0.replace(tzinfo=None) if url.startswith("sqlite") else T0},
                )
            ).scalar_one()
            await conn.execute(
                sa.text(
                    "INSERT INTO sessions (token_hash, player, created, seen) "
                    "VALUES (:h, :p, :t, :t)"
                ),
                {
                    "h": token_hash(1),
                    "p": ana,
                    "t": T0.replace(tzinfo=None) if url.startswith("sqlite") else T0,
                },
            )
    finally:
        await engine.dispose()
    store = await Storage.open(url, clock=Clock(T0 + timedelta(hours=1)))
    try:
        assert (await store.session_player(token_hash(1), DAY)).nickname == "Ana"
        [session] = await store.sessions_of(ana, DAY)
        assert (session.device, session.created) == (None, T0)
    finally:
        await store.close()


async def test_a_deleted_account_leaves_its_seats_in_old_matches_under_no_name(
    store: Storage,
) -> None:
    from briscola.storage import OPEN, Seat

    ana, bo, cy = [await store.create_player(n) for n in ("Ana", "Bo", "Cy")]
    await store.create_session(ana.id, token_hash(1), "phone")
    await store.create_session(ana.id, token_hash(2), "laptop")
    await store.create_session(bo.id, token_hash(3))
    await store.add_passkey(ana.id, "cred-ana", b"key", 0, None, None)
    await store.create_link_code(ana.id, code_hash("ANACODE1"), MINUTES_5)
    rossi = await store.create_family(ana.id, "Rossi")
    await store.create_invite(rossi.id, ana.id, token_hash(7), timedelta(days=1))
    await store.join_family(token_hash(7), bo.id)
    await store.join_family(token_hash(7), cy.id)
    waiting = await store.create_table(
        "briscola-2", {}, [Seat(ana.id), OPEN], host=ana.id, public=False
    )
    ended = await store.delete_account(ana.id)
    assert sorted(ended) == sorted([token_hash(1), token_hash(2)])
    for n in (1, 2):
        with pytest.raises(NotFound):
            await store.session_player(token_hash(n), DAY)
    assert await store.session_player(token_hash(3), DAY) == bo
    assert await store.passkeys_of(ana.id) == []
    with pytest.raises(NotFound):
        await store.use_link_code(code_hash("ANACODE1"))
    assert (await store.get_player(ana.id)).nickname == "Anonymous"
    # Bo, who joined first after her, is the family's admin now
    assert [(m.nickname, m.role) for m in await store.members(rossi.id)] == [
        ("Bo", "admin"),
        ("Cy", "member"),
    ]
    assert (await store.get_table(waiting.id)).seats == (OPEN, OPEN)
    with pytest.raises(NotFound, match="deleted"):
        await store.delete_account(ana.id)
    with pytest.raises(NotFound):  # no new session for a deleted account
        await store.create_session(ana.id, token_hash(9))
