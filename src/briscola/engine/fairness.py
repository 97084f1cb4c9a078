"""The fair shuffle's part of a record: a hand's commitment, and its salt once revealed.

A table commits to a deal before its first move by publishing the SHA-256 of
:func:`committed_bytes`: the deal in its canonical form followed by a secret salt. When the
hand ends it reveals the salt, and anyone can hash the deal again (docs/fairness.md). The
hashing itself and the secure shuffle are outside the engine (:mod:`briscola.fair_shuffle`);
here are the exact bytes and the record's ``fairness`` field.

>>> from briscola.engine.cards import parse_cards
>>> deal = Deal(1, (tuple(parse_cards("5b 5c Ad")), tuple(parse_cards("Ab Kb 6s"))),
...             None, tuple(parse_cards("7c")))
>>> canonical_deal(deal)
b'{"dealer":1,"hands":[["5b","5c","Ad"],["Ab","Kb","6s"]],"stock":["7c"],"trump":null}'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from briscola.engine.deal import Deal
from briscola.engine.errors import MalformedError, shown

HEX64 = re.compile(r"[0-9a-f]{64}")
"""A SHA-256 digest or a salt as written: 64 lowercase hexadecimal digits."""


def canonical_deal(deal: Deal) -> bytes:
    """The deal as the bytes a commitment hashes: its record form (``Deal.to_json()``) as
    JSON with the keys sorted, no spaces, in ASCII; the same bytes as Python's
    ``json.dumps(deal, sort_keys=True, separators=(",", ":"))``."""
    fields = deal.to_json()
    return ("{" + ",".join(f'"{k}":{_value(fields[k])}' for k in sorted(fields)) + "}").encode()


def _value(value: object) -> str:
    """One value of a deal's record form as canonical JSON: a list, a card, a number, null."""
    if value is None:
        return "null"
    if isinstance(value, list):
        return "[" + ",".join(_value(v) for v in value) + "]"
    if isinstance(value, str):  # a card: two ASCII letters or digits, nothing to escape
        return f'"{value}"'
    return str(int(value))  # type: ignore[call-overload]  # the dealer, the seed


def committed_bytes(deal: Deal, salt: str) -> bytes:
    """What a commitment is the SHA-256 of: the canonical deal, then the salt's 64
    hexadecimal digits as ASCII text.

    :raises MalformedError: when the salt is not 64 lowercase hexadecimal digits.
    """
    if not isinstance(salt, str) or not HEX64.fullmatch(salt):
        raise MalformedError(f"salt: expected 64 lowercase hexadecimal digits, got {shown(salt)}")
    return canonical_deal(deal) + salt.encode()


@dataclass(frozen=True)
class Fairness:
    """A hand's fair-shuffle field: the commitment published when it was dealt, and the
    salt, revealed once the hand is over (``None`` before)."""

    commitment: str
    salt: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"commitment": self.commitment}
        if self.salt is not None:
            out["salt"] = self.salt
        return out


def fairness_from_json(obj: object) -> Fairness:
    """Read a record's ``fairness`` field: ``{"commitment": hex, "salt": hex}``, the salt
    only once revealed.

    :raises MalformedError: naming the part that is wrong.
    """
    if not isinstance(obj, dict):
        raise MalformedError(
            f'fairness: expected an object like {{"commitment": "...", "salt": "..."}}, '
            f"got {shown(obj)}"
        )
    unknown = set(obj) - {"commitment", "salt"}
    if unknown:
        raise MalformedError(f"fairness: unknown field {shown(min(unknown, key=str))}")
    if "commitment" not in obj:
        raise MalformedError("fairness.commitment: missing")
    for key in ("commitment", "salt"):
        value = obj.get(key)
        if key in obj and (not isinstance(value, str) or not HEX64.fullmatch(value)):
            raise MalformedError(
                f"fairness.{key}: expected 64 lowercase hexadecimal digits, got {shown(value)}"
            )
    return Fairness(obj["commitment"], obj.get("salt"))
