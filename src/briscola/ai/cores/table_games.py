"""A fast core for the search bots in games of three to six players, private to
:mod:`briscola.ai`: playouts and exact ends of determinized worlds in compiled numba
kernels.

Where :mod:`briscola.ai.cores.head_to_head` plays the head-to-head games, this core plays the table
games with one card each to a trick and whole rounds of drawing: ``briscola-3``,
``briscola-4``, ``briscola-6``, ``schembil``, four-player ``brisca`` and ``briskula``, and
the card play of ``chiamata`` (see :func:`supports`). Cards are the fast core's integers
(``suit * 10 + strength``, :class:`~briscola.ai.cores.head_to_head.Codec`). A position is a flat
``int64`` array (the layout is below) with every seat's hand, the cards to draw in
order, the trick in progress, the points each seat took, and the sides as the world
has them (in chiamata, the caller and the holder of the called card against the rest,
with the points the caller's side needs). Talk, the trump exchange and the auction are
left to the reference engine: a position here only plays cards.

The playout policies are :func:`greedy_card`, the same rules as
:func:`briscola.ai.search.players.greedy_play` (which the reference engine path keeps for the
games this core does not play), and :func:`lookahead_card`, which plays out the trick
by them for each card and picks the card that does best on it (a setting of the search,
not its default); :func:`solve` searches the last tricks exactly. The core is checked
move for move against the reference engine, its results against the engine's winners
and its exact values against the engine's search, in tests/ai/test_cores_table_games.py.

>>> import random
>>> from briscola.engine import GameState, Rules, shuffled_deal
>>> rules = Rules.make("briscola-4")
>>> state = GameState(rules, shuffled_deal(rules, 0, random.Random(3)))
>>> pos = from_state(state)
>>> random_playout(pos, 0.0, 7)
>>> bool(is_over(pos)), int(pos[PTS : PTS + 4].sum())
(True, 120)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from briscola.ai.cores.compiled import jit
from briscola.ai.cores.head_to_head import SUITS, Codec, card_beats, rand_below, seed_rng
from briscola.engine.cards import Card
from briscola.engine.phases import Phase
from briscola.engine.rules import Rules
from briscola.engine.state import GameState
from briscola.engine.views import View

Array = npt.NDArray[np.int64]
FArray = npt.NDArray[np.float64]

# ---------------------------------------------------------------------------- the position

MAXP = 6
"""Most seats at a table."""
MAXH = 8
"""Most cards a hand holds (chiamata deals eight)."""
MAXDRAW = 40
"""Most cards left to draw."""

H = 0
"""Hands: seat ``s`` holds ``pos[H + s*MAXH : H + s*MAXH + pos[NH + s]]`` (unordered)."""
NH = H + MAXP * MAXH
"""Number of cards in each hand (``MAXP`` slots)."""
DRAW = NH + MAXP
"""Cards to draw, in drawing order: the stock top first, the turned card last."""
ND = DRAW + MAXDRAW
"""How many cards the drawing list holds (from the start; ``SP`` says how many are gone)."""
SP = ND + 1
"""Index in the drawing list of the next card to draw."""
N = SP + 1
"""The number of seats; play goes round from the leader: leader, leader + 1, ..."""
LEADER = N + 1
"""The seat that leads the current trick."""
NT = LEADER + 1
"""Cards played to the current trick so far."""
TRICK = NT + 1
"""The cards of the current trick in playing order (``MAXP`` slots)."""
TRUMP = TRICK + MAXP
"""The trump suit (0..3), or -1 while there is none."""
FOLLOW = TRUMP + 1
"""1 when a player must follow the suit led if able."""
LASTW = FOLLOW + 1
"""The winner of the last trick taken, or -1."""
PTS = LASTW + 1
"""Card points taken by each seat (``MAXP`` slots)."""
SIDE = PTS + MAXP
"""The side of each seat (``MAXP`` slots), numbered from 0."""
NEED = SIDE + MAXP
"""Chiamata: side 0 (the caller's) wins with at least this many points, else side 1.
0 elsewhere: the side with the most points wins."""
TIELAST = NEED + 1
"""1 when sides tied on points are parted by the last trick (``sixty_sixty``)."""
PVAL = TIELAST + 1
"""Points of each strength index (ten slots)."""
SIZE = PVAL + 10


def supports(rules: Rules) -> bool:
    """Whether this core plays the card play of ``rules``: three to six seats, one card each
    to a trick, at most eight in hand, and a stock that runs out after a whole round of
    drawing (so every trick is full and play always goes round from the leader)."""
    g = rules.game
    dealt = len(rules.deck) - (len(rules.removals[0]) if rules.removals else 0)
    left = dealt - rules.players * g.hand_size
    return (
        3 <= rules.players <= MAXP
        and g.rounds == 1
        and g.hand_size <= MAXH
        and len(rules.deck) <= 40
        and 0 <= left <= MAXDRAW
        and left % rules.players == 0
    )


def from_state(state: GameState, codec: Codec | None = None) -> Array:
    """The position of a reference engine state in its play phase, every card known (a
    determinized world). Where the hand has a contract (:meth:`GameState.contract
    <briscola.engine.state.GameState.contract>`: in chiamata, the caller and its partner)
    its side is side 0 against the rest, whether or not the table knows it yet."""
    rules = state.rules
    if state.phase != Phase.PLAY:
        raise ValueError(f"the table core plays cards only; this hand is at its {state.phase}")
    codec = codec or Codec(rules)
    n = state.n
    leader = state.order[0]
    if tuple(state.order) != rules.orders[leader]:
        raise ValueError(
            f"the table core plays whole rounds from the leader; this trick goes {state.order}"
        )
    pos = np.full(SIZE, -1, np.int64)
    for s in range(n):
        for k, c in enumerate(state.hands[s]):
            pos[H + s * MAXH + k] = codec.id[c]
    pos[NH : NH + MAXP] = 0
    for s in range(n):
        pos[NH + s] = len(state.hands[s])
    to_draw = state.to_draw()
    for k, c in enumerate(to_draw):
        pos[DRAW + k] = codec.id[c]
    pos[ND] = len(to_draw)
    pos[SP] = 0
    pos[N] = n
    pos[LEADER] = leader
    pos[NT] = len(state.trick)
    for k, c in enumerate(state.trick):
        pos[TRICK + k] = codec.id[c]
    pos[TRUMP] = -1 if state.trump is None else SUITS.index(state.trump)
    pos[FOLLOW] = 1 if rules.follow_suit else 0
    pos[LASTW] = state.tricks[-1].winner if state.tricks else -1
    pos[PTS : PTS + MAXP] = 0
    for s in range(n):
        pos[PTS + s] = state.seat_points[s]
    pos[SIDE : SIDE + MAXP] = 0
    pos[NEED] = 0
    contract = state.contract()
    if contract is not None:
        team, need = contract
        for s in range(n):
            pos[SIDE + s] = 0 if s in team else 1
        pos[NEED] = need
    else:
        for s in range(n):
            pos[SIDE + s] = state.side_of[s]
    pos[TIELAST] = 1 if rules.tie_to_last_trick else 0
    pos[PVAL : PVAL + 10] = codec.pval
    return pos


def view_root(view: View, rules: Rules, codec: Codec) -> Array:
    """The part of a world's position that ``view`` itself gives (the trick, the trump,
    the points, the sides, the rules' numbers), for :func:`from_world` to deal the cards
    into. The same as :func:`from_state` gives for the view's state.

    :raises ValueError: when the trick does not go round from its leader, or chiamata's
        card is not called yet.
    """
    n = view.players
    order = view.trick_order or rules.orders[(view.dealer + 1) % n]
    leader = order[0]
    if tuple(order) != rules.orders[leader]:
        raise ValueError(
            f"the table core plays whole rounds from the leader; this trick goes {order}"
        )
    pos = np.full(SIZE, -1, np.int64)
    pos[NH : NH + MAXP] = 0
    pos[SP] = 0
    pos[N] = n
    pos[LEADER] = leader
    pos[NT] = len(view.trick)
    for k, (_, c) in enumerate(view.trick):
        pos[TRICK + k] = codec.id[c]
    pos[TRUMP] = -1 if view.trump is None else SUITS.index(view.trump)
    pos[FOLLOW] = 1 if rules.follow_suit else 0
    pos[LASTW] = view.tricks[-1].winner if view.tricks else -1
    pos[PTS : PTS + MAXP] = 0
    for t in view.tricks:
        pos[PTS + t.winner] += t.points
    pos[SIDE : SIDE + MAXP] = 0
    pos[NEED] = 0
    auction = view.auction
    if auction is not None:
        if auction.caller is None or auction.called is None:
            raise ValueError("chiamata's card play starts once the card is called")
        high = auction.high
        pos[NEED] = 61 if high is None or not high.startswith("2 at ") else int(high[5:])
    else:
        for i, side in enumerate(view.sides):
            for s in side:
                pos[SIDE + s] = i
    pos[TIELAST] = 1 if rules.tie_to_last_trick else 0
    pos[PVAL : PVAL + 10] = codec.pval
    return pos


World = tuple[Sequence[Sequence[Card]], Sequence[Card], Card | None, tuple[int, int] | None]
"""A determinized world as :func:`from_worlds` takes it: every seat's hand (in its
order), the face-down stock (the next card first), the turned card, and in chiamata the
caller and the holder of the called card (``None`` elsewhere)."""


def from_worlds(root: Array, codec: Codec, worlds: Sequence[World]) -> Array:
    """The positions of determinized worlds straight from their cards, without a reference
    engine state: ``root`` (:func:`view_root`) with each world's cards dealt in, one row a
    world; in chiamata the caller and the holder of the called card are side 0, which
    needs ``pos[NEED]``. The same arrays as :func:`from_state` of the worlds' engine
    states."""
    ids = codec.id
    out = np.empty((len(worlds), SIZE), np.int64)
    out[:] = root
    places: dict[tuple[int, ...], Array] = {}
    rows: dict[tuple[int, ...], list[int]] = {}
    cards: dict[tuple[int, ...], list[list[int]]] = {}
    for w, (hands, stock, turned, team) in enumerate(worlds):
        layout = (*(len(h) for h in hands), len(stock), turned is not None)
        if layout not in places:
            slots = [H + s * MAXH + k for s, h in enumerate(hands) for k in range(len(h))]
            slots.extend(range(DRAW, DRAW + len(stock) + (turned is not None)))
            places[layout] = np.array(slots, np.int64)
            rows[layout] = []
            cards[layout] = []
        dealt = [ids[c] for h in hands for c in h]
        dealt.extend([ids[c] for c in stock])
        if turned is not None:
            dealt.append(ids[turned])
        rows[layout].append(w)
        cards[layout].append(dealt)
        if team is not None:
            for s in range(int(root[N])):
                out[w, SIDE + s] = 0 if s in team else 1
    for layout, at in places.items():
        picked = np.array(rows[layout], np.int64)
        out[picked[:, None], at[None, :]] = np.array(cards[layout], np.int64).reshape(
            len(picked), len(at)
        )
        sizes = layout[:-2]
        out[picked, NH : NH + len(sizes)] = sizes
        out[picked, ND] = layout[-2] + layout[-1]
    return out


def deal_worlds(
    root: Array,
    codec: Codec,
    fixed: Sequence[Sequence[Card]],
    slots: Sequence[int],
    pool: Sequence[Card],
    top: Card | None,
    turned: Card | None,
    count: int,
    rng: np.random.Generator,
    team: tuple[int, Card, int | None] | None = None,
) -> Array:
    """``count`` random worlds straight into the core's positions, in numpy: ``root``
    (:func:`view_root`) with each seat's ``fixed`` cards and ``slots[s]`` more from
    ``pool`` shuffled (every card of it dealt: the hands' hidden places, then the
    face-down stock), the stock's face-up ``top`` first and the ``turned`` card last.
    Every way of dealing ``pool`` is equally likely, as
    :meth:`briscola.ai.search.determinize.Sampler.sample` deals them. In chiamata
    ``team`` is the caller, the called card and the seat that played it (``None`` while
    it is in a hand): side 0 is the caller and its holder in each world."""
    ids = np.array([codec.id[c] for c in pool], np.int64)
    order = np.argsort(rng.random((count, len(ids))), axis=1)
    cards = ids[order]
    out = np.empty((count, SIZE), np.int64)
    out[:] = root
    at = 0
    for s, k in enumerate(slots):
        known = [codec.id[c] for c in fixed[s]]
        base = H + s * MAXH
        out[:, base : base + len(known)] = known
        out[:, base + len(known) : base + len(known) + k] = cards[:, at : at + k]
        out[:, NH + s] = len(known) + k
        at += k
    d = DRAW
    if top is not None:
        out[:, d] = codec.id[top]
        d += 1
    rest = len(ids) - at
    out[:, d : d + rest] = cards[:, at:]
    d += rest
    if turned is not None:
        out[:, d] = codec.id[turned]
        d += 1
    out[:, ND] = d - DRAW
    if team is not None:
        caller, called, played = team
        n = int(root[N])
        holder = np.full(count, -1 if played is None else played, np.int64)
        if played is None:
            card = codec.id[called]
            for s in range(n):
                held = (out[:, H + s * MAXH : H + (s + 1) * MAXH] == card).any(axis=1)
                holder[held] = s
        for s in range(n):
            out[:, SIDE + s] = np.where((holder == s) | (s == caller), 0, 1)
    return out


# ---------------------------------------------------------------------------- the rules


@jit
def to_move(pos: Array) -> int:
    return int((pos[LEADER] + pos[NT]) % pos[N])


@jit
def is_over(pos: Array) -> bool:
    left = pos[NT]
    for s in range(int(pos[N])):
        left += pos[NH + s]
    return bool(left == 0)


@jit
def beats(pos: Array, top: int, card: int) -> bool:
    """Whether ``card`` takes the trick from ``top``, the card winning it so far."""
    return card_beats(int(pos[TRUMP]), top, card)


@jit
def top_index(pos: Array) -> int:
    """The index in the trick of the card winning it so far (the trick not empty)."""
    best = 0
    for i in range(1, int(pos[NT])):
        if beats(pos, pos[TRICK + best], pos[TRICK + i]):
            best = i
    return best


@jit
def legal_cards(pos: Array, out: Array) -> int:
    """Write the cards the seat to move may play into ``out``; return how many."""
    s = to_move(pos)
    base = H + s * MAXH
    n = int(pos[NH + s])
    if pos[NT] > 0 and pos[FOLLOW] == 1:
        led = pos[TRICK] // 10
        k = 0
        for i in range(n):
            if pos[base + i] // 10 == led:
                out[k] = pos[base + i]
                k += 1
        if k > 0:
            return k
    for i in range(n):
        out[i] = pos[base + i]
    return n


@jit
def play_card(pos: Array, card: int) -> int:
    """Play ``card`` for the seat to move (it must be legal). Returns the winner of the trick
    when this card completes it, else -1; then every seat draws, the winner first."""
    n_seats = int(pos[N])
    s = to_move(pos)
    base = H + s * MAXH
    n = int(pos[NH + s])
    for i in range(n):
        if pos[base + i] == card:
            pos[base + i] = pos[base + n - 1]
            pos[base + n - 1] = -1
            pos[NH + s] = n - 1
            break
    k = int(pos[NT])
    pos[TRICK + k] = card
    pos[NT] = k + 1
    if k + 1 < n_seats:
        return -1
    best = top_index(pos)
    winner = int((pos[LEADER] + best) % n_seats)
    pts = 0
    for i in range(n_seats):
        pts += pos[PVAL + pos[TRICK + i] % 10]
    pos[PTS + winner] += pts
    pos[NT] = 0
    pos[LEADER] = winner
    pos[LASTW] = winner
    sp = int(pos[SP])
    if sp < pos[ND]:
        for j in range(n_seats):
            seat = (winner + j) % n_seats
            pos[H + seat * MAXH + pos[NH + seat]] = pos[DRAW + sp + j]
            pos[NH + seat] += 1
        pos[SP] = sp + n_seats
    return winner


# ---------------------------------------------------------------------------- the policy


@jit
def cost(pos: Array, c: int) -> int:
    """How dear a card is to lead or throw away: plain cards by points then strength,
    trumps after them (as :func:`briscola.ai.search.players.greedy_play` weighs them)."""
    p = pos[PVAL + c % 10]
    if c // 10 == pos[TRUMP]:
        return int(50 + (c % 10) * 10 + p * 20)
    return int(p * 20 + c % 10)


@jit
def cheapest(pos: Array, cards: Array, n: int) -> int:
    best = cards[0]
    key = cost(pos, best)
    for i in range(1, n):
        k = cost(pos, cards[i])
        if k < key or (k == key and cards[i] < best):
            key = k
            best = cards[i]
    return int(best)


@jit
def greedy_card(pos: Array, cards: Array, n: int) -> int:
    """The card :func:`briscola.ai.search.players.greedy_play` picks among ``cards[:n]`` for the
    seat to move (ties broken by the lower card id): lead the cheapest card; load points
    on a trick a partner holds when no opponent plays after; take a trick worth taking
    with the cheapest card that does; else throw the cheapest."""
    k = int(pos[NT])
    if k == 0:
        return cheapest(pos, cards, n)
    n_seats = int(pos[N])
    seat = to_move(pos)
    mine = pos[SIDE + seat]
    trump = pos[TRUMP]
    foes_after = False
    for j in range(k + 1, n_seats):
        if pos[SIDE + (pos[LEADER] + j) % n_seats] != mine:
            foes_after = True
    best = top_index(pos)
    top = int(pos[TRICK + best])
    if pos[SIDE + (pos[LEADER] + best) % n_seats] == mine:
        if not foes_after:
            # the richest plain card, the weakest of equals
            pick = -1
            pick_key = -(1 << 30)
            for i in range(n):
                c = cards[i]
                key = pos[PVAL + c % 10] * 1000 - (c % 10) * 100 - c
                if c // 10 != trump and key > pick_key:
                    pick = c
                    pick_key = key
            if pick >= 0:
                return int(pick)
        return cheapest(pos, cards, n)
    won = 0
    for i in range(k):
        won += pos[PVAL + pos[TRICK + i] % 10]
    same = -1
    low = -1
    low_cost = 0
    for i in range(n):
        c = cards[i]
        if not beats(pos, top, c):
            continue
        if c // 10 == top // 10 and c // 10 != trump:
            # among the takers of the suit: the richest (the strongest of equals) when no
            # opponent plays after, else the strongest
            if same < 0:
                same = c
            elif not foes_after:
                pc = pos[PVAL + c % 10]
                ps = pos[PVAL + same % 10]
                if pc > ps or (pc == ps and c > same):
                    same = c
            elif c > same:
                same = c
        k = cost(pos, c)
        if low < 0 or k < low_cost or (k == low_cost and c < low):
            low = c
            low_cost = k
    if same >= 0:
        return int(same)
    if low >= 0 and (won >= 10 or (won >= 3 and pos[PVAL + low % 10] == 0)):
        return int(low)
    return cheapest(pos, cards, n)


@jit
def keep_worth(pos: Array, c: int) -> float:
    """What holding card ``c`` is worth, much as the intermediate bot weighs it
    (:meth:`briscola.ai.rules.heuristic.Intermediate.keep`): trumps by rank and points, plain
    cards little."""
    rank = c % 10
    if c // 10 == pos[TRUMP]:
        return float(5.0 + 0.6 * rank + 0.8 * pos[PVAL + rank])
    return 0.3 + 0.1 * rank


@jit
def lookahead_card(pos: Array, cards: Array, n: int, scratch: Array, buf: Array) -> int:
    """The card among ``cards[:n]`` of best worth for the seat to move, the world's hands
    all known: each is played and the trick finished by :func:`greedy_card` for the seats
    after; its worth is the trick's points, won or lost by the seat's side, less the worth
    of keeping the card (:func:`keep_worth`). Ties go to the cheaper card, then the lower
    id. ``scratch`` (``SIZE``) and ``buf`` (``MAXH``) are work space."""
    seat = to_move(pos)
    mine = pos[SIDE + seat]
    best = -1
    best_v = -1e18
    best_cost = 0
    for i in range(n):
        c = cards[i]
        scratch[:] = pos
        w = play_card(scratch, c)
        while w < 0:
            m = legal_cards(scratch, buf)
            w = play_card(scratch, greedy_card(scratch, buf, m))
        pts = scratch[PTS + w] - pos[PTS + w]
        v = (pts if scratch[SIDE + w] == mine else -pts) - keep_worth(pos, c)
        k = cost(pos, c)
        cheaper = k < best_cost or (k == best_cost and c < best)
        if best < 0 or v > best_v or (v == best_v and cheaper):
            best = c
            best_v = v
            best_cost = k
    return int(best)


GREEDY = 0
"""Playout policy: :func:`greedy_card` at every seat."""
LOOKAHEAD = 1
"""Playout policy: :func:`lookahead_card` at every seat."""
POLICIES = {"greedy": GREEDY, "lookahead": LOOKAHEAD}
"""The playout policies by name."""


@jit
def playout(pos: Array, eps: float, rng: npt.NDArray[np.uint64], policy: int = GREEDY) -> None:
    """Play on in place to the end of the hand by the ``policy`` (:data:`GREEDY` or
    :data:`LOOKAHEAD`), with a chance ``eps`` of a random legal card at each play
    (``eps`` >= 1: random play)."""
    buf = np.empty(MAXH, np.int64)
    looks = policy == LOOKAHEAD
    work = np.empty(MAXH if looks else 0, np.int64)
    scratch = np.empty(SIZE if looks else 0, np.int64)
    while not is_over(pos):
        n = legal_cards(pos, buf)
        if n == 1:
            card = buf[0]
        elif eps > 0.0 and rand_below(rng, 1 << 30) < eps * (1 << 30):
            card = buf[rand_below(rng, n)]
        elif policy == LOOKAHEAD:
            card = lookahead_card(pos, buf, n, scratch, work)
        else:
            card = greedy_card(pos, buf, n)
        play_card(pos, card)


@jit
def random_playout(pos: Array, eps: float, seed: int) -> None:
    """:func:`playout` with a generator seeded from ``seed`` (for tests and examples)."""
    rng = np.empty(1, np.uint64)
    seed_rng(rng, seed)
    playout(pos, eps, rng, GREEDY)


# ---------------------------------------------------------------------------- the result


@jit
def side_points(pos: Array, side: int) -> int:
    total = 0
    for s in range(int(pos[N])):
        if pos[SIDE + s] == side:
            total += pos[PTS + s]
    return int(total)


@jit
def winning_side(pos: Array) -> int:
    """The side that won the finished hand, or -1 for a tie (as the engine decides)."""
    if pos[NEED] > 0:
        return 0 if side_points(pos, 0) >= pos[NEED] else 1
    sides = 0
    for s in range(int(pos[N])):
        sides = max(sides, int(pos[SIDE + s]) + 1)
    best = -1
    tops = 0
    top_side = -1
    for k in range(sides):
        p = side_points(pos, k)
        if p > best:
            best = p
            tops = 1
            top_side = k
        elif p == best:
            tops += 1
    if tops == 1:
        return top_side
    if pos[TIELAST] == 1 and pos[LASTW] >= 0:
        last = int(pos[SIDE + pos[LASTW]])
        if side_points(pos, last) == best:
            return last
    return -1


@jit
def result(pos: Array, seat: int, margin: float, half: float) -> float:
    """A finished hand for ``seat``: 1 won, 1/2 tied, 0 lost, plus ``margin`` times its
    side's points over ``half`` (per 60), as :func:`briscola.ai.search.players.outcome`."""
    win = winning_side(pos)
    mine = int(pos[SIDE + seat])
    r = 0.5 if win < 0 else (1.0 if win == mine else 0.0)
    return r + margin * (side_points(pos, mine) - half) / 60.0


@jit
def card_values(
    worlds: Array,
    cards: Array,
    seat: int,
    rollouts: int,
    eps: float,
    margin: float,
    half: float,
    seed: int,
    out: FArray,
    policy: int = GREEDY,
) -> None:
    """Add up, for each card ``cards[i]`` and each world (a row of ``worlds``), the
    :func:`result` and the side's points of ``rollouts`` playouts after ``seat`` plays it:
    ``out[i, 0]`` and ``out[i, 1]``. The cards of one world and rollout share their random
    numbers."""
    rng = np.empty(1, np.uint64)
    child = np.empty(SIZE, np.int64)
    for w in range(worlds.shape[0]):
        for r in range(rollouts):
            for i in range(cards.shape[0]):
                child[:] = worlds[w]
                seed_rng(rng, seed + (w * rollouts + r) * 7919)
                play_card(child, cards[i])
                playout(child, eps, rng, policy)
                out[i, 0] += result(child, seat, margin, half)
                out[i, 1] += side_points(child, int(child[SIDE + seat]))


# ---------------------------------------------------------------------------- exact ends


@jit
def solve(root: Array, seat: int, margin: float, half: float) -> float:
    """The :func:`result` for ``seat`` of the position with best play to the end: alpha-beta
    over card plays, ``seat``'s side maximizing and every other seat minimizing (each
    world fully known). Iterative, with one position per ply on a stack."""
    depth = 1
    for s in range(int(root[N])):
        depth += int(root[NH + s])
    stack = np.empty((depth + 1, SIZE), np.int64)
    moves = np.empty((depth + 1, MAXH), np.int64)
    nmoves = np.zeros(depth + 1, np.int64)
    idx = np.zeros(depth + 1, np.int64)
    alpha = np.empty(depth + 1)
    beta = np.empty(depth + 1)
    best = np.empty(depth + 1)
    maxim = np.zeros(depth + 1, np.bool_)
    mine = root[SIDE + seat]
    if is_over(root):
        return result(root, seat, margin, half)
    stack[0] = root
    d = 0
    alpha[0] = -1e9
    beta[0] = 1e9
    nmoves[0] = legal_cards(stack[0], moves[0])
    idx[0] = 0
    maxim[0] = root[SIDE + to_move(root)] == mine
    best[0] = -1e9 if maxim[0] else 1e9
    while True:
        if idx[d] < nmoves[d] and alpha[d] < beta[d]:
            c = moves[d, idx[d]]
            idx[d] += 1
            stack[d + 1] = stack[d]
            play_card(stack[d + 1], c)
            if is_over(stack[d + 1]):
                v = result(stack[d + 1], seat, margin, half)
            else:
                e = d + 1
                nmoves[e] = legal_cards(stack[e], moves[e])
                idx[e] = 0
                alpha[e] = alpha[d]
                beta[e] = beta[d]
                maxim[e] = stack[e, SIDE + to_move(stack[e])] == mine
                best[e] = -1e9 if maxim[e] else 1e9
                d = e
                continue
        else:
            v = best[d]
            if d == 0:
                return float(v)
            d -= 1
        if maxim[d]:
            if v > best[d]:
                best[d] = v
            if v > alpha[d]:
                alpha[d] = v
        else:
            if v < best[d]:
                best[d] = v
            if v < beta[d]:
                beta[d] = v


@jit
def exact_values(
    worlds: Array, cards: Array, seat: int, margin: float, half: float, out: FArray
) -> None:
    """Add to ``out[i, 0]``, for each card ``cards[i]`` and each world, the :func:`solve`d
    result of the hand after ``seat`` plays it."""
    child = np.empty(SIZE, np.int64)
    for w in range(worlds.shape[0]):
        for i in range(cards.shape[0]):
            child[:] = worlds[w]
            play_card(child, cards[i])
            out[i, 0] += solve(child, seat, margin, half)
