"""A view that carries where it stands (hand and move number, the match's context) and
comes back from its JSON the same, so that a computer player can run in another process."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from briscola.ai import make_bot
from briscola.engine import GameState, MalformedError, Match, Rules, View, match_view, seat_view
from briscola.engine.views import MatchView
from helpers import CONFIGS, config_id

MOST_HANDS = 3


def through_json(view: View) -> View:
    back = View.from_json(json.loads(json.dumps(view.to_json())))
    assert back.move_number == view.move_number  # not compared by ==
    return back


def views_of(match: Match) -> list[View]:
    return [match_view(match, s) for s in range(match.rules.players)] + [match_view(match, None)]


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=[config_id(k, o) for k, o in CONFIGS])
def test_every_view_comes_back_from_its_json_the_same(key: str, options: dict[str, Any]) -> None:
    rules = Rules.make(key, options)
    for g in range(2):
        rng = random.Random(f"view json {config_id(key, options)} {g}")
        match = Match(rules, rng, dealer=rng.randrange(rules.players))
        version = (0, -1)
        while not match.over and match.number <= MOST_HANDS:
            for view in views_of(match):
                assert through_json(view) == view
                # This hand's number, and the moves taken in it that this view was shown:
                # every move but the signals said to others.
                said = next((a.log for a in match.hand.addons if hasattr(a, "log")), ())
                unseen = len(said) - len(view.talk)
                assert (view.hand_number, view.move_number) == (
                    match.number,
                    len(match.hand.moves) - unseen,
                )
                assert view.match is not None and view.match.hands_won == tuple(match.hands_won)
                assert view.match.totals == tuple(match.totals)
                assert view.match.scores == (tuple(match.scores) if match.per_seat else None)
                assert view.match.target == rules.options.get("target", rules.options.get("match"))
            assert (match.number, len(match.hand.moves)) > version  # it grows with every action
            version = (match.number, len(match.hand.moves))
            legal = match.hand.legal_actions()
            if not legal:
                break
            match.apply(rng.choice(legal))
        for view in views_of(match):
            assert through_json(view) == view
        # A hand played alone: hand 1, no match.
        alone = seat_view(match.hand, 0)
        assert alone.hand_number == 1 and alone.match is None
        assert through_json(alone) == alone


def test_the_match_context_follows_the_match() -> None:
    rules = Rules.make("briscola-2", {"match": "best-of-3"})
    match = Match(rules, random.Random(1))
    rng = random.Random(2)
    while not match.over:
        match.apply(rng.choice(match.hand.legal_actions()))
    view = match_view(match, 0)
    assert view.match == MatchView(
        target="best-of-3",
        hands_won=tuple(match.hands_won),
        totals=tuple(match.totals),
        scores=None,
        seating=(0, 1),
        over=True,
        winners=match.winners,
    )
    assert view.hand_number == match.number >= 2 and max(view.match.hands_won) == 2
    chiamata = Match(Rules.make("chiamata", {"target": "points:9"}), random.Random(3))
    while chiamata.number < 3:
        chiamata.apply(rng.choice(chiamata.hand.legal_actions()))
    context = match_view(chiamata, 2).match
    assert context is not None and context.target == "points:9"
    assert context.scores == tuple(chiamata.scores) and any(context.scores)


LEVELS = ["random", "beginner", "intermediate"]
BOT_CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("briscola-2", {}),
    ("briscola-4", {"communication": "signals", "signal_audience": "spotted", "spot_chance": 50}),
    ("briscola-4", {"communication": "conversation"}),
    ("chiamata", {}),
    ("scoperta", {}),
    ("schembil", {}),
    ("briskula-double", {"players": 3}),
]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    ("key", "options"), BOT_CONFIGS, ids=[config_id(k, o) for k, o in BOT_CONFIGS]
)
def test_a_bot_chooses_the_same_from_the_rebuilt_view(
    level: str, key: str, options: dict[str, Any]
) -> None:
    rules = Rules.make(key, options)
    rng = random.Random(f"{level} {key}")
    match = Match(rules, rng, dealer=0)
    here = [make_bot(level, seed=s) for s in range(rules.players)]
    away = [make_bot(level, seed=s) for s in range(rules.players)]
    moves = 0
    number = 0
    while not match.over and match.number <= 2 and moves < 200:
        if match.number != number:
            number = match.number
            for s in range(rules.players):
                view = match_view(match, s)
                for bot, seen in ((here[s], view), (away[s], through_json(view))):
                    new_hand = getattr(bot, "new_hand", None)
                    if new_hand is not None:
                        new_hand(seen)
        seat = match.hand.turn
        if seat < 0:
            break
        view = match_view(match, seat)
        action = here[seat].choose(view)
        assert away[seat].choose(through_json(view)) == action
        match.apply(action)
        moves += 1
    assert moves > 5


def test_a_view_from_json_that_is_no_view() -> None:
    view = seat_view(Match(Rules.make("briscola-2"), random.Random(1)).hand, 0).to_json()
    cases: list[tuple[object, str]] = [
        ([], "view: expected a JSON object"),
        ({**view, "extra": 1}, "view: unknown field 'extra'"),
        ({k: v for k, v in view.items() if k != "hand"}, r"view\.hand: missing"),
        ({**view, "hand": ["Zz"]}, r"view\.hand: not what a view holds"),
        ({**view, "players": "2"}, r"view\.players: not what"),
        ({**view, "trump": "x"}, r"view\.trump: not what"),
        ({**view, "phase": "dance"}, r"view\.phase: not what"),
        ({**view, "legal": [{"seat": 0}]}, r"view\.legal: not what"),
        ({**view, "visible_hands": {"one": []}}, r"view\.visible_hands: not what"),
        ({**view, "talk": [{"seat": 0}]}, r"view\.talk: not a talk entry"),
        ({**view, "match": {"target": 1}}, r"view\.match: not what"),
    ]
    for obj, message in cases:
        with pytest.raises(MalformedError, match=message):
            View.from_json(obj)


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=[config_id(k, o) for k, o in CONFIGS])
def test_a_copied_hand_that_goes_another_way_shows_its_own_tricks(
    key: str, options: dict[str, Any]
) -> None:
    """A search copies a hand and plays it on another way: every view of the copy, and of
    the hand it came from, is the view of the same moves replayed on a fresh hand (the
    tricks and carichi a view shows are made once a trick is taken, and kept by the hand)."""
    rules = Rules.make(key, options)
    rng = random.Random(f"copied views {config_id(key, options)}")
    match = Match(rules, rng, dealer=rng.randrange(rules.players))
    hand = match.hand
    while not hand.over and len(hand.tricks) < 3:
        _ = [seat_view(hand, s) for s in range(hand.n)]  # the hand keeps what it showed
        hand.apply(rng.choice(hand.legal_actions()))
    other = hand.copy()
    for state, pick in ((other, -1), (hand, 0)):
        while not state.over:
            fresh = GameState(rules, state.deal)
            for move in state.moves:
                fresh.apply(move)
            for s in range(state.n):
                assert seat_view(state, s) == seat_view(fresh, s)
                assert seat_view(state, s).to_json() == seat_view(fresh, s).to_json()
            legal = state.legal_actions()
            state.apply(legal[pick])
    assert other.moves != hand.moves
