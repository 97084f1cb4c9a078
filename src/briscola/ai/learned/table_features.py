"""What the networks of the table games read: a position of the table core
(:mod:`briscola.ai.cores.table_games`, three to six seats) as a vector of numbers, from
one seat's side.

As for the head-to-head games (:mod:`briscola.ai.learned.features`), two readings:

- **as the seat sees it** (``full=False``): its own hand, the cards gone, the turned card,
  the trick; every other hand and the face-down stock are "unseen" alike;
- **as a world lies** (``full=True``): every other seat's hand apart, each at its place
  round the table, the face-down stock still unseen (nobody knows its order). The value
  at the leaves of the search reads this, in each world it samples.

Both readings take the sides as the position has them: in chiamata, before the called
card is played, that is the world's guess at the secret partner, which the seat's view
alone does not give (a search reads its worlds so; a player reading its view would need
the sides it knows).

Seats are read relative to ``seat``: relative seat ``k`` is the ``k``-th after it in the
direction of play, so one network serves every seat. The layout (:data:`N_FEATURES`
numbers), blocks of 40 (one number a card id, ``suit * 10 + strength``):

====  ==========================================================================
0     the hands, six blocks: relative seat 0 (the seat's own), then 1 to 5 (``full``)
240   unseen: the face-down stock (``full``) or the stock and the others' hands
280   the turned card, while it is still to be drawn
320   the trick, six blocks: the card each relative seat played to it
560   the cards gone (taken in tricks)
600   the trump suit, one of four (none in games without trump)
604   the seat's side's points, the others' points (each over 120), the cards left to
      draw (over 40), the seat's hand size (over 8), 1 if suit must be followed, the
      seats (over 6), the points the caller's side needs (chiamata, over 120), 1 if a
      60-60 goes to the last trick, 1 if the seat is on side 0, 1 if its side won the
      last trick
614   six flags: relative seat ``k`` is on the seat's side
620   six flags, one set: the relative seat to move
====  ==========================================================================

>>> from briscola.ai.learned.table_features import N_FEATURES
>>> N_FEATURES
626
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from briscola.ai.cores.compiled import jit
from briscola.ai.cores.table_games import (
    DRAW,
    FOLLOW,
    LASTW,
    LEADER,
    MAXH,
    ND,
    NEED,
    NH,
    NT,
    PTS,
    SIDE,
    SP,
    TIELAST,
    TRICK,
    TRUMP,
    Array,
    H,
    N,
    to_move,
)
from briscola.ai.learned.features import _put_cards

HANDS, UNSEEN, TURNED, TABLE, GONE = 0, 240, 280, 320, 560
SUIT = 600
PLAIN = 604
MATES = PLAIN + 10
MOVER = MATES + 6
N_FEATURES = MOVER + 6
MAX_ACTIVE = 64
"""Most numbers that are not zero in one reading: 40 cards at most are somewhere, one
trump suit, ten plain numbers, six and one flags."""

F32 = npt.NDArray[np.float32]


@jit
def encode(pos: Array, seat: int, full: bool, deck: int, idx: Array, val: F32) -> int:
    """Write the numbers of ``pos`` read from ``seat`` that are not zero: their places to
    ``idx`` and their values to ``val``; return how many. ``deck``: the bit mask of the
    game's card ids."""
    n_seats = int(pos[N])
    mine = pos[SIDE + seat]
    n = 0
    held = 0
    others = 0
    for k in range(n_seats):
        s = (seat + k) % n_seats
        cards = 0
        for i in range(int(pos[NH + s])):
            cards |= 1 << int(pos[H + s * MAXH + i])
        held |= cards
        if k == 0:
            n = _put_cards(cards, HANDS, idx, val, n)
        elif full:
            n = _put_cards(cards, HANDS + 40 * k, idx, val, n)
        else:
            others |= cards
    left = int(pos[ND] - pos[SP])
    has_turned = pos[TRUMP] >= 0 and left > 0
    down = left - 1 if has_turned else left
    stock = 0
    for i in range(int(pos[SP]), int(pos[SP]) + down):
        stock |= 1 << int(pos[DRAW + i])
    n = _put_cards(stock | others, UNSEEN, idx, val, n)
    seen = held | stock
    if has_turned:
        turned = int(pos[DRAW + pos[ND] - 1])
        seen |= 1 << turned
        idx[n] = TURNED + turned
        val[n] = 1.0
        n += 1
    leader = int(pos[LEADER])
    for i in range(int(pos[NT])):
        c = int(pos[TRICK + i])
        seen |= 1 << c
        k = (leader + i - seat) % n_seats
        idx[n] = TABLE + 40 * k + c
        val[n] = 1.0
        n += 1
    n = _put_cards(deck & ~seen, GONE, idx, val, n)
    if pos[TRUMP] >= 0:
        idx[n] = SUIT + int(pos[TRUMP])
        val[n] = 1.0
        n += 1
    ours = 0
    theirs = 0
    for s in range(n_seats):
        if pos[SIDE + s] == mine:
            ours += pos[PTS + s]
        else:
            theirs += pos[PTS + s]
    last = int(pos[LASTW])
    plain = (
        ours / 120.0,
        theirs / 120.0,
        left / 40.0,
        pos[NH + seat] / 8.0,
        1.0 if pos[FOLLOW] == 1 else 0.0,
        n_seats / 6.0,
        pos[NEED] / 120.0,
        1.0 if pos[TIELAST] == 1 else 0.0,
        1.0 if mine == 0 else 0.0,
        1.0 if last >= 0 and pos[SIDE + last] == mine else 0.0,
    )
    for k in range(10):
        if plain[k] != 0.0:
            idx[n] = PLAIN + k
            val[n] = plain[k]
            n += 1
    for k in range(n_seats):
        if pos[SIDE + (seat + k) % n_seats] == mine:
            idx[n] = MATES + k
            val[n] = 1.0
            n += 1
    idx[n] = MOVER + (to_move(pos) - seat) % n_seats
    val[n] = 1.0
    return n + 1


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
