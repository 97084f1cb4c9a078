"""The rule set a table plays by: a game's preset and the table's house rules, compiled.

:meth:`Rules.make` joins a :class:`~briscola.engine.presets.Game` with the table's house
rules into one frozen, validated rule set that drives the generic engine. Which add-ons
a hand plays with is the registry's to say
(:func:`briscola.engine.addons.make_addons`), from the game's add-on keys and these rules.

>>> rules = Rules.make("briscola-3")
>>> rules.players, len(rules.deck), rules.option("removed_two")
(3, 40, '2c')
>>> Rules.make("briscola-2", {"colour": "red"})
Traceback (most recent call last):
...
briscola.engine.errors.RulesError: briscola-2 has no house rule 'colour'; its rules are: \
match, sixty_sixty, direction, last_trick, cappotto, court_order, follow_suit, cut, \
trump_exchange, exchange_timing, turned_high
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

from briscola.engine.actions import Play
from briscola.engine.cards import FRENCH_32, ITALIAN_40, Card, Rank, Suit, carichi_values
from briscola.engine.errors import MalformedError, RulesError, shown
from briscola.engine.house_rules import RULES, RuleValue
from briscola.engine.presets import TALK_RULES, TEAM_RULES, Game, find_game


@dataclass(frozen=True, eq=False)
class Rules:
    """The frozen rule set of one table: a game with its house rules, compiled into
    the tables the engine reads. Build it with :meth:`make`."""

    game: Game
    options: Mapping[str, RuleValue]
    """Every house rule of the game with its value (defaults included): the public form.
    The engine and the players read the typed fields below, compiled from it once."""
    players: int
    sides: tuple[tuple[int, ...], ...]
    """Seats of each side, sides in the order of their lowest seat."""
    side_of: tuple[int, ...]
    deck: tuple[Card, ...]
    """Every card that can be in play (for the 3-player game, before its 2 leaves)."""
    removals: tuple[frozenset[Card], ...]
    """The sets of cards one of which leaves the deck at each deal."""
    strength: Mapping[Card, int]
    points: Mapping[Card, int]
    follow_suit: bool
    exchange: str
    exchange_after_win: bool
    turned_back: frozenset[Rank]
    """The ranks a turned card goes back into the stock with (``turned_high=reshuffle``: the
    two strongest, an ace or a three, in the 32-card deck an ace or a 10); else none."""
    signal_ranks: Mapping[str, Rank]
    """The trump each honour signal names (rules.md §4): ``ace`` the strongest, ``three``
    the second strongest (the 10 in the 32-card deck), ``king``, ``queen``, ``jack``."""
    low_trumps: frozenset[Rank]
    """The ranks without points (lisci): the ``low-trumps`` signal's (7 to 2, or 9 to 7)."""
    briscoline: frozenset[Rank]
    """The low trumps of the conversation's answer: the lisci but the strongest (2 to 6,
    or 8 and 7; the 7, or the 9, is neither briscolina nor vestita)."""
    direction: str
    """``right`` (counter-clockwise) or ``left``: how seat numbers go round the table."""
    last_trick_allowed: bool
    """Whether players may look back at the last trick taken (``last_trick=allowed``)."""
    show_partner_hands: bool
    """Whether partners see each other's hands once the stock runs out."""
    tie_replayed: bool
    """A hand tied 60-60 is dealt again (``sixty_sixty=replay``)."""
    tie_to_last_trick: bool
    """A hand tied 60-60 goes to the side that took the last trick."""
    cappotto_double: bool
    """Taking all 120 counts as two won hands."""
    cut: bool
    """The player at the dealer's left cuts the shuffled deck."""
    partners_drawn: bool
    """Team games: partners are drawn by cards before the first hand."""
    south_courts: bool
    """The court order K, J, Q (``court_order=south``), already in ``strength`` and
    ``points``."""
    spotted_signals: bool
    """Signals are seen by the partner, and by each opponent by chance."""
    target: tuple[str, int]
    """What ends the match (``match``, chiamata's ``target``): ``("hands", N)`` first to N
    won hands (best of 3: 2), ``("points", N)`` first to N points, ``("one", 1)`` one hand."""
    target_rule: str
    """The house rule that sets :attr:`target`, as the table chose it (``best-of-3``,
    ``points:5``...)."""

    @classmethod
    def make(cls, game: str | Game, options: Mapping[str, object] | None = None) -> Rules:
        """Validate the house rules for this game and compile the rule set."""
        g = game if isinstance(game, Game) else find_game(game)
        if options is not None and not isinstance(options, Mapping):
            raise RulesError(
                f"house rules: expected a dict of rule names and values, like "
                f"{{'match': 'one-hand'}}, got {shown(options)}",
                value=options,
            )
        given = dict(options or {})
        values: dict[str, RuleValue] = {}
        for name in g.rules:
            default = g.defaults.get(name, RULES[name].choices[0])
            if name == "players":
                default = g.players[0]
            values[name] = default
        for name, value in given.items():
            if name not in g.rules:
                raise RulesError(
                    f"{g.key} has no house rule {shown(name)}; its rules are: {', '.join(g.rules)}",
                    rule=_name(name),
                    value=value,
                )
            allowed = g.allowed(name)
            try:
                values[name] = RULES[name].validate(value, allowed)
            except RulesError:
                never = _never(g, name, value)
                if not never:
                    raise
                raise RulesError(
                    f"house rule {name} cannot be {shown(value)}: {never}; "
                    f"{RULES[name].accepted(allowed)}",
                    rule=name,
                    value=value,
                ) from None
        players = int(values.get("players", g.players[0]))
        teams = g.teams_for(players, values.get("teams"))
        if values.get("teams") == "pairs" and not teams:
            raise RulesError(
                f"{g.key} is played in pairs only with 4 players, not {players}",
                rule="teams",
                value=given.get("teams", values["teams"]),
            )
        if not teams:
            for name in TEAM_RULES + TALK_RULES:
                if name in given and values[name] != RULES[name].choices[0]:
                    raise RulesError(
                        f"house rule {name} needs a game in teams; {g.key} with {players} "
                        "players is played each alone",
                        rule=name,
                        value=given[name],
                    )
        if teams:
            sides = tuple(tuple(range(s, players, 2)) for s in (0, 1))
        else:
            sides = tuple((s,) for s in range(players))
        side_of = tuple(
            next(i for i, side in enumerate(sides) if s in side) for s in range(players)
        )

        base = FRENCH_32 if g.deck_name == "french-32" else ITALIAN_40
        removed = frozenset(Card.parse(c) for c in g.removed)
        deck = tuple(c for c in base if c not in removed)
        if "removed_two" in values:
            choice = values["removed_two"]
            twos = [Card(Rank.TWO, s) for s in Suit]
            if choice == "random":
                removals = tuple(frozenset({t}) for t in twos)
            else:
                removals = (frozenset({Card.parse(str(choice))}),)
        else:
            removals = (frozenset(),)

        order, pts = _order_and_points(g.deck_name, values.get("court_order") == "south")
        strength = {c: order.index(c.rank) for c in base}
        points = {c: pts.get(c.rank, 0) for c in base}
        exchange = str(values.get("trump_exchange", "none"))
        reshuffle = values.get("turned_high") == "reshuffle"
        lisci = [r for r in order if r not in pts]
        return cls(
            game=g,
            options=MappingProxyType(values),
            players=players,
            sides=sides,
            side_of=side_of,
            deck=deck,
            removals=removals,
            strength=strength,
            points=points,
            follow_suit=values.get("follow_suit") == "required",
            exchange=exchange,
            exchange_after_win=values.get("exchange_timing") == "after-win",
            turned_back=frozenset(order[-2:]) if reshuffle else frozenset(),
            signal_ranks=MappingProxyType(
                {
                    "ace": order[-1],
                    "three": order[-2],
                    "king": Rank.KING,
                    "queen": Rank.QUEEN,
                    "jack": Rank.JACK,
                }
            ),
            low_trumps=frozenset(lisci),
            briscoline=frozenset(lisci[:-1]),
            direction=str(values.get("direction", "right")),
            last_trick_allowed=values.get("last_trick", "allowed") == "allowed",
            show_partner_hands=teams and values.get("show_partner_hands") == "yes",
            tie_replayed=values.get("sixty_sixty") == "replay",
            tie_to_last_trick=values.get("sixty_sixty") == "last-trick",
            cappotto_double=values.get("cappotto") == "double",
            cut=values.get("cut") == "cut",
            partners_drawn=teams and values.get("partners") == "drawn",
            south_courts=values.get("court_order") == "south",
            spotted_signals=values.get("communication") == "signals"
            and values.get("signal_audience") == "spotted",
            target=_target(str(values.get("target", values.get("match")))),
            target_rule=str(values.get("target", values.get("match"))),
        )

    @property
    def key(self) -> str:
        return self.game.key

    @property
    def teams(self) -> bool:
        return len(self.sides) < self.players

    @cached_property
    def rounds_from(self) -> tuple[tuple[int, ...], ...]:
        """For each seat, the seats in playing order starting from it."""
        n = self.players
        return tuple(tuple((s + k) % n for k in range(n)) for s in range(n))

    @cached_property
    def orders(self) -> tuple[tuple[int, ...], ...]:
        """For each leader, the seats in playing order for a full trick (twice round in a
        double trick)."""
        return tuple(seq * self.game.rounds for seq in self.rounds_from)

    @cached_property
    def carichi(self) -> frozenset[Card]:
        """The deck's carichi: the cards worth one of its two highest point values
        (:func:`~briscola.engine.cards.carichi_values`)."""
        top = carichi_values(self.points)
        return frozenset(c for c, p in self.points.items() if p in top)

    @cached_property
    def plays(self) -> tuple[dict[Card, Play], ...]:
        """For each seat, the :class:`Play` action of each card, made once per table."""
        return tuple({c: Play(s, c) for c in self.deck} for s in range(self.players))

    @property
    def needs_seed(self) -> bool:
        """Whether hands under these rules draw chances of their own (signals spotted by
        opponents), from a seed that the deal carries."""
        return self.spotted_signals

    def option(self, name: str) -> RuleValue:
        """The value of a house rule this game takes."""
        try:
            return self.options[name]
        except (KeyError, TypeError):  # TypeError: an unhashable name
            raise RulesError(
                f"{self.key} has no house rule {shown(name)}", rule=_name(name)
            ) from None

    def overrides(self) -> dict[str, RuleValue]:
        """The house rules that differ from the game's defaults, and those whose default
        changed after records began (:attr:`Game.record_defaults`): what a record stores."""
        plain = Rules.make(self.game)
        kept = self.game.record_defaults
        return {k: v for k, v in self.options.items() if plain.options[k] != v or k in kept}

    @classmethod
    def from_record(cls, game: str, options: Mapping[str, object]) -> Rules:
        """The rule set of a record's ``game`` and ``rules``: as :meth:`make`, except that a
        rule whose default changed after records began takes the value it had then when
        the record does not name it (:attr:`Game.record_defaults`), and a value that can
        never apply in the game (:meth:`Game.never`, refused at a new table since), which
        changed nothing in play, is read as the default."""
        g = find_game(game)
        kept = {k: v for k, v in options.items() if not _never(g, k, v)}
        return cls.make(g, {**g.record_defaults, **kept})

    def exchange_card(self, turned: Card) -> Card | None:
        """The card of the trump suit that may be swapped for this turned card, if any."""
        ex = self.exchange
        if ex == "none":
            return None
        try:
            seven = Card(Rank.SEVEN, turned.suit)
        except AttributeError:
            raise MalformedError(f"exchange_card: expected a Card, got {shown(turned)}") from None
        two = Card(Rank.TWO, turned.suit)
        if ex == "two":
            want = two
        elif ex == "seven":
            want = seven
        else:
            want = seven if self.strength[turned] > self.strength[seven] else two
        return None if want is turned else want

    def __repr__(self) -> str:
        return f"Rules.make({self.key!r}, {self.overrides()!r})"


def _target(value: str) -> tuple[str, int]:
    """The kind and goal of a ``match`` or ``target`` value (validated)."""
    fixed = {"best-of-3": ("hands", 2), "best-of-5": ("hands", 3), "one-hand": ("one", 1)}
    if value in fixed:
        return fixed[value]
    kind, _, goal = value.partition(":")
    return kind, int(goal)


def _name(name: object) -> str:
    """A house rule's name as an error names it: as given if it is text, else quoted."""
    return name if isinstance(name, str) else shown(name)


def _never(game: Game, name: str, value: object) -> str:
    """Why ``value``, a value of house rule ``name``, can never apply in ``game`` (``""``
    when it is no value of the rule, or can apply)."""
    rule = RULES.get(name) if isinstance(name, str) else None
    try:
        return "" if rule is None else game.never(name, rule.validate(value))
    except RulesError:
        return ""


def _order_and_points(deck_name: str, south: bool) -> tuple[list[Rank], dict[Rank, int]]:
    """Ranks from weakest to strongest, and the point value of each counting rank."""
    if deck_name == "french-32":
        low = [Rank.SEVEN, Rank.EIGHT, Rank.NINE]
        high_ten = Rank.TEN
    else:
        low = [Rank.TWO, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN]
        high_ten = Rank.THREE
    courts = [Rank.QUEEN, Rank.JACK] if south else [Rank.JACK, Rank.QUEEN]
    order = [*low, *courts, Rank.KING, high_ten, Rank.ACE]
    pts = {Rank.ACE: 11, high_ten: 10, Rank.KING: 4, courts[1]: 3, courts[0]: 2}
    return order, pts
