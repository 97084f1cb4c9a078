"""Decisions that are not card plays, analysed: signals, the Roman conversation's
questions and orders, Schembil's rais talk and look, chiamata's bids and call. Each is
listed with its choices valued (saying nothing more among them), the best losing
nothing; a caller who calls its own card and so plays alone against four is marked; the
values come from the seat's view alone, and again the same from the same record."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

pytest.importorskip("numba")

from briscola.ai import make_bot
from briscola.analysis import LABELS, analyse_hand
from briscola.analysis.hand import following
from briscola.analysis.talk import TALK, talk_choices, talk_values
from briscola.engine import GameState, Rules, seat_view, shuffled_deal
from briscola.engine.actions import Action, Bid, Call, Pass, Play
from briscola.engine.cards import Card
from briscola.engine.game_record import Record
from helpers import QUICK_SEARCH, played_hand, swap_cards

TABLES = [
    ("briscola-4", {"communication": "signals"}),
    ("briscola-4", {"communication": "conversation"}),
    ("briscola-6", {"communication": "signals"}),
    ("schembil", {}),
    ("chiamata", {}),
]


@pytest.mark.parametrize(("game", "options"), TABLES, ids=lambda x: str(x))
def test_every_talk_bid_and_call_is_valued_and_the_best_loses_nothing(
    game: str, options: dict[str, str]
) -> None:
    rules = Rules.make(game, options)
    record = played_hand(rules, 4)
    found = analyse_hand(record, seed=1, config=QUICK_SEARCH, talk_worlds=6)
    by_move = {d.move_number: d for d in found.decisions}
    talked = [i for i, m in enumerate(record.moves) if isinstance(m, TALK)]
    assert talked, "the computer players talk, bid or call in this game"
    for i in talked:
        d = by_move.get(i)
        assert d is not None, f"move {i}, {record.moves[i]}, is not analysed"
        assert d.label in LABELS and d.loss >= 0
        assert d.played in [c.action for c in d.choices]
        if d.label == "forced":
            continue
        values = {c.action: c.expected_points for c in d.choices}
        assert None not in values.values()
        best = max(v for v in values.values() if v is not None)
        assert values[d.best] == best
        assert d.loss == pytest.approx(best - values[d.played])  # type: ignore[operator]
        if isinstance(d.played, Bid | Pass):
            assert any(isinstance(a, Pass) for a in values)
        then = following(record.moves, i)
        card = next((m for m in then if isinstance(m, Play)), None)
        if card is not None and not isinstance(d.played, Bid | Pass | Call):
            assert card in values, "saying nothing more (the card played next) is a choice"
    for summary in found.seats:
        mine = [d.loss for d in found.decisions if d.seat == summary.seat]
        assert summary.total_loss == pytest.approx(sum(mine))


def own_call(tries: int = 200) -> tuple[Record, int, int]:
    """A chiamata hand whose auction winner calls a card of its own hand (playing alone,
    one against four) where another seat held one of the rank called; played on to its
    end by intermediate players. The record, the call's move number and the caller."""
    rules = Rules.make("chiamata")
    for seed in range(tries):
        rng = random.Random(seed)
        state = GameState(rules, shuffled_deal(rules, rng.randrange(5), rng))
        bots = [make_bot("intermediate", seed=seed * 10 + s) for s in range(5)]
        moves: list[Action] = []
        while not any(isinstance(a, Call) for a in state.legal_actions()):
            move = bots[state.turn].choose(seat_view(state, state.turn))
            moves.append(move)
            state.apply(move)
        caller = state.turn
        mine = [a for a in state.legal_actions() if a.card in state.hands[caller]]  # type: ignore[union-attr]
        if not mine or len(mine) == 4:
            continue
        call = mine[0]
        state.apply(call)
        moves.append(call)
        number = len(moves) - 1
        while not state.over:
            move = bots[state.turn].choose(seat_view(state, state.turn))
            moves.append(move)
            state.apply(move)
        return Record(rules, state.deal, tuple(moves)), number, caller
    raise AssertionError(f"no caller with a card of the rank called in {tries} hands")


def test_calling_ones_own_card_to_play_alone_is_a_mistake_or_a_blunder() -> None:
    record, number, caller = own_call()
    found = analyse_hand(record, seats=[caller], config=QUICK_SEARCH)
    [call] = [d for d in found.decisions if d.move_number == number]
    assert isinstance(call.played, Call) and len(call.choices) == 4
    assert call.label in ("mistake", "blunder"), call
    assert call.best != call.played


def test_talk_values_come_from_the_seats_view_alone() -> None:
    """The call's values are the same whichever of two other seats holds two cards the
    caller has not seen."""
    record, number, caller = own_call()
    state = GameState(record.rules, record.deal)
    for move in record.moves[:number]:
        state.apply(move)
    a, b = [s for s in range(5) if s != caller][:2]
    swapped = swap_cards(record.deal, state.hands[a][0], state.hands[b][0])
    twin = GameState(record.rules, swapped)
    for move in record.moves[:number]:
        twin.apply(move)
    assert seat_view(twin, caller) == seat_view(state, caller)
    assert twin.hands[a] != state.hands[a]
    then = following(record.moves, number)
    choices = talk_choices(state, caller, record.moves[number], then)
    first = talk_values(state, caller, choices, then, 8, 3)
    assert talk_values(twin, caller, choices, then, 8, 3) == first
    # with every card seen, the values are the deal's own
    seen = talk_values(state, caller, choices, then, 8, 3, seen=True)
    assert seen != first


def test_the_same_record_and_seed_give_the_same_talk_values() -> None:
    record = played_hand(Rules.make("schembil"), 2)
    first = analyse_hand(record, seed=4, seats=[0], config=QUICK_SEARCH, talk_worlds=4)
    assert analyse_hand(record, seed=4, seats=[0], config=QUICK_SEARCH, talk_worlds=4) == first
    assert any(isinstance(d.played, TALK) for d in first.decisions)


def test_a_signal_is_valued_as_the_seat_chose_it() -> None:
    """A signal some opponents spotted is the seat's choice without them: the engine drew
    who spotted it."""
    rules = Rules.make("briscola-4", {"communication": "signals", "signal_audience": "spotted"})
    record = played_hand(rules, 5)
    found = analyse_hand(record, config=QUICK_SEARCH, talk_worlds=2)
    signals = [d for d in found.decisions if type(d.played).__name__ == "Signal"]
    assert signals
    for d in signals:
        assert d.played.spotted is None  # type: ignore[union-attr]
        assert dataclasses.replace(record.moves[d.move_number], spotted=None) == d.played  # type: ignore[call-arg]


def test_a_card_call_is_written_as_a_card() -> None:
    record, number, caller = own_call()
    found = analyse_hand(record, seats=[caller], config=QUICK_SEARCH, talk_worlds=2).to_json()
    [call] = [d for d in found["decisions"] if d["move_number"] == number]
    assert Card.parse(call["played"]["call"]) in record.deal.hands[caller]
    assert {c["action"]["call"][0] for c in call["choices"]} == {call["played"]["call"][0]}


def test_the_command_line_names_the_call_and_what_it_cost(tmp_path: Path) -> None:
    """``briscola analyse`` on the hand: the trick line marks the call, and the note under
    it says what it cost and which call was best, as a menu names calls."""
    from typer.testing import CliRunner

    from briscola.terminal.cli import app

    record, number, caller = own_call()
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record.to_json()))
    result = CliRunner().invoke(app, ["analyse", str(path), "--seat", str(caller)])
    assert result.exit_code == 0, result.output
    call = record.moves[number]
    assert isinstance(call, Call)
    said = f"call {call.card}"
    # the auction on a line of its own, before the first trick: not "trick 1"
    [auction] = [line for line in result.stdout.splitlines() if line.startswith("auction ")]
    assert f"{caller} {said}?" in auction
    [trick] = [line for line in result.stdout.splitlines() if line.startswith("trick  1 ")]
    assert said not in trick
    [note] = [line for line in result.stdout.splitlines() if f"seat {caller}'s {said}" in line]
    assert "points lost (call " in note and "was best" in note
    [seat] = [line for line in result.stdout.splitlines() if line.startswith(f"seat {caller} ")]
    assert f"{said} at the auction (" in seat and f"{said} at trick" not in seat


def test_the_terminal_games_say_the_call_and_the_auction_in_the_players_words() -> None:
    """The lines the terminal games show after the hand name a marked call as its menu
    does, "at the auction" (not at trick 1), in the four languages, with the four calls
    it could make."""
    from briscola.terminal.analysis_text import analysis_lines
    from briscola.words.narrate import describe_action
    from briscola.words.seating import Seating

    record, number, caller = own_call()
    body = analyse_hand(record, seats=[caller], config=QUICK_SEARCH, talk_worlds=8).to_json()
    [call] = [d for d in body["decisions"] if d["move_number"] == number]
    assert call["label"] in ("mistake", "blunder")
    assert call["when"] == "auction"
    at = {"en": "the auction: ", "it": "asta: ", "es": "subasta: ", "hr": "licitacija: "}
    costliest = {"en": " at the auction (", "it": " all'asta (", "es": " en la subasta ("}
    costliest["hr"] = ", licitacija ("
    for lang, says in (("en", "call "), ("it", "chiama "), ("es", "llama"), ("hr", "zov")):
        seating = Seating.of(record.rules, caller, lang)
        lines = analysis_lines(body, seating)
        named = describe_action(call["played"], seating)
        assert named.lower().startswith(says)
        [line] = [x for x in lines if named + "?" in x]  # its mark after it
        assert line.lower().count(says) == 1 + 4  # the call made, and the four it could make
        assert line.lower().startswith(at[lang]), line  # not at trick 1
        seat = lines[-1]  # (the caller's summary, the one seat analysed)
        assert named + costliest[lang] in seat, seat
