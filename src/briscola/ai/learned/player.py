"""A player that plays a policy network's likeliest card, from its seat's view alone (no
search): the quickest check of what a network learnt, and the training report's.

Choices that are not a card (the trump exchange, talk) are left to the ``intermediate``
bot's rules, as the search levels leave them.
"""

from __future__ import annotations

import numpy as np

from briscola.ai.bot import make_bot
from briscola.ai.cores.head_to_head import Array, Codec, supports
from briscola.ai.learned.features import MAX_ACTIVE, deck_mask, encode
from briscola.ai.learned.games import deck_ids
from briscola.ai.learned.net import F32, Net, mlp_sparse
from briscola.ai.rules.counting import rules_of
from briscola.engine.actions import Action, Play
from briscola.engine.errors import BriscolaError
from briscola.engine.rules import Rules
from briscola.engine.views import View


class PolicyBot:
    """Plays the legal card whose logit is highest under ``net`` (a policy network)."""

    def __init__(self, net: Net, seed: int | None = None) -> None:
        if net.meta.get("kind") != "policy":
            raise BriscolaError(f"a policy network is needed, got a {net.meta.get('kind')} network")
        self.net = net
        self.args = net.kernel_args()
        self.rules_bot = make_bot("intermediate", seed=seed)
        self.idx = np.empty(MAX_ACTIVE, np.int64)
        self.val = np.empty(MAX_ACTIVE, np.float32)
        self.out = np.empty(net.outputs, np.float32)
        self._codecs: dict[tuple[object, ...], tuple[Codec, int]] = {}

    def new_hand(self, view: View) -> None:
        if hasattr(self.rules_bot, "new_hand"):
            self.rules_bot.new_hand(view)

    def choose(self, view: View) -> Action:
        plays = [a for a in view.legal if isinstance(a, Play)]
        if len(plays) != len(view.legal) or view.seat is None:
            return self.rules_bot.choose(view)
        if len(plays) == 1:
            return plays[0]
        logits = self.logits(view)
        codec, _ = self._codec(rules_of(view))
        return max(plays, key=lambda a: float(logits[codec.id[a.card]]))

    def logits(self, view: View) -> F32:
        """The network's logit of each card id for ``view``'s seat to move."""
        rules = rules_of(view)
        if not supports(rules):
            raise BriscolaError(f"a policy network plays the two-player games, not {rules.key}")
        codec, deck = self._codec(rules)
        pos = view_position(view, codec)
        seat = view.seat
        assert seat is not None
        n = encode(pos, seat, False, deck, self.idx, self.val)
        mlp_sparse(self.idx, self.val, n, *self.args, self.out)
        return self.out.copy()

    def _codec(self, rules: Rules) -> tuple[Codec, int]:
        key = (rules.key, tuple(sorted(rules.options.items())))
        if key not in self._codecs:
            self._codecs[key] = (Codec(rules), deck_mask(deck_ids(rules)))
        return self._codecs[key]


def view_position(view: View, codec: Codec) -> Array:
    """A fast-core position of a two-player ``view``, the cards it does not see dealt in
    any order to the opponent's hand and the face-down stock: read as the seat sees it
    (:func:`~briscola.ai.learned.features.encode`, ``full=False``), every such position is
    the same."""
    seat = view.seat
    assert seat is not None
    seen = set(view.hand) | {c for t in view.tricks for c in t.cards}
    seen |= {c for _, c in view.trick}
    if view.turned is not None:
        seen.add(view.turned)
    unseen = [c for c in codec.rules.deck if c not in seen]
    k = view.hand_sizes[1 - seat]
    return codec.from_view(view, unseen[:k], unseen[k : k + view.stock_size], view.turned)
