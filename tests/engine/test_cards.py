"""Cards: notation, interning, decks, and the 120 points of every game's deck."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from briscola.engine import GAMES, Card, MalformedError, Rank, Rules, Suit, shuffled_deal
from briscola.engine.cards import FRENCH_32, ITALIAN_40, cards_text, parse_cards


def test_parse_and_print_round_trip_for_every_card() -> None:
    seen = set()
    for suit in Suit:
        for rank in Rank:
            c = Card(rank, suit)
            text = rank.value + suit.value
            assert str(c) == text
            assert Card.parse(text) is c
            assert repr(c) == f"Card.parse('{text}')"
            assert eval(repr(c)) is c
            seen.add(c.index)
    assert seen == set(range(52))


def test_parse_fields() -> None:
    c = Card.parse("Qd")
    assert c.rank is Rank.QUEEN and c.suit is Suit.DENARI
    assert c.suit.italian == "denari" and c.suit.spanish == "oros" and c.suit.french == "diamonds"
    assert Card.parse("5b").suit.italian == "bastoni"
    assert Card.parse("Ab").rank.italian == "asso"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("ab", "Ab"), ("AB", "Ab"), ("aB", "Ab"), ("qd", "Qd"), (" 7s ", "7s"), ("tc", "Tc")],
)
def test_parse_is_case_insensitive(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["10c", "10C", "Tc", "tc"])
def test_ten_is_written_t(text: str) -> None:
    c = Card.parse(text)
    assert c.rank is Rank.TEN and c.suit is Suit.COPPE
    assert str(c) == "Tc"


@pytest.mark.parametrize("bad", ["Xb", "Ax", "", "A", "Abc", "1c", "11c", "b5", "0c", "A b"])
def test_bad_text_is_malformed_with_help(bad: str) -> None:
    with pytest.raises(MalformedError) as err:
        Card.parse(bad)
    msg = str(err.value)
    assert repr(bad) in msg
    assert "rank then suit" in msg
    assert "5b" in msg and "c d s b" in msg


@pytest.mark.parametrize("bad", [None, 5, b"Ab", ["Ab"]])
def test_non_string_is_malformed(bad: object) -> None:
    with pytest.raises(MalformedError, match="is not a card"):
        Card.parse(bad)  # type: ignore[arg-type]


def test_malformed_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Card.parse("Zz")


def test_constructor_and_parse_intern_the_same_object() -> None:
    assert Card.parse("Ab") is Card.parse("Ab")
    assert Card.parse("ab") is Card.parse("Ab")
    assert Card(Rank.ACE, Suit.BASTONI) is Card.parse("Ab")
    assert Card.parse("10s") is Card.parse("Ts")


def test_copy_deepcopy_pickle_give_the_same_object() -> None:
    c = Card.parse("Ab")
    assert copy.copy(c) is c
    assert copy.deepcopy(c) is c
    assert copy.deepcopy([c, {c: c}])[0] is c
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(c, protocol)) is c
    assert pickle.loads(pickle.dumps(ITALIAN_40))[7] is ITALIAN_40[7]


def test_cards_are_immutable_and_hashable() -> None:
    c = Card.parse("3c")
    with pytest.raises(AttributeError):
        c.rank = Rank.ACE  # type: ignore[misc]
    assert {c: 1}[Card.parse("3C")] == 1
    assert c == Card.parse("3c") and c != Card.parse("3d")


def test_parse_cards_and_cards_text() -> None:
    cs = parse_cards(["Ab", "3c", "10d"])
    assert cs == [Card.parse("Ab"), Card.parse("3c"), Card.parse("Td")]
    assert cards_text(cs) == "Ab 3c Td"
    with pytest.raises(MalformedError):
        parse_cards(["Ab", "zz"])


def test_italian_deck() -> None:
    assert len(ITALIAN_40) == 40 == len(set(ITALIAN_40))
    ranks = {c.rank for c in ITALIAN_40}
    assert ranks == set(Rank) - {Rank.EIGHT, Rank.NINE, Rank.TEN}
    for suit in Suit:
        assert sum(c.suit is suit for c in ITALIAN_40) == 10


def test_french_32_deck() -> None:
    assert len(FRENCH_32) == 32 == len(set(FRENCH_32))
    ranks = {c.rank for c in FRENCH_32}
    assert ranks == {Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK} | {
        Rank.NINE,
        Rank.EIGHT,
        Rank.SEVEN,
    }
    for suit in Suit:
        assert sum(c.suit is suit for c in FRENCH_32) == 8


def _table_configs() -> list[tuple[str, dict[str, object]]]:
    out: list[tuple[str, dict[str, object]]] = []
    for key, game in GAMES.items():
        if "players" in game.rules:
            out.extend((key, {"players": p}) for p in game.players)
        else:
            out.append((key, {}))
    out.append(("briscola-3", {"removed_two": "random"}))
    out.append(("briscola-2", {"court_order": "south"}))
    out.append(("briskula", {"court_order": "south"}))
    return out


@pytest.mark.parametrize(("key", "options"), _table_configs())
def test_points_of_the_dealt_cards_sum_to_120(key: str, options: dict[str, object]) -> None:
    rules = Rules.make(key, options)
    expected_size = {
        "briscola-3": 39,
        "briscola-6": 36,
        "schembil": 36,
        "briskula": 32,
        "briskula-double": 32,
    }
    rng = random.Random(key)
    for _ in range(10):
        deal = shuffled_deal(rules, rng.randrange(rules.players), rng)
        dealt = deal.cards()
        assert len(dealt) == len(set(dealt)) == expected_size.get(key, 40)
        assert sum(rules.points[c] for c in dealt) == 120
        deal.check(rules)


def test_briscola_6_removes_the_four_twos() -> None:
    rules = Rules.make("briscola-6")
    assert len(rules.deck) == 36
    assert not any(c.rank is Rank.TWO for c in rules.deck)


def test_briscola_3_removes_one_two() -> None:
    rules = Rules.make("briscola-3")
    deal = shuffled_deal(rules, 0, random.Random(1))
    dealt = set(deal.cards())
    assert len(dealt) == 39
    assert set(ITALIAN_40) - dealt == {Card.parse("2c")}


def test_point_values() -> None:
    rules = Rules.make("briscola-2")
    pts = {str(c): rules.points[c] for c in ITALIAN_40 if c.suit is Suit.COPPE}
    assert pts == {
        "Ac": 11, "3c": 10, "Kc": 4, "Qc": 3, "Jc": 2,
        "7c": 0, "6c": 0, "5c": 0, "4c": 0, "2c": 0,
    }  # fmt: skip
    fr = Rules.make("briskula")
    pts = {str(c): fr.points[c] for c in FRENCH_32 if c.suit is Suit.SPADE}
    assert pts == {
        "As": 11, "Ts": 10, "Ks": 4, "Qs": 3, "Js": 2, "9s": 0, "8s": 0, "7s": 0,
    }  # fmt: skip
