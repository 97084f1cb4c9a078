"""Each finished hand's analysis kept in the database, on SQLite and PostgreSQL."""

from __future__ import annotations

from briscola.storage import OPEN, Seat, Storage


async def test_a_hands_analysis_is_kept_once(store: Storage) -> None:
    """Kept by table, hand and level; the first kept stays (two processes computing one
    at once store the same), and it survives the storage opened again."""
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
