"""Numba kernels of the column-runs index of gravity boards (built by
:mod:`fastttt.tables.runs_index`, which states the allowed colourings).

A column of height ``h`` is a *sequence*: bit ``j`` set when its ``j``-th stone from the
bottom is X (cell ``(rows - 1 - j) * cols + c``, :attr:`RunsTables.column_bits`). Each
sequence has a class, by the parity ``p = n % 2`` of the layer (``p = 1``: X moved last)::

    seq_class[p, h, s]   -1 not allowed, 0 allowed, 1 allowed and "long" (its top run is a
                         finished vertical line: at most one long column a position)
    seq_sorted[p, h, :]  the sequences of length h sorted by (X stones t, class, value)
    seq_start[p, h, t, cls], seq_count[p, h, t, cls]   where each (t, class) group starts
                         in seq_sorted, and its size
    seq_rank[p, h, s]    the place of s in its (t, class) group

A position's slot in layer ``n`` (``x = (n + 1) // 2`` X stones)::

    slot = block_start(heights) + colouring rank
    key  = sum of heights[c] * (rows + 1) ** c        (column 0 least significant)

Blocks are in increasing key order inside a layer (``key_start[key]``; ``layer_keys`` and
``block_start`` list them layer by layer, from ``layer_first[n]``). The colouring rank orders
colourings column by column, column 0 first, each column by (t, class, rank in group), with
``ways[c, r, u]`` = the colourings of columns ``c..cols-1`` holding ``r`` X stones, where
``u = 1`` means a long column is already used on the left (:func:`suffix_ways`).

With the mirror (``tab.mirror``) a layer keeps the blocks of the keys no larger than their
mirror image's (the others are empty) and a position is stored under its *canonical form*:
the image with the smaller key, and in a block whose heights the mirror fixes the image with
the smaller colouring rank (the other one's slot stays 0).

Kernels never raise: a position that has no slot ranks to -1.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from fastttt.config import JIT
from fastttt.kernels.bits import popcount


class RunsTables(NamedTuple):
    """Everything the kernels read: the board's columns, the sequence classes and the
    blocks (see the module docstring)."""

    rows: int
    cols: int
    mirror: int  # 1: one height vector of each mirror pair (module docstring)
    column_bits: np.ndarray  # uint64[cols, rows]: bit of the j-th stone from the bottom
    column_mask: np.ndarray  # uint64[cols]
    seq_class: np.ndarray  # int8[2, rows + 1, 2 ** rows]
    seq_rank: np.ndarray  # int64[2, rows + 1, 2 ** rows]
    seq_sorted: np.ndarray  # int64[2, rows + 1, 2 ** rows]
    seq_start: np.ndarray  # int64[2, rows + 1, rows + 1, 2]
    seq_count: np.ndarray  # int64[2, rows + 1, rows + 1, 2]
    key_start: np.ndarray  # int64[(rows + 1) ** cols]: first slot of each key's block
    layer_keys: np.ndarray  # int64[(rows + 1) ** cols]: keys by (layer, key)
    block_start: np.ndarray  # int64[(rows + 1) ** cols]: key_start of layer_keys
    layer_first: np.ndarray  # int64[cells + 2]: where each layer starts in layer_keys


@njit(**JIT)
def heights_of_key(rows, cols, key, heights):
    """Fill ``heights`` with the column heights of ``key``."""
    for c in range(cols):
        heights[c] = key % (rows + 1)
        key //= rows + 1


@njit(**JIT)
def suffix_ways(seq_count, p, cols, heights, x, ways):
    """Fill ``ways[c, r, u]`` (c up to cols, r up to x): the allowed colourings of columns
    ``c..cols-1`` of these heights with ``r`` X stones; u = 1 forbids a long column."""
    ways[:, :, :] = 0
    ways[cols, 0, 0] = 1
    ways[cols, 0, 1] = 1
    for c in range(cols - 1, -1, -1):
        h = heights[c]
        for r in range(x + 1):
            for u in range(2):
                total = np.int64(0)
                for t in range(min(h, r) + 1):
                    total += seq_count[p, h, t, 0] * ways[c + 1, r - t, u]
                    if u == 0:
                        total += seq_count[p, h, t, 1] * ways[c + 1, r - t, 1]
                ways[c, r, u] = total


@njit(**JIT)
def block_sizes(tab, sizes):
    """Allowed colourings of every key (``sizes[key]``), in the key's own layer."""
    rows, cols = tab.rows, tab.cols
    heights = np.zeros(cols, dtype=np.int64)
    ways = np.zeros((cols + 1, rows * cols // 2 + 2, 2), dtype=np.int64)
    for key in range(sizes.shape[0]):
        heights_of_key(rows, cols, key, heights)
        n = heights.sum()
        x = (n + 1) // 2
        suffix_ways(tab.seq_count, n % 2, cols, heights, x, ways)
        sizes[key] = ways[0, x, 0]


@njit(**JIT)
def read_columns(tab, first, second, heights, seqs):
    """Fill ``heights`` and ``seqs`` (X bits of each column, bottom first) and return the
    key; -1 when a stone floats above an empty cell."""
    occ = first | second
    key = np.int64(0)
    weight = np.int64(1)
    for c in range(tab.cols):
        h = 0
        s = np.int64(0)
        filled = np.uint64(0)
        while h < tab.rows and occ & tab.column_bits[c, h]:
            bit = tab.column_bits[c, h]
            filled |= bit
            if first & bit:
                s |= np.int64(1) << h
            h += 1
        if occ & tab.column_mask[c] & ~filled:
            return np.int64(-1)
        heights[c] = h
        seqs[c] = s
        key += h * weight
        weight *= tab.rows + 1
    return key


@njit(**JIT)
def mirror_columns(tab, heights, seqs, mirrored):
    """Fill ``mirrored[0]`` (heights) and ``mirrored[1]`` (seqs) with the mirror image's
    columns and return its key."""
    return mirror_into(tab.rows + 1, heights, seqs, mirrored)


@njit(**JIT)
def mirror_into(radix, heights, seqs, mirrored):
    """:func:`mirror_columns` without the tables (``radix`` = rows + 1): the sweeps' hot path
    passes arrays, since a call taking the tables' tuple counts references on each of its
    arrays."""
    cols = heights.shape[0]
    key = np.int64(0)
    for c in range(cols - 1, -1, -1):
        mirrored[0, c] = heights[cols - 1 - c]
        mirrored[1, c] = seqs[cols - 1 - c]
        key = key * radix + mirrored[0, c]
    return key


@njit(**JIT)
def colouring_rank(tab, p, x, heights, seqs, ways):
    """Rank of the colouring ``seqs`` among the allowed colourings of ``heights`` (``ways``
    from :func:`suffix_ways`); -1 when it is not allowed."""
    rank = np.int64(0)
    rem, u = x, 0
    for c in range(tab.cols):
        h, s = heights[c], seqs[c]
        cls = tab.seq_class[p, h, s]
        t = popcount(np.uint64(s))
        if cls < 0 or (cls == 1 and u == 1) or t > rem:
            return np.int64(-1)
        for tt in range(t + 1):
            for cc in range(2):
                if tt == t and cc >= cls:
                    break
                if cc == 1 and u == 1:
                    continue
                rank += tab.seq_count[p, h, tt, cc] * ways[c + 1, rem - tt, u | cc]
        rank += tab.seq_rank[p, h, s] * ways[c + 1, rem - t, u | cls]
        rem -= t
        u |= cls
    return rank if rem == 0 else np.int64(-1)


@njit(**JIT)
def rank_table(seq_count, p, heights, ways, x, rt):
    """Fill ``rt[c, rem, u, t, cls]`` for :func:`table_colouring_rank` from the suffix ways
    of ``heights``: ``[..., 0]`` the colourings ranked before every one whose column ``c``
    has ``t`` X stones and class ``cls`` (``rem`` X stones left for columns c.., ``u`` a long
    column used), ``[..., 1]`` the ways of the columns right of ``c`` after it."""
    for c in range(heights.shape[0]):
        h = heights[c]
        for rem in range(x + 1):
            for u in range(2):
                acc = np.int64(0)
                for t in range(min(h, rem) + 1):
                    for cls in range(2):
                        if cls == 1 and u == 1:
                            continue
                        w = ways[c + 1, rem - t, u | cls]
                        rt[c, rem, u, t, cls, 0] = acc
                        rt[c, rem, u, t, cls, 1] = w
                        acc += seq_count[p, h, t, cls] * w


@njit(**JIT)
def table_colouring_rank(seq_class, seq_rank, p, x, heights, seqs, rt):
    """:func:`colouring_rank` in one look-up a column (``rt`` from :func:`rank_table`;
    arrays, not the tables' tuple: see :func:`mirror_into`)."""
    rank = np.int64(0)
    rem, u = x, 0
    for c in range(heights.shape[0]):
        h, s = heights[c], seqs[c]
        cls = seq_class[p, h, s]
        t = popcount(np.uint64(s))
        if cls < 0 or (cls == 1 and u == 1) or t > rem:
            return np.int64(-1)
        rank += rt[c, rem, u, t, cls, 0] + seq_rank[p, h, s] * rt[c, rem, u, t, cls, 1]
        rem -= t
        u |= cls
    return rank if rem == 0 else np.int64(-1)


@njit(**JIT)
def rank_many(tab, n, firsts, seconds, out):
    """Slot in layer ``n`` of each position (stone counts already checked); -1 when no slot
    holds it (a floating stone, a colouring the index leaves out)."""
    cols = tab.cols
    x, p = (n + 1) // 2, n % 2
    heights = np.zeros(cols, dtype=np.int64)
    seqs = np.zeros(cols, dtype=np.int64)
    mirrored = np.zeros((2, cols), dtype=np.int64)
    ways = np.zeros((cols + 1, x + 1, 2), dtype=np.int64)
    last = np.int64(-1)
    for i in range(firsts.shape[0]):
        key = read_columns(tab, firsts[i], seconds[i], heights, seqs)
        if key < 0:
            out[i] = -1
            continue
        fixed = False
        if tab.mirror:
            mkey = mirror_columns(tab, heights, seqs, mirrored)
            fixed = mkey == key
            if mkey < key:  # the mirror image is canonical
                heights[:] = mirrored[0]
                seqs[:] = mirrored[1]
                key = mkey
        if key != last:
            suffix_ways(tab.seq_count, p, cols, heights, x, ways)
            last = key
        rank = colouring_rank(tab, p, x, heights, seqs, ways)
        if rank >= 0 and fixed:  # heights the mirror fixes: the smaller colouring
            rank = min(rank, colouring_rank(tab, p, x, mirrored[0], mirrored[1], ways))
        out[i] = -1 if rank < 0 else tab.key_start[key] + rank


@njit(**JIT)
def unrank_many(tab, n, slots, firsts, seconds):
    """(first, second) stored in each slot of layer ``n`` (slots already checked)."""
    rows, cols = tab.rows, tab.cols
    x, p = (n + 1) // 2, n % 2
    lo, hi = tab.layer_first[n], tab.layer_first[n + 1]
    starts = tab.block_start[lo:hi]
    heights = np.zeros(cols, dtype=np.int64)
    seqs = np.zeros(cols, dtype=np.int64)
    ways = np.zeros((cols + 1, x + 1, 2), dtype=np.int64)
    last = np.int64(-1)
    for i in range(slots.shape[0]):
        b = np.searchsorted(starts, slots[i], side="right") - 1
        key = tab.layer_keys[lo + b]
        if key != last:
            heights_of_key(rows, cols, key, heights)
            suffix_ways(tab.seq_count, p, cols, heights, x, ways)
            last = key
        r = slots[i] - starts[b]
        firsts[i], seconds[i] = unrank_colouring(tab, p, x, heights, ways, r, seqs)


@njit(**JIT)
def unrank_colouring(tab, p, x, heights, ways, r, seqs):
    """(first, second) of the colouring of rank ``r`` among the allowed colourings of
    ``heights`` (``ways`` from :func:`suffix_ways`); ``seqs`` gets its columns' X bits."""
    return unrank_columns(
        tab.seq_count, tab.seq_sorted, tab.seq_start, tab.column_bits, p, x, heights, ways, r, seqs
    )


@njit(**JIT)
def unrank_columns(seq_count, seq_sorted, seq_start, column_bits, p, x, heights, ways, r, seqs):
    """:func:`unrank_colouring` on arrays (see :func:`mirror_into`)."""
    first, second = np.uint64(0), np.uint64(0)
    rem, u = x, 0
    for c in range(heights.shape[0]):
        h = heights[c]
        s = np.int64(-1)
        for tt in range(min(h, rem) + 1):
            for cc in range(2):
                if cc == 1 and u == 1:
                    continue
                w = ways[c + 1, rem - tt, u | cc]
                span = seq_count[p, h, tt, cc] * w
                if r < span:
                    j = r // w
                    r -= j * w
                    s = seq_sorted[p, h, seq_start[p, h, tt, cc] + j]
                    rem -= tt
                    u |= cc
                    break
                r -= span
            if s >= 0:
                break
        seqs[c] = s
        for j in range(h):
            if s >> j & 1:
                first |= column_bits[c, j]
            else:
                second |= column_bits[c, j]
    return first, second
