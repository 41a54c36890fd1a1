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
        self.deleted = 0
        for unread in np.flatnonzero(self.readers == 0):  # read by no chunk
            self._delete(int(unread))

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
        self.deleted += 1
