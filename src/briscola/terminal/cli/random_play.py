"""``briscola simulate`` and ``briscola demo``: hands of random legal play, every seat a
:class:`~briscola.ai.bot.RandomBot` of the one generator the deals come from, so that a
seed fixes the whole game."""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Annotated

import typer

from briscola.engine import GameState, Rules, shuffled_deal
from briscola.engine.record import Replay
from briscola.terminal.cli.common import GameOption, JsonFlag, RuleOption, make_rules, out
from briscola.terminal.cli.records import seats_words, who_win
from briscola.words.cards import STYLE_OF_DECK, short, suit_name
from briscola.words.narrate import Narrator, describe_points, record_json
from briscola.words.seating import Lettered

if TYPE_CHECKING:
    from briscola.host import Table as TableHost


def random_table(rules: Rules, rng: random.Random, dealer: int) -> TableHost:
    """A hand dealt with ``rng``, a :class:`~briscola.ai.bot.RandomBot` of ``rng`` at every
    seat."""
    from briscola.ai.bot import RandomBot  # here: the players' package loads slowly
    from briscola.host import Table as TableHost

    state = GameState(rules, shuffled_deal(rules, dealer, rng))
    player = RandomBot(rng=rng)
    return TableHost(state, dict.fromkeys(range(rules.players), player))


def random_game(
    rules: Rules, rng: random.Random, dealer: int, told: bool = True
) -> tuple[GameState, list[str]]:
    """Play a hand of random legal moves; return its end and, when ``told``, the lines
    that tell it (narrated as it is played, since a line reads the state of its time)."""
    table = random_table(rules, rng, dealer)
    narrator = record_narrator(table) if told else None
    lines: list[str] = []
    while not table.over:
        step = table.run_bot()
        if narrator is not None:
            lines.extend(narrator.tell(list(record_json(step.events))))
    return table.state, lines


def record_narrator(table: TableHost) -> Narrator:
    """The records' narrator of ``table``'s hand, told its deal (which says nothing): seats
    by number, cards as the table's deck shows them (``Rc``, the re of coppe)."""
    rules = table.state.rules
    narrator = Narrator(rules, Lettered(style=STYLE_OF_DECK[rules.game.deck_name]))
    narrator.tell(list(record_json(table.opening())))
    return narrator


def simulate(
    game: GameOption = "briscola-2",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many hands.")] = 1,
    seed: Annotated[int, typer.Option(help="Seed of the deals and of the random play.")] = 0,
    rule: RuleOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Play random legal hands: one trick by trick, or many summed up.

    One hand (the default) is printed with its deal, every trick and the result; with
    --games N the hands are only counted: wins, mean points and tricks of each side.
    With --json, one hand is printed as its record (which `briscola replay` reads), many
    as a summary.
    """
    rules = make_rules(game, rule)
    rng = random.Random(seed)
    if games == 1:
        state, lines = random_game(rules, rng, 0)
        if as_json:
            print(json.dumps(state.to_record()))
            return
        print_deal(state)
        for line in lines:
            out.print(line)
        print_replay_footer(state)
        return
    sides = len(rules.sides)
    wins = [0] * sides
    totals = [0] * sides
    ties = 0
    tricks = 0
    for g in range(games):
        state, _ = random_game(rules, rng, g % rules.players, told=False)
        won = set(state.winners())
        for i, side in enumerate(rules.sides):
            wins[i] += bool(won & set(side))
            totals[i] += sum(state.seat_points[s] for s in side)
        ties += not won
        tricks += len(state.tricks)
    summary = {
        "game": rules.key,
        "rules": rules.overrides(),
        "games": games,
        "seed": seed,
        "sides": [list(s) for s in rules.sides],
        "wins": wins,
        "ties": ties,
        "mean_points": [t / games for t in totals],
        "mean_tricks": tricks / games,
    }
    if as_json:
        print(json.dumps(summary))
        return
    out.print(f"{games} random hands of {rules.key} (seed {seed}); dealer rotating")
    width = max(len(seats_words(side, "+")) for side in rules.sides)
    for side, w, t in zip(rules.sides, wins, totals, strict=True):
        seats = seats_words(side, "+")
        out.print(f"  {seats:{width}s} won {w:6d}  mean points {t / games:6.2f}")
    out.print(f"  hands with no winner {ties}; {tricks / games:.1f} tricks a hand")


def print_deal(state: GameState) -> None:
    deal = state.deal
    rules = state.rules
    out.print(f"[bold]{rules.game.name}[/] ({rules.key}), dealer seat {deal.dealer}")
    style = STYLE_OF_DECK[rules.game.deck_name]
    for s, h in enumerate(deal.hands):
        out.print(f"  seat {s}: {' '.join(short(c, style) for c in h)}")
    if deal.trump is not None:
        trump = suit_name(deal.trump.suit, style, "en")
        out.print(f"  turned card {short(deal.trump, style)}: trump is {trump}")
    elif rules.key == "chiamata":
        out.print("  no turned card: the suit of the card the auction's winner calls is trump")
    else:
        out.print("  no trump")


def print_replay_footer(state: GameState) -> None:
    won = state.winners()
    result = who_win(won) if won else "no winner"
    out.print(f"points  {describe_points(state.sides, state.points)}: {result}")
    score = Replay(state).to_json().get("score")
    if score is not None:
        out.print(f"score   {'  '.join(f'{s}: {x:+d}' for s, x in enumerate(score))}")


def demo(
    game: GameOption = "briscola-2",
    seed: Annotated[
        int | None, typer.Option(help="Seed for a repeatable game (default: a fresh deal).")
    ] = None,
    rule: RuleOption = None,
) -> None:
    """Watch a hand of random play, trick by trick.

    Every seat plays a random legal card; each seat's hand is shown before each trick.
    """
    rules = make_rules(game, rule)
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    table = random_table(rules, rng, rules.players - 1)
    narrator = record_narrator(table)
    state = table.state
    print_deal(state)
    out.print()
    shown_at = -1
    style = STYLE_OF_DECK[rules.game.deck_name]
    while not table.over:
        if not state.trick and state.phase == "play" and shown_at != len(state.tricks):
            shown_at = len(state.tricks)
            hands = "  ".join(
                f"seat {s}: {' '.join(short(c, style) for c in h)}"
                for s, h in enumerate(state.hands)
            )
            out.print(f"[dim]{hands}[/]")
        step = table.run_bot()  # the demo shows every seat: the events as they are
        for line in narrator.tell(list(record_json(step.events))):
            out.print(line)
    print_replay_footer(state)
