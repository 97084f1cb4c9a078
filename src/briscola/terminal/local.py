"""The local table: one person against computer players, in this process.

The session owns the match, hosted by a :class:`~briscola.host.Table`: the person acts
through :meth:`Session.act`, the bots through :meth:`Session.run_bots` (or one at a time,
:meth:`Session.run_one_bot`, which a screen runs in a thread), each seeing only its seat's
view. The session is one more client of the host's seat stream, a local transport: after
each step it takes the person's seat's new messages (:meth:`~briscola.host.Table.messages`:
the events as the engine lets that seat see them, as JSON) and tells them with the view
through :class:`~briscola.words.narrate.Narrator`, as the online table tells the server's
frames. A :class:`Session` is a :class:`~briscola.terminal.seat.Source`, as the online
table of :mod:`briscola.terminal.remote` is: the plain and full-screen games play either.
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
from briscola.engine import Card, GameState, IllegalActionError, Match, Rules
from briscola.engine.actions import Action
from briscola.engine.match import PartnersDrawn
from briscola.engine.views import View
from briscola.host import Table
from briscola.terminal.seat import SaveError, check_save_path, track_drawn
from briscola.words.names import computer_names
from briscola.words.narrate import Narrator, describe_standing
from briscola.words.seating import Seating


@dataclass
class Session:
    """One person at ``seat``; a bot in every other seat."""

    rules: Rules
    seat: int
    bots: Mapping[int, Bot]
    rng: random.Random
    dealer: int | None = None
    lang: str = "en"
    """The language the lines are told in (:data:`~briscola.words.catalogue.LANGUAGES`)."""
    points: str = "hidden"
    """Whether the points taken are said during a hand: ``hidden`` (counted in the head,
    as the family plays; the hand's end says them) or ``shown``."""
    name_seed: str = "briscola"
    """What the computer players' first names are chosen from
    (:func:`~briscola.words.names.computer_names`, of the language's names, as a web table
    chooses them from its token)."""
    match: Match = field(init=False)
    table: Table = field(init=False)
    """The host of the match: the person at ``seat``, the bots at theirs."""
    seating: Seating = field(init=False)
    """The person's table: "you", and the computer players by their first names."""
    drawn: Card | None = None
    """The card the person drew last, while it is still in the hand."""
    draw: PartnersDrawn | None = field(init=False, default=None)
    """The draw for partners, where the table draws them: ``seat`` and the bots' seats
    were the players' places before it, and are where the draw seated them after."""
    tell_plays: bool = True
    """Whether the lines tell each card as it is played and drawn (a line-by-line game
    must; a screen that draws the table need not, and its log then keeps no cards)."""
    narrator: Narrator = field(init=False)
    """Tells the person's seat stream."""
    told: int = field(init=False, default=0)
    """The number of the last message of the person's stream told."""
    _analysed: tuple[int, dict[str, Any]] | None = field(init=False, default=None)
    """The last finished hand analysed: its number and its analysis."""

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
        names = computer_names(self.name_seed, self.lang, sorted(self.bots), [])
        self.seating = Seating.of(self.rules, self.seat, self.lang, names, self.points)
        self.narrator = Narrator(self.rules, self.seating, self.tell_plays)

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
        """What the person sees as the first hand is dealt: the start of the seat's stream
        (the draw for partners, where the table draws them, then the deal)."""
        start = self.table.messages(self.seat, 0) or []
        events = [e for m in start for e in m.events]
        self.told = self.table.number(self.seat)
        lines = self._tell(events)
        drawn = 2 if any(e["type"] == "partners_drawn" for e in events) else 0
        intro = self.seating.words.say(
            "session.introduction", game=self.seating.game(), seats=self.seating.introduction()
        )
        return [*lines[:drawn], intro, *lines[drawn:]]

    def act(self, action: Action) -> list[str]:
        """The person's action; raises :class:`IllegalActionError` (changing nothing)."""
        if not self.my_turn():
            raise IllegalActionError("it is not your turn")
        self.table.act(self.seat, action)
        return self._told()

    def run_bots(self) -> list[str]:
        """Let the bots act until it is the person's turn or the match is over."""
        lines: list[str] = []
        while not self.match.over and self.match.hand.turn != self.seat:
            lines.extend(self.run_one_bot())
        return lines

    def run_one_bot(self) -> list[str]:
        """Let the bot whose turn it is act once (telling the bots of a new hand first)."""
        self.table.run_bot()
        return self._told()

    def advance(self) -> list[str]:
        """Let the table move on one step: the bot whose turn it is acts."""
        return self.run_one_bot()

    def poll(self) -> list[str]:
        """What happened while the person was choosing: nothing, at a local table."""
        return []

    def say(self, text: str) -> list[str]:
        """Chat: the computer players do not read it."""
        return [self.seating.words.say("session.no_chat")]

    def waiting_for(self) -> str:
        """Whom the table waits for, while it is not the person's turn."""
        turn = self.match.hand.turn
        return self.seating.say("session.thinking", turn)

    def close(self) -> None:
        """Leave the table (nothing to let go of here)."""

    def _told(self) -> list[str]:
        """Tell the messages of the person's stream since the last told."""
        messages = self.table.messages(self.seat, self.told) or []
        events = [e for m in messages if m.number > self.told for e in m.events]
        self.told = self.table.number(self.seat)
        return self._tell(events)

    def _tell(self, events: list[dict[str, Any]]) -> list[str]:
        """Narrate ``events`` (JSON, what this seat saw), with the view after them."""
        view = self.table.view(self.seat)
        self.drawn = track_drawn(self.drawn, events, self.seat, view.hand)
        scored = any(e["type"] == "hand_scored" for e in events)
        self.narrator.plays = self.tell_plays
        return self.narrator.tell(events, view.to_json(), self.standing() if scored else "")

    def analysis(self) -> list[str]:
        """What each card of the last finished hand cost, analysed here (a second or so;
        kept for the hand)."""
        records = self.records
        if not records:
            return [self.seating.words.say("analysis.no_hand")]
        from briscola.analysis import analyse_json
        from briscola.terminal.analysis_text import analysis_lines

        number = len(records)
        if self._analysed is None or self._analysed[0] != number:
            body = analyse_json(records[-1], hand=number - 1)
            self._analysed = (number, body)
        return analysis_lines(self._analysed[1], self.seating)

    def hint(self) -> list[str]:
        """A hint for the person's seat now: at a local table only computer players sit
        beside the person, so it is always a practice table."""
        from briscola.analysis import NoHint, hint
        from briscola.terminal.analysis_text import hint_lines

        try:
            found = hint(self.match.hand.copy(), self.seat, len(self.match.hand.moves))
        except NoHint:
            return [self.seating.words.say("error.not_your_turn")]
        return hint_lines(found.to_json(), self.seating)

    def standing(self) -> str:
        """The match score so far, in words."""
        context = self.view().match
        assert context is not None  # a match's view
        return describe_standing(self.seating, context.to_json())

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
