"""One hand in play: the generic trick engine that every game of the family runs on.

The state is a mutable object on purpose: search and random play apply tens of
thousands of actions a second, and copying a frozen state per card would cost
more than the rules themselves. Nothing outside the engine sees it: players,
bots and sockets get :mod:`views <briscola.engine.views>` and visible events.
Every transition goes through :meth:`GameState.apply`, which checks the action
first and changes nothing when it is refused, and returns the events it caused.

>>> import random
>>> from briscola.engine.rules import Rules
>>> from briscola.engine.deal import shuffled_deal
>>> rules = Rules.make("briscola-2")
>>> state = GameState(rules, shuffled_deal(rules, dealer=1, rng=random.Random(1)))
>>> state.turn, len(state.legal_actions())
(0, 3)
>>> while not state.over:
...     _ = state.apply(state.legal_actions()[0])
>>> sum(state.points)
120
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from briscola.engine.actions import (
    Action,
    Ask,
    Bid,
    Call,
    EndTalk,
    Exchange,
    Look,
    Order,
    Pass,
    Play,
    Signal,
    check_form,
)
from briscola.engine.addons import Addon, make_addons
from briscola.engine.cards import Card, Suit
from briscola.engine.deal import Deal, not_cards
from briscola.engine.errors import (
    GameOverError,
    IllegalActionError,
    MalformedError,
    NotYourTurnError,
    shown,
)
from briscola.engine.events import (
    CardDrawn,
    CardPlayed,
    Dealt,
    Event,
    HandOver,
    HandShown,
    StockTop,
    TrickWon,
    TrumpTurned,
    carichi_taken,
)
from briscola.engine.game_record import Record
from briscola.engine.phases import Phase
from briscola.engine.position import Position, misfit
from briscola.engine.rules import Rules
from briscola.engine.view_types import TrickView

PLAY: Final = Phase.PLAY
OVER: Final = Phase.OVER

ACTION_NAMES: dict[type, str] = {
    Play: "playing a card",
    Exchange: "the trump exchange",
    Signal: "signalling",
    Ask: "asking a partner",
    Order: "giving a partner orders",
    Look: "looking at a partner's hand",
    EndTalk: "ending a rais's talk",
    Bid: "bidding",
    Pass: "passing in an auction",
    Call: "calling a card",
}


def _check_table(rules: object, deal: object) -> None:
    """What a hand needs of its rules and deal (cheap: search builds many states from deals
    made mid-hand, so the hand sizes are not checked; :meth:`Deal.check` checks all)."""
    if not isinstance(rules, Rules):
        raise MalformedError(
            "GameState: expected the table's Rules, like Rules.make('briscola-2'), "
            f"got {shown(rules)}"
        )
    if not isinstance(deal, Deal):
        raise MalformedError(
            "GameState: expected a Deal, like shuffled_deal(rules, dealer=0, "
            f"rng=random.Random(1)), got {shown(deal)}"
        )
    problem = _misfit(rules, deal)
    if problem:
        raise MalformedError(
            f"GameState: the deal is not one of {rules.key}: {problem}; deal with "
            "shuffled_deal(rules, ...) for these rules"
        )


def _misfit(rules: Rules, deal: Deal) -> str:
    n = rules.players
    dealer = deal.dealer
    problem = not_cards(deal)
    if problem:
        return problem
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
        return f"the dealer is {shown(dealer)}, not a seat from 0 to {n - 1}"
    if len(deal.hands) != n:
        return f"it has {len(deal.hands)} hands, not {n}"
    cards = deal.cards()
    if not set(cards) <= set(rules.deck) or len(set(cards)) != len(cards):
        return "its cards are not cards of this game's deck, each once"
    return ""


class Applied(NamedTuple):
    """What :meth:`GameState.apply_logged` gives back: the action as logged, and the events."""

    action: Action
    events: list[Event]


def _watching_plays(addons: tuple[Addon, ...]) -> tuple[Addon, ...]:
    """The add-ons that hook :meth:`Addon.after_play` (the others are not called for it:
    playing a card is the hot path)."""
    return tuple(a for a in addons if type(a).after_play is not Addon.after_play)


class GameState:
    """A hand of any game of the family, from the deal to the last trick."""

    __slots__ = (
        "_draw_audience", "_handlers", "_on_play", "_orders", "_phase_owner", "_plays",
        "_start_events", "_taken",
        "addons", "deal", "hands", "known", "moves", "n", "order", "phase", "pile", "rules",
        "seat_points", "shown", "side_of", "sides", "trick", "tricks", "trump", "turn", "turned",
    )  # fmt: skip

    rules: Rules
    deal: Deal
    n: int
    hands: list[list[Card]]
    """Each seat's cards, by seat."""
    pile: list[Card]
    """Cards still to draw, the next at the end; the turned card, while there, is first."""
    turned: Card | None
    """The turned card while it lies under the stock."""
    trump: Suit | None
    order: tuple[int, ...]
    """The seats that play to this trick, in playing order (twice round in a double trick)."""
    trick: list[Card]
    """The cards played to this trick so far; the i-th was played by ``order[i]``."""
    turn: int
    """The seat to act, or -1 when the hand is over."""
    phase: Phase
    """What kind of action the seat to act takes; compared by value, so that a plain string
    that came back through JSON works as well."""
    seat_points: list[int]
    """Card points taken by each seat."""
    sides: tuple[tuple[int, ...], ...]
    """The sides as everyone knows them, sides in the order of their lowest seat. Fixed by
    the rules, except in chiamata, where each seat stands alone until the partner is known."""
    side_of: tuple[int, ...]
    tricks: list[TrickWon]
    moves: list[Action]
    known: list[set[Card]]
    """Cards everyone knows a seat holds (the turned card it took, by drawing or exchange)."""
    shown: bool
    """Whether partners' hands are shown (the stock ran out under that house rule)."""
    addons: tuple[Addon, ...]
    _taken: (
        tuple[
            int,
            TrickWon | None,
            tuple[tuple[int, ...], ...],
            tuple[TrickView, ...],
            tuple[tuple[Card, ...], ...],
        ]
        | None
    )
    """What :meth:`taken` made last, and for which tricks and sides."""

    def __init__(self, rules: Rules, deal: Deal) -> None:
        """A hand of ``rules`` from ``deal``: :func:`~briscola.engine.deal.shuffled_deal`
        or a record's. The deal must be of this game: its seats, cards from its deck.

        :raises MalformedError: when it is not.
        """
        _check_table(rules, deal)
        self._lay_out(rules, deal)
        self._start_events = [e for a in self.addons for e in a.start(self)]

    def _lay_out(self, rules: Rules, deal: Deal) -> None:
        """The hand as dealt, before the add-ons' start."""
        n = rules.players
        self.rules = rules
        self.deal = deal
        self.n = n
        self.hands = [list(h) for h in deal.hands]
        self.pile = list(reversed(deal.stock))
        self.turned = deal.trump
        if deal.trump is not None:
            self.pile.insert(0, deal.trump)
        self.trump = None if deal.trump is None else deal.trump.suit
        self._orders = rules.orders
        self._plays = rules.plays
        public = rules.game.open_hands
        self._draw_audience = [None if public else frozenset({s}) for s in range(n)]
        self.order = self._orders[(deal.dealer + 1) % n]
        self.trick = []
        self.turn = self.order[0]
        self.phase = PLAY
        self.seat_points = [0] * n
        self.sides = rules.sides
        self.side_of = rules.side_of
        self.tricks = []
        self._taken = None
        self.moves = []
        self.known = [set() for _ in range(n)]
        self.shown = False
        self.addons = make_addons(rules)
        self._handlers = {t: a for a in self.addons for t in a.actions}
        self._phase_owner = {p: a for a in self.addons for p in a.phases}
        self._on_play = _watching_plays(self.addons)

    @classmethod
    def from_position(cls, rules: Rules, position: Position) -> GameState:
        """The hand of ``rules`` at ``position`` (see :mod:`briscola.engine.position`),
        each add-on restoring its own part; it plays on as the hand it was taken from.

        :raises MalformedError: when the position does not fit the rules (its cards, hand
            sizes, trick, seat to act, or an add-on's part).
        """
        if not isinstance(rules, Rules):
            raise MalformedError(
                f"from_position: expected the table's Rules, like Rules.make('briscola-2'), "
                f"got {shown(rules)}"
            )
        problem = misfit(rules, position)
        if problem:
            raise MalformedError(
                f"from_position: the position is not one of {rules.key}: {problem}"
            )
        p = position
        state = cls.__new__(cls)
        state._lay_out(rules, Deal(p.dealer, p.hands, p.turned, p.stock, p.seed))
        state._start_events = []
        state.trump = p.trump
        state.order = tuple(p.order)
        state.trick = list(p.trick)
        state.turn = p.turn
        try:
            state.phase = Phase(p.phase)
        except ValueError:
            raise MalformedError(
                f"from_position: the phase {shown(p.phase)} is none of "
                f"{', '.join(str(x) for x in Phase)}"
            ) from None
        seat_points = [0] * state.n
        for t in p.tricks:
            seat_points[t.winner] += t.points
        state.seat_points = seat_points
        state.tricks = list(p.tricks)
        state.sides = tuple(tuple(side) for side in p.sides)
        state.side_of = tuple(
            next(i for i, side in enumerate(p.sides) if s in side) for s in range(state.n)
        )
        state.known = [set(k) for k in p.known]
        state.shown = p.shown
        if len(p.addons) != len(state.addons):
            raise MalformedError(
                f"from_position: the position has {len(p.addons)} add-on parts, but "
                f"{rules.key} has {len(state.addons)} add-ons: "
                f"{', '.join(type(a).__name__ for a in state.addons) or 'none'}"
            )
        for addon, part in zip(state.addons, p.addons, strict=True):
            addon.restore(state, part)
        if state.phase not in (PLAY, OVER):
            state._owner()  # raises when no add-on owns the phase
        return state

    def position(self) -> Position:
        """This hand's position now (see :mod:`briscola.engine.position`)."""
        pile = self.pile[1:] if self.turned is not None else self.pile
        return Position(
            dealer=self.deal.dealer,
            hands=tuple(tuple(h) for h in self.hands),
            stock=tuple(reversed(pile)),
            turned=self.turned,
            trump=self.trump,
            order=tuple(self.order),
            trick=tuple(self.trick),
            tricks=tuple(self.tricks),
            phase=self.phase,
            turn=self.turn,
            sides=self.sides,
            known=tuple(frozenset(k) for k in self.known),
            shown=self.shown,
            seed=self.deal.seed,
            addons=tuple(a.position(self) for a in self.addons),
        )

    # ----------------------------------------------------------------- queries

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def stock_size(self) -> int:
        """Face-down cards left in the stock (the turned card not counted)."""
        return len(self.pile) - (self.turned is not None)

    def opening_events(self) -> list[Event]:
        """The events of the deal itself: each seat's hand, the turned card, and what the
        add-ons announce at the start (the auction opening)."""
        open_hands = self.rules.game.open_hands
        events: list[Event] = [
            Dealt(s, tuple(h), None if open_hands else frozenset({s}))
            for s, h in enumerate(self.deal.hands)
        ]
        if self.deal.trump is not None:
            events.append(TrumpTurned(self.deal.trump))
        if open_hands and self.stock_size:
            events.append(StockTop(self.pile[-1]))
        events.extend(self._start_events)
        return events

    @property
    def points(self) -> list[int]:
        """Card points taken by each side, sides as in :attr:`sides`."""
        sp = self.seat_points
        return [sum(sp[s] for s in side) for side in self.sides]

    def taken(self) -> tuple[tuple[TrickView, ...], tuple[tuple[Card, ...], ...]]:
        """The tricks taken, as a view shows them, and the carichi each side took
        (:func:`~briscola.engine.events.carichi_taken`): made again only once a trick is
        taken (or the sides are known anew), not for every view."""
        tricks, sides = self.tricks, self.sides
        last = tricks[-1] if tricks else None
        kept = self._taken
        if kept is not None and kept[0] == len(tricks) and kept[1] is last and kept[2] is sides:
            return kept[3], kept[4]
        rules = self.rules
        views = tuple(TrickView.of(t) for t in tricks)
        carichi = carichi_taken(tricks, sides, rules.points, carichi=rules.carichi)
        self._taken = (len(tricks), last, sides, views, carichi)
        return views, carichi

    def addon(self, kind: type[Addon]) -> Addon | None:
        """This hand's add-on of the given type, if the rules have one."""
        if not isinstance(kind, type):
            raise MalformedError(
                f"addon: expected an add-on class, like Chiamata, got {shown(kind)}"
            )
        for a in self.addons:
            if isinstance(a, kind):
                return a
        return None

    def to_draw(self) -> tuple[Card, ...]:
        """The cards still to draw, in drawing order: the next first, the turned card
        (while it lies under the stock) last."""
        return tuple(reversed(self.pile))

    def contract(self) -> tuple[tuple[int, ...], int] | None:
        """A side that wins this hand by taking at least so many card points, as
        ``(seats, points)``, known at the table or not: in chiamata, once the card is
        called, the caller and the holder of the called card (see
        :meth:`Addon.contract <briscola.engine.addons.Addon.contract>`); ``None`` where
        the side with the most points wins."""
        for addon in self.addons:
            found = addon.contract(self)
            if found is not None:
                return found
        return None

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now (none when the hand is over)."""
        if self.phase == PLAY:
            seat = self.turn
            hand = self.hands[seat]
            plays = self._plays[seat]
            if self.trick and self.rules.follow_suit:
                led = self.trick[0].suit
                same = [c for c in hand if c.suit is led]
                actions: list[Action] = [plays[c] for c in (same or hand)]
            else:
                actions = [plays[c] for c in hand]
            for addon in self.addons:
                actions.extend(addon.legal(self))
            return actions
        if self.phase == OVER:
            return []
        return self._owner().legal(self)

    def _owner(self) -> Addon:
        """The add-on whose phase this is.

        :raises MalformedError: when the phase is none of this hand's.
        """
        owner = self._phase_owner.get(self.phase)
        if owner is None:
            known = [str(p) for p in (PLAY, OVER, *self._phase_owner)]
            raise MalformedError(
                f"the hand's phase {shown(self.phase)} is none of this game's phases: "
                f"{', '.join(known)}"
            )
        return owner

    def check(self, action: Action) -> None:
        """Raise an :class:`IllegalActionError` saying why ``action`` is not legal now, or a
        :class:`MalformedError` when it is no action at all (see :func:`check_form`)."""
        check_form(action)
        if self.phase == OVER:
            raise GameOverError("the hand is over; no more actions can be taken")
        seat = action.seat
        if seat != self.turn:
            if not 0 <= seat < self.n:
                raise IllegalActionError(
                    f"there is no seat {shown(seat)}: seats are 0 to {self.n - 1}"
                )
            raise NotYourTurnError(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        if self.phase != PLAY:
            self._owner().check(self, action)
            return
        if not isinstance(action, Play):
            handler = self._handlers.get(type(action))
            if handler is None:
                raise IllegalActionError(
                    f"{ACTION_NAMES[type(action)]} is not part of the rules at this table"
                )
            handler.check(self, action)
            return
        card = action.card
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalActionError(f"seat {seat} does not hold {card}")
        if self.rules.follow_suit and self.trick:
            led = self.trick[0].suit
            if card.suit is not led and any(c.suit is led for c in hand):
                raise IllegalActionError(
                    f"seat {seat} must follow suit: {card} is not {led.italian} "
                    f"and the hand holds {led.italian}"
                )

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be taken now.

        :raises MalformedError: when it is no action at all.
        """
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    # ----------------------------------------------------------------- transitions

    def apply(self, action: Action) -> list[Event]:
        """Check and apply ``action``; return the events it caused, each with its audience.

        :raises IllegalActionError: when the action is not legal now (nothing changes).
        :raises MalformedError: when it is no action at all (nothing changes).
        """
        if type(action) is not Play or self.phase != PLAY:
            self.check(action)
            owner = self._owner() if self.phase != PLAY else self._handlers[type(action)]
            action = owner.logged(self, action)
            self.moves.append(action)
            return owner.apply(self, action)
        seat = action.seat
        card = action.card
        if seat is not self.turn:
            # Identity, not equality: the seat to act is a small int, one object, so only
            # that int skips the full check; any other seat (True, 1.0) goes through it.
            self.check(action)  # raises: not this seat's turn, no such seat, not a seat
        hand = self.hands[seat]
        if card not in hand or (self.trick and self.rules.follow_suit):
            self.check(action)  # the full check, which raises with the reason
        # Playing a card is the hot path of search and random play: it is written out here.
        self.moves.append(action)
        hand.remove(card)
        known = self.known[seat]
        if known:
            known.discard(card)
        trick = self.trick
        trick.append(card)
        events: list[Event] = [CardPlayed(seat, card)]
        if self._on_play:
            for addon in self._on_play:
                addon.after_play(self, seat, card, events)
        k = len(trick)
        if k < len(self.order):
            self.turn = self.order[k]
        else:
            self._end_trick(events)
        return events

    def apply_logged(self, action: Action) -> Applied:
        """Like :meth:`apply`, and also give back the action as the hand's log (and so its
        record) keeps it: ``action`` itself, or with what the engine added to it (the
        opponents who spotted a signal under ``signal_audience=spotted``). A host that
        stores moves one by one stores this one.

        :raises IllegalActionError: when the action is not legal now (nothing changes).
        :raises MalformedError: when it is no action at all (nothing changes).
        """
        events = self.apply(action)
        return Applied(self.moves[-1], events)

    def _end_trick(self, events: list[Event]) -> None:
        rules = self.rules
        cards = self.trick
        order = self.order
        strength = rules.strength
        trump = self.trump
        best = 0
        top = cards[0]
        for i in range(1, len(cards)):
            c = cards[i]
            if c.suit is top.suit:
                if strength[c] > strength[top]:
                    best = i
                    top = c
            elif c.suit is trump:
                best = i
                top = c
        winner = order[best]
        points = rules.points
        pts = 0
        for c in cards:
            pts += points[c]
        self.seat_points[winner] += pts
        won = TrickWon(winner, order[0], order, tuple(cards), pts)
        self.tricks.append(won)
        events.append(won)
        self.trick = []
        for addon in self.addons:
            addon.after_trick(self, won, events)
        self._draw(winner, events)
        self._next_trick(winner, events)
        if self.phase is PLAY:
            for addon in self.addons:
                addon.before_lead(self, events)

    def _draw(self, winner: int, events: list[Event]) -> None:
        pile = self.pile
        if not pile:
            return
        hands = self.hands
        audience = self._draw_audience
        seq = self.rules.rounds_from[winner]
        for _ in range(self.rules.game.rounds):
            for seat in seq:
                card = pile.pop()
                hands[seat].append(card)
                if pile:
                    events.append(CardDrawn(seat, card, audience[seat]))
                    continue
                if self.turned is not None:
                    # The last card of the pile is the turned card: everyone sees who takes it.
                    self.turned = None
                    self.known[seat].add(card)
                    events.append(CardDrawn(seat, card, None))
                else:
                    events.append(CardDrawn(seat, card, audience[seat]))
                self._stock_ran_out(events)
                return
        if self.rules.game.open_hands and self.stock_size:
            events.append(StockTop(pile[-1]))

    def _stock_ran_out(self, events: list[Event]) -> None:
        rules = self.rules
        if rules.show_partner_hands:
            self.shown = True
            for seat, hand in enumerate(self.hands):
                partners = frozenset(rules.sides[rules.side_of[seat]]) - {seat}
                events.append(HandShown(seat, tuple(hand), partners))

    def _next_trick(self, leader: int, events: list[Event]) -> None:
        if self.pile:
            # Everyone drew whole rounds, so all hold as many cards: a full trick.
            self.order = self._orders[leader]
            self.turn = leader
            return
        hands = self.hands
        counts = [len(h) for h in hands]
        most = max(counts)
        if most == 0:
            self._finish(events)
            return
        least = min(counts)
        if most == least and most >= self.rules.game.rounds:
            self.order = self._orders[leader]
        else:
            # Briškula's uneven last round of drawing: only the players who drew play to the
            # next trick, so that all again hold as many cards (rules.md §2).
            seq = self.rules.rounds_from[leader]
            if most == least:
                self.order = seq * most
            else:
                self.order = tuple(s for s in seq if counts[s] > least) * (most - least)
        self.turn = leader

    # ----------------------------------------------------------------- what add-ons change
    # The narrow interface of :class:`~briscola.engine.addons.TrickEngine`: an add-on
    # changes the hand only through these, never by assigning the fields.

    def set_turn(self, seat: int, phase: Phase) -> None:
        """Give the turn to ``seat``, in ``phase`` (an add-on's own phase, such as the
        auction, or back to the play of the current trick)."""
        self.phase = phase
        self.turn = seat

    def lead(self, seat: int) -> None:
        """Let ``seat`` lead the next trick: the play phase, the seats in playing order
        from it."""
        self.phase = PLAY
        self.order = self._orders[seat]
        self.turn = seat

    def set_trump(self, suit: Suit | None) -> None:
        """Make ``suit`` the trump suit (chiamata's called card names it); ``None``: no
        trump yet."""
        self.trump = suit

    def set_sides(self, sides: tuple[tuple[int, ...], ...]) -> None:
        """The sides as the whole table now knows them, in the order of their lowest seat
        (chiamata: once the called card is played)."""
        self.sides = sides
        self.side_of = tuple(
            next(i for i, side in enumerate(sides) if s in side) for s in range(self.n)
        )

    def swap_turned(self, seat: int, card: Card) -> Card:
        """The trump exchange: ``seat`` gives ``card`` from its hand for the turned card,
        which it takes and which everyone then knows it holds; ``card`` lies turned under
        the stock in its place. Returns the card taken."""
        taken = self.turned
        if taken is None:
            raise IllegalActionError("the turned card has already been drawn")
        hand = self.hands[seat]
        hand.remove(card)
        hand.append(taken)
        self.pile[0] = card
        self.turned = card
        self.known[seat].add(taken)
        return taken

    def finish(self, events: list[Event]) -> None:
        """End the hand now (all cards played, or an add-on ends it early)."""
        self._finish(events)

    def _finish(self, events: list[Event]) -> None:
        self.phase = OVER
        self.turn = -1
        rules = self.rules
        carichi = carichi_taken(self.tricks, self.sides, rules.points, carichi=rules.carichi)
        events.append(
            HandOver(tuple(self.points), self.winners(), sides=self.sides, carichi=carichi)
        )

    def winners(self) -> tuple[int, ...]:
        """The seats of the side that won the finished hand, or ``()`` (unfinished, or tied)."""
        if self.phase != OVER:
            return ()
        for addon in self.addons:
            decided = addon.winners(self)
            if decided is not None:
                return decided
        points = self.points
        best = max(points)
        tops = [i for i, p in enumerate(points) if p == best]
        if len(tops) == 1:
            return self.sides[tops[0]]
        last_side = self.side_of[self.tricks[-1].winner] if self.tricks else -1
        if self.rules.tie_to_last_trick and last_side in tops:
            return self.sides[last_side]
        return ()

    # ----------------------------------------------------------------- records

    def copy(self) -> GameState:
        """An independent copy (for search); the rule set and deal are shared, being frozen."""
        new = GameState.__new__(GameState)
        for name in (
            "rules",
            "deal",
            "n",
            "turned",
            "trump",
            "order",
            "turn",
            "phase",
            "shown",
            "sides",
            "side_of",
            "_orders",
            "_plays",
            "_draw_audience",
            "_start_events",
            "_taken",
        ):
            object.__setattr__(new, name, getattr(self, name))
        new.hands = [list(h) for h in self.hands]
        new.pile = list(self.pile)
        new.trick = list(self.trick)
        new.seat_points = list(self.seat_points)
        new.tricks = list(self.tricks)
        new.moves = list(self.moves)
        new.known = [set(k) for k in self.known]
        new.addons = tuple(a.copy() for a in self.addons)
        new._handlers = {t: a for a in new.addons for t in a.actions}
        new._phase_owner = {p: a for a in new.addons for p in a.phases}
        new._on_play = _watching_plays(new.addons)
        return new

    def to_record(self) -> dict[str, Any]:
        """The game record of this hand so far (see docs/records.md)."""
        return Record(self.rules, self.deal, tuple(self.moves)).to_json()

    def __repr__(self) -> str:
        return (
            f"<GameState {self.rules.key} phase={self.phase} turn={self.turn} "
            f"tricks={len(self.tricks)} points={self.points}>"
        )
