"""Hands' analyses at the server (:mod:`briscola.analysis`): computed once a hand is over,
in a worker process of their own, so that neither the event loop nor the computer
players' threads wait on one (an analysis is a second or so of searching); then kept in
the database, so that each hand's is computed once (:meth:`Analyst.get`).

The analysis of a hand is that of its record with seed 0, exactly what ``briscola
analyse`` gives on the record the server lets anyone download once the hand is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from briscola.server.errors import Refused
from briscola.storage import Storage

log = logging.getLogger("briscola.server")

WAIT = 2.0
"""Seconds a request waits for an analysis being computed before it is told to ask
again (``202``)."""

QUEUE = 32
"""The most analyses waiting or being computed at once in a process; past it a request
is told to ask again later (``503 busy``)."""

WARM = "BRISCOLA_WARM_ANALYSIS"
"""The environment variable that, set to ``0``, keeps the analysis worker from being
started and warmed when a table starts (:meth:`Analyst.warm`; the tests' servers)."""


def busy() -> Refused:
    return Refused(
        "busy",
        f"{QUEUE} analyses are being computed here already: ask again in a few seconds",
        503,
    )


class Analyst:
    """The process's analyses: those kept, and those being computed (one worker process,
    started at the first one and stopped with the server)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._pool: ProcessPoolExecutor | None = None
        self._computing: dict[tuple[int, int, str, str], asyncio.Task[dict[str, Any]]] = {}
        self._warmed: set[str] = set()

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fresh interpreter, not a fork of a process with threads and a loop
            spawn = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=spawn)
        return self._pool

    def warm(self, game: str, options: dict[str, Any]) -> asyncio.Future[bool] | None:
        """Start the worker process, if it is not running, and have it compile (or load)
        the search's kernels the analysis of ``game`` with the house rules ``options`` runs
        (:func:`briscola.analysis.hand.warm`) while the table plays its first hand: then
        its analysis comes in seconds, not after the compiler. Once a process for each
        game and rules; not when :data:`WARM` is ``0``. The job, or ``None`` when none was
        started."""
        kind = f"{game} {sorted(options.items())}"
        if os.environ.get(WARM) == "0" or kind in self._warmed:
            return None
        from briscola.analysis.hand import warm

        self._warmed.add(kind)
        job = asyncio.wrap_future(self.pool().submit(warm, game, options))

        def said(done: asyncio.Future[bool]) -> None:
            if not done.cancelled() and done.exception() is not None:
                log.warning("the analysis worker could not be warmed: %r", done.exception())

        job.add_done_callback(said)
        return job

    async def get(
        self, table_id: int, hand: int, level: str, record: dict[str, Any], seen: str = "seat"
    ) -> dict[str, Any] | None:
        """Hand ``hand``'s analysis at ``level``, from what each seat knew (``seen="seat"``)
        or with every card seen (``"all"``): the one kept, or the one computed from
        ``record`` (the hand's record) within :data:`WAIT` seconds; ``None`` while it is
        still being computed (ask again)."""
        from briscola.analysis.hand import VERSION

        kept = await self.storage.analysis(table_id, hand, level, seen)
        if kept is not None and kept.get("version") == VERSION:
            return kept  # (one of an older version is computed again, and replaced)
        key = (table_id, hand, level, seen)
        task = self._computing.get(key)
        if task is None:
            if len(self._computing) >= QUEUE:
                raise busy()
            task = self._computing[key] = asyncio.create_task(self._compute(key, record))
            task.add_done_callback(lambda _: self._computing.pop(key, None))
        try:
            return await asyncio.wait_for(asyncio.shield(task), WAIT)
        except TimeoutError:
            return None
        except Exception as e:  # the worker failed (the ai extra missing, a bug): said
            log.exception("table %d: hand %d could not be analysed", table_id, hand)
            raise Refused(
                "no_analysis", f"the hand could not be analysed ({type(e).__name__})", 503
            ) from None

    async def _compute(
        self, key: tuple[int, int, str, str], record: dict[str, Any]
    ) -> dict[str, Any]:
        from briscola.analysis import analyse_json

        table_id, hand, level, seen = key
        loop = asyncio.get_running_loop()
        body: dict[str, Any] = await loop.run_in_executor(
            self.pool(), analyse_json, record, level, 0, 0, seen
        )
        body["hand"] = hand - 1  # (the hand's index in the match, as its match record has it)
        for d in body["decisions"]:
            d["hand"] = hand - 1
        await self.storage.keep_analysis(table_id, hand, level, body, seen)
        log.info("table %d: hand %d analysed (%s, seen: %s)", table_id, hand, level, seen)
        return body

    def close(self) -> None:
        for task in self._computing.values():
            task.cancel()
        if self._pool is not None:
            with contextlib.suppress(Exception):
                self._pool.shutdown(wait=False, cancel_futures=True)
