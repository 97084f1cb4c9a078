"""Inference at the table games: the worlds weighed by how well they explain the other
seats' plays. The cards as they truly lie always explain them; against players that
play as the model says, the true world weighs more than the worlds drawn blind, and
the weighed worlds hold more of the others' true cards."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from briscola.ai.cores.head_to_head import Codec
from briscola.ai.cores.table_games import MAXH, from_state, from_worlds, greedy_card, view_root
from briscola.ai.cores.table_games import legal_cards as core_legal
from briscola.ai.learned.leaves import NO_NET
from briscola.ai.search.config import STRONG
from briscola.ai.search.determinize import Sampler, World
from briscola.ai.search.pimc import resample
from briscola.ai.search.players import SearchBot
from briscola.ai.search.table_inference import SEAT, plays_read, world_weights
from briscola.engine import GameState, Rules, seat_view, shuffled_deal
from briscola.engine.actions import Play
from briscola.engine.phases import Phase
from briscola.engine.views import View
from helpers import play_hand


def greedy_move(state: GameState, codec: Codec) -> Play:
    """The table core's greedy policy on the state's own seat (it reads its hand and the
    trick alone)."""
    pos = from_state(state, codec)
    buf = np.empty(MAXH, np.int64)
    n = core_legal(pos, buf)
    card = int(buf[0]) if n == 1 else greedy_card(pos, buf, n)
    return Play(state.turn, codec.card[card])


def decisions(game: str, seed: int, greedy: bool):  # type: ignore[no-untyped-def]
    """Each decision of a hand (the state and the seat's view), played by the greedy
    policy or by random cards."""
    rules = Rules.make(game)
    codec = Codec(rules)
    rng = random.Random(seed)
    state = GameState(rules, shuffled_deal(rules, seed % rules.players, rng))
    while not state.over:
        view = seat_view(state, state.turn)
        plays = [a for a in view.legal if isinstance(a, Play)]
        if state.phase != Phase.PLAY or not plays:  # schembil's talk: any of its words
            state.apply(rng.choice(view.legal))
            continue
        yield state, view, rules, codec
        state.apply(greedy_move(state, codec) if greedy else rng.choice(plays))


@pytest.mark.parametrize("game", ["briscola-3", "briscola-4", "briscola-6", "schembil"])
def test_the_cards_as_they_lie_always_explain_the_plays(game: str) -> None:
    read = 0
    for seed in range(4):
        for state, view, rules_, codec in decisions(game, seed, greedy=False):
            plays = plays_read(view, rules_, codec)
            assert not (plays[:, SEAT] == view.seat).any()
            read += len(plays)
            out = np.zeros(1)
            world_weights(from_state(state, codec)[None], plays, 0.1, out, 0, NO_NET)
            assert out[0] > 0.0, (seed, len(view.tricks), plays)
    assert read > 0


def blind_worlds(
    view: View, rules: Rules, codec: Codec, rng: random.Random, count: int
) -> tuple[list[World], np.ndarray]:
    """``count`` worlds drawn by the sampler alone, and their positions in the core."""
    sampler = Sampler(view, rules)
    drawn = [sampler.sample(rng) for _ in range(count)]
    dealt = [(w.hands, w.stock, w.turned, None) for w in drawn]
    return drawn, from_worlds(view_root(view, rules, codec), codec, dealt)


def test_the_true_world_weighs_more_than_the_blind_ones_against_the_model() -> None:
    truer = total = 0
    for seed in range(6):
        for state, view, rules, codec in decisions("briscola-4", seed, greedy=True):
            plays = plays_read(view, rules, codec)
            if len(plays) < 3:
                continue
            drawn, worlds = blind_worlds(view, rules, codec, random.Random(seed), 50)
            blind = np.zeros(len(drawn))
            world_weights(worlds, plays, 0.1, blind, 0, NO_NET)
            true = np.zeros(1)
            world_weights(from_state(state, codec)[None], plays, 0.1, true, 0, NO_NET)
            truer += true[0] > blind.mean()
            total += 1
    assert total > 50 and truer / total > 0.8, (truer, total)


def test_the_weighed_worlds_hold_more_of_the_others_cards() -> None:
    """The others' cards a world gets right, on average: weighed by the greedy model (its
    candidates resampled as the search does) against drawn blind."""
    weighed = blind = 0.0
    for seed in range(4):
        for state, view, rules, codec in decisions("briscola-4", 10 + seed, greedy=True):
            plays = plays_read(view, rules, codec)
            if not len(plays):
                continue
            rng = random.Random(seed)
            drawn, worlds = blind_worlds(view, rules, codec, rng, 200)
            weights = np.zeros(len(drawn))
            world_weights(worlds, plays, 0.1, weights, 0, NO_NET)
            kept = resample(weights, 50, rng) if weights.sum() > 0 else np.arange(50)

            right = [
                sum(len(set(w.hands[s]) & set(state.hands[s])) for s in range(4) if s != view.seat)
                for w in drawn
            ]
            weighed += sum(right[int(w)] for w in kept) / 50
            blind += sum(right[:50]) / 50
    assert weighed > blind * 1.05, (weighed, blind)


def test_a_search_player_with_inference_plays_whole_hands() -> None:
    config = replace(STRONG, table_model_noise=0.1, table_worlds=16, table_fast_worlds=True)
    for game, seed in (("briscola-4", 1), ("briscola-3", 2), ("chiamata", 3)):
        rules = Rules.make(game)
        state = play_hand(rules, [SearchBot(seed + s, config) for s in range(rules.players)], seed)
        assert state.over


def test_a_policy_networks_weights_are_its_softmax_as_numpy_computes_it() -> None:
    """With a policy network for the model, a play's chance in a world is its softmax
    over the legal cards (numpy's forward pass on the seat's reading of the world with
    its hand of then), mixed with the noise; where a card was drawn since, the mean over
    which card it was."""
    from briscola.ai.cores import table_games as table
    from briscola.ai.learned.features import deck_mask
    from briscola.ai.learned.net import Net
    from briscola.ai.learned.table_features import N_FEATURES, encode_dense
    from briscola.ai.search import table_inference as ti

    net = Net.fresh(N_FEATURES, (16, 8), 40, np.random.default_rng(2))
    checked = 0
    for state, view, rules, codec in decisions("briscola-4", 3, greedy=False):
        deck = deck_mask(codec.id.values())
        plays = plays_read(view, rules, codec)
        world = from_state(state, codec)
        want = 1.0
        for play in plays:
            seat = int(play[ti.SEAT])
            now = {
                int(c) for c in world[table.H + seat * MAXH : table.H + seat * MAXH + 8] if c >= 0
            }
            later = {c for c in range(40) if int(play[ti.LATER]) >> c & 1}
            held = sorted(now | later)
            hands = [held] if play[ti.DRAWS] == 0 else [[c for c in held if c != x] for x in held]
            chances = []
            for hand in hands:
                pos = world.copy()
                cards = [*hand, int(play[ti.CARD])]
                pos[table.H + seat * MAXH : table.H + seat * MAXH + MAXH] = -1
                pos[table.H + seat * MAXH : table.H + seat * MAXH + len(cards)] = sorted(cards)
                pos[table.NH + seat] = len(cards)
                pos[table.LEADER] = play[ti.LEAD]
                pos[table.NT] = play[ti.K]
                pos[table.TRICK : table.TRICK + int(play[ti.K])] = play[
                    ti.PREFIX : ti.PREFIX + int(play[ti.K])
                ]
                buf = np.empty(MAXH, np.int64)
                n = core_legal(pos, buf)
                legal = list(buf[:n])
                if int(play[ti.CARD]) not in legal:
                    chances.append(0.0)
                    continue
                if n == 1:
                    chances.append(1.0)
                    continue
                x = np.zeros(N_FEATURES, np.float32)
                encode_dense(pos, seat, False, deck, x)
                z = net.forward(x[None])[0][legal].astype(np.float64)
                soft = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
                chances.append(0.2 / n + 0.8 * soft[legal.index(int(play[ti.CARD]))])
            want *= sum(chances) / len(chances)
        got = np.zeros(1)
        world_weights(world[None], plays, 0.2, got, deck, net.kernel_args())
        assert got[0] == pytest.approx(want, rel=1e-4)
        checked += len(plays) > 0 and any(p[ti.DRAWS] for p in plays)
    assert checked > 0
