"""rules.md §5, the trump exchange: choices that can never apply are refused, and not
offered: the exchange for the 2 of trumps in a deck without 2s; and in a deal whose 2 of
trumps left the deck (Briscola a 3), the exchange is never among the legal actions."""

from __future__ import annotations

import random

import pytest

from briscola.catalog import variants_json
from briscola.engine import (
    GameState,
    IllegalActionError,
    Rules,
    RulesError,
    parse_record,
    replay,
    shuffled_deal,
)
from briscola.engine.actions import Exchange
from briscola.engine.cards import Card, Rank


@pytest.mark.parametrize("key", ["briscola-6", "schembil"])
def test_the_exchange_for_a_two_is_refused_where_the_deck_has_no_2s(key: str) -> None:
    with pytest.raises(RulesError, match=f"{key} has no 2s") as err:
        Rules.make(key, {"trump_exchange": "two"})
    assert str(err.value).endswith("choose one of none, seven, seven-or-two")
    for value in ("none", "seven", "seven-or-two"):
        Rules.make(key, {"trump_exchange": value})


def test_variants_offer_only_the_exchanges_that_can_apply() -> None:
    offered = {
        g["key"]: r["choices"]
        for g in variants_json()
        for r in g["rules"]
        if r["name"] == "trump_exchange"
    }
    assert offered["briscola-6"] == offered["schembil"] == ["none", "seven", "seven-or-two"]
    for key in ("briscola-2", "briscola-3", "briscola-4", "scoperta", "brisca"):
        assert offered[key] == ["none", "two", "seven", "seven-or-two"], key


def test_in_briscola_3_the_removed_2_of_trumps_is_never_offered_nor_taken() -> None:
    rules = Rules.make("briscola-3", {"trump_exchange": "two", "removed_two": "2c"})
    rng = random.Random(2)
    checked = offered = 0
    for dealer in range(300):
        state = GameState(rules, shuffled_deal(rules, dealer % 3, rng))
        turned = state.turned
        assert turned is not None
        if turned.suit is not Card.parse("2c").suit:
            offered += any(isinstance(a, Exchange) for a in state.legal_actions())
            continue
        checked += 1
        while not state.over:
            legal = state.legal_actions()
            assert not any(isinstance(a, Exchange) for a in legal)
            if state.turned is not None:
                with pytest.raises(IllegalActionError, match="left the deck"):
                    state.check(Exchange(state.turn, Card(Rank.TWO, turned.suit)))
            state.apply(legal[rng.randrange(len(legal))])
    assert checked > 10 and offered > 0


def test_a_record_written_with_an_exchange_that_never_applied_still_replays() -> None:
    rules = Rules.make("briscola-6")
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(3)))
    while not state.over:
        state.apply(state.legal_actions()[0])
    record = state.to_record()
    record["rules"] = {"trump_exchange": "two"}
    parsed = parse_record(record)
    assert parsed.rules.option("trump_exchange") == "none"
    assert replay(parsed).state.points == state.points
