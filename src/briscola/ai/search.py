"""The search levels, ``strong`` and ``champion``: Perfect Information Monte Carlo.

For a card to play, the bot deals the cards hidden from its seat into many worlds
consistent with its view (:mod:`briscola.ai.determinize`), plays each legal card in each
world, finishes the hand there, and plays the card with the best average outcome. The
outcome of a hand is its result for the bot's side (1 a win, 1/2 a tie, 0 a loss) plus a
small share of its point margin, so that among cards that win as often, the one that
takes more points is preferred.

How a hand is finished depends on the game and how much is left:

- Head to head (the two-player games the fast core plays, :mod:`briscola.ai.fast`): when
  the view allows few enough worlds (the stock empty, or nearly), every world is listed
  and solved exactly (:mod:`briscola.ai.solver`); otherwise sampled worlds are played out
  by card-counting policies, each with a 10% chance of a random card: the opponent by the
  ``intermediate`` bot's judgement of each card (compiled), the searching side by the
  same judgement with weights trained by self-play to beat it
  (:mod:`briscola.ai.tuning`), since the search plays better than the intermediate bot;
  the last tricks of each playout are solved exactly. The playouts of the cards of one
  world share their random numbers. ``champion`` searches the worlds in batches and
  stops searching a card once it trails the best by 2.5 standard errors. The worlds are
  weighed by how well they explain every card the opponent has played in the hand, were
  it to judge cards as that policy does with a 10% chance of not doing so (inference:
  :func:`briscola.ai.pimc.history_fit`): sampled worlds are drawn four times over and
  resampled by weight, listed worlds count by weight. All of it runs in compiled numba
  kernels (:mod:`briscola.ai.pimc`).
- Games of three to six players (teams, chiamata): the worlds are reference engine states
  (:func:`~briscola.ai.determinize.rebuild_state`) played out by a greedy policy that
  knows its partners, the last trick or two solved exactly. Where every trick goes round
  the whole table (all but the double trick and Briškula's uneven last round) the
  playouts run in the compiled table core (:mod:`briscola.ai.table`): ``strong`` plays
  200 worlds twice per card, ``champion`` 1,000 worlds four times, and both solve the
  last two tricks. Elsewhere they run in the reference engine, on a budget counted in
  card plays.

The choices that are not card play (chiamata's bids and call, partner talk, a rais's
look) are left to the ``intermediate`` bot's rules; the trump exchange is always made.

Both levels are deterministic for a given seed. Measured on the project's 2-core machine
(``benchmarks/search_speed.py``): ``strong`` takes about 10 ms a move, head to head and
in the bigger games; ``champion`` about 0.1-0.2 s head to head and 0.05-0.1 s in the
bigger games. What was tried and measured is in ``benchmarks/README.md``.

>>> import random
>>> from briscola.engine import GameState, Rules, seat_view, shuffled_deal
>>> rules = Rules.make("briscola-3")
>>> state = GameState(rules, shuffled_deal(rules, 0, random.Random(2)))
>>> bot = SearchBot(seed=1, config=SearchConfig(engine_plies=300))
>>> view = seat_view(state, state.turn)
>>> bot.choose(view) in view.legal
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from briscola.ai.bot import Bot, make_bot, register
from briscola.ai.counting import read_house_rules
from briscola.ai.determinize import Sampler, rebuild_state, rules_for
from briscola.engine.actions import Action, Call, Exchange, Look, Pass, Play
from briscola.engine.cards import Card, Suit
from briscola.engine.errors import BriscolaError
from briscola.engine.games import Rules
from briscola.engine.state import GameState
from briscola.engine.views import View


@dataclass(frozen=True)
class SearchConfig:
    """How hard a search bot thinks."""

    worlds: int = 128
    """Worlds sampled per move (head to head)."""
    rollouts: int = 2
    """Playouts per world and card (head to head)."""
    policy: str = "tuned"
    """Head to head, the searching side's playout policy: ``greedy`` (cheap rules),
    ``counting`` (the intermediate bot's judgement of each card from the cards unseen) or
    ``tuned`` (that judgement with weights trained by self-play to beat it,
    :mod:`briscola.ai.tuning`)."""
    policy_other: str | None = "counting"
    """Head to head, the opponent's playout policy (``None``: ``policy``)."""
    eps: float = 0.1
    """The chance that the playout policy plays a random card instead of its own."""
    eps_other: float | None = None
    """Head to head, the same chance for the opponent's cards in the playouts (``None``:
    ``eps``)."""
    exact_draw: int = 0
    """Solve each world exactly (no playout) once at most this many cards are left to draw."""
    exact_end: int = 0
    """Solve a playout exactly from when at most this many cards are left to draw (-1: play
    it to the end)."""
    enumerate: int = 120
    """List every world (instead of sampling) when the view allows at most this many, and
    at most ``enumerate_draw`` cards are left to draw; each is then solved exactly."""
    enumerate_draw: int = 4
    """See ``enumerate`` (the turned card counts)."""
    model_noise: float = 0.1
    """Head to head, inference: worlds are drawn in proportion to how well they explain
    the opponent's last plays, were it to judge cards as the card-counting policy does
    with this chance of playing otherwise (1: no inference, every world alike)."""
    candidates: int = 4
    """With inference, the worlds sampled per world kept."""
    min_worlds: int = 0
    """Head to head, stop early: search the sampled worlds in batches of this many, and
    after each stop searching the cards that trail the best by more than ``stop_z``
    standard errors (0: search every card in all ``worlds``)."""
    stop_z: float = 3.0
    """See ``min_worlds``."""
    margin: float = 0.2
    """Weight of the point margin (per 60 points) beside the hand's result."""
    table_worlds: int = 200
    """Games of three to six players that the table core plays (:mod:`briscola.ai.table`):
    the worlds sampled per move."""
    table_rollouts: int = 2
    """See ``table_worlds``: playouts per world and card."""
    table_policy: str = "greedy"
    """Table core: the playout policy, ``greedy`` (:func:`briscola.ai.table.greedy_card`)
    or ``lookahead`` (:func:`briscola.ai.table.lookahead_card`: measured, not better
    for the champion, ``benchmarks/README.md``)."""
    table_eps: float = 0.1
    """Table core: the chance of a random card at each play of a playout."""
    table_exact: int = 64
    """Table core: solve each world to the end instead, once the stock is out and the
    hands left allow at most this many orders of play (the product over the seats of
    their hand size's factorial; the trick's rules cut it further). 64 covers the last
    two tricks of every table game (solving the last three at four seats changed
    nothing measurable: ``benchmarks/README.md``)."""
    engine_plies: int = 4000
    """Games neither core plays: the card plays budgeted for playouts of reference engine
    states."""
    engine_worlds: int = 64
    """Games neither core plays: the most worlds sampled."""
    exact_tricks: int = 1
    """Games neither core plays: solve exactly from when this many tricks (or fewer) are
    left."""


STRONG = SearchConfig()
CHAMPION = SearchConfig(
    worlds=2400,
    min_worlds=100,
    stop_z=2.5,
    rollouts=4,
    exact_end=2,
    enumerate=840,
    enumerate_draw=5,
    table_worlds=1000,
    table_rollouts=4,
    engine_plies=40_000,
    engine_worlds=400,
    exact_tricks=2,
)


class SearchBot:
    """A PIMC player (see the module's notes). The table's house rules come with each
    view; ``rules``, when given, overrides them."""

    def __init__(
        self,
        seed: int | None = None,
        config: SearchConfig = STRONG,
        rules: Rules | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.config = config
        self.rules = rules
        self.helper: Bot | None = None
        try:
            self.helper = make_bot("intermediate", seed=self.rng.getrandbits(32))
        except BriscolaError:  # pragma: no cover - the heuristic levels are always there
            self.helper = None
        self._rules_for: tuple[str, int, int] | None = None
        self._cached_rules: Rules | None = None
        self._learned: dict[str, str] = {}

    def new_hand(self, view: View) -> None:
        hook = getattr(self.helper, "new_hand", None)
        if callable(hook):
            hook(view)

    # ------------------------------------------------------------------ deciding

    def choose(self, view: View) -> Action:
        legal = view.legal
        if not legal:
            raise BriscolaError(
                f"the bot was asked to act for seat {view.seat}, which has no legal action "
                f"now (the seat to act is {view.to_act})"
            )
        plays = [a for a in legal if isinstance(a, Play)]
        if len(plays) < len(legal):
            other = self.other_choice(view, plays)
            if other is not None:
                return other
        if len(plays) == 1:
            return plays[0]
        if not plays:  # pragma: no cover - every phase without card play is handled above
            return legal[0]
        rules = self.table_rules(view)
        card = self.best_card(view, rules, [p.card for p in plays])
        return next(p for p in plays if p.card is card)

    def other_choice(self, view: View, plays: Sequence[Play]) -> Action | None:
        """A choice that is not which card to play, or ``None`` to play a card now."""
        legal = view.legal
        for a in legal:
            if isinstance(a, Exchange):
                return a  # the turned card is always the better trump
        if self.helper is not None:
            said = self.helper.choose(view)
            if not isinstance(said, Play):
                return said
            return None
        for a in legal:  # pragma: no cover - without the heuristic levels: simple rules
            if isinstance(a, Look):
                return a
        if not plays:  # pragma: no cover
            bids = [a for a in legal if isinstance(a, Pass | Call)]
            return bids[0] if bids else legal[0]
        return None  # pragma: no cover

    def table_rules(self, view: View) -> Rules:
        """The given rules, else those the view carries; for a view without them, the
        game's defaults with what the views so far gave away (kept for the bot's life)."""
        if self.rules is not None or view.rules:
            return rules_for(view, self.rules)
        key = (view.game, view.players, len(view.sides))
        if self._rules_for != key:
            self._learned = {}
        found = read_house_rules(view)
        if self._rules_for != key or found.items() - self._learned.items():
            self._learned.update(found)
            self._cached_rules = rules_for(view, None, self._learned)
            self._rules_for = key
        assert self._cached_rules is not None
        return self._cached_rules

    def best_card(self, view: View, rules: Rules, cards: Sequence[Card]) -> Card:
        from briscola.ai import fast

        seed = self.rng.getrandbits(40)
        if view.players == 2 and fast.supports(rules):
            from briscola.ai.pimc import head_to_head

            values = head_to_head(view, rules, self.config, seed)
        else:
            values = engine_values(view, rules, self.config, cards, seed)
        return pick(values, cards, rules, view.trump)


def pick(
    values: dict[Card, tuple[float, float]], cards: Sequence[Card], rules: Rules, trump: Suit | None
) -> Card:
    """The card of best value (mean outcome, then mean points), the cheapest to lose on a
    tie: plain cards before trumps, fewer points first, lower first."""

    def cheap(c: Card) -> tuple[int, int, int]:
        return (c.suit is trump, rules.points[c], rules.strength[c])

    best = max(values[c][0] for c in cards)
    near = [c for c in cards if values[c][0] >= best - 1e-9]
    top = max(values[c][1] for c in near)
    near = [c for c in near if values[c][1] >= top - 1e-9]
    return min(near, key=cheap)


# ---------------------------------------------------------------------------- other games


def engine_values(
    view: View, rules: Rules, config: SearchConfig, cards: Sequence[Card], seed: int
) -> dict[Card, tuple[float, float]]:
    """Mean outcome and mean points of each legal card, from sampled worlds (any game):
    played out by a greedy policy, in the table core where it plays the game
    (:func:`table_values`), or solved exactly over the last tricks. Otherwise worlds are
    added until the card plays (or states searched) reach the budget, four at least."""
    from briscola.ai.endgame import side_of_seat, side_points, state_values
    from briscola.ai.table import supports as table_supports

    seat = view.seat
    assert seat is not None
    rng = random.Random(seed)
    sampler = Sampler(view, rules)
    stock_out = view.stock_size == 0 and view.turned is None
    if table_supports(rules):
        orders = math.prod(math.factorial(n) for n in view.hand_sizes)
        ending = stock_out and orders <= config.table_exact
        return table_values(view, rules, config, cards, sampler, rng, ending)
    most = min(config.engine_worlds, max(1, sampler.count()))
    total = sum(rules.points[c] for c in rules.deck)
    tricks_left = math.ceil(sum(view.hand_sizes) / (view.players * rules.game.rounds))
    exact = stock_out and tricks_left <= config.exact_tricks
    sums = {c: [0.0, 0.0] for c in cards}
    used = [0]
    worlds = 0
    while worlds < most and (worlds < 4 or used[0] < config.engine_plies):
        worlds += 1
        state = rebuild_state(view, sampler.sample(rng), rules)
        side = side_of_seat(state, seat)
        if exact:

            def score(s: GameState, side: frozenset[int] = side) -> float:
                return outcome(s, seat, side_points(s, side), total, config.margin)

            for card, v in state_values(state, seat, score, used).items():
                if card in sums:
                    sums[card][0] += v  # its margin part already ranks by points
            continue
        for card in cards:
            child = state.copy()
            child.apply(Play(seat, card))
            used[0] += greedy_playout(child, rng, config.eps)
            pts = side_points(child, side)
            sums[card][0] += outcome(child, seat, pts, total, config.margin)
            sums[card][1] += pts
    return {c: (v[0] / worlds, v[1] / worlds) for c, v in sums.items()}


def table_values(
    view: View,
    rules: Rules,
    config: SearchConfig,
    cards: Sequence[Card],
    sampler: Sampler,
    rng: random.Random,
    exact: bool,
) -> dict[Card, tuple[float, float]]:
    """:func:`engine_values` in the compiled table core: ``table_worlds`` sampled worlds
    (or every world, when fewer), each card played out ``table_rollouts`` times in each
    by ``table_policy``, or (``exact``) the rest of the hand solved in each."""
    import numpy as np

    from briscola.ai import table
    from briscola.ai.fast import Codec

    seat = view.seat
    assert seat is not None
    codec = Codec(rules)
    n = min(config.table_worlds, max(1, sampler.count()))
    worlds = np.stack(
        [table.from_state(rebuild_state(view, sampler.sample(rng), rules), codec) for _ in range(n)]
    )
    ids = np.array([codec.id[c] for c in cards], np.int64)
    sums = np.zeros((len(cards), 2))
    half = sum(rules.points[c] for c in rules.deck) / 2
    if exact:
        table.exact_values(worlds, ids, seat, config.margin, half, sums)
        return {c: (float(sums[i, 0]) / n, 0.0) for i, c in enumerate(cards)}
    rollouts = config.table_rollouts
    seed = rng.getrandbits(40)
    policy = table.POLICIES[config.table_policy]
    table.card_values(
        worlds, ids, seat, rollouts, config.table_eps, config.margin, half, seed, sums, policy
    )
    k = n * rollouts
    return {c: (float(sums[i, 0]) / k, float(sums[i, 1]) / k) for i, c in enumerate(cards)}


def outcome(state: GameState, seat: int, points: int, total: int, margin: float) -> float:
    """A finished hand for ``seat``: 1 won, 1/2 tied, 0 lost, plus the point margin."""
    winners = state.winners()
    result = 1.0 if seat in winners else 0.5 if not winners else 0.0
    return result + margin * (points - total / 2) / 60


def greedy_playout(state: GameState, rng: random.Random, eps: float) -> int:
    """Play the hand to its end with :func:`greedy_play` (card plays only), with a chance
    ``eps`` of a random card at each play. Returns the cards played."""
    rand = rng.random
    plays_made = 0
    while not state.over:
        plays_made += 1
        plays = [a for a in state.legal_actions() if isinstance(a, Play)]
        if len(plays) == 1 or rand() < eps:
            state.apply(plays[0] if len(plays) == 1 else plays[int(rand() * len(plays))])
        else:
            state.apply(greedy_play(state, plays))
    return plays_made


def greedy_play(state: GameState, plays: Sequence[Play]) -> Play:
    """A cheap, sensible card for the seat to act, for playouts of any game: lead the
    cheapest card; load points on a trick a partner holds when no opponent plays after;
    take a trick worth taking with the cheapest card that does; else throw the cheapest.
    Of equal cards the first of ``plays`` (:func:`briscola.ai.table.greedy_card`, its
    compiled twin, takes the lowest card id)."""
    from briscola.ai.endgame import side_of_seat

    rules = state.rules
    points = rules.points
    strength = rules.strength
    trump = state.trump

    def cost(c: Card) -> int:
        if c.suit is trump:
            return 50 + strength[c] * 10 + points[c] * 20
        return points[c] * 20 + strength[c]

    if not state.trick:
        return min(plays, key=lambda p: cost(p.card))
    seat = state.turn
    trick = state.trick
    order = state.order
    top = 0
    for i in range(1, len(trick)):
        if beats_card(trick[i], trick[top], trump, strength):
            top = i
    top_card = trick[top]
    friends = side_of_seat(state, seat)
    after = order[len(trick) + 1 :]
    foes_after = any(s not in friends for s in after)
    if order[top] in friends:
        if not foes_after:
            plain = [p for p in plays if p.card.suit is not trump]
            if plain:
                return max(plain, key=lambda p: (points[p.card], -strength[p.card]))
        return min(plays, key=lambda p: cost(p.card))
    won = sum(points[c] for c in trick)
    takers = [p for p in plays if beats_card(p.card, top_card, trump, strength)]
    same = [p for p in takers if p.card.suit is top_card.suit and p.card.suit is not trump]
    if same:
        if not foes_after:
            return max(same, key=lambda p: (points[p.card], strength[p.card]))
        return max(same, key=lambda p: strength[p.card])
    if takers:
        low = min(takers, key=lambda p: cost(p.card))
        if won >= 10 or (won >= 3 and points[low.card] == 0):
            return low
    return min(plays, key=lambda p: cost(p.card))


def beats_card(card: Card, top: Card, trump: Suit | None, strength: Mapping[Card, int]) -> bool:
    """Whether ``card`` takes the trick from ``top`` (the card winning it so far)."""
    if card.suit is top.suit:
        return strength[card] > strength[top]
    return card.suit is trump


# ---------------------------------------------------------------------------- the levels


@register("strong")
def strong(seed: int | None = None) -> SearchBot:
    """PIMC with a little over a hundred worlds a move: tens of milliseconds a move."""
    return SearchBot(seed=seed, config=STRONG)


@register("champion")
def champion(seed: int | None = None) -> SearchBot:
    """PIMC with many worlds, more exact solving: about half a second a move."""
    return SearchBot(seed=seed, config=CHAMPION)


def with_config(**changes: object) -> SearchConfig:
    """A variant of the strong level's configuration (for experiments)."""
    return replace(STRONG, **changes)  # type: ignore[arg-type]
