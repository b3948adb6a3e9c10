"""Worker processes that play a run's batches, with results in order, and that
neither hang nor speak when something outside stops them.

``ordered`` runs ``work(batch)`` for each batch in worker processes and yields
the results in the order of the batches. Only a window of batches is ahead of
the one awaited (``AHEAD`` per worker), so a slow batch holds at most that many
finished ones in memory.

When it stops early (Ctrl-C, SIGTERM: a KeyboardInterrupt in the main thread,
or the consumer closing the generator) the workers are terminated at once,
whatever they were playing. When a worker dies (killed, out of memory),
``concurrent.futures`` notices (a plain ``multiprocessing.Pool`` would replace
the worker and wait for ever for its batch, or block on a lock it held), and
``ordered`` raises ``WorkerLost`` at the first batch lost: the results before
it have been yielded. engine/workbench/stops.py keeps the workers silent.
"""
from __future__ import annotations

import multiprocessing as mp
import signal
import time
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from itertools import islice
from typing import Any, Callable, Iterable, Iterator

from meeple.workbench.stops import WorkerLost, note, starting_workers

AHEAD = 4            # batches submitted per worker beyond the one awaited
JOIN_SECONDS = 10    # at most this long for a worker of a broken pool to end (the pool has terminated it)


def context() -> Any:
    """Fork where there is fork (the workers share the parent's compiled game), else the default."""
    return mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()


def ordered(work: Callable[[Any], Any], batches: Iterable, workers: int, initializer: Callable[..., None],
            initargs: tuple = ()) -> Iterator[Any]:
    """``work(batch)`` for every batch, in ``workers`` processes, in batch order."""
    todo = iter(batches)
    pending: deque[Future] = deque()
    with starting_workers():        # the workers begin with SIGINT ignored and SIGTERM held (engine/workbench/stops.py)
        pool = ProcessPoolExecutor(workers, mp_context=context(), initializer=initializer, initargs=initargs)
        pending.extend(pool.submit(work, b) for b in islice(todo, AHEAD * workers))     # starts the workers
    processes = dict(getattr(pool, "_processes", None) or {})      # pid -> process, to say which died
    try:
        while pending:
            result = _result(pending.popleft(), processes)
            try:
                pending.extend(pool.submit(work, b) for b in islice(todo, 1))
            except BrokenProcessPool:       # a worker died meanwhile: the batches submitted say which is lost
                todo = iter(())
            yield result
    finally:
        _stop(pool, processes)


def _result(future: Future, processes: dict) -> Any:
    try:
        return future.result()
    except BrokenProcessPool:
        raise note(_lost(processes)) from None


def _lost(processes: dict) -> WorkerLost:
    """Which worker died: the one dead of another cause than the SIGTERM the pool then
    sent the others (all are waited for, so that each has its exit code)."""
    deadline = time.monotonic() + JOIN_SECONDS
    for p in processes.values():
        p.join(max(0.0, deadline - time.monotonic()))
    # the pool's own thread may be reaping a worker as we join it: its exit code shows
    # once that thread has it (a join that lost the race returns with none)
    while any(p.exitcode is None for p in processes.values()) and time.monotonic() < deadline:
        time.sleep(0.01)
    dead = [p for p in processes.values() if p.exitcode is not None]
    first = next((p for p in dead if p.exitcode != -signal.SIGTERM), dead[0] if dead else None)
    return WorkerLost(first.pid if first else None, first.exitcode if first else -signal.SIGKILL)


def _stop(pool: ProcessPoolExecutor, processes: dict) -> None:
    """End the pool now: the batches not started are dropped, the workers playing
    one are terminated (they die of SIGTERM at once, silently)."""
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes.values():
        if p.exitcode is None:
            p.terminate()
    for p in processes.values():
        p.join()
