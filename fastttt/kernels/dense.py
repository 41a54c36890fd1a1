"""Numba kernels over the compact dense table (see :mod:`fastttt.tables.layout` for the index).

Each table byte is one position::

    0                 not reachable from the empty board (or illegal)
    depth << 2 | v    solved: v = 1 first player wins, 2 draw, 3 second player wins;
                      depth = plies to the end (winner hurries, loser delays); 0 = finished
    NONTERMINAL=255   during a two-sweep solve: reachable, game not over, value not known yet

Kernels take the table, the Layout tuple and hi codes (blocks); they never raise. Hot loops
index with ``np.uint64``: Numba then skips its negative-index wraparound.
"""

import numpy as np
from numba import njit, prange

from fastttt.config import JIT, PARALLEL_JIT
from fastttt.kernels.bits import ctz, popcount
from fastttt.kernels.stop import is_stopped

NONTERMINAL = 255
V_FIRST, V_DRAW, V_SECOND = 1, 2, 3
# Layout.merged_pos packs lo | rank << 16 | second_to_move << 32 | first's stones << 33 |
# second's stones << 43 (fastttt.tables.layout builds it)
POS_RANK, POS_SECOND, POS_FIRST_STONES, POS_SECOND_STONES = 16, 32, 33, 43


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


# --- the solve -------------------------------------------------------------------------
# While a solve runs, a solved byte is relative to the side to move: LOSS + d (lost in d
# plies), DRAW + d, WIN - d (won in d plies). The best move leads to the child with the
# smallest byte, which turns the backward step into a minimum: vectorised over whole blocks
# for the moves in hi, whose children sit at the same rank in another block. Draws all end on
# a full board, so sibling draws have equal depths. ``finish_blocks`` converts to absolute bytes.
LOSS, DRAW, WIN = 1, 65, 255


def _step_tables():
    parent = np.zeros(256, dtype=np.uint8)  # parent's byte from its smallest child byte
    absolute = np.zeros(512, dtype=np.uint8)  # [second_to_move * 256 + relative byte]
    for b in range(1, 256):
        if b < DRAW:
            parent[b] = WIN - (b - LOSS + 1)
        elif b < DRAW + 64:
            parent[b] = b + 1
        elif b > WIN - 64:
            parent[b] = LOSS + (WIN - b + 1)
    for s in (0, 1):
        won, lost = (V_SECOND, V_FIRST) if s else (V_FIRST, V_SECOND)
        for b in range(1, 256):
            if b < DRAW:
                absolute[256 * s + b] = (b - LOSS) << 2 | lost
            elif b < DRAW + 64:
                absolute[256 * s + b] = (b - DRAW) << 2 | V_DRAW
            elif b > WIN - 64:
                absolute[256 * s + b] = (WIN - b) << 2 | won
    return parent, absolute


_PARENT, _ABSOLUTE = _step_tables()


@njit(**JIT)
def _unpack(pos):
    """lo, rank, second_to_move, lo stones of first and second (``Layout.merged_pos``)."""
    return (
        pos & 0xFFFF,
        (pos >> POS_RANK) & 0xFFFF,
        (pos >> POS_SECOND) & 1,
        np.uint64((pos >> POS_FIRST_STONES) & 0x3FF),
        np.uint64((pos >> POS_SECOND_STONES) & 0x3FF),
    )


@njit(**JIT)
def _forward_block(table, lay, hi):
    """Reachability of block ``hi`` pulled from its parents (boards without
    ``lay.closed_form``): 0, NONTERMINAL or the relative byte of a finished position."""
    L = lay.lo_cells
    dh = lay.hi_diff[hi]
    base = lay.hi_base[hi]
    n0 = lay.hi_second_offset[hi]
    lo_mask = (np.uint64(1) << np.uint64(L)) - np.uint64(1)
    hi_first = lay.hi_first[hi]
    hi_second = lay.hi_second[hi]
    row = dh + lay.pow3.shape[0] - 1 - L
    for j in range(lay.merged_start[row], lay.merged_start[row + 1]):
        lo, r, s, lo_first, lo_second = _unpack(lay.merged_pos[np.uint64(j)])
        idx = np.uint64(base + s * n0 + r)
        if hi == 0 and lo == 0:
            table[idx] = NONTERMINAL
            continue
        first_bb = hi_first | lo_first
        second_bb = hi_second | lo_second
        occupied = first_bb | second_bb
        if lay.gravity and occupied & ~(lay.bottom | occupied >> np.uint64(lay.cols)):
            continue  # a stone floats
        last = first_bb if s else second_bb
        cand = _removable(lay, last, occupied)
        digit = 2 - s
        parent_lo = base + (1 - s) * n0
        found = -1
        lo_cand = cand & lo_mask
        while lo_cand:
            c = ctz(lo_cand)
            lo_cand &= lo_cand - np.uint64(1)
            parent = parent_lo + lay.lo_rank[np.uint64(lo - digit * lay.pow3[c])]
            if table[np.uint64(parent)] == NONTERMINAL:
                found = c
                break
        hi_cand = cand >> np.uint64(L) if found < 0 else np.uint64(0)
        while hi_cand:
            k = ctz(hi_cand)
            hi_cand &= hi_cand - np.uint64(1)
            h = hi - digit * lay.pow3[k]
            if table[lay.hi_base[h] + (1 - s) * lay.hi_second_offset[h] + r] == NONTERMINAL:
                found = k + L
                break
        if found < 0:
            continue
        if _has_line_through(lay, last, found):
            table[idx] = LOSS
        elif occupied == lay.full:
            table[idx] = DRAW
        else:
            table[idx] = NONTERMINAL


@njit(**JIT)
def _min_into(acc, bytes_):
    for i in range(acc.shape[0]):
        acc[i] = min(acc[i], bytes_[i])


@njit(**JIT)
def _values_block(table, lay, hi, two_pass):
    """Relative bytes of block ``hi`` from its children (blocks of later layers already done).

    ``two_pass``: the block holds ``_forward_block``'s bytes; otherwise every slot is written,
    reachability and finished positions coming from the line bitsets (``lay.closed_form``).
    """
    L = lay.lo_cells
    dh = lay.hi_diff[hi]
    base = lay.hi_base[hi]
    n0 = lay.hi_second_offset[hi]
    n = lay.hi_base[hi + 1] - base
    hi_occupied = lay.hi_first[hi] | lay.hi_second[hi]
    best = np.full(n, WIN, dtype=np.uint8)  # smallest child byte over the moves in hi
    hi_cand = _playable(lay, hi_occupied) >> np.uint64(L)
    while hi_cand:
        k = ctz(hi_cand)
        hi_cand &= hi_cand - np.uint64(1)
        h = hi + lay.pow3[k]
        child = lay.hi_base[h] + lay.hi_second_offset[h]
        _min_into(best[:n0], table[child : child + n0])
        child = lay.hi_base[hi + 2 * lay.pow3[k]]
        _min_into(best[n0:], table[child : child + n - n0])
    hi_lines_first = lay.hi_lines_first[0 if two_pass else hi]
    hi_lines_second = lay.hi_lines_second[0 if two_pass else hi]
    lo_mask = (np.uint64(1) << np.uint64(L)) - np.uint64(1)
    row = dh + lay.pow3.shape[0] - 1 - L
    start, stop = lay.merged_start[row], lay.merged_start[row + 1]
    pos_row = lay.merged_pos[start:stop]
    lines_first_row = lay.merged_lines_first[0 if two_pass else start : stop]
    lines_second_row = lay.merged_lines_second[0 if two_pass else start : stop]
    for j in range(stop - start - 1, -1, -1):
        u = np.uint64(j)
        lo, r, s, lo_first, lo_second = _unpack(pos_row[u])
        idx = np.uint64(base + s * n0 + r)
        occupied = hi_occupied | lo_first | lo_second
        if two_pass:
            if table[idx] != NONTERMINAL:
                continue
        else:
            lines_first = lines_first_row[u] & hi_lines_first
            lines_second = lines_second_row[u] & hi_lines_second
            if lines_second if s else lines_first:  # the side to move holds a line
                table[idx] = 0
                continue
            last = lines_first if s else lines_second
            if last:  # reachable when one stone lies on all of them (the last one played)
                common = lay.full
                while last:
                    common &= lay.lines[ctz(last)]
                    last &= last - np.uint64(1)
                table[idx] = LOSS if common else 0
                continue
            if occupied == lay.full:
                table[idx] = DRAW
                continue
        b = best[np.uint64(s * n0 + r)]
        child_lo = base + (1 - s) * n0
        lo_cand = _playable(lay, occupied) & lo_mask
        while lo_cand:
            c = ctz(lo_cand)
            lo_cand &= lo_cand - np.uint64(1)
            child = child_lo + lay.lo_rank[np.uint64(lo + (lay.pow3[c] << s))]
            b = min(b, table[np.uint64(child)])
            if b == LOSS:  # a move that wins at once
                break
        table[idx] = _PARENT[b]


@njit(**JIT)
def _finish_block(table, lay, hi):
    """Relative bytes of block ``hi`` to absolute ones."""
    base = lay.hi_base[hi]
    mid = base + lay.hi_second_offset[hi]
    first = table[base:mid]
    second = table[mid : lay.hi_base[hi + 1]]
    for i in range(first.shape[0]):
        first[np.uint64(i)] = _ABSOLUTE[first[np.uint64(i)]]
    for i in range(second.shape[0]):
        second[np.uint64(i)] = _ABSOLUTE[256 + np.int64(second[np.uint64(i)])]


@njit(**PARALLEL_JIT)
def forward_layer(table, lay, his, stop):
    """The forward sweep over the blocks ``his`` (one layer), in parallel; skips the blocks not
    started once ``stop[0]`` is set (Ctrl-C, :mod:`fastttt.interrupt`: the table is then
    unfinished, to be dropped)."""
    for t in prange(his.shape[0]):
        if not is_stopped(stop):
            _forward_block(table, lay, his[t])


@njit(**PARALLEL_JIT)
def values_layer(table, lay, his, two_pass, stop):
    """The backward sweep over the blocks ``his`` (one layer), in parallel; ``stop`` as in
    :func:`forward_layer`."""
    for t in prange(his.shape[0]):
        if not is_stopped(stop):
            _values_block(table, lay, his[t], two_pass)


@njit(**PARALLEL_JIT)
def finish_blocks(table, lay, his, stop):
    """Relative bytes to absolute ones over the blocks ``his``, in parallel; ``stop`` as in
    :func:`forward_layer`."""
    for t in prange(his.shape[0]):
        if not is_stopped(stop):
            _finish_block(table, lay, his[t])


@njit(**JIT)
def forward_serial(table, lay, order):
    """``forward_layer`` on one thread for every block; ``order``: the hi codes layer by layer."""
    for t in range(order.shape[0]):
        _forward_block(table, lay, order[t])


@njit(**JIT)
def values_serial(table, lay, order, two_pass):
    """``values_layer`` on one thread for every block (last layer first), then
    ``finish_blocks``: the whole solve when ``lay.closed_form`` (``table`` need not be zeroed)."""
    values_blocks_serial(table, lay, order, two_pass)
    finish_blocks_serial(table, lay, order)


@njit(**JIT)
def values_blocks_serial(table, lay, his, two_pass):
    """``values_layer`` on one thread, last block of ``his`` first (one piece of a solve cut
    into bounded calls: blocks with more hi stones come later in ``his``)."""
    for t in range(his.shape[0] - 1, -1, -1):
        _values_block(table, lay, his[t], two_pass)


@njit(**JIT)
def finish_blocks_serial(table, lay, his):
    """``finish_blocks`` on one thread."""
    for t in range(his.shape[0]):
        _finish_block(table, lay, his[t])


@njit(**JIT)
def _ply_histogram_range(table, lay, first_hi, last_hi, out):
    """Add to ``out[stones, byte]`` the slots of the blocks ``first_hi..last_hi - 1``."""
    hi_n = (lay.merged_start.shape[0] - 2) // 2
    for hi in range(first_hi, last_hi):
        row = lay.hi_diff[hi] + hi_n
        hi_stones = popcount(lay.hi_first[hi] | lay.hi_second[hi])
        for j in range(lay.merged_start[row], lay.merged_start[row + 1]):
            lo = lay.merged_pos[j] & 0xFFFF
            stones = hi_stones + popcount(lay.lo_first[lo] | lay.lo_second[lo])
            b = table[slot_of(lay, hi, lo, lay.hi_diff[hi] + lay.lo_diff[lo])]
            out[stones, b] += 1


@njit(**JIT)
def ply_histogram_serial(table, lay, out):
    """Count of each byte value by number of stones (ply): ``out[stones, byte] +=`` (int64,
    cells + 1 rows of 256); every slot of the table is counted once."""
    _ply_histogram_range(table, lay, 0, lay.hi_diff.shape[0], out)


@njit(**PARALLEL_JIT)
def ply_histogram_parallel(table, lay, out):
    """:func:`ply_histogram_serial` over pieces of blocks, per-piece counts merged after."""
    pieces = 64
    partial = np.zeros((pieces, out.shape[0], out.shape[1]), dtype=np.int64)
    blocks = lay.hi_diff.shape[0]
    step = (blocks + pieces - 1) // pieces
    for t in prange(pieces):
        _ply_histogram_range(table, lay, t * step, min(blocks, (t + 1) * step), partial[t])
    out += partial.sum(axis=0)


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
            lo = lay.merged_pos[j] & 0xFFFF
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
            lo = lay.merged_pos[j] & 0xFFFF
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
