"""briscola: the Briscola family of card games.

>>> from briscola import Rules
>>> Rules.make("briscola-2").players
2
"""

from briscola.engine import *  # noqa: F403  # the engine's public API is the package's
from briscola.engine import __all__ as __all__

__version__ = "0.1.0"
