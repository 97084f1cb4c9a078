"""No leaks through the real server: whole matches of every game (each communication mode,
schembil's talk, chiamata's auction and call, scoperta, partners showing hands, the last
trick hidden, partners drawn) are played by several people's clients (random legal moves
from their views), computer players in the other seats, and two spectators (one with a
session, one without). Every frame each client receives is scanned: it holds no card the
client may not know at that frame's version, no deal and no salt of a hand not over, and
(the tables are public) nothing a spectator is sent shows a card of the trick in play: it
sees the play one trick late; and it is read back through the protocol's models
(``briscola.server.messages``, strict: the views and events of ``briscola.server.wire``),
the very bytes they write.

What a seat may know is built apart from the server: the match record downloaded at the
end is replayed by the engine move by move, and :class:`helpers.Known` reads from each
state what each seat (and a spectator) may know then. A finished hand is revealed (its
deal and salt), so all of its cards are known from then on.

The totals (frames and games scanned) are written to the terminal at the end of the module
and to ``leak-scan.json`` in pytest's base temporary folder."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

pytest.importorskip("fastapi")

from briscola.engine import Card, Deal, Match, Rules, parse_match_record, seat_events
from briscola.engine.presets import GAMES
from briscola.server.messages import SERVER
from helpers import CARD, Known, config_id
from serverkit import Client, ServerProcess, finished, open_table, play_randomly

# (game, house rules, how many seats people take)
PLAYED: list[tuple[str, dict[str, object], int]] = [
    ("briscola-2", {"match": "one-hand"}, 2),
    (
        "briscola-2",
        {
            "match": "best-of-3",
            "last_trick": "hidden",
            "trump_exchange": "seven-or-two",
            "exchange_timing": "on-turn",
            "sixty_sixty": "replay",
        },
        1,
    ),
    ("briscola-3", {"match": "one-hand", "removed_two": "random", "trump_exchange": "seven"}, 2),
    ("briscola-4", {"match": "one-hand", "show_partner_hands": "yes"}, 2),
    ("briscola-4", {"match": "one-hand", "communication": "signals"}, 2),
    (
        "briscola-4",
        {"match": "one-hand", "communication": "signals", "signal_audience": "table"},
        3,
    ),
    (
        "briscola-4",
        {
            "match": "one-hand",
            "communication": "signals",
            "signal_audience": "spotted",
            "spot_chance": 50,
        },
        2,
    ),
    (
        "briscola-4",
        {"match": "one-hand", "communication": "conversation", "partners": "drawn"},
        2,
    ),
    ("briscola-6", {"match": "one-hand", "communication": "conversation"}, 3),
    (
        "briscola-6",
        {
            "match": "one-hand",
            "communication": "signals",
            "show_partner_hands": "yes",
            "last_trick": "hidden",
        },
        2,
    ),
    ("schembil", {"match": "one-hand", "rais": "2-5"}, 3),
    ("schembil", {"match": "one-hand", "show_partner_hands": "yes"}, 2),
    (
        "chiamata",
        {"target": "hands:1", "leader": "caller", "multipliers": "high-bids", "throw_in": "yes"},
        3,
    ),
    ("chiamata", {"target": "hands:2", "last_trick": "hidden"}, 2),
    ("scoperta", {"match": "one-hand", "trump_exchange": "two"}, 2),
    ("briscolone", {"match": "one-hand"}, 1),
    ("brisca", {"match": "one-hand"}, 2),
    (
        "brisca",
        {
            "match": "one-hand",
            "players": 4,
            "communication": "signals",
            "show_partner_hands": "yes",
        },
        2,
    ),
    ("brisca", {"match": "one-hand", "players": 4, "communication": "conversation"}, 2),
    ("briskula", {"match": "one-hand", "players": 3}, 2),
    (
        "briskula",
        {"match": "one-hand", "players": 4, "teams": "pairs", "communication": "conversation"},
        2,
    ),
    ("briskula", {"match": "one-hand", "players": 6}, 3),
    (
        "briskula-double",
        {
            "match": "one-hand",
            "players": 4,
            "teams": "pairs",
            "communication": "signals",
            "signal_audience": "table",
        },
        2,
    ),
    ("briskula-double", {"match": "one-hand", "players": 2}, 1),
]

SECRET_KEYS = {"deal", "salt", "seed", "stock"}
"""Keys only a revealed hand's entry may hold."""


# -------------------------------------------------------------- what each seat may know


@dataclass
class Moment:
    """What the table was after some number of actions (its version)."""

    hand: int
    """The number of the hand in play (the last hand once the match is over)."""
    finished: int
    """How many hands were over (each then revealed, every card of it known)."""
    known: dict[int | None, frozenset[Card]]
    """What each seat (``None``: a spectator) may know of the hand in play."""
    trick: bool = False
    """Whether a card of a trick was down (the hand in play not over)."""


class Replay:
    """A match record played again by the engine, move by move: :attr:`moments` by the
    table's version, and :meth:`moment` by the number of a seat's own stream (the engine
    says which actions show each seat something)."""

    def __init__(self, record: dict[str, Any]) -> None:
        rec = parse_match_record(record)
        self.rules: Rules = rec.rules
        self.salts = [h["fairness"]["salt"] for h in record["hands"]]
        self.commitments = [h["fairness"]["commitment"] for h in record["hands"]]
        self.deals = [h["deal"] for h in record["hands"]]
        moves = [m for h in rec.hands for m in h.moves]
        # The match as it was dealt: the hands up to the first one played (those before
        # it were thrown in at the deal), none of their moves; the rest dealt on from the
        # record as the moves are applied.
        first = next((i for i, h in enumerate(rec.hands) if h.moves), len(rec.hands) - 1)
        start = {k: v for k, v in record.items() if k != "result"}
        start["hands"] = [
            {k: v for k, v in h.items() if k not in ("moves", "fairness")}
            for h in record["hands"][: first + 1]
        ]
        later: Iterator[Deal] = iter([h.deal for h in rec.hands[first + 1 :]])
        match = Match.from_record(start, deals=lambda rules, dealer: next(later))
        draw = set(rec.draw or ())
        known = Known(match.hand, draw)
        self.moments = [self._moment(match, known)]
        audiences: list[int | None] = [*range(self.rules.players), None]
        self.at: dict[int | None, list[int]] = {a: [0] for a in audiences}
        """By audience, the table's version of each message of its stream, by number."""
        for version, move in enumerate(moves, 1):
            hand = match.hand
            events = match.apply(move)
            for a in audiences:
                if seat_events(events, a):
                    self.at[a].append(version)
            known.update()
            if match.hand is not hand:
                known = Known(match.hand, draw)
            self.moments.append(self._moment(match, known))
        assert match.over and match.result().to_json() == record["result"]
        self.hands = len(match.finished)
        self.seating = rec.seating
        """``seating[seat]``: the seat its player chose (moved by ``partners=drawn``)."""

    def moment(self, seat: int | None, number: int) -> Moment | None:
        """What the table was when ``seat``'s stream reached ``number`` (``None``: no such
        number)."""
        at = self.at[seat]
        return self.moments[at[number]] if 0 <= number < len(at) else None

    def played(self, chose: int | None) -> int | None:
        """The seat a person who chose seat ``chose`` played: the draw's, or their own."""
        return None if chose is None else self.seating.index(chose)

    @staticmethod
    def _moment(match: Match, known: Known) -> Moment:
        return Moment(
            match.number,
            len(match.finished),
            {s: frozenset(cs) for s, cs in known.known.items()},
            bool(match.hand.trick) and not match.hand.over,
        )


# -------------------------------------------------------------- the scan


def cards_in(obj: object) -> Iterator[Card]:
    """Every card named in a JSON value, but in house rules (whose values, like ``2s``,
    are words)."""
    if isinstance(obj, str):
        if CARD.fullmatch(obj):
            yield Card.parse(obj)
    elif isinstance(obj, list):
        for v in obj:
            yield from cards_in(v)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if k not in ("rules", "overrides"):
                yield from cards_in(v)


def keys_in(obj: object) -> Iterator[str]:
    if isinstance(obj, list):
        for v in obj:
            yield from keys_in(v)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            if k not in ("rules", "overrides"):
                yield from keys_in(v)


class Leak(AssertionError):
    pass


def scan(frames: list[dict[str, Any]], raw: list[str], seat: int | None, replay: Replay) -> None:
    """Check every frame a client at ``seat`` received against what it may know then."""
    for n, (frame, text) in enumerate(zip(frames, raw, strict=True)):
        where = f"frame {n} ({frame['type']}, version {frame.get('version')}) to seat {seat}"
        scan_frame(frame, text, seat, replay, where)


def scan_frame(
    frame: dict[str, Any], text: str, seat: int | None, replay: Replay, where: str
) -> None:
    """Check one frame (``text`` as received): :class:`Leak` names what it should not hold."""
    found = replay.moment(seat, frame["version"])
    if found is None:
        raise Leak(f"{where}: no such version")
    moment = found
    if seat is None and moment.trick:
        raise Leak(f"{where}: a spectator is shown the trick in play (it is one trick late)")
    for number, salt in enumerate(replay.salts, 1):
        if number > moment.finished and salt in text:
            raise Leak(f"{where}: holds the salt of hand {number}, not over")

    def check(obj: object, hand: int, what: str) -> None:
        secret = SECRET_KEYS & set(keys_in(obj))
        if secret:
            raise Leak(f"{where}: {what} holds {sorted(secret)}")
        if hand <= moment.finished:
            return  # a hand over: revealed, every card of it known
        if hand != moment.hand:
            raise Leak(f"{where}: {what} is of hand {hand}, not in play")
        unknown = set(cards_in(obj)) - moment.known[seat]
        if unknown:
            raise Leak(f"{where}: {what} holds {sorted(map(str, unknown))}")

    def fair(entry: dict[str, Any]) -> None:
        number = entry["hand"]
        if entry["commitment"] != replay.commitments[number - 1]:
            raise Leak(f"{where}: hand {number}'s commitment is not the record's")
        if entry["type"] == "hand_revealed":
            if number > moment.finished:
                raise Leak(f"{where}: reveals hand {number}, not over")
            if entry["deal"] != replay.deals[number - 1]:
                raise Leak(f"{where}: reveals a deal not the record's")
            if entry["salt"] != replay.salts[number - 1]:
                raise Leak(f"{where}: reveals a salt not the record's")
        else:
            check(entry, moment.hand, "a commitment")

    kind = frame["type"]
    if kind == "snapshot":
        check(frame["table"], moment.hand, "the table")
        if frame["view"] is not None:
            check(frame["view"], moment.hand, "the view")
        for entry in frame["fairness"]:
            fair(entry)
        rest = {k: v for k, v in frame.items() if k not in ("table", "view", "fairness")}
        check(rest, moment.hand, "the frame")
    elif kind == "update":
        hand = replay.moments[frame["since"]].hand
        for e in frame["events"]:
            if e["type"] == "hand_started":
                hand = e["number"]
            if e["type"] in ("hand_revealed", "hand_committed"):
                fair(e)
            else:
                check(e, hand, f"event {e}")
        check(frame["view"], moment.hand, "the view")
        rest = {k: v for k, v in frame.items() if k not in ("events", "view")}
        check(rest, moment.hand, "the frame")
    else:
        check(frame, moment.hand, "the frame")


# -------------------------------------------------------------- playing


@dataclass
class Totals:
    games: int = 0
    hands: int = 0
    frames: int = 0
    clients: int = 0
    by_game: dict[str, int] = field(default_factory=dict)


@pytest.fixture(scope="module")
def totals(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Totals]:
    out = Totals()
    yield out
    line = (
        f"leak scan: {out.frames} frames to {out.clients} clients, "
        f"{out.games} games ({out.hands} hands) of {len(out.by_game)} kinds"
    )
    path = tmp_path_factory.getbasetemp() / "leak-scan.json"
    path.write_text(json.dumps(out.__dict__, indent=1) + "\n")
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"\n{line} (written to {path})")


async def play_match(
    url: str, key: str, options: dict[str, object], people: int, rng: random.Random
) -> tuple[Replay, list[tuple[Client, int | None]]]:
    """One match through the server; the replayed record, and each client with its seat."""
    n = Rules.make(key, options).players
    seats = sorted(rng.sample(range(1, n), people - 1))
    body = [
        {"kind": "me"} if i == 0 else {"kind": "open"} if i in seats else {"kind": "bot"}
        for i in range(n)
    ]
    for s in body:
        if s["kind"] == "bot":
            s["level"] = rng.choice(["random", "random", "beginner"])
    host = await Client(url, "Host").login()
    guests = [await Client(url, f"Guest {i}").login() for i in seats]
    watcher = await Client(url, "Watcher").login()
    anonymous = Client(url, "nobody")
    clients: list[tuple[Client, int | None]] = [
        (host, 0),
        *zip(guests, seats, strict=True),
        (watcher, None),
        (anonymous, None),
    ]
    try:
        table = await open_table(host, key, body, options, public=True)
        token = table["token"]
        for guest, seat in zip(guests, seats, strict=True):
            await guest.call("POST", f"/api/tables/{token}/seats/{seat}")
        # Some connect before the start, the others after it.
        early = [c for c, _ in clients if rng.random() < 0.5]
        for c in early:
            await c.connect(token)
        await host.call("POST", f"/api/tables/{token}/start")
        for c, _ in clients:
            if c not in early:
                await c.connect(token)
        dropped: set[str] = set()

        async def drop_once(c: Client, frame: dict[str, Any]) -> None:
            # Each client leaves once during the match and comes back: a person asking for
            # what it missed since its last version, a spectator afresh.
            if c.nickname in dropped or frame["type"] != "update" or rng.random() > 0.1:
                return
            dropped.add(c.nickname)
            since = c.version
            await c.close()
            await c.connect(token, since=since if c is not watcher else None)

        await asyncio.wait_for(
            asyncio.gather(
                *(play_randomly(c, random.Random(rng.random()), on_frame=drop_once)
                  for c, _ in clients)
            ),
            timeout=120,
        )  # fmt: skip
        record = await host.call("GET", f"/api/tables/{token}/record")
        return Replay(record), clients
    finally:
        for c, _ in clients:
            await c.aclose()


@pytest.mark.parametrize(
    ("key", "options", "people"), PLAYED, ids=[config_id(k, o) for k, o, _ in PLAYED]
)
async def test_no_client_is_sent_what_it_may_not_know(
    server: ServerProcess, totals: Totals, key: str, options: dict[str, object], people: int
) -> None:
    rng = random.Random(f"leaks {config_id(key, options)}")
    replay, clients = await play_match(server.url, key, options, people, rng)
    for client, seat in clients:
        assert finished(client)
        scan(client.frames, client.raw, replay.played(seat), replay)
        for text in client.raw:  # typed on the wire: each frame is its model's own bytes
            assert SERVER.validate_json(text).model_dump_json() == text
    # Every move was stored once, and each client saw the last message of its stream.
    for client, seat in clients:
        assert client.version == len(replay.at[replay.played(seat)]) - 1
    totals.games += 1
    totals.hands += replay.hands
    totals.clients += len(clients)
    totals.frames += sum(len(c.frames) for c, _ in clients)
    totals.by_game[key] = totals.by_game.get(key, 0) + 1


def test_every_game_is_played() -> None:
    assert {k for k, _, _ in PLAYED} == set(GAMES)


# -------------------------------------------------------------- the scan can fail


@pytest.fixture(scope="module")
def one_match(server: ServerProcess) -> tuple[Replay, list[tuple[Client, int | None]]]:
    return asyncio.run(
        play_match(
            server.url, "briscola-4", {"match": "one-hand"}, 2, random.Random("leaks can fail")
        )
    )


def rescan(frames: list[dict[str, Any]], seat: int | None, replay: Replay) -> None:
    scan(frames, [json.dumps(f) for f in frames], seat, replay)


def test_the_scan_notices_a_card_of_another_hand(
    one_match: tuple[Replay, list[tuple[Client, int | None]]],
) -> None:
    replay, clients = one_match
    host = clients[0][0]
    frames = json.loads(json.dumps(host.frames))
    rescan(frames, 0, replay)
    snapshot = next(f for f in frames if f["type"] == "snapshot" and f["view"])
    moment = replay.moment(0, snapshot["version"])
    assert moment is not None
    other = next(c for c in Rules.make("briscola-4").deck if c not in moment.known[0])
    snapshot["view"]["hand"].append(str(other))
    with pytest.raises(Leak, match=f"holds \\['{other}'\\]"):
        rescan(frames, 0, replay)


def test_the_scan_notices_a_salt_or_a_deal_too_early(
    one_match: tuple[Replay, list[tuple[Client, int | None]]],
) -> None:
    replay, clients = one_match
    watcher = clients[-2][0]
    frames = json.loads(json.dumps(watcher.frames))
    first = next(i for i, f in enumerate(frames) if f["type"] == "update")
    salted = [*frames[:first], {**frames[first], "note": replay.salts[0]}]
    with pytest.raises(Leak, match="salt of hand 1"):
        rescan(salted, None, replay)
    dealt = [*frames[:first], {**frames[first], "deal": replay.deals[0]}]
    with pytest.raises(Leak, match="deal"):
        rescan(dealt, None, replay)
    revealed = {"type": "hand_revealed", "hand": 1, "commitment": replay.commitments[0]}
    early = {**frames[first], "events": [{**revealed, "salt": "", "deal": replay.deals[0]}]}
    with pytest.raises(Leak, match="reveals hand 1, not over"):
        rescan([*frames[:first], early], None, replay)


def test_the_scan_notices_a_spectator_shown_the_trick_in_play(
    one_match: tuple[Replay, list[tuple[Client, int | None]]],
) -> None:
    replay, clients = one_match
    watcher = clients[-2][0]
    frames = json.loads(json.dumps(watcher.frames))
    rescan(frames, None, replay)
    first = next(i for i, f in enumerate(frames) if f["type"] == "update")
    moments = [replay.moment(None, n) for n in range(len(replay.at[None]))]
    live = next(n for n, m in enumerate(moments) if m is not None and m.trick)
    with pytest.raises(Leak, match="trick in play"):
        rescan([*frames[:first], {**frames[first], "version": live}], None, replay)
