"""Worlds consistent with a view: the hidden cards dealt out, for search.

A seat sees its own hand, every card played, the turned card under the stock, the cards
others are known to hold (a turned card they drew, a trump they took in exchange), hands
shown to it (open hands, partners' hands once the stock runs out, a rais's look), the top
of the stock in scoperta, and what partners told it. Everything else is hidden, and a
:class:`Sampler` deals the hidden cards at random among the places they can be: the other
seats' hands (each to its size) and the face-down stock, in a random order, the turned card
staying at the bottom. It is built from a :class:`~briscola.engine.views.View` alone, so it
cannot read a card the seat was not shown.

Every world of a view is equally likely under the sampler (a uniform prior): the same as
drawing a fresh deal conditioned on everything seen. What is public narrows it: a card
known to be in a hand stays there; in chiamata, the called card is wherever the view
allows (with the caller only when the viewer cannot rule it out); in the three-player game
with a random 2 out of the deck, the 2 that left is any 2 not seen.

>>> import random
>>> from briscola.engine import GameState, Rules, seat_view, shuffled_deal
>>> rules = Rules.make("briscola-2")
>>> state = GameState(rules, shuffled_deal(rules, 1, random.Random(2)))
>>> sampler = Sampler(seat_view(state, 0), rules)
>>> world = sampler.sample(random.Random(1))
>>> len(world.hands[1]), len(world.stock), world.turned == state.turned
(3, 33, True)
>>> seat_view(rebuild_state(seat_view(state, 0), world, rules), 0).hand == tuple(state.hands[0])
True
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from briscola.ai.rules.counting import compiled_rules, rules_of
from briscola.engine.addons import make_addons
from briscola.engine.cards import Card
from briscola.engine.events import TrickWon
from briscola.engine.position import Position
from briscola.engine.rules import Rules
from briscola.engine.state import GameState
from briscola.engine.views import View


@dataclass(frozen=True)
class World:
    """One way the hidden cards may lie."""

    hands: tuple[tuple[Card, ...], ...]
    """Every seat's hand, by seat (the viewer's own as it is)."""
    stock: tuple[Card, ...]
    """The face-down stock, the next card to draw first (the turned card not included)."""
    turned: Card | None
    """The turned card under the stock, drawn last (as in the view)."""
    removed: frozenset[Card]
    """The cards out of the deck for this hand (a 2 in the three-player game)."""
    partner: int | None
    """Chiamata: the seat that holds the called card (or played it), once a card is called."""


def rules_for(
    view: View, rules: Rules | None = None, learned: Mapping[str, str] | None = None
) -> Rules:
    """The rule set to search a view with: the given one, else the rules of the view
    (:func:`~briscola.ai.rules.counting.rules_of`). For a view without the table's house rules
    (made by hand), the house rules ``learned`` from earlier views (see
    :func:`~briscola.ai.rules.counting.read_house_rules`) are added to those."""
    if rules is not None:
        return rules
    base = rules_of(view)
    if view.rules or not learned:
        return base
    game = base.game
    options = dict(base.overrides())
    options.update((k, v) for k, v in learned.items() if k in game.rules)
    return compiled_rules(game.key, tuple(sorted(options.items())))


def seen_cards(view: View) -> set[Card]:
    """Every card the view shows wherever it is: hands, played, on the table, under or on
    top of the stock."""
    seen = set(view.hand)
    for cards in view.visible_hands.values():
        seen.update(cards)
    for cards in view.known_cards.values():
        seen.update(cards)
    for t in view.tricks:
        seen.update(t.cards)
    seen.update(c for _, c in view.trick)
    if view.turned is not None:
        seen.add(view.turned)
    if view.stock_top is not None:
        seen.add(view.stock_top)
    return seen


def pinned_cards(view: View, seen: set[Card]) -> dict[int, list[Card]]:
    """Cards the view places in another seat's hand beyond ``known_cards`` and shown hands:
    a trump honour a partner signalled (it still holds it until it plays it), and
    chiamata's called card when the viewer knows the partner."""
    out: dict[int, list[Card]] = {}
    me = view.seat
    placed: set[Card] = set()

    def pin(seat: int, card: Card) -> None:
        if seat != me and card not in seen and card not in placed:
            out.setdefault(seat, []).append(card)
            placed.add(card)

    if view.trump is not None:
        honours = rules_of(view).signal_ranks
        for talk in view.talk:
            if talk.kind == "signal" and talk.what in honours:
                pin(talk.seat, Card(honours[talk.what], view.trump))
    auction = view.auction
    if auction is not None and auction.called is not None and auction.partner is not None:
        pin(auction.partner, auction.called)
    return out


class OneWorld:
    """A sampler that draws one world always: the cards as they lie (an analysis's values
    with every card seen). It counts as many worlds as a search may ask for, so that the
    search plays that world out as often as it would play out its sampled ones."""

    def __init__(self, world: World) -> None:
        self.world = world

    def count(self) -> int:
        return 1 << 30

    def sample(self, rng: random.Random) -> World:
        return self.world


class Sampler:
    """The hidden part of a view, and random (or all) worlds consistent with it."""

    def __init__(self, view: View, rules: Rules | None = None) -> None:
        self.view = view
        self.rules = rules = rules_for(view, rules)
        n = view.players
        me = view.seat
        seen = seen_cards(view)
        pinned = pinned_cards(view, seen)
        fixed: list[list[Card]] = [[] for _ in range(n)]
        for s in range(n):
            if s == me:
                fixed[s] = list(view.hand)
            elif s in view.visible_hands:
                fixed[s] = list(view.visible_hands[s])
            else:
                fixed[s] = list(view.known_cards.get(s, ())) + pinned.get(s, [])
        slots = [max(0, view.hand_sizes[s] - len(fixed[s])) for s in range(n)]
        for s in range(n):
            if len(fixed[s]) > view.hand_sizes[s]:  # a pin that no longer fits: drop it
                fixed[s] = fixed[s][: view.hand_sizes[s]]
        placed = {c for h in fixed for c in h}
        self.fixed = [tuple(h) for h in fixed]
        self.slots = slots
        self.top = view.stock_top
        self.down = view.stock_size - (1 if view.stock_top is not None else 0)
        """Face-down stock cards whose place is unknown."""
        pool = [c for c in rules.deck if c not in seen and c not in placed]
        need = sum(slots) + self.down
        extra = len(pool) - need
        if extra < 0:
            raise ValueError(
                f"the view does not fit the rules of {rules.key}: {need} hidden places "
                f"but only {len(pool)} unseen cards"
            )
        self.removals: list[frozenset[Card]] = [frozenset()]
        if extra > 0:
            fits = [r for r in rules.removals if len(r) == extra and r <= set(pool)]
            if not fits:
                # the rule set guessed for the view is wrong about the deck: leave out cards
                # of those that may be out, else any (a world is still consistent with the
                # view, only its prior is off)
                maybe = [c for r in rules.removals for c in r if c in pool]
                rest = [c for c in pool if c not in maybe]
                fits = [frozenset((maybe + rest)[:extra])]
            self.removals = fits
        self.pool = pool
        self.called = None if view.auction is None else view.auction.called

    # ------------------------------------------------------------------ counting

    def hidden(self) -> int:
        """How many cards are hidden from the view (in hands and the face-down stock)."""
        return sum(self.slots) + self.down

    def count(self) -> int:
        """How many distinct worlds the view allows."""
        n = self.hidden()
        ways = math.factorial(n)
        for k in self.slots:
            ways //= math.factorial(k)
        return ways * len(self.removals)

    # ------------------------------------------------------------------ worlds

    def _world(self, removed: frozenset[Card], cards: Sequence[Card]) -> World:
        """The world that deals ``cards`` (the pool without ``removed``, in dealing order) to
        the hidden places: each seat's unknown cards in seat order (kept sorted, so that a
        world has one form), then the stock."""
        hands = []
        at = 0
        for s, k in enumerate(self.slots):
            hands.append(self.fixed[s] + tuple(sorted(cards[at : at + k])))
            at += k
        stock = tuple(cards[at:])
        if self.top is not None:
            stock = (self.top, *stock)
        return World(tuple(hands), stock, self.view.turned, removed, self._partner(hands))

    def _partner(self, hands: Sequence[Sequence[Card]]) -> int | None:
        called = self.called
        if called is None:
            return None
        played = self.view.played_by(called)
        if played is not None:
            return played
        for seat, hand in enumerate(hands):
            if called in hand:
                return seat
        return None

    def sample(self, rng: random.Random) -> World:
        """A random world, every consistent world equally likely."""
        removed = self.removals[0] if len(self.removals) == 1 else rng.choice(self.removals)
        cards = [c for c in self.pool if c not in removed]
        rng.shuffle(cards)
        return self._world(removed, cards)

    def worlds(self) -> Iterator[World]:
        """Every consistent world, once each (mind :meth:`count` before asking)."""
        for removed in self.removals:
            cards = [c for c in self.pool if c not in removed]
            yield from self._deals(removed, cards, 0, [])

    def _deals(
        self, removed: frozenset[Card], cards: list[Card], seat: int, dealt: list[Card]
    ) -> Iterator[World]:
        if seat == len(self.slots):
            for order in itertools.permutations(cards):
                yield self._world(removed, dealt + list(order))
            return
        for hand in itertools.combinations(cards, self.slots[seat]):
            rest = [c for c in cards if c not in hand]
            yield from self._deals(removed, rest, seat + 1, dealt + list(hand))


# ---------------------------------------------------------------------------- states


def world_position(view: View, world: World, rules: Rules | None = None) -> Position:
    """The position (:mod:`briscola.engine.position`) of the view with the hidden cards
    where ``world`` puts them, each add-on of the rules building its own part from the view
    (:meth:`Addon.part_from_view <briscola.engine.addons.Addon.part_from_view>`). What no
    view records is left at its start: which kinds of talk a seat already used in the
    current trick, and the stream of spotted signals. The rais do not talk before leads
    from here on: a search plays cards only."""
    rules = rules_for(view, rules)
    n = view.players
    parts = tuple(a.part_from_view(view, world.hands, rules) for a in make_addons(rules))
    turned = world.turned
    return Position(
        dealer=view.dealer,
        hands=world.hands,
        stock=world.stock,
        turned=turned,
        trump=view.trump,
        order=view.trick_order or rules.orders[(view.dealer + 1) % n],
        trick=tuple(c for _, c in view.trick),
        tricks=tuple(TrickWon(t.winner, t.leader, t.seats, t.cards, t.points) for t in view.tricks),
        phase=view.phase,
        turn=-1 if view.to_act is None else view.to_act,
        sides=view.sides,
        known=tuple(frozenset(view.known_cards.get(s, ())) for s in range(n)),
        shown=bool(rules.show_partner_hands and not world.stock and turned is None and view.tricks),
        seed=0 if rules.needs_seed else None,
        addons=parts,
    )


def rebuild_state(view: View, world: World, rules: Rules | None = None) -> GameState:
    """A reference engine state for ``world``: the position of the view with the hidden
    cards where the world puts them (:func:`world_position`), ready to play on (for
    rollouts and exact search). Its :func:`~briscola.engine.views.seat_view` for the view's
    seat is the view again, but its move number: the state's move log starts empty."""
    rules = rules_for(view, rules)
    return GameState.from_position(rules, world_position(view, world, rules))
