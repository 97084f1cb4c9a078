"""Hands' analyses and hints at the server (:mod:`briscola.analysis`). An analysis is
computed once a hand is over, in a worker process of its own, so that neither the event
loop nor the computer players' threads wait on one (an analysis is a second or so of
searching); then kept in the database, so that each hand's is computed once
(:meth:`Analyst.get`). A hint is worked out in another worker process (:meth:`Analyst.hint`);
both run at a lower priority than the server, and take a bounded number of jobs at once
(:class:`~briscola.server.workers.Worker`).

The analysis of a hand is that of its record with seed 0, exactly what ``briscola
analyse`` gives on the record the server lets anyone download once the hand is over.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from typing import Any

from briscola.engine.state import GameState
from briscola.server.errors import Refused
from briscola.server.workers import Worker, hint_json
from briscola.storage import Storage

log = logging.getLogger("briscola.server")

WAIT = 2.0
"""Seconds a request waits for an analysis being computed before it is told to ask
again (``202``)."""

QUEUE = 8
"""The most analyses waiting or being computed at once in a process, by default
(``ServerSettings.analysis_queue``); past it a request is told to ask again later
(``503 busy`` with ``Retry-After``)."""

HINTS = 6
"""The most hints waiting or being worked out at once in a process, by default
(``ServerSettings.hint_queue``); past it ``503 busy`` with ``Retry-After``."""

ANALYSIS_TIME = 3.0
"""About how many seconds an analysis takes (for ``Retry-After``)."""

HINT_TIME = 0.5
"""About how many seconds a hint takes (for ``Retry-After``)."""

WARM = "BRISCOLA_WARM_ANALYSIS"
"""The environment variable that, set to ``0``, keeps the analysis worker from being
started and warmed when a table starts (:meth:`Analyst.warm`; the tests' servers)."""


class Analyst:
    """The process's analyses: those kept, and those being computed (one worker process,
    started at the first one and stopped with the server, taking at most ``queue`` at
    once); and its hints (another worker process, at most ``hints`` at once)."""

    def __init__(self, storage: Storage, queue: int = QUEUE, hints: int = HINTS) -> None:
        self.storage = storage
        self.worker = Worker("analyses", queue, ANALYSIS_TIME)
        self.hints = Worker("hints", hints, HINT_TIME)
        self._computing: dict[tuple[int, int, str, str], asyncio.Task[dict[str, Any]]] = {}
        self._warmed: set[str] = set()

    async def hint(self, state: GameState, seat: int, seed: int) -> dict[str, Any]:
        """The hint for ``seat`` in ``state`` as JSON (:func:`~.workers.hint_json`), from
        the hints' worker process; ``503 busy`` when it has as many as it takes."""
        return await self.hints.run(hint_json, state.to_record(), seat, seed)

    def warm(self, game: str, options: dict[str, Any]) -> asyncio.Future[bool] | None:
        """Start the worker processes, if they are not running, and have them compile (or
        load) the search's kernels the analysis of ``game`` with the house rules
        ``options`` runs (:func:`briscola.analysis.hand.warm`; a hint runs the same) while
        the table plays its first hand: then its analysis comes in seconds, not after the
        compiler, and the first hint asked for at once. Once a process for each game and
        rules; not when :data:`WARM` is ``0``. The analysis worker's job, or ``None`` when
        none was started."""
        kind = f"{game} {sorted(options.items())}"
        if os.environ.get(WARM) == "0" or kind in self._warmed:
            return None
        from briscola.analysis.hand import warm

        self._warmed.add(kind)
        job = self.worker.submit(warm, game, options)

        def said(done: asyncio.Future[bool]) -> None:
            if not done.cancelled() and done.exception() is not None:
                log.warning("a worker could not be warmed: %r", done.exception())

        job.add_done_callback(said)
        self.hints.submit(warm, game, options).add_done_callback(said)
        return job

    async def get(
        self,
        table_id: int,
        hand: int,
        level: str,
        record: dict[str, Any],
        seen: str = "seat",
        admit: Callable[[], None] | None = None,
    ) -> dict[str, Any] | None:
        """Hand ``hand``'s analysis at ``level``, from what each seat knew (``seen="seat"``)
        or with every card seen (``"all"``): the one kept, or the one computed from
        ``record`` (the hand's record) within :data:`WAIT` seconds; ``None`` while it is
        still being computed (ask again). A new computation is started only when the
        worker has room (else ``503 busy``) and ``admit`` (the asker's limits, which may
        refuse) lets it: asking for one kept, or being computed, costs nothing."""
        from briscola.analysis.hand import VERSION

        kept = await self.storage.analysis(table_id, hand, level, seen)
        if kept is not None and kept.get("version") == VERSION:
            return kept  # (one of an older version is computed again, and replaced)
        key = (table_id, hand, level, seen)
        task = self._computing.get(key)
        if task is None:
            if len(self._computing) >= self.worker.most:
                raise self.worker.busy(len(self._computing))
            if admit is not None:
                admit()
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
            self.worker.pool(), analyse_json, record, level, 0, 0, seen
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
        self.worker.close()
        self.hints.close()
