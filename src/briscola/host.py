"""One table host: the one game loop of every interface.

A :class:`Table` holds a match (or a single hand) and a player for each seat: a computer
player (any object with ``choose(view)``, see :mod:`briscola.ai.bot`) or, at a seat with
no bot, a person or a remote client who acts through :meth:`Table.act`. The host

- applies one action at a time, checking that it comes from the seat to act (an
  illegal action raises the engine's error and changes nothing);
- gives back each step as a :class:`Step`, which hands every seat what it may see of
  the events (:meth:`Step.seen`, :meth:`Step.to_json`: through the engine's
  :func:`~briscola.engine.events.visible` and :func:`~briscola.engine.events.seat_events`);
- keeps the record of every finished hand (:attr:`Table.records`) and the match record;
- tells every computer player of every hand dealt for play by ``new_hand(view)`` (when
  it has that method), once, with the view its seat had as the hand started, before any
  computer player chooses in that hand (:meth:`Table.tell_bots`);
- runs a computer player's choice (:meth:`Table.run_bot`), on the caller's thread or off
  it (:meth:`Table.bot_move`, awaitable: the choice runs in a worker thread), timing
  each seat's thinking.

>>> import random
>>> from briscola.engine import GameState, Rules, shuffled_deal
>>> from briscola.ai.bot import RandomBot
>>> rules = Rules.make("briscola-2")
>>> table = Table(GameState(rules, shuffled_deal(rules, 1, random.Random(3))), {1: RandomBot(1)})
>>> table.turn, table.is_bot(0)
(0, False)
>>> step = table.act(0, table.view(0).legal[0])
>>> while not table.over and table.is_bot(table.turn):
...     step = table.run_bot()
>>> step.to_json(0)[0]["type"]
'card_played'

The host is one writer: call it from one thread at a time (a screen runs
:meth:`Table.run_bot` in a thread and waits for it before it acts again).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import Any, NamedTuple

from briscola.ai.bot import Bot, BotError
from briscola.engine import (
    Action,
    GameOverError,
    GameState,
    IllegalActionError,
    MalformedError,
    Match,
    NotYourTurnError,
    View,
    match_view,
    seat_events,
    seat_view,
    spectator_view,
    visible,
)
from briscola.engine.actions import check_form
from briscola.engine.errors import shown


class Step(NamedTuple):
    """One action applied at the table, and what came of it."""

    seat: int
    """The seat that acted."""
    action: Action
    """The action as the hand's log keeps it (with what the engine added)."""
    events: list[Any]
    """Every event it caused, with its audience: the hand's, then the match's (a hand
    scored, the next dealt). Never hand these to a player as they are: see :meth:`seen`."""
    hand: GameState
    """The hand the action was taken in (the match may have dealt the next one since)."""

    def seen(self, seat: int | None) -> list[Any]:
        """What ``seat`` (``None``: a spectator) sees of the events, in order: those it may
        not see left out, redacted copies where it sees only that something happened."""
        return [v for e in self.events if (v := visible(e, seat)) is not None]

    def to_json(self, seat: int | None) -> list[dict[str, Any]]:
        """The events as JSON for ``seat``, redacted for it (the audience never written)."""
        return seat_events(self.events, seat)


class Table:
    """A match (or one hand) with a computer player at each seat of ``bots``; the other
    seats act through :meth:`act`. ``names`` names the computer players in errors (a
    guarded outside bot's own name, else its type, by default)."""

    def __init__(
        self,
        game: Match | GameState,
        bots: Mapping[int, Bot],
        names: Mapping[int, str] | None = None,
    ) -> None:
        if isinstance(game, Match):
            self.match: Match | None = game
            state = game.hand
        elif isinstance(game, GameState):
            self.match = None
            state = game
        else:
            raise MalformedError(f"Table: expected a Match or a GameState, got {shown(game)}")
        n = state.n
        for seat, bot in bots.items():
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
                raise MalformedError(
                    f"Table: there is no seat {shown(seat)} for a computer player: "
                    f"seats are 0 to {n - 1}"
                )
            if not callable(getattr(bot, "choose", None)):
                raise MalformedError(
                    f"Table: the computer player at seat {seat} has no choose(view) method"
                )
        self.bots: dict[int, Bot] = dict(bots)
        self.names: dict[int, str] = {
            s: (names or {}).get(s) or getattr(b, "name", None) or type(b).__name__
            for s, b in self.bots.items()
        }
        self.state: GameState = state
        """The hand in play (the match's current hand)."""
        self.records: list[dict[str, Any]] = []
        """The record of every hand finished at this table, in order."""
        self.think = [0.0] * n
        """Seconds each seat's computer player spent choosing."""
        self.moves = [0] * n
        """Actions each seat's computer player chose."""
        self.told: list[int] = [0] * n
        """How many hands each seat's computer player was told of (``new_hand``)."""
        self._untold: list[tuple[int, View]] = []
        self._begin_hand()

    # ----------------------------------------------------------------- where it stands

    @property
    def over(self) -> bool:
        """Whether the match (or the single hand) is over."""
        return self.match.over if self.match is not None else self.state.over

    @property
    def turn(self) -> int | None:
        """The seat to act, or ``None`` when the table is over (or the hand has no move)."""
        if self.over or self.state.over:
            return None
        return self.state.turn

    def is_bot(self, seat: int | None) -> bool:
        """Whether a computer player holds ``seat``."""
        return seat in self.bots

    def view(self, seat: int | None) -> View:
        """What ``seat`` (``None``: a spectator) may know now: of a match, with the hand's
        number and where the match stands (:func:`~briscola.engine.views.match_view`)."""
        if self.match is not None:
            return match_view(self.match, seat)
        if seat is None:
            return spectator_view(self.state)
        return seat_view(self.state, seat)

    def opening(self) -> list[Any]:
        """The events so far, with their audiences (a match's partner draw, its deals);
        hand them out through :func:`~briscola.engine.events.visible`."""
        if self.match is not None:
            return list(self.match.events)
        return list(self.state.opening_events())

    # ----------------------------------------------------------------- acting

    def act(self, seat: int, action: Action) -> Step:
        """Apply ``action`` from the player at ``seat``.

        :raises NotYourTurnError: when ``seat`` is not the seat to act, or the action is
            another seat's (nothing changes).
        :raises IllegalActionError: when the rules do not allow it now (nothing changes).
        :raises MalformedError: when ``action`` is no action (nothing changes).
        """
        if self.over:
            raise GameOverError("the match is over" if self.match else "the hand is over")
        turn = self.turn
        if seat != turn:
            raise NotYourTurnError(f"it is seat {turn}'s turn, not seat {shown(seat)}'s")
        check_form(action)
        if action.seat != seat:
            raise NotYourTurnError(f"seat {seat} cannot act for seat {action.seat}")
        return self._apply(seat, action)

    def tell_bots(self) -> None:
        """Tell the computer players of the hands dealt since they were last told
        (``new_hand(view)``, with the view their seat had as the hand started). The first
        :meth:`run_bot` of a hand does this first; a host may call it sooner."""
        while self._untold:
            seat, view = self._untold.pop(0)
            self.told[seat] += 1
            new_hand = getattr(self.bots[seat], "new_hand", None)
            if callable(new_hand):
                new_hand(view)

    def run_bot(self) -> Step:
        """Let the computer player at the seat to act choose, and apply its choice.

        :raises BotError: when it chose an action that is not legal now (naming it), or a
            guarded outside bot failed (see :class:`~briscola.ai.bot.Guarded`).
        :raises IllegalActionError: when no computer player is to act.
        """
        seat = self.turn
        if seat is None:
            raise GameOverError("the match is over" if self.match else "the hand is over")
        bot = self.bots.get(seat)
        if bot is None:
            raise NotYourTurnError(f"seat {seat} is to act, and it is no computer player's")
        self.tell_bots()
        pick = getattr(bot, "choose_legal", None)  # needs no more than the legal actions
        if callable(pick):
            legal = self.state.legal_actions()
            start = time.perf_counter()  # the player's thinking only is timed
            action = pick(legal)
        else:
            view = self.view(seat)
            start = time.perf_counter()
            action = bot.choose(view)
        self.think[seat] += time.perf_counter() - start
        self.moves[seat] += 1
        try:
            check_form(action)
            if action.seat != seat:
                raise NotYourTurnError(f"it is seat {seat}'s turn, not seat {action.seat}'s")
            return self._apply(seat, action)
        except (IllegalActionError, MalformedError) as e:
            raise BotError(f"the bot {self.names[seat]} at seat {seat}: {e}") from None

    async def bot_move(self) -> Step:
        """:meth:`run_bot` in a worker thread, so that the caller's event loop runs on
        while the computer player thinks."""
        return await asyncio.to_thread(self.run_bot)

    def _apply(self, seat: int, action: Action) -> Step:
        hand = self.state
        if self.match is not None:
            logged, events = self.match.apply_logged(action)
        else:
            logged, events = hand.apply_logged(action)
        if hand.over:
            self.records.append(hand.to_record())
        if self.match is not None and self.match.hand is not hand:
            self.state = self.match.hand
            self._begin_hand()
        return Step(seat, logged, list(events), hand)

    def _begin_hand(self) -> None:
        """A hand was dealt for play: its computer players are to be told of it."""
        state = self.state
        if state.over:
            return
        for seat in sorted(self.bots):
            self._untold.append((seat, self.view(seat)))

    # ----------------------------------------------------------------- records

    def hand_records(self) -> list[dict[str, Any]]:
        """The records of the hands played so far, the hand in play included once it has
        a move."""
        out = list(self.records)
        if self.state.moves and not self.state.over:
            out.append(self.state.to_record())
        return out

    def record(self) -> dict[str, Any]:
        """The match record so far (docs/records.md), or the single hand's record."""
        if self.match is not None:
            return self.match.to_record()
        return self.state.to_record()
