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


class BriscolaError(ValueError):
    """Anything the engine refuses. Catch this to catch them all."""


class MalformedError(BriscolaError):
    """Input that is not well formed: a card, an action, a record or a rule value."""


class RulesError(BriscolaError):
    """A bad rule configuration: an unknown game, an unknown house rule or value."""


class IllegalActionError(BriscolaError):
    """A well-formed action that the rules do not allow now."""


class NotYourTurnError(IllegalActionError):
    """An action from a seat that is not the one to act."""


class GameOverError(IllegalActionError):
    """An action after the hand (or match) is over."""
