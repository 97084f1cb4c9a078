"""The catalogue of the games: each with its seatings, deck, hand size and house rules
(their choices, patterns and defaults), in words and as JSON (``briscola variants``, the
server's ``/api/games``)."""

from __future__ import annotations

import contextlib
from typing import Any

from briscola.engine import GAMES, RULES, BriscolaError, Rules
from briscola.engine.house_rules import RuleValue
from briscola.engine.presets import DECK_TITLES, Game

NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def seatings(game: Game) -> list[tuple[dict[str, RuleValue], Rules]]:
    """Every way the game can be seated: for each number of players, each alone or in
    teams, with the house rules that choose it (``players``, ``teams``)."""
    found = []
    for p in game.players:
        count: dict[str, RuleValue] = {"players": p} if "players" in game.rules else {}
        for teams in RULES["teams"].choices if "teams" in game.rules else (None,):
            chosen: dict[str, RuleValue] = {} if teams in (None, "alone") else {"teams": teams}
            with contextlib.suppress(BriscolaError):  # pairs with other than four players
                found.append((chosen, Rules.make(game, {**count, **chosen})))
    return found


def cards_in_play(rules: Rules) -> int:
    """How many cards a hand is played with: the deck less the cards that leave it."""
    return len(rules.deck) - len(rules.removals[0])


def seating_words(rules: Rules) -> str:
    """Who plays with whom: "each alone", "in two teams of two, partners opposite"."""
    if rules.key == "chiamata":
        return (
            ": the caller and a secret partner against the other three, "
            "or the caller alone against four"
        )
    if not rules.teams:
        return ", each alone"
    where = "partners opposite" if rules.players == 4 else "alternating round the table"
    return f" in {NUMBERS[len(rules.sides)]} teams of {NUMBERS[len(rules.sides[0])]}, {where}"


def counts_words(counts: list[int]) -> str:
    """``2 to 6``, ``2, 4`` or ``4``."""
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(str(c) for c in counts)


def players_words(game: Game) -> str:
    """The numbers of players and their teams in words, as rules.md §2 says them:
    "2 to 6 players, each alone, or 4 in two teams of two, partners opposite (house rule
    teams=pairs)"."""
    ways: dict[tuple[str, str], list[int]] = {}
    for chosen, rules in seatings(game):
        rule = " ".join(f"{k}={v}" for k, v in chosen.items())
        ways.setdefault((seating_words(rules), rule), []).append(rules.players)
    parts: list[str] = []
    for (seating, rule), counts in ways.items():
        who = f"{counts_words(counts)} players" if not parts else f"or {counts_words(counts)}"
        parts.append(f"{who}{seating}{f' (house rule {rule})' if rule else ''}")
    return ", ".join(parts)


def deck_words(rules: Rules) -> str:
    """The cards a hand is played with: "40 Italian cards", "36 cards: 40 Italian cards
    less the four 2s"."""
    title = DECK_TITLES[rules.game.deck_name]
    gone = []
    if rules.game.removed:
        ranks = {c[:-1] for c in rules.game.removed}
        if len(ranks) == 1 and len(rules.game.removed) == 4:
            gone.append(f"the four {ranks.pop()}s")
        else:
            gone.append(" ".join(rules.game.removed))
    if rules.removals[0]:
        rank = next(iter(rules.removals[0])).rank
        gone.append(f"one {rank} (house rule removed_two)")
    return f"{cards_in_play(rules)} cards: {title} less {' and '.join(gone)}" if gone else title


def variants_json() -> list[dict[str, Any]]:
    games = []
    for game in GAMES.values():
        ways = seatings(game)
        sides: dict[str, list[list[int]]] = {}
        cards: dict[str, int] = {}
        for chosen, rules in ways:
            if not chosen.get("teams"):
                sides[str(rules.players)] = [list(s) for s in rules.sides]
            cards[str(rules.players)] = cards_in_play(rules)
        base = Rules.make(game)
        games.append(
            {
                "key": game.key,
                "name": game.name,
                "summary": game.summary,
                "players": list(game.players),
                "seating": players_words(game),
                "teams": sides,
                "seatings": [
                    {
                        "players": rules.players,
                        "rules": chosen,
                        "sides": [list(s) for s in rules.sides],
                        "cards": cards_in_play(rules),
                    }
                    for chosen, rules in ways
                ],
                "deck": {
                    "name": game.deck_name,
                    "title": DECK_TITLES[game.deck_name],
                    "cards": cards,
                    "in_words": " or ".join(dict.fromkeys(deck_words(r) for _, r in ways)),
                },
                "hand_size": game.hand_size,
                "plays_per_trick": game.rounds,
                "turned_trump": game.turned_trump,
                "rules": [
                    {
                        "name": name,
                        "help": RULES[name].help,
                        "choices": list(game.allowed(name)),
                        "patterns": [f.to_json() for f in RULES[name].forms],
                        "default": base.options[name],
                        "accepts": RULES[name].accepted(game.allowed(name)),
                    }
                    for name in game.rules
                ],
            }
        )
    return games
