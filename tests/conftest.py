"""Shared setup of the test suite.

Every Hypothesis property runs under one profile: no deadline (these machines are
shared and noisy: speed is measured by the benchmarks, never by timed tests), the same
examples on every run (``derandomize``), so that main stays green or red for a reason,
and no example database written into the clone. Shared data and helpers (the
conformance configurations, hand-built deals, random play) are in ``helpers.py``, which
the test modules import; they never import each other.
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("briscola", deadline=None, derandomize=True, database=None)
settings.load_profile("briscola")

# The browser tests' fixtures (tests/browserkit.py), defined here once: a session has one
# Chromium and one server however many test modules use them.
from browserkit import browser, people, screenshots, web  # noqa: E402

__all__ = ["browser", "people", "screenshots", "web"]
