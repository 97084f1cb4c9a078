"""What the other seats' plays tell, at the table games: the search's worlds weighed by
how well each explains the cards the others played, were each seat to play as the
table core's greedy policy (:func:`briscola.ai.cores.table_games.greedy_card`) with a
chance ``noise`` of any legal card alike.

A play tells about the hand it was made from. In a world the hand a seat held then is
its hand now, with the cards it played since and that card, less the cards it drew
since; those are known only when it drew at most once since (every drawing round is
one card a seat). So the plays read are those of the trick on the table, and of the
finished tricks after which at most one card was drawn: the last trick while the stock
lasts, every trick once it is out. Where one card was drawn since, the world's chance
of the play is the mean over which card it was (any the seat holds now or played
since). A world that could not have made a play (it would have had to follow suit)
weighs nothing.

The model of play is the greedy policy, or a policy network of the table game
(:mod:`briscola.ai.learned.table_features`, the seat's view): each card as likely as
the network's softmax over the legal cards makes it. The network reads the world as it
lies now with the seat's hand and the trick of then (the points, the cards gone and the
stock are those of now).
"""

from __future__ import annotations

import numpy as np

from briscola.ai.cores.compiled import jit
from briscola.ai.cores.head_to_head import Codec
from briscola.ai.cores.table_games import (
    LEADER,
    MAXH,
    MAXP,
    NH,
    NT,
    SIZE,
    TRICK,
    Array,
    FArray,
    H,
    greedy_card,
    legal_cards,
)
from briscola.ai.learned.features import _bit
from briscola.ai.learned.leaves import Weights
from briscola.ai.learned.net import F32, mlp_sparse
from briscola.ai.learned.table_features import MAX_ACTIVE, encode
from briscola.engine.rules import Rules
from briscola.engine.views import View

SEAT, CARD, LEAD, K, PREFIX = 0, 1, 2, 3, 4
LATER = PREFIX + MAXP
DRAWS = LATER + 1
WIDTH = DRAWS + 1
"""A play read, one row of ``plays``: the seat, its card, the trick's leader, how many
cards were on the trick before it and those cards, the bit mask of the cards the seat
played after it, and how many cards the seat drew since (0 or 1)."""


def plays_read(view: View, rules: Rules, codec: Codec) -> Array:
    """The plays of the other seats that ``view`` lets the search read (see the module's
    notes), as rows of :data:`WIDTH` numbers."""
    me = view.seat
    n = view.players
    dealt = len(rules.deck) - (len(rules.removals[0]) if rules.removals else 0)
    rounds = (dealt - n * rules.game.hand_size) // n  # tricks followed by a drawing round
    tricks: list[tuple[int, list[tuple[int, int]]]] = [
        (t.leader, [(s, codec.id[c]) for s, c in zip(t.seats, t.cards, strict=True)])
        for t in view.tricks
    ]
    if view.trick:
        tricks.append((view.trick[0][0], [(s, codec.id[c]) for s, c in view.trick]))
    done = len(view.tricks)
    rows: list[list[int]] = []
    for i, (leader, cards) in enumerate(tricks):
        draws = max(0, min(done, rounds) - i)  # drawing rounds after trick i so far
        if draws > 1:
            continue
        for j, (seat, card) in enumerate(cards):
            if seat == me:
                continue
            later = 0
            for _, after in tricks[i + 1 :]:
                for s, c in after:
                    if s == seat:
                        later |= 1 << c
            prefix = [c for _, c in cards[:j]] + [-1] * (MAXP - j)
            rows.append([seat, card, leader, j, *prefix, later, draws])
    return np.array(rows, np.int64).reshape(-1, WIDTH)


@jit
def chance(
    scratch: Array,
    seat: int,
    hand: int,
    play: Array,
    buf: Array,
    noise: float,
    deck: int,
    net: Weights,
    idx: Array,
    val: F32,
    logits: F32,
) -> float:
    """The chance that ``seat``, holding the cards of the mask ``hand``, played
    ``play``'s card on ``play``'s trick: with ``1 - noise`` greedy, or as likely as the
    policy network ``net`` makes it (its softmax over the legal cards, reading the
    seat's view of the world as it lies now with that hand and trick); any legal card
    alike with ``noise``; 0 when the card was not legal then."""
    k = 0
    base = H + seat * MAXH
    cards = hand
    while cards:
        low = cards & -cards
        cards ^= low
        scratch[base + k] = _bit(low)
        k += 1
    scratch[NH + seat] = k
    scratch[LEADER] = play[LEAD]
    scratch[NT] = play[K]
    for i in range(int(play[K])):
        scratch[TRICK + i] = play[PREFIX + i]
    n = legal_cards(scratch, buf)
    card = play[CARD]
    legal = False
    for i in range(n):
        if buf[i] == card:
            legal = True
    if not legal:
        return 0.0
    p = noise / n
    if n == 1:
        return 1.0
    if net[0].shape[0] == 0:
        if greedy_card(scratch, buf, n) == card:
            p += 1.0 - noise
        return p
    k = encode(scratch, seat, False, deck, idx, val)
    mlp_sparse(idx, val, k, net[0], net[1], net[2], net[3], net[4], net[5], logits)
    top = -1e30
    for i in range(n):
        top = max(top, float(logits[buf[i]]))
    total = 0.0
    for i in range(n):
        total += np.exp(float(logits[buf[i]]) - top)
    return p + (1.0 - noise) * float(np.exp(float(logits[card]) - top)) / total


@jit
def world_weights(
    worlds: Array, plays: Array, noise: float, out: FArray, deck: int, net: Weights
) -> None:
    """``out[w]``: how likely world ``w`` makes every play of ``plays`` (the product of
    each play's :func:`chance`; ``net`` the policy network, or
    :data:`~briscola.ai.learned.leaves.NO_NET` for the greedy policy)."""
    scratch = np.empty(SIZE, np.int64)
    buf = np.empty(MAXH, np.int64)
    idx = np.empty(MAX_ACTIVE, np.int64)
    val = np.empty(MAX_ACTIVE, np.float32)
    logits = np.empty(40, np.float32)
    for w in range(worlds.shape[0]):
        weight = 1.0
        for r in range(plays.shape[0]):
            play = plays[r]
            seat = int(play[SEAT])
            now = 0
            for i in range(int(worlds[w, NH + seat])):
                now |= 1 << int(worlds[w, H + seat * MAXH + i])
            held = now | int(play[LATER])
            before = held | (1 << int(play[CARD]))
            scratch[:] = worlds[w]
            if play[DRAWS] == 0:
                weight *= chance(
                    scratch, seat, before, play, buf, noise, deck, net, idx, val, logits
                )
            else:
                total = 0.0
                count = 0
                rest = held
                while rest:
                    low = rest & -rest
                    rest ^= low
                    scratch[:] = worlds[w]
                    total += chance(
                        scratch, seat, before & ~low, play, buf, noise, deck, net, idx, val, logits
                    )
                    count += 1
                weight *= total / count if count else 0.0
            if weight == 0.0:
                break
        out[w] = weight
