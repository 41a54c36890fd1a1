"""The line-count board of the proof searches: builds the arrays of
:mod:`fastttt.kernels.lines` for a board geometry and loads positions into them.

Geometry is ``rows x cols``, ``k`` in a row, with or without gravity, cells numbered
``row * cols + col`` (:mod:`fastttt.games.mnk.spec`). Unlike the alpha-beta layout
(:mod:`fastttt.kernels.negamax`, at most 64 bits with its padding) a line-count board has no
size limit: it takes any object with ``rows``, ``cols``, ``k`` and ``gravity`` (a
:class:`~fastttt.games.mnk.spec.GameSpec`, or :class:`Geometry` for boards the specs do not hold
yet) and positions as two Python-int bitboards.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from fastttt.errors import InvalidArgumentError
from fastttt.games.mnk.board import symmetry_maps
from fastttt.kernels import lines as L
from fastttt.kernels.threats import pairing_frame

ZOBRIST_SEED = 0x5EED_F00D


class Geometry(NamedTuple):
    """A board: ``rows`` x ``cols``, ``k`` in a row, ``gravity``; ``cells`` and ``name`` as on
    :class:`~fastttt.games.mnk.spec.GameSpec`."""

    rows: int
    cols: int
    k: int
    gravity: bool = False

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def name(self) -> str:
        return f"{self.rows}x{self.cols}k{self.k}{'g' if self.gravity else ''}"

    def describe(self) -> str:
        grav = ", gravity" if self.gravity else ""
        return f"{self.rows} rows x {self.cols} cols, {self.k} in a row{grav}"


def geometry_of(spec) -> Geometry:
    """The :class:`Geometry` of a spec (anything with rows, cols, k, gravity, or a game
    name)."""
    if isinstance(spec, str):
        from fastttt.games.mnk.spec import as_spec

        spec = as_spec(spec)
    try:
        geo = Geometry(int(spec.rows), int(spec.cols), int(spec.k), bool(spec.gravity))
    except (AttributeError, TypeError, ValueError):
        raise InvalidArgumentError(f"expected a game spec, got {spec!r}") from None
    if min(geo.rows, geo.cols, geo.k) < 1 or geo.k > max(geo.rows, geo.cols):
        raise InvalidArgumentError(f"not a playable board: {geo}")
    return geo


def board_lines(geo: Geometry) -> list[tuple[int, int]]:
    """Every line of ``k`` cells as ``(first cell, step)``: its cells are ``first + t * step``
    for ``t < k`` (rows, columns, diagonals, anti-diagonals; each line once)."""
    rows, cols, k = geo.rows, geo.cols, geo.k
    found: dict[tuple[int, ...], tuple[int, int]] = {}
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(rows):
            for c in range(cols):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    cells = tuple(sorted((r + dr * t) * cols + c + dc * t for t in range(k)))
                    step = dr * cols + dc if k > 1 else 1
                    found.setdefault(cells, (cells[0], step))
    return list(found.values())


class LineBoard:
    """The kernel arrays ``B`` (int32) and ``Z`` (uint64) of one geometry
    (:mod:`fastttt.kernels.lines` draws their layout)."""

    def __init__(self, spec):
        geo = geometry_of(spec)
        self.geometry = geo
        n, k = geo.cells, geo.k
        lines = board_lines(geo)
        nl = len(lines)
        through: list[list[int]] = [[] for _ in range(n)]
        for i, (first, step) in enumerate(lines):
            for t in range(k):
                through[first + t * step].append(i)
        sizes = {
            "lfirst": nl,
            "lstep": nl,
            "lcells": nl * k,
            "clstart": n + 1,
            "clines": sum(len(x) for x in through),
            "board": n,
            "cnt": 2 * nl,
            "wc": 2 * n,
            "tc": 2 * n,
            "height": geo.cols,
            "scratch": 4 * n + nl + (n // 2 + 2) * pairing_frame(k),
        }
        slots = {
            "lfirst": L.H_LFIRST,
            "lstep": L.H_LSTEP,
            "lcells": L.H_LCELLS,
            "clstart": L.H_CLSTART,
            "clines": L.H_CLINES,
            "board": L.H_BOARD,
            "cnt": L.H_CNT,
            "wc": L.H_WC,
            "tc": L.H_TC,
            "height": L.H_HEIGHT,
            "scratch": L.H_SCRATCH,
        }
        at = L.HEADER
        offsets = {}
        for name, size in sizes.items():
            offsets[name] = at
            at += size
        B = np.zeros(at, dtype=np.int32)
        B[L.H_CELLS], B[L.H_LINES], B[L.H_K] = n, nl, k
        B[L.H_ROWS], B[L.H_COLS], B[L.H_GRAV] = geo.rows, geo.cols, int(geo.gravity)
        for name, slot in slots.items():
            B[slot] = offsets[name]
        o = offsets
        B[o["lfirst"] : o["lfirst"] + nl] = [f for f, _ in lines]
        B[o["lstep"] : o["lstep"] + nl] = [s for _, s in lines]
        B[o["lcells"] : o["lcells"] + nl * k] = [f + t * s for f, s in lines for t in range(k)]
        start = np.cumsum([0] + [len(x) for x in through])
        B[o["clstart"] : o["clstart"] + n + 1] = start
        B[o["clines"] : o["clines"] + int(start[-1])] = [i for x in through for i in x]
        maps = symmetry_maps(geo.rows, geo.cols, geo.gravity)
        B[L.H_NSYM] = len(maps)
        rng = np.random.default_rng(ZOBRIST_SEED)
        base = rng.integers(0, np.iinfo(np.uint64).max, size=(n, 2), dtype=np.uint64, endpoint=True)
        Z = np.zeros(L.Z_KEYS_AT + len(maps) * n * 2, dtype=np.uint64)
        keys = Z[L.Z_KEYS_AT :].reshape(len(maps), n, 2)
        for s, image in enumerate(maps):
            keys[s] = base[image]
        self.B, self.Z = B, Z
        self.lines = nl
        self.symmetries = len(maps)
        self._board = o["board"]
        L.recount(B, Z)

    def load(self, first: int, second: int) -> None:
        """Set the stones (bitboards over cells; any size) and recount everything."""
        n = self.geometry.cells
        board = np.zeros(n, dtype=np.int32)
        for c in range(n):
            if first >> c & 1:
                board[c] = 1
            elif second >> c & 1:
                board[c] = 2
        self.B[self._board : self._board + n] = board
        L.recount(self.B, self.Z)

    @property
    def board(self) -> np.ndarray:
        """The cells (0 empty, 1 first player, 2 second player), a view."""
        return self.B[self._board : self._board + self.geometry.cells]

    @property
    def ply(self) -> int:
        return int(self.B[L.H_PLY])
