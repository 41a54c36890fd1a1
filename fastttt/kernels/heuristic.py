"""Depth-limited heuristic search kernels (plain minimax, memoised minimax, alpha-beta + memo).

Positions are two uint64 bitboards ``a`` (player 0's stones) and ``b`` (player 1's stones) and
the player to move (0 or 1). Values are ABSOLUTE, from player 0's side: player 0 maximises,
player 1 minimises. ``W = number_of_lines + 1``::

    player 0 has a line        +W      (checked first, as the handout's partie_finie does)
    player 1 has a line        -W
    full board, no line         0
    depth 0, not finished      free(0) - free(1)     free(p) = lines with no stone of p's opponent
                               with QUIRK: free(mover) - free(other), still read as player 0's
                               value (the td-jeu-de-morpion handout's rule, kept for compat)

Geometry ``geo`` (uint64 array): ``[full, bottom_row, cols, gravity, colmask_0, colmask_1, ...]``.
Moves are cells in increasing order, or with gravity columns in increasing order.

Transposition table ``tt`` = ``(key_a u64[], key_b u64[], key_meta i32[], value i16[],
flag i8[])`` (size a power of two, ``key_meta`` 0 = empty slot, else ``(depth+64)*2 + mover + 1``);
``flag`` 0 exact, 1 lower bound, 2 upper bound. Keys are matched exactly (both bitboards,
mover and depth), so a table entry is only reused for the very same depth-limited value.

``stats`` (int64 array): ``[nodes, tt_hits]`` or ``[nodes, tt_hits, stop]``; a node is one
call of :func:`search_kernel`. Once ``stop`` is set (Ctrl-C, :mod:`fastttt.interrupt`) the
search unwinds at once, storing nothing, and its values are meaningless.
Options ``opts``: bit 1 alpha-beta cut-offs, bit 2 memo (transposition table), bit 4 QUIRK.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fastttt.config import JIT

OPT_ALPHABETA = 1
OPT_MEMO = 2
OPT_QUIRK = 4
INF = 1 << 20
EXACT, LOWER, UPPER = 0, 1, 2
STATS_STOP = 2  # slot of the optional stop word in ``stats``


@njit(**JIT)
def count_free_lines(opponent, masks):
    """Number of lines (masks) holding no stone of ``opponent`` (a bitboard)."""
    n = 0
    for i in range(masks.shape[0]):
        if masks[i] & opponent == 0:
            n += 1
    return n


@njit(**JIT)
def winner_kernel(a, b, masks):
    """0 if ``a`` holds a full line, else 1 if ``b`` does, else -1."""
    for i in range(masks.shape[0]):
        if a & masks[i] == masks[i]:
            return 0
    for i in range(masks.shape[0]):
        if b & masks[i] == masks[i]:
            return 1
    return -1


@njit(**JIT)
def static_value(a, b, mover, masks, full, quirk):
    """Absolute value of a position seen as a leaf (finished or depth 0); see the module doc."""
    w = masks.shape[0] + 1
    win = winner_kernel(a, b, masks)
    if win == 0:
        return w
    if win == 1:
        return -w
    if (a | b) == full:
        return 0
    free0 = count_free_lines(b, masks)
    free1 = count_free_lines(a, masks)
    if quirk and mover == 1:
        return free1 - free0
    return free0 - free1


@njit(**JIT)
def playable_mask(a, b, geo):
    """Cells the mover may take (the caller checks the game is not over)."""
    occ = a | b
    empty = geo[0] & ~occ
    if geo[3] != 0:
        return empty & ((occ >> geo[2]) | geo[1])
    return empty


@njit(**JIT)
def move_bits(a, b, geo, out):
    """Write each move's one-cell bitboard into ``out``, in move order; return the count."""
    play = playable_mask(a, b, geo)
    n = 0
    if geo[3] != 0:
        for col in range(geo[2]):
            bit = play & geo[4 + col]
            if bit != 0:
                out[n] = bit
                n += 1
    else:
        c = np.uint64(0)
        one = np.uint64(1)
        while play != 0:
            if play & one:
                out[n] = one << c
                n += 1
            play >>= one
            c += one
    return n


@njit(**JIT)
def _slot(a, b, meta, size):
    h = a * np.uint64(0x9E3779B97F4A7C15) ^ b * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= np.uint64(meta) * np.uint64(0x165667B19E3779F9)
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(size - 1))


@njit(**JIT)
def search_kernel(a, b, mover, depth, alpha, beta, masks, geo, opts, tt, stats):
    """Depth-limited value of (a, b, mover), absolute (player 0 maximises).

    Without alpha-beta (and with a full window) the result is exact. With alpha-beta it is
    fail-soft: ``v <= alpha`` means the value is at most ``v``, ``v >= beta`` at least ``v``,
    otherwise it is exact.
    """
    stats[0] += 1
    full = geo[0]
    if winner_kernel(a, b, masks) >= 0 or (a | b) == full or depth == 0:
        return static_value(a, b, mover, masks, full, (opts & OPT_QUIRK) != 0)
    memo = (opts & OPT_MEMO) != 0
    meta = np.int32((depth + 64) * 2 + mover + 1)
    slot = 0
    if memo:
        size = tt[0].shape[0]
        slot = _slot(a, b, meta, size)
        if tt[2][slot] == meta and tt[0][slot] == a and tt[1][slot] == b:
            v = np.int64(tt[3][slot])
            f = tt[4][slot]
            if f == EXACT:
                stats[1] += 1
                return v
            if f == LOWER and v > alpha:
                alpha = v
            elif f == UPPER and v < beta:
                beta = v
            if alpha >= beta:
                stats[1] += 1
                return v
    alpha0 = alpha
    beta0 = beta
    cut = (opts & OPT_ALPHABETA) != 0
    bits = np.empty(64, dtype=np.uint64)
    nm = move_bits(a, b, geo, bits)
    other = np.int64(1 - mover)
    if mover == 0:
        best = -INF
        for i in range(nm):
            v = search_kernel(
                a | bits[i], b, other, depth - 1, alpha, beta, masks, geo, opts, tt, stats
            )
            if stats.shape[0] > STATS_STOP and stats[STATS_STOP]:
                return 0
            if v > best:
                best = v
                if best > alpha:
                    alpha = best
                if cut and alpha >= beta:
                    break
    else:
        best = INF
        for i in range(nm):
            v = search_kernel(
                a, b | bits[i], other, depth - 1, alpha, beta, masks, geo, opts, tt, stats
            )
            if stats.shape[0] > STATS_STOP and stats[STATS_STOP]:
                return 0
            if v < best:
                best = v
                if best < beta:
                    beta = best
                if cut and alpha >= beta:
                    break
    if memo:
        if best <= alpha0:
            flag = UPPER
        elif best >= beta0:
            flag = LOWER
        else:
            flag = EXACT
        tt[0][slot] = a
        tt[1][slot] = b
        tt[2][slot] = meta
        tt[3][slot] = np.int16(best)
        tt[4][slot] = np.int8(flag)
    return best


@njit(**JIT)
def root_kernel(a, b, mover, child_depth, masks, geo, opts, tt, stats, out_bits, out_vals):
    """Values of every move of (a, b, mover) searched at ``child_depth``, in move order.

    Writes the move bitboards and the children's absolute values; returns the number of moves
    and the best value for the mover. Children whose value is strictly worse than the best may
    carry a bound (alpha-beta) instead of their exact value; every child of the best value
    carries it exactly, so ``out_vals == best`` selects exactly the best moves.
    """
    nm = move_bits(a, b, geo, out_bits)
    other = np.int64(1 - mover)
    hi = np.int64(INF)
    lo = np.int64(-INF)
    if mover == 0:
        best = lo
        for i in range(nm):
            v = search_kernel(
                a | out_bits[i], b, other, child_depth, best - 1, hi, masks, geo, opts, tt, stats
            )
            out_vals[i] = v
            if v > best:
                best = v
    else:
        best = hi
        for i in range(nm):
            v = search_kernel(
                a, b | out_bits[i], other, child_depth, lo, best + 1, masks, geo, opts, tt, stats
            )
            out_vals[i] = v
            if v < best:
                best = v
    return nm, best


def new_table(log2_size: int = 18):
    """An empty transposition table with ``2**log2_size`` slots (about 24 bytes each)."""
    size = 1 << log2_size
    return (
        np.zeros(size, dtype=np.uint64),
        np.zeros(size, dtype=np.uint64),
        np.zeros(size, dtype=np.int32),
        np.zeros(size, dtype=np.int16),
        np.zeros(size, dtype=np.int8),
    )


def geometry(rows: int, cols: int, gravity: bool) -> np.ndarray:
    """The ``geo`` array of a rows x cols board (see the module docstring)."""
    cells = rows * cols
    full = (1 << cells) - 1
    bottom = ((1 << cols) - 1) << ((rows - 1) * cols)
    colmasks = [sum(1 << (r * cols + c) for r in range(rows)) for c in range(cols)]
    return np.array([full, bottom, cols, int(gravity), *colmasks], dtype=np.uint64)
