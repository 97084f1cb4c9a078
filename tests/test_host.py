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
    match_view,
    parse_record,
    replay,
    seat_events,
    shuffled_deal,
)
from briscola.engine.actions import Action
from briscola.engine.match import PartnersDrawn
from briscola.host import Table
from briscola.terminal.local import Session
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
    table = Table(match, bots, keep=100_000)
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
    check_streams(table, Table(rebuilt, {}))


def check_streams(table: Table, rebuilt: Table) -> None:
    """Each audience's stream, read from the start, is what it sees of the match's events,
    in order, numbered 0, 1, 2...: one message for each action that showed it something.
    A table rebuilt from the match's record numbers every stream the same."""
    match = table.match
    assert match is not None
    assert table.version == len(match.ends) - 1 == rebuilt.version
    for audience in [*range(match.rules.players), None]:
        messages = table.messages(audience, 0)
        assert messages is not None
        assert [m.number for m in messages] == list(range(table.number(audience) + 1))
        told = [e for m in messages for e in m.events]
        assert told == seat_events(match.events, audience)
        assert all(m.events for m in messages[1:])
        assert rebuilt.number(audience) == table.number(audience)
        assert table.messages(audience, table.number(audience)) == []
        assert table.messages(audience, table.number(audience) + 1) is None


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


def test_a_signal_for_partners_moves_only_their_streams() -> None:
    """An opponent's numbers, and its view's ``move_number``, never tell it that a signal
    it could not see was made: only the signaller's side has a message more."""
    rules = Rules.make("briscola-4", {"communication": "signals", "signal_audience": "partner"})
    table = Table(Match(rules, random.Random(5)), {})
    rng = random.Random(5)
    signals = 0
    while not table.over and signals < 20:
        seat = table.turn
        assert seat is not None
        legal = table.view(seat).legal
        said = [a for a in legal if type(a).__name__ == "Signal"]
        before = {a: (table.number(a), table.view(a).to_json()) for a in (0, 1, 2, 3, None)}
        if not said:
            table.act(seat, rng.choice(legal))
            continue
        signals += 1
        table.act(seat, said[0])
        side = {seat, (seat + 2) % 4}
        for audience, (number, view) in before.items():
            if audience in side:
                assert table.number(audience) == number + 1
            else:
                assert table.number(audience) == number
                assert table.view(audience).to_json() == view
                told = table.messages(audience, number) or []
                assert [m.number for m in told] == ([0] if number == 0 else [])
    assert signals == 20


def test_a_stream_not_kept_asks_for_a_snapshot() -> None:
    rules = Rules.make("briscola-2")
    table = Table(Match(rules, random.Random(1)), {0: Recorder(0, 0), 1: Recorder(1, 1)}, keep=3)
    for _ in range(5):
        table.run_bot()
    assert table.number(0) == 5
    assert table.messages(0, 0) is None  # the start and the first messages are gone
    assert table.messages(0, 1) is None
    assert [m.number for m in table.messages(0, 2) or []] == [3, 4, 5]
    assert [m.version for m in table.messages(None, 4) or []] == [5]


def test_a_bot_seated_during_the_hand_is_told_of_it_as_it_stands() -> None:
    rules = Rules.make("briscola-2")
    table = Table(Match(rules, random.Random(3)), {1: Recorder(1, 1)})
    while table.turn != 0 or table.version < 4:
        seat = table.turn
        if table.is_bot(seat):
            table.run_bot()
        else:
            assert seat is not None
            table.act(seat, table.view(seat).legal[0])
    version, tricks = table.version, len(table.state.tricks)
    stand_in = Recorder(0, 7)
    table.seat_bot(0, stand_in, "stand-in")

    async def main() -> tuple[int, Action]:
        return await table.bot_choice()

    seat, action = asyncio.run(main())
    assert seat == 0 and table.version == version  # chosen, not applied
    assert stand_in.calls[0] == ("new", 1, tricks) and stand_in.calls[1][0] == "choose"
    table.play_bot(seat, action)
    assert table.version == version + 1
    table.unseat_bot(0)
    while table.turn != 0:
        table.run_bot()
    with pytest.raises(NotYourTurnError, match="no computer player's"):
        table.run_bot()
    with pytest.raises(BotError, match="at seat 0"):
        table.seat_bot(0, Illegal(), "illegal")
        table.run_bot()


def test_a_view_changes_only_with_an_event_its_audience_sees() -> None:
    """What an audience may know changes only through the events it is shown: a stream
    with no message for an action has nothing new to show (every game of the suite)."""
    for key, options in CONFIGS:
        rules = Rules.make(key, options)
        rng = random.Random(f"views {config_id(key, options)}")
        table = Table(Match(rules, rng, 0), {})
        audiences: list[int | None] = [*range(rules.players), None]
        views = {a: table.view(a).to_json() for a in audiences}
        numbers = {a: table.number(a) for a in audiences}
        for _ in range(120):
            if table.over:
                break
            seat = table.turn
            assert seat is not None
            table.act(seat, rng.choice(table.view(seat).legal))
            for a in audiences:
                view = table.view(a).to_json()
                if table.number(a) == numbers[a]:
                    assert view == views[a], (key, options, a)
                views[a], numbers[a] = view, table.number(a)


def watch_late(key: str, options: dict[str, object]) -> None:
    """A table whose spectators are held one trick late, played by random players: after
    every action the spectators' view, number and stream are the table's as it stood just
    before the first card of the trick in play (of the last trick taken, while no card of
    the next is down), everything once the hand is over; a table rebuilt from the record
    holds them at the same place."""
    rules = Rules.make(key, options)
    rng = random.Random(f"late {config_id(key, options)}")
    match = Match(rules, rng, dealer=rng.randrange(rules.players))
    bots = {s: Recorder(s, rng.randrange(10**9)) for s in range(rules.players)}
    table = Table(match, bots, keep=100_000, late=True)
    live = [match_view(match, None).to_json()]
    numbers = [0]
    while not table.over and match.number <= 2:
        hand = table.state
        step = table.run_bot()
        live.append(match_view(match, None).to_json())
        numbers.append(numbers[-1] + (1 if step.to_json(None) else 0))
        held = table.held_at()
        seen = table.view(None)
        assert seen.trick == ()  # never a card of the trick in play
        if hand.over or table.over:
            assert held is None  # the hand's end gives everything at once
        if held is None:
            assert seen.to_json() == live[-1]
            assert table.number(None) == numbers[-1]
            continue
        taken = len(hand.tricks) - (0 if hand.trick else 1 if hand.tricks else 0)
        assert len(seen.tricks) == taken
        assert seen.to_json() == live[held]
        assert table.number(None) == numbers[held]
        messages = table.messages(None, 0)
        assert messages is not None
        assert [e for m in messages for e in m.events] == seat_events(
            match.events[: match.ends[held]], None
        )
        if table.version % 7 == 0:
            rebuilt = Table(Match.from_record(table.record(), rng=random.Random(0)), {}, late=True)
            assert rebuilt.held_at() == held
            assert rebuilt.number(None) == table.number(None)
            assert rebuilt.view(None) == seen


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=[config_id(k, o) for k, o in CONFIGS])
def test_spectators_of_a_late_table_see_each_trick_once_the_next_has_begun(
    key: str, options: dict[str, object]
) -> None:
    watch_late(key, options)


def test_the_seats_of_a_late_table_are_not_held() -> None:
    rules = Rules.make("briscola-2")
    table = Table(Match(rules, random.Random(2)), {0: Recorder(0, 0), 1: Recorder(1, 1)}, late=True)
    table.run_bot()
    assert len(table.view(0).trick) == len(table.view(1).trick) == 1
    assert table.view(None).trick == () and table.number(None) == 0
    assert [m.number for m in table.messages(0, 0) or []] == [0, 1]
    assert [m.number for m in table.messages(None, 0) or []] == [0]
    assert table.messages(None, 1) is None  # a number the spectators have not reached
