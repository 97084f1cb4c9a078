"""People's nicknames as the tables show them, the same in every server process.

A table shows the nicknames of the people seated at it (its ``table`` messages, ``GET
/api/tables/T``) and of the authors of its chat lines. A process keeps them once, by
player id (:attr:`Tables.names <briscola.server.tables.Tables.names>`). A rename or a
deleted account changes a nickname in the process that was asked (:func:`renamed`): its
tables that seat the person send their connections a ``table`` message, and the wake-up
:func:`name_key` tells the other processes sharing the database, each of which reads the
nickname again if it knows the person (:func:`heard`) and tells its own connections. A
wake-up may be lost (Redis away): a process whose subscription comes back, or which looks
at the tables while Redis is away, reads every nickname it knows again (:func:`relearn`).

No two people at one table, nor two members of a family, may have nicknames that look
alike (:func:`check_apart`, :func:`check_rename`): they would be mistaken for each other.

A chat line is kept with its author's id (:class:`~briscola.server.table.chat.HeldLine`)
and named as it is sent (:func:`~briscola.server.table.chat.sent_line`), not as it was
said: a line said before a rename is sent with the new name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from briscola.server.broadcast import Broadcaster
from briscola.server.errors import Refused
from briscola.server.table.chat import HeldLine
from briscola.server.table.writer import LiveTable
from briscola.storage import NotFound, Storage
from briscola.storage.accounts import ANONYMOUS
from briscola.words.lookalikes import looks_like


class Tables(Protocol):
    """What this module needs of the process's tables
    (:class:`~briscola.server.tables.Tables`)."""

    live: dict[str, LiveTable]
    names: dict[int, str]
    storage: Storage
    broadcaster: Broadcaster

    async def learn_names(self, players: Sequence[int | None]) -> dict[int, str]: ...


KEY = "name:"
"""The wake-up key of a person's nickname changed: this, then their player id."""


def name_key(player: int) -> str:
    """The wake-up key that tells the other processes ``player``'s nickname changed."""
    return f"{KEY}{player}"


def shown(live: LiveTable) -> set[int]:
    """The players whose nicknames ``live`` shows: those seated, those connected, and the
    authors of the chat lines it keeps."""
    authors = {
        line.player
        for line in live.chat.lines
        if isinstance(line, HeldLine) and line.player is not None
    }
    return live.presence.players() | authors


async def show(tables: Tables, players: Iterable[int]) -> None:
    """The nicknames of ``players`` changed: each table loaded here that seats one of them
    sends its connections a ``table`` message (the lines of its chat name them as they are
    sent)."""
    players = set(players)
    for live in list(tables.live.values()):
        if any(live.seat_of(p) is not None for p in players):
            live.meta += 1
            await tables.broadcaster.wake(live.token)


def check_apart(player: int, nickname: str, others: Mapping[int, str]) -> None:
    """:class:`Refused` (``nickname_alike``) when ``nickname``, ``player``'s, looks like
    the nickname of another player among ``others`` (by player id: those at one table, or
    in one family), as :func:`~briscola.words.lookalikes.looks_like` tells: then people
    could mistake one for the other."""
    for other, name in others.items():
        if other != player and name != ANONYMOUS and looks_like(nickname, [name]):
            raise Refused(
                "nickname_alike",
                f"your nickname and {name!r} look alike, and you would play at one table or "
                "belong to one family: choose another nickname, so that nobody mistakes one "
                "of you for the other",
                409,
                values={"nickname": name},
            )


async def check_rename(tables: Tables, player: int, nickname: str) -> None:
    """:func:`check_apart` for ``player`` renamed ``nickname``: against the members of
    each of their families, and the people seated with them at each table not finished
    that this process has loaded."""
    for family, _ in await tables.storage.families_of(player):
        members = await tables.storage.members(family.id)
        check_apart(player, nickname, {m.player: m.nickname for m in members})
    for live in list(tables.live.values()):
        if live.info.status != "finished" and live.seat_of(player) is not None:
            seated = await tables.learn_names([s.player for s in live.info.seats])
            check_apart(player, nickname, seated)


async def renamed(tables: Tables, player: int, nickname: str) -> None:
    """``player`` is called ``nickname`` from now on (renamed, or their account deleted):
    the tables here show it, and the other processes are told (:func:`heard`)."""
    tables.names[player] = nickname
    await show(tables, [player])
    await tables.broadcaster.publish(name_key(player))


async def heard(tables: Tables, key: str) -> bool:
    """A wake-up from another process: when it names a person's nickname (``True``), read
    it again if this process knows them, and show it. ``False`` for any other key."""
    if not key.startswith(KEY):
        return False
    try:
        player = int(key.removeprefix(KEY))
    except ValueError:
        return True
    if player in tables.names:
        try:
            nickname = (await tables.storage.get_player(player)).nickname
        except NotFound:
            return True
        if tables.names.get(player) != nickname:
            tables.names[player] = nickname
            await show(tables, [player])
    return True


async def relearn(tables: Tables) -> None:
    """Read again every nickname this process knows (wake-ups may have been lost), and
    show those that changed."""
    known = list(tables.names)
    if not known:
        return
    stored = await tables.storage.nicknames(known)
    changed = [p for p, n in stored.items() if tables.names.get(p) != n]
    for p in changed:
        tables.names[p] = stored[p]
    if changed:
        await show(tables, changed)


__all__ = [
    "KEY",
    "check_apart",
    "check_rename",
    "heard",
    "name_key",
    "relearn",
    "renamed",
    "show",
    "shown",
]
