"""Worker processes on this machine are spawned, never forked.

A fork copies the parent's locks in whatever state its other threads hold them at that instant
(the OpenMP pool of Numba's parallel kernels, which GNU OpenMP documents as not fork-safe; zarr's
I/O loop; the Ctrl-C watcher of :mod:`fastttt.interrupt`), and a child that then takes one of
them waits forever. A spawned child starts a fresh interpreter and
imports what it needs (a second or two; Numba's kernels come from its on-disk cache).
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import SpawnContext
from multiprocessing.pool import Pool

SPAWN: SpawnContext = multiprocessing.get_context("spawn")


def process_pool(workers: int) -> ProcessPoolExecutor:
    """An executor of ``workers`` spawned processes."""
    return ProcessPoolExecutor(workers, mp_context=SPAWN)


def killable_pool(workers: int) -> Pool:
    """A :class:`multiprocessing.pool.Pool` of ``workers`` spawned processes, for work whose
    running tasks must stop when the caller stops reading (``terminate()`` kills them)."""
    return SPAWN.Pool(workers)
