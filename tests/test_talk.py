"""Partner communication: signals, the Roman conversation, and Schembil's rais."""

from __future__ import annotations

import json
import random

import pytest

from briscola.engine import (
    Card,
    GameState,
    IllegalActionError,
    MalformedError,
    Play,
    Rules,
    parse_record,
    replay,
    seat_view,
    shuffled_deal,
    spectator_view,
    visible,
)
from briscola.engine.actions import Ask, Look, Order, Signal
from briscola.engine.events import Talk
from briscola.narrate import describe_talk
from helpers import card, make_deal, new_state, play

# Four players, dealer 3, so seat 0 leads; trump denari (the turned 4d).
HANDS4 = ["Ad 3d 5c", "Kd 2d Qs", "6d Ab Jc", "7s 5s 4s"]


def four(options: dict[str, object], hands: list[str] = HANDS4, stock: str = "") -> GameState:
    return new_state("briscola-4", hands, "4d", dealer=3, stock=stock, options=options)


def talk_seen(state: GameState, seat: int | None) -> list[tuple[int, str, str]]:
    view = seat_view(state, seat) if seat is not None else spectator_view(state)
    return [(t.seat, t.kind, t.what) for t in view.talk]


# ---------------------------------------------------------------------------- signals


def test_signals_offered_are_exactly_the_true_ones() -> None:
    state = four({"communication": "signals"})
    offered = {a.signal for a in state.legal_actions() if isinstance(a, Signal)}
    # seat 0 holds Ad 3d (trump honours) and 5c: no low trump, no plain carico
    assert offered == {"ace", "three", "play-carico", "play-liscio"}


@pytest.mark.parametrize("signal", ["king", "queen", "jack", "low-trumps", "no-trumps", "carico"])
def test_untrue_signal_refused(signal: str) -> None:
    state = four({"communication": "signals"})
    before = state.to_record()
    with pytest.raises(IllegalActionError, match="must be true of the hand"):
        state.apply(Signal(0, signal))
    assert state.to_record() == before


def test_signal_truths_across_hands() -> None:
    state = four({"communication": "signals"})
    play(state, "5c")  # seat 1 to act: Kd 2d Qs
    offered = {a.signal for a in state.legal_actions() if isinstance(a, Signal)}
    assert offered == {"king", "low-trumps", "play-carico", "play-liscio"}
    play(state, "Qs")  # seat 2: 6d Ab Jc
    offered = {a.signal for a in state.legal_actions() if isinstance(a, Signal)}
    assert offered == {"low-trumps", "carico", "play-carico", "play-liscio"}
    play(state, "Jc")  # seat 3: 7s 5s 4s
    offered = {a.signal for a in state.legal_actions() if isinstance(a, Signal)}
    assert offered == {"no-trumps", "play-carico", "play-liscio"}


def test_signal_once_a_trick() -> None:
    state = four({"communication": "signals"})
    state.apply(Signal(0, "ace"))
    assert Signal(0, "ace") not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="already signalled"):
        state.apply(Signal(0, "ace"))


def test_signal_to_partner_only() -> None:
    state = four({"communication": "signals", "signal_audience": "partner"})
    state.apply(Signal(0, "ace"))
    assert talk_seen(state, 0) == talk_seen(state, 2) == [(0, "signal", "ace")]
    assert talk_seen(state, 1) == talk_seen(state, 3) == talk_seen(state, None) == []


def test_signal_to_whole_table() -> None:
    state = four({"communication": "signals", "signal_audience": "table"})
    state.apply(Signal(0, "three"))
    for seat in (0, 1, 2, 3, None):
        assert talk_seen(state, seat) == [(0, "signal", "three")]


def spotted_state(chance: int, seed: int) -> GameState:
    rules = Rules.make(
        "briscola-4",
        {"communication": "signals", "signal_audience": "spotted", "spot_chance": chance},
    )
    return GameState(rules, shuffled_deal(rules, 3, random.Random(seed)))


def test_spotted_signals_follow_the_hands_seed_and_are_recorded() -> None:
    seen_by_opponents = 0
    for seed in range(30):
        state = spotted_state(50, seed)
        assert state.deal.seed is not None
        signal = next(a for a in state.legal_actions() if isinstance(a, Signal))
        state.apply(signal)
        recorded = state.moves[-1]
        assert isinstance(recorded, Signal) and recorded.spotted is not None
        for opp in (1, 3):
            assert (opp in recorded.spotted) == bool(talk_seen(state, opp))
        assert talk_seen(state, 2)  # the partner always sees it
        seen_by_opponents += len(recorded.spotted)
        # the record replays to the same draws
        again = replay(parse_record(json.loads(json.dumps(state.to_record()))))
        assert again.error is None
        assert again.state.moves[-1] == recorded
    assert 10 < seen_by_opponents < 50  # about half of 60 chances


def test_spotted_chance_extremes() -> None:
    never = spotted_state(0, 1)
    never.apply(next(a for a in never.legal_actions() if isinstance(a, Signal)))
    assert never.moves[-1].spotted == ()  # type: ignore[union-attr]
    always = spotted_state(100, 1)
    always.apply(next(a for a in always.legal_actions() if isinstance(a, Signal)))
    assert always.moves[-1].spotted == (1, 3)  # type: ignore[union-attr]


def test_nobody_learns_who_else_spotted_a_signal() -> None:
    """At a real table a seat knows whether it caught a sign, not who else did: the talk a
    seat is shown (events, view, narration) is the same whichever other opponents spotted
    the signal, and only the record keeps them all."""
    by_spotted: dict[tuple[int, ...], GameState] = {}
    events: dict[tuple[int, ...], Talk] = {}
    for seed in range(60):
        state = spotted_state(50, seed)
        signal = Signal(0, "no-trumps")
        if not state.is_legal(signal):
            continue
        (event,) = state.apply(signal)
        recorded = state.moves[-1]
        assert isinstance(recorded, Signal) and recorded.spotted is not None
        assert isinstance(event, Talk) and event.spotted == frozenset(recorded.spotted)
        by_spotted.setdefault(recorded.spotted, state)
        events.setdefault(recorded.spotted, event)
    assert set(by_spotted) == {(), (1,), (3,), (1, 3)}
    for seat in (0, 1, 2, 3, None):
        for caught in (True, False):
            shown = {
                (
                    (spectator_view(state) if seat is None else seat_view(state, seat)).talk,
                    visible(events[key], seat),
                )
                for key, state in by_spotted.items()
                if (seat in key) == caught
            }
            assert len(shown) <= 1, (seat, shown)
    # The signaller's side knows its own side saw it; a seat that spotted it knows that too.
    assert seat_view(by_spotted[(1, 3)], 0).talk[0].audience == {0, 2}
    assert seat_view(by_spotted[(1, 3)], 1).talk[0].audience == {0, 1, 2}
    assert seat_view(by_spotted[(1, 3)], 1).talk[0].spotted == {1}
    assert describe_talk(seat_view(by_spotted[(1, 3)], 0).talk[0]) == describe_talk(
        seat_view(by_spotted[()], 0).talk[0]
    )


def test_record_with_wrong_spotted_is_refused() -> None:
    state = spotted_state(50, 3)
    state.apply(next(a for a in state.legal_actions() if isinstance(a, Signal)))
    record = state.to_record()
    move = record["moves"][-1]
    move["spotted"] = [1, 3] if move["spotted"] != [1, 3] else []
    result = replay(parse_record(record))
    assert result.error is not None and "chances give" in result.error.reason
    del record["deal"]["seed"]
    with pytest.raises(MalformedError, match=r"deal\.seed"):
        parse_record(record)


def test_signals_refused_where_the_table_has_none() -> None:
    state = four({})
    assert not any(isinstance(a, Signal) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="not part of the rules at this table"):
        state.apply(Signal(0, "ace"))
    convo = four({"communication": "conversation"})
    with pytest.raises(IllegalActionError, match="does not play with signals"):
        convo.apply(Signal(0, "ace"))


def test_communication_needs_a_partnership_game() -> None:
    from briscola.engine import RulesError

    with pytest.raises(RulesError, match="needs a game in teams"):
        Rules.make("brisca", {"communication": "signals"})
    assert Rules.make("brisca", {"players": 4, "communication": "signals"}).teams


# ---------------------------------------------------------------------------- conversation


def after_first_trick(options: dict[str, object], hands: list[str]) -> GameState:
    """Seat 0 leads and wins the first trick with the ace of trumps, and leads again."""
    state = four(options, hands)
    play(state, *[h.split()[0] for h in hands])
    assert state.tricks[-1].winner == 0 and state.turn == 0
    return state


CONVO = {"communication": "conversation"}


def test_no_talking_in_the_first_trick() -> None:
    state = four(CONVO)
    assert not any(isinstance(a, Ask | Order) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="first trick"):
        state.apply(Ask(0, "lisci", 2))


def test_leader_asks_before_leading_and_only_then() -> None:
    hands = ["Ad 3c 5c", "2b Qs 4b", "6c 5b Jc", "7s 5s 6s"]
    state = after_first_trick(CONVO, hands)
    asks = [a for a in state.legal_actions() if isinstance(a, Ask)]
    assert {(a.question, a.to) for a in asks} == {
        ("lisci", 2),
        ("trumps", 2),
        ("take", 2),
        ("carichi", 2),
    }
    with pytest.raises(IllegalActionError, match="not a partner"):
        state.apply(Ask(0, "lisci", 1))
    events = state.apply(Ask(0, "lisci", 2))
    assert events == [Talk(0, "ask", "lisci", 2, "yes", None)]
    with pytest.raises(IllegalActionError, match="already asked"):
        state.apply(Ask(0, "lisci", 2))
    play(state, "3c")
    assert not any(isinstance(a, Ask | Order) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="about to lead"):
        state.apply(Ask(1, "lisci", 3))


def answer_of(question: str, partner: str) -> str:
    """Seat 2's answer when seat 0 asks after the first trick. ``partner`` is three cards:
    two held from the deal, one drawn after the first trick."""
    held1, held2, drawn = partner.split()
    hands = ["Ad 3c 5c", "2b Qs 4b", f"Jc {held1} {held2}", "7s 5s 6s"]
    state = four(CONVO, hands, stock=f"Ks Js {drawn} 3s")
    play(state, "Ad", "2b", "Jc", "7s")
    assert sorted(map(str, state.hands[2])) == sorted(partner.split())
    (talk,) = state.apply(Ask(0, question, 2))
    assert isinstance(talk, Talk) and talk.audience is None
    assert talk.answer is not None
    return talk.answer


@pytest.mark.parametrize(
    ("question", "partner", "expected"),
    [
        ("lisci", "5b 4c Kb", "yes"),
        ("lisci", "Kb 2d Qc", "no"),  # 2d is a trump, not a liscio
        ("trumps", "2d 6d Kb", "briscoline"),
        ("trumps", "Kd Jb Qc", "vestite"),
        ("trumps", "5d Qd Kb", "briscoline vestite"),
        ("trumps", "7d 3b Ab", "none"),  # the 7 of trumps is neither
        ("carichi", "3b 2c Kb", "yes"),
        ("carichi", "Kb 2c Qc", "no"),
        ("take", "Ac 7b Kb", "yes"),  # an unplayed ace is the top of its suit
        ("take", "3b Kb 7c", "no"),  # Ab and Ac (3c) are still out
    ],
)
def test_answers_are_read_from_the_hand(question: str, partner: str, expected: str) -> None:
    assert answer_of(question, partner) == expected


def test_take_counts_played_cards() -> None:
    # seat 1 plays Ab in the first trick: then 3b is the highest unplayed bastoni
    hands = ["Ad 3c 5c", "Ab Qs 4b", "Jc 3b Kb", "7s 5s 6s"]
    state = four(CONVO, hands, stock="Ks Js 2c 3s")
    play(state, "Ad", "Ab", "Jc", "7s")
    (talk,) = state.apply(Ask(0, "take", 2))
    assert isinstance(talk, Talk) and talk.answer == "yes"


def test_orders_are_public_and_bind_nobody() -> None:
    hands = ["Ad 3c 5c", "2b Qs 4b", "6c 5b Jc", "7s 5s 6s"]
    state = after_first_trick(CONVO, hands)
    state.apply(Order(0, "carico", 2))
    with pytest.raises(IllegalActionError, match="already gave an order"):
        state.apply(Order(0, "liscio", 2))
    for seat in (0, 1, 2, 3, None):
        assert talk_seen(state, seat) == [(0, "order", "carico")]
    play(state, "3c", "Qs")
    # seat 2 may still play any card
    plays = {a.card for a in state.legal_actions() if isinstance(a, Play)}
    assert plays == set(state.hands[2])


def test_six_players_address_either_partner() -> None:
    hands = ["Ad 3c 5c", "7b Qs 4c", "6c 5b Qc", "7s 5s Js", "Jc 4b Jb", "Kb 6s 3b"]
    state = new_state("briscola-6", hands, "4d", dealer=5, options=CONVO)
    play(state, *[h.split()[0] for h in hands])
    asks = {(a.question, a.to) for a in state.legal_actions() if isinstance(a, Ask)}
    assert {to for _, to in asks} == {2, 4}
    state.apply(Ask(0, "carichi", 4))


# ---------------------------------------------------------------------------- schembil


SCHEMBIL_HANDS = ["Ad 3c 5c", "7b Qs 4c", "6c 5b Qc", "7s 5s Js", "Jc 4b Jb", "Kb 6s 3b"]


def schembil(options: dict[str, object] | None = None) -> GameState:
    return new_state("schembil", SCHEMBIL_HANDS, "4d", dealer=5, options=options)


def test_schembil_only_the_rais_talks() -> None:
    state = schembil()
    play(state, *[h.split()[0] for h in SCHEMBIL_HANDS])
    assert state.turn == 0  # seat 0, the default rais of team 0-2-4, leads
    assert any(isinstance(a, Ask) for a in state.legal_actions())
    other = schembil({"rais": "2-1"})
    play(other, *[h.split()[0] for h in SCHEMBIL_HANDS])
    assert not any(isinstance(a, Ask | Order) for a in other.legal_actions())
    with pytest.raises(IllegalActionError, match="only the rais"):
        other.apply(Ask(0, "lisci", 2))


def first_play(state: GameState) -> Play:
    return next(a for a in state.legal_actions() if isinstance(a, Play))


def test_schembil_rais_looks_once_the_stock_is_exhausted() -> None:
    rules = Rules.make("schembil")
    deal = make_deal(rules, SCHEMBIL_HANDS, "4d", dealer=5)
    state = GameState(rules, deal)
    with pytest.raises(IllegalActionError, match="stock is exhausted"):
        state.apply(Look(0, 2))
    while state.pile:
        state.apply(first_play(state))
    while state.turn != 0:
        state.apply(first_play(state))
    looks = [a for a in state.legal_actions() if isinstance(a, Look)]
    assert {a.at for a in looks} == {2, 4}
    assert 2 not in seat_view(state, 0).visible_hands
    state.apply(Look(0, 2))
    assert seat_view(state, 0).visible_hands[2] == tuple(state.hands[2])
    assert 2 not in seat_view(state, 4).visible_hands
    assert 2 not in seat_view(state, 1).visible_hands
    with pytest.raises(IllegalActionError, match="already looked"):
        state.apply(Look(0, 4))
    # it keeps seeing the hand as it changes
    state.apply(first_play(state))
    while state.turn != 0 and not state.over:
        state.apply(first_play(state))
        assert seat_view(state, 0).visible_hands[2] == tuple(state.hands[2])


def test_schembil_in_variants_and_records() -> None:
    rules = Rules.make("schembil", {"rais": "4-5"})
    assert rules.sides == ((0, 2, 4), (1, 3, 5)) and len(rules.deck) == 36
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(2)))
    rng = random.Random(3)
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
    again = replay(parse_record(json.loads(json.dumps(state.to_record()))))
    assert again.error is None and again.state.points == state.points
    assert [seat_view(again.state, s) for s in range(6)] == [seat_view(state, s) for s in range(6)]


def test_card_helper_is_interned() -> None:
    assert card("Ad") is Card.parse("Ad")
