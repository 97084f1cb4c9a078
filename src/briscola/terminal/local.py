"""The local table: one person against computer players, in this process.

The session owns the match, hosted by a :class:`~briscola.host.Table`: the person acts
through :meth:`Session.act`, the bots through :meth:`Session.run_bots` (or one at a time,
:meth:`Session.run_one_bot`, which a screen runs in a thread), each seeing only its seat's
view. Every step returns lines telling what the person's seat saw happen. A
:class:`Session` is a :class:`~briscola.terminal.seat.Source`, as the online table of
:mod:`briscola.terminal.remote` is: the plain and full-screen games play either.
"""

from __future__ import annotations

import errno
import json
import os
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from briscola.ai.bot import Bot
from briscola.engine import (
    Card,
    GameState,
    IllegalActionError,
    Match,
    Rules,
    visible,
)
from briscola.engine.actions import Action
from briscola.engine.match import HandScored, PartnersDrawn
from briscola.engine.views import View
from briscola.host import Step, Table
from briscola.narrate import describe_standing, tell
from briscola.speech import Seating
from briscola.terminal.seat import SaveError, check_save_path, track_drawn


@dataclass
class Session:
    """One person at ``seat``; a bot in every other seat."""

    rules: Rules
    seat: int
    bots: Mapping[int, Bot]
    rng: random.Random
    dealer: int | None = None
    match: Match = field(init=False)
    table: Table = field(init=False)
    """The host of the match: the person at ``seat``, the bots at theirs."""
    seating: Seating = field(init=False)
    """The person's table: "you" and the others by where they sit."""
    drawn: Card | None = None
    """The card the person drew last, while it is still in the hand."""
    draw: PartnersDrawn | None = field(init=False, default=None)
    """The draw for partners, where the table draws them: ``seat`` and the bots' seats
    were the players' places before it, and are where the draw seated them after."""
    tell_plays: bool = True
    """Whether the lines tell each card as it is played and drawn (a line-by-line game
    must; a screen that draws the table need not, and its log then keeps no cards)."""

    def __post_init__(self) -> None:
        if not 0 <= self.seat < self.rules.players:
            raise ValueError(
                f"seat {self.seat} does not exist: {self.rules.key} has seats 0 to "
                f"{self.rules.players - 1}"
            )
        first = self.rules.players - 1 if self.dealer is None else self.dealer
        self.match = Match(self.rules, self.rng, dealer=first)
        self.draw = next((e for e in self.match.events if isinstance(e, PartnersDrawn)), None)
        if self.draw is not None:  # partners drawn: everyone sits where the draw says
            moved = self.draw.seating.index
            self.bots = {moved(player): bot for player, bot in self.bots.items()}
            self.seat = moved(self.seat)
        self.table = Table(self.match, self.bots)
        self.seating = Seating.of(self.rules, self.seat)

    @property
    def records(self) -> list[dict[str, Any]]:
        """The record of every finished hand."""
        return self.table.records

    @property
    def hand(self) -> GameState:
        return self.match.hand

    @property
    def over(self) -> bool:
        return self.match.over

    def view(self) -> View:
        return self.table.view(self.seat)

    def my_turn(self) -> bool:
        return not self.match.over and self.match.hand.turn == self.seat

    def opening(self) -> list[str]:
        """What the person sees as the first hand is dealt."""
        hand = self.match.hand
        # The match's events so far: the first hand's deal, after any deal thrown in.
        dealt = [
            seen
            for e in self.table.opening()
            if not isinstance(e, PartnersDrawn) and (seen := visible(e, self.seat)) is not None
        ]
        return [
            *self._tell_draw(),
            f"{self.rules.game.name}: {self.seating.introduction()}",
            *self._tell(hand, dealt),
        ]

    def act(self, action: Action) -> list[str]:
        """The person's action; raises :class:`IllegalActionError` (changing nothing)."""
        if not self.my_turn():
            raise IllegalActionError("it is not your turn")
        return self._told(self.table.act(self.seat, action))

    def run_bots(self) -> list[str]:
        """Let the bots act until it is the person's turn or the match is over."""
        lines: list[str] = []
        while not self.match.over and self.match.hand.turn != self.seat:
            lines.extend(self.run_one_bot())
        return lines

    def run_one_bot(self) -> list[str]:
        """Let the bot whose turn it is act once (telling the bots of a new hand first)."""
        return self._told(self.table.run_bot())

    def advance(self) -> list[str]:
        """Let the table move on one step: the bot whose turn it is acts."""
        return self.run_one_bot()

    def poll(self) -> list[str]:
        """What happened while the person was choosing: nothing, at a local table."""
        return []

    def say(self, text: str) -> list[str]:
        """Chat: the computer players do not read it."""
        return ["nobody hears you: the computer players do not chat"]

    def waiting_for(self) -> str:
        """Whom the table waits for, while it is not the person's turn."""
        turn = self.match.hand.turn
        return f"{self.seating.name(turn)} is thinking"

    def close(self) -> None:
        """Leave the table (nothing to let go of here)."""

    def _told(self, step: Step) -> list[str]:
        return self._tell(step.hand, step.seen(self.seat))

    def _tell(self, hand: GameState, events: list[Any]) -> list[str]:
        """Narrate ``events``, what this seat saw (those of ``hand``, then the match's)."""
        self.drawn = track_drawn(self.drawn, events, self.seat, self.match.hand.hands[self.seat])
        standing = self.standing() if any(isinstance(e, HandScored) for e in events) else ""
        return tell(hand, events, self.seating, standing, self.match.hand, self.tell_plays)

    def _tell_draw(self) -> list[str]:
        if self.draw is None:
            return []
        voice = self.seating
        n = self.rules.players
        seat_of = self.draw.seating.index
        cards = ", ".join(
            f"{voice.name(seat_of(p))} drew the {voice.card(c)}"
            for p, c in sorted(
                enumerate(self.draw.cards), key=lambda pc: (seat_of(pc[0]) - self.seat) % n
            )
        )
        dealer = self.match.first_dealer  # the highest drawer
        high = voice.group(self.rules.sides[self.rules.side_of[dealer]])
        return [
            f"partners are drawn by cards: {cards}",
            f"{high} drew the highest cards and play together; {voice.says(dealer, 'deal')} first",
        ]

    def standing(self) -> str:
        """The match score so far, in words."""
        context = self.view().match
        assert context is not None  # a match's view
        return describe_standing(self.seating, context)

    def save(self, path: str | Path) -> Path:
        """Write the records of the hands so far (the current one included), one per line.
        Raises :class:`SaveError`, saying why, when the file cannot be written."""
        target = check_save_path(path)
        records = self.table.hand_records()
        try:
            target.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        except OSError as e:
            why = os.strerror(e.errno) if e.errno else str(e)
            if e.errno == errno.ENOSPC:
                why = "the disk is full"
            raise SaveError(f"cannot save to {target}: {why}") from None
        return target
