"""``briscola analyse``: what each card of finished hands cost (:mod:`briscola.analysis`),
for the records ``replay`` takes and match records, as text (each trick with its marks)
or JSON (docs/records.md, "Analysis")."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.markup import escape

from briscola.analysis import Decision, HandAnalysis, analyse_hand, tenths
from briscola.analysis.hand import MARKED, played
from briscola.engine import MalformedError, parse_record, replay
from briscola.engine.actions import Action, Bid, Call, Exchange, Pass, Play
from briscola.engine.game_record import Record
from briscola.engine.match import MatchRecord, parse_match_record
from briscola.engine.state import GameState
from briscola.terminal.cli.common import JsonFlag, err, out
from briscola.terminal.cli.records import Records
from briscola.words.cards import STYLE_OF_DECK
from briscola.words.narrate import describe_action
from briscola.words.seating import RECORD, Lettered, Voice


class Level(StrEnum):
    strong = "strong"
    champion = "champion"


MARKS = {"best": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??", "forced": ""}
"""Each label as chess writes it after a move."""


def parse_any(value: object) -> Record | MatchRecord:
    """A hand record, or a match record (one that holds ``hands``)."""
    if isinstance(value, dict) and "hands" in value and "deal" not in value:
        return parse_match_record(value)
    return parse_record(value)


def analyse_cmd(
    file: Annotated[
        str,
        typer.Argument(help="A file of hand or match records (JSON, or JSON Lines); - for stdin."),
    ],
    as_json: JsonFlag = False,
    seat: Annotated[
        list[int] | None,
        typer.Option("--seat", help="Analyse this seat's decisions alone (again for more seats)."),
    ] = None,
    level: Annotated[
        Level, typer.Option("--level", help="The search that values each choice.")
    ] = Level.strong,
    seed: Annotated[int, typer.Option("--seed", help="The search's seed.", min=0)] = 0,
    all_cards: Annotated[
        bool,
        typer.Option(
            "--all-cards",
            help="Value each choice with every card seen (the cards as they lay), not from "
            "what its seat knew: other values, labelled as such.",
        ),
    ] = False,
) -> None:
    """Say what each card of finished hands cost, from what its seat knew then.

    Every legal choice is valued in the card points its side would take to the end of the
    hand; each decision gets the points it lost against the best choice and a mark, each
    seat its total loss and accuracy (docs/analysis.md).

    Exit status 2 for a malformed record or one that cannot be analysed (a hand not
    played to its end, a seat the table does not have), 1 for an illegal move, 0
    otherwise.
    """
    records = Records(file, as_json)
    seats = None if seat is None else sorted(set(seat))
    for line, record in records.each(parse_any):
        hands = list(record.hands) if isinstance(record, MatchRecord) else [record]
        for i, hand in enumerate(hands):
            where = f"{file}, line {line}" + (f", hand {i + 1}" if len(hands) > 1 else "")
            checked = replay(hand)
            if checked.error is not None:
                err.print(f"[bold red]illegal move:[/] {escape(where)}: {checked.error.message()}")
                records.status = max(records.status, 1)
                continue
            if not checked.state.over and isinstance(record, MatchRecord):
                continue  # the hand in play of a match record: not analysed yet
            try:
                found = analyse_hand(
                    hand, level.value, seed, seats, hand=i, seen="all" if all_cards else "seat"
                )
            except MalformedError as e:
                err.print(f"[bold red]error:[/] {escape(f'{where}: {e}')}")
                if as_json:
                    print(json.dumps({"line": line, "hand": i, "error": str(e)}))
                records.status = 2
                continue
            if as_json:
                print(json.dumps({"line": line, **found.to_json()}))
            else:
                print_analysis(hand, found, line)
    raise typer.Exit(records.status)


def print_analysis(record: Record, found: HandAnalysis, line: int) -> None:
    """The hand trick by trick, each card with its mark; then what each seat lost, and
    its two costliest decisions."""
    seen = " · [bold]with every card seen[/]" if found.seen == "all" else ""
    out.print(
        f"[bold]line {line}, hand {found.hand + 1}[/] · {found.game} · analysed by "
        f"{found.level}{seen}"
    )
    by_move = {d.move_number: d for d in found.decisions}
    voice = Lettered(style=STYLE_OF_DECK[record.rules.game.deck_name])
    state = GameState(record.rules, record.deal)
    cards: list[str] = []
    notes: list[str] = []
    bids = any(isinstance(m, Bid | Pass | Call) for m in record.moves)
    opening = "auction" if bids else "talk"
    for i, move in enumerate(record.moves):
        tricks = len(state.tricks)
        decision = by_move.get(i)
        if isinstance(move, Play) and not state.tricks and not state.trick and cards + notes:
            # the auction, or the talk before the first card: a line of their own
            out.print(f"{opening:<9} {'  '.join(cards)}")
            for note in notes:
                out.print(f"          {note}")
            cards, notes = [], []
        if isinstance(move, Play):
            cards.append(f"{move.seat}:{voice.card(move.card)}{mark(decision)}")
        elif isinstance(move, Exchange):
            cards.append(f"{move.seat} exchanges {voice.card(move.card)}{mark(decision)}")
        elif decision is not None and decision.label in MARKED:
            cards.append(f"{move.seat} {said(move, voice)}{mark(decision)}")
        if decision is not None and decision.label not in ("best", "forced"):
            notes.append(explain(decision, voice))
        state = played(state, move)
        if len(state.tricks) > tricks:
            trick = state.tricks[-1]
            out.print(
                f"trick {len(state.tricks):>2}  {'  '.join(cards)}"
                f"   → {trick.winner} takes {trick.points}"
            )
            for note in notes:
                out.print(f"          {note}")
            cards, notes = [], []
    for summary in found.seats:
        worst = found.costliest(summary.seat)
        costliest = ", ".join(f"{said(d.played, voice)} {at(d)} ({tenths(d.loss)})" for d in worst)
        out.print(
            f"seat {summary.seat}  lost {tenths(summary.total_loss)} points, accuracy "
            f"{tenths(summary.accuracy)}" + (f"  (costliest: {costliest})" if costliest else "")
        )


def at(decision: Decision) -> str:
    """When a decision was made, in words: at the auction, before the first card, or at
    its trick."""
    if decision.when == "auction":
        return "at the auction"
    if decision.when == "before_play":
        return "before the first card"
    return f"at trick {decision.trick}"


def mark(decision: Decision | None) -> str:
    return "" if decision is None else MARKS[decision.label]


def said(action: Action, voice: Voice = RECORD, talking: bool = False) -> str:
    """A choice in a few words: a card (``play`` and a card, at a talk, a bid or a
    call: saying nothing more), an exchange, or a talk, bid or call as a menu says it;
    the cards as ``voice`` writes them (the deck's letters: ``Fs``, ``bid re (R)``)."""
    if isinstance(action, Play):
        return f"play {voice.card(action.card)}" if talking else voice.card(action.card)
    if isinstance(action, Exchange):
        return f"exchanging {voice.card(action.card)}"
    return describe_action(action.to_json(), voice)


def explain(d: Decision, voice: Voice = RECORD) -> str:
    """``seat 1's Ad?: a mistake, 5.2 points lost (4b was best: 30.4 against 25.2)``."""
    values: dict[Any, float | None] = {c.action: c.expected_points for c in d.choices}
    best, chosen = values[d.best], values[d.played]
    assert best is not None and chosen is not None  # (a marked decision is not forced)
    talking = not isinstance(d.played, Play | Exchange)
    return (
        f"seat {d.seat}'s {said(d.played, voice)}{MARKS[d.label]}: {article(d.label)} "
        f"{d.label}, {tenths(d.loss)} points lost ({said(d.best, voice, talking)} was best: "
        f"{tenths(best)} against {tenths(chosen)})"
    )


def article(label: str) -> str:
    return "an" if label[0] in "aeiou" else "a"
