"""The analysis reads each decision from its seat's view alone: two deals that give a seat
the same view give it the same decisions, values and labels.

For a decision of a seat in a played hand, the cards the seat cannot see then (in other
hands, not shown to it, and in the stock) are moved among their places in the deal; the
same moves are replayed where legal, the twin hand played on to its end; then the seat's
decisions up to that one, analysed in each hand, must be identical. In every game of the
family, with its talk, bids and call where it has them (a cheap search and few worlds,
so that it runs in CI)."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("numba")

from briscola.ai import make_bot
from briscola.analysis import analyse_hand, hint, tenths
from briscola.analysis.hand import following
from briscola.analysis.talk import TALK
from briscola.engine import GAMES, GameState, Rules, seat_view
from briscola.engine.actions import Action, Play
from briscola.engine.cards import Card
from briscola.engine.deal import Deal
from briscola.engine.errors import BriscolaError
from briscola.engine.game_record import Record
from helpers import QUICK_SEARCH, played_hand, swap_cards

TABLES = [(key, {}) for key in sorted(GAMES)] + [
    ("briscola-4", {"communication": "signals"}),
    ("briscola-4", {"communication": "conversation"}),
    ("briscola-6", {"communication": "signals"}),
]


def unseen(state: GameState, seat: int) -> list[Card]:
    """The deal's cards ``seat`` cannot see in ``state``: in other hands not shown to it,
    and face down in the stock."""
    view = seat_view(state, seat)
    seen = set(view.hand) | {c for _, c in view.trick}
    seen |= {c for t in view.tricks for c in t.cards}
    seen |= {c for cards in view.visible_hands.values() for c in cards}
    seen |= {c for cards in view.known_cards.values() for c in cards}
    seen |= {c for c in (view.turned, view.stock_top, state.deal.trump) if c is not None}
    return [c for c in state.deal.cards() if c not in seen]


def replayed(rules: Rules, deal: Deal, moves: tuple[Action, ...]) -> tuple[GameState, int]:
    """``moves`` replayed on ``deal`` while legal: the state and how many were."""
    state = GameState(rules, deal)
    for n, move in enumerate(moves):
        try:
            state.apply(move)
        except BriscolaError:
            return state, n
    return state, len(moves)


def twin(record: Record, seat: int, k: int, rng: random.Random) -> Record | None:
    """A hand dealt as ``record``'s but for cards ``seat`` cannot see before move ``k``
    (its decision), moved among their places; its first ``k`` moves the same and its
    view then the same; the record's moves replayed on where legal, then played to its
    end. ``None`` when a try found none."""
    rules = record.rules
    state, _ = replayed(rules, record.deal, record.moves[:k])
    hidden = unseen(state, seat)
    if len(hidden) < 2:
        return None
    deal = record.deal
    for _ in range(rng.randint(1, 3)):
        a, b = rng.sample(hidden, 2)
        deal = swap_cards(deal, a, b)
    other, n = replayed(rules, deal, record.moves[:k])
    if deal == record.deal or n < k or seat_view(other, seat) != seat_view(state, seat):
        return None
    other, n = replayed(rules, deal, record.moves)
    made = list(record.moves[:n])
    bots = [make_bot("intermediate", seed=s) for s in range(rules.players)]
    while not other.over:
        move = bots[other.turn].choose(seat_view(other, other.turn))
        made.append(move)
        other.apply(move)
    return Record(rules, deal, tuple(made))


def common(a: Record, b: Record) -> int:
    """How many moves the two records begin with alike."""
    n = 0
    for x, y in zip(a.moves, b.moves, strict=False):
        if x != y:
            break
        n += 1
    return n


@pytest.mark.parametrize(("game", "options"), TABLES, ids=lambda x: str(x))
def test_a_seat_with_the_same_view_gets_the_same_analysis(
    game: str, options: dict[str, str]
) -> None:
    rules = Rules.make(game, options)
    talks = bool(options) or game in ("chiamata", "schembil")
    rng = random.Random(game + str(options))
    for attempt in range(80):
        record = played_hand(rules, attempt)
        seat = attempt % rules.players
        mine = [i for i, m in enumerate(record.moves) if m.seat == seat]
        k = mine[len(mine) * 2 // 3]  # late enough for many decisions before it
        found = twin(record, seat, k, rng)
        if found is None:
            continue
        same = common(record, found)
        assert same > k
        # (a talk decision's choices go on with the seat's next moves: those, too, alike)
        upto = [i for i in mine if i <= k and i + len(following(record.moves, i)) < same]
        if not talks or any(isinstance(record.moves[i], TALK) for i in upto):
            break
    else:
        raise AssertionError(f"{game}: no twin deal found in 80 hands")
    assert found.deal != record.deal
    # (two players: both seats analysed, as the server does, the search's transposition
    # table kept across the hand's decisions of both)
    seats = None if rules.players == 2 else [seat]
    first = analyse_hand(record, seed=7, seats=seats, config=QUICK_SEARCH, talk_worlds=3)
    second = analyse_hand(found, seed=7, seats=seats, config=QUICK_SEARCH, talk_worlds=3)
    ours = [d for d in first.decisions if d.move_number in upto]
    theirs = [d for d in second.decisions if d.move_number in upto]
    assert len([d for d in ours if d.label != "forced"]) >= 2, "decisions to compare"
    if talks:
        assert any(isinstance(d.played, TALK) for d in ours), "talk, a bid or a call compared"
    for a, b in zip(ours, theirs, strict=True):
        assert a == b, (
            f"{game}: move {a.move_number} of seat {seat} analysed differently in a deal that "
            "differs only in cards it could not see"
        )


@pytest.mark.parametrize(("game", "options"), TABLES, ids=lambda x: str(x))
def test_a_hint_is_the_same_for_the_same_view_and_names_its_best_choice(
    game: str, options: dict[str, str]
) -> None:
    """A hint, too, reads the asker's view alone; and its card is the first of its
    figures as shown: the best chance to win the hand in whole percent, then the most
    points (the points alone where the strong player plays for them: Briscolone)."""
    rules = Rules.make(game, options)
    rng = random.Random(game + str(options))
    for attempt in range(80):
        record = played_hand(rules, attempt)
        seat = attempt % rules.players
        cards = [i for i, m in enumerate(record.moves) if m.seat == seat and isinstance(m, Play)]
        k = cards[len(cards) // 2]
        state, _ = replayed(rules, record.deal, record.moves[:k])
        if len([a for a in seat_view(state, seat).legal if isinstance(a, Play)]) < 2:
            continue
        found = twin(record, seat, k, rng)
        if found is not None:
            break
    else:
        raise AssertionError(f"{game}: no twin deal found in 80 hands")
    other, _ = replayed(rules, found.deal, found.moves[:k])
    assert seat_view(other, seat) == seat_view(state, seat)
    first = hint(state, seat, seed=k, config=QUICK_SEARCH)
    assert hint(other, seat, seed=k, config=QUICK_SEARCH) == first
    body = first.to_json()
    assert body["aim"] == ("points" if game == "briscolone" else "win")

    def shown(c: dict[str, Any]) -> tuple[int, float]:
        return (c["win_percent"] or 0, float(tenths(c["expected_points"])))

    top = max(shown(c) for c in body["choices"])
    [its] = [c for c in body["choices"] if c["action"] == body["suggested"]]
    assert shown(its) == top
    for c in body["choices"]:
        assert (c["win_percent"] is None) == (game == "briscolone")
        assert c["win_percent"] is None or 0 <= c["win_percent"] <= 100
