"""One hand in play: the generic trick engine that every game of the family runs on.

The state is a mutable object on purpose: search and random play apply tens of
thousands of actions a second, and copying a frozen state per card would cost
more than the rules themselves. Nothing outside the engine sees it: players,
bots and sockets get :mod:`views <briscola.engine.views>` and visible events.
Every transition goes through :meth:`GameState.apply`, which checks the action
first and changes nothing when it is refused, and returns the events it caused.

>>> import random
>>> from briscola.engine.games import Rules
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

from typing import Any, Final

from briscola.engine.actions import Action, Decline, Exchange, Play
from briscola.engine.cards import Card, Suit
from briscola.engine.deal import Deal
from briscola.engine.errors import GameOverError, IllegalActionError, NotYourTurnError
from briscola.engine.events import (
    CardDrawn,
    CardPlayed,
    Dealt,
    Event,
    ExchangeDeclined,
    HandOver,
    HandShown,
    TrickWon,
    TrumpExchanged,
    TrumpTurned,
)
from briscola.engine.games import Rules

PLAY: Final = "play"
"""Phase: a seat is to play a card (or exchange the turned card on its turn)."""
EXCHANGE: Final = "exchange"
"""Phase: the winner of the trick may exchange the turned card before drawing."""
OVER: Final = "over"
"""Phase: the hand is finished."""


class GameState:
    """A hand of any game of the family, from the deal to the last trick."""

    __slots__ = (
        "_draw_audience", "_orders", "_plays", "deal", "hands", "known", "moves", "n", "order",
        "phase", "pile", "points", "rules", "shown", "trick", "tricks", "trump", "turn", "turned",
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
    phase: str
    points: list[int]
    """Card points taken by each side (sides as in ``rules.sides``)."""
    tricks: list[TrickWon]
    moves: list[Action]
    known: list[set[Card]]
    """Cards everyone knows a seat holds (the turned card it took, by drawing or exchange)."""
    shown: bool
    """Whether partners' hands are shown (the stock ran out under that house rule)."""

    def __init__(self, rules: Rules, deal: Deal) -> None:
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
        self.points = [0] * len(rules.sides)
        self.tricks = []
        self.moves = []
        self.known = [set() for _ in range(n)]
        self.shown = False

    # ----------------------------------------------------------------- queries

    @property
    def over(self) -> bool:
        return self.phase is OVER

    @property
    def stock_size(self) -> int:
        """Face-down cards left in the stock (the turned card not counted)."""
        return len(self.pile) - (self.turned is not None)

    def opening_events(self) -> list[Event]:
        """The events of the deal itself: each seat's hand, and the turned card."""
        open_hands = self.rules.game.open_hands
        events: list[Event] = [
            Dealt(s, tuple(h), None if open_hands else frozenset({s}))
            for s, h in enumerate(self.deal.hands)
        ]
        if self.deal.trump is not None:
            events.append(TrumpTurned(self.deal.trump))
        return events

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now (none when the hand is over)."""
        if self.phase is PLAY:
            seat = self.turn
            hand = self.hands[seat]
            plays = self._plays[seat]
            if self.rules.follow_suit and self.trick:
                led = self.trick[0].suit
                same = [c for c in hand if c.suit is led]
                actions: list[Action] = [plays[c] for c in (same or hand)]
            else:
                actions = [plays[c] for c in hand]
            if self.rules.exchange != "none" and not self.rules.exchange_after_win:
                give = self._exchangeable(seat)
                if give is not None:
                    actions.append(Exchange(seat, give))
            return actions
        if self.phase is EXCHANGE:
            give = self._exchangeable(self.turn)
            assert give is not None
            return [Exchange(self.turn, give), Decline(self.turn)]
        return []

    def _exchangeable(self, seat: int) -> Card | None:
        """The trump card ``seat`` holds and may give for the turned card, if any."""
        turned = self.turned
        if turned is None or len(self.pile) < 2:
            return None
        give = self.rules.exchange_card(turned)
        if give is None or give not in self.hands[seat]:
            return None
        return give

    def check(self, action: Action) -> None:
        """Raise an :class:`IllegalActionError` saying why ``action`` is not legal now."""
        if self.phase is OVER:
            raise GameOverError("the hand is over; no more actions can be taken")
        seat = action.seat
        if seat != self.turn:
            if not 0 <= seat < self.n:
                raise IllegalActionError(f"there is no seat {seat}: seats are 0 to {self.n - 1}")
            raise NotYourTurnError(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        if self.phase is EXCHANGE:
            if isinstance(action, Play):
                raise IllegalActionError(
                    f"seat {seat} won the trick and must first exchange the turned card "
                    "or decline, before drawing"
                )
        elif isinstance(action, Decline):
            raise IllegalActionError("there is no exchange to decline now")
        if isinstance(action, Play):
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
        elif isinstance(action, Exchange):
            self._check_exchange(seat, action.card)

    def _check_exchange(self, seat: int, card: Card) -> None:
        rules = self.rules
        if rules.exchange == "none":
            raise IllegalActionError("this table plays without the trump exchange")
        if self.turned is None:
            raise IllegalActionError("the turned card has already been drawn")
        if len(self.pile) < 2:
            raise IllegalActionError(
                "the stock has run out; the turned card can no longer be exchanged"
            )
        if rules.exchange_after_win and self.phase is not EXCHANGE:
            raise IllegalActionError(
                "at this table the turned card may only be exchanged right after winning "
                "a trick, before drawing"
            )
        give = rules.exchange_card(self.turned)
        if give is None:
            raise IllegalActionError(f"the turned card {self.turned} cannot be exchanged")
        if card is not give:
            raise IllegalActionError(
                f"the turned card {self.turned} can only be exchanged for {give}, not {card}"
            )
        if card not in self.hands[seat]:
            raise IllegalActionError(f"seat {seat} does not hold {card}")

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be taken now."""
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    # ----------------------------------------------------------------- transitions

    def apply(self, action: Action) -> list[Event]:
        """Check and apply ``action``; return the events it caused, each with its audience.

        :raises IllegalActionError: when the action is not legal now (nothing changes).
        """
        if type(action) is not Play or self.phase is not PLAY:
            return self._apply_other(action)
        seat = action.seat
        card = action.card
        if seat != self.turn:
            self.check(action)  # raises: not this seat's turn (or no such seat)
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
        k = len(trick)
        if k < len(self.order):
            self.turn = self.order[k]
        else:
            self._end_trick(events)
        return events

    def _apply_other(self, action: Action) -> list[Event]:
        self.check(action)
        self.moves.append(action)
        if isinstance(action, Exchange):
            events = self._exchange(action.seat, action.card)
        else:
            events = [ExchangeDeclined(action.seat)]
        if self.phase is EXCHANGE:
            self.phase = PLAY
            winner = self.turn
            self._draw(winner, events)
            self._next_trick(winner, events)
        return events

    def _exchange(self, seat: int, give: Card) -> list[Event]:
        taken = self.turned
        assert taken is not None
        hand = self.hands[seat]
        hand.remove(give)
        hand.append(taken)
        self.pile[0] = give
        self.turned = give
        self.known[seat].add(taken)
        return [TrumpExchanged(seat, give, taken)]

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
        self.points[rules.side_of[winner]] += pts
        won = TrickWon(winner, order[0], order, tuple(cards), pts)
        self.tricks.append(won)
        events.append(won)
        self.trick = []
        if (
            rules.exchange_after_win
            and rules.exchange != "none"
            and len(self.pile) > self.n * rules.game.rounds
            and self._exchangeable(winner) is not None
        ):
            self.phase = EXCHANGE
            self.turn = winner
            return
        self._draw(winner, events)
        self._next_trick(winner, events)

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

    def _stock_ran_out(self, events: list[Event]) -> None:
        rules = self.rules
        if rules.teams and rules.options.get("show_partner_hands") == "yes":
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
            # next trick, so that all again hold as many cards (RULES.md §2).
            seq = self.rules.rounds_from[leader]
            if most == least:
                self.order = seq * most
            else:
                self.order = tuple(s for s in seq if counts[s] > least) * (most - least)
        self.turn = leader

    def _finish(self, events: list[Event]) -> None:
        self.phase = OVER
        self.turn = -1
        events.append(HandOver(tuple(self.points), self.winners()))

    def winners(self) -> tuple[int, ...]:
        """The seats of the side that won the finished hand, or ``()`` (unfinished, or tied)."""
        if self.phase is not OVER:
            return ()
        rules = self.rules
        best = max(self.points)
        tops = [i for i, p in enumerate(self.points) if p == best]
        if len(tops) == 1:
            return rules.sides[tops[0]]
        last_side = rules.side_of[self.tricks[-1].winner] if self.tricks else -1
        if rules.options.get("sixty_sixty") == "last-trick" and last_side in tops:
            return rules.sides[last_side]
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
            "_orders",
            "_plays",
            "_draw_audience",
        ):
            object.__setattr__(new, name, getattr(self, name))
        new.hands = [list(h) for h in self.hands]
        new.pile = list(self.pile)
        new.trick = list(self.trick)
        new.points = list(self.points)
        new.tricks = list(self.tricks)
        new.moves = list(self.moves)
        new.known = [set(k) for k in self.known]
        return new

    def to_record(self) -> dict[str, Any]:
        """The game record of this hand so far (see docs/records.md)."""
        return {
            "game": self.rules.key,
            "rules": self.rules.overrides(),
            "deal": self.deal.to_json(),
            "moves": [m.to_json() for m in self.moves],
        }

    def __repr__(self) -> str:
        return (
            f"<GameState {self.rules.key} phase={self.phase} turn={self.turn} "
            f"tricks={len(self.tricks)} points={self.points}>"
        )
