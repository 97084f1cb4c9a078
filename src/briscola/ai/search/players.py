"""The search levels, ``strong`` and ``champion``: Perfect Information Monte Carlo.

For a card to play, the bot deals the cards hidden from its seat into many worlds
consistent with its view (:mod:`briscola.ai.search.determinize`), plays each legal card
in each world, finishes the hand there, and plays the card with the best average
outcome. The outcome of a hand is its result for the bot's side (1 a win, 1/2 a tie, 0 a
loss) plus a small share of its point margin, so that among cards that win as often, the
one that takes more points is preferred.

How a hand is finished depends on the game and how much is left:

- Head to head (the two-player games of the core :mod:`briscola.ai.cores.head_to_head`):
  when the view allows few enough worlds (the stock empty, or nearly), every world is
  listed and solved exactly (:mod:`briscola.ai.cores.head_to_head_solver`); otherwise
  sampled worlds are played out by card-counting policies, each with a 10% chance of a
  random card: the opponent by the ``intermediate`` bot's judgement of each card
  (compiled), the searching side by the same judgement with weights trained by
  self-play to beat it (``benchmarks/train_judge.py``), since the search plays better
  than the intermediate bot; the last tricks of each playout are solved exactly
  (``strong``, in briscola-2, plays only the card's trick and two more, each card by the
  policy network, then asks the value network, or solves the world exactly from four
  cards left to draw: :mod:`briscola.ai.learned.leaves`). The playouts of the cards of
  one world share their random numbers. ``champion`` searches
  the worlds in batches and stops searching a card once it trails the best by 2.5
  standard errors. The worlds are weighed by how well they explain every card the
  opponent has played in the hand, were it to judge cards as that policy does with a
  10% chance of not doing so (inference: :func:`briscola.ai.search.pimc.history_fit`):
  sampled worlds are drawn four times over and resampled by weight, listed worlds count
  by weight. All of it runs in compiled numba kernels (:mod:`briscola.ai.search.pimc`).
- Games of three to six players (teams, chiamata): sampled worlds played out by a greedy
  policy that knows its partners, the last trick or two solved exactly. Where every
  trick goes round the whole table (all but the double trick and Briškula's uneven last
  round) the playouts run in the compiled table core
  (:mod:`briscola.ai.cores.table_games`), each world dealt straight into the core's array
  (:func:`~briscola.ai.cores.table_games.from_worlds`): ``strong`` plays 200 worlds twice
  per card, ``champion`` 1,000 worlds four times, and both solve the last two tricks.
  Elsewhere the worlds are reference engine states built from their positions
  (:func:`~briscola.ai.search.determinize.rebuild_state`), played out on a budget counted
  in card plays.

The choices that are not card play (chiamata's bids and call, partner talk, a rais's
look) are left to the ``intermediate`` bot's rules; the trump exchange is always made.

Both levels are deterministic for a given seed; each player keeps its own transposition
table in each thread. How long they take a move, and what was tried and measured, is in
``benchmarks/README.md``.

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
import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from briscola.ai.bot import Bot, make_bot, register
from briscola.ai.rules.counting import beats, read_house_rules
from briscola.ai.search.config import CHAMPION, CHAMPION_2026, STRONG, STRONG_2026, SearchConfig
from briscola.ai.search.determinize import OneWorld, Sampler, World, rebuild_state, rules_for
from briscola.engine.actions import Action, Call, Exchange, Look, Pass, Play
from briscola.engine.cards import Card, Suit
from briscola.engine.errors import BriscolaError
from briscola.engine.rules import Rules
from briscola.engine.state import GameState
from briscola.engine.views import View

if TYPE_CHECKING:
    from briscola.ai.cores.head_to_head import Codec
    from briscola.ai.cores.head_to_head_solver import Transpositions
    from briscola.ai.cores.table_games import Array
    from briscola.ai.learned.leaves import Weights


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
        self._threads = threading.local()

    def transpositions(self) -> Transpositions:
        """This player's transposition table in the calling thread (made on first use):
        never shared with another player or thread, since the kernels that fill it run
        without the GIL."""
        tt: Transpositions | None = getattr(self._threads, "tt", None)
        if tt is None:
            from briscola.ai.cores.head_to_head_solver import Transpositions

            tt = self._threads.tt = Transpositions()
        return tt

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
        from briscola.ai.cores import head_to_head as fast

        seed = self.rng.getrandbits(40)
        if view.players == 2 and fast.supports(rules):
            from briscola.ai.search.pimc import head_to_head

            values = head_to_head(view, rules, self.config, seed, self.transpositions())
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
    view: View,
    rules: Rules,
    config: SearchConfig,
    cards: Sequence[Card],
    seed: int,
    truth: World | None = None,
) -> dict[Card, tuple[float, float]]:
    """Mean outcome and mean points of each legal card, from sampled worlds (any game):
    played out by a greedy policy, in the table core where it plays the game
    (:func:`table_values`), or solved exactly over the last tricks. Otherwise worlds are
    added until the card plays (or states searched) reach the budget, four at least.
    With ``truth`` (every card seen), that one world is the only one drawn."""
    from briscola.ai.cores.table_games import supports as table_supports
    from briscola.ai.search.exact_endgame import side_of_seat, side_points, state_values

    seat = view.seat
    assert seat is not None
    rng = random.Random(seed)
    sampler = Sampler(view, rules) if truth is None else OneWorld(truth)
    stock_out = view.stock_size == 0 and view.turned is None
    if table_supports(rules):
        orders = math.prod(math.factorial(n) for n in view.hand_sizes) if stock_out else -1
        return table_values(view, rules, config, cards, sampler, rng, orders)
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
    sampler: Sampler | OneWorld,
    rng: random.Random,
    orders: int,
) -> dict[Card, tuple[float, float]]:
    """:func:`engine_values` in the compiled table core: ``table_worlds`` sampled worlds
    (or every world, when fewer; :func:`table_worlds`), each card played out
    ``table_rollouts`` times in each by ``table_policy``, or valued by the value network
    ``table_value_net`` a few tricks on (:mod:`briscola.ai.learned.table_leaves`), or
    the rest of the hand solved in each, once the stock is out and the ``orders`` of
    play the hands allow (-1 while the stock lasts) are at most ``table_exact`` (with the
    network, ``table_net_exact``)."""
    import numpy as np

    from briscola.ai.cores import table_games as table
    from briscola.ai.cores.head_to_head import Codec
    from briscola.ai.learned.features import deck_mask
    from briscola.ai.learned.leaves import NO_NET
    from briscola.ai.learned.net import network

    seat = view.seat
    assert seat is not None
    codec = Codec(rules)
    n = min(config.table_worlds, max(1, sampler.count()))
    deck = deck_mask(codec.id.values())
    policy_net = None
    if config.table_policy_net is not None:
        policy_net = network(config.table_policy_net, rules.key, "policy")
    model = NO_NET if policy_net is None else policy_net.kernel_args()
    worlds = table_worlds(view, rules, config, sampler, rng, codec, n, deck, model)
    ids = np.array([codec.id[c] for c in cards], np.int64)
    sums = np.zeros((len(cards), 2))
    half = sum(rules.points[c] for c in rules.deck) / 2
    net = None
    if config.table_value_net is not None:
        net = network(config.table_value_net, rules.key, "value")
    exact = config.table_exact if net is None else config.table_net_exact
    if 0 <= orders <= exact:
        table.exact_values(worlds, ids, seat, config.margin, half, sums)
        return {c: (float(sums[i, 0]) / n, 0.0) for i, c in enumerate(cards)}
    if net is not None:
        from briscola.ai.learned.table_leaves import net_values

        leaf_policy = model if config.table_leaf_policy else NO_NET
        net_values(
            worlds,
            ids,
            seat,
            config.table_leaf_tricks,
            exact,
            config.margin,
            half,
            deck,
            sums,
            net.kernel_args(),
            leaf_policy,
        )
        return {c: (float(sums[i, 0]) / n, float(sums[i, 1]) / n) for i, c in enumerate(cards)}
    rollouts = config.table_rollouts
    seed = rng.getrandbits(40)
    policy = table.POLICIES[config.table_policy]
    table.card_values(
        worlds, ids, seat, rollouts, config.table_eps, config.margin, half, seed, sums, policy
    )
    k = n * rollouts
    return {c: (float(sums[i, 0]) / k, float(sums[i, 1]) / k) for i, c in enumerate(cards)}


def table_worlds(
    view: View,
    rules: Rules,
    config: SearchConfig,
    sampler: Sampler | OneWorld,
    rng: random.Random,
    codec: Codec,
    n: int,
    deck: int,
    model: Weights,
) -> Array:
    """The table core's positions of ``n`` worlds of ``view``: drawn by the sampler, or
    dealt in numpy (``table_fast_worlds``); with inference (``table_model_noise`` below
    1), ``table_candidates`` drawn for each kept, kept in proportion to how well they
    explain the other seats' plays under the greedy policy or the policy network
    ``model`` (:mod:`briscola.ai.search.table_inference`)."""
    import numpy as np

    from briscola.ai.cores import table_games as table

    root = table.view_root(view, rules, codec)
    caller = None if view.auction is None else view.auction.caller
    plays = None
    if config.table_model_noise < 1.0 and isinstance(sampler, Sampler):
        from briscola.ai.search.table_inference import plays_read

        plays = plays_read(view, rules, codec)
        if not len(plays):
            plays = None
    drawn = n * config.table_candidates if plays is not None else n
    if config.table_fast_worlds and isinstance(sampler, Sampler) and len(sampler.removals) == 1:
        pool = [c for c in sampler.pool if c not in sampler.removals[0]]
        team = None
        if caller is not None:
            called = sampler.called
            if called is None:
                raise ValueError("chiamata's card play starts once the card is called")
            team = (caller, called, view.played_by(called))
        worlds = table.deal_worlds(
            root,
            codec,
            sampler.fixed,
            sampler.slots,
            pool,
            sampler.top,
            view.turned,
            drawn,
            np.random.default_rng(rng.getrandbits(64)),
            team,
        )
    else:
        dealt: list[table.World] = []
        for _ in range(drawn):
            world = sampler.sample(rng)
            pair = None
            if caller is not None:
                if world.partner is None:
                    raise ValueError("chiamata's card play starts once the card is called")
                pair = (caller, world.partner)
            dealt.append((world.hands, world.stock, world.turned, pair))
        worlds = table.from_worlds(root, codec, dealt)
    if plays is None:
        return worlds
    from briscola.ai.search.pimc import resample
    from briscola.ai.search.table_inference import world_weights

    weights = np.zeros(drawn)
    world_weights(worlds, plays, config.table_model_noise, weights, deck, model)
    return worlds[resample(weights, n, rng)] if weights.sum() > 0 else worlds[:n]


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
    Of equal cards the first of ``plays`` (:func:`briscola.ai.cores.table_games.greedy_card`, its
    compiled twin, takes the lowest card id)."""
    from briscola.ai.search.exact_endgame import side_of_seat

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
        if beats(trick[i], trick[top], trump, strength):
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
    takers = [p for p in plays if beats(p.card, top_card, trump, strength)]
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


# ---------------------------------------------------------------------------- the levels


@register("strong")
def strong(seed: int | None = None) -> SearchBot:
    """PIMC with a little over a hundred worlds a move."""
    return SearchBot(seed=seed, config=STRONG)


@register("champion")
def champion(seed: int | None = None) -> SearchBot:
    """PIMC with many worlds, more exact solving: slower than ``strong``."""
    return SearchBot(seed=seed, config=CHAMPION)


@register("strong-2026")
def strong_2026(seed: int | None = None) -> SearchBot:
    """The strong level as it was in December 2026, kept to measure the levels after it."""
    return SearchBot(seed=seed, config=STRONG_2026)


@register("champion-2026")
def champion_2026(seed: int | None = None) -> SearchBot:
    """The champion level as it was in December 2026, kept to measure the levels after it."""
    return SearchBot(seed=seed, config=CHAMPION_2026)


def with_config(**changes: object) -> SearchConfig:
    """A variant of the strong level's configuration (for experiments)."""
    return replace(STRONG, **changes)  # type: ignore[arg-type]
