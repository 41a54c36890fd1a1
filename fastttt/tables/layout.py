"""The compact index of a dense table: one byte per position with legal stone counts.

A position's base-3 code splits as ``code = hi * 3**L + lo``: ``lo`` holds the first ``L``
cells (the top rows), ``hi`` the rest. For a fixed ``hi`` (a *block*), only the ``lo`` whose
stone difference makes the whole position legal (X - O in {0, 1}) get a slot::

    block(hi) = [ lo with X-O = -d(hi)     (first player to move), ranked by lo ]
                [ lo with X-O = 1 - d(hi)  (second player to move), ranked by lo ]
    slot(hi, lo) = base[hi] + (second_offset[hi] if second to move else 0) + lo_rank[lo]

where ``d(hi)`` is the stone difference inside ``hi``. This stores 741 M slots for a 5x4 board
instead of 3**20 = 3.49 G, and keeps a position and its children in ``lo`` inside one block
of a few tens of KB (cache-resident). A move adds ``d * 3**c`` to the code, so processing blocks
by increasing number of stones in ``hi`` and, inside a block, ``lo`` in increasing order visits
every parent before its children (reverse order: children first).

Without gravity, whether a position is reachable and finished follows from its lines alone
(see ``Layout.closed_form``), so the solver needs no reachability sweep: ``merged_lines_*[j] &
hi_lines_*[hi]`` is the bitset of the lines a player holds (bit i = ``lines[i]``).

The sweeps read the lo codes of a block from ``merged_pos`` (one int64 each, in increasing
order), packed as ``lo | rank << 16 | second_to_move << 32 | first's stones << 33 | second's
stones << 43`` (L <= 10 cells, fewer than 2**16 codes).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from fastttt.codes import bitboards_of_codes, code_count
from fastttt.games.mnk.board import cell_lines, full_mask, win_masks
from fastttt.games.mnk.spec import GameSpec, as_spec
from fastttt.kernels.dense import POS_FIRST_STONES, POS_RANK, POS_SECOND, POS_SECOND_STONES

MAX_LO_CELLS = 10  # 3**10 lo codes: rank tables of 59049 entries stay in L2
MAX_LINES = 64  # line bitsets are uint64


class Layout(NamedTuple):
    """Arrays describing the compact index of one game (passed whole to the kernels)."""

    lo_cells: int  # L
    cols: int
    gravity: int  # 1 with gravity
    full: np.uint64  # mask of all cells
    bottom: np.uint64  # mask of the lowest row
    pow3: np.ndarray  # int64[cells + 1]
    lo_first: np.ndarray  # uint64[3**L]: first player's stones of each lo code
    lo_second: np.ndarray  # uint64[3**L]
    lo_diff: np.ndarray  # int64[3**L]: X - O inside lo
    lo_rank: np.ndarray  # int32[3**L]: rank of lo among the lo codes of the same difference
    hi_first: np.ndarray  # uint64[3**H], already shifted by L
    hi_second: np.ndarray  # uint64[3**H]
    hi_diff: np.ndarray  # int64[3**H]
    hi_base: np.ndarray  # int64[3**H + 1]: first slot of each block (last = total)
    hi_second_offset: np.ndarray  # int64[3**H]: where the second-to-move part of a block starts
    merged_start: np.ndarray  # int64[2H + 2]: CSR over d(hi) + H of the lo codes of a block
    merged_pos: np.ndarray  # int64: lo codes of a block in increasing order, packed (above)
    line_start: np.ndarray  # int64[cells + 1]: CSR of the win lines through each cell
    line_masks: np.ndarray  # uint64
    closed_form: int  # 1: reachability from the line bitsets below (no gravity, <= 64 lines)
    lines: np.ndarray  # uint64[lines]: every win line, bit i of the bitsets = lines[i]
    merged_lines_first: np.ndarray  # uint64, like merged_pos: lines whose lo cells are first's
    merged_lines_second: np.ndarray  # uint64: lines whose lo cells are second's
    hi_lines_first: np.ndarray  # uint64[3**H]: lines whose hi cells are first's
    hi_lines_second: np.ndarray  # uint64[3**H]


def lo_cell_count(spec: GameSpec) -> int:
    return min(spec.cells, MAX_LO_CELLS)


def _digit_arrays(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """first/second bitboards and X-O difference of every base-3 code of n cells."""
    first, second = bitboards_of_codes(np.arange(code_count(n), dtype=np.int64), n)
    diff = _popcount(first) - _popcount(second)
    return first, second, diff


def _popcount(a: np.ndarray) -> np.ndarray:
    return np.bitwise_count(a).astype(np.int64)


def difference_counts(n: int) -> list[int]:
    """counts[d + n] = number of base-3 strings of n cells with X - O = d (exact integers:
    they pass 2**63 from about 42 cells on)."""
    counts = [1]
    for _ in range(n):
        padded = [0, 0, *counts, 0, 0]
        counts = [padded[i] + padded[i + 1] + padded[i + 2] for i in range(len(counts) + 2)]
    return counts


def slot_count(spec: GameSpec | str) -> int:
    """Slots of the compact table (positions with legal stone counts), without building it."""
    return _slot_count(as_spec(spec))


@lru_cache(maxsize=64)
def _slot_count(spec: GameSpec) -> int:
    lo_n = lo_cell_count(spec)
    hi_n = spec.cells - lo_n
    lo_counts = difference_counts(lo_n)
    hi_counts = difference_counts(hi_n)
    total = 0
    for dh in range(-hi_n, hi_n + 1):
        for dl in (-dh, 1 - dh):
            if -lo_n <= dl <= lo_n:
                total += hi_counts[dh + hi_n] * lo_counts[dl + lo_n]
    return total


@lru_cache(maxsize=8)
def build_layout(spec: GameSpec) -> Layout:
    lo_n = lo_cell_count(spec)
    hi_n = spec.cells - lo_n
    lo_first, lo_second, lo_diff = _digit_arrays(lo_n)
    hi_first, hi_second, hi_diff = _digit_arrays(hi_n)
    hi_first <<= np.uint64(lo_n)
    hi_second <<= np.uint64(lo_n)

    class_size = np.zeros(2 * lo_n + 3, dtype=np.int64)  # index d + lo_n + 1, padded
    counts = np.bincount(lo_diff + lo_n, minlength=2 * lo_n + 1)
    class_size[1 : 2 * lo_n + 2] = counts
    order = np.argsort(lo_diff, kind="stable")
    class_start = np.concatenate(([0], np.cumsum(counts)[:-1]))
    lo_rank = np.empty(3**lo_n, dtype=np.int32)
    lo_rank[order] = np.arange(3**lo_n) - class_start[lo_diff[order] + lo_n]

    def size_of(d: np.ndarray) -> np.ndarray:
        inside = (d >= -lo_n) & (d <= lo_n)
        return np.where(inside, class_size[np.clip(d, -lo_n - 1, lo_n + 1) + lo_n + 1], 0)

    first_part = size_of(-hi_diff)
    block_size = first_part + size_of(1 - hi_diff)
    hi_base = np.zeros(3**hi_n + 1, dtype=np.int64)
    np.cumsum(block_size, out=hi_base[1:])

    line_start, line_masks = cell_lines(spec)
    lines = win_masks(spec)
    closed_form = not spec.gravity and len(lines) <= MAX_LINES
    if closed_form:
        lo_lines = _line_bits(lines, lo_first, lo_second, 0, lo_n)
        hi_lines = _line_bits(lines, hi_first, hi_second, lo_n, hi_n)
    else:
        lo_lines = hi_lines = (np.zeros(1, dtype=np.uint64),) * 2

    merged_start = np.zeros(2 * hi_n + 2, dtype=np.int64)
    merged = []
    for dh in range(-hi_n, hi_n + 1):
        los = np.nonzero((lo_diff == -dh) | (lo_diff == 1 - dh))[0]
        merged.append(los)
        merged_start[dh + hi_n + 1] = merged_start[dh + hi_n] + len(los)
    los = np.concatenate(merged)
    second = (lo_diff[los] + np.repeat(np.arange(-hi_n, hi_n + 1), np.diff(merged_start))) == 1
    if closed_form:
        lo_lines = (lo_lines[0][los], lo_lines[1][los])
    merged_pos = (
        los
        | lo_rank[los].astype(np.int64) << POS_RANK
        | second.astype(np.int64) << POS_SECOND
        | lo_first[los].astype(np.int64) << POS_FIRST_STONES
        | lo_second[los].astype(np.int64) << POS_SECOND_STONES
    )
    return Layout(
        lo_cells=lo_n,
        cols=spec.cols,
        gravity=int(spec.gravity),
        full=np.uint64(full_mask(spec)),
        bottom=np.uint64(((1 << spec.cols) - 1) << ((spec.rows - 1) * spec.cols)),
        pow3=3 ** np.arange(spec.cells + 1, dtype=np.int64),
        lo_first=lo_first,
        lo_second=lo_second,
        lo_diff=lo_diff,
        lo_rank=lo_rank,
        hi_first=hi_first,
        hi_second=hi_second,
        hi_diff=hi_diff,
        hi_base=hi_base,
        hi_second_offset=first_part.astype(np.int64),
        merged_start=merged_start,
        merged_pos=merged_pos,
        line_start=line_start,
        line_masks=line_masks,
        closed_form=int(closed_form),
        lines=lines,
        merged_lines_first=lo_lines[0],
        merged_lines_second=lo_lines[1],
        hi_lines_first=hi_lines[0],
        hi_lines_second=hi_lines[1],
    )


def _line_bits(lines, first, second, start, n):
    """Per bitboard pair: bitsets (bit i: ``lines[i]``) of the lines whose cells among
    ``start .. start + n - 1`` all hold a stone of ``first`` (resp. ``second``). The line test
    of :func:`fastttt.games.mnk.board.contains_line`, vectorised over pairs and split at
    ``start``."""
    part = np.uint64(((1 << n) - 1) << start)
    out_first = np.zeros(first.shape[0], dtype=np.uint64)
    out_second = np.zeros(first.shape[0], dtype=np.uint64)
    for i, line in enumerate(lines):
        m = line & part
        out_first |= ((first & m) == m).astype(np.uint64) << np.uint64(i)
        out_second |= ((second & m) == m).astype(np.uint64) << np.uint64(i)
    return out_first, out_second


def hi_layers(spec: GameSpec) -> list[np.ndarray]:
    """hi codes grouped by the number of stones in the hi cells (layer p = p stones)."""
    return list(_hi_layers(spec))


@lru_cache(maxsize=8)
def _hi_layers(spec: GameSpec) -> tuple[np.ndarray, ...]:
    hi_n = spec.cells - lo_cell_count(spec)
    codes = np.arange(code_count(hi_n), dtype=np.int64)
    first, second = bitboards_of_codes(codes, hi_n)
    stones = _popcount(first | second)
    layout = build_layout(spec)
    nonempty = layout.hi_base[1:] > layout.hi_base[:-1]
    return tuple(codes[(stones == p) & nonempty] for p in range(hi_n + 1))
