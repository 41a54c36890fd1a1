"""A layer index of gravity boards that leaves out the columns no game reaches (a prototype;
the layered solver takes it with ``index="column-runs"``).

In a reachable position every finished line holds the last stone played, which is the top
stone of its column. So in a column (read bottom to top as maximal *runs* of one colour):

- every run below the top run is shorter than ``k`` (a vertical line there would miss the
  last stone);
- ``strict`` (the default) also: the top run is at most ``k`` long (a longer one holds a line
  below its top stone), a top run of ``k`` is the last mover's (X when the layer ``n`` is
  odd), and at most one column has one (a *long* column: it holds the last stone).

Layer ``n`` holds every height vector with ``n`` stones and, for each, the colourings with
``x = (n + 1) // 2`` X stones that keep these rules: a superset of the positions reachable
after ``n`` plies (horizontal and diagonal lines are not looked at: they are not a matter of
one column). Slots, with the bit layout of :mod:`fastttt.games.mnk.board` (cell
``row * cols + col``, row 0 at the top)::

    slot = block start of the height vector + rank of the colouring among the allowed ones
    blocks: height vectors by increasing key = sum of heights[c] * (rows + 1) ** c
    colourings: column 0 first; a column by (its X stones, long or not, its X bits as a
                number: bit j = the j-th stone from the bottom)

Ranks come from counts of the allowed columns by height and X stones and a dynamic program
over the columns to the right (:mod:`fastttt.kernels.runs_index`). :func:`column_runs_sizes`
counts the slots of every layer by generating functions alone, so any board's size is known
without building anything. Without symmetry a position and its mirror image have two
slots; with it (``symmetry=True``) a layer keeps the block of one height vector of each
mirror pair, with all its allowed colourings (``mirror=True`` of :func:`column_runs_sizes`),
and a position is stored under its canonical form (:mod:`fastttt.kernels.runs_index`).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from fastttt.errors import GameSpecError, InvalidPositionError
from fastttt.games.mnk.board import BITBOARD_CELLS
from fastttt.games.mnk.spec import GameSpec, as_spec
from fastttt.kernels import runs_index as kern
from fastttt.kernels.layered import Geometry
from fastttt.tables.index import GROUPS, SYMMETRY_NONE, LayerIndex, refuse_positions

INDEX_COLUMN_RUNS = "gravity-column-runs"
INDEX_BURIED_RUNS = "gravity-buried-runs"  # strict=False: only buried lines are left out
MAX_ROWS = 16  # the sequence tables hold 2 ** rows entries a height

# (height, X stones, long) -> allowed sequences
ColumnCounts = dict[tuple[int, int, int], int]


def _runs(bits: int, h: int) -> list[tuple[int, int]]:
    """(colour, length) of the maximal runs of a column's ``h`` low bits, bottom first."""
    runs: list[tuple[int, int]] = []
    for j in range(h):
        colour = bits >> j & 1
        if runs and runs[-1][0] == colour:
            runs[-1] = (colour, runs[-1][1] + 1)
        else:
            runs.append((colour, 1))
    return runs


def sequence_class(bits: int, h: int, k: int, last_mover: int, strict: bool) -> int:
    """Class of a column of height ``h`` (bit j set: its j-th stone from the bottom is X):
    -1 not allowed, 1 allowed and long (``strict``: its top run is a line of k of
    ``last_mover``, 1 = X), 0 allowed."""
    runs = _runs(bits, h)
    if any(length >= k for _, length in runs[:-1]):
        return -1
    if not strict or not runs or runs[-1][1] < k:
        return 0
    colour, length = runs[-1]
    return 1 if length == k and colour == last_mover else -1


def column_counts(spec: GameSpec, strict: bool, last_mover: int) -> ColumnCounts:
    """Allowed sequences of one column by (height, X stones, long)."""
    counts: ColumnCounts = {}
    for h in range(spec.rows + 1):
        for bits in range(1 << h):
            cls = sequence_class(bits, h, spec.k, last_mover, strict)
            if cls >= 0:
                key = (h, bits.bit_count(), cls)
                counts[key] = counts.get(key, 0) + 1
    return counts


def _times(poly: np.ndarray, factor: ColumnCounts) -> np.ndarray:
    """``poly[stones, X stones, long columns]`` times a column factor (long columns past one
    are dropped)."""
    out = np.zeros_like(poly)
    stones, xs = poly.shape[0], poly.shape[1]
    for (h, t, cls), count in factor.items():
        if h >= stones or t >= xs:
            continue
        for u in range(2 - cls):
            out[h:, t:, u + cls] += count * poly[: stones - h, : xs - t, u]
    return out


def column_runs_sizes(spec: GameSpec | str, strict: bool = True, mirror: bool = False) -> list[int]:
    """Slots of every layer of the column-runs index of ``spec`` (Python ints, exact): the
    coefficient of stones**n X**x in the product of the columns' generating functions.

    ``mirror=True``: the slots of an index that keeps one height vector of each mirror pair
    with all its allowed colourings (a mirror-symmetric one keeps them too), by Burnside:
    (all + those of the symmetric height vectors) / 2."""
    spec = as_spec(spec)
    sizes = []
    for last_mover in (0, 1):
        counts = column_counts(spec, strict, last_mover)
        poly = np.zeros((spec.cells + 1, (spec.cells + 1) // 2 + 1, 2), dtype=object)
        poly[:] = 0
        poly[0, 0, 0] = 1
        total = poly
        for _ in range(spec.cols):
            total = _times(total, counts)
        if mirror:
            pairs: ColumnCounts = {}
            for (h, t, c), a in counts.items():
                for (h2, t2, c2), b in counts.items():
                    if h2 == h and c + c2 < 2:
                        key = (2 * h, t + t2, c + c2)
                        pairs[key] = pairs.get(key, 0) + a * b
            fixed = poly
            for _ in range(spec.cols // 2):
                fixed = _times(fixed, pairs)
            if spec.cols % 2:
                fixed = _times(fixed, counts)
            total = (total + fixed) // 2
        sizes.append([int(total[n, (n + 1) // 2].sum()) for n in range(spec.cells + 1)])
    return [sizes[n % 2][n] for n in range(spec.cells + 1)]


def _sequence_tables(spec: GameSpec, strict: bool) -> dict[str, np.ndarray]:
    rows = spec.rows
    width = 1 << rows
    seq_class = np.full((2, rows + 1, width), -1, dtype=np.int8)
    seq_rank = np.zeros((2, rows + 1, width), dtype=np.int64)
    seq_sorted = np.zeros((2, rows + 1, width), dtype=np.int64)
    seq_start = np.zeros((2, rows + 1, rows + 1, 2), dtype=np.int64)
    seq_count = np.zeros((2, rows + 1, rows + 1, 2), dtype=np.int64)
    for p in (0, 1):
        for h in range(rows + 1):
            allowed = []
            for bits in range(1 << h):
                cls = sequence_class(bits, h, spec.k, p, strict)
                seq_class[p, h, bits] = cls
                if cls >= 0:
                    allowed.append((bits.bit_count(), cls, bits))
            allowed.sort()
            for place, (t, cls, bits) in enumerate(allowed):
                if seq_count[p, h, t, cls] == 0:
                    seq_start[p, h, t, cls] = place
                seq_rank[p, h, bits] = seq_count[p, h, t, cls]
                seq_count[p, h, t, cls] += 1
                seq_sorted[p, h, place] = bits
    return {
        "seq_class": seq_class,
        "seq_rank": seq_rank,
        "seq_sorted": seq_sorted,
        "seq_start": seq_start,
        "seq_count": seq_count,
    }


class ColumnRunsIndex:
    """The column-runs index of a gravity board (module docstring): ``rank(first, second)
    -> (layer, slot)`` and ``unrank(layer, slot) -> (first, second)``, bitboards as in
    :mod:`fastttt.games.mnk.board`. ``symmetry``: the left-right mirror, one slot a mirror
    pair (ranking canonicalises: :mod:`fastttt.kernels.runs_index`). The block tables,
    (rows + 1) ** cols keys of 3 int64 (20 MB and about a second for 7x6), are built on the
    first rank or unrank; :attr:`layer_sizes` needs none of them."""

    def __init__(self, spec: GameSpec | str, strict: bool = True, symmetry: bool = False):
        self.spec = spec = as_spec(spec)
        if not spec.gravity:
            raise GameSpecError(f"{spec.describe()}: the column-runs index is for gravity boards")
        if spec.cells > BITBOARD_CELLS or spec.rows > MAX_ROWS:
            raise GameSpecError(
                f"{spec.describe()}: the column-runs index takes boards of at most "
                f"{BITBOARD_CELLS} cells and {MAX_ROWS} rows"
            )
        self.strict = strict
        self.kind = INDEX_COLUMN_RUNS if strict else INDEX_BURIED_RUNS
        self.mirror = symmetry
        self.symmetry = GROUPS["gravity"] if symmetry else SYMMETRY_NONE
        if max(self.layer_sizes) >= 2**63:
            raise GameSpecError(f"{spec.describe()}: a layer has more than 2**63 slots")

    @property
    def layer_count(self) -> int:
        """Layers 0..cells."""
        return self.spec.cells + 1

    @cached_property
    def layer_sizes(self) -> list[int]:
        """Slots of every layer (:func:`column_runs_sizes`: counted, nothing built)."""
        return column_runs_sizes(self.spec, self.strict, self.mirror)

    def layer_size(self, n: int) -> int:
        """Slots of layer ``n``."""
        return self.layer_sizes[n]

    def forget(self, keep: set[int]) -> None:
        """Nothing to drop: the tables serve every layer (as :meth:`LayerIndex.forget`)."""

    @cached_property
    def geometry(self) -> Geometry:
        """The board's lines, for the solver's sweeps (:mod:`fastttt.kernels.runs_layered`):
        the geometry of the heights index without symmetry."""
        return LayerIndex(self.spec, symmetry=False).geometry

    def table_bytes(self) -> int:
        """Bytes of :attr:`tables` (three int64 a height vector, the rest is small)."""
        return 3 * 8 * (self.spec.rows + 1) ** self.spec.cols

    @cached_property
    def tables(self) -> kern.RunsTables:
        """The kernels' tables (built on first use)."""
        spec = self.spec
        rows, cols = spec.rows, spec.cols
        column_bits = np.array(
            [[1 << ((rows - 1 - j) * cols + c) for j in range(rows)] for c in range(cols)],
            dtype=np.uint64,
        )
        keys = (rows + 1) ** cols
        tab = kern.RunsTables(
            rows=rows,
            cols=cols,
            mirror=int(self.mirror),
            column_bits=column_bits,
            column_mask=np.bitwise_or.reduce(column_bits, axis=1),
            key_start=np.zeros(keys, dtype=np.int64),
            layer_keys=np.zeros(keys, dtype=np.int64),
            block_start=np.zeros(keys, dtype=np.int64),
            layer_first=np.zeros(spec.cells + 2, dtype=np.int64),
            **_sequence_tables(spec, self.strict),
        )
        sizes = np.empty(keys, dtype=np.int64)
        kern.block_sizes(tab, sizes)
        heights = np.arange(keys, dtype=np.int64)
        layer_of_key = np.zeros(keys, dtype=np.int64)
        mirror_key = np.zeros(keys, dtype=np.int64)
        for _ in range(cols):
            layer_of_key += heights % (rows + 1)
            mirror_key = mirror_key * (rows + 1) + heights % (rows + 1)
            heights //= rows + 1
        if self.mirror:  # one block a mirror pair: the smaller key's
            sizes[mirror_key < np.arange(keys)] = 0
        order = np.argsort(layer_of_key, kind="stable")  # by layer, then by key
        tab.layer_keys[:] = order
        tab.layer_first[1:] = np.cumsum(np.bincount(layer_of_key, minlength=spec.cells + 1))
        ends = np.cumsum(sizes[order])
        tab.block_start[:] = ends - sizes[order]
        layer_base = np.concatenate(([0], ends[tab.layer_first[1:-1] - 1]))
        tab.block_start[:] -= np.repeat(layer_base, np.diff(tab.layer_first))
        tab.key_start[order] = tab.block_start
        return tab

    # --- positions <-> slots ---------------------------------------------------------------
    def rank(self, first: int, second: int) -> tuple[int, int]:
        """(layer, slot) of a position; InvalidPositionError when no slot holds it
        (overlapping stones, wrong counts, floating stones, a column the index leaves out)."""
        layer = (first | second).bit_count()
        out = self.rank_many(layer, np.array([first], np.uint64), np.array([second], np.uint64))
        if out[0] < 0:
            raise InvalidPositionError(
                f"no slot of {self.spec.name} holds first={first:#x} second={second:#x}"
            )
        return layer, int(out[0])

    def rank_many(self, layer: int, firsts: np.ndarray, seconds: np.ndarray) -> np.ndarray:
        """Slots in ``layer`` of many positions of that layer (-1 where no slot holds one:
        a floating stone or a column the index leaves out; kernel ``rank_many``).

        Raises InvalidPositionError when a position is malformed (overlapping stones, stones
        outside the board, a count that is not the layer's, wrong X - O)."""
        firsts = np.ascontiguousarray(firsts, dtype=np.uint64)
        seconds = np.ascontiguousarray(seconds, dtype=np.uint64)
        if not 0 <= layer <= self.spec.cells:
            raise InvalidPositionError(f"layer {layer} is outside 0..{self.spec.cells}")
        x = (layer + 1) // 2
        full = np.uint64((1 << self.spec.cells) - 1)
        bad = (
            (firsts & seconds != 0)
            | ((firsts | seconds) & ~full != 0)
            | (np.bitwise_count(firsts) != x)
            | (np.bitwise_count(seconds) != layer - x)
        )
        refuse_positions(bad, firsts, seconds, layer, self.spec)
        out = np.empty(firsts.shape[0], dtype=np.int64)
        kern.rank_many(self.tables, layer, firsts, seconds, out)
        return out

    def unrank(self, layer: int, slot: int) -> tuple[int, int]:
        """(first, second) bitboards stored in ``slot`` of ``layer``."""
        f, s = self.unrank_many(layer, np.array([slot], dtype=np.int64))
        return int(f[0]), int(s[0])

    def unrank_many(self, layer: int, slots: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(firsts, seconds) stored in ``slots`` of ``layer`` (kernel ``unrank_many``; fastest
        on sorted slots, which share their blocks' tables)."""
        slots = np.ascontiguousarray(slots, dtype=np.int64)
        if not 0 <= layer <= self.spec.cells:
            raise InvalidPositionError(f"layer {layer} is outside 0..{self.spec.cells}")
        size = self.layer_size(layer)
        if slots.size and not (0 <= slots.min() and slots.max() < size):
            bad = slots[(slots < 0) | (slots >= size)][0]
            raise InvalidPositionError(f"slot {bad} is outside 0..{size - 1} of layer {layer}")
        firsts = np.empty(slots.shape[0], dtype=np.uint64)
        seconds = np.empty(slots.shape[0], dtype=np.uint64)
        kern.unrank_many(self.tables, layer, slots, firsts, seconds)
        return firsts, seconds

    def manifest(self) -> dict:
        """What a store would record about this index."""
        return {"index": self.kind, "symmetry": self.symmetry}

    def __repr__(self) -> str:
        rule = "strict" if self.strict else "buried runs only"
        return f"<ColumnRunsIndex {self.spec.name}: {self.kind}, {rule}, symmetry {self.symmetry}>"
