"""The games of the family as data: each a registered preset with a stable key and aliases.

A :class:`Game` says what is fixed about a game (its deck, seats, hand size) and which
house rules it takes; :meth:`Rules.make <briscola.engine.rules.Rules.make>` joins it with
a table's house rules. Its add-ons are named by the keys they register under
(:func:`briscola.engine.addons.register_addon`). :func:`find_game` looks a game up by key
or alias, as python-chess's ``find_variant`` does:

>>> find_game("Briscola").key, find_game("briscola-4").players
('briscola-2', (4,))
>>> find_game("tressette")
Traceback (most recent call last):
...
briscola.engine.errors.RulesError: there is no game 'tressette'; the games are: \
briscola-2, briscola-3, briscola-4, briscola-6, schembil, chiamata, scoperta, \
briscolone, brisca, briskula, briskula-double
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from briscola.engine.errors import RulesError, shown
from briscola.engine.house_rules import RULES, RuleValue

COMMON_RULES = (
    "match", "sixty_sixty", "direction", "last_trick", "cappotto", "court_order",
    "follow_suit", "cut",
)  # fmt: skip
TRUMP_RULES = ("trump_exchange", "exchange_timing", "turned_high")
TEAM_RULES = ("show_partner_hands", "partners")
TALK_RULES = ("communication", "signal_audience", "spot_chance")

TWOS = ("2c", "2d", "2s", "2b")

DECK_TITLES = {
    "italian-40": "40 Italian cards",
    "spanish-40": "40 Spanish cards",
    "french-32": "32 French cards (A K Q J 10 9 8 7)",
}


@dataclass(frozen=True)
class Game:
    """One game of the family: what is fixed about it, and which house rules it takes."""

    key: str
    name: str
    summary: str
    players: tuple[int, ...]
    """Allowed numbers of players (the first is the default)."""
    deck_name: str
    hand_size: int
    rules: tuple[str, ...]
    defaults: Mapping[str, RuleValue] = field(default_factory=dict)
    """Defaults that differ from the first choice of rules.md §5."""
    rounds: int = 1
    """How many times each player plays to one trick (2 in four-card Briškula)."""
    turned_trump: bool = True
    open_hands: bool = False
    """Scoperta: hands and the top of the stock face up."""
    removed: tuple[str, ...] = ()
    """Cards always taken out of the deck."""
    aliases: tuple[str, ...] = ()
    addons: tuple[str, ...] = ()
    """The keys of this game's add-ons (see :mod:`briscola.engine.addons`), in the order
    they hook in; the house rules say which of them a table plays with."""
    teams_at: tuple[int, ...] = ()
    """The numbers of players at which the game is played in teams (with ``teams=pairs``,
    where the game has that rule)."""
    record_defaults: Mapping[str, RuleValue] = field(default_factory=dict)
    """Rules whose default changed after records began, with the value a record that does
    not name them means (the old default). Records store only the rules that differ from
    the defaults; those written now always name these rules (see
    :meth:`~briscola.engine.rules.Rules.overrides`), and
    :meth:`~briscola.engine.rules.Rules.from_record` reads old ones as they were played."""

    def never(self, name: str, value: RuleValue) -> str:
        """Why house rule ``name`` set to ``value`` can never apply in this game (``""``
        when it can): the exchange for the 2 of trumps in a deck without 2s."""
        if name == "trump_exchange" and value == "two" and not self.has_twos:
            return f"{self.key} has no 2s, so the 2 of trumps is never there to give"
        return ""

    def allowed(self, name: str) -> tuple[RuleValue, ...]:
        """The values of house rule ``name`` this game takes: its numbers of players, or the
        rule's choices less those that can never apply here (see :meth:`never`)."""
        if name == "players":
            return self.players
        return tuple(c for c in RULES[name].choices if not self.never(name, c))

    @property
    def has_twos(self) -> bool:
        """Whether the deck has 2s (the 32 French cards and the 6-player games have none)."""
        return self.deck_name != "french-32" and not set(TWOS) <= set(self.removed)

    def teams_for(self, players: int, teams_rule: RuleValue | None) -> bool:
        """Whether the game with ``players`` (and the ``teams`` rule, where it has one) is
        played in teams."""
        return players in self.teams_at and ("teams" not in self.rules or teams_rule == "pairs")


GAMES: dict[str, Game] = {}
"""Every game, by key, in the order they were registered."""


def register_game(game: Game) -> Game:
    """Add ``game`` to :data:`GAMES` under its key; its aliases find it too.

    :raises RulesError: when its key or an alias is already a game's key or alias.
    """
    taken = {k for g in GAMES.values() for k in (g.key, *g.aliases)}
    clash = sorted(taken & {game.key, *game.aliases})
    if clash:
        raise RulesError(f"register_game: {', '.join(clash)} already names a game")
    GAMES[game.key] = game
    return game


def find_game(key: str) -> Game:
    """The game with this key or alias (case-insensitive)."""
    if not isinstance(key, str):
        raise RulesError(
            f"expected a game key like 'briscola-2' (a str), got {shown(key)}", value=key
        )
    k = key.strip().lower()
    if k in GAMES:
        return GAMES[k]
    for game in GAMES.values():
        if k in game.aliases:
            return game
    raise RulesError(f"there is no game {shown(key)}; the games are: {', '.join(GAMES)}", value=key)


# fmt: off
for _game in (
    Game("briscola-2", "Briscola", "the core game, head to head", (2,), "italian-40", 3,
         COMMON_RULES + TRUMP_RULES, aliases=("briscola",), addons=("exchange",)),
    Game("briscola-3", "Briscola a 3", "three players, each alone; one 2 leaves the deck",
         (3,), "italian-40", 3, (*COMMON_RULES, "removed_two", *TRUMP_RULES),
         addons=("exchange",)),
    Game("briscola-4", "Briscola a coppie", "four players in two pairs, partners opposite",
         (4,), "italian-40", 3, COMMON_RULES + TRUMP_RULES + TEAM_RULES + TALK_RULES,
         addons=("exchange", "talk"), teams_at=(4,)),
    Game("briscola-6", "Briscola a 6", "six players in two teams of three, alternating round "
         "the table; the four 2s leave the deck", (6,), "italian-40", 3,
         COMMON_RULES + TRUMP_RULES + TEAM_RULES + TALK_RULES, removed=TWOS,
         addons=("exchange", "talk"), teams_at=(6,)),
    Game("schembil", "Schembil", "Briscola a 6 where each team's captain, the rais, asks and "
         "orders, and may look at a partner's hand once the stock is exhausted", (6,),
         "italian-40", 3, (*COMMON_RULES, *TRUMP_RULES, *TEAM_RULES, "rais"), removed=TWOS,
         addons=("exchange", "rais"), teams_at=(6,)),
    Game("chiamata", "Briscola chiamata", "five players: an auction, a called card and a "
         "secret partner", (5,), "italian-40", 8,
         ("target", "leader", "multipliers", "throw_in", "direction", "last_trick",
          "court_order"), turned_trump=False, addons=("chiamata",)),
    Game("scoperta", "Briscola scoperta", "head to head with hands and the top of the stock "
         "face up", (2,), "italian-40", 3, COMMON_RULES + TRUMP_RULES, open_hands=True,
         addons=("exchange",)),
    Game("briscolone", "Briscolone", "five cards each, no trump; a match runs to a points "
         "target", (2,), "italian-40", 5, COMMON_RULES,
         defaults={"match": "points:121", "follow_suit": "required"}, turned_trump=False,
         record_defaults={"follow_suit": "free"}),
    Game("brisca", "Brisca", "the Spanish game, for 2 or for 4 in pairs, with the trump "
         "exchange", (2, 4), "spanish-40", 3,
         (*COMMON_RULES, *TRUMP_RULES, "players", *TEAM_RULES, *TALK_RULES),
         defaults={"trump_exchange": "seven-or-two", "exchange_timing": "after-win"},
         addons=("exchange", "talk"), teams_at=(4,)),
    Game("briskula", "Briškula", "the Bosnian game with 32 French cards, for 2 to 6 alone or 4 "
         "in pairs (Dalmatian briškula is played with the 40 Triestine cards)",
         (2, 3, 4, 5, 6), "french-32", 3,
         (*COMMON_RULES, "turned_high", "players", "teams", *TEAM_RULES, *TALK_RULES),
         addons=("talk",), teams_at=(4,)),
    Game("briskula-double", "Four-card Briškula", "four cards each, and everyone plays twice "
         "to each trick", (2, 3, 4), "french-32", 4,
         (*COMMON_RULES, "turned_high", "players", "teams", *TEAM_RULES, *TALK_RULES),
         rounds=2, addons=("talk",), teams_at=(4,)),
):
    register_game(_game)
# fmt: on
