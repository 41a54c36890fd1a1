"""Numba options shared by every kernel, in one place.

Stable kernels are compiled with ``cache=True`` so that only the first run on a machine pays
for compilation. Set ``NUMBA_DISABLE_JIT=1`` to run kernels as plain Python (debugging,
coverage).
"""

JIT = {"cache": True, "nogil": True}
PARALLEL_JIT = {"cache": True, "nogil": True, "parallel": True}
# Small helpers that take tuples of arrays: inlined into their callers, since a call would
# count references on every array of the tuple (atomic operations, hundreds of ns a call).
INLINE_JIT = {"cache": True, "nogil": True, "inline": "always"}
