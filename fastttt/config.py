"""Numba options shared by every kernel, in one place.

Stable kernels are compiled with ``cache=True`` so that only the first run on a machine pays
for compilation. Set ``NUMBA_DISABLE_JIT=1`` to run kernels as plain Python (debugging,
coverage).

Importing fastttt sets ``OMP_WAIT_POLICY=PASSIVE`` unless it is set already: OpenMP's threads
(Numba's "omp" threading layer) otherwise spin between parallel regions, and a layered solve
on disk spends those gaps reading and writing chunks, so the spinning thread burned CPU for
nothing (Connect Four 5x6 on disk: 262 CPU-s, 202 with the threads asleep, the same wall time).
It acts only if set before OpenMP is loaded (the first parallel kernel of the process), and
child processes inherit it.

Importing this module (as every kernel module does first) also clears Numba's cache of the
kernels when a kernel module or this file changed (:mod:`fastttt.numba_cache`).
"""

import os
from pathlib import Path

from fastttt.numba_cache import clear_if_stale

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
clear_if_stale(Path(__file__).parent / "kernels", also=[Path(__file__)])

JIT = {"cache": True, "nogil": True}
PARALLEL_JIT = {"cache": True, "nogil": True, "parallel": True}
# Small helpers that take tuples of arrays: inlined into their callers, since a call would
# count references on every array of the tuple (atomic operations, hundreds of ns a call).
INLINE_JIT = {"cache": True, "nogil": True, "inline": "always"}
