"""The layered strong solver: reachability forward, then values backward, one layer at a time.

Layer ``n`` (positions with ``n`` stones, :mod:`fastttt.tables.index`) depends only on layer
``n - 1`` going forward (a slot is reachable when one parent is reachable and open) and on
layer ``n + 1`` going backward (value and depth from the children), so a sweep holds at most
two layers. Each layer is cut into chunks of slots; a chunk is one task that reads the whole
neighbouring layer and writes its own chunk, in this process (:class:`LocalRunner`) or on a
Dask cluster (:mod:`fastttt.tables.distributed`). Layers go to a store: in RAM
(``MemoryLayerStore``) or a folder of chunked, checksummed arrays (``LayerStore``), where a
killed solve resumes from its last complete layer and gives the same bytes.

Values and depths follow :mod:`fastttt.values` and the bytes :mod:`fastttt.kernels.dense`:
``depth << 2 | v``, v = 1 first player wins, 2 draw, 3 second player wins. A win/draw/loss
solve (``values="wdl"``) keeps only v, four slots a byte (:mod:`fastttt.tables.layer_store`):
a quarter of the value bytes, no depths.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import Protocol

import numpy as np

from fastttt.errors import InvalidArgumentError, MemoryBudgetError, TableFileError
from fastttt.games.mnk.spec import GameSpec, as_spec
from fastttt.kernels import layered as kern
from fastttt.kernels.dense import NONTERMINAL
from fastttt.tables.index import LayerIndex
from fastttt.tables.layer_store import (
    DEFAULT_CHUNK,
    MANIFEST,
    VALUES,
    WDL_SLOTS,
    LayerStore,
    pack_wdl,
    require_zarr,
    unpack_wdl,
)

PARALLEL_MIN_SLOTS = 1 << 18  # below this a chunk runs serial (no thread-pool barrier)
RUNTIME_OVERHEAD = 250 * 2**20  # interpreter, NumPy, Numba, compiled kernels
KINDS = ("reach", "value")

# (phase, layer, slots done in the phase, slots of the phase)
Progress = Callable[[str, int, int, int], None]


# --- the work of one chunk -------------------------------------------------------------
class ChunkWork:
    """Computes chunks of one solve against its store; keeps the neighbouring layer it reads.

    The same object serves every chunk of a process, so a chunk of a neighbouring layer is
    read once per process. ``whole_layers``: read the whole neighbouring layer (one process
    doing every chunk), else only the chunks that the chunk's children or parents fall in
    (a Dask worker: on gravity boards a few blocks of the neighbouring layer).
    """

    def __init__(self, store, index: LayerIndex, parallel: bool = True, whole_layers: bool = True):
        self.store = store
        self.index = index
        self.parallel = parallel
        self.whole_layers = whole_layers
        # (kind, layer, data, loaded chunks): data is the whole layer, or a buffer of its
        # size in which only the loaded chunks were written (untouched pages take no RAM)
        self._cached: tuple[str, int, np.ndarray, np.ndarray] | None = None

    def _neighbour(self, kind: str, n: int, own: int, start: int, stop: int) -> np.ndarray:
        """Layer ``n`` of ``kind``, as far as the slots ``start..stop-1`` of layer ``own``
        read it."""
        if self._cached is None or self._cached[:2] != (kind, n):
            self._cached = None  # free the old layer before reading the new one
            if self.whole_layers:
                data = self.store.read_layer(kind, n)
                loaded = np.ones(self.store.chunk_count(n), dtype=bool)
            else:
                data = np.empty(self.store.array_size(kind, n), dtype=np.uint8)
                loaded = np.zeros(self.store.chunk_count(n), dtype=bool)
            self._cached = (kind, n, data, loaded)
        _, _, data, loaded = self._cached
        if not loaded.all():
            needed = np.zeros_like(loaded)
            kern.neighbour_chunks(
                self.index.geometry,
                self.index.layer(own),
                self.index.layer(n),
                start,
                stop,
                n > own,
                self.store.manifest["chunk"],
                needed,
            )
            for c in np.flatnonzero(needed & ~loaded):
                lo, hi = self.store.byte_bounds(kind, n, int(c))
                data[lo:hi] = self.store.read_chunk(kind, n, int(c))
                loaded[c] = True
        return data

    def _run(self, serial, parallel, args, size: int) -> None:
        if self.parallel and size >= PARALLEL_MIN_SLOTS:
            parallel(*args)
        else:
            serial(*args)

    def forward(self, n: int, chunk: int) -> None:
        """Reach bytes of one chunk of layer ``n``, pulled from layer ``n - 1``."""
        start, stop = self.store.chunk_bounds(n, chunk)
        out = np.empty(stop - start, dtype=np.uint8)  # the kernel writes every slot
        if n == 0:
            out[0] = NONTERMINAL  # the empty board, the only slot of layer 0
        else:
            geo = self.index.geometry
            prev = self._neighbour("reach", n - 1, n, start, stop)
            args = (geo, self.index.layer(n - 1), prev, self.index.layer(n), out, start)
            self._run(kern.forward_chunk_serial, kern.forward_chunk_parallel, args, out.size)
        self.store.write_chunk("reach", n, chunk, out)

    def backward(self, n: int, chunk: int) -> np.ndarray:
        """Value bytes of one chunk of layer ``n`` (packed in a WDL table); returns its
        histogram (:func:`_layer_counts`). A WDL chunk is counted by ``v | open << 2`` (open:
        the game is not over), so that the counts read as a byte table's with depth 0 or 1:
        the same counts by value and of finished positions."""
        start, stop = self.store.chunk_bounds(n, chunk)
        reach = self.store.read_chunk("reach", n, chunk)
        geo = self.index.geometry
        lay = self.index.layer(n)
        wdl = self.store.is_packed("value")
        if n == self.index.spec.cells:
            # a full board is finished: its reach byte is its value
            out = pack_wdl(reach) if wdl else reach.copy()
        else:
            if wdl:
                out = np.zeros(-(-(stop - start) // WDL_SLOTS), dtype=np.uint8)
            else:
                out = np.empty(stop - start, dtype=np.uint8)  # the kernel writes every slot
            nxt = self._neighbour("value", n + 1, n, start, stop)
            args = (geo, lay, reach, self.index.layer(n + 1), nxt, out, start, wdl)
            self._run(kern.backward_chunk_serial, kern.backward_chunk_parallel, args, reach.size)
        self.store.write_chunk("value", n, chunk, out)
        if wdl:
            open_ = (reach == NONTERMINAL).view(np.uint8) << 2
            out = unpack_wdl(out, stop - start) | open_
        positions = np.zeros(256, dtype=np.int64)
        stored = np.zeros(256, dtype=np.int64)
        counted = (geo, lay, out, start, positions, stored)
        self._run(kern.histogram_serial, kern.histogram_parallel, counted, out.size)
        return np.stack([positions, stored])


class Runner(Protocol):
    """Runs the chunks of one layer's phase; returns their results in chunk order."""

    def run(self, phase: str, n: int, chunks: int, done: Callable[[int], None]) -> list: ...


class LocalRunner:
    """Runs the chunks of a layer one after the other in this process (threads inside)."""

    def __init__(self, work: ChunkWork):
        self.work = work

    def run(self, phase: str, n: int, chunks: int, done: Callable[[int], None]) -> list:
        results = []
        step = self.work.forward if phase == "reach" else self.work.backward
        for chunk in range(chunks):
            results.append(step(n, chunk))
            done(chunk)
        return results


# --- planning ---------------------------------------------------------------------------
@dataclass
class LayerPlan:
    """The layers a pass over ``spec`` will hold: ``sizes[n]`` slots of layer n."""

    spec: GameSpec
    index: LayerIndex
    sizes: list[int]

    @property
    def slots(self) -> int:
        return sum(self.sizes)

    @property
    def largest_pair(self) -> int:
        """Slots of the two largest neighbouring layers (a lone layer: its own)."""
        return max(a + b for a, b in zip(self.sizes, self.sizes[1:] + [0], strict=True))

    def index_bytes(self) -> int:
        """The index arrays (masks, keys, flags) of two layers, the largest of these."""
        geo = self.index.geometry
        if geo.gravity:
            keys = (geo.rows + 1) ** geo.cols
        else:
            keys = max(comb(geo.cells, n) for n in range(len(self.sizes)))
        return 2 * keys * 17


@dataclass
class Plan(LayerPlan):
    """What a layered solve of ``spec`` will hold: slots per layer, memory and disk."""

    on_disk: bool
    chunk: int
    values: str = "depth"

    def _value_bytes(self, slots: int) -> int:
        return -(-slots // WDL_SLOTS) if self.values == "wdl" else slots

    @property
    def memory_bytes(self) -> int:
        """Peak RAM: every layer (in RAM) or two layers and a few chunks (on disk)."""
        if self.on_disk:
            table = self.largest_pair + 4 * self.chunk
        else:
            table = self.slots + self._value_bytes(max(self.sizes))
        return table + self.index_bytes() + RUNTIME_OVERHEAD

    @property
    def disk_bytes(self) -> int:
        """An upper bound of the store's size before compression (reach and value layers)."""
        return self.slots + self._value_bytes(max(self.sizes)) if self.on_disk else 0


def plan(
    spec: GameSpec | str,
    *,
    symmetry: bool = True,
    on_disk: bool = False,
    chunk: int = DEFAULT_CHUNK,
    values: str = "depth",
) -> Plan:
    """Index and sizes of a layered solve, before any work (builds each layer's index once)."""
    spec = as_spec(spec)
    index = layer_index(spec, symmetry) if not on_disk else LayerIndex(spec, symmetry)
    return Plan(spec, index, index.layer_sizes, on_disk, chunk, values)


@lru_cache(maxsize=4)
def layer_index(spec: GameSpec, symmetry: bool) -> LayerIndex:
    """A LayerIndex kept for the process (small boards solved in RAM, again and again)."""
    return LayerIndex(spec, symmetry)


def check_fits(p: Plan, max_bytes: int | None = None, free_disk: int | None = None) -> None:
    """Raise MemoryBudgetError (with the estimates) when ``p`` needs more RAM than
    ``max_bytes`` (default 90% of available memory) or more disk than ``free_disk``."""
    from fastttt.tables.dense import available_memory, format_bytes

    limit = int(0.9 * available_memory()) if max_bytes is None else max_bytes
    if p.memory_bytes > limit:
        hint = ""
        disk = Plan(p.spec, p.index, p.sizes, True, p.chunk, p.values)
        if not p.on_disk and disk.memory_bytes <= limit:
            hint = (
                f"; with --out DIR it keeps two layers in memory: about "
                f"{format_bytes(disk.memory_bytes)} of memory and at most "
                f"{format_bytes(disk.disk_bytes)} of disk"
            )
        raise MemoryBudgetError(
            f"a layered solve of {p.spec.name} needs about {format_bytes(p.memory_bytes)} of "
            f"memory ({p.slots:,} slots, largest two layers {p.largest_pair:,}); the limit is "
            f"{format_bytes(limit)}{hint}"
        )
    if free_disk is not None and p.disk_bytes > free_disk:
        raise MemoryBudgetError(
            f"a layered solve of {p.spec.name} may need up to {format_bytes(p.disk_bytes)} of "
            f"disk before compression; the folder's file system has {format_bytes(free_disk)} "
            "free"
        )


def free_disk_for(out: str | os.PathLike) -> int:
    """Free bytes on the file system that will hold ``out`` (its nearest existing parent)."""
    import shutil
    from pathlib import Path

    path = Path(out).absolute()
    while not path.exists() and path != path.parent:
        path = path.parent
    return shutil.disk_usage(path).free


# --- the solve --------------------------------------------------------------------------
def open_store(p: Plan, out, resume: bool):
    """The store of a solve: in RAM without ``out``, else a folder (created or resumed)."""
    from fastttt.tables import layer_store as stores

    game = {"rows": p.spec.rows, "cols": p.spec.cols, "k": p.spec.k, "gravity": p.spec.gravity}
    fields = dict(
        game=game, **p.index.manifest(), layer_sizes=p.sizes, chunk=p.chunk, values=p.values
    )
    if out is None:
        return stores.MemoryLayerStore.create(**fields)
    return stores.LayerStore.create(out, resume=resume, **fields)


def solve_layered(
    spec: GameSpec | str,
    *,
    symmetry: bool = True,
    out: str | os.PathLike | None = None,
    resume: bool = False,
    chunk: int | None = None,
    progress: Progress | None = None,
    max_bytes: int | None = None,
    runner_factory: Callable[[ChunkWork], Runner] | None = None,
    parallel: bool | None = None,
    on_plan: Callable[[Plan], None] | None = None,
    values: str = "depth",
):
    """Strongly solve ``spec`` layer by layer: value (+1 first wins / 0 / -1) and depth of
    every reachable position, as a :class:`~fastttt.tables.probe.LayeredSolution`.

    ``values``: "depth" (value and depth a byte) or "wdl" (win/draw/loss only, four positions
    a byte; probes of depth raise :class:`~fastttt.errors.NoDepthError`; ``chunk`` a multiple
    of 4).

    ``out``: a folder for the layers (chunked, checksummed, resumable with ``resume=True``);
    without it layers stay in RAM. ``chunk``: slots a chunk (default: the resumed table's, else
    ``DEFAULT_CHUNK``). ``symmetry`` stores one position per orbit of the board's
    group. ``runner_factory(work)`` runs the chunks of a layer (default: this process;
    :func:`fastttt.tables.distributed.dask_runner` for a cluster). Raises MemoryBudgetError
    before any work when the estimate exceeds ``max_bytes`` (default 90% of available RAM) or
    the free disk; ``on_plan(plan)`` is called once the estimates are known. Ctrl-C stops
    between chunks; the layers already complete stay in ``out``. Kernels:
    ``layered.forward_chunk_*`` then ``layered.backward_chunk_*``.
    """
    from fastttt.tables.probe import LayeredSolution

    started = time.perf_counter()
    if values not in VALUES:
        raise InvalidArgumentError(f"values must be one of {VALUES}, got {values!r}")
    if values == "wdl" and chunk is not None and chunk % WDL_SLOTS:
        raise InvalidArgumentError(
            f"a win/draw/loss solve packs {WDL_SLOTS} positions a byte: chunk must be a "
            f"multiple of {WDL_SLOTS}, got {chunk}"
        )
    if out is not None:
        require_zarr()  # before the plan is printed: a missing extra is the first thing said
    if chunk is None:  # a resume keeps the chunks it started with
        chunk = (resume and out is not None and _stored_chunk(out)) or DEFAULT_CHUNK
    p = plan(spec, symmetry=symmetry, on_disk=out is not None, chunk=chunk, values=values)
    check_fits(p, max_bytes, None if out is None or resume else free_disk_for(out))
    if on_plan:
        on_plan(p)
    store = open_store(p, out, resume)
    if parallel is None:
        parallel = (os.cpu_count() or 1) > 1
    work = ChunkWork(store, p.index, parallel)
    runner = runner_factory(work) if runner_factory else LocalRunner(work)
    info = store.manifest.get("info", {})
    previous_seconds = float(info.get("seconds", 0.0))
    layers_info = dict(info.get("layers", {}))

    for phase, order in (("reach", range(len(p.sizes))), ("value", reversed(range(len(p.sizes))))):
        total = sum(p.sizes)
        done_slots = sum(
            p.sizes[n]
            for n in range(len(p.sizes))
            if store.is_complete(phase, n) or store.is_complete("value", n)
        )
        for n in order:
            if store.is_complete(phase, n) or store.is_complete("value", n):
                continue  # a layer with values needs no reach bytes any more
            store.prepare(phase, n)
            chunks = store.chunk_count(n)

            counter = [done_slots]

            def tick(c, n=n, counter=counter, phase=phase, total=total):
                lo, hi = store.chunk_bounds(n, c)
                counter[0] += hi - lo
                if progress:
                    progress(phase, n, counter[0], total)

            results = runner.run(phase, n, chunks, tick)
            done_slots += p.sizes[n]
            if phase == "value":
                layers_info[str(n)] = _layer_counts(results)
                if store.path is not None:  # on disk: the counts survive a kill
                    store.set_info(layers=layers_info)
            store.mark_complete(phase, n)
            if phase == "value":
                store.delete("reach", n)
            if p.on_disk:
                p.index.forget({n - 1, n, n + 1})
    seconds = previous_seconds + time.perf_counter() - started
    store.set_info(seconds=seconds, layers=layers_info)
    return LayeredSolution(p.spec, p.index, store, seconds)


def _stored_chunk(out) -> int | None:
    """The chunk size of the layered table in ``out``, or None when there is none to read."""
    if not os.path.lexists(os.path.join(out, MANIFEST)):
        return None
    try:
        return LayerStore.open(out).manifest["chunk"]
    except TableFileError:
        return None  # the store's own checks report it when the solve opens it


def _layer_counts(results: list) -> dict:
    """Per byte value (as a string): [positions, stored slots] summed over the chunks."""
    total = np.sum(results, axis=0) if results else np.zeros((2, 256), dtype=np.int64)
    return {str(b): [int(total[0, b]), int(total[1, b])] for b in np.nonzero(total[1])[0]}
