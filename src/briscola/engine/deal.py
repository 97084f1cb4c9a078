"""Deals: who holds what when play starts, made from a shuffle or read from a record.

Randomness comes in from the caller: a seeded ``random.Random`` for tests and
replays, ``secrets.SystemRandom()`` for live games. The engine never reaches for
a global generator.

>>> import random
>>> from briscola.engine.rules import Rules
>>> d = shuffled_deal(Rules.make("briscola-2"), dealer=1, rng=random.Random(7))
>>> [len(h) for h in d.hands], len(d.stock), d.trump is not None
([3, 3], 33, True)
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from briscola.engine.cards import Card
from briscola.engine.errors import MalformedError, shown
from briscola.engine.rules import Rules


@dataclass(frozen=True)
class Deal:
    """The starting position of a hand."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's starting hand, by seat."""
    trump: Card | None
    """The turned card, drawn after the last card of the stock; ``None`` in games without."""
    stock: tuple[Card, ...]
    """The face-down stock, top (next drawn) first."""
    seed: int | None = None
    """Seed of the hand's own chances (signals spotted by opponents), where the rules have any."""

    def cards(self) -> list[Card]:
        out = [c for h in self.hands for c in h]
        out.extend(self.stock)
        if self.trump is not None:
            out.append(self.trump)
        return out

    def check(self, rules: Rules) -> None:
        """Raise :class:`MalformedError` unless this deal fits the rules exactly."""
        if not isinstance(rules, Rules):
            raise MalformedError(
                f"expected the table's Rules, like Rules.make('briscola-2'), got {shown(rules)}"
            )
        problem = not_cards(self)
        if problem:
            raise MalformedError(f"deal: {problem}")
        n = rules.players
        dealer = self.dealer
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
            raise MalformedError(
                f"deal.dealer: expected a seat from 0 to {n - 1}, got {shown(dealer)}"
            )
        if len(self.hands) != n:
            raise MalformedError(
                f"deal.hands: {rules.key} has {n} seats, got {len(self.hands)} hands"
            )
        size = rules.game.hand_size
        for seat, hand in enumerate(self.hands):
            if len(hand) != size:
                raise MalformedError(
                    f"deal.hands[{seat}]: each hand starts with {size} cards, got {len(hand)}"
                )
        if rules.game.turned_trump and self.trump is None:
            raise MalformedError(f"deal.trump: {rules.key} turns a card for trump; give it")
        if not rules.game.turned_trump and self.trump is not None:
            raise MalformedError(f"deal.trump: {rules.key} has no turned card; use null")
        back = rules.turned_back
        if (
            self.trump is not None
            and self.trump.rank in back
            and any(c.rank not in back for c in self.stock)
        ):
            raise MalformedError(
                f"deal.trump: with turned_high=reshuffle the turned card cannot be {self.trump}"
            )
        counts = Counter(self.cards())
        doubled = sorted(str(c) for c, k in counts.items() if k > 1)
        if doubled:
            raise MalformedError(f"deal: these cards appear more than once: {' '.join(doubled)}")
        have = set(counts)
        full = set(rules.deck)
        for removed in rules.removals:
            if have == full - removed:
                return
        missing = sorted(str(c) for c in full - have)
        foreign = sorted(str(c) for c in have - full)
        parts = []
        if foreign:
            parts.append(f"cards not in the {rules.key} deck: {' '.join(foreign)}")
        if missing:
            parts.append(f"missing: {' '.join(missing)}")
        raise MalformedError("deal: the cards must be exactly the game's deck; " + "; ".join(parts))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "dealer": self.dealer,
            "hands": [[str(c) for c in h] for h in self.hands],
            "trump": None if self.trump is None else str(self.trump),
            "stock": [str(c) for c in self.stock],
        }
        if self.seed is not None:
            out["seed"] = self.seed
        return out


def shuffled_deal(rules: Rules, dealer: int, rng: random.Random) -> Deal:
    """Shuffle, cut if the table cuts, deal one card at a time from the seat after the
    dealer, turn the trump card, and apply the turned-ace house rule.

    :raises MalformedError: when ``dealer`` is not a seat of the table or ``rng`` no
        ``random.Random``.
    """
    check_dealer(rules, dealer)
    if not isinstance(rng, random.Random):
        raise MalformedError(
            f"shuffled_deal: expected a random.Random, like random.Random(1), got {shown(rng)}"
        )
    removed = rules.removals[0] if len(rules.removals) == 1 else rng.choice(rules.removals)
    deck = [c for c in rules.deck if c not in removed]
    rng.shuffle(deck)
    if rules.cut:
        at = rng.randint(4, len(deck) - 4)
        deck = deck[at:] + deck[:at]
    n = rules.players
    size = rules.game.hand_size
    hands: list[list[Card]] = [[] for _ in range(n)]
    pos = 0
    for _ in range(size):
        for k in range(n):
            hands[(dealer + 1 + k) % n].append(deck[pos])
            pos += 1
    rest = deck[pos:]
    trump: Card | None = None
    if rules.game.turned_trump:
        trump = rest.pop(0)
        back = rules.turned_back
        while trump.rank in back and any(c.rank not in back for c in rest):
            rest.insert(len(rest) // 2, trump)
            trump = rest.pop(0)
    seed = rng.getrandbits(63) if rules.needs_seed else None
    return Deal(dealer, tuple(tuple(h) for h in hands), trump, tuple(rest), seed)


def not_cards(deal: Deal) -> str:
    """What is wrong with the shape of ``deal``: hands and stock that are no lists of cards,
    a turned card that is none; ``""`` when nothing is."""
    hands = deal.hands
    if not isinstance(hands, tuple | list) or not all(isinstance(h, tuple | list) for h in hands):
        return f"the hands are a list of lists of cards, not {shown(hands)}"
    if not isinstance(deal.stock, tuple | list):
        return f"the stock is a list of cards, not {shown(deal.stock)}"
    if deal.trump is not None and not isinstance(deal.trump, Card):
        return f"the turned card is a Card or None, not {shown(deal.trump)}"
    odd = next((c for c in deal.cards() if not isinstance(c, Card)), None)
    if odd is not None:
        return f"it holds {shown(odd)}, which is not a Card (Card.parse('5b') is one)"
    return ""


def check_dealer(rules: object, dealer: object) -> None:
    """Raise :class:`MalformedError` unless ``rules`` is a rule set and ``dealer`` one of its
    seats."""
    if not isinstance(rules, Rules):
        raise MalformedError(
            f"expected the table's Rules, like Rules.make('briscola-2'), got {shown(rules)}"
        )
    n = rules.players
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
        raise MalformedError(f"the dealer is a seat from 0 to {n - 1}, not {shown(dealer)}")


def deal_from_json(obj: object, rules: Rules) -> Deal:
    """Read and check the ``deal`` object of a record."""
    if not isinstance(obj, dict):
        raise MalformedError("deal: expected an object with dealer, hands, trump and stock")
    unknown = set(obj) - {"dealer", "hands", "trump", "stock", "seed"}
    if unknown:
        raise MalformedError(f"deal: unknown field {shown(min(unknown, key=str))}")
    for key in ("dealer", "hands", "stock"):
        if key not in obj:
            raise MalformedError(f"deal.{key}: missing")
    dealer = obj["dealer"]
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise MalformedError(f"deal.dealer: expected a seat number, got {shown(dealer)}")
    hands_raw = obj["hands"]
    if not isinstance(hands_raw, list):
        raise MalformedError("deal.hands: expected a list of hands, one per seat")
    hands = tuple(tuple(_cards(h, f"deal.hands[{i}]")) for i, h in enumerate(hands_raw))
    trump_raw = obj.get("trump")
    trump = None if trump_raw is None else _card(trump_raw, "deal.trump")
    stock = tuple(_cards(obj["stock"], "deal.stock"))
    seed = obj.get("seed")
    if seed is not None and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64
    ):
        raise MalformedError(
            f"deal.seed: expected a whole number from 0 to 2^64 - 1, got {shown(seed)}"
        )
    if seed is None and rules.needs_seed:
        raise MalformedError(
            "deal.seed: signals spotted by chance need the seed of the hand's chances"
        )
    deal = Deal(dealer, hands, trump, stock, seed)
    deal.check(rules)
    return deal


def _card(value: object, where: str) -> Card:
    try:
        return Card.parse(value)  # type: ignore[arg-type]  # parse rejects non-strings itself
    except MalformedError as e:
        raise MalformedError(f"{where}: {e}") from None


def _cards(value: object, where: str) -> list[Card]:
    if not isinstance(value, list):
        raise MalformedError(f'{where}: expected a list of cards like ["5b", "Ac"]')
    return [_card(v, f"{where}[{i}]") for i, v in enumerate(value)]
