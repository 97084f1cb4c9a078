"""A live table's chat: free text or friendly phrases, as the table's ``chat`` option lets
people say them, stored and kept in memory (the last lines), each told to every
connection with the number of its own stream."""

from __future__ import annotations

import unicodedata
from collections import deque
from collections.abc import Callable
from datetime import datetime
from typing import cast

from pydantic import Field

from briscola.server.errors import Refused
from briscola.server.messages import PHRASES, ChatLine, Phrase
from briscola.server.table import options
from briscola.server.table.ports import Writer
from briscola.storage import ChatMessage
from briscola.words.catalogue import catalogue


def clean_text(text: str, longest: int) -> str:
    """A chat line as kept: control characters out, spaces trimmed, at most ``longest``
    characters (:class:`Refused` when empty or longer)."""
    kept = "".join(
        " " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c
        for c in text
        if unicodedata.category(c) != "Cf"
    ).strip()
    if not kept:
        raise Refused("empty", "a chat message needs some text")
    if len(kept) > longest:
        raise Refused(
            "too_long",
            f"a chat message is at most {longest} characters; this one has {len(kept)}",
            values={"n": longest, "length": len(kept)},
        )
    return kept


PHRASE_MARK = "\x1e"
"""What a friendly phrase is kept as in the chat's storage: this mark, then its id (a line
typed never starts with it: :func:`clean_text` takes control characters out)."""


def phrase_of(kept: str) -> Phrase | None:
    """The phrase a kept chat line is, ``None`` for free text."""
    if kept.startswith(PHRASE_MARK) and kept[1:] in PHRASES:
        return cast(Phrase, kept[1:])
    return None


class HeldLine(ChatLine):
    """A chat line as a table keeps it: with its author's player id (``None``: nobody's),
    which is never sent; :func:`sent_line` names the author as they are called now."""

    player: int | None = Field(default=None, exclude=True)


def sent_line(line: ChatLine, version: int, names: dict[int, str]) -> ChatLine:
    """``line`` as a connection is sent it: at its stream's ``version``, its author named
    as ``names`` has them now (as when it was said, if ``names`` has them no more)."""
    update: dict[str, object] = {"version": version}
    if isinstance(line, HeldLine) and line.player is not None:
        update["nickname"] = names.get(line.player, line.nickname)
    return line.model_copy(update=update)


class Chat:
    """The chat of one table: see the module's documentation."""

    def __init__(self, table: Writer) -> None:
        self.table = table
        self.lines: deque[ChatLine] = deque(maxlen=100)
        """The last lines said, in the order of their ids."""

    @property
    def last(self) -> int:
        """The id of the last line kept here (0: none)."""
        return self.lines[-1].id if self.lines else 0

    async def load(self) -> None:
        """Read the last lines said from storage (after the lines kept, cleared)."""
        table = self.table
        said = await table.storage.chat(table.info.id, limit=self.lines.maxlen or 0, newest=True)
        await table.server.learn_names([m.player for m in said])
        for m in said:
            self.lines.append(self.line(m.id, m.player, m.text, m.at))

    async def follow(self, said: list[ChatMessage]) -> bool:
        """Take the chat lines read since the last one here; whether there were any."""
        last = self.last
        said = [m for m in said if m.id > last]
        if not said:
            return False
        await self.table.server.learn_names([m.player for m in said])
        for m in said:
            self.lines.append(self.line(m.id, m.player, m.text, m.at))
        return True

    def reseat(self, moved: Callable[[int], int]) -> None:
        """The lines said before the partners were drawn: their speakers' new seats."""
        self.lines = deque(
            (c if c.seat is None else c.model_copy(update={"seat": moved(c.seat)})
             for c in self.lines),
            maxlen=self.lines.maxlen,
        )  # fmt: skip

    def cards_in_hands(self) -> bool:
        """Whether anyone holds cards: the match playing, not over, and a hand dealt (from
        the deal on, the auction, the call and any talk included). In a match the next hand
        is dealt with the last card of the one before; before the first deal and after the
        match nobody holds a card."""
        host = self.table.host
        if self.table.info.status != "playing" or host is None or host.over:
            return False
        return any(host.state.hands)

    async def say(self, player: int | None, text: str | None, phrase: str | None = None) -> None:
        """A line of chat from ``player``: free ``text``, or a friendly ``phrase`` (its id),
        as the table's ``chat`` setting lets them say it now."""
        table = self.table
        chat = options.chat(table.info)
        if chat == "none":
            raise Refused("chat_off", "this table has no chat")
        if phrase is not None:
            if phrase not in PHRASES:
                raise Refused("bad_message", f"there is no phrase {phrase!r}")
            kept = PHRASE_MARK + phrase
        else:
            kept = clean_text(text or "", table.settings.chat_length)
            if chat == "phrases" and self.cards_in_hands():
                raise Refused(
                    "chat_phrases",
                    "once the cards are dealt, this table's chat takes only the friendly "
                    "phrases, so that nobody talks about their cards: send one of the "
                    "phrases, or write once the match is over",
                )
        table.touch()
        message = await table.storage.add_chat(table.info.id, player, kept)
        await table.server.learn_names([player])  # looked up again if it was forgotten
        self.lines.append(self.line(message.id, player, kept, message.at))
        await table.server.broadcaster.publish(table.token, "c")

    def line(self, mid: int, player: int | None, text: str, at: datetime) -> ChatLine:
        """The chat line ``mid``, as every connection is sent it."""
        phrase = phrase_of(text)
        return HeldLine(
            version=0,  # each connection is sent it with its own stream's number
            id=mid,
            player=player,
            seat=self.table.seat_of(player),
            nickname=self.table.server.names.get(player) if player is not None else None,
            text=text if phrase is None else catalogue("en").say(f"chat.phrase.{phrase}"),
            phrase=phrase,
            at=at.isoformat(),
        )
