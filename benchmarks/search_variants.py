"""Search-bot variants for strength experiments (``benchmarks/search_match.py``).

The arena makes bots by import spec in worker processes; these factories read their
configuration from the environment (``SEARCH_A``, ``SEARCH_B``: JSON objects of
:class:`briscola.ai.search.config.SearchConfig` fields over the strong level's, or over the
champion's with ``"base": "champion"``), which the workers inherit.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace

from briscola.ai.search.config import CHAMPION, STRONG, SearchConfig
from briscola.ai.search.players import SearchBot


def config_from(text: str) -> SearchConfig:
    fields = json.loads(text or "{}")
    base = CHAMPION if fields.pop("base", "strong") == "champion" else STRONG
    return replace(base, **fields)


def a(seed: int | None = None) -> SearchBot:
    return SearchBot(seed=seed, config=config_from(os.environ.get("SEARCH_A", "")))


def b(seed: int | None = None) -> SearchBot:
    return SearchBot(seed=seed, config=config_from(os.environ.get("SEARCH_B", "")))
