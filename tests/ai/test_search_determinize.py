"""Worlds sampled for search: consistent with the view they come from (the state rebuilt
from one gives that view back), spread over the hidden cards, and blind to every card the
view does not show."""

from __future__ import annotations

import ast
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

import briscola.ai.search.determinize as determinize
from briscola.ai.rules.counting import read_house_rules
from briscola.ai.search.determinize import (
    Sampler,
    World,
    rebuild_state,
    rules_for,
    world_position,
)
from briscola.engine import GAMES, Card, GameState, Play, Rules, View, seat_view, shuffled_deal
from briscola.engine.addons import ADDONS, Addon, AddonKind
from briscola.engine.chiamata import Chiamata
from helpers import CONFIGS, config_id, random_state


def comparable(view: View) -> View:
    """A view with its legal actions reduced to the card plays: which kinds of talk a seat
    already used in this trick is not part of any view, so a rebuilt state cannot know it."""
    plays = tuple(sorted((a for a in view.legal if isinstance(a, Play)), key=str))
    return replace(view, legal=plays)


def check_world(view: View, world: World, rules: Rules) -> None:
    seat = view.seat
    assert seat is not None
    assert [len(h) for h in world.hands] == list(view.hand_sizes)
    assert world.hands[seat] == view.hand
    for s, hand in view.visible_hands.items():
        assert world.hands[s] == hand
    for s, known in view.known_cards.items():
        assert set(known) <= set(world.hands[s])
    assert len(world.stock) == view.stock_size
    if view.stock_top is not None:
        assert world.stock[0] == view.stock_top
    assert world.turned == view.turned
    # every card of the deck is in exactly one place
    places = [c for h in world.hands for c in h] + list(world.stock)
    places += [c for t in view.tricks for c in t.cards] + [c for _, c in view.trick]
    if world.turned is not None:
        places.append(world.turned)
    assert len(places) == len(set(places))
    assert set(places) | world.removed == set(rules.deck)
    assert not (set(places) & world.removed)
    # the state rebuilt from the world shows the seat the same view
    state = rebuild_state(view, world, rules)
    assert comparable(seat_view(state, seat)) == comparable(view)


def positions(key: str, options: dict[str, object], count: int, seed: int) -> list[GameState]:
    """Random positions of a game: random deals played on at random for a random while."""
    rules = Rules.make(key, options)
    rng = random.Random(seed)
    out: list[GameState] = []
    while len(out) < count:
        state = random_state(rules, rng)
        stop = rng.randrange(60)
        for _ in range(stop):
            if state.over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.over:
            out.append(state)
    return out


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=[config_id(k, o) for k, o in CONFIGS])
def test_every_sampled_world_is_consistent_with_the_view(
    key: str, options: dict[str, object]
) -> None:
    rng = random.Random(7)
    for state in positions(key, options, 6, seed=len(key)):
        for seat in range(state.n):
            view = seat_view(state, seat)
            sampler = Sampler(view, state.rules)
            for _ in range(2):
                world = sampler.sample(rng)
                check_world(view, world, state.rules)
            # the real deal is one of the worlds the view allows
            real = World(
                tuple(tuple(h) for h in state.hands),
                tuple(reversed(state.pile[1:] if state.turned is not None else state.pile)),
                state.turned,
                frozenset(next(iter(state.rules.removals))),
                None,
            )
            assert sampler.count() >= 1
            assert len(real.stock) == view.stock_size


def test_a_rebuilt_world_plays_on_to_the_end() -> None:
    rng = random.Random(3)
    for key, options in CONFIGS:
        for state in positions(key, options, 2, seed=11):
            view = seat_view(state, state.turn)
            world = Sampler(view, state.rules).sample(rng)
            copy = rebuild_state(view, world, state.rules)
            while not copy.over:
                copy.apply(rng.choice(copy.legal_actions()))
            if key != "chiamata":
                assert sum(copy.points) == sum(
                    state.rules.points[c] for c in state.rules.deck
                ) - sum(state.rules.points[c] for c in world.removed)


def hidden_swapped(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same position with the cards hidden from ``seat`` dealt again at random."""
    other = 1 - seat
    known = set(state.known[other])
    swap = [c for c in state.hands[other] if c not in known]
    face_down = state.pile[1:] if state.turned is not None else state.pile
    swap += face_down
    rng.shuffle(swap)
    new = state.copy()
    k = len([c for c in state.hands[other] if c not in known])
    new.hands[other] = [c for c in state.hands[other] if c in known] + swap[:k]
    new.pile = ([state.turned] if state.turned is not None else []) + swap[k:]
    return new


def test_the_sampler_reads_nothing_the_view_does_not_show() -> None:
    rules = Rules.make("briscola-2")
    rng = random.Random(5)
    hits = 0.0
    expected = 0.0
    changed = 0
    for state in positions("briscola-2", {}, 150, seed=2):
        seat = state.turn
        view = seat_view(state, seat)
        other = hidden_swapped(state, seat, rng)
        changed += other.hands != state.hands or other.pile != state.pile
        view2 = seat_view(other, seat)
        assert view2 == view
        a = Sampler(view, rules).sample(random.Random(9))
        b = Sampler(view2, rules).sample(random.Random(9))
        assert a == b
        # the true hidden cards are no likelier in the sampled hand than any other
        sampler = Sampler(view, rules)
        truth = set(state.hands[1 - seat]) - set(view.known_cards.get(1 - seat, ()))
        if sampler.hidden() > len(truth):
            for _ in range(20):
                world = sampler.sample(rng)
                hits += len(truth & set(world.hands[1 - seat])) / 20
            expected += len(truth) * len(truth) / sampler.hidden()
    assert changed > 100
    assert expected > 50
    assert abs(hits - expected) < 0.15 * expected


def test_hidden_cards_are_spread_evenly() -> None:
    rules = Rules.make("briscola-2")
    state = random_state(rules, random.Random(4))
    view = seat_view(state, state.turn)
    sampler = Sampler(view, rules)
    rng = random.Random(1)
    worlds = [sampler.sample(rng) for _ in range(3000)]
    opp = 1 - state.turn
    hands = Counter(frozenset(w.hands[opp]) for w in worlds)
    assert len(hands) > 2000  # of C(36, 3) = 7140
    counts = Counter(c for w in worlds for c in w.hands[opp])
    slots = sampler.slots[opp]
    mean = 3000 * slots / sampler.hidden()
    assert len(counts) == sampler.hidden()
    assert all(abs(k - mean) < 0.35 * mean for k in counts.values())
    tops = Counter(w.stock[0] for w in worlds if w.stock)
    assert len(tops) == sampler.hidden()


def test_small_views_enumerate_every_world_once() -> None:
    rules = Rules.make("briscola-2")
    rng = random.Random(8)
    seen_sizes = set()
    for state in positions("briscola-2", {}, 400, seed=6):
        if state.stock_size > 5:
            continue
        view = seat_view(state, state.turn)
        sampler = Sampler(view, rules)
        worlds = list(sampler.worlds())
        assert len(worlds) == sampler.count() == len(set(worlds))
        for w in worlds[:5]:
            check_world(view, w, rules)
        assert sampler.sample(rng) in set(worlds)
        seen_sizes.add(view.stock_size)
    assert {1, 3, 5} <= seen_sizes


def test_chiamata_puts_the_called_card_where_the_view_allows() -> None:
    rules = Rules.make("chiamata")
    rng = random.Random(4)
    checked = Counter[str]()
    for state in positions("chiamata", {}, 40, seed=9):
        addon = state.addon(Chiamata)
        assert isinstance(addon, Chiamata)
        if addon.called is None or addon.revealed or addon.called in state.trick:
            continue
        holder = addon.partner
        assert holder is not None
        for seat in range(5):
            view = seat_view(state, seat)
            sampler = Sampler(view, rules)
            places: Counter[int] = Counter()
            for _ in range(60):
                world = sampler.sample(rng)
                assert world.partner is not None
                assert addon.called in world.hands[world.partner]
                places[world.partner] += 1
            if seat == holder:
                assert set(places) == {seat}
                checked["partner"] += 1
            elif seat == addon.caller:
                # the caller knows it does not hold it: any of the four others
                assert seat not in places and len(places) >= 3
                checked["caller"] += 1
            else:
                assert seat not in places and len(places) >= 3
                checked["other"] += 1
    assert min(checked.values()) > 3


def test_the_removed_two_is_any_two_not_seen() -> None:
    rules = Rules.make("briscola-3", {"removed_two": "random"})
    state = positions("briscola-3", {"removed_two": "random"}, 1, seed=3)[0]
    view = seat_view(state, 0)
    sampler = Sampler(view, rules)
    rng = random.Random(2)
    removed = Counter(w.removed for w in (sampler.sample(rng) for _ in range(400)))
    twos = {Card.parse(t) for t in ("2c", "2d", "2s", "2b")}
    shown = twos & (set(view.hand) | {c for t in view.tricks for c in t.cards})
    assert {next(iter(r)) for r in removed} == twos - shown - (
        {view.turned} if view.turned is not None else set()
    )


def test_the_rules_come_with_the_view_or_are_guessed_from_it() -> None:
    options = {"players": 4, "teams": "pairs", "court_order": "south"}
    state = positions("briskula", options, 1, seed=1)[0]
    view = seat_view(state, 0)
    assert rules_for(view).options == state.rules.options
    assert rules_for(view, state.rules) is state.rules
    bare = replace(view, rules={})
    guessed = rules_for(bare)
    assert guessed.players == 4 and guessed.teams
    # The court order as far as the tricks played give it away.
    assert guessed.option("court_order") == read_house_rules(bare).get("court_order", "north")


def test_house_rules_are_read_from_what_the_views_give_away() -> None:
    rng = random.Random(6)
    for options, rule, value in [
        ({"court_order": "south"}, "court_order", "south"),
        ({"follow_suit": "required"}, "follow_suit", "required"),
    ]:
        found = 0
        plain = Rules.make("briscola-2")
        rules = Rules.make("briscola-2", options)
        for _ in range(20):
            for table, expect in ((rules, value), (plain, None)):
                state = random_state(table, random.Random(rng.random()))
                learned: dict[str, str] = {}
                while not state.over:
                    learned.update(read_house_rules(seat_view(state, state.turn)))
                    state.apply(rng.choice(state.legal_actions()))
                if expect is None:
                    assert learned.get(rule) != value
                elif learned.get(rule) == value:
                    found += 1
                    bare = replace(seat_view(state, 0), rules={})
                    assert rules_for(bare, None, learned).option(rule) == value
                    # Without what was learned: what this view alone gives away.
                    alone = read_house_rules(bare).get(rule, plain.option(rule))
                    assert rules_for(bare).option(rule) == alone
        assert found >= 12


def test_the_sampler_names_no_add_on() -> None:
    """Each add-on builds its own part of a world's position from the view
    (``Addon.part_from_view``): the sampler imports no add-on module and tests no add-on's
    type."""
    tree = ast.parse(Path(determinize.__file__).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not imported & {
        "briscola.engine.chiamata",
        "briscola.engine.exchange",
        "briscola.engine.talk",
    }
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert not names & {"Chiamata", "TrumpExchange", "TableTalk", "isinstance"}


class Tally(Addon):
    """A toy add-on whose part of a position is the number of tricks taken."""

    def position(self, state: object) -> object:
        return ("tally",)

    def part_from_view(self, view: View, hands: Sequence[Sequence[Card]], rules: Rules) -> object:
        return ("tally", len(view.tricks), tuple(len(h) for h in hands))

    def restore(self, state: object, part: object) -> None:
        assert isinstance(part, tuple) and part[0] == "tally"

    def copy(self) -> Tally:
        return Tally()


def test_a_new_add_on_builds_its_own_part_of_a_sampled_world(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sampler needs no change for an add-on it has never heard of."""
    monkeypatch.setitem(ADDONS, "tally", AddonKind("tally", "a tally", (), lambda values: Tally))
    game = replace(GAMES["briscola-2"], key="tallied", addons=("tally", "exchange"))
    monkeypatch.setitem(GAMES, game.key, game)  # a view names its game
    rules = Rules.make(game, {"trump_exchange": "seven"})
    rng = random.Random(5)
    state = GameState(rules, shuffled_deal(rules, 0, rng))
    for _ in range(5):
        state.apply(rng.choice(state.legal_actions()))
    view = seat_view(state, state.turn)
    world = Sampler(view, rules).sample(rng)
    parts = world_position(view, world, rules).addons
    assert parts[0] == ("tally", 2, (3, 2)) and len(parts) == 2
    check_world(view, world, rules)
