"""Briscolone's ``follow_suit`` is ``required`` by default (rules.md §2). Records store
the house rules that differ from the defaults, so a record written when the default was
``free`` (``"rules": {}``) must still replay as it was played: records without the rule
mean ``free``, and records written now always carry it."""

from __future__ import annotations

import random

from briscola.engine import GameState, Rules, parse_record, replay, shuffled_deal


def _free_hand_that_breaks_suit(seed: int) -> dict[str, object]:
    """A briscolone record played under follow_suit=free in which a seat did not follow
    suit while holding the suit led, written as records were before: ``"rules": {}``."""
    rules = Rules.make("briscolone", {"follow_suit": "free"})
    rng = random.Random(seed)
    while True:
        state = GameState(rules, shuffled_deal(rules, 0, rng))
        broke = False
        while not state.over:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            if state.trick:
                led = state.trick[0].suit
                hand = state.hands[state.turn]
                card = getattr(action, "card", None)
                held = any(c.suit is led for c in hand)
                broke |= card is not None and card.suit is not led and held
            state.apply(action)
        if broke:
            record = state.to_record()
            record["rules"] = {}
            return record


def test_briscolone_follows_suit_by_default() -> None:
    assert Rules.make("briscolone").follow_suit
    assert not Rules.make("briscolone", {"follow_suit": "free"}).follow_suit


def test_an_old_briscolone_record_without_follow_suit_replays_as_free() -> None:
    record = _free_hand_that_breaks_suit(4)
    parsed = parse_record(record)
    assert parsed.rules.option("follow_suit") == "free"
    assert replay(parsed).state.over


def test_a_briscolone_record_written_now_carries_follow_suit() -> None:
    for value in ("required", "free"):
        rules = Rules.make("briscolone", {"follow_suit": value})
        state = GameState(rules, shuffled_deal(rules, 0, random.Random(1)))
        record = state.to_record()
        assert record["rules"]["follow_suit"] == value
        assert parse_record(record).rules.option("follow_suit") == value


def test_other_games_records_still_store_only_overrides() -> None:
    rules = Rules.make("briscola-2")
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(1)))
    assert state.to_record()["rules"] == {}
