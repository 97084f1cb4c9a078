"""A finished hand analysed decision by decision (:func:`analyse_hand`), and a match's
hands (:func:`analyse_match`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from briscola.ai.search.config import SearchConfig
from briscola.analysis.marks import accuracy, label
from briscola.analysis.talk import TALK, asked, talk_choices, talk_values
from briscola.analysis.values import LEVELS, Values, choice_values, open_values
from briscola.engine.actions import Action, Bid, Call, Exchange, Pass, Play
from briscola.engine.errors import IllegalActionError, MalformedError
from briscola.engine.game_record import Record
from briscola.engine.match import MatchRecord
from briscola.engine.record import replay, talk_ended
from briscola.engine.rules import Rules
from briscola.engine.state import GameState
from briscola.engine.views import seat_view

TOLERANCE = 1e-6
"""Values this close count as equal: the best choice is the first of them."""

COSTLIEST = 2
"""How many of its costliest decisions a seat's summary names."""

MARKED = ("inaccuracy", "mistake", "blunder")
"""The labels of the decisions that lost enough to be marked."""

VERSION = 3
"""The analysis's version, in its JSON: raised whenever the same record, level and seed
would be analysed differently (2: talk, bids and the call valued; 3: each decision's
seed from its seat's view, not the whole deal, and when it was made), so that a server
computes again the analyses it kept from an older one."""

TALK_WORLDS = {"strong": 48, "champion": 160}
"""The worlds a talk, bid or call decision is played out in, by level."""

WHEN = ("auction", "before_play", "play")
"""When a decision was made: at chiamata's auction (a bid, a pass, the call), in talk
before the hand's first card, or in the play."""

SEEN = ("seat", "all")
"""What an analysis's values may be computed from: what each seat knew, or every card."""


@dataclass(frozen=True)
class Choice:
    action: Action
    expected_points: float | None
    """The card points the seat's side takes from the decision to the end of the hand
    after this choice (``None`` for a forced decision, which is not valued)."""

    def to_json(self) -> dict[str, Any]:
        points = None if self.expected_points is None else round(self.expected_points, 2)
        return {"action": self.action.to_json(), "expected_points": points}


@dataclass(frozen=True)
class Decision:
    hand: int
    move_number: int
    """The move's index in the hand's record (its ``moves``), from 0."""
    trick: int
    """The trick the decision was made at, from 1."""
    seat: int
    choices: tuple[Choice, ...]
    played: Action
    best: Action
    loss: float
    label: str
    exact: bool
    """Whether nothing was hidden from the seat (the values are exact)."""
    when: str = "play"
    """When in the hand it was made (:data:`WHEN`): ``auction`` (a bid, a pass or the
    call), ``before_play`` (talk before the hand's first card), else ``play``."""

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "move_number": self.move_number,
            "trick": self.trick,
            "when": self.when,
            "seat": self.seat,
            "choices": [c.to_json() for c in self.choices],
            "played": self.played.to_json(),
            "best": self.best.to_json(),
            "loss": round(self.loss, 2),
            "label": self.label,
            "exact": self.exact,
        }


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    total_loss: float
    accuracy: float
    decisions: int
    """The seat's decisions analysed, forced ones included."""
    costliest: tuple[int, ...] = ()
    """The ``move_number`` of its :data:`COSTLIEST` marked decisions (an inaccuracy, a
    mistake or a blunder) that lost most, the costliest first (of equal ones, the
    earliest)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "total_loss": round(self.total_loss, 2),
            "accuracy": self.accuracy,
            "decisions": self.decisions,
            "costliest": list(self.costliest),
        }


@dataclass(frozen=True)
class HandAnalysis:
    hand: int
    game: str
    level: str
    decisions: tuple[Decision, ...]
    seats: tuple[SeatSummary, ...]
    seen: str = "seat"
    """What the values were computed from: ``seat`` (what each seat knew then) or
    ``all`` (every card seen)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "hand": self.hand,
            "game": self.game,
            "level": self.level,
            "seen": self.seen,
            "decisions": [d.to_json() for d in self.decisions],
            "seats": [s.to_json() for s in self.seats],
        }

    def costliest(self, seat: int) -> list[Decision]:
        """The seat's costliest decisions (:attr:`SeatSummary.costliest`)."""
        summary = next((s for s in self.seats if s.seat == seat), None)
        moves = {d.move_number: d for d in self.decisions}
        return [moves[m] for m in summary.costliest] if summary is not None else []


def decision_seed(seed: int, state: GameState, seat: int) -> int:
    """The search's seed at ``seat``'s decision in ``state``, from ``seed`` and what the
    seat saw then alone (its view: the public history, its own hand, what the rules showed
    it), never the cards hidden from it, so that two deals that give the seat the same
    view give it the same values. The same hand and seed give the same analysis,
    whichever decisions are analysed and whether the hand is read from its own record or
    from its match's. (With every card seen the values are the deal's by definition; the
    seed is the view's all the same.)"""
    view = json.dumps(seat_view(state, seat).to_json(), sort_keys=True)
    digest = hashlib.sha256(f"{seed}:{view}".encode()).digest()
    return int.from_bytes(digest[:5], "big")


def analyse_hand(
    record: Record,
    level: str = "strong",
    seed: int = 0,
    seats: Collection[int] | None = None,
    hand: int = 0,
    config: SearchConfig | None = None,
    seen: str = "seat",
    talk_worlds: int | None = None,
) -> HandAnalysis:
    """Each decision of a finished hand, for ``seats`` (all by default). Card plays and
    trump exchanges are valued from what its seat knew then
    (:mod:`briscola.analysis.values`) by the search of ``level`` (``config``, when given,
    replaces its settings: for tests and experiments); or, ``seen="all"``, with every card
    seen (:func:`~briscola.analysis.values.open_values`): the other values, a report of
    its own. Talk, bids and calls are valued from the seat's view by playouts
    (:mod:`briscola.analysis.talk`) in ``talk_worlds`` worlds (by default
    :data:`TALK_WORLDS` of the level), whichever ``seen``.

    :raises MalformedError: for an unknown level or ``seen``, a seat the table does not
        have, a record with an illegal move, or a hand not played to its end (its
        analysis would tell what a seat could not know yet).
    """
    if level not in LEVELS:
        raise MalformedError(f"level: one of {', '.join(LEVELS)}, got {level!r}")
    if seen not in SEEN:
        raise MalformedError(f"seen: one of {', '.join(SEEN)}, got {seen!r}")
    players = record.rules.players
    if seats is not None and (bad := sorted(s for s in seats if not 0 <= s < players)):
        raise MalformedError(
            f"seat: this {record.rules.game.key} table has seats 0 to {players - 1}, "
            f"not {', '.join(map(str, bad))}"
        )
    checked = replay(record)
    if checked.error is not None:
        raise MalformedError(f"the record has an illegal move: {checked.error.message()}")
    if not checked.state.over:
        raise MalformedError(
            "the hand is not over: it is analysed once played to its end, as what each "
            "choice was worth would tell what a seat could not know yet"
        )
    config = config or LEVELS[level]
    tt = transpositions(record)
    state = GameState(record.rules, record.deal)
    decisions: list[Decision] = []
    for i, move in enumerate(record.moves):
        if seats is None or move.seat in seats:
            at = decision_seed(seed, state, move.seat)
            found: Decision | None = None
            if isinstance(move, Play | Exchange):
                found = decide(state, move, i, hand, config, at, tt, seen)
            elif isinstance(move, TALK):
                worlds = talk_worlds or TALK_WORLDS[level]
                then = following(record.moves, i)
                found = decide_talk(state, move, then, i, hand, worlds, at, seen == "all")
            if found is not None:
                decisions.append(replace(found, when=when(move, state)))
        state = played(state, move)
    summaries = []
    for seat in range(players):
        if seats is not None and seat not in seats:
            continue
        mine = [d for d in decisions if d.seat == seat]
        free = [d.loss for d in mine if d.label != "forced"]
        marked = [d for d in mine if d.label in MARKED]
        marked.sort(key=lambda d: (-d.loss, d.move_number))
        worst = tuple(d.move_number for d in marked[:COSTLIEST])
        summaries.append(SeatSummary(seat, sum(free), accuracy(free), len(mine), worst))
    return HandAnalysis(
        hand, record.rules.game.key, level, tuple(decisions), tuple(summaries), seen
    )


def when(move: Action, state: GameState) -> str:
    """When ``move``, made in ``state``, was made (:data:`WHEN`)."""
    if isinstance(move, Bid | Pass | Call):
        return "auction"
    if not isinstance(move, Play | Exchange) and not state.tricks and not state.trick:
        return "before_play"
    return "play"


def played(state: GameState, move: Action) -> GameState:
    """``state`` after ``move`` (a move :func:`~briscola.engine.record.replay` took), read
    as ``replay`` reads it: in a Schembil record from before the rais talked out of their
    own lead, the end of their talk is implied (the state is then a new one)."""
    try:
        state.apply(move)
    except IllegalActionError:
        ended = talk_ended(state, move)
        if ended is None:
            raise
        state = ended
        state.apply(move)
    return state


def decide(
    state: GameState,
    move: Play | Exchange,
    move_number: int,
    hand: int,
    config: SearchConfig,
    seed: int,
    tt: object,
    seen: str = "seat",
) -> Decision | None:
    """The decision of ``move``'s seat in ``state``, or ``None`` when the move is not the
    seat's to choose (another phase's); valued as ``seen`` says (:func:`analyse_hand`)."""
    seat = move.seat
    view = seat_view(state, seat)
    options = [a for a in view.legal if isinstance(a, Play | Exchange)]
    if move not in options:
        return None
    trick = len(state.tricks) + 1
    if len(options) == 1:
        return judged(hand, move_number, trick, seat, move, options, None)
    values = (open_values if seen == "all" else choice_values)(state, seat, config, seed, tt)
    return judged(hand, move_number, trick, seat, move, options, values)


def judged(
    hand: int,
    move_number: int,
    trick: int,
    seat: int,
    made: Action,
    options: Sequence[Action],
    values: Values | None,
) -> Decision:
    """The decision to make ``made`` among ``options``: forced (one option, ``values``
    ``None``), or its best choice, loss and label by ``values``."""
    if values is None:
        only = (Choice(made, None),)
        return Decision(hand, move_number, trick, seat, only, made, made, 0.0, "forced", False)
    points = values.points
    top = max(points.values())
    best = next(a for a in options if points[a] >= top - TOLERANCE)
    loss = max(0.0, top - points[made])
    if loss < TOLERANCE:
        loss = 0.0
    choices = tuple(Choice(a, points[a]) for a in options)
    return Decision(
        hand, move_number, trick, seat, choices, made, best, loss, label(loss, len(options)),
        values.exact,
    )  # fmt: skip


def following(moves: Sequence[Action], i: int) -> list[Action]:
    """The moves after move ``i`` by its seat, until another seat's."""
    out = []
    for move in moves[i + 1 :]:
        if move.seat != moves[i].seat:
            break
        out.append(move)
    return out


def decide_talk(
    state: GameState,
    move: Action,
    then: Sequence[Action],
    move_number: int,
    hand: int,
    worlds: int,
    seed: int,
    seen: bool = False,
) -> Decision | None:
    """The decision of ``move`` (a talk, a bid or a call) in ``state``, ``then`` being
    the seat's next moves, its choices valued by
    :func:`~briscola.analysis.talk.talk_values`; ``None`` for a move that was not a choice
    of its seat (an end of talk a record implies)."""
    seat = move.seat
    made = asked(move)
    choices = talk_choices(state, seat, made, then)
    if made not in choices:
        return None
    trick = len(state.tricks) + 1
    if len(choices) == 1:
        return judged(hand, move_number, trick, seat, made, choices, None)
    values = talk_values(state, seat, choices, then, worlds, seed, seen)
    return judged(hand, move_number, trick, seat, made, choices, values)


def transpositions(record: Record) -> object:
    """A transposition table for the two-player search, kept across a hand's decisions
    (``None`` for the other games)."""
    if record.rules.players != 2:
        return None
    try:
        from briscola.ai.cores.head_to_head_solver import Transpositions
    except ImportError:  # pragma: no cover - the ai extra is missing: the search says so
        return None
    return Transpositions()


def analyse_match(
    record: MatchRecord,
    level: str = "strong",
    seed: int = 0,
    seats: Collection[int] | None = None,
    seen: str = "seat",
) -> list[HandAnalysis]:
    """Each finished hand of a match record, analysed (:func:`analyse_hand`); a hand still
    in play is left out."""
    out = []
    for i, hand in enumerate(record.hands):
        if replay(hand).state.over:
            out.append(analyse_hand(hand, level, seed, seats, hand=i, seen=seen))
    return out


def warm(game: str, options: dict[str, Any] | None = None) -> bool:
    """Compile (or load from the disk cache) the search's kernels an analysis of ``game``
    (with the house rules ``options``) runs, by analysing a hand of random play with a
    small search (each way of valuing a decision runs: sampled, the last tricks, exact):
    done in the server's analysis worker while a table plays its first hand, so that the
    hand's analysis does not wait on the compiler (20 to 40 s with no cache, on a busy
    machine: benchmarks/README.md). ``True`` once done."""
    import random

    from briscola.ai import make_bot
    from briscola.engine.deal import shuffled_deal

    rules = Rules.make(game, options or {})
    deal = shuffled_deal(rules, 0, random.Random(0))
    state = GameState(rules, deal)
    bot = make_bot("random", seed=0)
    moves = []
    while not state.over:
        move = bot.choose(seat_view(state, state.turn))
        state.apply(move)
        moves.append(move)
    small = SearchConfig(worlds=8, rollouts=1, table_worlds=8, table_rollouts=1, engine_worlds=4)
    analyse_hand(Record(rules, deal, tuple(moves)), config=small, talk_worlds=1)
    return True


def analyse_json(
    record: dict[str, Any],
    level: str = "strong",
    seed: int = 0,
    hand: int = 0,
    seen: str = "seat",
) -> dict[str, Any]:
    """:func:`analyse_hand` of a hand record's JSON value, as JSON (``briscola analyse
    --json``'s, without ``line``; ``seen="all"``: with ``--all-cards``): what the server's
    worker process computes.

    :raises MalformedError: as :func:`analyse_hand`, and for a malformed record.
    """
    from briscola.engine.game_record import parse_record

    return analyse_hand(parse_record(record), level, seed, hand=hand, seen=seen).to_json()
