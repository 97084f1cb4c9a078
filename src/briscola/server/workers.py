"""Costly work off the tables' way: the hints and the hands' analyses, each computed in a
worker process of its own, at a lower priority than the server's.

A hint is a search of a third of a second or more, an analysis one of seconds. Worked out
in a thread of the server process, a search holds the interpreter's lock between its
compiled kernels, and takes a core the event loop needs: 40 hints asked at once made
another table's echo rise from 7 to 97 ms (issue 40). In a :class:`Worker` it runs in
another process, which the operating system schedules after the server (``nice``
:data:`NICE`), so that a table's moves never wait on it.

Each worker takes at most ``most`` jobs waiting or running at once; past them a request
is refused at once with ``503 busy`` and a ``Retry-After`` of the seconds the jobs ahead
should take (:meth:`Worker.busy`), rather than waiting in a queue without end.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from briscola.server.errors import Refused

T = TypeVar("T")

NICE = 10
"""How much lower than the server's a worker process's priority is (``nice``), unless
the environment variable :data:`NICE_VARIABLE` says another."""

NICE_VARIABLE = "BRISCOLA_WORKER_NICE"
"""The environment variable that sets the workers' ``nice`` instead of :data:`NICE` (the
tests' servers: ``0``, for beside a whole suite a worker of low priority waits long)."""


def _lower_priority() -> None:
    """Lower the worker process's priority (where the system has ``nice``)."""
    nice = int(os.environ.get(NICE_VARIABLE) or NICE)
    if nice and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(nice)


class Worker:
    """A worker process for one kind of costly job (``what``: ``hints``, ``analyses``),
    started at its first job and stopped with the server; at most ``most`` jobs waiting or
    running at once, each taking about ``each`` seconds (for ``Retry-After``)."""

    def __init__(self, what: str, most: int, each: float) -> None:
        self.what = what
        self.most = most
        self.each = each
        self.jobs = 0
        """The jobs waiting or running now (those :meth:`run` counts)."""
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        """The worker process's pool: started at the first job, and again after its
        process died (killed, out of memory), which breaks a pool for good."""
        if self._pool is not None and getattr(self._pool, "_broken", False):
            self.close()
            self._pool = None
        if self._pool is None:
            # spawn: a fresh interpreter, not a fork of a process with threads and a loop
            spawn = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=spawn, initializer=_lower_priority
            )
        return self._pool

    def busy(self, ahead: int | None = None) -> Refused:
        """``503 busy``, with a ``Retry-After`` of the seconds the ``ahead`` jobs (by
        default those counted now) should take, one at least."""
        wait = max(1, math.ceil((self.jobs if ahead is None else ahead) * self.each))
        return Refused(
            "busy",
            f"{self.most} {self.what} are being worked out here already: ask again in {wait} s",
            503,
            {"Retry-After": str(wait)},
        )

    def full(self) -> bool:
        return self.jobs >= self.most

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` worked out in the worker process (``fn`` and its arguments are
        pickled: a module's function, plain values); :meth:`busy` when it holds
        :attr:`most` jobs already."""
        if self.full():
            raise self.busy()
        self.jobs += 1
        try:
            return await asyncio.wrap_future(self.pool().submit(fn, *args))
        except BrokenProcessPool:  # the worker died under this job: the next starts one
            raise self.busy(0) from None
        finally:
            self.jobs -= 1

    def submit(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """``fn(*args)`` in the worker, not counted among its jobs (a warm-up)."""
        return asyncio.wrap_future(self.pool().submit(fn, *args))

    def close(self) -> None:
        """Stop the worker process, ending a job it is in the middle of (an analysis is
        computed again when next asked for): the server does not wait on it to stop."""
        if self._pool is not None:
            processes = list((getattr(self._pool, "_processes", None) or {}).values())
            with contextlib.suppress(Exception):
                self._pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                with contextlib.suppress(Exception):
                    process.terminate()


def hint_json(record: dict[str, Any], seat: int, seed: int) -> dict[str, Any]:
    """The hint for ``seat`` in the hand whose record so far is ``record``
    (:meth:`GameState.to_record`: a state crosses to the worker as its record, replayed
    there), searched with ``seed`` (:func:`briscola.analysis.hint`), as JSON; raises
    :class:`~briscola.analysis.NoHint` as it does."""
    from briscola.analysis import hint
    from briscola.engine.game_record import parse_record
    from briscola.engine.record import replay

    state = replay(parse_record(record)).state
    return hint(state, seat, seed).to_json()


__all__ = ["NICE", "NICE_VARIABLE", "Worker", "hint_json"]
