"""The Python API used wrongly: every misuse raises a BriscolaError that says what was wrong
and what to pass instead (README: "Every error is a BriscolaError"), and changes nothing."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest

from briscola.engine import (
    BriscolaError,
    Card,
    Deal,
    GameState,
    MalformedError,
    Match,
    Play,
    Rank,
    Rules,
    RulesError,
    Suit,
    action_from_json,
    find_game,
    parse_cards,
    seat_view,
    shuffled_deal,
    spectator_view,
    visible,
)
from briscola.engine.actions import Ask, Bid, Call, Exchange, Look, Order, Pass, Signal
from briscola.engine.chiamata import Chiamata
from briscola.engine.errors import shown
from briscola.engine.game_record import rules_from_json
from helpers import GARBAGE


def fresh(game: str = "briscola-2", options: dict[str, object] | None = None) -> GameState:
    rules = Rules.make(game, options)
    return GameState(rules, shuffled_deal(rules, dealer=1, rng=random.Random(3)))


# ---------------------------------------------------------------------------- views


@pytest.mark.parametrize("seat", [-1, 2, 7, True, False, 1.0, "0", None])
def test_seat_view_of_no_seat_says_which_seats_there_are(seat: Any) -> None:
    state = fresh()
    with pytest.raises(MalformedError, match=r"seat_view: there is no seat .*from 0 to 1.*spect"):
        seat_view(state, seat)


def test_views_of_something_that_is_not_a_hand() -> None:
    rules = Rules.make("briscola-2")
    match = Match(rules, random.Random(1))
    for view in (lambda x: seat_view(x, 0), spectator_view):
        with pytest.raises(MalformedError, match=r"expected a hand \(a GameState; .*match.hand"):
            view(match)  # type: ignore[operator]
    assert seat_view(match.hand, 0).seat == 0


# ---------------------------------------------------------------------------- actions


@pytest.mark.parametrize("thing", ["5b", None, 3, {"seat": 0, "play": "5b"}, (0, "5b")])
def test_a_non_action_is_refused_saying_what_an_action_is(thing: Any) -> None:
    state = fresh()
    for method in (state.apply, state.check, state.is_legal):
        with pytest.raises(MalformedError, match=r"expected an action such as Play\(0, Card"):
            method(thing)
    assert state.moves == [] and len(state.legal_actions()) == 3


def test_an_action_with_a_seat_of_the_wrong_type_is_refused() -> None:
    state = fresh()
    card = state.hands[0][0]
    assert state.turn == 0
    for seat in (False, 0.0, "0", None, -1):
        for method in (state.apply, state.check, state.is_legal):
            with pytest.raises(MalformedError, match=r"Play: the seat is a seat number"):
                method(Play(seat, card))  # type: ignore[arg-type]
    assert state.moves == [] and card in state.hands[0]
    state.apply(Play(0, card))  # the real seat plays
    later = state.hands[1][0]
    with pytest.raises(MalformedError, match="not True"):
        state.apply(Play(True, later))  # True == 1, seat 1's turn: still not a seat
    assert len(state.moves) == 1


@pytest.mark.parametrize(
    ("action", "says"),
    [
        (Play(0, "5b"), r"Play: the card is a Card, like Card.parse\('5b'\), not '5b'"),  # type: ignore[arg-type]
        (Exchange(0, None), r"Exchange: the card is a Card"),  # type: ignore[arg-type]
        (Call(0, "Ad"), r"Call: the card is a Card"),  # type: ignore[arg-type]
        (Signal(0, "wink"), r"Signal: 'wink' is not a signal: ace, three"),
        (Signal(0, "ace", [1]), r"Signal: spotted is a tuple of seats"),  # type: ignore[arg-type]
        (Signal(0, "ace", (1.5,)), r"Signal: a seat that spotted it is a seat number"),  # type: ignore[arg-type]
        (Ask(0, "money", 2), r"Ask: 'money' is not one of lisci, trumps, take, carichi"),
        (Ask(0, "lisci", "2"), r"Ask: the partner addressed is a seat number"),  # type: ignore[arg-type]
        (Order(0, "run", 2), r"Order: 'run' is not one of liscio"),
        (Look(0, None), r"Look: the partner looked at is a seat number"),  # type: ignore[arg-type]
        (Bid(0), r"Bid: give a rank, like Bid\(seat, rank=Rank.ACE\), or points, like"),
        (Bid(0, points=True), r"Bid: give a rank.*not rank=None, points=True"),  # type: ignore[arg-type]
        (Bid(0, points="70"), r"Bid: give a rank.*points='70'"),  # type: ignore[arg-type]
        (Bid(0, rank="A"), r"Bid: give a rank.*not rank='A'"),  # type: ignore[arg-type]
        (Bid(0, rank=Rank.ACE, points=70), r"Bid: give a rank.*points=70"),
        (Pass("0"), r"Pass: the seat is a seat number"),  # type: ignore[arg-type]
    ],
)
def test_an_action_with_bad_fields_is_refused_naming_the_field(action: Any, says: str) -> None:
    for state in (fresh(), fresh("chiamata"), fresh("briscola-4", {"communication": "signals"})):
        with pytest.raises(MalformedError, match=says):
            state.apply(action)
        with pytest.raises(MalformedError, match=says):
            state.is_legal(action)
        assert state.moves == []


def test_a_seat_number_the_table_lacks_is_an_illegal_action_as_before() -> None:
    state = fresh()
    assert not state.is_legal(Play(5, state.hands[0][0]))


# ---------------------------------------------------------------------------- events


def test_visible_with_a_bad_seat_or_no_event() -> None:
    state = fresh()
    events = state.apply(state.legal_actions()[0])
    for seat in ("0", True, -1, 1.0):
        with pytest.raises(MalformedError, match=r"visible: expected a seat number .* or None"):
            visible(events[0], seat)  # type: ignore[arg-type]
    for thing in ("CardPlayed", None, (0, 1), Play(0, Card.parse("5b"))):
        with pytest.raises(MalformedError, match=r"visible: expected an event"):
            visible(thing, 0)  # type: ignore[arg-type]
    assert visible(events[0], None) == events[0]


# ---------------------------------------------------------------------------- rules and deals


def test_rules_of_no_game_or_with_house_rules_that_are_no_dict() -> None:
    for game in (5, None, ["briscola-2"]):
        with pytest.raises(RulesError, match=r"expected a game key like 'briscola-2'"):
            Rules.make(game)  # type: ignore[arg-type]
        with pytest.raises(RulesError, match=r"expected a game key"):
            find_game(game)  # type: ignore[arg-type]
    for options in ("match=one-hand", [("match", "one-hand")], 3):
        with pytest.raises(RulesError, match=r"house rules: expected a dict .*'match': 'one-hand'"):
            Rules.make("briscola-2", options)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="has no house rule"):
        Rules.make("briscola-2").option([])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game", "given", "rule", "value"),
    [
        ("briscola-2", {"match": "one-hand", "colour": "red"}, "colour", "red"),
        ("briscola-2", {"match": "one-hand", "direction": "up", "cut": "x"}, "direction", "up"),
        ("briscola-2", {"follow_suit": True}, "follow_suit", True),
        ("briscola-2", {"match": " points:0 "}, "match", " points:0 "),
        ("briscola-6", {"trump_exchange": "two"}, "trump_exchange", "two"),  # no 2s to give
        ("brisca", {"communication": "signals"}, "communication", "signals"),  # needs teams
        ("briskula", {"players": 3, "teams": "pairs"}, "teams", "pairs"),
        ("briscola-2", {7: "x"}, "7", "x"),
    ],
)  # fmt: skip
def test_a_refused_house_rule_is_named_with_the_value_given(
    game: str, given: dict[Any, object], rule: str, value: object
) -> None:
    """The error itself says which house rule, and which value, the table may not have: a
    caller says so in its words without asking the engine again, rule by rule."""
    with pytest.raises(RulesError) as err:
        Rules.make(game, given)
    assert (err.value.rule, err.value.value) == (rule, value)
    assert err.value.written == (rule, str(value).lower() if value is True else str(value))


def test_a_refused_game_names_no_rule_and_the_game_given() -> None:
    with pytest.raises(RulesError) as err:
        Rules.make("poker", {"match": "one-hand"})
    assert (err.value.rule, err.value.value, err.value.written) == (None, "poker", ("", "poker"))
    with pytest.raises(RulesError) as err:
        Rules.make("briscola-2").option("colour")
    assert (err.value.rule, err.value.written) == ("colour", ("colour", ""))


def test_a_records_refused_rules_are_malformed_and_name_the_rule() -> None:
    """A record's (or a new table's JSON) rules: a malformed field, and the rule at fault."""
    cases = [
        ({"match": "forever"}, "rules: house rule match cannot be", ("match", "forever")),
        ({"colour\n": "red"}, "rules: there is no house rule", ("colour\n", "red")),
        ({"cut": [1]}, "rules.cut: expected one of the rule's values", ("cut", "a list of 1 item")),
    ]
    for given, says, written in cases:
        with pytest.raises(MalformedError, match=says) as err:
            rules_from_json("briscola-2", given, fresh=True)
        assert isinstance(err.value, RulesError) and err.value.written == written
    with pytest.raises(MalformedError, match="game: there is no game 'poker'") as err:
        rules_from_json("poker", {})
    assert isinstance(err.value, RulesError) and err.value.written == ("", "poker")


@pytest.mark.parametrize("dealer", [-1, 2, True, "0", 1.0, None])
def test_a_dealer_who_is_no_seat(dealer: Any) -> None:
    rules = Rules.make("briscola-2")
    with pytest.raises(MalformedError, match=r"the dealer is a seat from 0 to 1, not"):
        shuffled_deal(rules, dealer, random.Random(1))
    with pytest.raises(MalformedError, match=r"the dealer is a seat from 0 to 1, not"):
        Match(rules, random.Random(1), dealer=dealer)


def test_deals_and_matches_need_rules_and_a_generator() -> None:
    rules = Rules.make("briscola-2")
    with pytest.raises(MalformedError, match=r"expected the table's Rules, like Rules.make"):
        shuffled_deal("briscola-2", 0, random.Random(1))  # type: ignore[arg-type]
    with pytest.raises(MalformedError, match=r"expected the table's Rules"):
        Match("briscola-2", random.Random(1))  # type: ignore[arg-type]
    for rng in (1, None, "seed"):
        with pytest.raises(MalformedError, match=r"expected a random.Random"):
            shuffled_deal(rules, 0, rng)  # type: ignore[arg-type]
        with pytest.raises(MalformedError, match=r"expected a random.Random"):
            Match(rules, rng)  # type: ignore[arg-type]


def test_a_hand_with_a_deal_of_another_game() -> None:
    two = Rules.make("briscola-2")
    four = Rules.make("briscola-4")
    french = Rules.make("briskula")
    deal2 = shuffled_deal(two, 0, random.Random(1))
    with pytest.raises(MalformedError, match=r"not one of briscola-4: it has 2 hands, not 4"):
        GameState(four, deal2)
    with pytest.raises(MalformedError, match=r"not one of briscola-2: its cards are not"):
        GameState(two, shuffled_deal(french, 0, random.Random(1)))
    with pytest.raises(MalformedError, match=r"the dealer is 3, not a seat from 0 to 1"):
        GameState(two, shuffled_deal(four, 3, random.Random(1)))
    text = Deal(0, (("5b",),), None, ())  # type: ignore[arg-type]
    with pytest.raises(MalformedError, match=r"it holds '5b', which is not a Card"):
        GameState(Rules.make("briscola-2"), Deal(0, (*text.hands, ()), None, ()))
    with pytest.raises(MalformedError, match=r"GameState: expected the table's Rules"):
        GameState("briscola-2", deal2)  # type: ignore[arg-type]
    with pytest.raises(MalformedError, match=r"GameState: expected a Deal, like shuffled_deal"):
        GameState(two, deal2.to_json())  # type: ignore[arg-type]


def test_cards_from_anything() -> None:
    assert parse_cards("Ab 3c") == parse_cards(["Ab", "3c"])
    with pytest.raises(MalformedError, match=r'expected cards like \["Ab", "3c"\] or "Ab 3c"'):
        parse_cards(5)  # type: ignore[arg-type]
    for rank, suit in (([], Suit.COPPE), (Rank.ACE, {}), ("A", None)):
        with pytest.raises(MalformedError, match="there is no card"):
            Card(rank, suit)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- the whole API


def calls() -> list[tuple[str, Callable[..., object], list[Any]]]:
    """Each public entry point with valid arguments, to swap one at a time for garbage."""
    rules = Rules.make("briscola-2")
    state = fresh()
    event = state.apply(state.legal_actions()[0])[0]
    match = Match(rules, random.Random(1))
    deal = shuffled_deal(rules, 0, random.Random(1))
    brisca = Rules.make("brisca")
    return [
        ("Card.parse", Card.parse, ["5b"]),
        ("Card", Card, [Rank.ACE, Suit.COPPE]),
        ("parse_cards", parse_cards, [["5b"]]),
        ("action_from_json", action_from_json, [{"seat": 0, "play": "5b"}]),
        ("find_game", find_game, ["briscola-2"]),
        ("Rules.make", Rules.make, ["briscola-2", {}]),
        ("Rules.make options", lambda v: Rules.make("briscola-2", {"match": v}), ["one-hand"]),
        ("Rules.make players", lambda v: Rules.make("brisca", {"players": v}), [2]),
        ("Rules.option", rules.option, ["match"]),
        ("shuffled_deal", shuffled_deal, [rules, 0, random.Random(1)]),
        ("GameState", GameState, [rules, deal]),
        ("Deal", lambda *f: GameState(rules, Deal(*f)), [0, deal.hands, deal.trump, deal.stock]),
        ("Deal.check", deal.check, [rules]),
        ("addon", state.addon, [Chiamata]),
        ("exchange_card", brisca.exchange_card, [Card.parse("Ab")]),
        ("apply", fresh().apply, [Play(0, fresh().hands[0][0])]),
        ("check", state.check, [state.legal_actions()[0]]),
        ("is_legal", state.is_legal, [state.legal_actions()[0]]),
        ("Play", lambda s, c: state.is_legal(Play(s, c)), [1, state.hands[1][0]]),
        ("seat_view", seat_view, [state, 0]),
        ("spectator_view", spectator_view, [state]),
        ("visible", visible, [event, 0]),
        ("Match", Match, [rules, random.Random(1), 0]),
        ("Match.apply", match.apply, [match.hand.legal_actions()[0]]),
    ]


@pytest.mark.parametrize("where", range(len(calls())), ids=[c[0] for c in calls()])
def test_every_entry_point_refuses_garbage_with_a_briscola_error(where: int) -> None:
    name, call, args = calls()[where]
    call(*args)  # the valid call works
    for i in range(len(args)):
        for junk in GARBAGE:
            name, call, args = calls()[where]
            bad = [*args[:i], junk, *args[i + 1 :]]
            try:
                call(*bad)
            except BriscolaError as e:
                assert str(e) and "\n" not in str(e), (name, i, junk)
            except Exception as e:  # pragma: no cover - what the test is there to catch
                pytest.fail(f"{name} with argument {i} = {shown(junk)}: {type(e).__name__}: {e}")


def test_numbers_too_long_to_print_in_any_field() -> None:
    """An int of 5,000 digits cannot even be printed (ValueError): messages show it safely,
    in every check that names a seat or number of an action (play on until it is legal)."""
    huge = 10**5000
    cases: list[tuple[str, dict[str, object], type, str]] = [
        (
            "briscola-4",
            {"communication": "signals", "signal_audience": "spotted"},
            Signal,
            "spotted",
        ),
        ("briscola-4", {"communication": "conversation"}, Ask, "to"),
        ("briscola-4", {"communication": "conversation"}, Order, "to"),
        ("schembil", {}, Look, "at"),
        ("chiamata", {}, Bid, "points"),
    ]
    for game, options, kind, name in cases:
        state = fresh(game, options)
        rng = random.Random(1)
        while not any(isinstance(a, kind) for a in state.legal_actions()):
            state.apply(rng.choice([a for a in state.legal_actions() if not isinstance(a, Look)]))
        legal = next(a for a in state.legal_actions() if isinstance(a, kind))
        if isinstance(legal, Bid):
            legal = Bid(legal.seat, points=61)
        bad = dataclasses.replace(legal, **{name: (huge,) if name == "spotted" else huge})
        with pytest.raises(BriscolaError, match="a number of about 5001 digits"):
            state.apply(bad)
    with pytest.raises(BriscolaError, match="no seat a number of about 5001 digits"):
        seat_view(fresh(), huge)


@pytest.mark.parametrize("thing", [None, {"game": "briscola-2"}, "record.json", 5])
def test_replay_of_what_is_no_record_says_to_parse_it_first(thing: object) -> None:
    from briscola.engine import replay

    with pytest.raises(MalformedError, match=r"replay takes a Record, like replay\(parse_record"):
        replay(thing)  # type: ignore[arg-type]
