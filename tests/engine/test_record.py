"""Game records: errors that name the field, illegal moves in a replay, unfinished games."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from briscola.engine import (
    MalformedError,
    Play,
    Rules,
    action_from_json,
    parse_record,
    replay,
    seat_view,
)
from briscola.engine.cards import ITALIAN_40
from helpers import card, random_game

HANDS = [["5b", "5c", "Ad"], ["Ab", "Kb", "6s"]]
TRUMP = "4s"


def base_record() -> dict[str, Any]:
    """The worked example's deal (rules.md §1), with the first trick played."""
    used = {c for h in HANDS for c in h} | {TRUMP}
    return {
        "game": "briscola-2",
        "rules": {},
        "deal": {
            "dealer": 1,
            "hands": copy.deepcopy(HANDS),
            "trump": TRUMP,
            "stock": [str(c) for c in ITALIAN_40 if str(c) not in used],
        },
        "moves": [{"seat": 0, "play": "5b"}, {"seat": 1, "play": "Ab"}],
    }


def malformed(rec: object) -> str:
    with pytest.raises(MalformedError) as err:
        parse_record(rec)
    return str(err.value)


def test_base_record_parses_and_replays() -> None:
    rec = base_record()
    parsed = parse_record(rec)
    assert parsed.to_json() == rec
    result = replay(parsed)
    assert result.error is None
    assert result.to_json() == {
        "tricks": [{"leader": 0, "cards": ["5b", "Ab"], "winner": 1, "points": 11}],
        "finished": False,
        "points": [0, 11],
        "winners": [],
    }


def test_bad_card_names_its_place() -> None:
    rec = base_record()
    rec["deal"]["hands"][1][2] = "Zz"
    msg = malformed(rec)
    assert msg.startswith("deal.hands[1][2]: ")
    assert "'Zz' is not a card" in msg


def test_bad_card_in_stock_and_trump() -> None:
    rec = base_record()
    rec["deal"]["stock"][4] = "11c"
    assert malformed(rec).startswith("deal.stock[4]: '11c' is not a card")
    rec = base_record()
    rec["deal"]["trump"] = 4
    assert malformed(rec).startswith("deal.trump: 4 is not a card")


def test_wrong_hand_size() -> None:
    rec = base_record()
    moved = rec["deal"]["hands"][0].pop()
    rec["deal"]["stock"].append(moved)
    msg = malformed(rec)
    assert msg == "deal.hands[0]: each hand starts with 3 cards, got 2"


def test_wrong_number_of_hands() -> None:
    rec = base_record()
    rec["deal"]["hands"].append([])
    assert malformed(rec) == "deal.hands: briscola-2 has 2 seats, got 3 hands"


def test_duplicate_card() -> None:
    rec = base_record()
    rec["deal"]["stock"][0] = "Ab"
    msg = malformed(rec)
    assert "appear more than once: Ab" in msg and msg.startswith("deal")


def test_missing_card() -> None:
    rec = base_record()
    gone = rec["deal"]["stock"].pop()
    msg = malformed(rec)
    assert msg.startswith("deal: ") and f"missing: {gone}" in msg


def test_foreign_card() -> None:
    rec = base_record()
    rec["deal"]["stock"][-1] = "8c"
    msg = malformed(rec)
    assert "cards not in the briscola-2 deck: 8c" in msg


def test_bad_dealer() -> None:
    rec = base_record()
    rec["deal"]["dealer"] = 2
    assert malformed(rec) == "deal.dealer: expected a seat from 0 to 1, got 2"
    rec["deal"]["dealer"] = "1"
    assert malformed(rec).startswith("deal.dealer: expected a seat number")
    del rec["deal"]["dealer"]
    assert malformed(rec) == "deal.dealer: missing"


def test_unknown_game() -> None:
    rec = base_record()
    rec["game"] = "scopa"
    msg = malformed(rec)
    assert msg.startswith("game: ") and "'scopa'" in msg and "briscola-2" in msg
    rec["game"] = None
    assert malformed(rec).startswith("game: expected a game key")


def test_unknown_rule_and_bad_rule_value() -> None:
    rec = base_record()
    rec["rules"] = {"jokers": "yes"}
    msg = malformed(rec)
    assert msg.startswith("rules: ") and "'jokers'" in msg
    rec["rules"] = {"follow_suit": "always"}
    msg = malformed(rec)
    assert msg.startswith("rules: ") and "follow_suit" in msg and "'always'" in msg
    rec["rules"] = ["follow_suit"]
    assert malformed(rec).startswith("rules: expected an object")


@pytest.mark.parametrize(
    ("move", "where"),
    [
        ({"seat": 0}, "moves[1]: expected exactly one of the keys"),
        ({"seat": 0, "play": "5b", "exchange": "2s"}, "moves[1]: expected exactly one"),
        ({"seat": 0, "play": "5b", "say": "hi"}, "moves[1]: unknown key 'say' in a play move"),
        ({"seat": -1, "play": "5b"}, "moves[1].seat: expected a seat number"),
        ({"seat": True, "play": "5b"}, "moves[1].seat: expected a seat number"),
        ({"play": "5b"}, "moves[1].seat: expected a seat number"),
        ({"seat": 1, "play": "Q"}, "moves[1].play: 'Q' is not a card"),
        ({"seat": 1, "exchange": 7}, "moves[1].exchange: 7 is not a card"),
        ({"seat": 1, "decline": "exchange"}, "moves[1]: expected exactly one of the keys"),
        ({"seat": 1, "decline": "trick"}, "moves[1]: expected exactly one of the keys"),
        (
            {"seat": 1, "play": "5b", "decline": "exchange"},
            "moves[1]: unknown key 'decline' in a play move",
        ),
        (["seat", 1], "moves[1]: expected an object"),
    ],
)
def test_bad_move_object(move: object, where: str) -> None:
    rec = base_record()
    rec["moves"][1] = move
    msg = malformed(rec)
    assert msg.startswith(where)


def test_moves_must_be_a_list_and_fields_known() -> None:
    rec = base_record()
    rec["moves"] = {"0": {"seat": 0, "play": "5b"}}
    assert malformed(rec) == "moves: expected a list of moves, got an object"
    rec = base_record()
    rec["comment"] = "nice game"
    assert malformed(rec) == "record: unknown field 'comment'"
    assert malformed([]).startswith("record: expected a JSON object")
    rec = base_record()
    del rec["deal"]
    assert malformed(rec) == "deal: missing"


def test_action_json_round_trip() -> None:
    for obj in (
        {"seat": 0, "play": "5b"},
        {"seat": 3, "exchange": "7d"},
    ):
        assert action_from_json(obj).to_json() == obj


def test_illegal_move_replays_up_to_it() -> None:
    rec = base_record()
    # Trick 1 went to seat 1, who leads next; seat 0 playing now is out of turn.
    rec["moves"] += [{"seat": 0, "play": "5c"}, {"seat": 1, "play": "Kb"}]
    result = replay(parse_record(rec))
    err = result.error
    assert err is not None
    assert err.index == 2 and err.action == Play(0, card("5c"))
    assert err.reason == "it is seat 1's turn, not seat 0's"
    assert err.message() == "moves[2]: seat 0 cannot play 5c: it is seat 1's turn, not seat 0's"
    assert len(result.state.moves) == 2 and len(result.state.tricks) == 1
    out = result.to_json()
    assert out["error"] == {
        "move": 2,
        "seat": 0,
        "action": {"seat": 0, "play": "5c"},
        "reason": "it is seat 1's turn, not seat 0's",
    }
    assert out["finished"] is False


def test_illegal_move_a_card_not_held() -> None:
    rec = base_record()
    rec["moves"].append({"seat": 1, "play": "5c"})
    result = replay(parse_record(rec))
    assert result.error is not None and result.error.index == 2
    assert result.error.action.seat == 1
    assert result.error.reason == "seat 1 does not hold 5c"


def test_illegal_exchange_in_a_record() -> None:
    rec = base_record()
    rec["moves"].append({"seat": 1, "exchange": "2s"})
    result = replay(parse_record(rec))
    assert result.error is not None and result.error.index == 2
    assert "not part of the rules at this table" in result.error.reason


def test_move_after_the_end_is_illegal() -> None:
    state = random_game(Rules.make("briscola-2"), 7)
    rec = state.to_record()
    rec["moves"].append({"seat": 0, "play": rec["deal"]["hands"][0][0]})
    result = replay(parse_record(rec))
    assert result.error is not None and result.error.index == 40
    assert "the hand is over" in result.error.reason
    assert result.to_json()["finished"] is True


def test_a_record_may_stop_mid_game() -> None:
    state = random_game(Rules.make("briscola-2"), 11)
    rec = state.to_record()
    for cut in (0, 1, 2, 17, 39):
        part = dict(rec, moves=rec["moves"][:cut])
        result = replay(parse_record(part))
        out = result.to_json()
        assert result.error is None and out["finished"] is False
        assert out["winners"] == [] and len(out["tricks"]) == cut // 2
        assert sum(out["points"]) == sum(t["points"] for t in out["tricks"])
    full = replay(parse_record(rec)).to_json()
    assert full["finished"] is True and sum(full["points"]) == 120 and len(full["tricks"]) == 20


def test_no_moves_key_means_no_moves() -> None:
    rec = base_record()
    del rec["moves"]
    parsed = parse_record(rec)
    assert parsed.moves == ()
    assert replay(parsed).state.turn == 0


def test_records_store_only_rules_that_differ() -> None:
    rules = Rules.make("brisca", {"players": 4, "exchange_timing": "after-win"})
    state = random_game(rules, 3)
    rec = state.to_record()
    assert rec["rules"] == {"players": 4}
    again = parse_record(json.loads(json.dumps(rec)))
    assert again.rules.players == 4 and again.to_json() == rec


def test_replay_events_start_with_the_deal() -> None:
    result = replay(parse_record(base_record()))
    names = [type(e).__name__ for e in result.events]
    assert names[:3] == ["Dealt", "Dealt", "TrumpTurned"]
    assert names[3:] == ["CardPlayed", "CardPlayed", "TrickWon", "CardDrawn", "CardDrawn"]


def test_random_records_survive_json() -> None:
    rng = random.Random(5)
    for key in ("briscola-3", "briskula-double", "brisca"):
        state = random_game(Rules.make(key), rng.randrange(1000))
        text = json.dumps(state.to_record())
        assert replay(parse_record(json.loads(text))).state.points == state.points


# ----------------------------------------------------------------- any value in any field

ODD_VALUES = [
    10**5000,  # more digits than int() turns into text
    10**40,
    2**64,
    -1,
    1.0,
    2.5,
    float("nan"),
    float("inf"),
    True,
    False,
    None,
    [],
    [1, [2]],
    {},
    {"a": 1},
    "x" * 5000,
    "\u00b2",  # a digit for isdigit(), not for int()
    "\ud800",
    "5b",
]

FIELDS = {
    ("game",): "game",
    ("rules",): "rules",
    ("rules", "follow_suit"): "rules",
    ("rules", "players"): "rules",
    ("deal",): "deal",
    ("deal", "dealer"): "deal.dealer",
    ("deal", "hands"): "deal.hands",
    ("deal", "hands", 0): "deal.hands[0]",
    ("deal", "hands", 1, 2): "deal",  # a card right in itself may be in two places
    ("deal", "trump"): "deal",
    ("deal", "stock"): "deal",
    ("deal", "stock", 0): "deal",
    ("deal", "seed"): "deal.seed",
    ("moves",): "moves",
    ("moves", 0): "moves[0]",
    ("moves", 0, "seat"): "moves[0].seat",
    ("moves", 1, "play"): "moves[1].play",
    ("moves", 1, "look"): "moves[1]",
    ("moves", 1, "bid"): "moves[1]",
}


def put(rec: dict[str, Any], path: tuple[str | int, ...], value: object) -> None:
    target: Any = rec
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


@pytest.mark.parametrize("path", list(FIELDS), ids=lambda p: ".".join(map(str, p)))
def test_any_value_in_any_field_is_read_or_refused_saying_where_and_what(
    path: tuple[str | int, ...],
) -> None:
    """Huge numbers, floats, NaN, booleans, lists, objects, long or odd texts: each is
    read, or refused with a MalformedError on one short line that names the field."""
    for value in ODD_VALUES:
        rec = base_record()
        put(rec, path, value)
        try:
            parse_record(rec)
        except MalformedError as e:
            msg = str(e)
            assert msg.startswith(FIELDS[path]), (value, msg)
            assert "\n" not in msg and len(msg) < 300, msg
            assert msg.encode("utf-8"), msg  # no lone surrogate: it can be printed


def test_numbers_too_long_for_text_are_named_not_printed() -> None:
    rec = base_record()
    rec["deal"]["dealer"] = 10**5000
    assert malformed(rec) == (
        "deal.dealer: expected a seat from 0 to 1, got a number of about 5001 digits"
    )
    rec = base_record()
    rec["moves"][0]["seat"] = 10**40
    assert malformed(rec) == "moves[0].seat: briscola-2 has seats 0 to 1, got a number of 41 digits"


def test_a_move_naming_a_seat_not_at_the_table_is_malformed() -> None:
    for move, field in [
        ({"seat": 2, "play": "5b"}, "seat"),
        ({"seat": 0, "look": 7}, "look"),
        ({"seat": 0, "ask": "trumps", "to": 5}, "to"),
        ({"seat": 0, "signal": "ace", "spotted": [1, 9]}, "spotted"),
    ]:
        rec = base_record()
        rec["moves"][1] = move
        assert malformed(rec).startswith(f"moves[1].{field}: briscola-2 has seats 0 to 1, got ")


def test_rule_values_of_the_wrong_type_are_refused_by_name() -> None:
    for value in (4.0, None, [4], {"n": 4}, "y" * 100, 10**30):
        rec = base_record()
        rec["game"], rec["rules"] = "brisca", {"players": value}
        assert malformed(rec).startswith("rules.players: expected one of the rule's values")
    rec = base_record()
    rec["rules"] = {"r" * 1000: "yes"}
    assert malformed(rec).startswith("rules: there is no house rule 'rrrr")
    rec["rules"] = {"\n": [[]]}
    assert malformed(rec) == "rules: there is no house rule '\\n'"
    for digits in ("\u00b2", "\u0663", "5\u00b2"):  # digits for isdigit(), not all for int()
        rec["rules"] = {"spot_chance": digits}
        msg = malformed(rec)
        assert msg.startswith("rules.spot_chance: expected one of the rule's values"), msg


def test_a_long_game_key_or_card_text_is_cut_in_the_message() -> None:
    rec = base_record()
    rec["game"] = "g" * 100_000
    assert len(malformed(rec)) < 300
    rec = base_record()
    rec["deal"]["hands"][0][0] = "5" * 100_000
    msg = malformed(rec)
    assert msg.startswith("deal.hands[0][0]: '55555") and "(100000 characters)" in msg


def test_a_seed_beyond_what_writers_draw_is_refused() -> None:
    rec = base_record()
    rec["deal"]["seed"] = 2**64
    assert malformed(rec).startswith("deal.seed: expected a whole number from 0 to 2^64 - 1")


def test_an_object_that_is_no_record_says_so() -> None:
    summary = {"game": "briscola-2", "rules": {}, "games": 5, "wins": [2, 3]}
    assert malformed(summary).startswith("record: not a game record")
    assert "games, rules, wins" in malformed(summary)


def test_keys_are_quoted_when_they_are_not_plain_words() -> None:
    odd = {"game": "briscola-2", "a\nb": 1, "\ud800": 2, "k" * 100: 3}
    msg = malformed(odd)
    assert msg.startswith("record: not a game record") and "\n" not in msg
    assert "'a\\nb'" in msg and "'\\ud800'" in msg and "(100 characters)" in msg
    assert "game" in msg.split("holds")[-1]


OLD_SCHEMBIL = Path(__file__).parents[1] / "data" / "schembil_records_before_rais_talk.jsonl"
"""Schembil hands written by the engine before the rais talked out of their own lead (no
``talk: done`` moves), with the tricks, points and talk that engine gave for them."""


def test_schembil_records_from_before_the_rais_talk_replay_the_same() -> None:
    """docs/records.md: extended, never broken. Each record holds questions, orders and a
    look, by rais about to lead; it replays to the same tricks, points, talk and answers."""
    lines = OLD_SCHEMBIL.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    for line in lines:
        old = json.loads(line)
        assert not any("talk" in m for m in old["record"]["moves"])
        result = replay(parse_record(old["record"]))
        assert result.error is None and result.state.over
        state = result.state
        assert state.points == old["points"]
        tricks = [[t.leader, [str(c) for c in t.cards], t.winner] for t in state.tricks]
        assert tricks == old["tricks"]
        talk = [
            [t.seat, t.kind, t.what, t.to, t.answer]
            for t in seat_view(state, 0).talk
            if t.kind != "done"
        ]
        assert talk == old["talk"]
        assert {t[1] for t in talk} == {"ask", "order", "look"}
