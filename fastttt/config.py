"""Numba options shared by every kernel, in one place.

Stable kernels are compiled with ``cache=True`` so that only the first run on a machine pays
for compilation. Set ``NUMBA_DISABLE_JIT=1`` to run kernels as plain Python (debugging,
coverage).
"""

JIT = {"cache": True, "nogil": True}
PARALLEL_JIT = {"cache": True, "nogil": True, "parallel": True}
