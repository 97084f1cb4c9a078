"""The phases of a hand: what kind of action the seat to act takes.

A :class:`Phase` is a ``StrEnum``: its JSON form is its plain string (``"play"``), and
it equals that string, so the engine compares phases by value and a phase that came
back through JSON (a rebuilt state, a player in another process) works as the
engine's own.

>>> Phase.PLAY == "play", Phase("auction") is Phase.AUCTION
(True, True)
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    PLAY = "play"
    """A seat is to play a card (or take an add-on's action on its turn)."""
    OVER = "over"
    """The hand is finished."""
    AUCTION = "auction"
    """Chiamata: the auction."""
    CALL = "call"
    """Chiamata: the auction's winner names the called card."""
    TALK = "talk"
    """Schembil: before a lead, the rais talk to their partners, the leading side's first."""
