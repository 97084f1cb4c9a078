"""Events that serialise, secret-safe by default: ``seat_events`` gives each seat its batch
as JSON, redacted for it; the audience is never written. Every game of the conformance
suite is played as a match, and every seat's serialised events and view are scanned for a
card the seat may not know."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from briscola.engine import (
    Card,
    GameState,
    MalformedError,
    Match,
    Rules,
    match_view,
    seat_events,
    seat_view,
    shuffled_deal,
)
from briscola.engine.cards import carichi
from briscola.engine.events import CardDrawn, CardPlayed, Dealt, HandOver, Talk, _event_json
from briscola.engine.match import PartnersDrawn
from helpers import CONFIGS, Known, config_id, play_out

MOST_HANDS = 3


def keys(obj: object) -> Iterator[str]:
    if isinstance(obj, list):
        for v in obj:
            yield from keys(v)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from keys(v)


def scan_batch(
    batch: list[Any], before: Known, after: Known, seats: list[int | None], sent: Any
) -> None:
    """Each seat's JSON of ``batch``: events up to a new hand against what the seat may
    know of the hand that ended, the rest against the new hand."""
    for seat in seats:
        out = seat_events(batch, seat)
        assert json.loads(json.dumps(out)) == out
        assert "audience" not in set(keys(out))
        known = before
        for e in out:
            assert isinstance(e["type"], str)
            if e["type"] == "hand_started":
                known = after
            known.check(seat, e, f"event {e}")
            if e["type"] == "talk" and e.get("spotted") is not None:
                # Of a signal spotted by chance, a seat learns whether it spotted it itself.
                assert set(e["spotted"]) <= {seat}
        sent[seat].extend(out)


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=[config_id(k, o) for k, o in CONFIGS])
def test_no_seat_is_sent_a_card_it_may_not_know(key: str, options: dict[str, object]) -> None:
    rules = Rules.make(key, options)
    for g in range(3):
        rng = random.Random(f"events json {config_id(key, options)} {g}")
        match = Match(rules, rng, dealer=rng.randrange(rules.players))
        draw = [c for e in match.events if isinstance(e, PartnersDrawn) for c in e.cards]
        known = Known(match.hand, set(draw))
        seats: list[int | None] = [*range(rules.players), None]
        sent: dict[int | None, list[Any]] = {s: [] for s in seats}
        scan_batch(list(match.events), known, known, seats, sent)
        while not match.over and match.number <= MOST_HANDS:
            for s in seats:
                known.check(s, match_view(match, s).to_json(), "its view")
            legal = match.hand.legal_actions()
            if not legal:
                break
            hand = match.hand
            batch = match.apply(rng.choice(legal))
            known.update()
            after = known if match.hand is hand else Known(match.hand, set(draw))
            scan_batch(batch, known, after, seats, sent)
            known = after
        for s in seats:
            known.check(s, match_view(match, s).to_json(), "its view")
        # Every seat was told the match's own news, in the same order.
        news = ("hand_started", "hand_scored", "match_over", "partners_drawn")
        told = [[e for e in sent[s] if e["type"] in news] for s in seats]
        assert all(t == told[0] for t in told) and told[0][0]["type"] in news


def test_the_scan_notices_a_card_a_seat_may_not_know() -> None:
    rules = Rules.make("briscola-2")
    match = Match(rules, random.Random(1), dealer=1)
    known = Known(match.hand, set())
    other = match.hand.hands[1][0]
    unredacted = [CardDrawn(1, other, frozenset({1}))]
    known.check(0, seat_events(unredacted, 0), "a redacted draw")  # fine: redacted
    # The events as they are, not through visible, are a leak the scan sees.
    raw = [_event_json(e) for e in unredacted]
    with pytest.raises(AssertionError, match="seat 0 is sent"):
        known.check(0, raw, "a leak")
    dealt = [e for e in match.events if isinstance(e, Dealt) and e.seat == 1]
    assert seat_events(dealt, 0) == [{"type": "dealt", "seat": 1, "cards": []}]
    assert seat_events(dealt, 1)[0]["cards"] == [str(c) for c in match.hand.hands[1]]


def test_every_kind_of_event_has_a_json_form() -> None:
    card = Card.parse("Ab")
    talk = Talk(0, "signal", "ace", None, None, frozenset({0, 2, 3}), frozenset({3}))
    assert seat_events([talk], 3) == [
        {"type": "talk", "seat": 0, "kind": "signal", "what": "ace", "to": None,
         "answer": None, "spotted": [3]}
    ]  # fmt: skip
    assert seat_events([talk], 2)[0]["spotted"] == [] and seat_events([talk], 1) == []
    assert seat_events([CardPlayed(1, card)], None) == [
        {"type": "card_played", "seat": 1, "card": "Ab"}
    ]
    with pytest.raises(MalformedError, match="visible: expected an event"):
        seat_events(["Ab"], 0)
    with pytest.raises(MalformedError, match="visible: expected a seat number"):
        seat_events([CardPlayed(1, card)], -1)


@pytest.mark.parametrize(
    ("key", "options", "ranks"),
    [
        ("briscola-2", {}, "A3"),
        ("briscola-4", {}, "A3"),
        ("briskula", {}, "AT"),
        ("briskula", {"players": 4, "teams": "pairs"}, "AT"),
    ],
)
def test_the_hand_over_tells_the_carichi_each_side_took(
    key: str, options: dict[str, object], ranks: str
) -> None:
    """A carico is a card of the deck's two highest point values: the aces and threes of the
    40-card decks, the aces and 10s of Briškula's 32 cards. The end of the hand, and every
    view, tells each side's, as they were taken, so that no client needs the rules."""
    rules = Rules.make(key, options)
    rng = random.Random(11)
    state = GameState(rules, shuffled_deal(rules, 0, rng))
    events: list[object] = []
    play_out(state, rng, on_events=events.extend)
    over = events[-1]
    assert isinstance(over, HandOver)
    expected = tuple(
        tuple(c for t in state.tricks if t.winner in side for c in t.cards if c.rank in ranks)
        for side in state.sides
    )
    assert over.carichi == expected
    # every carico of the deck was taken by someone: the four aces and the four threes, or
    # the four aces and the four 10s
    taken = sorted(c for side in over.carichi for c in side)
    assert taken == sorted(c for c in rules.deck if c.rank in ranks) and len(taken) == 8
    said = seat_events([over], 0)[0]["carichi"]
    assert said == [[str(c) for c in side] for side in expected]
    for seat in range(state.n):
        assert seat_view(state, seat).carichi == expected
        assert seat_view(state, seat).to_json()["carichi"] == said


def test_the_carichi_of_a_deck_are_its_two_highest_point_values() -> None:
    italian = Rules.make("briscola-2").points
    french = Rules.make("briskula").points
    hand = [Card.parse(c) for c in ("Ab", "3b", "Kb", "7b")]
    assert carichi(hand, italian) == (Card.parse("Ab"), Card.parse("3b"))
    tens = [Card.parse(c) for c in ("Ts", "Ks", "As", "9s")]
    assert carichi(tens, french) == (Card.parse("Ts"), Card.parse("As"))
    assert carichi([], french) == ()
