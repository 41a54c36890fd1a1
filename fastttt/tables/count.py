"""Positions per ply by the forward (reach) pass alone, in bounded memory.

Counting needs no values: the positions after ``n`` plies are the slots of layer ``n``
(:mod:`fastttt.tables.index`) that pull from an open position of layer ``n - 1``, which is
the reach sweep of the layered solver (:mod:`fastttt.tables.layered`, kernel
``layered.forward_chunk_*``). The solver keeps a byte a slot (every layer in RAM, or two
layers with ``--out``); counting keeps one bit a slot of two layers and nothing else::

    previous ply   bits: slot open (reachable, game not over)    read by the kernel
    this ply       bits, written chunk by chunk                  the next ply's previous
    one chunk      reach bytes of DEFAULT_CHUNK slots            counted, packed, reused

A chunk's reach bytes are counted (each stored slot weighs its whole class under the board's
symmetry: :func:`fastttt.kernels.layered.histogram_serial`), packed into the ply's bits and
dropped; the previous ply's bits go once the ply is done. So memory is an eighth of the two
largest neighbouring layers (:attr:`CountPlan.memory_bytes`) plus a chunk, the index of two
layers and the runtime: Connect Four 7x6 to ply 20 in about 1.2 GiB (layers 19 and 20: 8.2 G
slots). Ctrl-C stops between chunks (a fraction of a second each; Python delivers it there).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from fastttt.errors import MemoryBudgetError, require_int
from fastttt.games.mnk.spec import GameSpec, as_spec
from fastttt.kernels import layered as kern
from fastttt.kernels.dense import NONTERMINAL
from fastttt.tables.index import LayerIndex
from fastttt.tables.layer_store import DEFAULT_CHUNK
from fastttt.tables.layered import PARALLEL_MIN_SLOTS, RUNTIME_OVERHEAD, LayerPlan
from fastttt.values import BYTE_DRAW, BYTE_FIRST, BYTE_SECOND

# (ply, slots of the ply done, slots of the ply)
CountProgress = Callable[[int, int, int], None]


@dataclass(frozen=True)
class PlyCount:
    """What the forward pass knows of one ply: ``reachable`` positions after ``ply`` plies
    from the empty board (a game stops at its first line), the ``terminal`` ones (finished:
    won by ``first`` or ``second``, or ``draw``, a full board), and ``classes``: the same
    positions up to the board's symmetry (equal to ``reachable`` without symmetry)."""

    ply: int
    reachable: int
    terminal: dict[str, int] = field(default_factory=dict)
    classes: int = 0

    def as_dict(self) -> dict:
        """The ply's fields as ``fastttt count --json`` writes them."""
        return {
            "ply": self.ply,
            "reachable": self.reachable,
            "terminal": dict(self.terminal),
            "classes": self.classes,
        }


@dataclass
class CountPlan(LayerPlan):
    """What counting ``spec`` up to ``plies`` will hold (``sizes``: layers 0..plies): bits,
    memory."""

    index: LayerIndex  # counting sweeps the heights index only
    plies: int
    chunk: int

    @property
    def memory_bytes(self) -> int:
        """Peak RAM: a bit a slot of the two largest neighbouring layers, a chunk's bytes (and
        its flags and bits), the index of two layers and the runtime."""
        chunk = min(self.chunk, max(self.sizes))
        return self.largest_pair // 8 + 3 * chunk + self.index_bytes() + RUNTIME_OVERHEAD

    def fitting_plies(self, limit: int) -> int:
        """The most plies whose count fits ``limit`` bytes (-1 when not even ply 0 does)."""
        for plies in range(self.plies, -1, -1):
            shorter = CountPlan(self.spec, self.index, self.sizes[: plies + 1], plies, self.chunk)
            if shorter.memory_bytes <= limit:
                return plies
        return -1


@dataclass
class PositionCounts:
    """Positions per ply of ``spec`` from the empty board: ``by_ply[n]`` for n = 0..plies
    (positions, finished ones and classes: :class:`PlyCount`)."""

    spec: GameSpec
    symmetry: str
    by_ply: list[PlyCount]
    seconds: float = 0.0

    @property
    def plies(self) -> int:
        """The last ply counted."""
        return len(self.by_ply) - 1

    @property
    def complete(self) -> bool:
        """Whether every ply of the game was counted (up to the full board)."""
        return self.plies == self.spec.cells

    @property
    def reachable(self) -> int:
        """Positions after at most :attr:`plies` plies (every position when complete)."""
        return sum(p.reachable for p in self.by_ply)

    @property
    def terminal(self) -> dict[str, int]:
        return {
            side: sum(p.terminal[side] for p in self.by_ply) for side in ("first", "second", "draw")
        }

    def __repr__(self) -> str:
        return f"<PositionCounts {self.spec.name}: {self.reachable:,} to ply {self.plies}>"


def plan_count(
    spec: GameSpec | str,
    plies: int | None = None,
    *,
    symmetry: bool = True,
    chunk: int = DEFAULT_CHUNK,
) -> CountPlan:
    """Sizes and memory of counting ``spec`` to ``plies`` (default, and at most: the full
    board), before any work (arithmetic only)."""
    spec = as_spec(spec)
    cells = spec.cells
    plies = cells if plies is None else min(require_int(plies, "plies", 0, 1 << 30), cells)
    chunk = require_int(chunk, "chunk", 8, 1 << 40)
    index = LayerIndex(spec, symmetry)
    return CountPlan(spec, index, index.layer_sizes[: plies + 1], plies, (chunk + 7) // 8 * 8)


def check_count_fits(p: CountPlan, max_bytes: int | None = None) -> None:
    """Raise MemoryBudgetError (with the estimate and the most plies that fit) when counting
    ``p`` needs more than ``max_bytes`` (default 90% of available memory)."""
    from fastttt.memory import format_bytes
    from fastttt.tables.dense import available_memory

    limit = int(0.9 * available_memory()) if max_bytes is None else max_bytes
    if p.memory_bytes <= limit:
        return
    fits = p.fitting_plies(limit)
    hint = f"; --plies {fits} fits" if fits >= 0 else ""
    raise MemoryBudgetError(
        f"counting {p.spec.name} to ply {p.plies} needs about {format_bytes(p.memory_bytes)} "
        f"of memory (a bit a slot of its two largest neighbouring layers, "
        f"{p.largest_pair:,} slots); the limit is {format_bytes(limit)}{hint}"
    )


def count_positions(
    spec: GameSpec | str,
    plies: int | None = None,
    *,
    symmetry: bool = True,
    chunk: int = DEFAULT_CHUNK,
    max_bytes: int | None = None,
    progress: CountProgress | None = None,
    on_plan: Callable[[CountPlan], None] | None = None,
    on_ply: Callable[[PlyCount], None] | None = None,
    parallel: bool | None = None,
) -> PositionCounts:
    """Positions of ``spec`` after 0, 1, ..., ``plies`` plies (default: every ply), by the
    forward pass alone, in a bit a slot of two layers (see the module).

    Raises MemoryBudgetError before any work when the estimate exceeds ``max_bytes`` (default
    90% of available RAM); ``on_plan(plan)`` is called once the estimate is known,
    ``on_ply(count)`` after each ply, ``progress(ply, done, slots)`` after each chunk. Ctrl-C
    stops between chunks (KeyboardInterrupt). Kernels: ``layered.forward_chunk_*`` (packed)
    and ``layered.histogram_*``.
    """
    started = time.perf_counter()
    p = plan_count(spec, plies, symmetry=symmetry, chunk=chunk)
    check_count_fits(p, max_bytes)
    if on_plan:
        on_plan(p)
    if parallel is None:
        parallel = (os.cpu_count() or 1) > 1
    index, geo = p.index, p.index.geometry

    def run(serial, threaded, args, size: int) -> None:
        (threaded if parallel and size >= PARALLEL_MIN_SLOTS else serial)(*args)

    first = PlyCount(0, 1, {"first": 0, "second": 0, "draw": 0}, 1)
    by_ply = [first]
    if on_ply:
        on_ply(first)
    previous = np.ones(1, dtype=np.uint8)  # the empty board: open
    open_left = True
    for n in range(1, p.plies + 1):
        if not open_left:  # every game ended: no position further on
            count = PlyCount(n, 0, dict.fromkeys(("first", "second", "draw"), 0), 0)
            by_ply.append(count)
            if on_ply:
                on_ply(count)
            continue
        size = p.sizes[n]
        bits = np.empty((size + 7) // 8, dtype=np.uint8)
        positions = np.zeros(256, dtype=np.int64)
        stored = np.zeros(256, dtype=np.int64)
        prev_lay, lay = index.layer(n - 1), index.layer(n)
        buffer = np.empty(min(p.chunk, size), dtype=np.uint8)
        for start in range(0, size, p.chunk):
            out = buffer[: min(size, start + p.chunk) - start]
            args = (geo, prev_lay, previous, lay, out, start, True)
            run(kern.forward_chunk_serial, kern.forward_chunk_parallel, args, out.size)
            counted = (geo, lay, out, start, positions, stored)
            run(kern.histogram_serial, kern.histogram_parallel, counted, out.size)
            bits[start // 8 : start // 8 + (out.size + 7) // 8] = np.packbits(
                out == NONTERMINAL, bitorder="little"
            )
            if progress:
                progress(n, start + out.size, size)
        previous = bits
        open_left = positions[NONTERMINAL] > 0
        index.forget({n})
        terminal = {
            "first": int(positions[BYTE_FIRST]),
            "second": int(positions[BYTE_SECOND]),
            "draw": int(positions[BYTE_DRAW]),
        }
        count = PlyCount(n, int(positions[1:].sum()), terminal, int(stored[1:].sum()))
        by_ply.append(count)
        if on_ply:
            on_ply(count)
    return PositionCounts(p.spec, index.symmetry, by_ply, time.perf_counter() - started)
