"""The players read the table's rules from the view (counting.rules_of): under
``court_order=south`` their card values are the engine's, from the first card on."""

from __future__ import annotations

import random

import pytest

from briscola.ai import make_bot
from briscola.ai.rules.auction import choose_bid, rough_bid, suit_value
from briscola.ai.rules.counting import Reading, rules_of, tables_for
from briscola.ai.search.determinize import rules_for
from briscola.engine import (
    GAMES,
    GameState,
    Rank,
    Rules,
    Suit,
    parse_cards,
    seat_view,
    shuffled_deal,
)
from briscola.engine.actions import Bid, Pass
from helpers import new_state

SOUTH = [k for k, g in GAMES.items() if "court_order" in g.rules]


@pytest.mark.parametrize("key", SOUTH)
def test_under_south_the_players_tables_are_the_engines(key: str) -> None:
    rules = Rules.make(key, {"court_order": "south"})
    rng = random.Random(3)
    state = GameState(rules, shuffled_deal(rules, 0, rng))
    checked = 0
    while not state.over:
        view = seat_view(state, state.turn)
        if not state.tricks or checked < 3:
            tables = Reading(view).tables
            assert dict(tables.strength) == dict(rules.strength)
            assert dict(tables.points) == dict(rules.points)
            assert rules_for(view).strength == rules.strength
            checked += 1
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert checked


def test_the_rules_of_a_view_are_the_tables_and_made_once() -> None:
    rules = Rules.make("briscola-4", {"court_order": "south", "communication": "signals"})
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(1)))
    views = [seat_view(state, s) for s in range(4)]
    made = {id(rules_of(v)) for v in views}
    assert len(made) == 1
    assert rules_of(views[0]).options == rules.options
    assert tables_for(views[0]) is tables_for(views[1])


def test_a_view_without_the_rules_reads_the_court_order_from_its_tricks() -> None:
    rules = Rules.make("briscola-2", {"court_order": "south"})
    rng = random.Random(8)
    for _ in range(20):
        state = GameState(rules, shuffled_deal(rules, 0, rng))
        while not state.over:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        view = seat_view(state, 0)
        bare = type(view)(**{**view.__dict__, "rules": {}})
        told = any(
            sum(rules.points[c] for c in t.cards)
            != sum(Rules.make("briscola-2").points[c] for c in t.cards)
            for t in view.tricks
        )
        if told:
            assert rules_of(bare).option("court_order") == "south"
            return
    raise AssertionError("no hand gave the court order away")


def test_the_auction_values_the_fante_above_the_cavallo_under_south() -> None:
    hand = parse_cards(["Ad", "3d", "Kd", "Jd", "5d", "Ab", "4c", "2s"])
    swapped = parse_cards(["Ad", "3d", "Kd", "Qd", "5d", "Ab", "4c", "2s"])
    assert suit_value(hand, Suit.DENARI, south=True) > suit_value(swapped, Suit.DENARI, south=True)
    assert suit_value(hand, Suit.DENARI) < suit_value(swapped, Suit.DENARI)
    legal = [Pass(0), Bid(0, rank=Rank.QUEEN), Bid(0, rank=Rank.JACK), Bid(0, rank=Rank.SEVEN)]
    assert choose_bid(hand, legal, south=True) == Bid(0, rank=Rank.JACK)
    assert choose_bid(hand, legal) == Bid(0, rank=Rank.QUEEN)
    assert rough_bid(hand, legal, 5, south=True) == Bid(0, rank=Rank.JACK)


def test_the_bots_bid_by_the_court_order_of_the_table() -> None:
    """Seat 1 to bid after a king: the cheapest bid is the fante under south."""
    hands = [
        "Ad 3d Kd Jd 5d 4d 2d 7d",
        "Ac 3c Kc 5c 4c Ab 3b As",
        "Qd 6d Qc Jc 7c 6c 2c Kb",
        "Qb Jb 7b 6b 5b 4b 2b 3s",
        "Ks Qs Js 7s 6s 5s 4s 2s",
    ]
    for order, cheapest in (("south", Rank.JACK), ("north", Rank.QUEEN)):
        for level in ("beginner", "intermediate"):
            state = new_state("chiamata", hands, None, 4, options={"court_order": order})
            state.apply(Bid(0, rank=Rank.KING))
            bid = make_bot(level, seed=1).choose(seat_view(state, 1))
            if level == "beginner" and isinstance(bid, Pass):
                continue  # a newcomer may pass; when it bids, it bids the cheapest
            assert isinstance(bid, Bid) and bid.rank is cheapest, (order, level, bid)
