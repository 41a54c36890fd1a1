"""Probes of a saved table: :func:`open_table`, and the layered table's lazy look-ups.

:func:`open_table` opens a table for questions about positions: a layered table's folder
(``solve --out``) lazily, a dense ``.fttt`` file (``solve --save``) whole. Both answer the
questions of :class:`~fastttt.tables.queries.PositionQueries`: ``value``/``depth``/``best_moves``,
the probe/get pairs and ``probe_many``; values +1 first player wins, 0 draw, -1 second player
wins (:mod:`fastttt.values`), depth in plies to the end (winner hurrying, loser delaying).
:class:`LayeredSolution` reads the manifest, then only the chunks a question needs (a few kept
in a small cache); positions are canonicalised by :class:`~fastttt.tables.index.LayerIndex`.
A win/draw/loss table (``solve --wdl``, manifest ``values`` "wdl") answers values only: its
look-ups read 2 bits a position, and questions of depth raise
:class:`~fastttt.errors.NoDepthError` (:class:`~fastttt.tables.queries.PositionQueries`).
A live table (``solve --live``, manifest ``positions`` "live") stores every position with no
line, reachable or not, and no finished one: a position where only the side that moved last
has a line, and a stone it could have played last leaves it without, is answered from its
lines (won, depth 0) by :func:`won_bytes`, without a look-up. A live WDL table that keeps one
value layer in K (``solve --keep-every K``) answers a position of a dropped layer by a search
down to the next kept layer (:meth:`LayeredSolution.bytes_of`).
"""

from __future__ import annotations

import os
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from fastttt.errors import TableFileError
from fastttt.games.mnk.board import Position, bottom_row_mask, full_mask, win_masks
from fastttt.games.mnk.spec import GameSpec, mnk
from fastttt.kernels.dense import V_DRAW, V_FIRST, V_SECOND
from fastttt.tables.index import LayerIndex
from fastttt.tables.layer_store import WDL_SLOTS
from fastttt.tables.queries import PositionQueries
from fastttt.tables.runs_index import ColumnRunsIndex
from fastttt.values import table_counts

if TYPE_CHECKING:
    from fastttt.tables.dense import Solution

SEARCH_BATCH = 1 << 12  # positions of a dropped layer searched at once (a few children each)
CACHED_CHUNKS = 64  # 64 MiB at the default chunk: 4x5k4g (21 chunks) stays in; 16 thrashed


class LayeredSolution(PositionQueries):
    """A layered strong solution: every reachable position's value and depth (or its value
    alone: ``has_depth`` False, a win/draw/loss table).

    Same questions as :class:`fastttt.tables.dense.Solution`; answers come from the store's
    ``value`` layers, one chunk at a time.
    """

    engine = "layered"

    def __init__(
        self, spec: GameSpec, index: LayerIndex | ColumnRunsIndex, store, seconds: float = 0.0
    ):
        self.spec = spec
        self.index = index
        self.store = store
        self.seconds = seconds
        self._chunks: OrderedDict[tuple[int, int], np.ndarray] = OrderedDict()
        self._checked: set[int] = set()
        self.has_depth = not store.is_packed("value")
        self.live = store.manifest["positions"] == "live"
        self.keep_every = store.manifest["keep_every"]

    def _table_name(self) -> str:
        where = f" in {self.store.path}" if self.store.path is not None else " (in memory)"
        return f"the layered table of {self.spec.name}{where}"

    # --- bytes ------------------------------------------------------------------------------
    def _chunk(self, layer: int, chunk: int) -> np.ndarray:
        key = (layer, chunk)
        if key in self._chunks:
            self._chunks.move_to_end(key)
        else:
            self._chunks[key] = self.store.read_chunk("value", layer, chunk)
            if len(self._chunks) > CACHED_CHUNKS:
                self._chunks.popitem(last=False)
        return self._chunks[key]

    def _check_layer(self, layer: int) -> None:
        if layer not in self._checked:
            size = self.index.layer_size(layer)
            if size != self.store.manifest["layer_sizes"][layer]:
                raise TableFileError(
                    f"layer {layer} of the table has {self.store.manifest['layer_sizes'][layer]}"
                    f" slots, the index of {self.spec.name} {size}: another fastttt made it"
                )
            self._checked.add(layer)

    def _slot_byte(self, layer: int, slot: int) -> int:
        self._check_layer(layer)
        chunk = slot // self.store.manifest["chunk"]
        start, _ = self.store.chunk_bounds(layer, chunk)
        return int(self._from_chunk(self._chunk(layer, chunk), np.int64(slot - start)))

    def _from_chunk(self, data: np.ndarray, offsets):
        """Table bytes at ``offsets`` (slots from the chunk's start) of a chunk's data: its
        bytes, or in a packed (WDL) chunk the 2-bit v of each slot (depth 0)."""
        if self.has_depth:
            return data[offsets]
        shift = ((offsets % WDL_SLOTS) * 2).astype(np.uint8)
        return (data[offsets // WDL_SLOTS] >> shift) & np.uint8(3)

    def _stored_byte(self, pos: Position) -> int:
        if self.live:
            return int(self.bytes_of(np.array([pos.first]), np.array([pos.second]))[0])
        layer, slot = self.index.rank(pos.first, pos.second)
        return self._slot_byte(layer, slot)

    def bytes_of(self, firsts: np.ndarray, seconds: np.ndarray) -> np.ndarray:
        """Table byte of each position given as bitboards (0 when not reachable); reads each
        chunk these positions are in once (through the chunk cache). A position of a dropped
        layer (``keep_every``) is searched: its children's bytes, down to a kept layer."""
        firsts = np.asarray(firsts, dtype=np.uint64)
        seconds = np.asarray(seconds, dtype=np.uint64)
        out = np.zeros(firsts.shape[0], dtype=np.uint8)
        placed = np.zeros(firsts.shape[0], dtype=bool)  # has a slot: stones where they can be
        layers = np.bitwise_count(firsts | seconds)
        size = self.store.manifest["chunk"]
        for n in np.unique(layers).tolist():
            self._check_layer(n)
            where = np.flatnonzero(layers == n)
            slots = self.index.rank_many(n, firsts[where], seconds[where])
            where, slots = where[slots >= 0], slots[slots >= 0]
            placed[where] = True
            if n % self.keep_every:  # a dropped layer: batches bound the children held
                for lo in range(0, where.size, SEARCH_BATCH):
                    batch = where[lo : lo + SEARCH_BATCH]
                    out[batch] = self._searched_bytes(firsts[batch], seconds[batch])
                continue
            chunks = slots // size
            for chunk in np.unique(chunks).tolist():
                mine = chunks == chunk
                start, _ = self.store.chunk_bounds(n, chunk)
                out[where[mine]] = self._from_chunk(self._chunk(n, chunk), slots[mine] - start)
        if self.live:
            missing = np.flatnonzero(placed & (out == 0))
            out[missing] = won_bytes(self.spec, firsts[missing], seconds[missing])
        return out

    def _searched_bytes(self, firsts: np.ndarray, seconds: np.ndarray) -> np.ndarray:
        """Bytes of placed positions of a dropped layer of a live WDL table: a position with
        a line is a finished game or none (:func:`won_bytes`), a full board a draw, any
        other the best of its children's values for the side to move."""
        spec = self.spec
        masks = win_masks(spec)
        lined = _has_line(masks, firsts) | _has_line(masks, seconds)
        out = np.where(lined, won_bytes(spec, firsts, seconds), np.uint8(0)).astype(np.uint8)
        taken = firsts | seconds
        full = np.uint64(full_mask(spec))
        out[~lined & (taken == full)] = V_DRAW
        parents = np.flatnonzero(~lined & (taken != full))
        if not parents.size:
            return out
        f, s, taken = firsts[parents], seconds[parents], taken[parents]
        x_moves = np.bitwise_count(f) == np.bitwise_count(s)
        empty = ~taken & full
        if spec.gravity:  # on the bottom row or on a stone (Position.playable_mask)
            bottom = np.uint64(bottom_row_mask(spec))
            legal = empty & ((taken >> np.uint64(spec.cols)) | bottom)
        else:
            legal = empty
        bits = np.uint64(1) << np.arange(spec.cells, dtype=np.uint64)
        parent, cell = np.nonzero((legal[:, None] & bits) != 0)
        bit = bits[cell]
        child_f = np.where(x_moves[parent], f[parent] | bit, f[parent])
        child_s = np.where(x_moves[parent], s[parent], s[parent] | bit)
        pairs, inverse = np.unique(
            np.stack([child_f, child_s], axis=1), axis=0, return_inverse=True
        )
        child = self.bytes_of(pairs[:, 0], pairs[:, 1])[inverse.reshape(-1)]  # transpositions once
        if (child == 0).any():
            raise TableFileError(f"{self._table_name()}: a position's child has no value")
        mover_wins = np.where(x_moves, V_FIRST, V_SECOND)
        mover_loses = np.where(x_moves, V_SECOND, V_FIRST)
        # for the side to move: 2 its win, 1 a draw, 0 its loss; the best child
        score = np.where(child == mover_wins[parent], 2, np.where(child == V_DRAW, 1, 0))
        best = np.zeros(parents.size, dtype=np.int64)
        np.maximum.at(best, parent, score)
        out[parents] = np.where(best == 2, mover_wins, np.where(best == 1, V_DRAW, mover_loses))
        return out

    # --- counts -----------------------------------------------------------------------------
    def layer_counts(self) -> dict[int, dict[int, int]]:
        """layer -> {byte value: positions} (each stored slot counts its whole orbit)."""
        layers = self.store.manifest.get("info", {}).get("layers", {})
        return {int(n): {int(b): pair[0] for b, pair in c.items()} for n, c in layers.items()}

    def counts(self) -> dict:
        """Reachable positions, finished ones by result, all of them by value
        (:func:`fastttt.values.table_counts`), and the same for each ply (layer) in
        ``by_ply``."""
        h = np.zeros((len(self.store.manifest["layer_sizes"]), 256), dtype=np.int64)
        for n, by_byte in self.layer_counts().items():
            for byte, count in by_byte.items():
                h[n, byte] = count
        return {
            **table_counts(h.sum(axis=0)),
            "by_ply": [{"ply": n, **table_counts(h[n])} for n in range(h.shape[0])],
        }

    @property
    def reachable(self) -> int:
        return self.counts()["reachable"]

    def summary(self) -> dict:
        """The JSON summary of ``fastttt solve --json`` (the dense fields plus engine, layers,
        index, symmetry, slots and disk_bytes)."""
        layers = range(len(self.store.manifest["layer_sizes"]))
        table_bytes = sum(
            self.store.array_size("value", n) for n in layers if n % self.keep_every == 0
        )
        return {
            **self._summary(self.counts(), self.seconds, table_bytes),
            "engine": self.engine,
            "wdl": not self.has_depth,
            "positions": self.store.manifest["positions"],
            "keep_every": self.keep_every,
            "layers": len(self.store.manifest["layer_sizes"]),
            "index": self.index.kind,
            "symmetry": self.index.symmetry,
            "disk_bytes": int(self.store.disk_bytes()),
        }

    def __repr__(self) -> str:
        return f"<LayeredSolution {self.spec.name}: {self.index.kind}, {self.index.symmetry}>"


def won_bytes(spec: GameSpec, firsts: np.ndarray, seconds: np.ndarray) -> np.ndarray:
    """Table byte of each position as a finished game: the value of the side that moved last
    (depth 0) when it has a line, the other side none, and one of its stones that could have
    been played last (gravity: the top of its column) leaves it without a line; else 0. The
    counts of stones are a game's (X as many as O, or one more), the stones supported."""
    masks = win_masks(spec)

    def has_line(stones: np.ndarray) -> np.ndarray:
        return _has_line(masks, stones)

    out = np.zeros(firsts.shape[0], dtype=np.uint8)
    for lo in range(0, firsts.shape[0], 1 << 14):  # a line mask each: bounded memory
        f, s = firsts[lo : lo + (1 << 14)], seconds[lo : lo + (1 << 14)]
        x_last = np.bitwise_count(f) > np.bitwise_count(s)
        last, other = np.where(x_last, f, s), np.where(x_last, s, f)
        finished = has_line(last) & ~has_line(other)
        could = last & ~((f | s) << np.uint64(spec.cols)) if spec.gravity else last
        before = np.zeros(f.shape[0], dtype=bool)  # a position before the last move was open
        for cell in range(spec.cells):
            bit = np.uint64(1 << cell)
            ask = np.flatnonzero(finished & ~before & ((could & bit) != 0))
            before[ask] = ~has_line(last[ask] ^ bit)
        won = finished & before
        out[lo : lo + (1 << 14)] = np.where(won, np.where(x_last, V_FIRST, V_SECOND), 0)
    return out


def _has_line(masks: np.ndarray, stones: np.ndarray) -> np.ndarray:
    """Whether each of ``stones`` (bitboards) holds one of the line ``masks``."""
    return ((stones[:, None] & masks) == masks).any(axis=1)


def open_table(
    path: str | os.PathLike, game: GameSpec | str | None = None
) -> LayeredSolution | Solution:
    """Open a saved table for probes: a folder is a layered table (``solve --out``), read
    lazily (:class:`LayeredSolution`); a file a dense one (``solve --save``), loaded whole
    (:func:`fastttt.tables.dense_store.load`, a :class:`~fastttt.tables.dense.Solution`).

    ``game`` (optional) must match the table's game. Raises TableFileError when ``path`` is
    not a finished table, is damaged or holds another game."""
    if Path(path).is_dir():
        return open_layered(path, game)
    from fastttt.tables.dense_store import (
        load,  # refuses anything but a regular file (a FIFO would block)
    )

    return load(path, game)


def open_layered(path: str | os.PathLike, game: GameSpec | str | None = None) -> LayeredSolution:
    """Open a finished layered table folder for look-ups, reading nothing but its manifest.

    ``game`` (optional) must match the table's game. Raises TableFileError when the folder
    is not a finished table (or of another game)."""
    from fastttt.games.mnk.spec import as_spec
    from fastttt.tables.layer_store import LayerStore

    store = LayerStore.open(path, "r")
    m = store.manifest
    try:
        g = m["game"]
        spec = mnk(int(g["rows"]), int(g["cols"]), int(g["k"]), bool(g["gravity"]))
    except (KeyError, TypeError, ValueError) as err:
        raise TableFileError(f"{path}: damaged manifest ({err})") from None
    if game is not None and as_spec(game) != spec:
        raise TableFileError(f"{path}: holds {spec.name}, expected {as_spec(game).name}")
    unfinished = [n for n in range(spec.cells + 1) if not store.is_solved(n)]
    if unfinished:
        raise TableFileError(
            f"{path}: the solve is not finished (value layers {unfinished[:5]} missing); "
            "run the same solve again with --resume"
        )
    index = LayerIndex(spec, symmetry=m["symmetry"] != "none")
    if index.kind != m["index"] or index.symmetry != m["symmetry"]:
        raise TableFileError(
            f"{path}: index {m['index']}/{m['symmetry']} is not what this fastttt builds for "
            f"{spec.name} ({index.kind}/{index.symmetry})"
        )
    seconds = float(m.get("info", {}).get("seconds", 0.0))
    return LayeredSolution(spec, index, store, seconds)
