"""The arena's deals played on a Dask cluster (``briscola arena --cluster ADDRESS``).

**Why Dask.** The arena hands out chunks of deals, each a plain function call
(:func:`~briscola.arena.duplicate.play_deals`) whose result is a list of small frozen
dataclasses: it needs a task queue over machines, not actors, an object store or GPUs.
Dask's ``distributed`` is pure Python (with dask, tornado, msgpack, cloudpickle and a
few more, about 40 MB installed), speaks plain TCP to one scheduler (``dask scheduler``)
that ``dask worker`` processes join, gives a ``concurrent.futures`` executor (so the
arena's loop is the one it runs over the local process pool), and reschedules the tasks
of a worker that dies. Ray does the same work but its wheel alone is 79 MB for Python
3.11 here (several times that installed), starts a larger runtime (a head node with its
object store and dashboard) and would be too heavy for the test suite; Dask is light
enough to be in the ``all`` extra, so the tests run it. See the ``cluster`` extra in
``pyproject.toml``.

**What is checked.** Before the first deal: that the address is well formed and answers
(a plain TCP connect within ``timeout`` seconds, so a wrong host or port is told at once
and plainly), that the scheduler has workers, and that every worker runs the same
briscola (:data:`briscola.__version__`) and the same code (:func:`code_digest`, a hash of
the package's source): a worker with other code would play other games, so the run is
refused, naming it. Each worker makes each bot once too, so a bot from outside that a
worker cannot import is told before playing.

**Failures.** A worker that dies mid-run (killed, out of memory, its machine gone) has its
chunks of deals played again by the others: the scheduler reschedules them, and since
a deal depends only on the arena's seed and its number the results do not change. A
chunk that has killed ``distributed.scheduler.allowed-failures`` workers (3 by default)
stops the run with :class:`ClusterError`; so does a cluster left with no worker for
``lonely`` seconds.
"""

from __future__ import annotations

import hashlib
import socket
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import CancelledError, Executor, Future
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import briscola
from briscola.engine.errors import BriscolaError

if TYPE_CHECKING:
    from briscola.engine.rules import Rules


class Arena(Protocol):
    """What the workers are checked against: the players of an arena
    (:class:`briscola.arena.duplicate.Arena`, not imported: it imports this module)."""

    @property
    def bots(self) -> tuple[str, ...]: ...

    @property
    def names(self) -> list[str]: ...

    @property
    def move_limit(self) -> float | None: ...

    def rules(self) -> Rules: ...


DEFAULT_PORT = 8786
"""The Dask scheduler's port when the address gives none."""
CONNECT_TIMEOUT = 10.0
"""Seconds to reach the scheduler and for it to have a worker."""
LONELY = 60.0
"""Seconds a run waits with no worker in the cluster before it stops."""
INSTALL = "install briscola[cluster] (pip install 'briscola[cluster]') here and on the workers"


class ClusterError(BriscolaError):
    """The cluster cannot play the arena: unreachable, no workers, other code on a
    worker, or workers dying. The message says what to check."""


@cache
def code_digest() -> str:
    """A hash of the source and data files of the installed briscola package (the web
    client's static files aside): two processes with the same digest play the same
    games."""
    root = Path(briscola.__file__).resolve().parent
    h = hashlib.blake2b(digest_size=8)
    files = [p for x in ("*.py", "*.json") for p in root.rglob(x) if "static" not in p.parts]
    for path in sorted(files):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def identity() -> dict[str, str]:
    """What a process plays with: briscola's version, its code digest and Python's version."""
    return {
        "briscola": briscola.__version__,
        "code": code_digest(),
        "python": ".".join(map(str, sys.version_info[:2])),
    }


def worker_check(arena: Arena) -> dict[str, str]:
    """Run on each worker: its :func:`identity`, after making each of the arena's bots
    once (raising :class:`~briscola.ai.bot.BotError` for one it cannot make)."""
    from briscola.arena.sides import check_bots

    check_bots(arena.rules(), arena.bots, arena.names, arena.move_limit)
    return identity()


def reachable(address: str, timeout: float) -> None:
    """Raise :class:`ClusterError` unless something answers a TCP connect at ``address``
    (a Dask address: ``tcp://host:port``, ``tls://...``, or ``host:port``) within
    ``timeout`` seconds."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme in ("inproc", "ucx"):
            return  # no TCP port to try: Dask's own connect says
        if scheme not in ("tcp", "tls", "ws", "wss"):
            raise ValueError(f"{scheme}:// is none of tcp://, tls://, ws://, wss://")
        host, port = parse_host_port(location, DEFAULT_PORT)
    except ValueError as e:
        raise ClusterError(
            f"--cluster {address!r} is not a Dask scheduler's address ({e}): give one like "
            f"tcp://HOST:{DEFAULT_PORT}, as `dask scheduler` prints it"
        ) from None
    check = (
        f"check that `dask scheduler` runs on {host}, that it listens on port {port} "
        "(its log says `Scheduler at: tcp://...`), and that no firewall stands between"
    )
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except socket.gaierror:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address}: no machine is named {host!r}; "
            "check the host name"
        ) from None
    except TimeoutError:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address}: no answer in {timeout:g} s; {check}"
        ) from None
    except OSError as e:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address}: {e.strerror or e}; {check}"
        ) from None


@dataclass
class Cluster:
    """A connection to a Dask scheduler, checked for the arena (see the module's notes)."""

    address: str
    client: Any
    """The ``distributed.Client``."""
    lonely: float = LONELY

    def slots(self) -> int:
        """Tasks the workers can run at once: the sum of their threads."""
        threads: dict[str, int] = self.client.nthreads()
        return max(1, sum(threads.values()))

    def executor(self) -> Executor:
        """A ``concurrent.futures`` executor whose tasks run on the workers, each task
        new (not taken from an earlier run with the same arguments)."""
        executor: Executor = self.client.get_executor(pure=False)
        return executor

    def check(self, arena: Arena) -> None:
        """Refuse, naming the worker, when a worker runs other briscola code or cannot
        make one of the arena's bots."""
        mine = identity()
        answers = self.client.run(worker_check, arena, on_error="return")
        for worker, got in sorted(answers.items()):
            if isinstance(got, ModuleNotFoundError | ImportError) and "briscola" in str(got):
                raise ClusterError(
                    f"worker {worker} cannot import briscola ({got}): install briscola "
                    f"{mine['briscola']} with its cluster extra there (the same code as here)"
                )
            if isinstance(got, BriscolaError):
                raise ClusterError(f"worker {worker}: {got}")
            if isinstance(got, BaseException):
                raise ClusterError(f"worker {worker} failed its check: {got!r}")
            if (got.get("briscola"), got.get("code")) != (mine["briscola"], mine["code"]):
                theirs = f"briscola {got.get('briscola')}, code {got.get('code')}"
                raise ClusterError(
                    f"worker {worker} runs other code ({theirs}, Python {got.get('python')}) "
                    f"than this machine (briscola {mine['briscola']}, code {mine['code']}, "
                    f"Python {mine['python']}): its games would not be the same; install "
                    "the same briscola on every worker and start them again"
                )

    def watch(self, pending: Sequence[Future[Any]], since: list[float]) -> None:
        """Called while waiting on ``pending``: raise :class:`ClusterError` when the
        cluster has had no worker for :attr:`lonely` seconds (``since`` holds when the
        workers were last seen)."""
        if not pending:
            return
        try:
            threads = self.client.nthreads()
        except OSError:  # the scheduler is gone
            raise scheduler_lost(self.address) from None
        if threads:
            since[0] = time.monotonic()
        elif time.monotonic() - since[0] > self.lonely:
            raise ClusterError(
                f"the Dask cluster at {self.address} has had no worker for "
                f"{self.lonely:g} s: start workers with `dask worker {self.address}`"
            )

    def close(self) -> None:
        self.client.close()


def lost(error: BaseException, address: str) -> ClusterError | None:
    """A :class:`ClusterError` for a run the cluster gave up: a chunk of deals that
    killed its workers, or the scheduler gone (its tasks cancelled); None for any other
    error (a bot's, raised on a worker, is the same as without a cluster)."""
    from distributed.scheduler import KilledWorker

    again = "run again (with --save, the run goes on where it stopped)"
    if isinstance(error, KilledWorker):
        return ClusterError(
            f"a chunk of deals was running on a worker of {address} that died, and again on "
            "the next ones, as many times as the scheduler allows (distributed.scheduler."
            f"allowed-failures): look at the workers' logs (out of memory? killed?) and {again}"
        )
    if isinstance(error, CancelledError):
        return scheduler_lost(address)
    return None


def scheduler_lost(address: str) -> ClusterError:
    return ClusterError(
        f"lost the Dask scheduler at {address} mid-run (its deals were given up): check that "
        "`dask scheduler` still runs there, start it and its workers again, and run again "
        "(with --save, the run goes on where it stopped)"
    )


@contextmanager
def connect(
    address: str, arena: Arena | None = None, timeout: float = CONNECT_TIMEOUT
) -> Iterator[Cluster]:
    """A :class:`Cluster` on the Dask scheduler at ``address``, checked (see the module's
    notes; the workers' bots too when ``arena`` is given), closed on leaving."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError(f"--cluster needs Dask's distributed: {INSTALL}") from None
    reachable(address, timeout)
    try:
        client = Client(address, timeout=timeout, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as e:
        raise ClusterError(
            f"{address} answers but is not a Dask scheduler that lets us in ({e}): check the "
            "address, and that the scheduler runs the same Dask as here"
        ) from None
    cluster = Cluster(address, client)
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise ClusterError(
                f"the Dask scheduler at {address} has no worker: start some with "
                f"`dask worker {address} --nworkers auto --nthreads 1` on each machine"
            ) from None
        if arena is not None:
            cluster.check(arena)
        yield cluster
    finally:
        cluster.close()
