"""Draining: a value layer that the table does not keep goes chunk by chunk while the layer
below it is solved, each chunk as soon as every chunk that reads it is written.

The backward sweep of layer ``n`` reads layer ``n + 1`` at the children of each chunk's slots
(:func:`fastttt.kernels.layered.mark_neighbour_chunks`: the superset the chunk map loads). A
:class:`Drain` counts, for every chunk of layer ``n + 1``, the chunks of layer ``n`` that read
it; when one of those is written (and made durable) the counts of its reads fall, and a chunk
whose count reaches 0 is deleted. So the disk holds the part of layer ``n`` written and the
part of layer ``n + 1`` still to be read, instead of both layers whole (on Connect Four 7x6 the
largest pair falls to about two thirds). A stopped solve resumes from the chunks of layer ``n``
written (:meth:`fastttt.tables.layer_store.LayerStore.resume_layer`): every chunk of layer
``n + 1`` that the others read is still there.
"""

from __future__ import annotations

import numpy as np

from fastttt.errors import TableFileError
from fastttt.kernels import layered as kern


class Drain:
    """Deletes the chunks of value layer ``n + 1`` of ``store`` as the chunks of layer ``n``
    that read them are written (:meth:`written`). ``index``: the store's
    :class:`~fastttt.tables.index.LayerIndex`."""

    def __init__(self, store, index, n: int):
        self.store, self.n = store, n
        own, above = store.chunk_count(n), store.chunk_count(n + 1)
        marks = np.zeros(above, dtype=np.int64)
        self.reads: list[np.ndarray] = []
        self.readers = np.zeros(above, dtype=np.int64)  # chunks of layer n not yet written
        for c in range(own):
            start, stop = store.chunk_bounds(n, c)
            kern.mark_neighbour_chunks(
                index.geometry,
                index.layer(n),
                index.layer(n + 1),
                start,
                stop,
                True,
                store.manifest["chunk"],
                marks,
                c + 1,
            )
            reads = np.flatnonzero(marks == c + 1)
            self.readers[reads] += 1
            self.reads.append(reads)
        for unread in np.flatnonzero(self.readers == 0):  # read by no chunk
            self._delete(int(unread))

    def check_reads(self, chunks) -> None:
        """Raise TableFileError when a chunk of layer ``n`` still to compute (``chunks``: not
        written, or damaged) reads a chunk of layer ``n + 1`` that is gone: a drained layer is
        not solved again, so the table cannot be finished."""
        try:
            present = set(self.store.present_chunks("value", self.n + 1))
        except TableFileError:
            present = set()
        for chunk in chunks:
            gone = [int(c) for c in self.reads[chunk] if int(c) not in present]
            if gone:
                raise TableFileError(
                    f"{self.store.path}: layer {self.n} chunk {chunk} of value is missing or "
                    f"damaged, and layer {self.n + 1} chunk {gone[0]}, which it reads, was "
                    "deleted as the layer drained: solve the game again in a new folder"
                )

    def written(self, chunk: int) -> None:
        """Chunk ``chunk`` of layer ``n`` is written: make it durable, then delete the chunks of
        layer ``n + 1`` that no unwritten chunk reads. Call once per chunk."""
        self.store.sync_chunk("value", self.n, chunk)
        reads = self.reads[chunk]
        self.readers[reads] -= 1
        for c in reads[self.readers[reads] == 0]:
            self._delete(int(c))

    def _delete(self, chunk: int) -> None:
        self.store.delete_chunk("value", self.n + 1, chunk)


# the least any drain of layer n + 1 holds of the pair: all of layer n + 1 before the first chunk
# of layer n is written, all of layer n after the last (rows: fraction of n written, of n + 1 left)
FLOOR_PROFILE = np.array([[0.0, 1.0], [1.0, 0.0]])


def drain_profile(index, sizes: list[int], n: int, chunk: int) -> np.ndarray:
    """How a drain holds layers ``n`` and ``n + 1`` while layer ``n`` is solved in chunk order
    (one process; Dask workers take the chunks about in order): shape (2, chunks of layer n),
    after chunk t is written and before the chunks it was last to read go, the fraction of the
    slots of layer n written and of layer n + 1 still on disk."""
    own, above = -(-sizes[n] // chunk), -(-sizes[n + 1] // chunk)
    marks = np.zeros(above, dtype=np.int64)  # becomes 1 + the last chunk that reads it, or 0
    kern.neighbour_window(
        index.geometry, index.layer(n), index.layer(n + 1), sizes[n], True, chunk, marks
    )
    slots_above = np.full(above, chunk, dtype=np.float64)
    slots_above[-1] = sizes[n + 1] - chunk * (above - 1)
    freed = np.bincount(marks, weights=slots_above, minlength=own + 1)  # [0]: read by none
    left = sizes[n + 1] - freed[0] - np.concatenate([[0.0], np.cumsum(freed[1:own])])
    written = np.cumsum(np.minimum(chunk, sizes[n] - chunk * np.arange(own)))
    return np.stack([written / sizes[n], left / sizes[n + 1]])
