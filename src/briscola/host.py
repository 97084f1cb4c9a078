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
  computer player chooses in that hand;
- runs a computer player's choice (:meth:`Table.run_bot`), on the caller's thread or off
  it (:meth:`Table.bot_choice`, :meth:`Table.bot_move`, awaitable: the choice runs in a worker
  thread), timing each seat's thinking; computer players take and leave seats during
  the match (:meth:`Table.seat_bot`, :meth:`Table.unseat_bot`);
- numbers, for every seat and for spectators, a stream of its own: the start (number
  0), then one message for each action that showed that audience something, with the
  events as it sees them (:meth:`Table.number`, :meth:`Table.messages`). A seat's
  numbers count only what it sees, so a gap in them never tells it that a signal for
  others was made. The table's :attr:`~Table.version` counts every action;
- at a table made with ``late=True`` (a public table), holds the spectators one trick
  late: their stream, their number and their view stop at the hand as it stood just before
  the first card of the trick now being played, and the hand's end (and the match's) gives
  them everything at once (:meth:`Table.held_at`).

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
>>> table.version, table.number(0), table.number(None)
(2, 2, 2)
>>> [(m.number, m.events[0]["type"]) for m in table.messages(0, 0)]
[(0, 'dealt'), (1, 'card_played'), (2, 'card_played')]

The host is one writer: call it from one thread at a time (a screen runs
:meth:`Table.run_bot` in a thread and waits for it before it acts again).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from typing import Any, NamedTuple, Protocol

from briscola.ai.bot import Bot, BotError
from briscola.engine import (
    Action,
    GameOverError,
    GameState,
    IllegalActionError,
    MalformedError,
    Match,
    NotYourTurnError,
    Play,
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


class Message(NamedTuple):
    """One message of an audience's stream (see :meth:`Table.messages`)."""

    number: int
    """Its number in the audience's stream: 0 for the start, then 1, 2, ..."""
    version: int
    """The table's version it was made at: the actions taken so far (0: the start)."""
    events: list[dict[str, Any]]
    """The events as the audience sees them (JSON, :func:`seat_events`), then what the
    table's notary announced (:class:`Notary`)."""


class Notary(Protocol):
    """What a table may announce to everyone besides the engine's events, such as the fair
    shuffle's commitments (:meth:`briscola.fair_shuffle.FairDeals.announced`)."""

    def announced(self, match: Match) -> list[dict[str, Any]]:
        """Everything announced of ``match`` so far, in order; each action announces what
        was not announced before it. Asked only when a hand was dealt or ended: a notary
        announces nothing at other actions."""
        ...


class _Entry(NamedTuple):
    version: int
    events: list[Any]
    """The engine's events, with their audiences."""
    notes: list[dict[str, Any]]
    told: dict[Audience, list[dict[str, Any]]]
    """What each audience was told of the events (:func:`seat_events`), made once for all
    its connections."""

    def seen(self, audience: Audience) -> list[dict[str, Any]]:
        """What ``audience`` sees of the events (shared: not to be changed)."""
        told = self.told.get(audience)
        if told is None:
            told = self.told[audience] = seat_events(self.events, audience)
        return told


Audience = int | None
"""A seat number, or ``None`` for the spectators."""


class Table:
    """A match (or one hand) with a computer player at each seat of ``bots``; the other
    seats act through :meth:`act`. ``names`` names the computer players in errors (a
    guarded outside bot's own name, else its type, by default). The streams keep the last
    ``keep`` actions' messages (:meth:`messages`); ``notary`` adds its announcements to
    them. ``late``: the spectators are held one trick late (:meth:`held_at`)."""

    def __init__(
        self,
        game: Match | GameState,
        bots: Mapping[int, Bot],
        names: Mapping[int, str] | None = None,
        *,
        keep: int = 64,
        notary: Notary | None = None,
        late: bool = False,
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
            _check_bot(seat, bot)
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
        self.notary = notary
        self._kept: deque[_Entry] = deque(maxlen=keep)
        self.version = 0
        """The actions taken at this table's match (or hand): the table's own version."""
        self._numbers: dict[Audience, int] = dict.fromkeys([*range(n), None], 0)
        self.late = late
        """Whether the spectators see the play one trick late (:meth:`held_at`)."""
        self._watched: list[int] = [0]
        """The spectators' number after each version of the table (0: the start)."""
        self._held: tuple[int, View] | None = None
        """The version the spectators are held at, and their view there (made once)."""
        self._start: _Entry | None = None
        """The start as an entry before version 1, while the streams keep version 1."""
        self._announced = 0
        self._dealt: tuple[int, int] = (0, 0)
        """The hands dealt and finished when the notary was last asked."""
        self._open()
        self._begin_hand()

    def _open(self) -> None:
        """Number the streams as the actions taken so far made them (a match rebuilt from
        its record), and keep the start while nothing was taken."""
        notes = self.notary.announced(self.match) if self.notary and self.match else []
        self._announced = len(notes)
        if self.match is not None:
            self._dealt = (self.match.number, len(self.match.finished))
        if self.match is None:
            self.version = len(self.state.moves)
            self._numbers = dict.fromkeys(self._numbers, self.version)
            self._watched = list(range(self.version + 1))
            if not self.version:
                self._start = _Entry(0, list(self.state.opening_events()), notes, {})
            return
        match = self.match
        ends = match.ends
        self.version = len(ends) - 1
        if not self.version:
            self._start = _Entry(0, list(match.events), notes, {})
        for k in range(1, len(ends)):
            self._count(match.events[ends[k - 1] : ends[k]])

    def _count(self, events: list[Any]) -> None:
        """One action's events: each audience they show something has one message more."""
        for audience in self._numbers:
            if any(visible(e, audience) is not None for e in events):
                self._numbers[audience] += 1
        self._watched.append(self._numbers[None])

    # ----------------------------------------------------------------- the streams

    def number(self, audience: Audience) -> int:
        """The number of the last message of ``audience``'s stream (``None``: the
        spectators'): how many actions showed it something (the spectators held one
        trick late: those up to where they are held, :meth:`held_at`)."""
        if audience is None and (held := self.held_at()) is not None:
            return self._watched[held]
        return self._numbers[audience]

    def messages(self, audience: Audience, since: int) -> list[Message] | None:
        """The messages of ``audience``'s stream after number ``since`` up to its
        :meth:`number`; from 0, the start first (a client asking from 0 may have missed
        it). ``None`` when they are not all kept, or ``since`` is ahead of the stream: send
        a snapshot instead."""
        top = self.number(audience)
        number = self._numbers[audience]
        if not 0 <= since <= top:
            return None
        out: list[Message] = []
        for entry in reversed(self._kept):
            if number <= since:
                break
            events = entry.seen(audience)
            if events:
                if number <= top:  # (the spectators' messages after where they are held wait)
                    out.append(Message(number, entry.version, events + entry.notes))
                number -= 1
        if number > since:
            return None  # not all kept
        out.reverse()
        if since == 0:
            if self._start is None:
                return None
            events = self._start.seen(audience) + self._start.notes
            out.insert(0, Message(0, 0, events))
        return out

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
        number and where the match stands (:func:`~briscola.engine.views.match_view`). The
        spectators held one trick late see the hand as it stood where they are held
        (:meth:`held_at`)."""
        held = self.held_at() if seat is None else None
        if held is not None:
            if self._held is None or self._held[0] != held:
                self._held = (held, self._view_at(held))
            return self._held[1]
        if self.match is not None:
            return match_view(self.match, seat)
        if seat is None:
            return spectator_view(self.state)
        return seat_view(self.state, seat)

    def held_back(self, audience: Audience) -> bool:
        """Whether ``audience`` is held one trick late (the spectators, at a table made
        with ``late=True``): then nothing they are told may say when a move was made, not
        even the clock of the seat to act, which starts again at each move."""
        return audience is None and self.late

    def held_at(self) -> int | None:
        """The table's version the spectators are held at, ``None`` when they see the
        table as it stands. At a table made with ``late=True``, while a hand is played
        (it has a move, it is not over), the spectators see it as it stood just before the
        first card of the trick now being played (or of the last trick taken, until the
        next trick's first card), or as it was dealt before any card: what was played,
        said or done since reaches them as the next trick's first card is played, or all
        at once as the hand ends."""
        hand = self.state
        if not self.late or self.over or hand.over or not hand.moves:
            return None
        first = hand.trick[0] if hand.trick else hand.tricks[-1].cards[0] if hand.tricks else None
        moves = hand.moves
        before = 0
        if first is not None:  # the move that led it: the last that played it (each card once)
            for i in range(len(moves) - 1, -1, -1):
                move = moves[i]
                if isinstance(move, Play) and move.card == first:
                    before = i
                    break
        return self.version - len(moves) + before

    def _view_at(self, version: int) -> View:
        """The spectators' view of the hand in play as it stood at ``version`` (the hand
        played again from its deal)."""
        hand = self.state
        moves = hand.moves[: len(hand.moves) - (self.version - version)]
        then = GameState(hand.rules, hand.deal)
        for move in moves:
            then.apply(move)
        if self.match is not None:
            return match_view(self.match, None, then)
        return spectator_view(then)

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

    def seat_bot(self, seat: int, bot: Bot, name: str | None = None) -> None:
        """Put the computer player ``bot`` at ``seat`` (in place of whoever played it): it
        is told of the hand in play, as the hand stands now, before it first chooses."""
        _check_bot(seat, bot)
        self.bots[seat] = bot
        self.names[seat] = name or getattr(bot, "name", None) or type(bot).__name__
        self._untold = [(s, v) for s, v in self._untold if s != seat]
        if not self.over and not self.state.over:
            self._untold.append((seat, self.view(seat)))

    def unseat_bot(self, seat: int) -> None:
        """Take the computer player at ``seat`` away: the seat acts through :meth:`act`."""
        self.bots.pop(seat, None)
        self.names.pop(seat, None)
        self._untold = [(s, v) for s, v in self._untold if s != seat]

    def run_bot(self) -> Step:
        """Let the computer player at the seat to act choose, and apply its choice.

        :raises BotError: when it chose an action that is not legal now (naming it), or a
            guarded outside bot failed (see :class:`~briscola.ai.bot.Guarded`).
        :raises IllegalActionError: when no computer player is to act.
        """
        seat, job = self._job()
        return self.play_bot(seat, job())

    async def bot_choice(self, executor: Executor | None = None) -> tuple[int, Action]:
        """The seat to act and the action its computer player chose, in a worker thread
        (``executor``'s, else the event loop's default), while the caller's event loop
        runs on; nothing is applied (:meth:`play_bot` applies it). The player is given
        copies (views), so the table may be read meanwhile; it must not be changed.

        :raises IllegalActionError: when no computer player is to act.
        """
        seat, job = self._job()
        return seat, await asyncio.get_running_loop().run_in_executor(executor, job)

    def play_bot(self, seat: int, action: Action) -> Step:
        """Apply ``action``, chosen by the computer player at ``seat``.

        :raises BotError: when it is not legal now (naming the player).
        """
        try:
            check_form(action)
            if action.seat != seat:
                raise NotYourTurnError(f"it is seat {seat}'s turn, not seat {action.seat}'s")
            if self.turn != seat:
                raise NotYourTurnError(f"it is seat {self.turn}'s turn, not seat {seat}'s")
            return self._apply(seat, action)
        except (IllegalActionError, MalformedError) as e:
            raise BotError(f"the bot {self.names[seat]} at seat {seat}: {e}") from None

    def _job(self) -> tuple[int, Callable[[], Action]]:
        """The seat to act and its computer player's choice to make, after every
        computer player is told of the hands dealt since it was last told (``new_hand``,
        with the view its seat had as the hand started, or as it took the seat), all read
        now: the job may run on another thread."""
        seat = self.turn
        if seat is None:
            raise GameOverError("the match is over" if self.match else "the hand is over")
        bot = self.bots.get(seat)
        if bot is None:
            raise NotYourTurnError(f"seat {seat} is to act, and it is no computer player's")
        untold = [(self.bots[s], v) for s, v in self._untold]
        for s, _ in self._untold:
            self.told[s] += 1
        self._untold = []
        pick = getattr(bot, "choose_legal", None)  # needs no more than the legal actions
        legal = self.state.legal_actions() if callable(pick) else None
        view = None if callable(pick) else self.view(seat)

        def job() -> Action:
            for player, told in untold:  # every bot told of the hand before any chooses
                new_hand = getattr(player, "new_hand", None)
                if callable(new_hand):
                    new_hand(told)
            start = time.perf_counter()  # the player's thinking only is timed
            action = pick(legal) if callable(pick) else bot.choose(view)  # type: ignore[arg-type]
            self.think[seat] += time.perf_counter() - start
            self.moves[seat] += 1
            return action

        return seat, job

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
        self._number(list(events))
        return Step(seat, logged, list(events), hand)

    def _number(self, events: list[Any]) -> None:
        """One action taken: each audience it showed something has one message more."""
        self.version += 1
        notes: list[dict[str, Any]] = []
        match = self.match
        if self.notary is not None and match is not None:
            dealt = (match.number, len(match.finished))
            if dealt != self._dealt:  # a notary announces only as hands are dealt or end
                self._dealt = dealt
                notes = self.notary.announced(match)[self._announced :]
                self._announced += len(notes)
        self._count(events)
        self._kept.append(_Entry(self.version, events, notes, {}))
        if self._kept[0].version > 1:
            self._start = None  # the messages from 0 could not all be given any more

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


def _check_bot(seat: int, bot: object) -> None:
    """Refuse a computer player with no ``choose(view)`` method."""
    if not callable(getattr(bot, "choose", None)):
        raise MalformedError(
            f"Table: the computer player at seat {seat} has no choose(view) method"
        )
