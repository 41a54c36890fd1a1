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
a quarter of the value bytes, no depths. A live solve (``positions="live"``) has no forward
pass: the backward one solves every canonical colouring with no line, reachable or not, and
keeps no finished game (a child stored as 0 is the mover's win).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from math import comb
from typing import Protocol

import numpy as np

from fastttt.errors import (
    DiskBudgetError,
    InvalidArgumentError,
    MemoryBudgetError,
    TableFileError,
)
from fastttt.games.mnk.spec import GameSpec, as_spec
from fastttt.kernels import layered as kern
from fastttt.kernels import runs_layered as runs_kern
from fastttt.kernels.dense import NONTERMINAL
from fastttt.tables.chunk_map import ChunkMap
from fastttt.tables.drain import FLOOR_PROFILE, Drain, drain_profile
from fastttt.tables.index import LayerIndex
from fastttt.tables.layer_store import (
    BIG_CHUNK,
    DEFAULT_CHUNK,
    DRAIN_FORMAT_VERSION,
    MANIFEST,
    POSITIONS,
    VALUES,
    WDL_SLOTS,
    LayerStore,
    pack_wdl,
    refuse_another_table,
    require_zarr,
)
from fastttt.tables.runs_index import ColumnRunsIndex

PARALLEL_MIN_SLOTS = 1 << 18  # below this a chunk runs serial (no thread-pool barrier)
RUNTIME_OVERHEAD = 250 * 2**20  # interpreter, NumPy, Numba, compiled kernels
KINDS = ("reach", "value")
# the layer index a solve takes: "heights" (LayerIndex, every board), "column-runs" (gravity
# boards, ColumnRunsIndex: fewer slots, slot-by-slot sweeps; in RAM only)
INDEXES = ("heights", "column-runs")
MODES = ("auto", "whole", "windowed")  # how a solve on disk holds the neighbouring layer
SPARE_BYTES = 1 << 30  # windowed: recently used neighbour chunks kept, at most
OWN_CHUNKS = 6  # chunk-sized buffers of the chunk being computed (reach, out, unpacked, codec)
# peak bytes on disk a slot, measured on Connect Four 5x6 (reach layers after the forward
# pass, then value layers while the reach layers go; a live solve: its value layers): see
# docs/solving.md
DISK_PER_SLOT = {
    ("reachable", "depth"): 0.17,
    ("reachable", "wdl"): 0.075,
    ("live", "depth"): 0.17,  # not measured: the reachable solve's, an upper bound
    ("live", "wdl"): 0.056,
}
DISK_MARGIN = 2.0
# a live WDL solve: bytes a live slot (no line) on disk, by chunk size: 1 Mi slots, measured on
# Connect Four 5x6 (0.30) and 6x6 (0.28); 16 Mi (BIG_CHUNK), on 5x6 (0.265) and 6x6 (0.213).
# Counted from sampled live slots (:func:`sampled_visits`), with their own margin
LIVE_WDL_BYTES = {DEFAULT_CHUNK: 0.30, BIG_CHUNK: 0.27}
LIVE_DISK_MARGIN = 1.25
CHUNK_FILE_BYTES = 8 << 10  # a chunk's two files in 4 KiB blocks, at most (6x6, 1 Mi: 6.6 KB)
MAX_KEEP_EVERY = 8  # a probe of a dropped layer searches up to 7 plies (7**7 move orders)
LIVE_SAMPLES = 1024  # ranges of LIVE_SAMPLE_SLOTS slots a layer counted by sampled_visits
LIVE_SAMPLE_SLOTS = 1 << 12
DISK_RESERVE = 1 << 30  # a chunk is not written when less is free on the store's disk
WDL_DEFAULT_SLOTS = 1 << 33  # values=None past it keeps win/draw/loss (Connect Four 6x6, not 5x6)

# (phase, layer, slots done in the phase, slots of the phase); phases "drains" and "windows"
# (the plan measures how layers drain and the windowed mode's windows), "reach", "value"
Progress = Callable[[str, int, int, int], None]


# --- the work of one chunk -------------------------------------------------------------
class ChunkWork:
    """Computes chunks of one solve against its store; keeps the neighbouring layer it reads.

    The same object serves every chunk of a process. ``whole_layers``: read the whole
    neighbouring layer once (one process doing every chunk, when the layer fits in RAM), else
    a :class:`~fastttt.tables.chunk_map.ChunkMap` of it holding the chunks that the current
    chunk's children or parents fall in (on gravity boards a few dozen), plus ``spare_bytes``
    of the chunks used last (None: keep every chunk once read, as a Dask worker does).
    ``disk_reserve``: on disk, stop with :class:`~fastttt.errors.DiskBudgetError` before
    writing a chunk when the store's file system has less free (None: never check).
    """

    def __init__(
        self,
        store,
        index: LayerIndex | ColumnRunsIndex,
        parallel: bool = True,
        whole_layers: bool = True,
        spare_bytes: int | None = None,
        disk_reserve: int | None = None,
    ):
        self.store = store
        self.index = index
        self.parallel = parallel
        self.whole_layers = whole_layers
        self.spare_bytes = spare_bytes
        self.disk_reserve = disk_reserve
        self._whole: tuple[str, int, np.ndarray] | None = None  # (kind, layer, data)
        self.chunk_map: ChunkMap | None = None  # windowed: the neighbouring layer now held
        self._marks = np.zeros(0, dtype=np.int64)  # per neighbour chunk: the last stamp
        self._stamp = 0

    def _neighbour(self, kind: str, n: int, own: int, start: int, stop: int) -> np.ndarray:
        """Layer ``n`` of ``kind``, as far as the slots ``start..stop-1`` of layer ``own``
        read it (the bytes of chunks not held read as 0)."""
        # a draining layer (:mod:`fastttt.tables.drain`) lacks the chunks no one reads any more
        draining = kind == "value" and n in self.store.manifest["dropped"]
        whole = self.whole_layers and not draining
        if whole or isinstance(self.index, ColumnRunsIndex):
            self.chunk_map = None  # one neighbouring layer held at a time
            if self._whole is None or self._whole[:2] != (kind, n):
                self._whole = None  # free the old layer before reading the new one
                self._whole = (kind, n, self.store.read_layer(kind, n))
            return self._whole[2]
        self._whole = None
        held = self.chunk_map
        if held is None or (held.kind, held.layer) != (kind, n):
            self.chunk_map = held = None  # unmap the old layer before mapping the new one
            spare = None
            if self.spare_bytes is not None:
                spare = self.spare_bytes // self.store.array_chunk(kind)
            held = self.chunk_map = ChunkMap(self.store, kind, n, spare)
            self._marks = np.zeros(self.store.chunk_count(n), dtype=np.int64)
            self._stamp = 0
        self._stamp += 1
        kern.mark_neighbour_chunks(
            self.index.geometry,
            self.index.layer(own),
            self.index.layer(n),
            start,
            stop,
            n > own,
            self.store.manifest["chunk"],
            self._marks,
            self._stamp,
        )
        return held.hold(np.flatnonzero(self._marks == self._stamp))

    def _write(self, kind: str, n: int, chunk: int, data: np.ndarray) -> None:
        """Write a chunk, after checking the disk keeps ``disk_reserve`` free."""
        if self.disk_reserve is not None and self.store.path is not None:
            free = free_disk_for(self.store.path)
            if free < self.disk_reserve:
                from fastttt.memory import format_bytes

                raise DiskBudgetError(
                    f"{self.store.path}: stopped before the disk fills: "
                    f"{format_bytes(free)} free, less than the {format_bytes(self.disk_reserve)} "
                    "kept in reserve; the chunks written are kept: free some space and run "
                    "the same solve with --resume"
                )
        self.store.write_chunk(kind, n, chunk, data)

    def _run(self, serial, parallel, args, size: int):
        """The kernel's result, run on threads when the chunk is big enough."""
        if self.parallel and size >= PARALLEL_MIN_SLOTS:
            return parallel(*args)
        return serial(*args)

    def forward(self, n: int, chunk: int) -> None:
        """Reach bytes of one chunk of layer ``n``, pulled from layer ``n - 1``."""
        start, stop = self.store.chunk_bounds(n, chunk)
        out = np.empty(stop - start, dtype=np.uint8)  # the kernel writes every slot
        index = self.index
        if n == 0:
            out[0] = NONTERMINAL  # the empty board, the only slot of layer 0
        elif isinstance(index, ColumnRunsIndex):
            prev = self._neighbour("reach", n - 1, n, start, stop)
            runs = (index.geometry, index.tables, n, prev, out, start)
            kernels = (runs_kern.forward_chunk_serial, runs_kern.forward_chunk_parallel)
            self._run(*kernels, runs, out.size)
        else:
            prev = self._neighbour("reach", n - 1, n, start, stop)
            args = (index.geometry, index.layer(n - 1), prev, index.layer(n), out, start)
            self._run(kern.forward_chunk_serial, kern.forward_chunk_parallel, args, out.size)
        self._write("reach", n, chunk, out)

    def backward(self, n: int, chunk: int) -> np.ndarray:
        """Value bytes of one chunk of layer ``n`` (packed in a WDL table); returns its
        histogram (:func:`_layer_counts`). A WDL chunk is counted by ``v | open << 2`` (open:
        the game is not over), so that the counts read as a byte table's with depth 0 or 1:
        the same counts by value and of finished positions. A live table's chunk needs no
        reach bytes (:meth:`_live`)."""
        start, stop = self.store.chunk_bounds(n, chunk)
        wdl = self.store.is_packed("value")
        index = self.index
        if self.store.manifest["positions"] == "live":
            out = self._live(n, start, stop, wdl)
            self._write("value", n, chunk, out)
            return self._counted(n, chunk, out, None)
        reach = self.store.read_chunk("reach", n, chunk)
        if n == index.spec.cells:
            # a full board is finished: its reach byte is its value
            out = pack_wdl(reach) if wdl else reach.copy()
        else:
            if wdl:
                out = np.zeros(-(-(stop - start) // WDL_SLOTS), dtype=np.uint8)
            else:
                out = np.empty(stop - start, dtype=np.uint8)  # the kernel writes every slot
            nxt = self._neighbour("value", n + 1, n, start, stop)
            if isinstance(index, ColumnRunsIndex):
                runs = (index.geometry, index.tables, n, reach, nxt, out, start, wdl)
                kernels = (runs_kern.backward_chunk_serial, runs_kern.backward_chunk_parallel)
                missing = self._run(*kernels, runs, reach.size)
                if missing:
                    raise RuntimeError(
                        f"{index!r}: {missing} children of open positions of layer {n} have no "
                        "slot (every child of a reachable open position should have one)"
                    )
            else:
                args = (index.geometry, index.layer(n), reach, index.layer(n + 1), nxt, out)
                kernels = (kern.backward_chunk_serial, kern.backward_chunk_parallel)
                self._run(*kernels, (*args, start, wdl), reach.size)
        self._write("value", n, chunk, out)
        return self._counted(n, chunk, out, reach)

    def stored(self, phase: str, n: int, chunk: int) -> np.ndarray | None:
        """What :meth:`forward` or :meth:`backward` returns for a chunk that a stopped solve
        wrote, from its bytes (TableFileError when they are damaged)."""
        out = self.store.read_chunk(phase, n, chunk)
        if phase == "reach":
            return None
        if self.store.manifest["positions"] == "live":
            return self._counted(n, chunk, out, None)
        return self._counted(n, chunk, out, self.store.read_chunk("reach", n, chunk))

    def _counted(self, n: int, chunk: int, out: np.ndarray, reach: np.ndarray | None) -> np.ndarray:
        """The histogram of a value chunk ``out`` (:meth:`backward`); ``reach``: its reach
        bytes, None in a live table."""
        start, stop = self.store.chunk_bounds(n, chunk)
        if self.store.is_packed("value"):
            if reach is None:
                out = kern.wdl_live_bytes(out, stop - start, n == self.index.spec.cells)
            else:
                out = kern.wdl_counted_bytes(out, reach)
        return self._histogram(n, out, start)

    def _live(self, n: int, start: int, stop: int, wdl: bool) -> np.ndarray:
        """Value bytes of the slots ``start..stop-1`` of layer ``n`` of a live table (no reach
        bytes: every canonical colouring with no line is solved)."""
        index = self.index
        assert isinstance(index, LayerIndex)  # plan() refuses live with column-runs
        if wdl:
            out = np.zeros(-(-(stop - start) // WDL_SLOTS), dtype=np.uint8)
        else:
            out = np.empty(stop - start, dtype=np.uint8)  # the kernel writes every slot
        if n == index.spec.cells:  # no next layer: the kernel reads none on a full board
            nxt = np.zeros(0, dtype=np.uint8)
            next_lay = index.layer(n)
        else:
            nxt = self._neighbour("value", n + 1, n, start, stop)
            next_lay = index.layer(n + 1)
        args = (index.geometry, index.layer(n), next_lay, nxt, out, start, stop - start, wdl)
        self._run(kern.live_chunk_serial, kern.live_chunk_parallel, args, stop - start)
        return out

    def _histogram(self, n: int, out: np.ndarray, start: int) -> np.ndarray:
        """Counts of a chunk's value bytes (one a slot): positions and stored slots."""
        index = self.index
        positions = np.zeros(256, dtype=np.int64)
        stored = np.zeros(256, dtype=np.int64)
        if isinstance(index, ColumnRunsIndex):
            runs_kern.histogram(index.tables, n, out, start, positions, stored)
        else:
            counted = (index.geometry, index.layer(n), out, start, positions, stored)
            self._run(kern.histogram_serial, kern.histogram_parallel, counted, out.size)
        return np.stack([positions, stored])


class Runner(Protocol):
    """Runs the ``chunks`` (indexes) of one layer's phase, calling ``done(chunk)`` as each is
    written; returns their results in the order of ``chunks``."""

    def run(self, phase: str, n: int, chunks: list[int], done: Callable[[int], None]) -> list: ...


class LocalRunner:
    """Runs the chunks of a layer one after the other in this process (threads inside)."""

    def __init__(self, work: ChunkWork):
        self.work = work

    def run(self, phase: str, n: int, chunks: list[int], done: Callable[[int], None]) -> list:
        results = []
        step = self.work.forward if phase == "reach" else self.work.backward
        for chunk in chunks:
            results.append(step(n, chunk))
            done(chunk)
        return results


# --- planning ---------------------------------------------------------------------------
@dataclass
class LayerPlan:
    """The layers a pass over ``spec`` will hold: ``sizes[n]`` slots of layer n."""

    spec: GameSpec
    index: LayerIndex | ColumnRunsIndex
    sizes: list[int]

    @property
    def slots(self) -> int:
        return sum(self.sizes)

    @property
    def largest_pair(self) -> int:
        """Slots of the two largest neighbouring layers (a lone layer: its own)."""
        return max(a + b for a, b in zip(self.sizes, self.sizes[1:] + [0], strict=True))

    def index_bytes(self) -> int:
        """The index arrays (masks, keys, flags) of two layers, the largest of these (the
        column-runs index: its block tables)."""
        if isinstance(self.index, ColumnRunsIndex):
            return self.index.table_bytes()
        geo = self.index.geometry
        if geo.gravity:
            keys = (geo.rows + 1) ** geo.cols
        else:
            keys = max(comb(geo.cells, n) for n in range(len(self.sizes)))
        return 2 * keys * 17


@dataclass
class Plan(LayerPlan):
    """What a layered solve of ``spec`` will hold: slots per layer, memory and disk.

    ``mode`` (on disk): "whole", every chunk of a layer reads the whole neighbouring layer
    (read once, the fastest), or "windowed", a chunk map holds the neighbour chunks the
    current chunk reads (:meth:`windows`) plus ``spare_bytes`` of those used last
    (:class:`~fastttt.tables.chunk_map.ChunkMap`)."""

    on_disk: bool
    chunk: int
    values: str = "depth"
    positions: str = "reachable"
    keep_every: int = 1
    mode: str = "whole"
    spare_bytes: int = 0
    _windows: list[tuple[int, int]] | None = field(default=None, repr=False, compare=False)
    _live_slots: list[int] | None = field(default=None, repr=False, compare=False)
    # per layer n whose solve drains layer n + 1 (:mod:`fastttt.tables.drain`): its profile
    # (:func:`~fastttt.tables.drain.drain_profile`), else None; None: no layer drains
    drain_profiles: tuple[np.ndarray | None, ...] | None = field(
        default=None, repr=False, compare=False
    )

    def _value_bytes(self, slots: int) -> int:
        return -(-slots // WDL_SLOTS) if self.values == "wdl" else slots

    def windows(self, progress: Progress | None = None) -> list[tuple[int, int]]:
        """For each layer n, the most chunks of layer n - 1 (forward) and of layer n + 1
        (backward) that one chunk of layer n reads: exact maxima of the superset the sweeps
        load (:func:`fastttt.kernels.layered.mark_neighbour_chunks`), from one pass over
        every chunk (no table read; 21 s of CPU on Connect Four 6x6, 2 s on 5x6)."""
        if self._windows is None:
            if not isinstance(self.index, LayerIndex):
                raise InvalidArgumentError(f"{self.index!r}: no windowed mode (in RAM only)")
            self._windows = neighbour_windows(self.index, self.sizes, self.chunk, progress)
        return self._windows

    def held_bytes(self) -> int:
        """Windowed: the most bytes of a neighbouring layer held at once (window plus spare
        chunks, at most the whole layer)."""
        sizes, chunk = self.sizes, self.chunk
        most = 0
        for n, (forward, backward) in enumerate(self.windows()):
            if 0 < n and sizes[n] and self.positions != "live":  # reach bytes of layer n - 1
                count = -(-sizes[n - 1] // chunk)
                most = max(most, min(forward + self.spare_bytes // chunk, count) * chunk)
            if n + 1 < len(sizes) and sizes[n]:  # value bytes of layer n + 1
                size = self._value_bytes(chunk)
                count = -(-sizes[n + 1] // chunk)
                most = max(most, min(backward + self.spare_bytes // size, count) * size)
        return most

    @property
    def memory_bytes(self) -> int:
        """Peak RAM: every layer (in RAM); on disk two layers and a few chunks ("whole"), or
        the neighbour chunks held and a few chunks ("windowed")."""
        if not self.on_disk and self.positions == "live":  # value layers only
            table = sum(self._value_bytes(size) for size in self.sizes)
        elif not self.on_disk:
            table = self.slots + self._value_bytes(max(self.sizes))
        elif self.mode == "windowed":
            return self.held_bytes() + self.fixed_bytes()
        else:
            table = self.largest_pair + 4 * self.chunk
        return table + self.index_bytes() + RUNTIME_OVERHEAD

    @property
    def raw_disk_bytes(self) -> int:
        """An upper bound of the store's size before compression: every reach layer and the
        largest value layer (a live solve: every value layer)."""
        if not self.on_disk:
            return 0
        if self.positions == "live":
            return self._value_bytes(self.stored_slots())
        return self.slots + self._value_bytes(max(self.sizes))

    def stored_slots(self) -> int:
        """The most value slots on disk at once in a backward pass (:meth:`held_at_peak`)."""
        return int(self.held_at_peak(self.sizes))

    def held_at_peak(self, per_layer) -> float:
        """The most of ``per_layer`` (slots, bytes, ... of each value layer) on disk at once in
        a backward pass: while layer n is written, layer n + 1 (as its :attr:`drain_profiles`
        leaves it) and the kept layers above it (``keep_every``: the multiples of K)."""
        last = len(per_layer) - 1
        most = above = 0  # kept layers above layer n + 1
        for n in reversed(range(last + 1)):
            reading = per_layer[n + 1] if n < last else 0
            pair = reading + per_layer[n]
            profile = self.drain_profiles[n] if self.drain_profiles is not None else None
            if profile is not None:
                pair = float(np.max(profile[0] * per_layer[n] + profile[1] * reading))
            most = max(most, above + pair)
            if n < last and (n + 1) % self.keep_every == 0:
                above += reading
        return most

    def draining_layers(self) -> list[int]:
        """The layers n whose solve drains layer n + 1 (a live WDL table on disk that does not
        keep layer n + 1)."""
        if not self.on_disk or self.keep_every == 1:
            return []
        last = len(self.sizes) - 1
        sizes = self.sizes
        return [n for n in range(last) if (n + 1) % self.keep_every and sizes[n] and sizes[n + 1]]

    def with_drains(self, progress: Progress | None = None) -> Plan:
        """This plan with the measured profile of each drain (:func:`~fastttt.tables.drain.
        drain_profile`; seconds on Connect Four 6x6, minutes on 7x6), ``progress`` called after
        each layer (phase "drains")."""
        profiles: list[np.ndarray | None] = [None] * len(self.sizes)
        draining = self.draining_layers()
        done, total = 0, sum(self.sizes[n] for n in draining)
        for n in draining:
            profiles[n] = drain_profile(self.index, self.sizes, n, self.chunk)
            self.index.forget({n, n + 1})
            done += self.sizes[n]
            if progress:
                progress("drains", n, done, total)
        return replace(self, drain_profiles=tuple(profiles))

    def drain_floor(self) -> Plan:
        """This plan as if every drain held the least it can (:data:`~fastttt.tables.drain.
        FLOOR_PROFILE`): a disk estimate no solve goes below, known without measuring."""
        floors: list[np.ndarray | None] = [None] * len(self.sizes)
        for n in self.draining_layers():
            floors[n] = FLOOR_PROFILE
        return replace(self, drain_profiles=tuple(floors))

    def live_wdl_bytes(self) -> float:
        """Bytes a live slot of a live WDL table takes on disk at this plan's chunk size
        (:data:`LIVE_WDL_BYTES`: the measurement of the nearest chunk size at or below it)."""
        sizes = [size for size in sorted(LIVE_WDL_BYTES) if size <= self.chunk]
        return LIVE_WDL_BYTES[sizes[-1] if sizes else min(LIVE_WDL_BYTES)]

    def live_slots(self) -> list[int]:
        """Slots of each layer with no line (the positions a live table solves), estimated
        by :func:`sampled_visits` (exact on layers of at most 4 Mi slots)."""
        if not isinstance(self.index, LayerIndex):
            raise InvalidArgumentError(f"{self.index!r}: a live table takes the heights index")
        if self._live_slots is None:
            self._live_slots = [
                round(sampled_visits(self.index, n)[1]) for n in range(len(self.sizes))
            ]
        return self._live_slots

    @property
    def disk_bytes(self) -> int:
        """The store's peak on disk, estimated. A live WDL table: :meth:`live_wdl_bytes` a
        live slot (:meth:`live_slots`) and :data:`CHUNK_FILE_BYTES` a chunk, of the layers held
        at once (:meth:`held_at_peak`), times :data:`LIVE_DISK_MARGIN`. Others: bytes a slot
        measured on Connect Four 5x6 (:data:`DISK_PER_SLOT`, the reach layers after the forward
        pass and the value layers; live: the value slots held at once) times
        :data:`DISK_MARGIN`, never above :attr:`raw_disk_bytes`. While a solve runs,
        each chunk's write first checks that ``DISK_RESERVE`` stays free, so a disk that
        fills faster than estimated stops the solve cleanly, resumable."""
        if not self.on_disk:
            return 0
        if (self.positions, self.values) == ("live", "wdl") and isinstance(self.index, LayerIndex):
            chunks = [-(-size // self.chunk) for size in self.sizes]
            per_layer = [
                self.live_wdl_bytes() * live + CHUNK_FILE_BYTES * count
                for live, count in zip(self.live_slots(), chunks, strict=True)
            ]
            return int(LIVE_DISK_MARGIN * self.held_at_peak(per_layer))
        per_slot = DISK_PER_SLOT[self.positions, self.values] * DISK_MARGIN
        slots = self.stored_slots() if self.positions == "live" else self.slots
        return min(self.raw_disk_bytes, int(per_slot * slots))

    def fixed_bytes(self) -> int:
        """On disk, what any mode holds besides the neighbouring layer: the chunks being
        computed, the index of two layers and the runtime."""
        return OWN_CHUNKS * self.chunk + self.index_bytes() + RUNTIME_OVERHEAD

    def windowed(self, limit: int, progress: Progress | None = None) -> Plan:
        """This plan in windowed mode, with the spare chunks that ``limit`` bytes leave
        (at most :data:`SPARE_BYTES`; 0 when even the window does not fit). ``progress``:
        called as the windows are measured (phase "windows")."""
        bare = replace(self, mode="windowed", spare_bytes=0, _windows=self.windows(progress))
        spare = max(0, min(SPARE_BYTES, limit - bare.memory_bytes))
        return replace(bare, spare_bytes=spare)


def sampled_visits(index: LayerIndex, n: int) -> tuple[float, float]:
    """(dead, live) visits of a live sweep over layer ``n`` (:func:`~fastttt.kernels.layered.
    live_visits`: live slots, and the first slot of each run of colourings with a line),
    counted on :data:`LIVE_SAMPLES` evenly spaced ranges of :data:`LIVE_SAMPLE_SLOTS` slots and
    scaled to the layer; the whole layer when it is no larger than those ranges."""
    size = index.layer_size(n)
    if size == 0:
        return 0.0, 0.0
    if size <= LIVE_SAMPLES * LIVE_SAMPLE_SLOTS:
        ranges, width = [0], size
    else:
        width = LIVE_SAMPLE_SLOTS
        ranges = np.linspace(0, size - width, LIVE_SAMPLES).astype(np.int64).tolist()
    counted = np.zeros(2)
    for lo in ranges:
        counted += kern.live_visits(index.geometry, index.layer(n), lo, lo + width)
    index.forget(set())
    scale = size / (len(ranges) * width)
    return float(counted[0] * scale), float(counted[1] * scale)


def neighbour_windows(
    index: LayerIndex, sizes: list[int], chunk: int, progress: Progress | None = None
) -> list[tuple[int, int]]:
    """(forward, backward) window of every layer: :meth:`Plan.windows`; ``progress`` called
    after each layer (phase "windows"). Kernel: ``layered.neighbour_window``."""
    out = []
    done = 0
    last = len(sizes) - 1
    for n in range(len(sizes)):
        forward = backward = 0
        if sizes[n]:
            for other, children in ((n - 1, False), (n + 1, True)):
                if not 0 <= other <= last or not sizes[other]:
                    continue
                marks = np.zeros(-(-sizes[other] // chunk), dtype=np.int64)
                args = (index.layer(n), index.layer(other), sizes[n], children, chunk, marks)
                most = int(kern.neighbour_window(index.geometry, *args))
                if children:
                    backward = most
                else:
                    forward = most
        out.append((forward, backward))
        index.forget({n, n + 1})
        done += sizes[n]
        if progress:
            progress("windows", n, done, sum(sizes))
    return out


def plan(
    spec: GameSpec | str,
    *,
    symmetry: bool = True,
    on_disk: bool = False,
    chunk: int = DEFAULT_CHUNK,
    values: str = "depth",
    index: str = "heights",
    positions: str = "reachable",
    keep_every: int = 1,
) -> Plan:
    """Index and sizes of a layered solve, before any work (builds each layer's index once).
    ``index``: one of :data:`INDEXES` ("column-runs": gravity boards, in RAM;
    InvalidArgumentError otherwise). ``positions``: one of :data:`POSITIONS` ("live": the
    heights index only). ``keep_every`` K > 1 (a live WDL table): only the value layers that
    are multiples of K stay once the layer below them is solved."""
    spec = as_spec(spec)
    if index not in INDEXES:
        raise InvalidArgumentError(f"index must be one of {INDEXES}, got {index!r}")
    if positions not in POSITIONS:
        raise InvalidArgumentError(f"positions must be one of {POSITIONS}, got {positions!r}")
    if type(keep_every) is not int or not 1 <= keep_every <= MAX_KEEP_EVERY:
        raise InvalidArgumentError(
            f"keep_every must be an integer from 1 to {MAX_KEEP_EVERY} (a probe searches up to "
            f"keep_every - 1 plies), got {keep_every!r}"
        )
    if keep_every > 1 and (positions, values) != ("live", "wdl"):
        raise InvalidArgumentError(
            f"keep_every {keep_every} (one value layer in {keep_every} kept, probes search "
            f"through the others) takes a live win/draw/loss table (--live --wdl), not a "
            f"{positions} {values} one"
        )
    if index == "column-runs":
        if positions == "live":
            raise InvalidArgumentError(
                "a live solve (every position with no line, no forward pass) takes the "
                "heights index, not column-runs"
            )
        if not spec.gravity:
            raise InvalidArgumentError(
                f"the column-runs index takes gravity boards (Connect Four and its kin), "
                f"not {spec.name}"
            )
        if on_disk:
            raise InvalidArgumentError("the column-runs index solves in RAM only (no out=)")
        runs = runs_index(spec, symmetry)
        return Plan(spec, runs, runs.layer_sizes, on_disk, chunk, values)
    heights = layer_index(spec, symmetry) if not on_disk else LayerIndex(spec, symmetry)
    return Plan(spec, heights, heights.layer_sizes, on_disk, chunk, values, positions, keep_every)


@lru_cache(maxsize=4)
def layer_index(spec: GameSpec, symmetry: bool) -> LayerIndex:
    """A LayerIndex kept for the process (small boards solved in RAM, again and again)."""
    return LayerIndex(spec, symmetry)


@lru_cache(maxsize=4)
def runs_index(spec: GameSpec, symmetry: bool) -> ColumnRunsIndex:
    """A ColumnRunsIndex kept for the process (its block tables are built once)."""
    return ColumnRunsIndex(spec, symmetry=symmetry)


def memory_limit(max_bytes: int | None = None) -> int:
    """``max_bytes``, or by default 90% of the memory available now."""
    from fastttt.tables.dense import available_memory

    return int(0.9 * available_memory()) if max_bytes is None else max_bytes


def fit_plan(
    p: Plan, max_bytes: int | None = None, mode: str = "auto", progress: Progress | None = None
) -> Plan:
    """The plan a solve runs under ``max_bytes`` (:func:`memory_limit`). On disk, ``mode``
    "auto" keeps whole neighbouring layers when they fit, else goes windowed; "whole" and
    "windowed" force one. In RAM the plan is unchanged. :func:`check_fits` says whether it
    fits."""
    if mode not in MODES:
        raise InvalidArgumentError(f"mode must be one of {MODES}, got {mode!r}")
    if not p.on_disk or mode == "whole":
        return replace(p, mode="whole", spare_bytes=0)
    limit = memory_limit(max_bytes)
    if mode == "windowed" or (p.memory_bytes > limit and p.fixed_bytes() <= limit):
        return p.windowed(limit, progress)
    return p  # whole layers fit, or even the index does not: refused with this estimate


def check_fits(
    p: Plan,
    max_bytes: int | None = None,
    free_disk: int | None = None,
    memory: bool = True,
    least: bool = False,
) -> None:
    """Raise MemoryBudgetError (with the estimates) when ``p`` needs more RAM than
    ``max_bytes`` (default 90% of available memory; not checked without ``memory``),
    DiskBudgetError when its disk estimate (:attr:`Plan.disk_bytes`; ``least``: of
    :meth:`Plan.drain_floor`, every drain holding its least) exceeds ``free_disk``."""
    from fastttt.memory import format_bytes

    limit = memory_limit(max_bytes)
    if memory and p.memory_bytes > limit:
        hint = ""
        disk = replace(p, on_disk=True, mode="whole")
        if not p.on_disk and disk.memory_bytes <= limit:
            hint = (
                f"; with --out DIR it keeps two layers in memory: about "
                f"{format_bytes(disk.memory_bytes)} of memory and about "
                f"{format_bytes(disk.disk_bytes)} of disk"
            )
        elif not p.on_disk and disk.fixed_bytes() <= limit:  # windows: seconds to measure
            hint = (
                "; with --out DIR it keeps the neighbour chunks each chunk reads in memory "
                f"(at least {format_bytes(disk.fixed_bytes())}) and about "
                f"{format_bytes(disk.disk_bytes)} of disk"
            )
        raise MemoryBudgetError(
            f"a layered solve of {p.spec.name} needs about {format_bytes(p.memory_bytes)} of "
            f"memory ({p.slots:,} slots, largest two layers {p.largest_pair:,}"
            f"{'; ' + _held(p) + ' held' if p.on_disk else ''}); the limit is "
            f"{format_bytes(limit)}{hint}"
        )
    if free_disk is not None and p.disk_bytes > free_disk:
        if (p.positions, p.values) == ("live", "wdl"):
            basis = (
                f"{LIVE_DISK_MARGIN:g} times {p.live_wdl_bytes():g} bytes a position with no line, "
                f"about {sum(p.live_slots()):,.0f} slots sampled, and "
                f"{format_bytes(CHUNK_FILE_BYTES)} a chunk file"
            )
            if p.keep_every == 1:
                basis += "; --keep-every K keeps one value layer in K"
            elif least:
                basis += ", even if each layer not kept went as soon as it is read"
            else:
                basis += ", each layer not kept deleted chunk by chunk as it is read"
        else:
            basis = (
                f"{DISK_MARGIN:g} times the compressed size measured on Connect Four 5x6; "
                f"{format_bytes(p.raw_disk_bytes)} before compression"
            )
        raise DiskBudgetError(
            f"a layered solve of {p.spec.name} may need about {format_bytes(p.disk_bytes)} of "
            f"disk ({basis}); the folder's file system has {format_bytes(free_disk)} free"
        )


def _held(p: Plan) -> str:
    """What a plan on disk keeps of the neighbouring layer, in words."""
    if p.mode == "windowed":
        return "the neighbour chunks each chunk reads"
    return "two layers"


def disk_room(out: str | os.PathLike, resume: bool) -> int:
    """Bytes a solve into ``out`` may take: the free disk, plus with ``resume`` what the
    folder already holds (its estimate counts the whole table)."""
    room = free_disk_for(out)
    if resume and os.path.isdir(out):
        for root, _dirs, files in os.walk(os.fspath(out)):
            room += sum(os.lstat(os.path.join(root, name)).st_size for name in files)
    return room


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
        game=game,
        **p.index.manifest(),
        layer_sizes=p.sizes,
        chunk=p.chunk,
        values=p.values,
        positions=p.positions,
        keep_every=p.keep_every,
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
    values: str | None = None,
    mode: str = "auto",
    index: str = "heights",
    positions: str | None = None,
    keep_every: int | None = None,
):
    """Strongly solve ``spec`` layer by layer: value (+1 first wins / 0 / -1) and depth of
    every reachable position, as a :class:`~fastttt.tables.probe.LayeredSolution`.

    ``positions``: "reachable" (a forward pass finds and counts the reachable positions, then
    the backward pass solves them) or "live" (no forward pass and no reach layers: every
    canonical colouring with no line is solved, reachable or not; a finished position is not
    stored and its probe is answered from its lines; the counts are of those colourings, not
    of the reachable positions); None: the resumed table's, else "reachable".

    ``keep_every`` K (a live WDL table): keep only the value layers that are multiples of K;
    each other layer drains while the layer below it is solved (:mod:`fastttt.tables.drain`:
    each chunk deleted once the chunks that read it are written), and a probe of one of its
    positions searches down to the next kept layer (K - 1 plies at most, K at most
    :data:`MAX_KEEP_EVERY`). The finished table is about K times smaller; the peak while it
    solves falls less (it holds the parts of the layers being read and written). None: the
    resumed table's, else 1 (every layer).

    ``values``: "depth" (value and depth a byte) or "wdl" (win/draw/loss only, four positions
    a byte; probes of depth raise :class:`~fastttt.errors.NoDepthError`, and
    :func:`fastttt.search.table_depths.with_depths` searches them; ``chunk`` a multiple of 4);
    None: the resumed table's, else "wdl" past :data:`WDL_DEFAULT_SLOTS` slots, else "depth".

    ``out``: a folder for the layers (chunked, checksummed, resumable with ``resume=True``);
    without it layers stay in RAM. ``chunk``: slots a chunk (default: the resumed table's, else
    ``DEFAULT_CHUNK``, ``BIG_CHUNK`` past :data:`WDL_DEFAULT_SLOTS` slots). ``symmetry`` stores
    one position per orbit of the board's group. ``mode`` (on disk): "auto" reads whole
    neighbouring layers when they fit in ``max_bytes``, else only the neighbour chunks each
    chunk reads ("windowed", :class:`~fastttt.tables.chunk_map.ChunkMap`); "whole" or "windowed"
    force one; both give the same bytes (:func:`fit_plan`). ``index``: "heights"
    (:class:`LayerIndex`) or, on gravity boards in RAM, "column-runs" (:class:`ColumnRunsIndex`:
    fewer slots, slower slot-by-slot sweeps, the same values). ``runner_factory(work)`` runs the
    chunks of a layer (default: this process; :class:`fastttt.tables.distributed.DaskRunner` for
    a cluster).
    Raises MemoryBudgetError before any work when the estimate exceeds ``max_bytes`` (default
    90% of available RAM), DiskBudgetError when the disk estimate exceeds the free disk, or
    while it runs when less than ``DISK_RESERVE`` would stay free (the chunks written are
    kept); ``on_plan(plan)`` is called once the estimates are known. Ctrl-C stops between
    chunks; the chunks written stay in ``out``, and a resume computes only the others.
    Kernels: ``layered.forward_chunk_*`` then ``layered.backward_chunk_*`` (live:
    ``layered.live_chunk_*`` alone; ``runs_layered.*`` with the column-runs index).
    """
    from fastttt.tables.probe import LayeredSolution

    started = time.perf_counter()
    resumed = _stored_manifest(out) if resume and out is not None else None
    if values is None and resumed is not None:
        values = resumed["values"]
    if positions is None:
        positions = resumed.get("positions", "reachable") if resumed is not None else "reachable"
    if keep_every is None:
        keep_every = resumed.get("keep_every", 1) if resumed is not None else 1
    if values is None and keep_every != 1:
        values = "wdl"
    if values not in (*VALUES, None):
        raise InvalidArgumentError(f"values must be one of {VALUES}, got {values!r}")
    if out is not None:
        require_zarr()  # before the plan is printed: a missing extra is the first thing said
    if chunk is None and resumed is not None:  # a resume keeps the chunks it started with
        chunk = resumed["chunk"]
    p = plan(
        spec,
        symmetry=symmetry,
        on_disk=out is not None,
        chunk=DEFAULT_CHUNK if chunk is None else chunk,
        values=values or "depth",
        index=index,
        positions=positions,
        keep_every=keep_every,
    )
    if values is None and p.slots > WDL_DEFAULT_SLOTS:
        p = replace(p, values="wdl")
    if chunk is None and p.slots > WDL_DEFAULT_SLOTS:
        p = replace(p, chunk=BIG_CHUNK)
    if p.values == "wdl" and p.chunk % WDL_SLOTS:
        raise InvalidArgumentError(
            f"a win/draw/loss solve packs {WDL_SLOTS} positions a byte: chunk must be a "
            f"multiple of {WDL_SLOTS}, got {p.chunk}"
        )
    if resumed is not None:  # refused before the disk is sampled and the windows measured
        asked = dict(chunk=p.chunk, values=p.values, keep_every=p.keep_every)
        refuse_another_table(out, resumed, asked)
    # the layers whose solve drains the next; a version-5 folder drops its layers whole
    draining = set(p.draining_layers())
    if resumed is not None and resumed["version"] < DRAIN_FORMAT_VERSION:
        draining = set()
    if out is not None:  # before the windows are measured (minutes on the biggest boards)
        room = disk_room(out, resume)
        if draining:  # refused at once when even the least won't fit
            check_fits(p.drain_floor(), None, room, memory=False, least=True)
            p = p.with_drains(progress)
        check_fits(p, None, room, memory=False)
    p = fit_plan(p, max_bytes, mode, progress)
    check_fits(p, max_bytes)
    if on_plan:
        on_plan(p)
    store = open_store(p, out, resume)
    if parallel is None:
        parallel = (os.cpu_count() or 1) > 1
    windowed = p.mode == "windowed"
    work = ChunkWork(
        store,
        p.index,
        parallel,
        whole_layers=not windowed,
        spare_bytes=p.spare_bytes if windowed else None,
        disk_reserve=DISK_RESERVE if out is not None else None,
    )
    runner = runner_factory(work) if runner_factory else LocalRunner(work)
    info = store.manifest.get("info", {})
    previous_seconds = float(info.get("seconds", 0.0))
    layers_info = dict(info.get("layers", {}))

    phases = [("reach", range(len(p.sizes))), ("value", reversed(range(len(p.sizes))))]
    if p.positions == "live":
        phases = phases[1:]
    drop_spent_layers(store)
    for phase, order in phases:
        total = sum(p.sizes)
        done_slots = sum(
            p.sizes[n]
            for n in range(len(p.sizes))
            if store.is_complete(phase, n) or store.is_solved(n)
        )
        for n in order:
            if store.is_complete(phase, n) or store.is_solved(n):
                continue  # a layer with values needs no reach bytes any more
            drain = None
            if phase == "value" and n in draining:
                store.start_draining(n + 1)
                drain = Drain(store, p.index, n)
            counter = [done_slots]

            def tick(c, n=n, counter=counter, phase=phase, total=total, drain=drain):
                if drain is not None:
                    drain.written(c)
                lo, hi = store.chunk_bounds(n, c)
                counter[0] += hi - lo
                if progress:
                    progress(phase, n, counter[0], total)

            results = _layer_results(store, work, runner, phase, n, tick, drain)
            done_slots += p.sizes[n]
            if phase == "value":
                layers_info[str(n)] = _layer_counts(results)
                if store.path is not None:  # on disk: the counts survive a kill
                    store.set_info(layers=layers_info)
            store.mark_complete(phase, n)
            if phase == "value":
                store.delete("reach", n)
                drop_spent_layers(store)
            if p.on_disk:
                p.index.forget({n - 1, n, n + 1})
    seconds = previous_seconds + time.perf_counter() - started
    store.set_info(seconds=seconds, layers=layers_info)
    return LayeredSolution(p.spec, p.index, store, seconds)


def _layer_results(store, work, runner, phase: str, n: int, done, drain) -> list:
    """The results of every chunk of layer ``n``: the chunks a stopped solve wrote, read back
    (a damaged one is computed again), then the others, run by ``runner``; ``done(chunk)``
    after each. ``drain``: the layer's :class:`~fastttt.tables.drain.Drain`, or None."""
    results, reused = [], set()
    for c in store.resume_layer(phase, n):
        try:
            results.append(work.stored(phase, n, c))
        except TableFileError:
            continue
        reused.add(c)
        done(c)
    todo = [c for c in range(store.chunk_count(n)) if c not in reused]
    if drain is not None:
        drain.check_reads(todo)
    return results + runner.run(phase, n, todo, done)


def drop_spent_layers(store) -> None:
    """Drop each solved value layer the table does not keep once the layer below it is
    solved (nothing reads it any more); a solve killed between the two steps, or while the
    files went, finishes it on resume. A layer draining (:mod:`fastttt.tables.drain`) while the
    layer below is unsolved keeps the chunks it has."""
    for n in range(1, len(store.manifest["layer_sizes"])):
        if not store.is_solved(n - 1) or store.keeps(n):
            continue
        if store.is_complete("value", n):
            store.drop(n)
        elif n in store.manifest["dropped"]:
            store.delete("value", n)  # files a kill left behind while they were deleted


def _stored_manifest(out) -> dict | None:
    """The manifest of the layered table in ``out``, or None when there is none to read."""
    if not os.path.lexists(os.path.join(out, MANIFEST)):
        return None
    try:
        return LayerStore.open(out).manifest
    except TableFileError:
        return None  # the store's own checks report it when the solve opens it


def _layer_counts(results: list) -> dict:
    """Per byte value (as a string): [positions, stored slots] summed over the chunks."""
    total = np.sum(results, axis=0) if results else np.zeros((2, 256), dtype=np.int64)
    return {str(b): [int(total[0, b]), int(total[1, b])] for b in np.nonzero(total[1])[0]}
