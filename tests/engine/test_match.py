"""Matches that persist and rebuild: deals from a deal source, the match record written
and read again, and the match's result as a typed value."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from briscola.engine import (
    Deal,
    MalformedError,
    Match,
    MatchResult,
    Rules,
    parse_match_record,
    parse_record,
    replay,
    seat_view,
    shuffled_deal,
    spectator_view,
)
from briscola.engine.actions import Pass
from briscola.engine.game_record import Record
from briscola.engine.match import HandScored, MatchRecord, Shuffled
from helpers import CONFIGS

MOST_HANDS = 4


def twin_rng(rng: random.Random) -> random.Random:
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin


def step(match: Match, rng: random.Random) -> bool:
    """One random action; ``False`` when there is none to take (the match is over, or has
    played enough hands for a test)."""
    if match.over or match.number > MOST_HANDS:
        return False
    legal = match.hand.legal_actions()
    if not legal:
        return False
    match.apply(rng.choice(legal))
    return True


def same(a: Match, b: Match) -> None:
    """Two matches in the same state: events, result, record, hand and every seat's view."""
    assert a.events == b.events
    assert a.result() == b.result()
    assert a.to_record() == b.to_record()
    assert (a.number, a.dealer, a.over, a.winners, a.seating) == (
        b.number,
        b.dealer,
        b.over,
        b.winners,
        b.seating,
    )
    assert a.hand.to_record() == b.hand.to_record()
    assert a.hand.legal_actions() == b.hand.legal_actions()
    for s in range(a.rules.players):
        assert seat_view(a.hand, s) == seat_view(b.hand, s)
    assert spectator_view(a.hand) == spectator_view(b.hand)


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32 - 1), stop=st.integers(0, 200))
def test_a_match_rebuilt_from_its_record_is_the_same_and_plays_on_the_same(
    config: tuple[str, dict[str, object]], seed: int, stop: int
) -> None:
    key, options = config
    rules = Rules.make(key, options)
    deals = random.Random(seed)
    match = Match(rules, deals, dealer=seed % rules.players)
    moves = random.Random(seed + 1)
    for _ in range(stop):
        if not step(match, moves):
            break
    record = match.to_record()
    assert json.loads(json.dumps(record)) == record
    parsed = parse_match_record(json.loads(json.dumps(record)))
    assert isinstance(parsed, MatchRecord) and parsed.to_json() == record
    # Read with its rule set given (a stored table's), it is the same, every hand sharing it.
    given = parse_match_record(json.loads(json.dumps(record)), rules)
    assert given.to_json() == record and all(h.rules is rules for h in given.hands)
    # Every hand of it is a hand record that replays on its own.
    for hand in record["hands"]:
        assert replay(parse_record_of(hand)).error is None
    rebuilt = Match.from_record(json.loads(json.dumps(record)), rng=twin_rng(deals))
    same(rebuilt, match)
    # ... and goes on playing identically, its next deals from the same stream.
    twin_moves = twin_rng(moves)
    while step(match, moves):
        assert step(rebuilt, twin_moves)
        same(rebuilt, match)
    assert not step(rebuilt, twin_moves)
    same(rebuilt, match)


def parse_record_of(obj: dict[str, Any]) -> Record:
    return parse_record(obj)


def finished_match(key: str = "briscola-2", seed: int = 1, **options: object) -> Match:
    match = Match(Rules.make(key, options), random.Random(seed), dealer=1)
    rng = random.Random(seed)
    while step(match, rng):
        pass
    assert match.over
    return match


def test_a_finished_match_rebuilds_without_a_deal_source() -> None:
    match = finished_match()
    rebuilt = Match.from_record(match.to_record())
    same(rebuilt, match)
    assert rebuilt.result().over and len(rebuilt.result().hands) == len(match.history)


def test_the_default_deals_are_the_seeded_shuffle_in_turn() -> None:
    """The same seed, the same match: each hand is shuffled_deal of the match's generator,
    by the dealer in turn, as before deal sources."""
    for key in ("briscola-2", "briscola-4", "chiamata", "briscola-3"):
        rules = Rules.make(key)
        match = Match(rules, random.Random(7), dealer=1)
        rng = random.Random(8)
        while step(match, rng):
            pass
        stream = random.Random(7)
        hands = match.record().hands
        assert len(hands) >= 2
        for hand in hands:
            assert hand.deal == shuffled_deal(rules, hand.deal.dealer, stream)
        again = Match(rules, deals=Shuffled(random.Random(7)), dealer=1)
        assert again.hand.deal == hands[0].deal


class Committed:
    """A deal source that says each deal before it is used (as a server commits to it)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.given: list[Deal] = []

    def __call__(self, rules: Rules, dealer: int) -> Deal:
        deal = shuffled_deal(rules, dealer, self.rng)
        self.given.append(deal)
        return deal


def test_a_deal_source_is_asked_once_a_hand_before_it_is_played() -> None:
    rules = Rules.make("briscola-4", {"match": "hands:2"})
    source = Committed(3)
    match = Match(rules, dealer=2, deals=source)
    assert source.given == [match.hand.deal] and match.hand.moves == []
    rng = random.Random(4)
    while step(match, rng):
        hands = match.record().hands
        assert [h.deal for h in hands] == source.given
    assert [d.dealer for d in source.given] == [(2 + i) % 4 for i in range(len(source.given))]
    # The rebuilt match takes its later deals from the source it is given.
    record = match.to_record()
    record["hands"] = record["hands"][:1]
    record["hands"][0]["moves"] = record["hands"][0]["moves"][:3]
    record.pop("result")
    later = Committed(9)
    rebuilt = Match.from_record(record, deals=later)
    assert later.given == []
    while rebuilt.number == 1:
        rebuilt.apply(rebuilt.hand.legal_actions()[0])
    assert later.given == [rebuilt.hand.deal] and later.given[0].dealer == 3


def test_a_deal_source_that_gives_no_deal_of_the_table() -> None:
    rules = Rules.make("briscola-2")
    other = Rules.make("briscola-4")
    cases: list[tuple[Any, str]] = [
        (lambda r, d: shuffled_deal(r, 1 - d, random.Random(1)), "dealt by seat 0, but"),
        (lambda r, d: "deal", "gave 'deal', not a Deal"),
        (lambda r, d: shuffled_deal(other, 0, random.Random(1)), "deal.hands"),
    ]
    for source, message in cases:
        with pytest.raises(MalformedError, match=message):
            Match(rules, deals=source)
    with pytest.raises(MalformedError, match="deals is a deal source"):
        Match(rules, deals=5)  # type: ignore[arg-type]
    with pytest.raises(MalformedError, match="partners=drawn: give rng"):
        Match(Rules.make("briscola-4", {"partners": "drawn"}), deals=Committed(1))


def test_the_result_is_a_typed_value() -> None:
    match = finished_match("briscola-2", 3)
    result = match.result()
    assert isinstance(result, MatchResult) and result.over
    assert result.winners == match.winners and result.scores is None
    assert list(result.hands) == match.history and all(
        isinstance(h, HandScored) for h in result.hands
    )
    assert [h.number for h in result.hands] == list(range(1, len(result.hands) + 1))
    assert sum(h.counted for h in result.hands if h.winners) == sum(result.hands_won)
    assert result.to_json()["hands"][0]["points"] == list(result.hands[0].points)
    chiamata = finished_match("chiamata", 2, target="hands:2")
    scores = chiamata.result().scores
    assert scores is not None and sum(scores) == 0 and max(scores) > 0
    assert scores == tuple(map(sum, zip(*(h.scores or () for h in chiamata.history), strict=True)))


@pytest.mark.parametrize(("cappotto", "counted"), [("double", 2), ("nothing", 1)])
def test_a_cappotto_is_said(cappotto: str, counted: int) -> None:
    """Briscolone, dealer 1, from a deal source: seat 0 holds and draws every counting card,
    seat 1 every blank, so seat 0 takes every trick (no trump; a blank never beats a card
    that counts)."""
    rules = Rules.make("briscolone", {"match": "best-of-3", "cappotto": cappotto})
    deck = sorted(rules.deck, key=str)
    counting = [c for c in deck if rules.points[c] > 0]
    blank = [c for c in deck if rules.points[c] == 0]
    stock = [c for pair in zip(counting[5:], blank[5:], strict=True) for c in pair]
    sweep = Deal(1, (tuple(counting[:5]), tuple(blank[:5])), None, tuple(stock))
    shuffled = Shuffled(random.Random(1))
    match = Match(rules, dealer=1, deals=lambda r, d: sweep if d == 1 else shuffled(r, d))
    rng = random.Random(2)
    while match.number == 1 and not match.over:
        match.apply(rng.choice(match.hand.legal_actions()))
    assert match.over is (counted == 2)
    (hand,) = match.result().hands
    assert hand.points == (120, 0) and hand.cappotto and hand.counted == counted
    assert match.result().hands_won == (counted, 0)
    assert match.result().to_json()["hands"][0]["cappotto"] is True
    while step(match, rng):
        pass
    assert [h.cappotto for h in match.result().hands] == [120 in h.points for h in match.history]


# ------------------------------------------------------------------ malformed match records


def a_record(key: str = "briscola-2", **options: object) -> dict[str, Any]:
    return finished_match(key, 5, **options).to_record()


def broken(change: Any, key: str = "briscola-2", **options: object) -> dict[str, Any]:
    record = copy.deepcopy(a_record(key, **options))
    change(record)
    return record


def drop_last_move(r: dict[str, Any]) -> None:
    r["hands"][0]["moves"].pop()


def set_in(path: tuple[Any, ...], value: object) -> Any:
    def change(r: Any) -> None:
        for k in path[:-1]:
            r = r[k]
        r[path[-1]] = value

    return change


MALFORMED: list[tuple[str, Any, str]] = [
    ("not an object", lambda r: r.clear(), "not a match record"),
    ("unknown field", set_in(("extra",), 1), "unknown field 'extra'"),
    ("no game", set_in(("game",), "tressette"), "game: .*no game"),
    ("bad rule", set_in(("rules",), {"match": "best-of-7"}), "rules"),
    ("bad dealer", set_in(("dealer",), 2), "dealer: expected a seat from 0 to 1"),
    ("bad seating", set_in(("seating",), [0, 0]), "seating: expected the players"),
    ("seating moved", set_in(("seating",), [1, 0]), "only a partner draw moves"),
    ("a draw", set_in(("draw",), ["Ab", "Ac"]), "only a table with partners=drawn"),
    ("no hands", set_in(("hands",), []), "hands: expected a list of hand records"),
    ("hand card", set_in(("hands", 0, "deal", "hands", 1, 2), "Zz"), r"hands\[0\]\.deal"),
    ("hand rules", set_in(("hands", 1, "rules"), {"match": "one-hand"}), "another table"),
    ("dealer out of turn", set_in(("hands", 1, "deal", "dealer"), 1), r"hands\[1\]\.deal\.dealer"),
    ("illegal move", set_in(("hands", 0, "moves", 0, "seat"), 1), r"hands\[0\]\.moves\[0\]"),
    ("result", set_in(("result", "hands_won"), [5, 5]), "result: not the result"),
    ("result type", set_in(("result",), [1]), "result: expected an object"),
    ("unfinished, then more", drop_last_move, r"hands\[0\]: the hand is unfinished, yet"),
]


@pytest.mark.parametrize(
    ("change", "message"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED]
)
def test_a_malformed_match_record_says_which_field(change: Any, message: str) -> None:
    record = broken(change)
    with pytest.raises(MalformedError, match=message) as err:
        Match.from_record(record)
    assert "\n" not in str(err.value)


def test_a_record_that_is_not_an_object() -> None:
    values: list[object] = [None, [], "x", 3]
    for value in values:
        with pytest.raises(MalformedError, match="match record: expected a JSON object"):
            parse_match_record(value)


def test_a_record_must_end_with_the_hand_in_play() -> None:
    record = a_record()
    assert len(record["hands"]) >= 2
    # A hand that is over and not the last: its next moves belong to no hand.
    cut = copy.deepcopy(record)
    cut["hands"] = cut["hands"][:-1]
    cut.pop("result")
    with pytest.raises(MalformedError, match=r"hands\[\d\]: the hand is finished and the match"):
        Match.from_record(cut, rng=random.Random(1))
    # A hand after the match is over.
    more = copy.deepcopy(record)
    more["hands"].append(more["hands"][-1])
    with pytest.raises(MalformedError, match=r"hands\[\d+\]"):
        Match.from_record(more)
    # Moves after a hand's end.
    extra = copy.deepcopy(record)
    extra["hands"][0]["moves"].append(extra["hands"][0]["moves"][0])
    with pytest.raises(MalformedError, match=r"hands\[0\]\.moves\[\d+\]: the hand is over"):
        Match.from_record(extra)


def test_an_unfinished_match_needs_a_deal_source_to_play_on() -> None:
    match = Match(Rules.make("briscola-2"), random.Random(1))
    match.apply(match.hand.legal_actions()[0])
    with pytest.raises(MalformedError, match=r"give deals= \(or rng=\)"):
        Match.from_record(match.to_record())
    assert Match.from_record(match.to_record(), rng=random.Random(2)).hand.moves == [
        match.hand.moves[0]
    ]


def test_a_partner_draw_is_recorded_and_checked() -> None:
    rules = Rules.make("briscola-4", {"partners": "drawn", "match": "hands:1"})
    match = Match(rules, random.Random(4))
    rng = random.Random(5)
    while step(match, rng):
        pass
    record = match.to_record()
    assert record["seating"] == list(match.seating)
    assert len(record["draw"]) == 4
    same(Match.from_record(record), match)
    bad = copy.deepcopy(record)
    bad["seating"] = bad["seating"][::-1]
    if bad["seating"] != record["seating"]:
        with pytest.raises(MalformedError, match="seating: the draw seats the players"):
            parse_match_record(bad)
    for draw, message in ((["Ab"], "the 4 cards"), (["Ab"] * 4, "different cards"),
                          (["Ab", "Ac", "Ad", "Zz"], r"draw\[3\]")):  # fmt: skip
        with pytest.raises(MalformedError, match=message):
            parse_match_record({**record, "draw": draw})


def test_chiamata_hands_dealt_again_are_in_the_record() -> None:
    rules = Rules.make("chiamata", {"target": "hands:1"})
    match = Match(rules, random.Random(1), dealer=4)
    for _ in range(5):
        match.apply(Pass(match.hand.turn))
    assert match.history[-1].replayed and match.number == 2
    record = match.to_record()
    assert len(record["hands"]) == 2 and record["hands"][1]["deal"]["dealer"] == 4
    same(Match.from_record(record, rng=twin_rng(match.rng or random.Random())), match)


def test_a_hand_record_is_not_a_match_record() -> None:
    hand = Match(Rules.make("briscola-2"), random.Random(1)).hand.to_record()
    with pytest.raises(MalformedError, match=r"not a match record.*holds deal, game"):
        parse_match_record(hand)


def test_a_chiamata_deal_thrown_in_is_kept_in_the_record() -> None:
    """Seed 387, dealer 4: the first deal holds a hand with no card points, thrown in under
    ``throw_in=yes``. Whatever the match does with it (it scores nothing and the same
    dealer deals again), the record holds it, with no moves, and rebuilds to the same."""
    rules = Rules.make("chiamata", {"throw_in": "yes"})
    deals = random.Random(387)
    match = Match(rules, deals, dealer=4)
    assert match.record().hands[0].moves == () and match.record().hands[0].deal.dealer == 4
    record = match.to_record()
    assert all(h["deal"]["dealer"] == 4 for h in record["hands"])
    same(Match.from_record(record, rng=twin_rng(deals)), match)


def test_a_match_record_is_not_a_hand_record() -> None:
    record = Match(Rules.make("briscola-2"), random.Random(1)).to_record()
    with pytest.raises(MalformedError, match=r"this is a match record .*parse_match_record"):
        parse_record(record)
    assert parse_record(record["hands"][0]).deal.dealer == 0
