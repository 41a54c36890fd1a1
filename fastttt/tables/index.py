"""Perfect indexes of the layers of an m,n,k-game, free or with gravity, with or without symmetry.

Layer ``n`` holds every position with ``n`` stones (X has ``(n + 1) // 2`` of them); a move
always leads to the next layer. Inside a layer a position's slot is::

    slot = block * C(n, x) + colex rank of the X stones among the occupied cells

where ``block`` numbers the occupied masks of the layer: every ``n``-subset of the cells on a
free board (``C(cells, n)`` of them, in colex order), the masks made of column heights on a
gravity board (so that only gravity-legal positions get a slot). No slot is wasted without
symmetry. With symmetry (:data:`GROUPS`: the 8 rotations and reflections of a square, the 4
of a rectangle, the left-right mirror with gravity) only orbit-minimal masks get a block and a
position is stored under its canonical form; the few masks that a symmetry fixes keep every
colouring, so a handful of slots stay unused. The kernels are in :mod:`fastttt.kernels.layered`.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from math import comb

import numpy as np

from fastttt.errors import GameSpecError, InvalidPositionError
from fastttt.games.mnk.board import BITBOARD_CELLS, bottom_row_mask, full_mask
from fastttt.games.mnk.spec import GameSpec, as_spec
from fastttt.kernels import layered as kern

INDEX_FREE = "free-colex"
INDEX_GRAVITY = "gravity-heights"
SYMMETRY_NONE = "none"

# name of the group used with symmetry=True, by kind of board
GROUPS = {"square": "d4", "rectangle": "d2", "gravity": "mirror"}


def _cell_maps(spec: GameSpec, symmetry: bool) -> tuple[str, list[list[int]]]:
    """(group name, image cell of every cell for each distinct group element, identity first)."""
    rows, cols = spec.rows, spec.cols

    def at(f):
        return [f(c // cols, c % cols) for c in range(spec.cells)]

    identity = at(lambda r, c: r * cols + c)
    if not symmetry:
        return SYMMETRY_NONE, [identity]
    mirror = at(lambda r, c: r * cols + (cols - 1 - c))
    if spec.gravity:
        name, maps = GROUPS["gravity"], [identity, mirror]
    else:
        flip = at(lambda r, c: (rows - 1 - r) * cols + c)
        half_turn = at(lambda r, c: (rows - 1 - r) * cols + (cols - 1 - c))
        maps = [identity, mirror, flip, half_turn]
        name = GROUPS["rectangle"]
        if rows == cols:
            name = GROUPS["square"]
            maps += [
                at(lambda r, c: c * cols + r),  # transpose
                at(lambda r, c: (cols - 1 - c) * cols + (rows - 1 - r)),  # anti-transpose
                at(lambda r, c: c * cols + (rows - 1 - r)),  # quarter turn
                at(lambda r, c: (cols - 1 - c) * cols + r),  # three quarters
            ]
    distinct: list[list[int]] = []
    for m in maps:
        if m not in distinct:
            distinct.append(m)
    return name, distinct


def _byte_tables(cells: int, maps: list[list[int]]) -> np.ndarray:
    nbytes = max(1, (cells + 7) // 8)
    table = np.zeros((len(maps), nbytes, 256), dtype=np.uint64)
    for g, image in enumerate(maps):
        for b in range(nbytes):
            for value in range(256):
                out = 0
                for bit in range(8):
                    cell = 8 * b + bit
                    if value >> bit & 1 and cell < cells:
                        out |= 1 << image[cell]
                table[g, b, value] = out
    return table


@lru_cache(maxsize=1)
def _binomials() -> np.ndarray:
    table = np.zeros((65, 65), dtype=np.int64)
    for a in range(65):
        for b in range(a + 1):
            table[a, b] = comb(a, b)
    return table


@lru_cache(maxsize=8)
def _colex_tables(cells: int) -> np.ndarray:
    """colex[b, below, byte]: sum over the set bits of ``byte`` (t-th from 0, at cell
    8 * b + q) of C(8 * b + q, below + t + 1)."""
    nbytes = max(1, (cells + 7) // 8)
    table = np.zeros((nbytes, cells + 1, 256), dtype=np.int64)
    for b in range(nbytes):
        for below in range(cells + 1):
            for byte in range(256):
                total, t = 0, 0
                for q in range(8):
                    if byte >> q & 1:
                        t += 1
                        total += comb(8 * b + q, below + t)
                table[b, below, byte] = total if total < 2**63 else 0
    return table


def _height_tables(spec: GameSpec) -> np.ndarray:
    """key_table of a gravity board: each stone adds (rows + 1) ** its column, so the sum
    over a mask is its column heights in base rows + 1 (``below`` is not used)."""
    nbytes = max(1, (spec.cells + 7) // 8)
    table = np.zeros((nbytes, spec.cells + 1, 256), dtype=np.int64)
    weight = [(spec.rows + 1) ** (c % spec.cols) for c in range(spec.cells)]
    for b in range(nbytes):
        for byte in range(256):
            table[b, :, byte] = sum(
                weight[8 * b + q] for q in range(8) if byte >> q & 1 and 8 * b + q < spec.cells
            )
    return table


def _bit_tables() -> tuple[np.ndarray, np.ndarray]:
    """pext8[mask, bits] and pdep8[mask, packed] on bytes."""
    pext8 = np.zeros((256, 256), dtype=np.uint8)
    pdep8 = np.zeros((256, 256), dtype=np.uint8)
    for mask in range(256):
        cells = [q for q in range(8) if mask >> q & 1]
        for value in range(256):
            pext8[mask, value] = sum(1 << i for i, q in enumerate(cells) if value >> q & 1)
            pdep8[mask, value] = sum(1 << q for i, q in enumerate(cells) if value >> i & 1)
    return pext8, pdep8


_PEXT8, _PDEP8 = _bit_tables()


def _line_runs(spec: GameSpec) -> dict:
    """Cell step and start cells of the lines of k in each direction (for shift tests)."""
    steps, starts = [], []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        steps.append(dr * spec.cols + dc)
        mask = 0
        for r in range(spec.rows):
            for c in range(spec.cols):
                end_r, end_c = r + dr * (spec.k - 1), c + dc * (spec.k - 1)
                if 0 <= end_r < spec.rows and 0 <= end_c < spec.cols:
                    mask |= 1 << (r * spec.cols + c)
        starts.append(mask)
    return {
        "line_shift": np.array(steps, dtype=np.int64),
        "line_start": np.array(starts, dtype=np.uint64),
    }


def _orbit_counts(spec: GameSpec, maps: list[list[int]]) -> list[int]:
    """Number of orbits of occupied masks with n stones, for each n (Burnside: the mean over
    the group of the masks each element fixes). A fixed mask is a union of cycles of cells
    (free boards) or of columns of equal height (gravity), so an element with cycles of
    lengths L contributes the coefficient of t**n in the product of sum_h t**(L * h), h up to
    1 (a cell) or rows (a column)."""
    cells = spec.cells
    total = [0] * (cells + 1)
    for image in maps:
        if spec.gravity:
            bottom = (spec.rows - 1) * spec.cols
            perm, cap = [image[bottom + c] - bottom for c in range(spec.cols)], spec.rows
        else:
            perm, cap = image, 1
        poly = [1] + [0] * cells
        seen = [False] * len(perm)
        for start in range(len(perm)):
            if seen[start]:
                continue
            length, i = 0, start
            while not seen[i]:
                seen[i] = True
                i = perm[i]
                length += 1
            new = [0] * (cells + 1)
            for degree, coef in enumerate(poly):
                if coef:
                    for h in range(cap + 1):
                        if degree + length * h <= cells:
                            new[degree + length * h] += coef
            poly = new
        total = [a + b for a, b in zip(total, poly, strict=True)]
    return [t // len(maps) for t in total]


def refuse_positions(bad, firsts, seconds, layer: int, spec: GameSpec) -> None:
    """Raise InvalidPositionError naming the first position flagged in ``bad`` (bitboards
    ``firsts``/``seconds`` said to be of ``layer``), if any."""
    if bad.any():
        i = int(np.argmax(bad))
        raise InvalidPositionError(
            f"position {i} (first={int(firsts[i]):#x}, second={int(seconds[i]):#x}) is not "
            f"a position of layer {layer} of {spec.name}"
        )


class LayerIndex:
    """The perfect index of every layer of ``spec`` (layers built on first use, kept).

    ``rank(first, second) -> (layer, slot)`` and ``unrank(layer, slot) -> (first, second)``
    convert between bitboards (any orientation; ranking canonicalises) and slots.
    """

    def __init__(self, spec: GameSpec | str, symmetry: bool = True):
        self.spec = spec = as_spec(spec)
        if spec.cells > BITBOARD_CELLS:
            raise GameSpecError(
                f"{spec.describe()}: the tables take boards of at most {BITBOARD_CELLS} cells "
                f"(uint64 bitboards), this one has {spec.cells}; exact search (--search) takes it"
            )
        self.kind = INDEX_GRAVITY if spec.gravity else INDEX_FREE
        self.symmetry, maps = _cell_maps(spec, symmetry)
        colex = _colex_tables(spec.cells)
        self.geometry = kern.Geometry(
            cells=spec.cells,
            cols=spec.cols,
            rows=spec.rows,
            gravity=int(spec.gravity),
            k=spec.k,
            full=np.uint64(full_mask(spec)),
            bottom=np.uint64(bottom_row_mask(spec)),
            nbytes=max(1, (spec.cells + 7) // 8),
            binom=_binomials(),
            colex=colex,
            key_table=_height_tables(spec) if spec.gravity else colex,
            pext8=_PEXT8,
            pdep8=_PDEP8,
            sym=_byte_tables(spec.cells, maps),
            **_line_runs(spec),
        )
        self.group_order = len(maps)
        self._maps = maps
        self._layers: dict[int, kern.Layer] = {}

    @property
    def layer_count(self) -> int:
        """Layers 0..cells."""
        return self.spec.cells + 1

    def layer(self, n: int) -> kern.Layer:
        """The index tuple of layer ``n`` (built on first use: at most a few seconds)."""
        if n not in self._layers:
            self._layers[n] = self._build(n)
        return self._layers[n]

    def forget(self, keep: set[int]) -> None:
        """Drop the built layers not in ``keep`` (their arrays can be large)."""
        for n in list(self._layers):
            if n not in keep:
                del self._layers[n]

    def _build(self, n: int) -> kern.Layer:
        if not 0 <= n <= self.spec.cells:
            raise InvalidPositionError(f"layer {n} is outside 0..{self.spec.cells}")
        geo = self.geometry
        if self.spec.gravity:
            keys = (self.spec.rows + 1) ** self.spec.cols
            build = kern.build_gravity_layer
        else:
            keys = comb(self.spec.cells, n)
            build = kern.build_free_layer
        occ = np.empty(keys, dtype=np.uint64)
        key_block = np.empty(keys, dtype=np.int64)
        fixed = np.empty(keys, dtype=np.uint8)
        count = build(geo, n, occ, key_block, fixed)
        x = (n + 1) // 2
        return kern.Layer(
            n=n,
            x=x,
            colourings=comb(n, x),
            occ=occ[:count].copy(),
            key_block=key_block,
            fixed=fixed[:count].copy(),
        )

    def layer_size(self, n: int) -> int:
        """Slots of layer ``n`` (counted, nothing built)."""
        return self.layer_sizes[n]

    @cached_property
    def layer_sizes(self) -> list[int]:
        """Slots of every layer: blocks (orbits of occupied masks, by Burnside's lemma) times
        C(n, x); arithmetic only, so a plan of any board answers at once."""
        blocks = _orbit_counts(self.spec, self._maps)
        return [blocks[n] * comb(n, (n + 1) // 2) for n in range(self.layer_count)]

    # --- positions <-> slots ---------------------------------------------------------------
    def rank(self, first: int, second: int) -> tuple[int, int]:
        """(layer, slot) of the position's canonical form; InvalidPositionError when no slot
        holds it (overlapping stones, wrong counts, floating stones)."""
        layer = (first | second).bit_count()
        out = self.rank_many(layer, np.array([first], np.uint64), np.array([second], np.uint64))
        if out[0] < 0:
            raise InvalidPositionError(
                f"no slot of {self.spec.name} holds first={first:#x} second={second:#x}"
            )
        return layer, int(out[0])

    def rank_many(self, layer: int, firsts: np.ndarray, seconds: np.ndarray) -> np.ndarray:
        """Slots in ``layer`` of many positions of that layer (-1 where no slot holds one).

        Raises InvalidPositionError when a position is malformed (overlapping stones, stones
        outside the board, a count that is not the layer's, wrong X - O)."""
        firsts = np.ascontiguousarray(firsts, dtype=np.uint64)
        seconds = np.ascontiguousarray(seconds, dtype=np.uint64)
        lay = self.layer(layer)
        nx = np.bitwise_count(firsts)
        no = np.bitwise_count(seconds)
        bad = (
            (firsts & seconds != 0)
            | ((firsts | seconds) & ~self.geometry.full != 0)
            | (nx != lay.x)
            | (no != layer - lay.x)
        )
        refuse_positions(bad, firsts, seconds, layer, self.spec)
        out = np.empty(firsts.shape[0], dtype=np.int64)
        kern.rank_many(self.geometry, lay, firsts, seconds, out)
        return out

    def unrank(self, layer: int, slot: int) -> tuple[int, int]:
        """(first, second) bitboards stored in ``slot`` of ``layer``."""
        size = self.layer_size(layer)
        if not 0 <= slot < size:
            raise InvalidPositionError(f"slot {slot} is outside 0..{size - 1} of layer {layer}")
        f, s = self.unrank_many(layer, np.array([slot], dtype=np.int64))
        return int(f[0]), int(s[0])

    def unrank_many(self, layer: int, slots: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        slots = np.ascontiguousarray(slots, dtype=np.int64)
        firsts = np.empty(slots.shape[0], dtype=np.uint64)
        seconds = np.empty(slots.shape[0], dtype=np.uint64)
        kern.unrank_many(self.geometry, self.layer(layer), slots, firsts, seconds)
        return firsts, seconds

    def manifest(self) -> dict:
        """What a store records about this index."""
        return {"index": self.kind, "symmetry": self.symmetry}

    def __repr__(self) -> str:
        return f"<LayerIndex {self.spec.name}: {self.kind}, symmetry {self.symmetry}>"
