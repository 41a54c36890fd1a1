"""Numba kernels of the layered solver's sweeps over the column-runs index of gravity boards
(:mod:`fastttt.kernels.runs_index`; the solver is :mod:`fastttt.tables.layered`).

Slot by slot, not block-stepping as :mod:`fastttt.kernels.layered`: a slot is unranked to its
position, each parent (a top stone of the last mover taken off) or child (a stone of the side
to move dropped in a column) is ranked in the neighbouring layer. What a block's slots share
is computed once a block: the suffix ways (:func:`~fastttt.kernels.runs_index.suffix_ways`)
of the block, and the rank table (:func:`~fastttt.kernels.runs_index.rank_table`: a
neighbour's rank in one look-up a column) of its neighbour block through each column
(``nb_ways[c]``).

Table bytes, the packed win/draw/loss layout and the chunk contract (``out[i - start]`` for
the slots ``start <= i < start + len(out)``, never raise) are those of
:mod:`fastttt.kernels.layered`. A slot's neighbour the index leaves out is not a position any
game reaches: a parent ranked -1 is not open; a child ranked -1 of an open position would be a
bug of the index (every child of a reachable open position is reachable), so the backward
kernels count them and return the count (the solver checks it is 0).

With the mirror (``tab.mirror``) a neighbour is ranked under its canonical form
(:func:`_neighbour_slot`: ``nb_ways`` of the block's mirror image too), the forward sweep
leaves 0 in the slots of a mirror-symmetric block that are not canonical, and
:func:`histogram` counts a slot as its orbit's positions (2, or 1 when the mirror fixes it).
"""

import numpy as np
from numba import njit, prange

from fastttt.config import JIT, PARALLEL_JIT
from fastttt.kernels.dense import NONTERMINAL, V_DRAW, V_FIRST, V_SECOND
from fastttt.kernels.layered import best_child_byte, has_line, is_open, store_value
from fastttt.kernels.runs_index import (
    colouring_rank,
    heights_of_key,
    mirror_columns,
    mirror_into,
    rank_table,
    suffix_ways,
    table_colouring_rank,
    unrank_colouring,
    unrank_columns,
)

_PIECES = 64  # ranges per parallel chunk (as in fastttt.kernels.layered)


@njit(**JIT)
def _key_weights(rows, cols):
    """(rows + 1) ** c for each column c: a height vector's key is its heights times these."""
    weight = np.empty(cols, dtype=np.int64)
    w = 1
    for c in range(cols):
        weight[c] = w
        w *= rows + 1
    return weight


@njit(**JIT)
def _block_of(tab, n, slot):
    """Place in ``tab.layer_keys[layer_first[n]:]`` of the block holding ``slot`` of layer n."""
    lo, hi = tab.layer_first[n], tab.layer_first[n + 1]
    return np.searchsorted(tab.block_start[lo:hi], slot, side="right") - 1


@njit(**JIT)
def _neighbour_ways(tab, nb_n, heights, step, nb_ways):
    """``nb_ways[c]``: the rank table (:func:`~fastttt.kernels.runs_index.rank_table`) of the
    heights with column c one higher (``step`` 1) or lower (-1), in layer ``nb_n``; columns
    that cannot move are left as they are."""
    rows, cols = tab.rows, tab.cols
    nb_x, nb_p = (nb_n + 1) // 2, nb_n % 2
    ways = np.zeros((cols + 1, nb_x + 1, 2), dtype=np.int64)
    for c in range(cols):
        h = heights[c] + step
        if 0 <= h <= rows:
            heights[c] = h
            suffix_ways(tab.seq_count, nb_p, cols, heights, nb_x, ways)
            rank_table(tab.seq_count, nb_p, heights, ways, nb_x, nb_ways[c])
            heights[c] = h - step


@njit(**JIT)
def _block_ways(tab, n, nb_n, key, heights, mirrored, ways, nb_ways, m_nb_ways):
    """What a block's slots share: ``heights`` of ``key``, its ``ways``, the neighbours'
    ``nb_ways`` (layer ``nb_n``), and with the mirror those of the mirror image's neighbours
    (``m_nb_ways``, ``mirrored[0]`` the mirror image's heights); returns the mirror key
    (``key + 1`` without the mirror)."""
    rows, cols = tab.rows, tab.cols
    step = 1 if nb_n > n else -1
    heights_of_key(rows, cols, key, heights)
    suffix_ways(tab.seq_count, n % 2, cols, heights, (n + 1) // 2, ways)
    _neighbour_ways(tab, nb_n, heights, step, nb_ways)
    if not tab.mirror:
        return key + 1
    mkey = mirror_columns(tab, heights, heights, mirrored)
    _neighbour_ways(tab, nb_n, mirrored[0], step, m_nb_ways)
    return mkey


@njit(**JIT)
def _neighbour_slot(seq, key_start, mirror, radix, nb_n, nb_key, c, heights, seqs, mirrored, rts):
    """Slot in layer ``nb_n`` of the neighbour ``heights``, ``seqs`` (key ``nb_key``, reached
    through column ``c``), canonicalised when ``mirror``; -1 when no slot holds it. ``seq``:
    (seq_class, seq_rank); ``rts``: (nb_ways, m_nb_ways), the rank tables of the block's
    neighbours and of its mirror image's (``nb_ways[c]`` is this neighbour's,
    ``m_nb_ways[cols - 1 - c]`` its mirror image's). Arrays, not the tables' tuple: this is
    the hot path (:func:`~fastttt.kernels.runs_index.mirror_into`)."""
    seq_class, seq_rank = seq
    nb_ways, m_nb_ways = rts
    nb_x, nb_p = (nb_n + 1) // 2, nb_n % 2
    if not mirror:
        r = table_colouring_rank(seq_class, seq_rank, nb_p, nb_x, heights, seqs, nb_ways[c])
        return r if r < 0 else key_start[nb_key] + r
    mkey = mirror_into(radix, heights, seqs, mirrored)
    if mkey < nb_key:
        m_ways = m_nb_ways[heights.shape[0] - 1 - c]
        r = table_colouring_rank(seq_class, seq_rank, nb_p, nb_x, mirrored[0], mirrored[1], m_ways)
        return r if r < 0 else key_start[mkey] + r
    r = table_colouring_rank(seq_class, seq_rank, nb_p, nb_x, heights, seqs, nb_ways[c])
    if r >= 0 and mkey == nb_key:
        image = table_colouring_rank(
            seq_class, seq_rank, nb_p, nb_x, mirrored[0], mirrored[1], nb_ways[c]
        )
        r = min(r, image)
    return r if r < 0 else key_start[nb_key] + r


@njit(**JIT)
def _forward_range(geo, tab, n, prev, out, start, lo, hi, packed):
    """Reach bytes of slots lo..hi-1 of layer n, pulled from their parents in ``prev``."""
    rows, cols = tab.rows, tab.cols
    line_shift, line_start, k, full = geo.line_shift, geo.line_start, geo.k, geo.full
    x, p = (n + 1) // 2, n % 2
    px = n // 2
    x_moved_last = p == 1
    last_bit = 1 if x_moved_last else 0
    first_key = tab.layer_first[n]
    blocks = tab.layer_first[n + 1] - first_key
    weight = _key_weights(rows, cols)
    seq = (tab.seq_class, tab.seq_rank)
    seq_count, seq_sorted, seq_start, column_bits = (
        tab.seq_count,
        tab.seq_sorted,
        tab.seq_start,
        tab.column_bits,
    )
    key_start, block_start, layer_keys, mirror = (
        tab.key_start,
        tab.block_start,
        tab.layer_keys,
        tab.mirror,
    )
    heights = np.zeros(cols, dtype=np.int64)
    seqs = np.zeros(cols, dtype=np.int64)
    mirrored = np.zeros((2, cols), dtype=np.int64)
    ways = np.zeros((cols + 1, x + 1, 2), dtype=np.int64)
    nb_ways = np.zeros((cols, cols, px + 1, 2, rows + 1, 2, 2), dtype=np.int64)
    m_nb_ways = np.zeros((cols, cols, px + 1, 2, rows + 1, 2, 2), dtype=np.int64)
    b = _block_of(tab, n, lo)
    key = np.int64(-1)
    mkey = np.int64(-1)
    rts = (nb_ways, m_nb_ways)
    for i in range(lo, hi):
        while b + 1 < blocks and block_start[first_key + b + 1] <= i:
            b += 1
        if layer_keys[first_key + b] != key:
            key = layer_keys[first_key + b]
            mkey = _block_ways(tab, n, n - 1, key, heights, mirrored, ways, nb_ways, m_nb_ways)
        own = i - block_start[first_key + b]
        first, second = unrank_columns(
            seq_count, seq_sorted, seq_start, column_bits, p, x, heights, ways, own, seqs
        )
        occ = first | second
        last = first if x_moved_last else second
        byte = np.uint8(0)
        ok = True
        if mkey == key:  # the mirror fixes the heights: only the canonical colouring
            mirror_columns(tab, heights, seqs, mirrored)
            ok = colouring_rank(tab, p, x, mirrored[0], mirrored[1], ways) >= own
        if ok and not has_line(line_shift, line_start, k, occ ^ last):  # the other never won
            for c in range(cols):
                h = heights[c]
                if h == 0 or (seqs[c] >> (h - 1)) & 1 != last_bit:
                    continue  # no stone, or the other side's on top
                s = seqs[c]
                heights[c] = h - 1
                seqs[c] = s & ~(np.int64(1) << (h - 1))
                parent = _neighbour_slot(
                    seq,
                    key_start,
                    mirror,
                    rows + 1,
                    n - 1,
                    key - weight[c],
                    c,
                    heights,
                    seqs,
                    mirrored,
                    rts,
                )
                heights[c] = h
                seqs[c] = s
                if parent < 0:
                    continue  # a parent no game reaches
                if is_open(prev, parent, packed):
                    if has_line(line_shift, line_start, k, last):
                        byte = np.uint8(V_FIRST if x_moved_last else V_SECOND)
                    elif occ == full:
                        byte = np.uint8(V_DRAW)
                    else:
                        byte = np.uint8(NONTERMINAL)
                    break
        out[i - start] = byte


@njit(**JIT)
def forward_chunk_serial(geo, tab, n, prev, out, start, packed=False):
    """Reach bytes of the slots ``start..start + len(out) - 1`` of layer ``n`` (n >= 1) from
    the previous layer ``prev`` (reach bytes, or open bits when ``packed``)."""
    _forward_range(geo, tab, n, prev, out, start, start, start + out.shape[0], packed)


@njit(**PARALLEL_JIT)
def forward_chunk_parallel(geo, tab, n, prev, out, start, packed=False):
    size = out.shape[0]
    for t in prange(_PIECES):
        lo = start + size * t // _PIECES
        hi = start + size * (t + 1) // _PIECES
        if hi > lo:
            _forward_range(geo, tab, n, prev, out, start, lo, hi, packed)


@njit(**JIT)
def _backward_range(geo, tab, n, reach, nxt, out, start, lo, hi, wdl):
    """Value bytes of slots lo..hi-1 of layer n from the reach bytes and the next layer's
    values (packed when ``wdl``: ``out`` zeroed, ``lo - start`` a multiple of 4); returns the
    children the index left out (0 unless the index is wrong)."""
    rows, cols = tab.rows, tab.cols
    x, p = (n + 1) // 2, n % 2
    cx = (n + 2) // 2
    x_to_move = p == 0
    win_v = V_FIRST if x_to_move else V_SECOND
    loss_v = V_SECOND if x_to_move else V_FIRST
    x_bit = np.int64(1) if x_to_move else np.int64(0)
    first_key = tab.layer_first[n]
    blocks = tab.layer_first[n + 1] - first_key
    weight = _key_weights(rows, cols)
    seq = (tab.seq_class, tab.seq_rank)
    seq_count, seq_sorted, seq_start, column_bits = (
        tab.seq_count,
        tab.seq_sorted,
        tab.seq_start,
        tab.column_bits,
    )
    key_start, block_start, layer_keys, mirror = (
        tab.key_start,
        tab.block_start,
        tab.layer_keys,
        tab.mirror,
    )
    heights = np.zeros(cols, dtype=np.int64)
    seqs = np.zeros(cols, dtype=np.int64)
    mirrored = np.zeros((2, cols), dtype=np.int64)
    ways = np.zeros((cols + 1, x + 1, 2), dtype=np.int64)
    nb_ways = np.zeros((cols, cols, cx + 1, 2, rows + 1, 2, 2), dtype=np.int64)
    m_nb_ways = np.zeros((cols, cols, cx + 1, 2, rows + 1, 2, 2), dtype=np.int64)
    slots = np.empty(cols, dtype=np.int64)
    missing = 0
    rts = (nb_ways, m_nb_ways)
    b = _block_of(tab, n, lo)
    key = np.int64(-1)
    for i in range(lo, hi):
        while b + 1 < blocks and block_start[first_key + b + 1] <= i:
            b += 1
        byte = reach[i - start]
        if byte == NONTERMINAL:
            if layer_keys[first_key + b] != key:
                key = layer_keys[first_key + b]
                _block_ways(tab, n, n + 1, key, heights, mirrored, ways, nb_ways, m_nb_ways)
            own = i - block_start[first_key + b]
            unrank_columns(
                seq_count, seq_sorted, seq_start, column_bits, p, x, heights, ways, own, seqs
            )
            moves = 0
            for c in range(cols):
                h = heights[c]
                if h == rows:
                    continue
                s = seqs[c]
                heights[c] = h + 1
                seqs[c] = s | (x_bit << h)
                child = _neighbour_slot(
                    seq,
                    key_start,
                    mirror,
                    rows + 1,
                    n + 1,
                    key + weight[c],
                    c,
                    heights,
                    seqs,
                    mirrored,
                    rts,
                )
                heights[c] = h
                seqs[c] = s
                if child < 0:
                    missing += 1
                    continue
                slots[moves] = child
                moves += 1
            byte = best_child_byte(nxt, slots, moves, wdl, win_v, loss_v)
        store_value(out, i - start, byte, wdl)
    return missing


@njit(**JIT)
def backward_chunk_serial(geo, tab, n, reach, nxt, out, start, wdl=False):
    """Value bytes of the slots ``start..start + len(reach) - 1`` of layer ``n`` (below the
    last) from their reach bytes and the next layer's values ``nxt`` (packed, and ``out``
    zeroed, when ``wdl``); returns the children the index left out (0: see the module)."""
    return _backward_range(geo, tab, n, reach, nxt, out, start, start, start + reach.shape[0], wdl)


@njit(**PARALLEL_JIT)
def backward_chunk_parallel(geo, tab, n, reach, nxt, out, start, wdl=False):
    size = reach.shape[0]
    missing = np.zeros(_PIECES, dtype=np.int64)
    for t in prange(_PIECES):
        # pieces start at multiples of 4 slots: no two threads share a byte of a packed ``out``
        lo = start + (size * t // _PIECES) // 4 * 4
        hi = start + size if t == _PIECES - 1 else start + (size * (t + 1) // _PIECES) // 4 * 4
        if hi > lo:
            missing[t] = _backward_range(geo, tab, n, reach, nxt, out, start, lo, hi, wdl)
    return missing.sum()


@njit(**JIT)
def histogram(tab, n, data, start, positions, stored):
    """Add the counts per byte value of the slots ``start..start + len(data) - 1`` of layer
    ``n``: ``stored`` slots and ``positions`` (a slot counts its orbit: 2 with the mirror,
    1 where the mirror fixes the position)."""
    rows, cols = tab.rows, tab.cols
    x, p = (n + 1) // 2, n % 2
    first_key = tab.layer_first[n]
    blocks = tab.layer_first[n + 1] - first_key
    heights = np.zeros(cols, dtype=np.int64)
    seqs = np.zeros(cols, dtype=np.int64)
    mirrored = np.zeros((2, cols), dtype=np.int64)
    ways = np.zeros((cols + 1, x + 1, 2), dtype=np.int64)
    b = _block_of(tab, n, start) if data.shape[0] else 0
    key = np.int64(-1)
    fixed = False
    for i in range(start, start + data.shape[0]):
        byte = data[i - start]
        stored[byte] += 1
        if byte == 0:
            continue
        if not tab.mirror:
            positions[byte] += 1
            continue
        while b + 1 < blocks and tab.block_start[first_key + b + 1] <= i:
            b += 1
        if tab.layer_keys[first_key + b] != key:
            key = tab.layer_keys[first_key + b]
            heights_of_key(rows, cols, key, heights)
            fixed = mirror_columns(tab, heights, heights, mirrored) == key
            if fixed:
                suffix_ways(tab.seq_count, p, cols, heights, x, ways)
        weight = 2
        if fixed:
            own = i - tab.block_start[first_key + b]
            unrank_colouring(tab, p, x, heights, ways, own, seqs)
            mirror_columns(tab, heights, seqs, mirrored)
            if colouring_rank(tab, p, x, mirrored[0], mirrored[1], ways) == own:
                weight = 1
        positions[byte] += weight
