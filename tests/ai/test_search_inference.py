"""The search bots' inference: worlds weighed by how well they explain the opponent's plays
(:func:`briscola.ai.search.pimc.history_fit`), checked against a sum over every history written
out here, and for the information it gains on real games."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import numpy as np

from briscola.ai.bot import Bot, make_bot
from briscola.ai.cores.head_to_head import MAXH, NH, Codec, H, legal_cards
from briscola.ai.learned.features import N_FEATURES, deck_mask, encode_dense
from briscola.ai.learned.net import Net, network
from briscola.ai.learned.player import PolicyBot, view_position
from briscola.ai.search import pimc
from briscola.ai.search.config import STRONG
from briscola.ai.search.determinize import Sampler
from briscola.engine import GameState, Rules, seat_view, shuffled_deal
from briscola.engine.views import View

RULES = Rules.make("briscola-2")
CODEC = Codec(RULES)
DECK = deck_mask(CODEC.id.values())


def views_of_seat_0(
    games: int, first: int, last: int, opponent: Callable[[int], Bot] | None = None
) -> list[tuple[View, GameState]]:
    """Views of seat 0 from trick ``first`` to ``last`` of games of the intermediate bot
    against ``opponent`` (``None``: itself), with a copy of the true state."""
    out = []
    for g in range(games):
        state = GameState(RULES, shuffled_deal(RULES, g % 2, random.Random(g)))
        bots = [make_bot("intermediate", seed=10 * g + s) for s in range(2)]
        if opponent is not None:
            bots[1] = opponent(10 * g + 1)
        while not state.over:
            seat = state.turn
            view = seat_view(state, seat)
            if seat == 0 and first <= len(state.tricks) <= last and state.stock_size > 2:
                out.append((view, state.copy()))
            state.apply(bots[seat].choose(view))
    return out


def worlds_of(view: View, k: int, seed: int) -> np.ndarray:
    sampler = Sampler(view, RULES)
    one = sampler.sample(random.Random(seed))
    root = CODEC.from_view(view, one.hands[1], one.stock, one.turned)
    slots, pool = pimc.hidden_slots(sampler, 0)
    ids = np.array([CODEC.id[c] for c in pool], np.int64)
    return pimc.fill_worlds(root, slots, ids, k, seed)


def counting_fits(world, m, unseen, led, mine, played, tau, ctx, noise) -> float:
    pre = pimc.before_play(world, m, unseen, 0, led, mine, tau, ctx)
    return pimc.counting_fits(pre, played, noise, np.empty(MAXH + 1, np.int64))


def policy_fits(net: Net):
    """The chance of each play under ``net``, by its numpy reference (``Net.forward``)."""

    def fits(world, m, unseen, led, mine, played, tau, ctx, noise) -> float:
        pre = pimc.before_play(world, m, unseen, 0, led, mine, tau, ctx)
        buf = np.empty(MAXH + 1, np.int64)
        n = legal_cards(pre, buf)
        row = np.zeros(N_FEATURES, np.float32)
        encode_dense(pre, 1, False, DECK, row)
        logits = net.forward(row[None, :])[0].astype(np.float64)
        legal = [int(c) for c in buf[:n]]
        soft = np.exp(logits[legal] - logits[legal].max())
        soft /= soft.sum()
        return noise / n + (1 - noise) * float(soft[legal.index(played)])

    return fits


def by_every_history(world: np.ndarray, history: tuple, noise: float, fits=counting_fits) -> float:
    """The weight of one world, summing over every choice of the cards drawn."""
    opp_card, opp_led, my_card, base, now_card, now_base, tau, ctx = history
    hand = {int(world[H + MAXH + i]) for i in range(int(world[NH + 1]))}
    if now_card >= 0:
        hand.add(now_card)

    def mask(cards: set[int]) -> int:
        return sum(1 << c for c in cards)

    weight = 1.0
    if now_card >= 0:
        m = mask(hand)
        weight = fits(world, m, now_base & ~m, 1, -1, now_card, tau, ctx[-1], noise)
    t_all = len(opp_card)
    total = 0.0
    for drawn in itertools.product(range(len(hand)), repeat=t_all):
        h = set(hand)
        p = 1.0
        for j, t in enumerate(range(t_all - 1, -1, -1)):
            d = sorted(h)[drawn[j]]
            h = (h - {d}) | {int(opp_card[t])}
            m = mask(h)
            p *= fits(
                world, m, int(base[t]) & ~m, int(opp_led[t]), int(my_card[t]),
                int(opp_card[t]), tau, ctx[t], noise,
            )  # fmt: skip
        total += p / len(hand) ** t_all
    return weight * total


def test_the_weights_sum_over_every_history() -> None:
    checked = 0
    for view, _ in views_of_seat_0(6, 1, 4):
        history = pimc.opponent_history(view, RULES, CODEC)
        assert history is not None
        worlds = worlds_of(view, 6, 3)
        fit = np.empty(worlds.shape[0], np.float64)
        assert pimc.history_fit(worlds, 0, *history, 0.1, fit, pimc.new_memo(), *pimc.NO_POLICY)
        for w in range(worlds.shape[0]):
            assert abs(fit[w] - by_every_history(worlds[w], history, 0.1)) < 1e-12
            checked += 1
    assert checked > 30


def test_the_policy_networks_weights_sum_over_every_history_as_numpy_computes_them() -> None:
    """With a policy network, each play's chance is its softmax among the legal cards
    (mixed with the noise), read from the position the opponent played from: its points
    and the last trick's winner then, not now."""
    net = Net.fresh(N_FEATURES, (16, 8), 40, np.random.default_rng(3), {"kind": "policy"})
    model = (DECK, *net.kernel_args())
    checked = 0
    for view, _ in views_of_seat_0(4, 2, 4):
        history = pimc.opponent_history(view, RULES, CODEC)
        assert history is not None
        ctx = history[-1]
        assert ctx.shape == (len(view.tricks) + 1, 3)
        assert ctx[0].tolist() == [0, 0, -1]
        assert ctx[-1, 0] + ctx[-1, 1] == sum(t.points for t in view.tricks)
        worlds = worlds_of(view, 4, 5)
        fit = np.empty(worlds.shape[0], np.float64)
        assert pimc.history_fit(worlds, 0, *history, 0.05, fit, pimc.new_memo(), *model)
        for w in range(worlds.shape[0]):
            want = by_every_history(worlds[w], history, 0.05, policy_fits(net))
            assert abs(fit[w] - want) < 1e-5 * want
            checked += 1
    assert checked > 20


def test_the_policy_reads_each_play_from_what_the_opponent_saw_then() -> None:
    """The position a play is read from, built with the opponent's true hand of then, is
    the one its own view of then gives (as the policy network reads a view: the same
    numbers), for every play it made in the hand."""
    checked = 0
    for g in range(6):
        state = GameState(RULES, shuffled_deal(RULES, g % 2, random.Random(100 + g)))
        bots = [make_bot("intermediate", seed=10 * g + s) for s in range(2)]
        seen_by_1: list[View] = []
        while state.stock_size > 2:
            view = seat_view(state, state.turn)
            if state.turn == 1:
                seen_by_1.append(view)
            state.apply(bots[state.turn].choose(view))
        view = seat_view(state, 0)
        history = pimc.opponent_history(view, RULES, CODEC)
        assert history is not None
        opp_card, opp_led, my_card, base, _, _, tau, ctx = history
        world = CODEC.from_state(state)
        for t, then in enumerate(seen_by_1[: len(opp_card)]):
            assert len(then.tricks) == t
            hand = sum(1 << CODEC.id[c] for c in then.hand)
            pre = pimc.before_play(
                world, hand, int(base[t]) & ~hand, 0, int(opp_led[t]), int(my_card[t]), tau, ctx[t]
            )
            got, want = np.zeros(N_FEATURES, np.float32), np.zeros(N_FEATURES, np.float32)
            encode_dense(pre, 1, False, DECK, got)
            encode_dense(view_position(then, CODEC), 1, False, DECK, want)
            np.testing.assert_array_equal(got, want)
            checked += 1
    assert checked > 40


def test_a_searchers_memo_of_the_policys_chances_gives_the_weights_computed_afresh() -> None:
    """One memo kept over the views of several hands in turn (the memo must start afresh
    with each hand), and over views met twice."""
    net = Net.fresh(N_FEATURES, (16, 8), 40, np.random.default_rng(4), {"kind": "policy"})
    model = (DECK, *net.kernel_args())
    inference = pimc.Inference()
    views = views_of_seat_0(3, 0, 12)
    views = views[:5] + views[3:]
    kept = 0
    for n, (view, _) in enumerate(views):
        history = pimc.opponent_history(view, RULES, CODEC)
        if history is None:
            continue
        worlds = worlds_of(view, 64, n)
        before = len(inference.memo)
        remembered = pimc.weigh(worlds, 0, history, 0.05, model, inference)
        kept += before > 0 and len(inference.memo) >= before
        fresh = pimc.weigh(worlds, 0, history, 0.05, model)
        assert np.array_equal(remembered, fresh)
    assert kept > 10


def test_the_weights_find_the_opponents_cards() -> None:
    """Against the player the model describes, the weighed worlds hold more of the
    opponent's true cards than worlds drawn blind: about 0.67 of its three against 0.36
    on these games (the test asks for 0.2 more)."""
    prior, posterior = [], []
    for n, (view, state) in enumerate(views_of_seat_0(8, 4, 12)):
        history = pimc.opponent_history(view, RULES, CODEC)
        assert history is not None
        worlds = worlds_of(view, 1000, n)
        fit = np.empty(worlds.shape[0], np.float64)
        assert pimc.history_fit(worlds, 0, *history, 0.05, fit, pimc.new_memo(), *pimc.NO_POLICY)
        right = cards_right(worlds, state)
        prior.append(right.mean())
        posterior.append(float((right * fit).sum() / fit.sum()))
    assert len(prior) > 40
    assert np.mean(posterior) > np.mean(prior) + 0.2


def cards_right(worlds: np.ndarray, state: GameState) -> np.ndarray:
    """How many of the opponent's true cards each world gives it."""
    true = {CODEC.id[c] for c in state.hands[1]}
    return np.array(
        [len(true & {int(x) for x in w[H + MAXH : H + MAXH + int(w[NH + 1])]}) for w in worlds]
    )


def test_the_shipped_policy_reads_the_cards_of_a_player_it_describes() -> None:
    """Against the shipped policy's own player (no search), the worlds weighed by that
    policy, as the strong level weighs them, hold more of the opponent's true cards than
    worlds drawn blind (on these games, 0.44 of its three against 0.31; the card-counting
    model reads 0.43)."""
    net = network("shipped", "briscola-2", "policy")
    assert net is not None
    model = (DECK, *net.kernel_args())
    prior, learned = [], []
    for n, (view, state) in enumerate(views_of_seat_0(8, 2, 12, lambda s: PolicyBot(net, s))):
        history = pimc.opponent_history(view, RULES, CODEC)
        assert history is not None
        worlds = worlds_of(view, 1000, n)
        right = cards_right(worlds, state)
        weights = pimc.weigh(worlds, 0, history, STRONG.model_noise, model)
        prior.append(right.mean())
        learned.append(float((right * weights).sum() / weights.sum()))
    assert len(prior) > 40
    assert np.mean(learned) > np.mean(prior) + 0.1


def test_nothing_is_read_when_nothing_is_hidden_or_played() -> None:
    state = GameState(RULES, shuffled_deal(RULES, 1, random.Random(5)))
    assert state.turn == 0
    assert pimc.opponent_history(seat_view(state, 0), RULES, CODEC) is None
    while state.stock_size or state.turned is not None:
        state.apply(make_bot("intermediate", seed=1).choose(seat_view(state, state.turn)))
    seat = state.turn
    assert pimc.opponent_history(seat_view(state, seat), RULES, CODEC) is None
