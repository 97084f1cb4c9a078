"""One conformance suite run against every game, every player count, and a few house-rule
combinations: seeded random games played to the end, checking the engine's invariants at
every step (cards conserved, legal actions legal, illegal ones refused without a trace) and
that records round-trip and replay to the same views."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from briscola.engine import (
    GAMES,
    Card,
    GameOverError,
    GameState,
    IllegalActionError,
    NotYourTurnError,
    Play,
    Rules,
    parse_record,
    replay,
)
from briscola.engine.actions import Decline, Exchange
from briscola.engine.record import Record
from helpers import all_views, config_id, in_play, random_state


def _configs() -> list[tuple[str, dict[str, object]]]:
    out: list[tuple[str, dict[str, object]]] = []
    for key, game in GAMES.items():
        counts: tuple[int | None, ...] = game.players if "players" in game.rules else (None,)
        for p in counts:
            base: dict[str, object] = {} if p is None else {"players": p}
            out.append((key, base))
            if "teams" in game.rules and p == 4:
                out.append((key, {**base, "teams": "pairs", "show_partner_hands": "yes"}))
    out += [
        ("briscola-2", {"trump_exchange": "seven-or-two", "exchange_timing": "on-turn"}),
        ("briscola-2", {"trump_exchange": "two", "exchange_timing": "after-win"}),
        ("briscola-2", {"follow_suit": "required"}),
        (
            "briscola-2",
            {"follow_suit": "required", "trump_exchange": "seven", "exchange_timing": "after-win"},
        ),
        (
            "briscola-2",
            {
                "turned_high": "reshuffle",
                "cut": "cut",
                "court_order": "south",
                "last_trick": "hidden",
                "direction": "left",
                "sixty_sixty": "last-trick",
            },
        ),
        (
            "briscola-3",
            {"trump_exchange": "seven", "exchange_timing": "on-turn", "removed_two": "random"},
        ),
        ("briscola-3", {"follow_suit": "required", "removed_two": "2s"}),
        (
            "briscola-4",
            {
                "trump_exchange": "seven-or-two",
                "exchange_timing": "after-win",
                "show_partner_hands": "yes",
            },
        ),
        ("briscola-4", {"follow_suit": "required", "trump_exchange": "two"}),
        ("briscola-6", {"trump_exchange": "seven", "exchange_timing": "after-win"}),
        ("briscola-6", {"show_partner_hands": "yes", "follow_suit": "required"}),
        ("scoperta", {"trump_exchange": "two", "exchange_timing": "on-turn"}),
        ("scoperta", {"follow_suit": "required"}),
        ("briscolone", {"follow_suit": "required"}),
        ("brisca", {"players": 4, "exchange_timing": "on-turn", "show_partner_hands": "yes"}),
        ("brisca", {"follow_suit": "required"}),
        ("briskula", {"players": 3, "follow_suit": "required", "turned_high": "reshuffle"}),
        ("briskula", {"players": 6, "court_order": "south"}),
        ("briskula-double", {"players": 3, "follow_suit": "required"}),
    ]
    return out


CONFIGS = _configs()
GAMES_PER_CONFIG = 16


def test_every_game_and_player_count_is_covered() -> None:
    covered = {(k, Rules.make(k, o).players) for k, o in CONFIGS}
    for key, game in GAMES.items():
        for p in game.players:
            assert (key, p) in covered


def snapshot(state: GameState) -> tuple[object, ...]:
    return (state.to_record(), all_views(state), state.turn, state.phase, state.legal_actions())


def check_refused(state: GameState, action: object, error: type[Exception]) -> None:
    """``action`` is refused with ``error``, ``is_legal`` says no, and nothing changes."""
    before = snapshot(state)
    assert not state.is_legal(action)  # type: ignore[arg-type]
    with pytest.raises(error) as err:
        state.apply(action)  # type: ignore[arg-type]
    assert str(err.value)  # a message a player reads
    assert snapshot(state) == before


def try_illegal(state: GameState, deck: list[Card], rng: random.Random) -> None:
    seat = state.turn
    n = state.n
    hand = state.hands[seat]
    # A card the seat does not hold.
    not_held = [c for c in deck if c not in hand]
    check_refused(state, Play(seat, rng.choice(not_held)), IllegalActionError)
    # Another seat, with a card it does hold.
    others = [s for s in range(n) if s != seat and state.hands[s]]
    if others:
        other = rng.choice(others)
        check_refused(state, Play(other, rng.choice(state.hands[other])), NotYourTurnError)
        check_refused(state, Decline(other), NotYourTurnError)
    # No such seat.
    check_refused(state, Play(n, deck[0]), IllegalActionError)
    if state.phase == "exchange":
        check_refused(state, Play(seat, rng.choice(hand)), IllegalActionError)
    else:
        check_refused(state, Decline(seat), IllegalActionError)
        if not any(isinstance(a, Exchange) for a in state.legal_actions()):
            check_refused(state, Exchange(seat, rng.choice(deck)), IllegalActionError)


def assert_record_round_trips(state: GameState) -> None:
    rec = state.to_record()
    assert json.loads(json.dumps(rec)) == rec
    parsed = parse_record(json.loads(json.dumps(rec)))
    assert isinstance(parsed, Record)
    assert parsed.to_json() == rec
    assert parsed.rules.options == state.rules.options
    assert parsed.deal == state.deal and parsed.moves == tuple(state.moves)


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=[config_id(k, o) for k, o in CONFIGS])
def test_random_games_conform(key: str, options: dict[str, object]) -> None:
    rules = Rules.make(key, options)
    exchanges = 0
    for g in range(GAMES_PER_CONFIG):
        rng = random.Random(f"{config_id(key, options)}#{g}")
        state = random_state(rules, rng)
        deal = state.deal
        deal.check(rules)
        deck = sorted(deal.cards())
        assert sum(rules.points[c] for c in deck) == 120
        probe_at = rng.randrange(len(deck))
        middle: tuple[int, list[object]] | None = None
        twin = state
        steps = 0
        while not state.over:
            # Cards are conserved at every step.
            assert sorted(in_play(state)) == deck
            assert sum(state.points) == sum(t.points for t in state.tricks)
            legal = state.legal_actions()
            assert legal and all(a.seat == state.turn for a in legal)
            assert len(set(legal)) == len(legal)
            for a in legal:
                assert state.is_legal(a)
            if steps % 7 == g % 7:
                try_illegal(state, deck, rng)
            if steps == probe_at:
                middle = (len(state.moves), all_views(state))
                assert_record_round_trips(state)
                twin = state.copy()
            action = rng.choice(legal)
            exchanges += isinstance(action, Exchange)
            events = state.apply(action)
            assert events
            assert state.moves[-1] == action
            steps += 1
        assert sorted(in_play(state)) == deck
        assert state.legal_actions() == [] and state.turn == -1
        # Every card of the deal was played exactly once.
        played = Counter(c for t in state.tricks for c in t.cards)
        assert sorted(played) == deck and set(played.values()) == {1}
        assert all(not h for h in state.hands) and state.pile == [] and state.trick == []
        assert sum(state.points) == 120
        by_side = [0] * len(rules.sides)
        for t in state.tricks:
            by_side[rules.side_of[t.winner]] += t.points
            assert t.points == sum(rules.points[c] for c in t.cards)
        assert state.points == by_side
        best = max(by_side)
        if by_side.count(best) == 1:
            assert state.winners() == rules.sides[by_side.index(best)]
        for v in all_views(state):
            assert v.to_act is None and v.legal == () and v.phase == "over"
            assert v.points == tuple(by_side) and v.winners == state.winners()
        with pytest.raises(GameOverError):
            state.apply(Play(0, deck[0]))
        # Records: a JSON round trip, and a replay to the same views, at the end and midway.
        assert_record_round_trips(state)
        result = replay(parse_record(state.to_record()))
        assert result.error is None and result.to_json()["finished"] is True
        assert all_views(result.state) == all_views(state)
        assert middle is not None
        moves, views = middle
        rec = state.to_record()
        rec["moves"] = rec["moves"][:moves]
        midway = replay(parse_record(rec))
        assert midway.error is None and not midway.state.over
        assert all_views(midway.state) == views
        assert midway.to_json()["finished"] is False
        # A copy taken midway is independent, and plays on to the same end.
        assert all_views(twin) == views
        for move in state.moves[moves:]:
            twin.apply(move)
        assert all_views(twin) == all_views(state) and twin.to_record() == state.to_record()
        for v in all_views(state):
            assert json.loads(json.dumps(v.to_json())) == v.to_json()
    if rules.exchange != "none":
        assert exchanges > 0
