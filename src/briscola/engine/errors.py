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
