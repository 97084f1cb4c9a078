"""A fast core for search in two-player games, private to :mod:`briscola.ai`.

Cards are small integers, ``suit * 10 + strength`` (suits in the engine's order c, d, s, b;
strength from the rule set, 0 the weakest), so that within a suit the higher id wins and a
trick is resolved with two integer compares. A position is one flat ``int64`` array (the
layout is below) that numba kernels copy and change in place: whole random games, playouts
with a cheap policy, and (in :mod:`briscola.ai.cores.head_to_head_solver`) exact search.

The core plays the two-player games with one card each to a trick: ``briscola-2``,
``scoperta``, ``briscolone``, two-player ``briskula`` and ``brisca`` (see :func:`supports`).
The trump exchange is left to the reference engine: a position here never exchanges.

It is checked move for move against the reference engine (tests/ai/test_cores_head_to_head.py).

>>> fast_random_games(10, seed=1)
400
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from briscola.ai.cores.compiled import jit, use_cache
from briscola.engine.cards import Card, Suit
from briscola.engine.rules import Rules
from briscola.engine.state import GameState

if TYPE_CHECKING:
    from briscola.engine.views import View

Array = npt.NDArray[np.int64]
FArray = npt.NDArray[np.float64]


# ---------------------------------------------------------------------------- the position

MAXH = 5
"""Most cards a hand holds (Briscolone deals five)."""
MAXDRAW = 36
"""Most cards left to draw after the deal (34 in Briscola: 33 face down and the turned card)."""

H = 0
"""Hands: seat ``s`` holds ``pos[H + s*MAXH : H + s*MAXH + pos[NH + s]]`` (unordered)."""
NH = H + 2 * MAXH
"""Number of cards in each hand (two slots)."""
DRAW = NH + 2
"""Cards to draw, in drawing order: the stock top first, the turned card last."""
ND = DRAW + MAXDRAW
"""How many cards the drawing list holds (from the start; ``SP`` says how many are gone)."""
SP = ND + 1
"""Index in the drawing list of the next card to draw."""
LEADER = SP + 1
"""The seat that leads the current trick."""
TRICK = LEADER + 1
"""The card led to the current trick, or -1 when the leader has not played yet."""
TRUMP = TRICK + 1
"""The trump suit (0..3), or -1 in games without trump."""
PTS = TRUMP + 1
"""Card points taken by each seat (two slots)."""
LASTW = PTS + 2
"""The winner of the last trick taken, or -1."""
FOLLOW = LASTW + 1
"""1 when a player must follow the suit led if able."""
PVAL = FOLLOW + 1
"""Points of each strength index (ten slots): a card ``c`` is worth ``pos[PVAL + c % 10]``."""
SIZE = PVAL + 10

SUITS: tuple[Suit, ...] = tuple(Suit)

RANDOM = 0
"""Playout policy: a uniformly random legal card."""
GREEDY = 1
"""Playout policy: the cheap rules of :func:`greedy_card` (with a chance ``eps`` of a random
card instead)."""
COUNTING = 2
"""Playout policy: :func:`counting_card`, which weighs each card by the chance of taking
the trick from the cards unseen (with a chance ``eps`` of a random card instead)."""


# ---------------------------------------------------------------------------- random numbers


@jit
def seed_rng(rng: npt.NDArray[np.uint64], seed: int) -> None:
    """Seed a one-word xorshift64* generator with splitmix64 of ``seed``."""
    z = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    if z == np.uint64(0):
        z = np.uint64(0x2545F4914F6CDD1D)
    rng[0] = z


@jit
def rand_below(rng: npt.NDArray[np.uint64], n: int) -> int:
    """A random integer in ``[0, n)``."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    r = (x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(33)
    return int(r % np.uint64(n))


@jit
def shuffle(cards: Array, n: int, rng: npt.NDArray[np.uint64]) -> None:
    """Shuffle the first ``n`` entries of ``cards`` in place (Fisher-Yates)."""
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t


# ---------------------------------------------------------------------------- the rules


@jit
def to_move(pos: Array) -> int:
    """The seat to play: the leader, or the other seat once the leader has played."""
    if pos[TRICK] < 0:
        return int(pos[LEADER])
    return 1 - int(pos[LEADER])


@jit
def is_over(pos: Array) -> bool:
    return bool(pos[NH] == 0 and pos[NH + 1] == 0 and pos[TRICK] < 0)


@jit
def points_of(pos: Array, card: int) -> int:
    return int(pos[PVAL + card % 10])


@jit
def card_beats(trump: int, top: int, card: int) -> bool:
    """The trick rule on card ids, for every core: whether ``card`` takes the trick from
    ``top``, the card winning it so far (a higher card of its suit, or a trump; ``trump``
    is the trump suit, -1 for none)."""
    if card // 10 == top // 10:
        return card > top
    return bool(card // 10 == trump)


@jit
def beats(pos: Array, led: int, card: int) -> bool:
    """Whether ``card``, played second, takes the trick led with ``led``."""
    return card_beats(int(pos[TRUMP]), led, card)


@jit
def legal_cards(pos: Array, out: Array) -> int:
    """Write the cards the seat to move may play into ``out``; return how many."""
    s = to_move(pos)
    base = H + s * MAXH
    n = int(pos[NH + s])
    led = pos[TRICK]
    if led >= 0 and pos[FOLLOW] == 1:
        k = 0
        for i in range(n):
            c = pos[base + i]
            if c // 10 == led // 10:
                out[k] = c
                k += 1
        if k > 0:
            return k
    for i in range(n):
        out[i] = pos[base + i]
    return n


@jit
def play_card(pos: Array, card: int) -> int:
    """Play ``card`` for the seat to move (it must be legal). Returns the winner of the trick
    when this card completes it, else -1. Drawing and the next lead follow the engine."""
    s = to_move(pos)
    base = H + s * MAXH
    n = int(pos[NH + s])
    for i in range(n):
        if pos[base + i] == card:
            pos[base + i] = pos[base + n - 1]
            pos[base + n - 1] = -1
            pos[NH + s] = n - 1
            break
    led = pos[TRICK]
    if led < 0:
        pos[TRICK] = card
        return -1
    leader = int(pos[LEADER])
    winner = s if beats(pos, led, card) else leader
    pos[PTS + winner] += pos[PVAL + led % 10] + pos[PVAL + card % 10]
    pos[TRICK] = -1
    pos[LEADER] = winner
    pos[LASTW] = winner
    sp = pos[SP]
    if sp < pos[ND]:
        w = H + winner * MAXH
        pos[w + pos[NH + winner]] = pos[DRAW + sp]
        pos[NH + winner] += 1
        o = H + (1 - winner) * MAXH
        pos[o + pos[NH + 1 - winner]] = pos[DRAW + sp + 1]
        pos[NH + 1 - winner] += 1
        pos[SP] = sp + 2
    return winner


# ---------------------------------------------------------------------------- policies


@jit
def lead_key(pos: Array, c: int) -> int:
    """How dear a card is to lead, or to throw away (the cheapest goes first): plain cards
    by points then strength, trumps after the lisci and low courts."""
    p = pos[PVAL + c % 10]
    if c // 10 == pos[TRUMP]:
        return int(50 + (c % 10) * 10 + p * 20)
    return int(p * 20 + c % 10)


@jit
def cheapest(pos: Array, cards: Array, n: int) -> int:
    """The card of ``cards[:n]`` cheapest to lead or throw away (by :func:`lead_key`; the
    first of equals)."""
    best = cards[0]
    key = lead_key(pos, best)
    for i in range(1, n):
        k = lead_key(pos, cards[i])
        if k < key:
            key = k
            best = cards[i]
    return int(best)


@jit
def greedy_card(pos: Array, cards: Array, n: int) -> int:
    """A cheap, sensible card among ``cards[:n]``: lead the cheapest card; second, take a
    trick for free with a card of the suit led (the richest one), take a carico (or a
    trick worth 3 or more with a trump that counts nothing) with the lowest trump, and
    otherwise throw the cheapest card."""
    led = pos[TRICK]
    if led < 0:
        return cheapest(pos, cards, n)
    trump = pos[TRUMP]
    lp = pos[PVAL + led % 10]
    same = -1
    same_p = -1
    low_trump = -1
    for i in range(n):
        c = cards[i]
        if c // 10 == led // 10:
            if c > led and pos[PVAL + c % 10] > same_p:
                same = c
                same_p = pos[PVAL + c % 10]
        elif c // 10 == trump and (low_trump < 0 or c < low_trump):
            low_trump = c
    if same >= 0:
        return int(same)
    if low_trump >= 0 and (lp >= 10 or (lp >= 3 and pos[PVAL + low_trump % 10] == 0)):
        return int(low_trump)
    return cheapest(pos, cards, n)


@jit
def popcount(m: int) -> int:
    """Set bits of a card mask (ids 0..39)."""
    k = 0
    while m != 0:
        m &= m - 1
        k += 1
    return k


@jit
def none_of(pool: int, bad: int, drawn: int) -> float:
    """The chance that ``drawn`` cards taken at random from ``pool`` include none of
    ``bad`` given ones (hypergeometric)."""
    if bad <= 0:
        return 1.0
    p = 1.0
    for i in range(drawn):
        if pool - i <= 0:
            break
        p *= max(0, pool - bad - i) / (pool - i)
    return p


JUDGE_NAMES = (
    "trump_unsafe",
    "trump_control",
    "trump_control_rank",
    "plain_keep",
    "plain_keep_rank",
    "last_draw_offset",
    "last_draw_weight",
    "lead_exposure",
    "win_weight",
    "lose_weight",
    "follow_win_weight",
    "follow_lose_weight",
    "trump_points",
    "keep_early",
)
"""The weights of :func:`judged_card`'s judgement, in the order of a weights array."""
COUNTING_JUDGE = np.array(
    [0.6, 5.0, 0.6, 0.3, 0.1, 6.0, 0.5, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0], np.float64
)
"""The ``intermediate`` bot's weights (:func:`counting_card`)."""


@jit
def keep_value(
    pos: Array, c: int, live_out: int, hand_n: int, stock_empty: bool, judge: FArray
) -> float:
    """What holding card ``c`` is worth to its player: a trump by its rank (and its points
    when no higher trump is left out), little for a plain card. ``live_out``: the cards
    not yet played outside the player's hand."""
    rank = c % 10
    if c // 10 == pos[TRUMP]:
        higher = live_out & (((1 << (c // 10 * 10 + 10)) - 1) ^ ((1 << (c + 1)) - 1))
        safe = judge[0] if higher != 0 else 1.0
        control = judge[1] + judge[2] * rank
        if stock_empty:
            control *= min(1.0, (hand_n - 1) / 3.0)
        return float(judge[12] * pos[PVAL + rank] * safe + control)
    return float(judge[3] + judge[4] * rank)


@jit
def counting_card(pos: Array, cards: Array, n: int) -> int:
    """The card the ``intermediate`` bot's head-to-head judgement picks among
    ``cards[:n]``, for the seat to move (:func:`judged_card` with its weights)."""
    return judged_card(pos, cards, n, COUNTING_JUDGE)


@jit
def judged_card(pos: Array, cards: Array, n: int, judge: FArray) -> int:
    """The card a card-counting judgement picks among ``cards[:n]``, for the seat to move:
    each card scores the points it is likely to win or lose on the trick, from the chance
    that the opponent holds a card that takes it (the opponent's hand drawn from the cards
    the player has not seen), minus what holding it is worth; with one face-down card
    left, who draws the turned card counts too. ``judge``: the weights (``JUDGE_NAMES``)."""
    s = to_move(pos)
    o = 1 - s
    mine = 0
    for i in range(int(pos[NH + s])):
        mine |= 1 << int(pos[H + s * MAXH + i])
    opp = 0
    for i in range(int(pos[NH + o])):
        opp |= 1 << int(pos[H + o * MAXH + i])
    left = int(pos[ND] - pos[SP])
    has_turned = pos[TRUMP] >= 0 and left > 0
    down = left - 1 if has_turned else left
    stock = 0
    for i in range(int(pos[SP]), int(pos[SP]) + down):
        stock |= 1 << int(pos[DRAW + i])
    unseen = opp | stock
    turned_mask = 0
    if has_turned:
        turned_mask = 1 << int(pos[DRAW + pos[ND] - 1])
    live_out = unseen | turned_mask
    pool = popcount(unseen)
    hidden = int(pos[NH + o])
    led = pos[TRICK]
    trump = pos[TRUMP]
    stock_empty = left == 0
    hand_n = int(pos[NH + s])
    stake = 0.0
    if down == 1 and has_turned:
        tc = int(pos[DRAW + pos[ND] - 1])
        stake = keep_value(pos, tc, live_out, hand_n, False, judge) - judge[5]
    early = 1.0 + judge[13] * left / 34.0  # how much keeping counts, by the stock left
    best = cards[0]
    best_v = -1e18
    for i in range(n):
        c = cards[i]
        pts = pos[PVAL + c % 10]
        suit = c // 10
        higher = ((1 << (suit * 10 + 10)) - 1) ^ ((1 << (c + 1)) - 1)
        if led < 0:
            takers = unseen & higher
            if trump >= 0 and suit != trump and pts >= 3:
                takers |= unseen & (((1 << (trump * 10 + 10)) - 1) ^ ((1 << (trump * 10)) - 1))
            p = none_of(pool, popcount(takers), hidden)
            same = (unseen | turned_mask) & higher
            extra = 0.0
            k = popcount(same)
            if k > 0:
                tot = 0
                for b in range(suit * 10, suit * 10 + 10):
                    if same & (1 << b):
                        tot += pos[PVAL + b % 10]
                extra = tot / k
            v = (judge[8] * p - judge[9] * (1 - p)) * pts - (1 - p) * judge[7] * extra
        else:
            p = 1.0 if beats(pos, led, c) else 0.0
            v = (judge[10] * p - judge[11] * (1 - p)) * (pos[PVAL + led % 10] + pts)
        v -= keep_value(pos, c, live_out, hand_n, stock_empty, judge) * early

        v += (1 - 2 * p) * stake * judge[6]
        if v > best_v or (v == best_v and c < best):
            best_v = v
            best = c
    return int(best)


@jit
def choose_card(
    pos: Array, policy: int, eps: float, rng: npt.NDArray[np.uint64], buf: Array, judge: FArray
) -> int:
    """The card the playout policy picks for the seat to move (``judge``: the counting
    policy's weights)."""
    n = legal_cards(pos, buf)
    if policy == RANDOM:
        return int(buf[rand_below(rng, n)])
    if eps > 0.0 and rand_below(rng, 1 << 30) < eps * (1 << 30):
        return int(buf[rand_below(rng, n)])
    if policy == COUNTING:
        return judged_card(pos, buf, n, judge)
    return greedy_card(pos, buf, n)


@jit
def playout(
    pos: Array,
    policy0: int,
    policy1: int,
    judge0: FArray,
    judge1: FArray,
    eps0: float,
    eps1: float,
    rng: npt.NDArray[np.uint64],
    stop_draw: int,
) -> None:
    """Play on in place until the game is over, or until at most ``stop_draw`` cards are left
    to draw at the start of a trick (``stop_draw`` < 0: to the end): seat 0 by ``policy0``
    (judging by ``judge0``) with a chance ``eps0`` of a random card, seat 1 by ``policy1``
    (``judge1``) with ``eps1``."""
    buf = np.empty(MAXH, np.int64)
    while not is_over(pos):
        if pos[TRICK] < 0 and pos[ND] - pos[SP] <= stop_draw:
            return
        if to_move(pos) == 0:
            card = choose_card(pos, policy0, eps0, rng, buf, judge0)
        else:
            card = choose_card(pos, policy1, eps1, rng, buf, judge1)
        play_card(pos, card)


# ---------------------------------------------------------------------------- whole games


@jit
def new_position(
    pos: Array, deck: Array, dealer: int, hand: int, turned: bool, pval: Array, follow: int
) -> None:
    """Lay out a deal from the shuffled ``deck`` as the engine deals it: one card at a time
    from the seat after the dealer, then (in games with a trump) the turned card, laid
    under the stock and drawn last."""
    pos[:] = -1
    first = (dealer + 1) % 2
    for k in range(hand):
        pos[H + first * MAXH + k] = deck[2 * k]
        pos[H + (1 - first) * MAXH + k] = deck[2 * k + 1]
    pos[NH] = hand
    pos[NH + 1] = hand
    n = deck.shape[0]
    at = 2 * hand
    rest = n - at
    if turned:
        # the turned card comes off the top of what is left, and is drawn last
        for i in range(rest - 1):
            pos[DRAW + i] = deck[at + 1 + i]
        pos[DRAW + rest - 1] = deck[at]
        pos[TRUMP] = deck[at] // 10
    else:
        for i in range(rest):
            pos[DRAW + i] = deck[at + i]
        pos[TRUMP] = -1
    pos[ND] = rest
    pos[SP] = 0
    pos[LEADER] = first
    pos[TRICK] = -1
    pos[PTS] = 0
    pos[PTS + 1] = 0
    pos[LASTW] = -1
    pos[FOLLOW] = follow
    for i in range(10):
        pos[PVAL + i] = pval[i]


def italian_points() -> Array:
    """Points of each strength index in the 40-card decks: 2 4 5 6 7 J Q K 3 A."""
    use_cache()
    return np.array([0, 0, 0, 0, 0, 2, 3, 4, 10, 11], np.int64)


@jit
def one_random_game(
    pos: Array,
    deck: Array,
    dealer: int,
    pval: Array,
    rng: npt.NDArray[np.uint64],
    moves: Array,
) -> int:
    """Shuffle ``deck``, deal it as ``briscola-2`` (3 cards, turned trump) and play random
    cards to the end, writing them to ``moves``; return the number of cards played."""
    shuffle(deck, 40, rng)
    new_position(pos, deck, dealer, 3, True, pval, 0)
    m = 0
    while not is_over(pos):
        s = to_move(pos)
        c = pos[H + s * MAXH + rand_below(rng, int(pos[NH + s]))]
        moves[m] = c
        m += 1
        play_card(pos, c)
    return m


@jit
def random_games_kernel(n: int, seed: int, pval: Array) -> tuple[int, int]:
    """Play ``n`` random games of two-player Briscola from shuffled deals (the dealer
    alternating); return the card plays made and the points seat 0 took in all."""
    rng = np.empty(1, np.uint64)
    seed_rng(rng, seed)
    deck = np.arange(40).astype(np.int64)
    pos = np.empty(SIZE, np.int64)
    moves = np.empty(40, np.int64)
    plays = 0
    total = 0
    for g in range(n):
        plays += one_random_game(pos, deck, g % 2, pval, rng, moves)
        total += pos[PTS]
    return plays, total


@jit
def random_game_trace(seed: int, dealer: int, pval: Array) -> tuple[Array, Array, int]:
    """One random game exactly as :func:`random_games_kernel` plays each: the shuffled deck,
    the cards played in order, and the points of seat 0 (for the tests against the engine)."""
    rng = np.empty(1, np.uint64)
    seed_rng(rng, seed)
    deck = np.arange(40).astype(np.int64)
    pos = np.empty(SIZE, np.int64)
    moves = np.empty(40, np.int64)
    m = one_random_game(pos, deck, dealer, pval, rng, moves)
    return deck.copy(), moves[:m].copy(), int(pos[PTS])


def fast_random_games(n: int, seed: int = 0) -> int:
    """Play ``n`` random games of ``briscola-2`` in the fast core; return the card plays made
    (40 a game), as :func:`briscola.terminal.cli.bench.play_random_games` returns its
    actions."""
    plays, _ = random_games_kernel(n, seed, italian_points())
    return int(plays)


def fast_random_points(n: int, seed: int = 0) -> int:
    """The points seat 0 took in ``n`` random games of the fast core (a checksum of play)."""
    _, total = random_games_kernel(n, seed, italian_points())
    return int(total)


def bench_fast(games: int = 500_000, seed: int = 0) -> float:
    """Random ``briscola-2`` games a second of the process's CPU time
    (``time.process_time``) in the fast core on one core: the best of five equal slices,
    after a warm-up that compiles (or loads) the kernel."""
    pval = italian_points()
    random_games_kernel(10, seed, pval)
    per = max(1, games // 5)
    best = float("inf")
    for i in range(5):
        start = time.process_time()
        random_games_kernel(per, seed + i, pval)
        best = min(best, time.process_time() - start)
    return per / best


# ---------------------------------------------------------------------------- conversion


def supports(rules: Rules) -> bool:
    """Whether the fast core plays this game: two players each alone, one card each to a
    trick, at most five cards in hand (the trump exchange is left out of playouts)."""
    g = rules.game
    return (
        rules.players == 2
        and not rules.teams
        and g.rounds == 1
        and g.hand_size <= MAXH
        and len(rules.deck) <= 40
        and len(rules.deck) - 2 * g.hand_size <= MAXDRAW
        and rules.key != "chiamata"
    )


class Codec:
    """Card ids of one rule set, both ways, and the points table of the fast core."""

    def __init__(self, rules: Rules) -> None:
        use_cache()
        self.rules = rules
        self.id: dict[Card, int] = {
            c: SUITS.index(c.suit) * 10 + rules.strength[c] for c in rules.deck
        }
        self.card: dict[int, Card] = {i: c for c, i in self.id.items()}
        pval = np.zeros(10, np.int64)
        for c, i in self.id.items():
            pval[i % 10] = rules.points[c]
        self.pval = pval

    def ids(self, cards: Sequence[Card]) -> list[int]:
        return [self.id[c] for c in cards]

    def position(
        self,
        hands: Sequence[Sequence[Card]],
        draw: Sequence[Card],
        leader: int,
        led: Card | None,
        trump: Suit | None,
        points: Sequence[int],
        last_winner: int = -1,
    ) -> Array:
        """A position from its parts: each seat's hand, the cards still to draw in drawing
        order (the turned card last), the leader, the card led to the trick (if any), the
        trump suit and the points each seat has taken."""
        pos = np.full(SIZE, -1, np.int64)
        for s in (0, 1):
            for k, c in enumerate(hands[s]):
                pos[H + s * MAXH + k] = self.id[c]
            pos[NH + s] = len(hands[s])
        for k, c in enumerate(draw):
            pos[DRAW + k] = self.id[c]
        pos[ND] = len(draw)
        pos[SP] = 0
        pos[LEADER] = leader
        pos[TRICK] = -1 if led is None else self.id[led]
        pos[TRUMP] = -1 if trump is None else SUITS.index(trump)
        pos[PTS] = points[0]
        pos[PTS + 1] = points[1]
        pos[LASTW] = last_winner
        pos[FOLLOW] = 1 if self.rules.follow_suit else 0
        pos[PVAL : PVAL + 10] = self.pval
        return pos

    def from_state(self, state: GameState) -> Array:
        """The fast position of a reference engine state (two-player games)."""
        last = state.tricks[-1].winner if state.tricks else -1
        return self.position(
            state.hands,
            state.to_draw(),
            state.order[0],
            state.trick[0] if state.trick else None,
            state.trump,
            state.seat_points,
            last,
        )

    def from_view(
        self, view: View, opponent: Sequence[Card], stock: Sequence[Card], turned: Card | None
    ) -> Array:
        """The position of a two-player ``view`` once the hidden cards are chosen: the
        opponent's hand and the face-down stock (top first), the turned card under it."""
        seat = view.seat
        assert seat is not None
        hands: list[Sequence[Card]] = [(), ()]
        hands[seat] = view.hand
        hands[1 - seat] = opponent
        draw = list(stock) + ([] if turned is None else [turned])
        leader = view.trick_order[0] if view.trick_order else (view.to_act or 0)
        led = view.trick[0][1] if view.trick else None
        taken = [0, 0]
        for t in view.tricks:
            taken[t.winner] += t.points
        last = view.tricks[-1].winner if view.tricks else -1
        return self.position(hands, draw, leader, led, view.trump, taken, last)

    def hand(self, pos: Array, seat: int) -> list[Card]:
        n = int(pos[NH + seat])
        return [self.card[int(pos[H + seat * MAXH + k])] for k in range(n)]

    def draw_left(self, pos: Array) -> list[Card]:
        return [self.card[int(pos[DRAW + k])] for k in range(int(pos[SP]), int(pos[ND]))]
