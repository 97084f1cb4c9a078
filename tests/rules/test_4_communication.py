"""rules.md §4, partnership communication: signals, the Roman conversation, and Schembil's
rais (§4.3)."""

from __future__ import annotations

import json
import random

import pytest

from briscola.engine import (
    Card,
    GameState,
    IllegalActionError,
    MalformedError,
    NotYourTurnError,
    Play,
    Rules,
    parse_record,
    replay,
    seat_view,
    shuffled_deal,
    spectator_view,
    visible,
)
from briscola.engine.actions import Ask, EndTalk, Look, Order, Signal
from briscola.engine.events import Talk
from briscola.engine.talk import TALK
from briscola.words.narrate import Narrator
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
    told = Narrator(by_spotted[()].rules).describe_talk
    assert told(seat_view(by_spotted[(1, 3)], 0).talk[0].to_json()) == told(
        seat_view(by_spotted[()], 0).talk[0].to_json()
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


def after_schembil_first_trick(options: dict[str, object] | None = None) -> GameState:
    """Seat 0 wins the first trick with the ace of trumps and is to lead the second."""
    state = schembil(options)
    play(state, *[h.split()[0] for h in SCHEMBIL_HANDS])
    assert state.tricks[-1].winner == 0
    return state


def test_schembil_no_talk_in_the_first_trick() -> None:
    state = schembil()
    assert state.phase == "play" and state.turn == 0
    assert not any(isinstance(a, Ask | Order | EndTalk) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="first trick"):
        state.apply(Ask(0, "lisci", 2))


def test_schembil_both_rais_talk_before_the_lead_whoever_leads() -> None:
    """rules.md §4.3: before the lead, the rais of the leading side and then the other
    rais each ask their partners each question once and give one order; seat 0 leads
    but is no rais (the rais are seats 2 and 1)."""
    state = after_schembil_first_trick({"rais": "2-1"})
    assert state.phase == TALK and state.turn == 2  # the leading side's rais first
    legal = state.legal_actions()
    assert legal[0] == EndTalk(2)
    assert {(a.question, a.to) for a in legal if isinstance(a, Ask)} == {
        (q, p) for q in ("lisci", "trumps", "take", "carichi") for p in (0, 4)
    }
    assert not any(isinstance(a, Play) for a in legal)
    with pytest.raises(NotYourTurnError):
        state.apply(Play(0, card("3c")))  # the leader waits for the talk
    with pytest.raises(NotYourTurnError):
        state.apply(Ask(1, "lisci", 3))  # the other rais waits for the first
    (talk,) = state.apply(Ask(2, "lisci", 0))
    assert talk == Talk(2, "ask", "lisci", 0, "yes", None)
    with pytest.raises(IllegalActionError, match="already asked"):
        state.apply(Ask(2, "lisci", 0))
    state.apply(Ask(2, "lisci", 4))  # the same question, to the other partner
    state.apply(Order(2, "carico", 0))
    with pytest.raises(IllegalActionError, match="already gave an order"):
        state.apply(Order(2, "liscio", 4))
    assert state.apply(EndTalk(2)) == [Talk(2, "done", "talk", None, None, None)]
    assert state.phase == TALK and state.turn == 1  # then the other rais
    state.apply(Order(1, "take", 5))
    state.apply(EndTalk(1))
    assert state.phase == "play" and state.turn == 0
    assert not any(isinstance(a, Ask | Order | EndTalk) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="no talk to end"):
        state.apply(EndTalk(0))
    with pytest.raises(IllegalActionError, match="only the rais"):
        state.apply(Ask(0, "lisci", 2))  # the others only answer their rais
    play(state, "3c")
    with pytest.raises(IllegalActionError, match="not once the trick is led"):
        state.apply(Ask(1, "lisci", 3))
    for seat in (*range(6), None):
        assert talk_seen(state, seat) == [
            (2, "ask", "lisci"),
            (2, "ask", "lisci"),
            (2, "order", "carico"),
            (2, "done", "talk"),
            (1, "order", "take"),
            (1, "done", "talk"),
        ]


def test_schembil_the_leading_rais_talks_first_then_the_other() -> None:
    state = after_schembil_first_trick()  # the rais are seats 0 and 1; seat 0 leads
    assert state.phase == TALK and state.turn == 0
    state.apply(EndTalk(0))
    assert state.turn == 1 and any(isinstance(a, Ask) for a in state.legal_actions())
    state.apply(EndTalk(1))
    assert state.phase == "play" and state.turn == 0
    leading_sides = set()
    while not state.over:
        if state.phase == TALK:
            side = state.rules.side_of[state.tricks[-1].winner]
            leading_sides.add(side)
            assert state.turn == (0, 1)[side]  # the rais of the side about to lead first
            state.apply(EndTalk(state.turn))
            assert state.phase == TALK and state.turn == (0, 1)[1 - side]
        state.apply(first_play(state))
    assert leading_sides == {0, 1}


def test_schembil_talk_opens_before_every_lead_and_replays() -> None:
    rules = Rules.make("schembil", {"rais": "4-3"})
    state = GameState(rules, shuffled_deal(rules, 0, random.Random(7)))
    rng = random.Random(8)
    windows = 0
    while not state.over:
        if state.phase == TALK:
            windows += state.turn in (4, 3) and not state.trick
        state.apply(rng.choice(state.legal_actions()))
    assert windows >= 2 * (len(state.tricks) - 1)  # each rais, before each lead but the first
    record = json.loads(json.dumps(state.to_record()))
    assert {"seat": 4, "talk": "done"} in record["moves"]
    again = replay(parse_record(record))
    assert again.error is None
    assert [seat_view(again.state, s) for s in range(6)] == [seat_view(state, s) for s in range(6)]


def test_schembil_records_without_the_end_of_talk_replay_the_same() -> None:
    """Records written before the rais talked out of their lead have no ``talk: done``
    moves: a move that is not legal in the talk ends the talk of each rais before it."""
    old = after_schembil_first_trick()
    old_moves = [m.to_json() for m in old.moves]
    old_moves += [
        {"seat": 0, "ask": "carichi", "to": 2},
        {"seat": 0, "order": "liscio", "to": 4},
        {"seat": 0, "play": "3c"},
    ]
    record = {**old.to_record(), "moves": old_moves}
    again = replay(parse_record(record))
    assert again.error is None and again.state.trick == [card("3c")]
    assert [(t.seat, t.kind, t.what) for t in seat_view(again.state, 1).talk] == [
        (0, "ask", "carichi"),
        (0, "order", "liscio"),
        (0, "done", "talk"),
        (1, "done", "talk"),
    ]
    assert again.state.to_record()["moves"][-3:] == [
        {"seat": 0, "talk": "done"},
        {"seat": 1, "talk": "done"},
        {"seat": 0, "play": "3c"},
    ]
    # Any new record, its ends of talk left out, replays to the same views.
    rules = Rules.make("schembil")
    for seed in range(20):
        state = GameState(rules, shuffled_deal(rules, seed % 6, random.Random(seed)))
        rng = random.Random(seed + 100)
        while not state.over:
            state.apply(rng.choice(state.legal_actions()))
        moves = [m for m in state.to_record()["moves"] if "talk" not in m]
        stripped = replay(parse_record({**state.to_record(), "moves": moves}))
        assert stripped.error is None
        views = [seat_view(stripped.state, s) for s in range(6)]
        assert views == [seat_view(state, s) for s in range(6)]
    # A move that is illegal after the talk too is reported as it was.
    bad = replay(
        parse_record({**old.to_record(), "moves": [*old_moves[:-1], {"seat": 0, "play": "Kb"}]})
    )
    assert bad.error is not None and bad.error.index == len(old_moves) - 1
    assert "does not hold" in bad.error.reason


def first_play(state: GameState) -> Play | EndTalk:
    """The first card of the seat to act, or the end of the rais's talk before a lead."""
    if state.phase == TALK:
        return EndTalk(state.turn)
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


def test_the_intermediate_rais_talks_before_leads_it_does_not_make() -> None:
    """The computer rais uses its talk whoever leads: it asks a partner about its trumps
    before leads of others too, and reads the answer."""
    from briscola.ai import make_bot
    from briscola.ai.rules.talking import partner_talk

    rules = Rules.make("schembil")
    asked_by_non_leader = 0
    for seed in range(10):
        state = GameState(rules, shuffled_deal(rules, seed % 6, random.Random(seed)))
        bots = [make_bot("intermediate", seed * 10 + s) for s in range(6)]
        while not state.over:
            action = bots[state.turn].choose(seat_view(state, state.turn))
            if isinstance(action, Ask) and state.order[0] != action.seat:
                asked_by_non_leader += 1
                (talk,) = state.apply(action)
                assert isinstance(talk, Talk) and talk.what == "trumps"
                friends = list(rules.sides[rules.side_of[action.seat]])
                heard = partner_talk(seat_view(state, action.seat), friends, 0)
                assert heard.has_trumps == (talk.answer != "none")
                assert heard.no_trumps == (talk.answer == "none")
                continue
            state.apply(action)
    assert asked_by_non_leader > 0
