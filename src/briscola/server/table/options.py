"""A table's options as stored with it (``TableInfo.settings``), read the one way: each
with the value a table made before the option existed had."""

from __future__ import annotations

from typing import get_args

from briscola.server.messages import ChatSetting, PointsSetting, TableLanguage
from briscola.storage import TableInfo


def clock(info: TableInfo) -> float | None:
    """The seconds a person has for a move (``None``: no clock)."""
    value = info.settings.get("clock")
    return float(value) if isinstance(value, int | float) and value > 0 else None


def points(info: TableInfo) -> PointsSetting:
    """``hidden`` or ``shown`` (a table made before the setting: ``shown``, as it was)."""
    return "hidden" if info.settings.get("points") == "hidden" else "shown"


def chat(info: TableInfo) -> ChatSetting:
    """``free``, ``phrases`` or ``none`` (a table made before the setting: ``free``)."""
    value = info.settings.get("chat")
    return "phrases" if value == "phrases" else "none" if value == "none" else "free"


def lang(info: TableInfo) -> TableLanguage:
    """The table's language (a table made before the setting: ``it``, the game's)."""
    value = info.settings.get("lang")
    return value if value in get_args(TableLanguage) else "it"  # type: ignore[return-value]


def hints(info: TableInfo) -> bool:
    """Whether the table was opened with hints."""
    return info.settings.get("hints") is True


def stand_in(info: TableInfo, default: str) -> str:
    """The level of the computer players that stand in for people (``default``: the
    server's)."""
    level = info.settings.get("stand_in")
    return level if isinstance(level, str) else default


def stand_ins(info: TableInfo) -> set[int]:
    """The seats a computer player stands in at, as stored (so that a restart keeps them)."""
    kept = info.settings.get("stand_ins")
    return {s for s in kept if isinstance(s, int)} if isinstance(kept, list) else set()


def left(info: TableInfo) -> dict[int, int]:
    """The people who left the match in play, by the seat they played (a computer
    player took it over): the match is in their history too."""
    kept = info.settings.get("left")
    if not isinstance(kept, dict):
        return {}
    return {int(k): v for k, v in kept.items() if k.isdigit() and isinstance(v, int)}
