"""The wire is typed: every view and every event the server sends is one of the models of
``briscola.server.wire``, and every frame it writes is its message model's own bytes.

Whole matches of every configuration are played through the host the server runs
(``briscola.host.Table`` with the fair shuffle's announcements, as ``server/live.py``
does), and every seat's and the spectators' updates and snapshots are read back through
the models, strict (no field they do not name, no value of another type): a field or an
event type the engine adds without a model fails here."""

from __future__ import annotations

import json
import random
import typing
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("pydantic")

from pydantic import BaseModel, TypeAdapter, ValidationError

import briscola.engine.events as engine_events
import briscola.engine.match as engine_match
from briscola.engine import Match, Rules
from briscola.engine.actions import ACTION_TYPES, BID_RANKS, ORDERS, QUESTIONS, SIGNALS
from briscola.engine.cards import Card
from briscola.engine.events import ThrownIn, seat_events
from briscola.fair_shuffle import FairDeals
from briscola.host import Table
from briscola.server import wire
from briscola.server.messages import (
    SERVER,
    Snapshot,
    TableOut,
    Update,
    protocol_schema,
    snapshot_frame,
    update_frame,
)
from helpers import CONFIGS, config_id
from schemakit import validate

MOST_HANDS = 3
GAMES = 2
"""Matches played of each configuration."""

WIRE_CONFIGS = [*CONFIGS, ("briscola-4", {"partners": "drawn"})]
"""Every configuration, and the partners' draw (its own event)."""

EVENT: TypeAdapter[Any] = TypeAdapter(wire.Event)
FAIRNESS: TypeAdapter[Any] = TypeAdapter(wire.Fairness)

TABLE = TableOut(
    token="t" * 32, invite="/t/" + "t" * 32, game="briscola-2", name="Briscola", rules={},
    overrides={}, public=False, status="playing", host=1, seats=[], version=0, clock=None,
    stand_in="intermediate", hands=1, rematch=None, you=None,
)  # fmt: skip


def snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() and i else c.lower() for i, c in enumerate(name))


def engine_events_by_type() -> dict[str, list[str]]:
    """The engine's events (a hand's and the match's), by their JSON type: their fields."""
    out = {}
    for module in (engine_events, engine_match):
        for name, cls in vars(module).items():
            fields = getattr(cls, "_fields", None)
            ours = isinstance(cls, type) and cls.__module__ == module.__name__
            if ours and fields and "audience" in fields:
                out[snake(name)] = [f for f in fields if f != "audience"]
    return out


def checked(frame: str) -> Snapshot | Update:
    """The frame read through the models, strict; and written back, the same bytes."""
    message = SERVER.validate_json(frame)
    assert isinstance(message, Snapshot | Update)
    assert message.model_dump_json() == frame, "the frame is not its model's own bytes"
    return message


def streams(key: str, options: dict[str, Any], game: int) -> Iterator[tuple[Table, str]]:
    """A match played at random through the host, as the server hosts it; after the start
    and after every action, each audience's new update (and a snapshot now and then), as
    the server writes them."""
    rules = Rules.make(key, options)
    rng = random.Random(f"wire {config_id(key, options)} {game}")
    deals = FairDeals(random.Random(f"deals {config_id(key, options)} {game}"))
    match = Match(rules, rng, rng.randrange(rules.players), deals=deals)
    table = Table(match, {}, notary=deals)
    audiences: list[int | None] = [*range(rules.players), None]
    told = dict.fromkeys(audiences, -1)
    while True:
        for a in audiences:
            since = max(told[a], 0)
            messages = table.messages(a, since)
            assert messages is not None
            if told[a] >= 0:
                messages = [m for m in messages if m.number > since]
            if messages:
                events = [e for m in messages for e in m.events]
                told[a] = messages[-1].number
                yield table, update_frame(told[a], since, events, table.view(a).to_json())
            if told[a] % 7 == 0 or table.over:
                view = table.view(a).to_json()
                yield table, snapshot_frame(told[a], TABLE, view, deals.published(match))
        if table.over or match.number > MOST_HANDS:
            return
        turn = table.turn
        assert turn is not None
        table.act(turn, rng.choice(table.view(turn).legal))


@pytest.mark.parametrize(
    ("key", "options"), WIRE_CONFIGS, ids=[config_id(k, o) for k, o in WIRE_CONFIGS]
)
def test_every_view_and_event_of_whole_games_is_a_model(key: str, options: dict[str, Any]) -> None:
    types: set[str] = set()
    schema = protocol_schema()
    for game in range(GAMES):
        first = True
        for table, frame in streams(key, options, game):
            message = checked(frame)
            if isinstance(message, Update):
                types.update(e.type for e in message.events)
            else:
                assert message.view is not None
                types.update(e.type for e in message.fairness)
            if first or table.over:  # the published schema too, now and then (slower)
                validate(json.loads(frame), schema, "#/$defs/ServerMessage")
                first = False
    assert {"dealt", "card_played", "trick_won", "hand_committed"} <= types
    if options.get("partners") == "drawn":
        assert "partners_drawn" in types


def test_an_event_or_a_field_the_models_do_not_name_fails() -> None:
    """What the engine might add without a model: a field of a view or of an event, an
    event type, a value of another kind."""
    frames = [json.loads(f) for _, f in streams("briscola-2", {}, 0)]
    update = next(f for f in frames if f["type"] == "update" and f["since"] > 0)
    checked(json.dumps(update, separators=(",", ":")))
    wrong: list[dict[str, Any]] = [
        {**update, "view": {**update["view"], "stock_count": 3}},
        {**update, "view": {**update["view"], "hand": [*update["view"]["hand"], "Xz"]}},
        {**update, "view": {**update["view"], "seat": "0"}},
        {**update, "events": [{**update["events"][0], "seen_by": [0]}]},
        {**update, "events": [{"type": "card_burnt", "seat": 0, "card": "Ab"}]},
        {**update, "view": {**update["view"], "legal": [{"seat": 0, "play": "Ab", "why": 1}]}},
    ]
    for data in wrong:
        with pytest.raises(ValidationError):
            SERVER.validate_json(json.dumps(data))


def test_every_engine_event_has_a_model_with_its_fields() -> None:
    engine = engine_events_by_type()
    models = {snake(m.__name__): m for m in wire.ENGINE_EVENTS}
    assert sorted(models) == sorted(engine), "a model for each of the engine's events"
    for kind, fields in engine.items():
        model = models[kind]
        assert list(model.model_fields) == ["type", *fields], kind
        assert model.model_fields["type"].default == kind
    union = {a.__name__ for a in typing.get_args(typing.get_args(wire.Event)[0])}
    assert union == {m.__name__ for m in (*wire.ENGINE_EVENTS, *wire.SERVER_EVENTS)}


def test_the_fair_shuffles_events_are_models() -> None:
    deals = FairDeals(random.Random(5))
    rules = Rules.make("briscola-2", {"match": "best-of-3"})
    match = Match(rules, random.Random(6), 0, deals=deals)
    while len(match.finished) < 1:
        match.apply(match.hand.legal_actions()[0])
    announced = deals.announced(match)
    assert [e["type"] for e in announced] == ["hand_committed", "hand_revealed", "hand_committed"]
    for entry in [*announced, *deals.published(match)]:
        model = FAIRNESS.validate_python(entry)
        assert model.model_dump(mode="json") == entry
        assert EVENT.validate_python(entry) == model


def test_an_event_no_random_game_gives_is_a_model_too() -> None:
    """A deal thrown in (chiamata, a hand with no card points) is rare in random play."""
    cards = tuple(Card.parse(c) for c in ("4b", "5c", "6d", "7s", "2b", "4c", "5d", "6s"))
    (event,) = seat_events([ThrownIn(2, cards)], None)
    assert EVENT.validate_python(event).model_dump(mode="json") == event


def literal_values(model: type[BaseModel], field: str) -> set[object]:
    annotation = model.model_fields[field].annotation
    parts = [annotation] if typing.get_origin(annotation) is typing.Literal else []
    parts = parts or [
        a for a in typing.get_args(annotation) if typing.get_origin(a) is typing.Literal
    ]
    return {value for part in parts for value in typing.get_args(part)}


def test_every_action_has_a_model_with_the_engines_words() -> None:
    actions = typing.get_args(wire.Action)
    assert [a.__name__ for a in actions] == [a.__name__ for a in ACTION_TYPES]
    assert literal_values(wire.Signal, "signal") == set(SIGNALS)
    assert literal_values(wire.Ask, "ask") == set(QUESTIONS)
    assert literal_values(wire.Order, "order") == set(ORDERS)
    assert literal_values(wire.Bid, "bid") == {r.value for r in BID_RANKS}


def test_the_views_model_has_the_engines_fields_in_order() -> None:
    table = next(t for t, _ in streams("briscola-2", {}, 0))
    assert list(wire.View.model_fields) == list(table.view(0).to_json())
