"""The trained weights of the search's playout judgement, shipped with the package.

The search levels play their own side out with the card-counting judgement of the
compiled head-to-head core, its weights trained by self-play to beat the intermediate
bot's (``benchmarks/train_judge.py`` trains them; this module only reads them).

>>> from briscola.ai.cores.head_to_head import COUNTING_JUDGE
>>> tuned_judge().shape == COUNTING_JUDGE.shape
True
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from briscola.ai.cores.head_to_head import JUDGE_NAMES, FArray

WEIGHTS_FILE = Path(__file__).with_name("tuned_judge.json")
WEIGHTS_2026 = WEIGHTS_FILE.with_name("tuned_judge_2026.json")
"""The weights of December 2026, kept apart for the levels frozen then."""
JUDGED = ("tuned", "tuned-2026")
"""The playout policies with trained weights: ``tuned``, today's (:data:`WEIGHTS_FILE`),
and ``tuned-2026`` (:data:`WEIGHTS_2026`)."""


@cache
def tuned_judge(policy: str = "tuned") -> FArray:
    """The trained weights of ``policy`` (one of :data:`JUDGED`) shipped with the package."""
    path = WEIGHTS_2026 if policy == "tuned-2026" else WEIGHTS_FILE
    data = json.loads(path.read_text())
    if list(data["names"]) != list(JUDGE_NAMES):
        raise ValueError(
            f"{path} names weights {data['names']}, the judgement takes "
            f"{list(JUDGE_NAMES)}: train them again (python benchmarks/train_judge.py)"
        )
    weights: FArray = np.array(data["weights"], np.float64)
    return weights
