"""A match between one person and computer players: the part every interface shares.

The session owns the match, hosted by a :class:`~briscola.host.Table`: the person acts
through :meth:`Session.act`, the bots through :meth:`Session.run_bots` (or one at a time,
:meth:`Session.run_one_bot`, which a screen runs in a thread), each seeing only its seat's
view. Every step returns lines telling what the person's seat saw happen.
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
    BriscolaError,
    Card,
    GameState,
    IllegalActionError,
    Match,
    Rules,
    visible,
)
from briscola.engine.actions import Action
from briscola.engine.events import CardDrawn, Dealt
from briscola.engine.match import HandScored, HandStarted, MatchOver, PartnersDrawn
from briscola.engine.views import View
from briscola.host import Step, Table
from briscola.narrate import describe_points, narrate, per_side
from briscola.speech import Seating


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

    def _told(self, step: Step) -> list[str]:
        return self._tell(step.hand, step.seen(self.seat))

    def _tell(self, hand: GameState, events: list[Any]) -> list[str]:
        """Narrate ``events``, what this seat saw (those of ``hand``, then the match's)."""
        lines: list[str] = []
        own: list[object] = []
        for e in events:
            if isinstance(e, HandScored | HandStarted | MatchOver):
                lines.extend(narrate(hand, own, self.seating, self.tell_plays))
                own = []
                lines.extend(self._tell_match(hand, e))
                if isinstance(e, HandStarted):
                    hand = self.match.hand
                continue
            own.append(e)
            if isinstance(e, CardDrawn) and e.seat == self.seat:
                self.drawn = e.card
            elif isinstance(e, Dealt) and e.seat == self.seat:
                self.drawn = None
        if self.drawn is not None and self.drawn not in self.match.hand.hands[self.seat]:
            self.drawn = None
        lines.extend(narrate(hand, own, self.seating, self.tell_plays))
        return lines

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

    def _tell_match(self, hand: GameState, e: HandScored | HandStarted | MatchOver) -> list[str]:
        voice = self.seating
        if isinstance(e, HandStarted):
            return [f"--- hand {e.number}: {voice.says(e.dealer, 'deal')} ---"]
        points = describe_points(hand, voice)
        if isinstance(e, HandScored):
            if e.replayed:
                return [f"hand {e.number}: {points}; the hand is dealt again"]
            won = voice.sides_say(e.winners, "win") if e.winners else "nobody wins"
            line = f"hand {e.number}: {points}: {won} the hand"
            if e.counted == 2:
                line += " with all 120 points (cappotto: it counts twice)"
            if e.scores is not None:
                line += "; score " + self._seat_scores(e.scores)
            return [line, self.standing()]
        won = voice.sides_say(e.winners, "win") if e.winners else "nobody wins"
        return [f"=== the match is over: {won} ==="]

    def _seat_scores(self, scores: tuple[int, ...] | list[int]) -> str:
        return ", ".join(f"{self.seating.name(s)} {x:+d}" for s, x in enumerate(scores))

    def standing(self) -> str:
        """The match score so far, in words."""
        m = self.match
        voice = self.seating
        if m.per_seat:
            goal = f"{'to' if m.target.kind == 'points' else 'over'} {m.target.goal}"
            goal += " points" if m.target.kind == "points" else " hands"
            return f"match ({goal}): {self._seat_scores(m.scores)}"
        if m.target.kind == "points":
            totals = per_side(voice, self.rules.sides, m.totals)
            return f"match (to {m.target.goal} points): {totals}"
        won = per_side(voice, self.rules.sides, m.hands_won)
        if m.target.kind == "one":
            return f"match (one hand): {won}"
        return f"match (first to {m.target.goal} hands won): {won}"

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
