"""Numba kernels over the compact dense table (see :mod:`fastttt.layout` for the index).

Each table byte is one position::

    0                 not reachable from the empty board (or illegal)
    NONTERMINAL=255   reachable, game not over, value not known yet (between the two sweeps)
    depth << 2 | v    solved: v = 1 first player wins, 2 draw, 3 second player wins;
                      depth = plies to the end (winner hurries, loser delays); 0 = finished

Kernels take the table, the Layout tuple and the hi codes of one layer; they never raise.
"""

import numpy as np
from numba import njit, prange

from fastttt.config import JIT, PARALLEL_JIT
from fastttt.kernels.bits import ctz

NONTERMINAL = 255
V_FIRST, V_DRAW, V_SECOND = 1, 2, 3


@njit(**JIT)
def slot_of(lay, hi, lo, second_to_move):
    """Slot of (hi, lo); ``second_to_move`` is 1 when the second player moves there."""
    off = lay.hi_second_offset[hi] if second_to_move else 0
    return lay.hi_base[hi] + off + lay.lo_rank[lo]


@njit(**JIT)
def _has_line_through(lay, stones, cell):
    for i in range(lay.line_start[cell], lay.line_start[cell + 1]):
        m = lay.line_masks[i]
        if stones & m == m:
            return True
    return False


@njit(**JIT)
def _playable(lay, occupied):
    empty = lay.full & ~occupied
    if lay.gravity:
        return empty & ((occupied >> np.uint64(lay.cols)) | lay.bottom)
    return empty


@njit(**JIT)
def _removable(lay, stones, occupied):
    """Stones that could have been played last (with gravity: the top stone of a column,
    resting on the bottom row or on another stone)."""
    if lay.gravity:
        cols = np.uint64(lay.cols)
        return stones & ~(occupied << cols) & ((occupied >> cols) | lay.bottom)
    return stones


@njit(**JIT)
def _forward_block(table, lay, hi):
    L = lay.lo_cells
    dh = lay.hi_diff[hi]
    hi_n = (lay.merged_start.shape[0] - 2) // 2
    row = dh + hi_n
    for j in range(lay.merged_start[row], lay.merged_start[row + 1]):
        lo = lay.merged_lo[j]
        second = dh + lay.lo_diff[lo]  # 1 when the second player moves (first moved last)
        idx = slot_of(lay, hi, lo, second)
        if hi == 0 and lo == 0:
            table[idx] = NONTERMINAL
            continue
        first_bb = lay.hi_first[hi] | lay.lo_first[lo]
        second_bb = lay.hi_second[hi] | lay.lo_second[lo]
        occupied = first_bb | second_bb
        last = first_bb if second else second_bb
        digit = 1 if second else 2
        cand = _removable(lay, last, occupied)
        found = -1
        while cand:
            c = ctz(cand)
            cand &= cand - np.uint64(1)
            if c < L:
                p = slot_of(lay, hi, lo - digit * lay.pow3[c], 1 - second)
            else:
                p = slot_of(lay, hi - digit * lay.pow3[c - L], lo, 1 - second)
            if table[p] == NONTERMINAL:
                found = c
                break
        if found < 0:
            continue
        if _has_line_through(lay, last, found):
            table[idx] = V_FIRST if second else V_SECOND
        elif occupied == lay.full:
            table[idx] = V_DRAW
        else:
            table[idx] = NONTERMINAL


@njit(**JIT)
def _backward_block(table, lay, hi):
    L = lay.lo_cells
    dh = lay.hi_diff[hi]
    hi_n = (lay.merged_start.shape[0] - 2) // 2
    row = dh + hi_n
    for j in range(lay.merged_start[row + 1] - 1, lay.merged_start[row] - 1, -1):
        lo = lay.merged_lo[j]
        second = dh + lay.lo_diff[lo]
        idx = slot_of(lay, hi, lo, second)
        if table[idx] != NONTERMINAL:
            continue
        occupied = lay.hi_first[hi] | lay.lo_first[lo] | lay.hi_second[hi] | lay.lo_second[lo]
        digit = 2 if second else 1
        win_v = V_SECOND if second else V_FIRST
        lo_rank = lay.lo_rank[lo]
        block_child = lay.hi_base[hi] + (0 if second else lay.hi_second_offset[hi])
        best_win = np.int64(255)
        best_draw = np.int64(-1)
        worst_loss = np.int64(-1)
        cand = _playable(lay, occupied)
        while cand:
            c = ctz(cand)
            cand &= cand - np.uint64(1)
            if c < L:
                child = block_child + lay.lo_rank[lo + digit * lay.pow3[c]]
            else:
                h2 = hi + digit * lay.pow3[c - L]
                child = lay.hi_base[h2] + lo_rank
                if not second:
                    child += lay.hi_second_offset[h2]
            b = np.int64(table[child])
            v = b & 3
            d = b >> 2
            if v == win_v:
                if d < best_win:
                    best_win = d
                    if d == 0:
                        break
            elif v == V_DRAW:
                if d > best_draw:
                    best_draw = d
            elif d > worst_loss:
                worst_loss = d
        if best_win != 255:
            table[idx] = np.uint8(((best_win + 1) << 2) | win_v)
        elif best_draw >= 0:
            table[idx] = np.uint8(((best_draw + 1) << 2) | V_DRAW)
        else:
            table[idx] = np.uint8(((worst_loss + 1) << 2) | (V_FIRST if second else V_SECOND))


@njit(**PARALLEL_JIT)
def forward_layer_parallel(table, lay, his):
    for t in prange(his.shape[0]):
        _forward_block(table, lay, his[t])


@njit(**PARALLEL_JIT)
def backward_layer_parallel(table, lay, his):
    for t in prange(his.shape[0]):
        _backward_block(table, lay, his[t])


@njit(**JIT)
def forward_serial(table, lay, his):
    for t in range(his.shape[0]):
        _forward_block(table, lay, his[t])


@njit(**JIT)
def backward_serial(table, lay, his):
    for t in range(his.shape[0] - 1, -1, -1):
        _backward_block(table, lay, his[t])


@njit(**PARALLEL_JIT)
def byte_histogram(table):
    """Count of each byte value (256 bins), per-thread partial sums merged at the end."""
    chunks = 64
    partial = np.zeros((chunks, 256), dtype=np.int64)
    n = table.shape[0]
    step = (n + chunks - 1) // chunks
    for t in prange(chunks):
        for i in range(t * step, min(n, (t + 1) * step)):
            partial[t, table[i]] += 1
    return partial.sum(axis=0)


@njit(**JIT)
def slots_of_codes(lay, codes, out):
    """Slot of each base-3 code, or -1 when its stone counts are illegal."""
    base = lay.pow3[lay.lo_cells]
    for i in range(codes.shape[0]):
        hi = codes[i] // base
        lo = codes[i] - hi * base
        if hi >= lay.hi_diff.shape[0] or codes[i] < 0:
            out[i] = -1
            continue
        second = lay.hi_diff[hi] + lay.lo_diff[lo]
        if second == 0 or second == 1:
            out[i] = slot_of(lay, hi, lo, second)
        else:
            out[i] = -1


@njit(**JIT)
def reachable_codes(table, lay, out):
    """Write the base-3 codes of reachable slots in increasing order; return how many."""
    base = lay.pow3[lay.lo_cells]
    hi_n = (lay.merged_start.shape[0] - 2) // 2
    n = 0
    for hi in range(lay.hi_diff.shape[0]):
        row = lay.hi_diff[hi] + hi_n
        for j in range(lay.merged_start[row], lay.merged_start[row + 1]):
            lo = lay.merged_lo[j]
            if table[slot_of(lay, hi, lo, lay.hi_diff[hi] + lay.lo_diff[lo])] != 0:
                out[n] = hi * base + lo
                n += 1
    return n


@njit(**JIT)
def retrograde_attractor(table, lay, player, rank, queue):
    """Attractor of ``player`` (0 first, 1 second) by predecessor counters, round by round.

    Uses only reachability and finished positions of ``table`` (any byte != 0 is reachable,
    solved bytes with depth 0 are finished). Writes ``rank[slot]`` = round of joining (0 for
    the player's won finished positions), -1 outside; ``queue`` needs one int64 per slot.
    Returns the number of positions in the attractor.
    """
    n = table.shape[0]
    counter = np.zeros(n, dtype=np.uint8)
    L = lay.lo_cells
    base = lay.pow3[L]
    hi_n = (lay.merged_start.shape[0] - 2) // 2
    won = V_FIRST if player == 0 else V_SECOND
    tail = 0
    for hi in range(lay.hi_diff.shape[0]):
        row = lay.hi_diff[hi] + hi_n
        for j in range(lay.merged_start[row], lay.merged_start[row + 1]):
            lo = lay.merged_lo[j]
            second = lay.hi_diff[hi] + lay.lo_diff[lo]
            idx = slot_of(lay, hi, lo, second)
            rank[idx] = -1
            b = np.int64(table[idx])
            if b == 0:
                continue
            occupied = lay.hi_first[hi] | lay.lo_first[lo] | lay.hi_second[hi] | lay.lo_second[lo]
            if b != NONTERMINAL and b >> 2 == 0:
                if b & 3 == won:
                    rank[idx] = 0
                    queue[tail] = hi * base + lo
                    tail += 1
            else:
                cnt = 0
                cand = _playable(lay, occupied)
                while cand:
                    cand &= cand - np.uint64(1)
                    cnt += 1
                counter[idx] = cnt
    head = 0
    while head < tail:
        code = queue[head]
        head += 1
        hi = code // base
        lo = code - hi * base
        second = lay.hi_diff[hi] + lay.lo_diff[lo]
        r = rank[slot_of(lay, hi, lo, second)]
        first_bb = lay.hi_first[hi] | lay.lo_first[lo]
        second_bb = lay.hi_second[hi] | lay.lo_second[lo]
        last = first_bb if second else second_bb
        digit = 1 if second else 2
        parent_mover = 0 if second else 1
        cand = _removable(lay, last, first_bb | second_bb)
        while cand:
            c = ctz(cand)
            cand &= cand - np.uint64(1)
            if c < L:
                phi, plo = hi, lo - digit * lay.pow3[c]
            else:
                phi, plo = hi - digit * lay.pow3[c - L], lo
            p = slot_of(lay, phi, plo, 1 - second)
            pb = np.int64(table[p])
            if pb == 0 or (pb != NONTERMINAL and pb >> 2 == 0) or rank[p] >= 0:
                continue
            if parent_mover == player:
                join = True
            else:
                counter[p] -= 1
                join = counter[p] == 0
            if join:
                rank[p] = r + 1
                queue[tail] = phi * base + plo
                tail += 1
    return tail
