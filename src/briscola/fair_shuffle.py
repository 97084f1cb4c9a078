"""The fair shuffle: live deals from ``secrets``, each committed to before it is played.

:class:`FairDeals` is a match's deal source (:class:`~briscola.engine.match.DealSource`)
for a live table: it shuffles with ``secrets.SystemRandom()``, draws a fresh salt for each
hand, and keeps the hand's commitment, the SHA-256 of the canonical deal and the salt
(:func:`~briscola.engine.fairness.committed_bytes`), which the table publishes as soon as
the hand is dealt. When the hand ends the table reveals the salt, and anyone can check the
deal against the commitment: :func:`check_record`, ``briscola verify``, or any SHA-256 tool
(docs/fairness.md).

>>> import random
>>> from briscola.engine import Match, Rules
>>> deals = FairDeals(random.Random(3))  # a live table leaves rng out: secrets' own
>>> m = Match(Rules.make("briscola-2", {"match": "one-hand"}), deals=deals)
>>> len(deals.commitment_of(1))
64
>>> while not m.over:
...     _ = m.apply(m.hand.legal_actions()[0])
>>> [h.ok for h in check_record(deals.match_record(m))]
[True]
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from briscola.engine import Deal, GameState, MalformedError, Match, Rules, shuffled_deal
from briscola.engine.errors import shown
from briscola.engine.fairness import Fairness, committed_bytes
from briscola.engine.game_record import Record, parse_record
from briscola.engine.match import parse_match_record


def commitment(deal: Deal, salt: str) -> str:
    """The commitment to ``deal`` under ``salt``: the SHA-256, in lowercase hexadecimal, of
    the canonical deal followed by the salt's 64 hexadecimal digits."""
    return hashlib.sha256(committed_bytes(deal, salt)).hexdigest()


def verify_commitment(deal: Deal, salt: str, commitment_hex: str) -> bool:
    """Whether ``commitment_hex`` is the commitment to ``deal`` under ``salt``."""
    if not isinstance(commitment_hex, str):
        return False
    return hmac.compare_digest(commitment(deal, salt), commitment_hex)


@dataclass(frozen=True)
class Committed:
    """One hand a :class:`FairDeals` dealt: its number (the first hand is 1), deal, salt
    and commitment. The salt stays secret until the hand ends."""

    number: int
    deal: Deal
    salt: str
    commitment: str

    def published(self) -> Fairness:
        """The ``fairness`` field while the hand is played: the commitment alone."""
        return Fairness(self.commitment)

    def revealed(self) -> Fairness:
        """The ``fairness`` field once the hand is over: the commitment and the salt."""
        return Fairness(self.commitment, self.salt)


class FairDeals:
    """A deal source committing to each deal it gives: called by the match as each hand is
    dealt, it shuffles with ``rng`` (``secrets.SystemRandom()`` when left out; a seeded
    ``random.Random`` only in tests), draws a 256-bit salt with the same ``rng``, and keeps
    the hand's :class:`Committed`. ``dealt`` continues a source from the hands it dealt
    before (a table rebuilt after a restart, from its stored hands)."""

    def __init__(self, rng: random.Random | None = None, dealt: Iterable[Committed] = ()) -> None:
        if rng is None:
            rng = secrets.SystemRandom()
        if not isinstance(rng, random.Random):
            raise MalformedError(
                "FairDeals: expected a random.Random, like secrets.SystemRandom(), "
                f"got {shown(rng)}"
            )
        self.rng = rng
        self.dealt: list[Committed] = list(dealt)
        """Every hand dealt, in order: ``dealt[n - 1]`` is hand ``n``."""
        self.expected: list[Committed] = []
        """Hands another process dealt and stored, to give next instead of shuffling."""

    def expect(self, hand: Committed) -> None:
        """Give ``hand`` (the next to deal: its number is the next one) when the match next
        deals, instead of a new shuffle: a hand another server process dealt and stored,
        for a table followed there by its log (the same log replayed deals the same)."""
        number = len(self.dealt) + len(self.expected) + 1
        if hand.number != number:
            raise MalformedError(f"FairDeals: expected hand {number} next, got hand {hand.number}")
        self.expected.append(hand)

    def __call__(self, rules: Rules, dealer: int) -> Deal:
        if self.expected:
            hand = self.expected.pop(0)
            self.dealt.append(hand)
            return hand.deal
        deal = shuffled_deal(rules, dealer, self.rng)
        salt = f"{self.rng.getrandbits(256):064x}"
        number = len(self.dealt) + 1
        self.dealt.append(Committed(number, deal, salt, commitment(deal, salt)))
        return deal

    def _hand(self, number: int) -> Committed:
        if not isinstance(number, int) or not 1 <= number <= len(self.dealt):
            raise MalformedError(
                f"FairDeals: no hand {shown(number)}; the hands dealt are 1 to {len(self.dealt)}"
            )
        return self.dealt[number - 1]

    def commitment_of(self, number: int) -> str:
        """The commitment to hand ``number`` (the first is 1), to publish when it is dealt."""
        return self._hand(number).commitment

    def reveal(self, number: int) -> str:
        """The salt of hand ``number``, to reveal once that hand is over (never before: with
        it and the commitment the deal could be found)."""
        return self._hand(number).salt

    def of_deal(self, deal: Deal) -> Committed | None:
        """The hand this source dealt as ``deal``, if it did."""
        return next((c for c in reversed(self.dealt) if c.deal == deal), None)

    def fairness(self, deal: Deal, over: bool) -> Fairness | None:
        """The ``fairness`` field of the hand dealt as ``deal``: the salt revealed only when
        the hand is ``over``; ``None`` for a deal this source did not give."""
        hand = self.of_deal(deal)
        if hand is None:
            return None
        return hand.revealed() if over else hand.published()

    def announced(self, match: Match) -> list[dict[str, Any]]:
        """What a table announces of ``match``'s deals, in the order it happens: each hand's
        commitment as it is dealt (``hand_committed``), its salt and deal once it is over
        (``hand_revealed``). A table host adds them to every seat's stream
        (:class:`briscola.host.Notary`)."""
        done = len(match.finished)
        out = []
        for c in self.dealt:
            out.append(_committed(c))
            if c.number <= done:
                out.append(_revealed(c))
        return out

    def published(self, match: Match) -> list[dict[str, Any]]:
        """Where each hand of ``match`` dealt so far stands: its commitment, with its salt
        and deal once it is over (a table's snapshot)."""
        done = len(match.finished)
        return [_revealed(c) if c.number <= done else _committed(c) for c in self.dealt]

    def hand_record(self, state: GameState) -> dict[str, Any]:
        """The hand's game record with its ``fairness`` field (the salt once it is over)."""
        fair = self.fairness(state.deal, state.over)
        return Record(state.rules, state.deal, tuple(state.moves), fair).to_json()

    def match_record(self, match: Match) -> dict[str, Any]:
        """The match record with each hand's ``fairness`` field: every finished hand's salt
        revealed, the hand in play's commitment alone."""
        record = match.to_record()
        states = list(match.finished)
        if not states or states[-1] is not match.hand:
            states.append(match.hand)
        for hand, state in zip(record["hands"], states, strict=True):
            fair = self.fairness(state.deal, any(state is f for f in match.finished))
            if fair is not None:
                hand["fairness"] = fair.to_json()
        return record


def _committed(c: Committed) -> dict[str, Any]:
    return {"type": "hand_committed", "hand": c.number, "commitment": c.commitment}


def _revealed(c: Committed) -> dict[str, Any]:
    return {
        "type": "hand_revealed",
        "hand": c.number,
        "commitment": c.commitment,
        "salt": c.salt,
        "deal": c.deal.to_json(),
    }


@dataclass(frozen=True)
class HandCheck:
    """One hand's commitment checked: ``hand`` is its index in a match record (``None`` for
    a record of one hand), ``commitment`` the one written, ``computed`` the deal's own."""

    hand: int | None
    commitment: str
    computed: str

    @property
    def ok(self) -> bool:
        return hmac.compare_digest(self.commitment, self.computed)

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "ok": self.ok,
            "commitment": self.commitment,
            "computed": self.computed,
        }


def check_record(obj: object) -> list[HandCheck]:
    """Check each hand of a record (a game record or a match record, as JSON) against its
    commitment: the commitment of its deal under its revealed salt, computed again.

    :raises MalformedError: for a malformed record, or a hand with no commitment or whose
        salt is not revealed, naming the field.
    """
    hands: list[tuple[int | None, Record]]
    if isinstance(obj, dict) and "hands" in obj and "deal" not in obj:
        hands = [(i, h) for i, h in enumerate(parse_match_record(obj).hands)]
    else:
        hands = [(None, parse_record(obj))]
    checks = []
    for index, hand in hands:
        where = "" if index is None else f"hands[{index}]."
        if hand.fairness is None:
            raise MalformedError(
                f"{where}fairness: missing: the hand was not dealt with a commitment, so "
                "there is nothing to verify"
            )
        salt = hand.fairness.salt
        if salt is None:
            raise MalformedError(
                f"{where}fairness.salt: missing: the salt is revealed when the hand ends; "
                "download the record once the hand is over"
            )
        checks.append(HandCheck(index, hand.fairness.commitment, commitment(hand.deal, salt)))
    return checks
