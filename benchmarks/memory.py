"""Sizes for the benchmarks' ``extra_info``, each key named for what it measures:

- ``positions``: the reachable positions the benchmark's solve finds;
- ``peak_traced_mib``: the peak of the memory Python and NumPy allocate during one extra,
  untimed call (``tracemalloc``: arrays that Numba kernels allocate inside themselves and the
  interpreter's own footprint are not seen), for benchmarks that solve in this process;
- ``peak_rss_mib``: the peak resident set size of the child processes (``ru_maxrss`` of
  ``RUSAGE_CHILDREN``: the largest child so far), for benchmarks that run ``fastttt`` in a
  fresh process.

:func:`fastttt.views.plot.plot_benchmarks` draws both memory figures against ``positions``.
"""

from __future__ import annotations

import resource
import tracemalloc
from collections.abc import Callable
from typing import Any

MIB = 2**20


def traced_peak_mib(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, float]:
    """``(fn(*args, **kwargs), peak MiB that Python and NumPy allocated during the call)``."""
    tracemalloc.start()
    try:
        result = fn(*args, **kwargs)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, round(peak / MIB, 3)


def children_peak_rss_mib() -> float:
    """The peak RSS of the largest child process waited for so far, in MiB (Linux: KiB)."""
    return round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1)


def record_traced(
    benchmark, positions: int, fn: Callable[..., Any], *args: Any, **kwargs: Any
) -> None:
    """Store ``positions`` and ``peak_traced_mib`` of one more call of ``fn`` (untimed)."""
    _result, peak = traced_peak_mib(fn, *args, **kwargs)
    benchmark.extra_info["positions"] = int(positions)
    benchmark.extra_info["peak_traced_mib"] = peak
