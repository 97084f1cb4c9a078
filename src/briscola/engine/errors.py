"""One tree of errors. Every message says what was wrong in words a player reads,
and where it helps, what to do instead.

>>> issubclass(IllegalActionError, BriscolaError) and issubclass(BriscolaError, ValueError)
True
"""

from __future__ import annotations


def shown(value: object, width: int = 30) -> str:
    """``value`` as an error message quotes it: its ``repr``, but short and on one line
    whatever it is (a number of 5,000 digits, a megabyte of text, a nested list, an
    object whose ``repr`` fails).

    >>> shown("5b"), shown(None), shown(10**40), shown([1, [2]]), shown({})
    ("'5b'", 'None', 'a number of 41 digits', 'a list of 2 items', 'an object')
    >>> shown("x" * 100), shown(10**5000)
    ("'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (100 characters)", 'a number of about 5001 digits')
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**20:
        if value.bit_length() > 14_000:  # str() refuses more than 4,300 digits
            return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
        return f"a number of {len(str(abs(value)))} digits"
    if isinstance(value, str) and len(value) > width:
        return f"{value[:width]!r}... ({len(value)} characters)"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} item{'s' * (len(value) != 1)}"
    if isinstance(value, dict):
        return "an object"
    try:
        text = repr(value)
    except Exception:  # a broken __repr__
        return f"a {type(value).__name__}"
    return text if len(text) <= 2 * width else text[: 2 * width] + "..."


def _written(value: object) -> str:
    """A rule's value as it is written: JSON's ``true`` for ``True``, a number or a word
    as it is, anything else (or a number too long to print) as :func:`shown` quotes it."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str) or (isinstance(value, int) and value.bit_length() <= 14_000):
        return str(value)
    return shown(value)


class BriscolaError(ValueError):
    """Anything the engine refuses. Catch this to catch them all."""


class MalformedError(BriscolaError):
    """Input that is not well formed: a card, an action, a record or a rule value."""


class RulesError(BriscolaError):
    """A bad rule configuration: an unknown game, an unknown house rule or value. It says
    which house rule was at fault (``rule``, ``None`` when it is the game, or no rule
    alone) and the value it was given (``value``, as given: the game's key when the game
    is at fault), so that a caller can say so in its own words without asking again.

    >>> e = RulesError("house rule cut cannot be True: ...", rule="cut", value=True)
    >>> e.rule, e.value, e.written, str(e)
    ('cut', True, ('cut', 'true'), 'house rule cut cannot be True: ...')
    >>> RulesError("there is no game 'poker'", value="poker").written
    ('', 'poker')
    """

    def __init__(self, message: str, *, rule: str | None = None, value: object = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.value = value

    @property
    def written(self) -> tuple[str, str]:
        """The rule at fault and its value as a record or a command line writes them
        (JSON's ``true``, not Python's ``True``; ``""`` for none)."""
        return self.rule or "", "" if self.value is None else _written(self.value)


class MalformedRulesError(MalformedError, RulesError):
    """A record's game or house rules that are not well formed, or that the game refuses:
    malformed as a record, and a :class:`RulesError` naming the rule at fault."""


class IllegalActionError(BriscolaError):
    """A well-formed action that the rules do not allow now."""


class NotYourTurnError(IllegalActionError):
    """An action from a seat that is not the one to act."""


class GameOverError(IllegalActionError):
    """An action after the hand (or match) is over."""
