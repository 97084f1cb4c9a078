"""A training run's report: the policy network's player against the levels on duplicate
deals, and the page that gives the losses and those scores."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from briscola.ai.bot import Bot, make_bot
from briscola.arena.duplicate import derive, make_deal, play_game
from briscola.arena.stats import mean_interval
from briscola.engine.rules import Rules


def level_bot(level: str, seed: int) -> Bot:
    """A level's bot (for :func:`duel`)."""
    return make_bot(level, seed)


def duel(
    rules: Rules,
    first: Callable[[int], Bot],
    second: Callable[[int], Bot],
    deals: int,
    seed: int,
) -> dict[str, float]:
    """``first`` against ``second`` on ``deals`` duplicate deals of a two-player game (each
    deal twice, the seats swapped): the first's score (wins and half the 60-60s, over the
    games) with its 95% interval, and its mean point margin."""
    per_deal: list[float] = []
    margins: list[float] = []
    for d in range(deals):
        deal = make_deal(rules, derive(seed, "report"), d)
        score = margin = 0.0
        for mine in (0, 1):
            bots = [first(derive(seed, d, mine)), second(derive(seed, d, mine, "other"))]
            if mine == 1:
                bots.reverse()
            state, _, _ = play_game(rules, deal, bots, ["a", "b"] if mine == 0 else ["b", "a"])
            won = state.winners()
            score += 1.0 if mine in won else 0.5 if not won else 0.0
            margin += state.seat_points[mine] - state.seat_points[1 - mine]
        per_deal.append(score / 2)
        margins.append(margin / 2)
    iv = mean_interval(per_deal)
    return {
        "games": 2 * deals,
        "score": round(iv.mean, 4),
        "low": round(iv.low, 4),
        "high": round(iv.high, 4),
        "points": round(float(np.mean(margins)), 2),
    }


def report_markdown(report: dict[str, Any]) -> str:
    """The report as a page: what was trained, the losses round by round, the arena."""
    plan, made = report["plan"], report["made"]
    lines = [
        f"# Training report: {plan['game']}, seed {plan['seed']}",
        "",
        f"Networks `{made['version']}`, trained at commit `{made['commit']}`: {made['rounds']} "
        f"rounds, {made['games']} hands, {made['steps']} steps a network, "
        f"{report['seconds']:.0f} s; {report['bytes']} bytes of weights.",
        "",
        f"Reproduce: `{command(plan, made['rounds'])}`"
        + (
            " (the folder named by --start: that run's networks, its own report)"
            if plan.get("start")
            else ""
        )
        + ".",
        "",
        "## Losses on the held-out hands",
        "",
        "| round | seconds | value (train) | value (held out) | policy (train) "
        "| policy (held out) |",
        "|---|---|---|---|---|---|",
    ]
    for h in report["history"]:
        vt = f"{h['value_train']:.4f}" if "value_train" in h else ""
        pt = f"{h['policy_train']:.4f}" if "policy_train" in h else ""
        lines.append(
            f"| {h['round']} | {h['seconds']:.0f} | {vt} | {h['value_held']:.4f} | {pt} "
            f"| {h['policy_held']:.4f} |"
        )
    lines += [
        "",
        "## The policy network's player against the levels (duplicate deals, seats swapped)",
        "",
        "| against | games | score (95%) | points |",
        "|---|---|---|---|",
    ]
    for level, a in report["arena"].items():
        lines.append(
            f"| {level} | {a['games']} | {a['score']:.3f} ({a['low']:.3f}-{a['high']:.3f}) "
            f"| {a['points']:+.1f} |"
        )
    return "\n".join(lines) + "\n"


def command(plan: dict[str, Any], rounds: int) -> str:
    """The ``briscola train`` command that plays a plan's run again, to ``rounds``."""
    hidden = ",".join(str(x) for x in plan["hidden"])
    parts = [
        f"briscola train {plan['game']} --seed {plan['seed']} --rounds {rounds}",
        f"--hidden {hidden} --games {plan['games']} --steps {plan['steps']}",
    ]
    if plan.get("teacher", "playouts") != "playouts":
        parts.append(f"--teacher {plan['teacher']} --leaf-tricks {plan['leaf_tricks']}")
    if plan.get("start"):
        parts.append(f"--start {plan['start']}")
    return " ".join(parts)
