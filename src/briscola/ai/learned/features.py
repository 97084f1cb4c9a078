"""What the networks read: a head-to-head position (:mod:`briscola.ai.cores.head_to_head`)
as a vector of numbers, from one seat's side.

Two ways to read a position:

- **as the seat sees it** (``full=False``): its own hand, the cards gone, the turned card,
  the card on the table; everything else is "unseen" alike, the opponent's hand and the
  face-down stock together. Every world of one view reads the same. The policy reads this.
- **as a world lies** (``full=True``): the opponent's hand apart from the face-down stock
  (whose order is still not read: nobody knows it). The value at the leaves of the
  search reads this, in each world it samples.

The layout (:data:`N_FEATURES` numbers): six blocks of 40, one number a card id (``suit *
10 + strength``; a 32-card deck leaves its missing ids at 0), then the trump suit, then
a few plain numbers:

====  ==========================================================================
0     the seat's hand
40    the opponent's hand (``full``) or nothing
80    unseen: the face-down stock (``full``) or the stock and the opponent's hand
120   the turned card, while it is still to be drawn
160   the card on the table
200   the cards gone (taken in tricks)
240   the trump suit, one of four (none in games without trump)
244   the seat's points, the opponent's points (over 120), the cards left to draw (over
      34), the seat's and the opponent's hand sizes (over 5), 1 if the seat is to move,
      1 if the seat won the last trick, 1 if suit must be followed
====  ==========================================================================

>>> from briscola.ai.learned.features import N_FEATURES
>>> N_FEATURES
252
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from briscola.ai.cores.compiled import jit
from briscola.ai.cores.head_to_head import (
    DRAW,
    FOLLOW,
    LASTW,
    MAXH,
    ND,
    NH,
    PTS,
    SP,
    TRICK,
    TRUMP,
    Array,
    H,
    to_move,
)

HAND, OPP, UNSEEN, TURNED, TABLE, GONE = 0, 40, 80, 120, 160, 200
SUIT = 240
PLAIN = 244
N_FEATURES = PLAIN + 8
MAX_ACTIVE = 48
"""Most numbers that are not zero in one reading: 40 cards at most are somewhere, one
trump suit, eight plain numbers."""

F32 = npt.NDArray[np.float32]


@jit
def encode(pos: Array, seat: int, full: bool, deck: int, idx: Array, val: F32) -> int:
    """Write the numbers of ``pos`` read from ``seat`` that are not zero: their places to
    ``idx`` and their values to ``val``; return how many. ``deck``: the bit mask of the
    game's card ids."""
    o = 1 - seat
    n = 0
    seen = 0
    for i in range(int(pos[NH + seat])):
        c = int(pos[H + seat * MAXH + i])
        seen |= 1 << c
        idx[n] = HAND + c
        val[n] = 1.0
        n += 1
    opp = 0
    for i in range(int(pos[NH + o])):
        opp |= 1 << int(pos[H + o * MAXH + i])
    left = int(pos[ND] - pos[SP])
    has_turned = pos[TRUMP] >= 0 and left > 0
    down = left - 1 if has_turned else left
    stock = 0
    for i in range(int(pos[SP]), int(pos[SP]) + down):
        stock |= 1 << int(pos[DRAW + i])
    turned = -1
    if has_turned:
        turned = int(pos[DRAW + pos[ND] - 1])
    table = int(pos[TRICK])
    if full:
        n = _put_cards(opp, OPP, idx, val, n)
        hidden = stock
    else:
        hidden = stock | opp
    n = _put_cards(hidden, UNSEEN, idx, val, n)
    if turned >= 0:
        seen |= 1 << turned
        idx[n] = TURNED + turned
        val[n] = 1.0
        n += 1
    if table >= 0:
        seen |= 1 << table
        idx[n] = TABLE + table
        val[n] = 1.0
        n += 1
    n = _put_cards(deck & ~(seen | opp | stock), GONE, idx, val, n)
    if pos[TRUMP] >= 0:
        idx[n] = SUIT + int(pos[TRUMP])
        val[n] = 1.0
        n += 1
    plain = (
        pos[PTS + seat] / 120.0,
        pos[PTS + o] / 120.0,
        left / 34.0,
        pos[NH + seat] / 5.0,
        pos[NH + o] / 5.0,
        1.0 if to_move(pos) == seat else 0.0,
        1.0 if pos[LASTW] == seat else 0.0,
        1.0 if pos[FOLLOW] == 1 else 0.0,
    )
    for k in range(8):
        if plain[k] != 0.0:
            idx[n] = PLAIN + k
            val[n] = plain[k]
            n += 1
    return n


@jit
def _put_cards(cards: int, block: int, idx: Array, val: F32, n: int) -> int:
    """Write a 1 for each card of the mask ``cards`` into ``block``, from place ``n`` of
    ``idx`` and ``val``; return the next free place."""
    while cards:
        low = cards & -cards
        cards ^= low
        idx[n] = block + _bit(low)
        val[n] = 1.0
        n += 1
    return n


@jit
def _bit(low: int) -> int:
    """The place of the one bit set in ``low``."""
    k = 0
    while low > 1:
        low >>= 1
        k += 1
    return k


@jit
def encode_dense(pos: Array, seat: int, full: bool, deck: int, out: F32) -> None:
    """:func:`encode`, written out whole into ``out`` (:data:`N_FEATURES` numbers)."""
    idx = np.empty(MAX_ACTIVE, np.int64)
    val = np.empty(MAX_ACTIVE, np.float32)
    out[:] = 0.0
    n = encode(pos, seat, full, deck, idx, val)
    for k in range(n):
        out[idx[k]] = val[k]


@jit
def encode_rows(positions: Array, seats: Array, full: bool, deck: int) -> F32:
    """A row of numbers for each position, read from its seat."""
    out = np.zeros((positions.shape[0], N_FEATURES), np.float32)
    for r in range(positions.shape[0]):
        encode_dense(positions[r], int(seats[r]), full, deck, out[r])
    return out


def deck_mask(ids: Iterable[int]) -> int:
    """The bit mask of a game's card ids."""
    mask = 0
    for c in ids:
        mask |= 1 << c
    return mask
