"""The table host on its own: every game of the conformance suite played through it by
random computer players; each seat is handed only what it may see, each bot is told of
each hand once before it chooses, the records replay to the same result, an action from
the wrong seat is refused with nothing changed, and a bot's move runs off the caller's
thread."""

from __future__ import annotations

import asyncio
import json
import random
import threading

import pytest

from briscola.ai.bot import BotError, Guarded
from briscola.engine import (
    Card,
    GameState,
    IllegalActionError,
    MalformedError,
    Match,
    NotYourTurnError,
    Play,
    Rules,
    View,
    parse_record,
    replay,
    shuffled_deal,
)
from briscola.engine.actions import Action
from briscola.engine.match import PartnersDrawn
from briscola.host import Table
from briscola.session import Session
from helpers import CONFIGS, Known, config_id

MOST_HANDS = 3


class Recorder:
    """A random player that notes every call: ``("new", hand, move)`` for ``new_hand``,
    ``("choose", hand, move)`` for ``choose``, and the views it was given."""

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        self.calls: list[tuple[str, int | None, int]] = []
        self.views: list[View] = []

    def new_hand(self, view: View) -> None:
        assert view.seat == self.seat
        self.calls.append(("new", view.hand_number, len(view.tricks)))
        self.views.append(view)

    def choose(self, view: View) -> Action:
        assert view.seat == self.seat and view.legal
        self.calls.append(("choose", view.hand_number, len(view.tricks)))
        self.views.append(view)
        return self.rng.choice(view.legal)


def play_match(key: str, options: dict[str, object], game: int) -> None:
    rules = Rules.make(key, options)
    rng = random.Random(f"host {config_id(key, options)} {game}")
    match = Match(rules, rng, dealer=rng.randrange(rules.players))
    bots = {s: Recorder(s, rng.randrange(10**9)) for s in range(rules.players)}
    table = Table(match, bots)
    draw = {c for e in table.opening() if isinstance(e, PartnersDrawn) for c in e.cards}
    seats: list[int | None] = [*range(rules.players), None]
    known = Known(match.hand, draw)
    played = set()
    while not table.over and match.number <= MOST_HANDS:
        hand = table.state
        played.add(match.number)
        step = table.run_bot()
        assert step.hand is hand and step.action == hand.moves[-1]
        known.update()
        after = known if match.hand is hand else Known(match.hand, draw)
        for seat in seats:
            now = known
            for e in step.to_json(seat):
                if e["type"] == "hand_started":
                    now = after
                now.check(seat, e, f"event {e}")
            assert len(step.seen(seat)) == len(step.to_json(seat))
        for bot in bots.values():  # the views given during this step, all of this hand
            for view in bot.views:
                known.check(bot.seat, view.to_json(), "a view given to its bot")
            bot.views.clear()
        known = after
    for seat, bot in bots.items():
        told = [number for kind, number, _ in bot.calls if kind == "new"]
        assert len(told) == len(set(told)) == table.told[seat]  # once per hand
        assert set(told) >= {n for kind, n, _ in bot.calls if kind == "choose"}
        for number in told:  # told before its first choice of the hand, at the start
            calls = [c for c in bot.calls if c[1] == number]
            assert calls[0][0] == "new" and calls[0][2] == 0
    # The records: one per finished hand played, each replays to the hand's end; the
    # match record rebuilds the same match.
    finished = [h for h in match.finished if h.moves]
    assert [json.dumps(r) for r in table.records] == [json.dumps(h.to_record()) for h in finished]
    for record, hand in zip(table.records, finished, strict=True):
        again = replay(parse_record(record))
        assert again.error is None and again.state.points == hand.points
    rebuilt = Match.from_record(table.record(), rng=random.Random(0))
    assert rebuilt.result() == match.result()


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=[config_id(k, o) for k, o in CONFIGS])
def test_every_game_is_hosted_safely(key: str, options: dict[str, object]) -> None:
    for game in range(2):
        play_match(key, options, game)


def snapshot(table: Table) -> str:
    return json.dumps([table.record(), table.records, table.think, table.moves])


def test_an_action_from_the_wrong_seat_is_refused_and_changes_nothing() -> None:
    rules = Rules.make("briscola-4")
    table = Table(Match(rules, random.Random(2)), {1: Recorder(1, 1), 3: Recorder(3, 3)})
    while table.turn != 0:
        seat = table.turn
        assert seat is not None
        if table.is_bot(seat):
            table.run_bot()
        else:
            table.act(seat, table.view(seat).legal[0])
    before = snapshot(table)
    mine = table.view(0).legal[0]
    assert isinstance(mine, Play)
    with pytest.raises(NotYourTurnError, match="seat 0's turn, not seat 2's"):
        table.act(2, Play(2, mine.card))
    with pytest.raises(NotYourTurnError, match="seat 0 cannot act for seat 2"):
        table.act(0, Play(2, mine.card))
    with pytest.raises(NotYourTurnError, match="no computer player's"):
        table.run_bot()
    other = next(c for c in table.state.hands[2])
    with pytest.raises(IllegalActionError, match="does not hold"):
        table.act(0, Play(0, other))
    with pytest.raises(MalformedError):
        table.act(0, "5b")  # type: ignore[arg-type]
    assert snapshot(table) == before
    step = table.act(0, mine)
    assert step.seat == 0 and step.action == mine


class Thread:
    """A bot that notes the thread it chooses in, and waits for the caller's event loop to
    answer first (so it would hang if it chose on the loop)."""

    def __init__(self, answered: threading.Event) -> None:
        self.answered = answered
        self.threads: list[int] = []

    def choose(self, view: View) -> Action:
        self.threads.append(threading.get_ident())
        assert self.answered.wait(10), "the event loop did not run while the bot thought"
        return view.legal[0]


def test_a_bot_moves_off_the_callers_thread_while_its_loop_runs() -> None:
    rules = Rules.make("briscola-2")
    answered = threading.Event()
    bot = Thread(answered)
    table = Table(GameState(rules, shuffled_deal(rules, 1, random.Random(1))), {0: bot})

    async def main() -> None:
        move = asyncio.ensure_future(table.bot_move())
        await asyncio.sleep(0)
        answered.set()  # the loop runs on while the bot thinks
        step = await move
        assert step.seat == 0

    asyncio.run(main())
    assert bot.threads and threading.get_ident() not in bot.threads


class Illegal:
    """Plays an ace it does not hold."""

    def choose(self, view: View) -> Action:
        aces = [Card.parse(f"A{suit}") for suit in "bcds"]
        assert view.seat is not None
        return Play(view.seat, next(c for c in aces if c not in view.hand))


class Raises:
    def choose(self, view: View) -> Action:
        raise RuntimeError("boom\nsecond line")


def test_a_bot_that_fails_gives_a_one_line_error_naming_it() -> None:
    rules = Rules.make("briscola-2")
    deal = shuffled_deal(rules, 1, random.Random(1))
    table = Table(GameState(rules, deal), {0: Illegal()}, {0: "illegal.bot"})
    before = snapshot(table)
    with pytest.raises(BotError, match=r"^the bot illegal.bot at seat 0: seat 0 does not hold"):
        table.run_bot()
    assert json.loads(snapshot(table))[:2] == json.loads(before)[:2]  # no move was made
    guarded = Guarded(Raises(), "raises.py:Bot", 5.0)
    table = Table(GameState(rules, deal), {0: guarded})
    with pytest.raises(BotError) as e:
        table.run_bot()
    assert str(e.value).count("\n") == 0 and "raises.py:Bot at seat 0 failed in choose" in str(
        e.value
    )


def test_the_terminal_session_tells_its_bots_of_each_hand_once() -> None:
    rules = Rules.make("briscola-2", {"match": "best-of-5"})
    bot = Recorder(1, 1)
    session = Session(rules, 0, {1: bot}, random.Random(3))
    session.opening()
    while not session.over:
        if session.my_turn():
            session.act(session.view().legal[0])
        else:
            session.run_one_bot()
    told = [n for kind, n, _ in bot.calls if kind == "new"]
    assert told == list(range(1, session.match.number + 1))
    assert len(session.records) == session.match.number


def test_a_player_of_legal_actions_alone_is_given_no_view() -> None:
    """A player with ``choose_legal`` (random play in simulate and demo) gets the legal
    actions and the host builds no view for it: the same choice, at a third of the cost."""

    class Legal:
        def __init__(self) -> None:
            self.given: list[object] = []

        def choose(self, view: object) -> object:
            raise AssertionError("the host built a view")

        def choose_legal(self, legal: list[object]) -> object:
            self.given.append(legal)
            return legal[0]

    rules = Rules.make("briscola-2")
    state = GameState(rules, shuffled_deal(rules, 1, random.Random(2)))
    players = {0: Legal(), 1: Legal()}
    table = Table(state, players)  # type: ignore[arg-type]
    while not table.over:
        seat, expected = state.turn, state.legal_actions()
        table.run_bot()
        assert players[seat].given[-1] == expected
    assert all(p.given for p in players.values()) and state.over
