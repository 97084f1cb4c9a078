"""One tree of errors. Every message says what was wrong in words a player reads,
and where it helps, what to do instead.

>>> issubclass(IllegalActionError, BriscolaError) and issubclass(BriscolaError, ValueError)
True
"""

from __future__ import annotations


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


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` for an error message: cut to ``limit`` characters, and safe for any
    value (an int with too many digits to print, an object whose repr fails).

    >>> shown("5b"), shown(10**5000), shown("x" * 100)[-5:]
    ("'5b'", 'a number of about 5001 digits', 'xx...')
    """
    try:
        text = repr(value)
    except Exception:  # an int beyond the digit limit (ValueError), or a broken __repr__
        if isinstance(value, int):
            return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 3] + "..."
