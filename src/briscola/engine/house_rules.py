"""House rules: every option a table sets before the first deal (rules.md §5).

Each rule has a stable name (used in records and on the command line), its
choices, the first of which is the default unless a game says otherwise, and a
line of help. Values are validated here; which games accept which rules is in
:mod:`briscola.engine.presets`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from briscola.engine.errors import RulesError, shown

RuleValue = str | int


@dataclass(frozen=True, slots=True)
class NumberForm:
    """Values that carry a whole number: ``prefix`` then N (``hands:3``), or N alone when
    the prefix is empty (an int), N from ``low`` to ``high``.

    >>> NumberForm("hands:", 1, 9999).read("hands:03"), NumberForm("", 0, 100).read("7")
    ('hands:3', 7)
    """

    prefix: str
    low: int
    high: int

    @property
    def pattern(self) -> str:
        """The form in words: ``hands:N``, or ``N`` for a plain number."""
        return f"{self.prefix}N"

    def read(self, value: RuleValue) -> RuleValue | None:
        """``value`` in canonical form if it is of this form and in range, else ``None``.
        Numbers are ints, or text of ASCII digits (``int`` reads other scripts' too)."""
        if isinstance(value, int):
            number = value if not self.prefix else None
        else:
            m = (
                _NUMBER.fullmatch(value.removeprefix(self.prefix))
                if value.startswith(self.prefix)
                else None
            )
            number = int(m.group()) if m else None
        if number is None or not self.low <= number <= self.high:
            return None
        return f"{self.prefix}{number}" if self.prefix else number

    def to_json(self) -> dict[str, RuleValue]:
        return {"pattern": self.pattern, "min": self.low, "max": self.high}


@dataclass(frozen=True, slots=True)
class HouseRule:
    """One house rule: its name, choices and default."""

    name: str
    help: str
    choices: tuple[RuleValue, ...]
    """The usual values, each a value as it is given; the first is the default unless a game
    says otherwise."""
    forms: tuple[NumberForm, ...] = ()
    """Values with a number of one's own: ``hands:N``, ``points:N``, or a plain number."""

    def validate(self, value: object, choices: tuple[RuleValue, ...] | None = None) -> RuleValue:
        """Return the value in canonical form, or raise :class:`RulesError` saying what is
        accepted. ``choices``: the values one game allows, where it allows fewer (the
        numbers of players). Numbers are ints, or text of ASCII digits.

        >>> RULES["match"].validate("points:121")
        'points:121'
        >>> RULES["players"].validate("4", (2, 4))
        4
        >>> RULES["direction"].validate("up")
        Traceback (most recent call last):
        ...
        briscola.engine.errors.RulesError: house rule direction cannot be 'up': \
choose one of right, left
        """
        allowed = self.choices if choices is None else choices
        given = value
        if isinstance(value, bool):
            value = str(value).lower()
        if isinstance(value, str):
            value = value.strip()
        numeric = all(isinstance(c, int) for c in allowed)
        if isinstance(value, str) and numeric and _NUMBER.fullmatch(value):
            value = int(value)
        if isinstance(value, str | int):
            if value in allowed:
                return value
            for form in self.forms:
                read = form.read(value)
                if read is not None:
                    return read
        raise RulesError(
            f"house rule {self.name} cannot be {shown(value)}: {self.accepted(allowed)}",
            rule=self.name,
            value=given,
        )

    def accepted(self, choices: tuple[RuleValue, ...] | None = None) -> str:
        """What this rule accepts, in words.

        >>> RULES["match"].accepted()
        'choose one of best-of-3, one-hand, best-of-5, hands:N, points:N (N from 1 to 9999)'
        """
        plain = [f for f in self.forms if not f.prefix]
        if plain:
            return (
                f"choose a whole number from {plain[0].low} to {plain[0].high} "
                "(the chance in percent)"
            )
        names = [str(c) for c in (self.choices if choices is None else choices)]
        names += [f.pattern for f in self.forms]
        text = f"choose one of {', '.join(names)}"
        if self.forms:
            low, high = self.forms[0].low, self.forms[0].high
            text += f" (N from {low} to {high})"
        return text


_NUMBER = re.compile(r"[0-9]{1,6}", re.ASCII)
"""A number given as text: ASCII digits only (``int`` takes other scripts' digits too)."""
_COUNT = (NumberForm("hands:", 1, 9999), NumberForm("points:", 1, 9999))
"""First to N won hands, first to N points."""


_RULE_LIST = (
    HouseRule(
        "match",
        "how long a match lasts: best of 3 or 5 hands, one hand, first to N won hands "
        "(hands:N), or first to N card points over several hands (points:N)",
        ("best-of-3", "one-hand", "best-of-5"),
        _COUNT,
    ),
    HouseRule(
        "sixty_sixty",
        "a hand tied 60-60: a tie where nobody scores, dealt again, "
        "or won by the side that took the last trick",
        ("tie", "replay", "last-trick"),
    ),
    HouseRule(
        "removed_two",
        "which 2 leaves the deck in the 3-player game (random: drawn at each deal)",
        ("2c", "2b", "2s", "2d", "random"),
    ),
    HouseRule(
        "direction",
        "direction of play round the table (seat numbers always follow it)",
        ("right", "left"),
    ),
    HouseRule(
        "trump_exchange",
        "swap a card of the trump suit for the turned card: none, the 2, the 7, or "
        "the 7 when the turned card is higher than a 7 and the 2 otherwise (Spanish)",
        ("none", "two", "seven", "seven-or-two"),
    ),
    HouseRule(
        "exchange_timing",
        "when the exchange may be made: on your turn while face-down stock remains, or "
        "only by the winner of the last trick, with a card held before drawing, before "
        "leading, and not after the last round of drawing (Spanish)",
        ("on-turn", "after-win"),
    ),
    HouseRule(
        "last_trick",
        "whether players may look at the last trick taken",
        ("allowed", "hidden"),
    ),
    HouseRule(
        "show_partner_hands",
        "partners see each other's hands once the stock runs out",
        ("no", "yes"),
    ),
    HouseRule(
        "cappotto",
        "a hand where one side takes all 120 points: nothing extra, or it counts as two won hands",
        ("nothing", "double"),
    ),
    HouseRule(
        "turned_high",
        "a turned ace or three (in the 32-card deck an ace or a 10: the two strongest) "
        "stays, or goes back into the middle of the stock and the next card is turned",
        ("stays", "reshuffle"),
    ),
    HouseRule(
        "court_order",
        "order and points of the court cards: north K, Q, J (4, 3, 2 points); "
        "south K, J, Q (J 3 points, Q 2)",
        ("north", "south"),
    ),
    HouseRule(
        "follow_suit",
        "whether players after the leader must play the suit led when they can",
        ("free", "required"),
    ),
    HouseRule(
        "cut",
        "whether the player at the dealer's left cuts the shuffled deck "
        "(at least 4 cards each side)",
        ("none", "cut"),
    ),
    HouseRule(
        "partners",
        "team games: partners as seated, or drawn by cards before the first hand "
        "(the highest cards play together)",
        ("seated", "drawn"),
    ),
    HouseRule(
        "communication",
        "partner communication: none, traditional signals of the trumps held, or the Roman "
        "conversation of questions and orders",
        ("none", "signals", "conversation"),
    ),
    HouseRule(
        "signal_audience",
        "who sees a signal: the partner only, the whole table, or the partner, with each "
        "opponent spotting it by chance (spot_chance)",
        ("partner", "table", "spotted"),
    ),
    HouseRule(
        "spot_chance",
        "with signal_audience=spotted: the chance, in percent (0 to 100), that each opponent "
        "spots a signal",
        (25, 10, 50, 75),
        (NumberForm("", 0, 100),),
    ),
    HouseRule(
        "rais",
        "Schembil: the captain (rais) of each team, as two seats, the first of team 0-2-4 "
        "and the second of team 1-3-5",
        ("0-1", "0-3", "0-5", "2-1", "2-3", "2-5", "4-1", "4-3", "4-5"),
    ),
    HouseRule(
        "target",
        "Chiamata: a match runs to an agreed total of score points (points:N, usually 5, 7 "
        "or 11) or an agreed number of hands (hands:N); it ends when a seat reaches the "
        "total or after the last hand: the highest total wins, seats tied at the top share "
        "the win",
        ("points:5", "points:7", "points:11"),
        (_COUNT[1], _COUNT[0]),
    ),
    HouseRule("leader", "Chiamata: who leads the first trick", ("dealer-right", "caller")),
    HouseRule(
        "multipliers",
        "Chiamata: multiply the score of high bids (71-80 x2, 81-90 x3, 91-100 x4, 101+ x5)",
        ("none", "high-bids"),
    ),
    HouseRule(
        "throw_in",
        "Chiamata: a deal where a player holds no card points is thrown in and dealt again",
        ("no", "yes"),
    ),
    HouseRule("players", "number of players", (2, 3, 4, 5, 6)),
    HouseRule(
        "teams",
        "with four players: each alone, or two pairs with partners opposite",
        ("alone", "pairs"),
    ),
)

RULES: dict[str, HouseRule] = {r.name: r for r in _RULE_LIST}
"""Every house rule by name."""
