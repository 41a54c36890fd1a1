"""Strong solutions of m,n,k-games in a dense table: value and depth of every reachable position.

Values are absolute, from the first player's side (:mod:`fastttt.values`): +1 the first
player (X) wins, 0 draw, -1 the second player (O) wins. Depth is the number of plies to the
end under perfect play when the winner hurries and the loser delays (draws: plies until the
board is full); finished positions have depth 0.

``solve`` runs the kernels of :mod:`fastttt.kernels.dense` over the compact table of
:mod:`fastttt.tables.layout`: one backward sweep giving each position its value and depth from its
children, blocks with more stones first (without gravity, reachability follows from the
lines; with gravity a forward sweep first marks reachable positions, pulled from their
parents, so no two threads ever write the same byte). Memory: one byte per position with
legal stone counts, e.g. 5.5 KB for 3x3, 10 MB for 4x4, 741 MB for 5x4;
:func:`estimate_memory` tells before a solve.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from fastttt.codes import code_count, codes_of_bitboards
from fastttt.errors import (
    InvalidArgumentError,
    InvalidPositionError,
    MemoryBudgetError,
    require_int,
)
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import GameSpec, as_spec
from fastttt.interrupt import new_stop, run
from fastttt.kernels import dense
from fastttt.memory import available_memory as available_memory  # re-exported
from fastttt.memory import format_bytes
from fastttt.tables.layout import Layout, build_layout, hi_layers, lo_cell_count, slot_count
from fastttt.tables.queries import PositionQueries
from fastttt.values import table_counts, values_of_bytes

# Interpreter, NumPy, Numba and the compiled kernels, measured as resident memory after a
# 3x3 solve (about 140 MB), rounded up.
RUNTIME_OVERHEAD = 200 * 2**20
# Below this (about 1 s on one core) threads save little time and cost CPU: on the 2-core VM
# with other jobs running, 4x4 k=4 (10 M slots) took 15-25% more CPU with 2 threads and no
# less wall time.
PARALLEL_MIN_SLOTS = 1 << 26
SMALL_SOLVE_BYTES = 64 << 20  # table + index below this: no look at /proc/meminfo
_CPUS = os.cpu_count() or 1


Progress = Callable[[str, int, int], None]  # (phase, done, total) in table slots


def estimate_memory(spec: GameSpec | str) -> int:
    """Bytes a solve of ``spec`` needs at peak: the table, its index arrays, the runtime."""
    return _estimate_memory(as_spec(spec))


@lru_cache(maxsize=64)
def _estimate_memory(spec: GameSpec) -> int:
    lo_n = lo_cell_count(spec)
    index_bytes = 8 * (10 * code_count(lo_n) + 9 * code_count(spec.cells - lo_n))
    return slot_count(spec) + index_bytes + RUNTIME_OVERHEAD


def fits_in_memory(spec: GameSpec | str, max_bytes: int | None = None) -> bool:
    """Whether a dense solve of ``spec`` fits ``max_bytes`` (default: 90% of available memory)."""
    limit = int(0.9 * available_memory()) if max_bytes is None else max_bytes
    return estimate_memory(spec) <= limit


class Solution(PositionQueries):
    """A solved game: every reachable position's value (+1/0/-1, first player's side) and depth.

    Build it with :func:`solve` or :func:`fastttt.tables.dense_store.load`.
    """

    def __init__(self, spec: GameSpec, table: np.ndarray, seconds: float = 0.0):
        self.spec = spec
        self.layout = build_layout(spec)
        self.table = table
        self.seconds = seconds
        self._ply_histogram: np.ndarray | None = None

    # --- single positions (value, depth, best_moves, move_outcomes: PositionQueries) ----
    def _stored_byte(self, pos: Position) -> int:
        slot = self._slots(np.array([pos.code], dtype=np.int64))[0]
        return int(self.table[slot]) if slot >= 0 else 0

    # --- many positions (probe_many, get_many: PositionQueries) ----------------------------
    def bytes_of(self, firsts: np.ndarray, seconds: np.ndarray) -> np.ndarray:
        """Table byte of each position given as uint64 bitboards (0 when not reachable)."""
        codes = codes_of_bitboards(firsts, seconds, self.spec.cells)
        slots = self._slots(codes)
        out = np.zeros(slots.shape[0], dtype=np.uint8)
        out[slots >= 0] = self.table[slots[slots >= 0]]
        return out

    def _slots(self, codes: np.ndarray) -> np.ndarray:
        codes = np.asarray(codes)
        if codes.ndim != 1 or not (codes.dtype.kind in "iu" or codes.size == 0):
            raise InvalidPositionError(
                f"codes must be a 1-D array of integers, got {codes.ndim}-D {codes.dtype}"
            )
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        out = np.empty(codes.shape[0], dtype=np.int64)
        dense.slots_of_codes(self.layout, codes, out)
        return out

    def is_reachable(self, codes: np.ndarray) -> np.ndarray:
        """Boolean array: whether each base-3 code is a reachable position."""
        slots = self._slots(codes)
        ok = slots >= 0
        result = np.zeros(slots.shape[0], dtype=bool)
        result[ok] = self.table[slots[ok]] != 0
        return result

    def lookup(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(values int8, depths int8) of base-3 codes; values +1/0/-1 from the first player's side.

        Raises InvalidPositionError naming the first unreachable code.
        """
        slots = self._slots(codes)
        codes = np.asarray(codes)
        bad = slots < 0
        bytes_ = np.zeros(slots.shape[0], dtype=np.uint8)
        bytes_[~bad] = self.table[slots[~bad]]
        bad |= bytes_ == 0
        if bad.any():
            i = int(np.argmax(bad))
            raise InvalidPositionError(
                f"code {int(codes[i])} (index {i}) is not a reachable position of {self.spec.name}"
            )
        return values_of_bytes(bytes_)

    def reachable_codes(self) -> np.ndarray:
        """Sorted base-3 codes of every reachable position (int64)."""
        out = np.empty(self.reachable, dtype=np.int64)
        n = dense.reachable_codes(self.table, self.layout, out)
        return out[:n]

    def attractor(self, player: int) -> tuple[np.ndarray, np.ndarray]:
        """Retrograde attractor of ``player`` (0 first, 1 second): its winning region.

        Computed independently of the backward sweep, with predecessor counters (the
        handout's method): returns (sorted base-3 codes, ranks int16), rank = round of joining
        = plies to the win under the winner's fastest play.
        """
        if player not in (0, 1):
            raise InvalidArgumentError(f"player must be 0 (first) or 1 (second), got {player!r}")
        need = self.table.shape[0] * (1 + 2 + 8)
        if need > 0.9 * available_memory():
            raise MemoryBudgetError(
                f"the retrograde attractor of {self.spec.name} needs {format_bytes(need)}, "
                f"only {format_bytes(available_memory())} is available"
            )
        rank = np.empty(self.table.shape[0], dtype=np.int16)
        queue = np.empty(self.table.shape[0], dtype=np.int64)
        n = dense.retrograde_attractor(self.table, self.layout, player, rank, queue)
        codes = np.sort(queue[:n])
        return codes, rank[self._slots(codes)]

    # --- counts -----------------------------------------------------------------------
    @property
    def ply_histogram(self) -> np.ndarray:
        """int64[cells + 1, 256]: slots of each table byte by number of stones (ply). Kernel:
        ``dense.ply_histogram_*``."""
        if self._ply_histogram is None:
            out = np.zeros((self.spec.cells + 1, 256), dtype=np.int64)
            if self.table.shape[0] < 1 << 20:  # no thread pool for small tables
                dense.ply_histogram_serial(self.table, self.layout, out)
            else:
                dense.ply_histogram_parallel(self.table, self.layout, out)
            self._ply_histogram = out
        return self._ply_histogram

    @property
    def histogram(self) -> np.ndarray:
        """int64[256]: slots of each table byte."""
        return self.ply_histogram.sum(axis=0)

    @property
    def reachable(self) -> int:
        return int(self.ply_histogram[:, 1:].sum())

    def counts(self) -> dict:
        """Reachable positions, finished ones by result, all of them by value
        (:func:`fastttt.values.table_counts`), and the same for each ply in ``by_ply``."""
        h = self.ply_histogram
        return {
            **table_counts(h.sum(axis=0)),
            "by_ply": [{"ply": n, **table_counts(h[n])} for n in range(h.shape[0])],
        }

    def summary(self) -> dict:
        """The JSON summary of ``fastttt solve --json``."""
        return self._summary(self.counts(), self.seconds, self.table.nbytes)

    def __repr__(self) -> str:
        return f"<Solution {self.spec.name}: {self.table.shape[0]} slots>"


class _Plan(NamedTuple):
    """What every solve of one game reuses."""

    layout: Layout
    layers: tuple[np.ndarray, ...]  # hi codes by number of hi stones
    order: np.ndarray  # the layers one after the other
    sizes: tuple[int, ...]  # slots of each layer
    slots: int


@lru_cache(maxsize=8)
def _plan(spec: GameSpec) -> _Plan:
    layout = build_layout(spec)
    layers = tuple(hi_layers(spec))
    if spec.gravity:  # blocks with a stone floating in hi hold no reachable position: left 0
        occupied = layout.hi_first | layout.hi_second
        floating = (occupied & ~(layout.bottom | occupied >> np.uint64(spec.cols))) != 0
        layers = tuple(his[~floating[his]] for his in layers)
    sizes = tuple(int((layout.hi_base[h + 1] - layout.hi_base[h]).sum()) for h in layers)
    return _Plan(layout, layers, np.concatenate(layers), sizes, int(layout.hi_base[-1]))


def solve(
    spec: GameSpec | str,
    progress: Progress | None = None,
    *,
    max_bytes: int | None = None,
    parallel: bool | None = None,
) -> Solution:
    """Strongly solve ``spec``: value (+1 first wins / 0 / -1 second wins) and depth of every
    reachable position. Kernels: :mod:`fastttt.kernels.dense`.

    Raises MemoryBudgetError (with the estimate) when the table would not fit ``max_bytes``
    (default: 90% of the memory available now, not checked below 64 MiB of table and index).
    ``progress(phase, done, total)`` is called after each layer of blocks (after each sweep
    when serial); ``parallel`` defaults to True for tables over 64 M slots. Ctrl-C raises
    ``KeyboardInterrupt`` within a fraction of a second (the kernels run in bounded pieces).
    """
    if not isinstance(spec, GameSpec):
        spec = as_spec(spec)
    if max_bytes is not None:
        max_bytes = require_int(max_bytes, "max_bytes", 0, 2**62)
    need = _estimate_memory(spec)
    if max_bytes is not None or need > SMALL_SOLVE_BYTES + RUNTIME_OVERHEAD:
        limit = int(0.9 * available_memory()) if max_bytes is None else max_bytes
        if need > limit:
            raise MemoryBudgetError(
                f"solving {spec.name} ({spec.describe()}) needs about {format_bytes(need)} "
                f"({slot_count(spec):,} table slots); the limit is {format_bytes(limit)}. "
                "Use exact search for single positions instead."
            )
    start = time.perf_counter()
    plan = _plan(spec)
    layout, slots = plan.layout, plan.slots
    two_pass = not layout.closed_form
    # the closed-form sweep writes every slot; the forward sweep only the reachable ones
    table = np.zeros(slots, dtype=np.uint8) if two_pass else np.empty(slots, dtype=np.uint8)
    if parallel is None:
        parallel = slots >= PARALLEL_MIN_SLOTS and _CPUS > 1
    swept = sum(plan.sizes)
    total = 2 * swept if two_pass else swept
    # Ctrl-C: the serial sweeps run in pieces of about PIECE_SLOTS slots, and Python delivers
    # it between them; the parallel sweeps poll a stop word (fastttt.interrupt) between blocks,
    # since pieces would cost a barrier each. The unfinished table is dropped with the frame.
    if not parallel:
        if two_pass:
            for piece in _pieces(layout, plan.order):
                dense.forward_serial(table, layout, piece)
            if progress:
                progress("reachability", swept, total)
        for piece in reversed(_pieces(layout, plan.order)):
            dense.values_blocks_serial(table, layout, piece, two_pass)
        for piece in _pieces(layout, plan.order):
            dense.finish_blocks_serial(table, layout, piece)
        if progress:
            progress("values", total, total)
        return Solution(spec, table, time.perf_counter() - start)
    stop = new_stop()
    done = 0
    if two_pass:
        for his, size in zip(plan.layers, plan.sizes, strict=True):
            run(dense.forward_layer, table, layout, his, stop, stop=stop)
            done += size
            if progress:
                progress("reachability", done, total)
    for his, size in zip(reversed(plan.layers), reversed(plan.sizes), strict=True):
        run(dense.values_layer, table, layout, his, two_pass, stop, stop=stop)
        done += size
        if progress:
            progress("values", done, total)
    run(dense.finish_blocks, table, layout, plan.order, stop, stop=stop)
    return Solution(spec, table, time.perf_counter() - start)


PIECE_SLOTS = 1 << 23  # slots per serial kernel call of a solve: 10-200 ms


def _pieces(layout: Layout, his: np.ndarray) -> list[np.ndarray]:
    """``his`` cut, in order, into runs of blocks of about :data:`PIECE_SLOTS` slots each."""
    ends = np.cumsum(layout.hi_base[his + 1] - layout.hi_base[his])
    if len(ends) == 0 or ends[-1] <= PIECE_SLOTS:
        return [his]
    cuts = np.searchsorted(ends, np.arange(PIECE_SLOTS, ends[-1], PIECE_SLOTS), side="right")
    return [piece for piece in np.split(his, np.unique(cuts)) if len(piece)]


def warmup() -> float:
    """Compile (or load from the cache) every solver kernel; returns the seconds it took.

    The first call on a machine compiles for about 8 s; later processes load the cached
    machine code in a fraction of a second.
    """
    from fastttt.games.mnk.spec import mnk

    start = time.perf_counter()
    for spec, parallel in itertools.product(
        (mnk(3, 4, 3, gravity=True), mnk(3, 4, 3)), (False, True)
    ):
        solution = solve(spec, parallel=parallel)
        solution.lookup(solution.reachable_codes()[:1])
        solution.histogram  # noqa: B018 (computes the counts)
    dense.ply_histogram_parallel(solution.table, solution.layout, solution.ply_histogram.copy())
    solution.attractor(0)
    return time.perf_counter() - start
