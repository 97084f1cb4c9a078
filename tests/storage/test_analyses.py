"""Each finished hand's analysis kept in the database, on SQLite and PostgreSQL."""

from __future__ import annotations

from briscola.storage import OPEN, Seat, Storage


async def test_a_hands_analysis_is_kept_once(store: Storage) -> None:
    """Kept by table, hand, level and what it was computed from; the first kept stays
    (two processes computing one at once store the same), and it survives the storage
    opened again."""
    player = await store.create_player("Ana")
    info = await store.create_table(
        "briscola-2", {}, [Seat(player.id), OPEN], host=player.id, public=False
    )
    assert await store.analysis(info.id, 1, "strong") is None
    await store.keep_analysis(info.id, 1, "strong", {"decisions": [1]})
    await store.keep_analysis(info.id, 1, "strong", {"decisions": [2]})
    await store.keep_analysis(info.id, 1, "champion", {"decisions": [3]})
    assert await store.analysis(info.id, 1, "strong") == {"decisions": [1]}
    assert await store.analysis(info.id, 1, "champion") == {"decisions": [3]}
    assert await store.analysis(info.id, 2, "strong") is None
    # the values with every card seen are another analysis, kept beside
    assert await store.analysis(info.id, 1, "strong", "all") is None
    await store.keep_analysis(info.id, 1, "strong", {"seen": "all"}, "all")
    assert await store.analysis(info.id, 1, "strong", "all") == {"seen": "all"}
    assert await store.analysis(info.id, 1, "strong") == {"decisions": [1]}


async def test_an_analysis_of_an_older_version_is_replaced(store: Storage) -> None:
    """One kept by an older version of the analysis (before version 2 it did not say its
    version) gives way to a newer one; a newer one is not replaced by an older one."""
    player = await store.create_player("Ana")
    info = await store.create_table(
        "briscola-2", {}, [Seat(player.id), OPEN], host=player.id, public=False
    )
    await store.keep_analysis(info.id, 1, "strong", {"decisions": [1]})
    await store.keep_analysis(info.id, 1, "strong", {"version": 2, "decisions": [2]})
    assert await store.analysis(info.id, 1, "strong") == {"version": 2, "decisions": [2]}
    await store.keep_analysis(info.id, 1, "strong", {"version": 2, "decisions": [3]})
    await store.keep_analysis(info.id, 1, "strong", {"decisions": [4]})
    assert await store.analysis(info.id, 1, "strong") == {"version": 2, "decisions": [2]}
    await store.keep_analysis(info.id, 1, "strong", {"version": 3, "decisions": [5]})
    assert await store.analysis(info.id, 1, "strong") == {"version": 3, "decisions": [5]}
