"""The pure rules engine: cards, games and house rules, hands, views and records.

It imports nothing else of the project and does no I/O: no files, no clock, no
global randomness (deals take a ``random.Random`` from the caller). Importing it imports
the add-on modules, which register their add-ons (:mod:`briscola.engine.addons`).
"""

# Imported for what they do on import: register their add-ons (briscola.engine.addons).
from briscola.engine import chiamata, exchange, talk  # noqa: F401
from briscola.engine.actions import Action, Exchange, Play, action_from_json
from briscola.engine.cards import Card, Rank, Suit, parse_cards
from briscola.engine.deal import Deal, shuffled_deal
from briscola.engine.errors import (
    BriscolaError,
    GameOverError,
    IllegalActionError,
    MalformedError,
    NotYourTurnError,
    RulesError,
)
from briscola.engine.events import seat_events, visible
from briscola.engine.game_record import Record, parse_record
from briscola.engine.house_rules import RULES, HouseRule
from briscola.engine.match import (
    DealSource,
    Match,
    MatchRecord,
    MatchResult,
    Shuffled,
    parse_match_record,
)
from briscola.engine.position import Position
from briscola.engine.presets import GAMES, Game, find_game
from briscola.engine.record import Replay, replay
from briscola.engine.rules import Rules
from briscola.engine.state import Applied, GameState
from briscola.engine.views import MatchView, View, match_view, seat_view, spectator_view

__all__ = [
    "GAMES",
    "RULES",
    "Action",
    "Applied",
    "BriscolaError",
    "Card",
    "Deal",
    "DealSource",
    "Exchange",
    "Game",
    "GameOverError",
    "GameState",
    "HouseRule",
    "IllegalActionError",
    "MalformedError",
    "Match",
    "MatchRecord",
    "MatchResult",
    "MatchView",
    "NotYourTurnError",
    "Play",
    "Position",
    "Rank",
    "Record",
    "Replay",
    "Rules",
    "RulesError",
    "Shuffled",
    "Suit",
    "View",
    "action_from_json",
    "find_game",
    "match_view",
    "parse_cards",
    "parse_match_record",
    "parse_record",
    "replay",
    "seat_events",
    "seat_view",
    "shuffled_deal",
    "spectator_view",
    "visible",
]
