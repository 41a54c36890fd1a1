"""The chunk map: the chunks of one neighbouring layer that the current chunk reads, and no more.

A sweep of layer ``n`` reads layer ``n - 1`` (forward) or ``n + 1`` (backward) at the slots of
the neighbours of its chunk (:func:`fastttt.kernels.layered.mark_neighbour_chunks`). A
:class:`ChunkMap` keeps that layer as a NumPy array of its full size (so that kernels index it
by slot, unchanged) over an anonymous private memory map: only the pages of the chunks loaded
take RAM. Before each chunk of the sweep, :meth:`ChunkMap.hold` loads the chunks it needs and
releases the others beyond ``spare`` least recently used ones: their whole pages go back to
the operating system (``madvise(MADV_DONTNEED)``; the process RSS falls) and their bytes read
as zeros, so a kernel that read a released chunk would see "no position", never stale data.
Resident chunks are at most ``needed + spare`` at any time.

On gravity boards a chunk's neighbours lie in one narrow window of the neighbouring layer per
column (the index orders blocks by column heights), so a chunk needs a few to a few dozen
neighbour chunks (:meth:`fastttt.tables.layered.Plan.windows` has the most for every layer).
Where ``madvise`` is missing (not Linux or BSD) released chunks are zeroed but their pages
stay resident.
"""

from __future__ import annotations

import mmap
import sys
from collections import OrderedDict

import numpy as np

PAGE = mmap.PAGESIZE
_MAP_NORESERVE = 0x4000 if sys.platform.startswith("linux") else 0  # no swap reserved up front


def anonymous_array(size: int) -> np.ndarray:
    """A zeroed, writable uint8 array of ``size`` bytes over an anonymous private map: pages
    take RAM when first written, and :func:`release` gives them back. The map is unmapped
    when the last reference to the array goes."""
    if size == 0:
        return np.zeros(0, dtype=np.uint8)
    flags = mmap.MAP_PRIVATE | _MAP_NORESERVE
    return np.frombuffer(mmap.mmap(-1, size, flags=flags), dtype=np.uint8)


def release(data: np.ndarray, start: int, stop: int) -> None:
    """Zero ``data[start:stop]`` and return its whole pages to the operating system (an array
    from :func:`anonymous_array`); the pages it shares with bytes outside are only zeroed."""
    buffer = data.base.obj if isinstance(data.base, memoryview) else data.base
    first = -(-start // PAGE) * PAGE
    last = stop // PAGE * PAGE
    if isinstance(buffer, mmap.mmap) and hasattr(buffer, "madvise") and last > first:
        data[start:first] = 0
        data[last:stop] = 0
        buffer.madvise(mmap.MADV_DONTNEED, first, last - first)  # reads as zeros again
    else:
        data[start:stop] = 0


class ChunkMap:
    """Layer ``layer`` of ``kind`` from ``store``, holding only the chunks asked for.

    ``data``: the layer's array (its full size; bytes of chunks not held read as 0).
    ``spare``: chunks kept, least recently used first out, beyond those the current chunk
    needs (None: never release, the buffer grows to the chunks ever needed). Counters:
    ``loads`` (chunks read from the store), ``releases``, ``peak`` (most chunks held)."""

    def __init__(self, store, kind: str, layer: int, spare: int | None):
        self.store, self.kind, self.layer, self.spare = store, kind, layer, spare
        self.data = anonymous_array(store.array_size(kind, layer))
        self._held: OrderedDict[int, None] = OrderedDict()  # least recently used first
        self.loads = self.releases = self.peak = 0

    @property
    def held(self) -> int:
        """Chunks held now."""
        return len(self._held)

    def hold(self, needed) -> np.ndarray:
        """Make the chunks ``needed`` (indexes) readable in ``data``, releasing first those
        beyond the ``spare`` least recently used others; returns ``data``."""
        held = self._held
        wanted = [int(c) for c in needed]
        for c in wanted:
            if c in held:
                held.move_to_end(c)
        if self.spare is not None:
            keep = set(wanted)
            others = len(held) - sum(c in held for c in keep)
            for c in list(held):
                if others <= self.spare:
                    break
                if c not in keep:
                    self._release(c)
                    others -= 1
        for c in wanted:
            if c not in held:
                lo, hi = self.store.byte_bounds(self.kind, self.layer, c)
                self.data[lo:hi] = self.store.read_chunk(self.kind, self.layer, c)
                held[c] = None
                self.loads += 1
        self.peak = max(self.peak, len(held))
        return self.data

    def _release(self, c: int) -> None:
        lo, hi = self.store.byte_bounds(self.kind, self.layer, c)
        release(self.data, lo, hi)
        del self._held[c]
        self.releases += 1
