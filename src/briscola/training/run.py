"""A training run (``briscola train``): rounds of games played, learnt from, checkpointed,
and a report at the end.

Each round plays ``games`` hands (by the fast core's playout policy,
:mod:`briscola.ai.learned.games`; or, with the ``search`` teacher, by the strong level
with the run's own value network, :mod:`briscola.training.selfplay`), keeps their
decisions in a buffer of the latest ``buffer`` rows, and takes ``steps`` steps of Adam on
each network: the **value** network reads each position as it lies, from both seats, and
learns the hand's result and margin; the **policy** network reads it as the seat to move
saw it and learns the card played. After each round both networks are measured on the
same held-out hands, and the run is saved (the networks, Adam's moments, the losses and
the round) to ``checkpoint.npz``: a run stopped anywhere goes on from its last round
with ``--resume``, and plays the same games it would have played (each round's games
come from the seed and the round's number alone; the buffer is played again from them,
or read from ``games/`` where the search played them).

At the end the run writes ``value.npz``, ``policy.npz`` (each with its game, the
features' version, the commit, the seed, the rounds, games and steps) and
``report.json`` and ``report.md``: the loss of every round, and the policy network's
player (:class:`~briscola.ai.learned.player.PolicyBot`) against ``random`` and the
``intermediate`` bot on duplicate deals.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from briscola.ai.bot import Bot
from briscola.ai.cores.head_to_head import supports
from briscola.ai.learned.features import N_FEATURES
from briscola.ai.learned.games import Games, Rows, deck_ids, play_games
from briscola.ai.learned.learn import Adam, policy_loss, value_loss
from briscola.ai.learned.net import Net, NetError
from briscola.ai.learned.player import PolicyBot
from briscola.ai.search.config import STRONG
from briscola.ai.search.pimc import POLICIES, judge_of
from briscola.ai.search.players import SearchBot
from briscola.arena.duplicate import derive
from briscola.engine.errors import BriscolaError
from briscola.engine.rules import Rules
from briscola.training.report import duel, level_bot, report_markdown
from briscola.training.selfplay import search_games

FEATURES_VERSION = 1
"""The version of :mod:`briscola.ai.learned.features`' layout the networks read."""


@dataclass(frozen=True)
class Plan:
    """What a run does each round, and how big its networks are."""

    game: str = "briscola-2"
    seed: int = 1
    hidden: tuple[int, int] = (128, 64)
    games: int = 2000
    """Hands played a round."""
    steps: int = 400
    """Adam steps a round, on each network."""
    batch: int = 256
    lr: float = 1e-3
    buffer: int = 400_000
    """Decisions kept to learn from (the latest)."""
    teacher: str = "playouts"
    """Who plays the hands learnt from: ``playouts``, the fast core's ``policy`` (quick);
    or ``search``, the strong level with the run's own value network at its leaves (expert
    iteration: the better the network, the better the hands it learns from next)."""
    policy: str = "tuned"
    """The playout policy that plays the hands (``teacher`` ``playouts``)."""
    eps: float = 0.1
    leaf_tricks: int = 0
    """The search teacher's ``leaf_tricks`` (:class:`~briscola.ai.search.config.SearchConfig`)."""
    start: str | None = None
    """A run's folder whose networks this run starts from (``None``: random weights)."""
    held_out: int = 300
    """Hands kept apart, to measure the losses on."""
    report_deals: int = 100
    """Duplicate deals the report plays against each level (two games a deal)."""


@dataclass
class Progress:
    """Where a run stands: its rounds, and each round's losses."""

    round: int = 0
    seconds: float = 0.0
    history: list[dict[str, float]] = field(default_factory=list)


GAMES_FIELDS = ("positions", "seats", "cards", "game", "final", "last")


def search_player(net: str, leaf_tricks: int, seed: int) -> Bot:
    """The search teacher: the strong level valuing its leaves by the network ``net``."""
    return SearchBot(seed, replace(STRONG, value_net=net, leaf_tricks=leaf_tricks))


def read_checkpoint(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """A run's description and its arrays, as :meth:`Run.save` wrote them."""
    try:
        with np.load(path, allow_pickle=False) as data:
            saved = json.loads(str(data["run"]))
            arrays = {k: data[k] for k in data.files}
    except FileNotFoundError:
        raise NetError(f"nothing to resume: no {path}") from None
    except (OSError, KeyError, ValueError) as e:
        raise NetError(f"{path} is not a training checkpoint ({e})") from None
    return saved, arrays


def commit() -> str:
    """The commit of the code that trains (with ``+`` when the tree has changes)."""
    here = Path(__file__).parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=here,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=here,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (head + ("+" if dirty else "")) or "unknown"


class Run:
    """A training run in folder ``out`` (see the module's notes)."""

    def __init__(
        self, plan: Plan, out: Path, say: Callable[[str], None] = lambda _: None, jobs: int = 1
    ) -> None:
        self.rules = Rules.make(plan.game)
        if not supports(self.rules):
            raise BriscolaError(
                f"training plays the two-player games of one card a trick, not {plan.game}: "
                "try briscola-2, scoperta, briscolone, briskula or brisca"
            )
        if plan.teacher not in ("playouts", "search"):
            raise BriscolaError(f"the teacher is playouts or search, not {plan.teacher!r}")
        self.plan = plan
        self.out = out
        self.say = say
        self.jobs = jobs
        rng = np.random.default_rng(plan.seed)
        meta = {"game": plan.game, "features": FEATURES_VERSION}
        self.value = Net.fresh(N_FEATURES, plan.hidden, 2, rng, {**meta, "kind": "value"})
        self.policy = Net.fresh(N_FEATURES, plan.hidden, 40, rng, {**meta, "kind": "policy"})
        if plan.start is not None:
            for kind, net in (("value", self.value), ("policy", self.policy)):
                begun = Net.load(Path(plan.start) / f"{kind}.npz")
                if [w.shape for w in begun.ws] != [w.shape for w in net.ws]:
                    raise NetError(
                        f"{plan.start}'s {kind} network has layers of other sizes than "
                        f"--hidden {plan.hidden[0]},{plan.hidden[1]}"
                    )
                net.ws, net.bs = begun.ws, begun.bs
        self.opt_v = Adam(self.value, plan.lr)
        self.opt_p = Adam(self.policy, plan.lr)
        self.progress = Progress()
        self.rows: Rows | None = None
        self.held = Rows.of(self._games(-1, plan.held_out), self.rules)

    @property
    def checkpoint(self) -> Path:
        return self.out / "checkpoint.npz"

    def _games(self, round_: int, n: int) -> Games:
        """Round ``round_``'s hands (``-1``: the held-out ones, always played out)."""
        if self.plan.teacher == "search" and round_ >= 0:
            return self._search_games(round_, n)
        return play_games(
            self.rules,
            n,
            derive(self.plan.seed, "games", round_),
            POLICIES[self.plan.policy],
            judge_of(self.plan.policy),
            self.plan.eps,
        )

    def _search_games(self, round_: int, n: int) -> Games:
        """Hands played by the search with the value network as it is now, kept in
        ``games/`` (a resumed run reads them: the networks that played them are gone)."""
        path = self.out / "games" / f"round-{round_}.npz"
        if path.exists():
            with np.load(path) as data:
                return Games(*(np.asarray(data[k], np.int64) for k in GAMES_FIELDS))
        teacher = self.out / "teacher-value.npz"
        self.value.save(teacher)
        make = partial(search_player, str(teacher), self.plan.leaf_tricks)
        games = search_games(
            self.rules, n, derive(self.plan.seed, "games", round_), make, self.jobs
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        small = {k: getattr(games, k).astype(np.int16) for k in GAMES_FIELDS}
        np.savez_compressed(path, **small)
        return games

    @staticmethod
    def resumed(out: Path, say: Callable[[str], None] = lambda _: None, jobs: int = 1) -> Run:
        """The run saved in ``out``, going on from its checkpoint with its own plan: the
        networks, Adam, the losses, and the buffer's rows played again from their rounds'
        seeds."""
        saved, arrays = read_checkpoint(out / "checkpoint.npz")
        plan = dict(saved["plan"])
        plan["hidden"] = tuple(plan["hidden"])
        run = Run(Plan(**plan), out, say, jobs)
        run._restore(saved, arrays)
        return run

    def _restore(self, saved: dict[str, Any], arrays: dict[str, Any]) -> None:
        for name, net in (("value", self.value), ("policy", self.policy)):
            for k in range(3):
                net.ws[k][...] = arrays[f"{name}.w{k}"]
                net.bs[k][...] = arrays[f"{name}.b{k}"]
        for name, opt in (("value", self.opt_v), ("policy", self.opt_p)):
            prefix = f"adam.{name}."
            opt.restore({k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)})
        self.progress = Progress(**saved["progress"])
        # every round adds a row per card of each hand: the buffer holds this many rounds
        per = self.plan.buffer // (self.plan.games * len(deck_ids(self.rules))) + 1
        for r in range(max(0, self.progress.round - per), self.progress.round):
            self._add(Rows.of(self._games(r, self.plan.games), self.rules))

    def save(self) -> None:
        arrays: dict[str, Any] = {}
        for name, net in (("value", self.value), ("policy", self.policy)):
            for k in range(3):
                arrays[f"{name}.w{k}"] = net.ws[k]
                arrays[f"{name}.b{k}"] = net.bs[k]
        for name, opt in (("value", self.opt_v), ("policy", self.opt_p)):
            arrays.update({f"adam.{name}.{k}": v for k, v in opt.state().items()})
        run = {"plan": asdict(self.plan), "progress": asdict(self.progress)}
        self.out.mkdir(parents=True, exist_ok=True)
        tmp = self.out / "checkpoint.part.npz"
        np.savez(tmp, run=np.array(json.dumps(run)), **arrays)
        tmp.replace(self.checkpoint)

    def _add(self, rows: Rows) -> None:
        self.rows = rows if self.rows is None else self.rows.joined(rows, self.plan.buffer)

    def losses(self) -> dict[str, float]:
        """Both networks' losses on the held-out hands."""
        h = self.held
        return {
            "value": value_loss(self.value, h.xv, h.yv)[0],
            "policy": policy_loss(self.policy, h.xp, h.legal, h.chosen)[0],
        }

    def one_round(self) -> dict[str, float]:
        start = time.monotonic()
        p = self.plan
        self._add(Rows.of(self._games(self.progress.round, p.games), self.rules))
        rows = self.rows
        assert rows is not None
        lv = lp = 0.0
        sample = np.random.default_rng(derive(p.seed, "batches", self.progress.round))
        for _ in range(p.steps):
            i = sample.integers(0, rows.xv.shape[0], p.batch)
            loss, grads = value_loss(self.value, rows.xv[i], rows.yv[i])
            self.opt_v.step(grads)
            lv += loss
            j = sample.integers(0, rows.xp.shape[0], p.batch)
            loss, grads = policy_loss(self.policy, rows.xp[j], rows.legal[j], rows.chosen[j])
            self.opt_p.step(grads)
            lp += loss
        held = self.losses()
        self.progress.round += 1
        self.progress.seconds += time.monotonic() - start
        line = {
            "round": self.progress.round,
            "seconds": round(self.progress.seconds, 1),
            "value_train": lv / p.steps,
            "policy_train": lp / p.steps,
            "value_held": held["value"],
            "policy_held": held["policy"],
        }
        self.progress.history.append(line)
        return line

    def train(self, minutes: float, rounds: int | None = None) -> None:
        """Rounds until ``minutes`` have passed (or ``rounds`` are done), saving after each."""
        if not self.progress.history:
            first = self.losses()
            self.progress.history.append(
                {
                    "round": 0,
                    "seconds": 0.0,
                    "value_held": first["value"],
                    "policy_held": first["policy"],
                }
            )
        end = time.monotonic() + minutes * 60
        while time.monotonic() < end and (rounds is None or self.progress.round < rounds):
            line = self.one_round()
            self.save()
            self.say(
                f"round {line['round']}: value loss {line['value_held']:.4f}, policy loss "
                f"{line['policy_held']:.4f} (held out), {line['seconds']:.0f} s"
            )

    def networks(self) -> tuple[Net, Net]:
        """The networks with their description, as they are now."""
        made = {
            "commit": commit(),
            "seed": self.plan.seed,
            "rounds": self.progress.round,
            "games": self.progress.round * self.plan.games,
            "steps": self.progress.round * self.plan.steps,
            "version": f"{self.plan.game}-s{self.plan.seed}-r{self.progress.round}",
        }
        self.value.meta.update(made)
        self.policy.meta.update(made)
        return self.value, self.policy

    def finish(self, against: tuple[str, ...] = ("random", "intermediate")) -> dict[str, Any]:
        """Write the networks and the report; return the report."""
        value, policy = self.networks()
        value.save(self.out / "value.npz")
        policy.save(self.out / "policy.npz")
        arena = {
            level: duel(
                self.rules,
                lambda s: PolicyBot(policy, s),
                partial(level_bot, level),
                self.plan.report_deals,
                self.plan.seed,
            )
            for level in against
        }
        report = {
            "plan": asdict(self.plan),
            "made": {
                k: value.meta[k] for k in ("commit", "seed", "rounds", "games", "steps", "version")
            },
            "seconds": round(self.progress.seconds, 1),
            "history": self.progress.history,
            "arena": arena,
            "bytes": value.nbytes() + policy.nbytes(),
        }
        (self.out / "report.json").write_text(json.dumps(report, indent=1) + "\n")
        (self.out / "report.md").write_text(report_markdown(report))
        return report
