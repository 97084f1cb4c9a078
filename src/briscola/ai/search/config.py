"""How hard a search player thinks: :class:`SearchConfig`, and the two levels' settings,
:data:`STRONG` and :data:`CHAMPION`, with those of December 2026 kept as they were,
:data:`STRONG_2026` and :data:`CHAMPION_2026` (the players are in
:mod:`briscola.ai.search.players`)."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class SearchConfig:
    """How hard a search bot thinks."""

    worlds: int = 128
    """Worlds sampled per move (head to head)."""
    rollouts: int = 2
    """Playouts per world and card (head to head)."""
    policy: str = "tuned"
    """Head to head, the searching side's playout policy: ``greedy`` (cheap rules),
    ``counting`` (the intermediate bot's judgement of each card from the cards unseen) or
    ``tuned`` (that judgement with weights trained by self-play to beat it,
    ``benchmarks/train_judge.py``)."""
    policy_other: str | None = "counting"
    """Head to head, the opponent's playout policy (``None``: ``policy``)."""
    eps: float = 0.1
    """The chance that the playout policy plays a random card instead of its own."""
    eps_other: float | None = None
    """Head to head, the same chance for the opponent's cards in the playouts (``None``:
    ``eps``)."""
    exact_draw: int = 0
    """Solve each world exactly (no playout) once at most this many cards are left to draw."""
    exact_end: int = 0
    """Solve a playout exactly from when at most this many cards are left to draw (-1: play
    it to the end)."""
    enumerate: int = 120
    """List every world (instead of sampling) when the view allows at most this many, and
    at most ``enumerate_draw`` cards are left to draw; each is then solved exactly."""
    enumerate_draw: int = 4
    """See ``enumerate`` (the turned card counts)."""
    model_noise: float = 0.1
    """Head to head, inference: worlds are drawn in proportion to how well they explain
    the opponent's last plays, were it to judge cards as the card-counting policy does
    with this chance of playing otherwise (1: no inference, every world alike)."""
    policy_net: str | None = None
    """Head to head, inference by a policy network: the one shipped for the game
    (``"shipped"``) or the path of a network file; each of the opponent's plays is as
    likely in a world as the network makes it, mixed with ``model_noise`` of any card
    alike (``None``, or a game with no network shipped: the card-counting policy)."""
    candidates: int = 4
    """With inference, the worlds sampled per world kept."""
    min_worlds: int = 0
    """Head to head, stop early: search the sampled worlds in batches of this many, and
    after each stop searching the cards that trail the best by more than ``stop_z``
    standard errors (0: search every card in all ``worlds``)."""
    stop_z: float = 3.0
    """See ``min_worlds``."""
    margin: float = 0.2
    """Weight of the point margin (per 60 points) beside the hand's result."""
    value_net: str | None = None
    """Head to head, the value network shipped for the game (``"shipped"``), or the path of
    a network file, that values sampled worlds once the card's trick and ``leaf_tricks``
    more are played (:mod:`briscola.ai.learned.leaves`), instead of ``rollouts`` playouts
    of the whole hand (``None``: playouts). A game with no network shipped plays out."""
    leaf_tricks: int = 0
    """See ``value_net``: the tricks played by the playout policies (without random cards)
    after the card's own, before the network values the world."""
    leaf_policy_net: bool = False
    """See ``value_net``: those tricks are played by the policy network (``policy_net``),
    each card its likeliest from the view of the seat to move in the world, instead of
    the playout policies, where there is the network."""
    leaf_exact_end: int = 0
    """See ``value_net``: a world is solved exactly, instead of valued by the network,
    from where at most this many cards are left to draw (where there is no network,
    ``exact_end`` says when a playout is)."""
    table_worlds: int = 200
    """Games of three to six players that the table core plays
    (:mod:`briscola.ai.cores.table_games`): the worlds sampled per move."""
    table_rollouts: int = 2
    """See ``table_worlds``: playouts per world and card."""
    table_policy: str = "greedy"
    """Table core: the playout policy, ``greedy``
    (:func:`briscola.ai.cores.table_games.greedy_card`) or ``lookahead``
    (:func:`briscola.ai.cores.table_games.lookahead_card`: measured, not better
    for the champion, ``benchmarks/README.md``)."""
    table_eps: float = 0.1
    """Table core: the chance of a random card at each play of a playout."""
    table_value_net: str | None = None
    """Table core: the value network shipped for the game (``"shipped"``), or the path of a
    network file, that values each sampled world once the card's trick and
    ``table_leaf_tricks`` more are played by the greedy policy
    (:mod:`briscola.ai.learned.table_leaves`), instead of ``table_rollouts`` playouts
    of the whole hand (``None``, or a game with no network shipped: playouts)."""
    table_leaf_tricks: int = 2
    """See ``table_value_net``."""
    table_model_noise: float = 1.0
    """Table core, inference: worlds are drawn in proportion to how well they explain the
    other seats' plays that can be read (:mod:`briscola.ai.search.table_inference`),
    were each to play by the greedy policy with this chance of any card (1: no
    inference, every world alike)."""
    table_candidates: int = 4
    """With inference at the table, the worlds sampled per world kept."""
    table_policy_net: str | None = None
    """Table core: the policy network shipped for the game (``"shipped"``), or the path
    of a network file, that models the other seats' plays for inference, in place of
    the greedy policy (``None``, or no network shipped: the greedy policy)."""
    table_leaf_policy: bool = False
    """Table core, with a value network: the tricks before its leaves are played by the
    policy network (``table_policy_net``), each card its likeliest from the view of the
    seat to move in the world, instead of the greedy policy."""
    table_fast_worlds: bool = False
    """Table core: deal the sampled worlds in numpy straight into the core's positions
    (:func:`briscola.ai.cores.table_games.deal_worlds`), not one by one through the
    reference sampler (the same chances, other draws)."""
    table_exact: int = 64
    """Table core: solve each world to the end instead, once the stock is out and the
    hands left allow at most this many orders of play (the product over the seats of
    their hand size's factorial; the trick's rules cut it further). 64 covers the last
    two tricks of every table game (solving the last three at four seats changed
    nothing measurable: ``benchmarks/README.md``)."""
    table_net_exact: int = 64
    """Table core, where the game's value network is used (``table_value_net``): as
    ``table_exact``, in its place (the network's leaves leave time to solve sooner)."""
    engine_plies: int = 4000
    """Games neither core plays: the card plays budgeted for playouts of reference engine
    states."""
    engine_worlds: int = 64
    """Games neither core plays: the most worlds sampled."""
    exact_tricks: int = 1
    """Games neither core plays: solve exactly from when this many tricks (or fewer) are
    left."""


STRONG = SearchConfig(
    value_net="shipped",
    leaf_tricks=2,
    policy_net="shipped",
    leaf_policy_net=True,
    leaf_exact_end=4,
    table_value_net="shipped",
    table_fast_worlds=True,
    table_net_exact=1296,
)
"""Head to head, where the package ships the game's networks (briscola-2): the value
network values each world once the card's trick and two more are played by the policy
network (or the world is solved exactly, from four cards left to draw), instead of two
playouts of the whole hand, and the worlds are weighed by how likely the policy network
makes the opponent's plays in them, instead of the card-counting policy. At the table
games, the worlds are dealt in numpy; where the package ships the game's value network
(briscola-4), it values each world once the card's trick and two more are played by the
greedy policy, and each world is solved exactly from when the stock is out (three cards
a seat at four seats), instead of two playouts of the whole hand."""
CHAMPION = SearchConfig(
    worlds=2400,
    min_worlds=100,
    stop_z=2.5,
    rollouts=4,
    exact_end=2,
    enumerate=840,
    enumerate_draw=5,
    table_worlds=1000,
    table_rollouts=4,
    engine_plies=40_000,
    engine_worlds=400,
    exact_tricks=2,
)

STRONG_2026 = SearchConfig(
    worlds=128,
    rollouts=2,
    policy="tuned-2026",
    policy_other="counting",
    eps=0.1,
    eps_other=None,
    exact_draw=0,
    exact_end=0,
    enumerate=120,
    enumerate_draw=4,
    model_noise=0.1,
    candidates=4,
    min_worlds=0,
    stop_z=3.0,
    margin=0.2,
    value_net=None,
    leaf_tricks=0,
    policy_net=None,
    leaf_policy_net=False,
    leaf_exact_end=0,
    table_worlds=200,
    table_rollouts=2,
    table_policy="greedy",
    table_eps=0.1,
    table_value_net=None,
    table_leaf_tricks=2,
    table_model_noise=1.0,
    table_candidates=4,
    table_policy_net=None,
    table_leaf_policy=False,
    table_fast_worlds=False,
    table_exact=64,
    table_net_exact=64,
    engine_plies=4000,
    engine_worlds=64,
    exact_tricks=1,
)
"""The strong level as it was in December 2026 (``strong-2026``), every setting written
out and its playout judge's weights kept apart (``tuned-2026``): the yardstick the
learned levels are measured against. ``tests/ai/test_frozen_levels.py`` checks it plays
the games it played then."""
CHAMPION_2026 = replace(
    STRONG_2026,
    worlds=2400,
    rollouts=4,
    exact_end=2,
    enumerate=840,
    enumerate_draw=5,
    min_worlds=100,
    stop_z=2.5,
    table_worlds=1000,
    table_rollouts=4,
    engine_plies=40_000,
    engine_worlds=400,
    exact_tricks=2,
)
"""The champion level as it was in December 2026 (``champion-2026``): the strong level's
settings of then, with the champion's differences (as :data:`CHAMPION` has them)."""
