"""Card counting for bots: what one seat's view tells about the cards and the table.

Everything here is read from a :class:`~briscola.engine.views.View`, never from the
game state: the played tricks, the trick on the table, one's own hand, the hands the
seat is shown, the cards everyone knows a seat took (the turned card), and what the
partners said (signals, answers). :class:`Reading` gathers it once per decision.

>>> import random
>>> from briscola.engine import GameState, Rules, seat_view, shuffled_deal
>>> rules = Rules.make("briscola-2")
>>> state = GameState(rules, shuffled_deal(rules, 1, random.Random(2)))
>>> r = Reading(seat_view(state, 0))
>>> len(r.unseen), r.foes, r.friends, r.after
(36, (1,), (), (1,))
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from briscola.engine.actions import Play
from briscola.engine.cards import Card, Suit
from briscola.engine.house_rules import RuleValue
from briscola.engine.presets import find_game
from briscola.engine.rules import Rules
from briscola.engine.views import View


@dataclass(frozen=True)
class CardTables:
    """The card values of one game: strength order within a suit, and card points."""

    strength: Mapping[Card, int]
    points: Mapping[Card, int]
    deck: frozenset[Card]
    """Every card that can be in play in this game."""
    by_strength: Mapping[Suit, tuple[Card, ...]]
    """Each suit's cards, strongest first."""
    top: int
    """The strength of the strongest rank."""


def rules_of(view: View) -> Rules:
    """The rules of this view: the table's house rules the view carries, compiled once
    (cached). A view made without them (by hand) gets the game's defaults for its number
    of players and teams, with the house rules its play gives away (see
    :func:`read_house_rules`). Every player reads the table's rules through this.

    >>> import random
    >>> from briscola.engine import GameState, seat_view, shuffled_deal
    >>> rules = Rules.make("briscola-2", {"court_order": "south"})
    >>> state = GameState(rules, shuffled_deal(rules, 1, random.Random(2)))
    >>> r = rules_of(seat_view(state, 0))
    >>> r.option("court_order"), r is rules_of(seat_view(state, 1))
    ('south', True)
    """
    if view.rules:
        return compiled_rules(view.game, tuple(sorted(view.rules.items())))
    game = find_game(view.game)
    options: dict[str, RuleValue] = {}
    if "players" in game.rules:
        options["players"] = view.players
    if "teams" in game.rules and len(view.sides) < view.players:
        options["teams"] = "pairs"
    options.update(read_house_rules(view))
    return compiled_rules(game.key, tuple(sorted(options.items())))


@functools.lru_cache(maxsize=64)
def compiled_rules(game: str, options: tuple[tuple[str, RuleValue], ...]) -> Rules:
    """``Rules.make(game, dict(options))``, made once per table."""
    return Rules.make(game, dict(options))


def read_house_rules(view: View) -> dict[str, str]:
    """House rules the play in a view gives away (for views without the table's rules):
    the court order, from a trick whose points or winner fit only the southern order
    (K, J, Q); following suit, from the cards the seat may play to a trick (some held back:
    required; a card of another suit allowed while holding the suit led: free)."""
    game = find_game(view.game)
    out: dict[str, str] = {}
    if "court_order" in game.rules and view.tricks:
        options = {"players": view.players} if "players" in game.rules else {}
        north = compiled_rules(game.key, tuple(options.items()))
        points = north.points
        for t in view.tricks:
            win = trick_winner(zip(t.seats, t.cards, strict=False), view.trump, north.strength)
            if sum(points[c] for c in t.cards) != t.points or (win and win[0] != t.winner):
                out["court_order"] = "south"
                break
    if "follow_suit" in game.rules and view.trick and view.phase == "play":
        led = view.trick[0][1].suit
        plays = {a.card for a in view.legal if isinstance(a, Play)}
        if plays and plays != set(view.hand):
            out["follow_suit"] = "required"
        elif any(c.suit is led for c in view.hand) and any(c.suit is not led for c in plays):
            out["follow_suit"] = "free"
    return out


def tables_for(view: View) -> CardTables:
    """The card values at this table (the rules of this view, see :func:`rules_of`)."""
    return rules_tables(rules_of(view))


def card_tables(game: str, players: int, south: bool = False) -> CardTables:
    """The card values of ``game`` for ``players`` (``south``: the court order K, J, Q).

    >>> t = card_tables("briscola-2", 2)
    >>> t.points[Card.parse("Ab")], t.strength[Card.parse("3b")] > t.strength[Card.parse("Kb")]
    (11, True)
    """
    g = find_game(game)
    options: dict[str, RuleValue] = {}
    if "players" in g.rules:
        options["players"] = players
    if south:
        options["court_order"] = "south"
    return rules_tables(compiled_rules(g.key, tuple(sorted(options.items()))))


@functools.lru_cache(maxsize=64)
def rules_tables(rules: Rules) -> CardTables:
    """The card values of a rule set (cached: :func:`rules_of` makes each table's once)."""
    removed = rules.removals[0] if len(rules.removals) == 1 else frozenset()
    deck = frozenset(rules.deck) - removed
    by_strength = {
        suit: tuple(sorted((c for c in deck if c.suit is suit), key=lambda c: -rules.strength[c]))
        for suit in Suit
    }
    return CardTables(
        strength=rules.strength,
        points=rules.points,
        deck=deck,
        by_strength=by_strength,
        top=max(rules.strength.values()),
    )


def beats(card: Card, top: Card, trump: Suit | None, strength: Mapping[Card, int]) -> bool:
    """Whether ``card`` played now takes the trick from ``top``, the card winning it."""
    if card.suit is top.suit:
        return strength[card] > strength[top]
    return card.suit is trump


def trick_winner(
    trick: Iterable[tuple[int, Card]], trump: Suit | None, strength: Mapping[Card, int]
) -> tuple[int, Card] | None:
    """The seat and card winning the trick so far (``None`` for an empty trick)."""
    best: tuple[int, Card] | None = None
    for seat, card in trick:
        if best is None or beats(card, best[1], trump, strength):
            best = (seat, card)
    return best


class Reading:
    """What the seat to act can work out from its view, gathered once per decision.

    - ``friends``, ``foes``: the other seats on my side and against it, as far as I
      know; ``undecided``: chiamata seats whose side is still secret.
    - ``played``: every card played this hand, the trick on the table included.
    - ``located``: for other seats, cards known to be in their hand (shown hands, a
      turned card they took, trump honours they signalled).
    - ``unseen``: cards whose place is unknown: in some other hand or in the stock.
    - ``hidden``: for other seats, how many of their cards are unknown to me.
    - ``after``: the seats still to play to this trick after me, in order.
    """

    __slots__ = (
        "after", "foes", "friends", "hand", "hidden", "located", "me", "played", "tables",
        "top", "top_seat", "trick_points", "trump", "undecided", "unseen", "view",
    )  # fmt: skip

    def __init__(self, view: View) -> None:
        if view.seat is None:
            raise ValueError("a spectator's view has no hand to read; bots get a seat's view")
        self.view = view
        me = view.seat
        self.me = me
        rules = rules_of(view)
        self.tables = tables = rules_tables(rules)
        self.trump = view.trump
        self.hand = view.hand
        played: set[Card] = {c for t in view.tricks for c in t.cards}
        played.update(c for _, c in view.trick)
        self.played = played
        self.friends, self.foes, self.undecided = sides_of(view, me)
        located: dict[int, set[Card]] = {}
        for seat, cards in view.visible_hands.items():
            located[seat] = set(cards)
        for seat, cards in view.known_cards.items():
            located.setdefault(seat, set()).update(cards)
        if view.trump is not None:
            for t in view.talk:
                rank = rules.signal_ranks.get(t.what) if t.kind == "signal" else None
                if rank is not None and t.seat != me:
                    c = Card(rank, view.trump)
                    if c not in played and c in tables.deck:
                        located.setdefault(t.seat, set()).add(c)
        self.located = located
        placed = {c for cs in located.values() for c in cs}
        unseen = set(tables.deck) - played - set(view.hand) - placed
        if view.turned is not None:
            unseen.discard(view.turned)
        self.unseen = unseen
        self.hidden = {
            s: 0 if s in view.visible_hands else max(0, n - len(located.get(s, ())))
            for s, n in enumerate(view.hand_sizes)
            if s != me
        }
        order = view.trick_order
        k = len(view.trick)
        self.after = tuple(order[k + 1 :]) if k < len(order) else ()
        win = trick_winner(view.trick, view.trump, tables.strength)
        self.top_seat = -1 if win is None else win[0]
        self.top = None if win is None else win[1]
        self.trick_points = sum(tables.points[c] for _, c in view.trick)

    # ------------------------------------------------------------------ questions

    def beaters(self, top: Card) -> list[Card]:
        """Unplayed cards not in my hand that would take a trick from ``top``."""
        strength = self.tables.strength
        trump = self.trump
        out = [c for c in self.tables.by_strength[top.suit] if strength[c] > strength[top]]
        if trump is not None and top.suit is not trump:
            out.extend(self.tables.by_strength[trump])
        mine = set(self.hand)
        return [c for c in out if c not in self.played and c not in mine]

    def chance_holds_none(self, seat: int, cards: Iterable[Card]) -> float:
        """The chance that ``seat`` holds none of ``cards``: certain when its hand is
        shown or one of them is known to be there, else drawn from the unseen cards."""
        wanted = set(cards)
        have = self.located.get(seat)
        if have and have & wanted:
            return 0.0
        unknown = self.hidden.get(seat, 0)
        if unknown == 0:
            return 1.0
        pool = len(self.unseen)
        bad = len(wanted & self.unseen)
        if bad == 0:
            return 1.0
        p = 1.0
        for i in range(unknown):
            if pool - i <= 0:
                break
            p *= max(0, pool - bad - i) / (pool - i)
        return p

    def safe_from(self, seats: Iterable[int], top: Card) -> float:
        """The chance that none of ``seats`` can take a trick from ``top``."""
        beaters = self.beaters(top)
        p = 1.0
        for s in seats:
            if s == self.me:
                continue
            p *= self.chance_holds_none(s, beaters)
            if p == 0.0:
                break
        return p

    def is_friend(self, seat: int) -> bool:
        return seat == self.me or seat in self.friends

    def trumps_unseen(self) -> int:
        """Trumps whose place I do not know (in other hands or the stock)."""
        trump = self.trump
        return 0 if trump is None else sum(1 for c in self.unseen if c.suit is trump)

    def highest_unplayed(self, suit: Suit, exclude_mine: bool = True) -> Card | None:
        """The strongest card of ``suit`` still to be played (not mine, if asked)."""
        mine = set(self.hand) if exclude_mine else set()
        for c in self.tables.by_strength[suit]:
            if c not in self.played and c not in mine:
                return c
        return None


def sides_of(view: View, me: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(friends, foes, undecided) of seat ``me``, as far as its view tells.

    In chiamata each seat stands alone until the called card is played: the caller's
    partner knows it from the start; the others learn it then. Before that the caller
    is a foe of the other seats, and the rest are undecided."""
    others = tuple(s for s in range(view.players) if s != me)
    auction = view.auction
    if auction is None or auction.caller is None:
        side = next((s for s in view.sides if me in s), (me,))
        friends = tuple(s for s in side if s != me)
        return friends, tuple(s for s in others if s not in side), ()
    caller = auction.caller
    partner = auction.partner
    if partner is not None:
        team = {caller, partner}
        if me in team:
            mates = tuple(s for s in team if s != me)
            return mates, tuple(s for s in others if s not in team), ()
        return tuple(s for s in others if s not in team), tuple(sorted(team)), ()
    if me == caller:
        return (), (), others
    return (), (caller,), tuple(s for s in others if s != caller)
