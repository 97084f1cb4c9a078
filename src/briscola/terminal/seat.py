"""A seat at a table, as the terminal games play it: what the local table
(:mod:`briscola.terminal.local`) and the online one (:mod:`briscola.terminal.remote`)
share.

:class:`Source` is the table the plain and full-screen games play at, for one person;
:func:`track_drawn` follows the card the person drew last; :func:`check_save_path` checks
the file the records will be saved to before a match starts.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol

from briscola.engine import BriscolaError, Card, Rules
from briscola.engine.actions import Action
from briscola.engine.views import View
from briscola.words.seating import Seating

DEFAULT_SAVE = "briscola-match.jsonl"
"""Where ``save`` (the full-screen ``s``) writes the records when no file was named."""


class SaveError(BriscolaError):
    """The records could not be written: the message says why and what to do."""


def check_save_path(path: str | Path) -> Path:
    """The file the records will go to, checked before a match starts: raises
    :class:`SaveError` when it is a folder, its folder is missing, or it cannot be written."""
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise SaveError(
            f"cannot save to {target}: it is a folder; name a file in it, "
            f"like {target / 'briscola.jsonl'}"
        )
    if not folder.is_dir():
        raise SaveError(f"cannot save to {target}: there is no folder {folder}")
    if target.exists() and not os.access(target, os.W_OK):
        raise SaveError(f"cannot save to {target}: the file is not writable")
    if not target.exists() and not os.access(folder, os.W_OK):
        raise SaveError(f"cannot save to {target}: the folder {folder} is not writable")
    return target


def track_drawn(
    drawn: Card | None, events: Iterable[Mapping[str, Any]], seat: int, hand: Iterable[Card]
) -> Card | None:
    """The card ``seat`` drew last, after ``events`` (the seat's stream, JSON), while it
    is still in its ``hand`` (a new deal forgets it)."""
    for e in events:
        if e.get("type") == "card_drawn" and e.get("seat") == seat and e.get("card"):
            drawn = Card.parse(e["card"])
        elif e.get("type") == "dealt" and e.get("seat") == seat:
            drawn = None
    return drawn if drawn is not None and drawn in hand else None


class Source(Protocol):
    """A table as a screen plays at it, for one person: a local
    :class:`~briscola.terminal.local.Session` against computer players, or an online table
    (:class:`~briscola.terminal.remote.RemoteTable`). Each step gives back the lines
    telling what the person's seat saw happen."""

    rules: Rules
    seating: Seating
    drawn: Card | None
    """The card the person drew last, while it is still in the hand."""
    tell_plays: bool

    @property
    def over(self) -> bool: ...
    def view(self) -> View:
        """The person's view now."""
        ...

    def my_turn(self) -> bool: ...
    def opening(self) -> list[str]:
        """What the person sees as the first hand is dealt."""
        ...

    def act(self, action: Action) -> list[str]:
        """The person's action (one of the view's legal ones); raises
        :class:`BriscolaError` saying why it was not taken."""
        ...

    def advance(self) -> list[str]:
        """Wait for the table's next step while it is another seat's turn."""
        ...

    def poll(self) -> list[str]:
        """What happened meanwhile, without waiting."""
        ...

    def say(self, text: str) -> list[str]:
        """A line of chat to the table."""
        ...

    def analysis(self) -> list[str]:
        """What each card of the last finished hand cost (:mod:`briscola.analysis`), in
        lines; a sentence saying why not when no hand is over yet."""
        ...

    def hint(self) -> list[str]:
        """A hint for the person's seat now (the strong player's choice, each choice's
        value), in lines; a sentence saying why not."""
        ...

    def standing(self) -> str: ...
    def waiting_for(self) -> str: ...
    def save(self, path: str | Path) -> Path: ...
    def close(self) -> None: ...
