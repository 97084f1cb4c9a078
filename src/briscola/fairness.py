"""The old name of :mod:`briscola.fair_shuffle`, beside :mod:`briscola.engine.fairness`.

Kept only while ``server/live.py`` imports ``briscola.fairness`` (it is being changed in
parallel, issue 21): once it imports :mod:`briscola.fair_shuffle`, delete this module.
"""

from briscola.fair_shuffle import Committed, FairDeals

__all__ = ["Committed", "FairDeals"]
