"""The position API: a hand rebuilt from its position plays on as the hand itself."""

from __future__ import annotations

import dataclasses
import random

import pytest

from briscola.engine import GameState, MalformedError, Position, Rules, View
from briscola.engine.chiamata import AuctionPart
from briscola.engine.exchange import ExchangePart
from briscola.engine.phases import Phase
from briscola.engine.talk import TalkPart
from helpers import CONFIGS, all_views, config_id, random_state


def views(state: GameState) -> list[View]:
    """Every seat's view and the spectator's, but the move number (a position keeps no
    history, so a rebuilt hand counts its moves from the position)."""
    return [dataclasses.replace(v, move_number=0) for v in all_views(state)]


def same_hand(state: GameState, rebuilt: GameState) -> None:
    assert rebuilt.legal_actions() == state.legal_actions()
    assert views(rebuilt) == views(state)
    assert rebuilt.position() == state.position()


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=[config_id(k, o) for k, o in CONFIGS])
def test_a_rebuilt_hand_plays_on_as_the_hand(key: str, options: dict[str, object]) -> None:
    rules = Rules.make(key, options)
    for seed in range(6):
        rng = random.Random(seed)
        state = random_state(rules, rng)
        stops = 0
        while True:
            if rng.random() < 0.3 or state.over:
                stops += 1
                rebuilt = GameState.from_position(rules, state.position())
                same_hand(state, rebuilt)
                going_on = state.copy()
                while not going_on.over:
                    action = rng.choice(going_on.legal_actions())
                    assert rebuilt.apply_logged(action) == going_on.apply_logged(action)
                    assert rebuilt.legal_actions() == going_on.legal_actions()
                assert rebuilt.over
                assert rebuilt.points == going_on.points
                assert rebuilt.winners() == going_on.winners()
                for mine, theirs in zip(rebuilt.addons, going_on.addons, strict=True):
                    assert mine.scores(rebuilt) == theirs.scores(going_on)
                    assert mine.redeal(rebuilt) == theirs.redeal(going_on)
                assert views(rebuilt) == views(going_on)
            if state.over:
                break
            state.apply(rng.choice(state.legal_actions()))
        assert stops >= 1


def test_each_addon_writes_its_own_part() -> None:
    rules = Rules.make(
        "briscola-4",
        {"communication": "signals", "trump_exchange": "seven", "exchange_timing": "after-win"},
    )
    parts = random_state(rules, random.Random(1)).position().addons
    assert {type(p) for p in parts} == {ExchangePart, TalkPart}
    chiamata = random_state(Rules.make("chiamata"), random.Random(1)).position()
    assert [type(p) for p in chiamata.addons] == [AuctionPart]
    assert random_state(Rules.make("briscola-2"), random.Random(1)).position().addons == ()


def test_a_phase_read_back_as_text_works() -> None:
    rules = Rules.make("briscola-4")
    state = random_state(rules, random.Random(3))
    pos = dataclasses.replace(state.position(), phase="play")  # type: ignore[arg-type]
    assert GameState.from_position(rules, pos).legal_actions() == state.legal_actions()


def spoiled(pos: Position) -> list[tuple[str, Position]]:
    """Positions that do not fit the rules, each with a word of the error it must raise."""
    hands = [list(h) for h in pos.hands]
    moved = hands[1].pop()
    two = [list(h) for h in pos.hands]
    two[0].append(pos.stock[0])
    big = [list(h) for h in pos.hands]
    big[0].extend(pos.stock[:1])
    return [
        ("cards", dataclasses.replace(pos, hands=tuple(map(tuple, hands)))),
        ("cards", dataclasses.replace(pos, hands=tuple(map(tuple, two)))),
        (
            "holds",
            dataclasses.replace(pos, hands=tuple(map(tuple, big)), stock=pos.stock[1:]),
        ),
        ("cards", dataclasses.replace(pos, stock=(*pos.stock, moved))),
        ("seat", dataclasses.replace(pos, turn=(pos.turn + 1) % len(pos.hands))),
        ("seat", dataclasses.replace(pos, turn=9)),
        ("dealer", dataclasses.replace(pos, dealer=-1)),
        ("over", dataclasses.replace(pos, phase=Phase.OVER)),
        ("phase", dataclasses.replace(pos, phase="dance")),  # type: ignore[arg-type]
        ("sides", dataclasses.replace(pos, sides=((0, 1), (1, 2, 3)))),
        ("trump", dataclasses.replace(pos, trump=None)),
        ("add-on", dataclasses.replace(pos, addons=(None,))),
        ("hands", dataclasses.replace(pos, hands=pos.hands[:3])),
    ]


@pytest.mark.parametrize("case", range(13))
def test_a_position_that_does_not_fit_is_refused(case: int) -> None:
    rules = Rules.make("briscola-4")
    pos = random_state(rules, random.Random(4)).position()
    word, bad = spoiled(pos)[case]
    with pytest.raises(MalformedError, match=word):
        GameState.from_position(rules, bad)


def test_an_addon_part_of_the_wrong_kind_is_refused() -> None:
    rules = Rules.make("chiamata")
    pos = random_state(rules, random.Random(4)).position()
    with pytest.raises(MalformedError, match="AuctionPart"):
        GameState.from_position(rules, dataclasses.replace(pos, addons=(TalkPart(),)))
    with pytest.raises(MalformedError, match="not a bid"):
        part = AuctionPart(bids=((1, "Z"),))
        GameState.from_position(rules, dataclasses.replace(pos, addons=(part,)))
    with pytest.raises(MalformedError, match="expected a Position"):
        GameState.from_position(rules, "a position")  # type: ignore[arg-type]
