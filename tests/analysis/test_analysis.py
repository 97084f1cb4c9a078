"""A finished hand's analysis, for every game: the best choice loses nothing and no loss
is negative; a planted blunder (an ace thrown onto a trick the seat cannot win, though it
holds a card worth nothing) is marked a mistake or a blunder; the values come from the
seat's view alone; the same record and seed give the same analysis; and what cannot be
analysed is refused, saying why."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from briscola.analysis import LABELS, analyse_hand, choice_values
from briscola.analysis.values import LEVELS
from briscola.engine import GAMES, GameState, MalformedError, Rules, seat_view
from briscola.engine.game_record import Record
from helpers import QUICK_SEARCH, ace_throws, played_hand, swap_cards


@settings(max_examples=22, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10**6))
def test_the_best_choice_loses_nothing_and_no_loss_is_negative(game: str, seed: int) -> None:
    rules = Rules.make(game)
    record = played_hand(rules, seed)
    seat = seed % rules.players
    found = analyse_hand(record, seats=[seat], seed=seed, config=QUICK_SEARCH, talk_worlds=4)
    assert [s.seat for s in found.seats] == [seat]
    assert found.decisions, "every seat plays cards"
    for d in found.decisions:
        assert d.seat == seat and d.label in LABELS
        assert d.loss >= 0
        assert d.played in [c.action for c in d.choices]
        values = {c.action: c.expected_points for c in d.choices}
        if d.label == "forced":
            assert len(d.choices) == 1 and d.loss == 0
            continue
        assert len(d.choices) > 1
        best = max(v for v in values.values() if v is not None)
        assert values[d.best] == best  # the best choice: its loss would be 0
        assert d.loss == pytest.approx(best - values[d.played], abs=1e-9)
        assert (d.loss == 0) == (d.played == d.best or values[d.played] == best)
    [summary] = found.seats
    assert summary.total_loss == pytest.approx(sum(d.loss for d in found.decisions))
    assert 0 <= summary.accuracy <= 100


def planted(rules: Rules, tries: int = 400) -> tuple[Record, int, int]:
    """A finished hand in which a seat, last to play to a trick that an opponent takes
    whatever it plays, throws its ace there though it holds a card worth nothing, in the
    first third of the hand (later, an ace kept may be lost anyway: at the last tricks it
    often costs nothing to throw it, docs/analysis.md); the move's number and the seat."""
    for found in ace_throws(rules, tries):
        if found.early:
            moves = [*found.moves, found.ace]
            return played_hand(rules, found.seed, moves), len(found.moves), found.seat
    raise AssertionError(f"{rules.game.key}: no such position in {tries} hands")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_ace_thrown_onto_a_lost_trick_is_a_mistake_or_a_blunder(game: str) -> None:
    rules = Rules.make(game)
    record, move, seat = planted(rules)
    found = analyse_hand(record, seats=[seat], talk_worlds=4)
    [decision] = [d for d in found.decisions if d.move_number == move]
    assert decision.label in ("mistake", "blunder"), decision
    assert decision.loss >= 4
    assert rules.points[decision.played.card] == 11  # type: ignore[union-attr]
    worst = found.costliest(seat)
    assert worst[0].loss >= decision.loss  # (the random play around it may lose more)
    [summary] = found.to_json()["seats"]
    assert summary["costliest"] == [d.move_number for d in worst]


def test_the_kind_of_values_is_named_and_checked() -> None:
    record = played_hand(Rules.make("briscola-4"), 3)
    assert (
        analyse_hand(record, seats=[0], config=QUICK_SEARCH, talk_worlds=4).to_json()["seen"]
        == "seat"
    )
    found = analyse_hand(record, seats=[0], config=QUICK_SEARCH, seen="all", talk_worlds=4)
    assert found.to_json()["seen"] == "all" and found.decisions
    with pytest.raises(MalformedError, match="seen: one of seat, all"):
        analyse_hand(record, seen="everything")


def test_values_come_from_the_seats_view_alone() -> None:
    """Two deals that differ only in cards the seat has not seen (one in the opponent's
    hand, one deep in the stock) give the seat the same values at the same moment."""
    rules = Rules.make("briscola-2")
    record = played_hand(rules, 7)
    state = GameState(rules, record.deal)
    for move in record.moves[:8]:
        state.apply(move)
    seat = state.turn
    other = 1 - seat
    seen = {str(c) for c in seat_view(state, seat).hand}
    unseen = [c for c in state.hands[other] if str(c) not in seen]
    deep = record.deal.stock[-1]  # drawn last of all: not yet seen by anyone
    swapped = swap_cards(record.deal, unseen[0], deep)
    twin = GameState(rules, swapped)
    for move in record.moves[:8]:
        twin.apply(move)
    assert seat_view(twin, seat) == seat_view(state, seat)
    assert twin.hands[other] != state.hands[other]
    config = LEVELS["strong"]
    assert choice_values(twin, seat, config, 5) == choice_values(state, seat, config, 5)


@pytest.mark.parametrize("game", ["briscola-2", "briscola-4"])
def test_the_same_record_and_seed_give_the_same_analysis(game: str) -> None:
    """Again, and with other seats analysed beside (the two-player search keeps its
    transposition table across the hand's decisions)."""
    record = played_hand(Rules.make(game), 3)
    first = analyse_hand(record, seed=9, seats=[0], config=QUICK_SEARCH, talk_worlds=4)
    assert analyse_hand(record, seed=9, seats=[0], config=QUICK_SEARCH, talk_worlds=4) == first
    together = analyse_hand(record, seed=9, seats=[0, 1], config=QUICK_SEARCH, talk_worlds=4)
    assert [d for d in together.decisions if d.seat == 0] == list(first.decisions)


def test_what_cannot_be_analysed_is_refused_saying_why() -> None:
    rules = Rules.make("briscola-2")
    record = played_hand(rules, 1)
    unfinished = dataclasses.replace(record, moves=record.moves[:10])
    with pytest.raises(MalformedError, match="not over"):
        analyse_hand(unfinished)
    with pytest.raises(MalformedError, match="level: one of strong, champion"):
        analyse_hand(record, level="grandmaster")
    with pytest.raises(MalformedError, match="seats 0 to 1, not 2"):
        analyse_hand(record, seats=[2])
    illegal = dataclasses.replace(record, moves=(record.moves[1], *record.moves[1:]))
    with pytest.raises(MalformedError, match="illegal move"):
        analyse_hand(illegal)


def test_schembil_records_from_before_the_rais_talk_are_analysed_too() -> None:
    """The records `replay` reads as written before the rais talked out of their own
    lead (no ``talk: done`` moves; tests/data) are analysed as it reads them."""
    from pathlib import Path

    from briscola.engine import parse_record

    old = Path(__file__).parents[1] / "data" / "schembil_records_before_rais_talk.jsonl"
    for line in old.read_text(encoding="utf-8").splitlines():
        record = parse_record(json.loads(line)["record"])
        found = analyse_hand(record, seats=[0], config=QUICK_SEARCH, talk_worlds=4)
        assert found.decisions and all(d.loss >= 0 for d in found.decisions)
