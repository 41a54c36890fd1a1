"""Worker processes: spawned, never forked, and killed when their caller stops early.

A fork copies the parent's locks in whatever state its other threads hold them at that instant
(the OpenMP pool of Numba's parallel kernels, which GNU OpenMP documents as not fork-safe; zarr's
I/O loop; the Ctrl-C watcher of :mod:`fastttt.interrupt`), and a child that then takes one of
them waits forever. A spawned child starts a fresh interpreter and imports what it needs (about
a second; Numba's kernels come from its on-disk cache).

The pool is :class:`concurrent.futures.ProcessPoolExecutor`, which reports a worker that died
(``BrokenProcessPool``); :class:`multiprocessing.pool.Pool` waits forever for its task, and its
``terminate()`` can hang (CPython issues 78178, 73945, 96995).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

SPAWN = multiprocessing.get_context("spawn")


@contextmanager
def process_pool(
    workers: int, initializer: Callable[..., object] | None = None, initargs: tuple = ()
) -> Iterator[ProcessPoolExecutor]:
    """An executor of ``workers`` spawned processes (each runs ``initializer(*initargs)``
    first). Leaving the block normally waits for the tasks submitted; leaving it by an
    exception (``GeneratorExit`` included: a consumer that stopped reading) drops the tasks
    not started and kills the ones running."""
    pool = ProcessPoolExecutor(
        workers, mp_context=SPAWN, initializer=initializer, initargs=initargs
    )
    try:
        yield pool
    except BaseException:
        _kill(pool)
        raise
    pool.shutdown(wait=True)


def _kill(pool: ProcessPoolExecutor) -> None:
    kill_workers = getattr(pool, "kill_workers", None)  # Python 3.14
    if kill_workers is not None:
        kill_workers()
        return
    running = list((pool._processes or {}).values())  # the executor's own record before 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for process in running:
        process.kill()
    for process in running:
        process.join()
