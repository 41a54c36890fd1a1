"""Numba kernels of the layered solver: perfect layer indexes, symmetry and chunk sweeps.

A layer holds the positions with ``n`` stones; the first player (X) has ``x = (n + 1) // 2``
of them. A position's index inside its layer (the tuples are built by
:mod:`fastttt.tables.index`)::

    index  = block * C(n, x) + colour
    block  = lay.key_block[key(occupied)]    (-1: no block, the mask is not stored)
    colour = colex rank of the X pattern: bit i set when the i-th occupied cell (in cell
             order) holds an X; rank = sum over the X bits of C(i, j), j = 1, 2, ...
    key    free boards: colex rank of the occupied mask among the C(cells, n) masks
           gravity:     column heights in base rows + 1, column 0 least significant
           (both are sums over the bytes of the mask of ``geo.key_table[b, below, byte]``)

``lay.occ[block]`` is the occupied mask of each block. With symmetry, only the masks that are
the smallest integer of their orbit have a block, and a position is stored under its
*canonical form*: the image with the smallest occupied mask, then the smallest X mask. Blocks
whose mask some symmetry fixes (``lay.fixed``) also hold non-canonical colourings: those
slots stay 0.

Table bytes are those of :mod:`fastttt.kernels.dense`: 0 not reachable, ``NONTERMINAL``
reachable and open (reach layers), ``depth << 2 | v`` solved (v = 1 first player wins,
2 draw, 3 second player wins). Chunk kernels write ``out[i - start]`` for the slots
``start <= i < start + len(out)`` of one layer and never raise.

The helpers take arrays, not the tuples: the sweeps unpack the tuples once, since taking an
array out of a tuple inside a loop counts references on every iteration (3x slower).
"""

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from fastttt.config import INLINE_JIT, JIT, PARALLEL_JIT
from fastttt.kernels.bits import ctz, popcount
from fastttt.kernels.dense import NONTERMINAL, V_DRAW, V_FIRST, V_SECOND

_ONE = np.uint64(1)
_BYTE = np.uint64(255)
_PIECES = 64  # ranges per parallel chunk: enough to balance two to sixteen threads


class Geometry(NamedTuple):
    """The board and its symmetry group, shared by every layer."""

    cells: int
    cols: int
    rows: int
    gravity: int
    k: int
    full: np.uint64
    bottom: np.uint64
    nbytes: int  # bytes of a mask
    binom: np.ndarray  # int64[65, 65]: binom[a, b] = C(a, b)
    colex: np.ndarray  # int64[nbytes, cells + 1, 256]: [b, below, byte] = sum over the set
    #                    bits of byte (t-th from 0, cell 8 * b + q) of C(8 * b + q, below + t + 1)
    key_table: np.ndarray  # like colex: the key of a mask is the sum over its bytes
    pext8: np.ndarray  # uint8[256, 256]: [mask, bits] -> the bits of mask, packed low
    pdep8: np.ndarray  # uint8[256, 256]: [mask, packed] -> packed bits spread over mask
    sym: np.ndarray  # uint64[group, nbytes, 256]: image of each byte of a mask; [0] = identity
    line_shift: np.ndarray  # int64[4]: cell step of each line direction
    line_start: np.ndarray  # uint64[4]: cells where a line of k in that direction starts


class Layer(NamedTuple):
    """The perfect index of one layer."""

    n: int  # stones
    x: int  # the first player's stones
    colourings: int  # C(n, x)
    occ: np.ndarray  # uint64[blocks]: occupied mask of each block, by increasing key
    key_block: np.ndarray  # int64[keys]: block of each key, -1 when not stored
    fixed: np.ndarray  # uint8[blocks]: 1 when a symmetry other than the identity fixes occ


# --- masks -----------------------------------------------------------------------------
@njit(**INLINE_JIT)
def transform(sym, g, mask):
    """Image of ``mask`` under the group element ``g``."""
    out = np.uint64(0)
    for b in range(sym.shape[1]):
        out |= sym[g, b, (mask >> np.uint64(8 * b)) & _BYTE]
    return out


@njit(**INLINE_JIT)
def canonical(sym, first, second):
    """(first, second) of the canonical form: smallest occupied mask, then smallest X mask."""
    occ = first | second
    best_occ = occ
    best_first = first
    for g in range(1, sym.shape[0]):
        o = transform(sym, g, occ)
        if o < best_occ:
            best_occ = o
            best_first = transform(sym, g, first)
        elif o == best_occ:
            f = transform(sym, g, first)
            if f < best_first:
                best_first = f
    return best_first, best_occ ^ best_first


@njit(**INLINE_JIT)
def stabiliser_order(sym, first, second):
    """Number of group elements that map the position onto itself."""
    occ = first | second
    count = 1
    for g in range(1, sym.shape[0]):
        if transform(sym, g, occ) == occ and transform(sym, g, first) == first:
            count += 1
    return count


@njit(**INLINE_JIT)
def deposit(pdep8, nbytes, pattern, occ):
    """The cells of ``occ`` whose rank (in cell order) is set in ``pattern`` (pdep)."""
    out = np.uint64(0)
    for b in range(nbytes):
        shift = np.uint64(8 * b)
        ob = (occ >> shift) & _BYTE
        if ob:
            out |= np.uint64(pdep8[ob, pattern & _BYTE]) << shift
            pattern >>= popcount(ob)
    return out


@njit(**INLINE_JIT)
def extract(pext8, nbytes, stones, occ):
    """The bits of ``stones`` at the cells of ``occ``, packed low in cell order (pext)."""
    out = np.uint64(0)
    below = np.uint64(0)
    for b in range(nbytes):
        shift = np.uint64(8 * b)
        ob = (occ >> shift) & _BYTE
        if ob:
            out |= np.uint64(pext8[ob, (stones >> shift) & _BYTE]) << below
            below += popcount(ob)
    return out


@njit(**INLINE_JIT)
def table_rank(table, nbytes, mask):
    """Sum over the bytes of ``mask`` of ``table[b, bits below, byte]`` (colex rank, key)."""
    r = np.int64(0)
    below = 0
    for b in range(nbytes):
        byte = (mask >> np.uint64(8 * b)) & _BYTE
        if byte:
            r += table[b, below, byte]
            below += np.int64(popcount(byte))
    return r


@njit(**INLINE_JIT)
def next_pattern(p):
    """The next larger integer with as many set bits (Gosper): the next colex subset."""
    c = p & (~p + _ONE)
    r = p + c
    return (((r ^ p) >> np.uint64(2)) // c) | r


@njit(**INLINE_JIT)
def next_slot(block, colour, pattern, colourings, x):
    """(block, colour, X pattern) of the slot after the given one in a layer."""
    if colour + 1 == colourings:
        return block + 1, 0, (_ONE << np.uint64(x)) - _ONE
    return block, colour + 1, next_pattern(pattern)


@njit(**INLINE_JIT)
def unrank_pattern(binom, r, n, x):
    """The X pattern (x bits among n) of colex rank ``r``."""
    pattern = np.uint64(0)
    p = n - 1
    for j in range(x, 0, -1):
        while binom[p, j] > r:
            p -= 1
        r -= binom[p, j]
        pattern |= _ONE << np.uint64(p)
        p -= 1
    return pattern


@njit(**INLINE_JIT)
def rank(key_table, colex, pext8, nbytes, key_block, occs, colourings, first, second):
    """Slot of an already canonical position in its layer; -1 when no slot holds it."""
    occ = first | second
    block = key_block[table_rank(key_table, nbytes, occ)]
    if block < 0 or occs[block] != occ:  # gravity: the heights of a floating mask
        return np.int64(-1)
    return block * colourings + table_rank(colex, nbytes, extract(pext8, nbytes, first, occ))


@njit(**JIT)
def rank_many(geo, lay, firsts, seconds, out):
    """Slot of each position (canonicalised first) in ``lay``; -1 when no slot holds it."""
    sym, key_table, colex, pext8 = geo.sym, geo.key_table, geo.colex, geo.pext8
    key_block, occs = lay.key_block, lay.occ
    for i in range(firsts.shape[0]):
        f, s = canonical(sym, firsts[i], seconds[i])
        out[i] = rank(key_table, colex, pext8, geo.nbytes, key_block, occs, lay.colourings, f, s)


@njit(**JIT)
def unrank_many(geo, lay, slots, firsts, seconds):
    """(first, second) stored in each slot of ``lay``."""
    binom, pdep8, occs = geo.binom, geo.pdep8, lay.occ
    for i in range(slots.shape[0]):
        block = slots[i] // lay.colourings
        occ = occs[block]
        pattern = unrank_pattern(binom, slots[i] - block * lay.colourings, lay.n, lay.x)
        firsts[i] = deposit(pdep8, geo.nbytes, pattern, occ)
        seconds[i] = occ ^ firsts[i]


# --- building a layer ------------------------------------------------------------------
@njit(**INLINE_JIT)
def _is_orbit_minimum(sym, occ):
    """(whether occ is the smallest mask of its orbit, whether a non-identity fixes it)."""
    fixed = False
    for g in range(1, sym.shape[0]):
        o = transform(sym, g, occ)
        if o < occ:
            return False, False
        if o == occ:
            fixed = True
    return True, fixed


@njit(**JIT)
def build_free_layer(geo, n, occ_out, key_block, fixed):
    """Blocks of layer n on a free board (keys = colex ranks, in Gosper order); returns
    the number of blocks. ``key_block`` has C(cells, n) entries."""
    sym = geo.sym
    count = 0
    mask = (_ONE << np.uint64(n)) - _ONE
    for key in range(key_block.shape[0]):
        keep, fix = _is_orbit_minimum(sym, mask)
        if keep:
            key_block[key] = count
            occ_out[count] = mask
            fixed[count] = fix
            count += 1
        else:
            key_block[key] = -1
        if key + 1 < key_block.shape[0]:
            mask = next_pattern(mask)
    return count


@njit(**JIT)
def build_gravity_layer(geo, n, occ_out, key_block, fixed):
    """Blocks of layer n on a gravity board (keys = column heights); returns their count.
    ``key_block`` has (rows + 1) ** cols entries."""
    sym = geo.sym
    radix = geo.rows + 1
    count = 0
    for key in range(key_block.shape[0]):
        key_block[key] = -1
        rest = key
        total = 0
        occ = np.uint64(0)
        for c in range(geo.cols):
            h = rest % radix
            rest //= radix
            total += h
            for r in range(h):
                occ |= _ONE << np.uint64((geo.rows - 1 - r) * geo.cols + c)
        if total != n:
            continue
        keep, fix = _is_orbit_minimum(sym, occ)
        if keep:
            key_block[key] = count
            occ_out[count] = occ
            fixed[count] = fix
            count += 1
    return count


# --- moves -----------------------------------------------------------------------------
@njit(**INLINE_JIT)
def has_line(line_shift, line_start, k, stones):
    """True when ``stones`` hold a whole line of k (runs shifted along the four directions)."""
    for d in range(4):
        step = np.uint64(line_shift[d])
        run = stones
        for _ in range(k - 1):
            run &= run >> step
        if run & line_start[d]:
            return True
    return False


@njit(**INLINE_JIT)
def playable(gravity, cols, full, bottom, occ):
    empty = full & ~occ
    if gravity:
        return empty & ((occ >> np.uint64(cols)) | bottom)
    return empty


@njit(**INLINE_JIT)
def removable(gravity, cols, bottom, stones, occ):
    """Stones that could have been played last (gravity: the top stone of a column)."""
    if gravity:
        c = np.uint64(cols)
        return stones & ~(occ << c) & ((occ >> c) | bottom)
    return stones


# --- the two sweeps --------------------------------------------------------------------
@njit(**JIT)
def _forward_range(geo, prev_lay, prev, lay, out, start, lo, hi):
    """Reach bytes of slots lo..hi-1, pulled from their parents in ``prev``."""
    sym, key_table, colex, pext8, pdep8 = geo.sym, geo.key_table, geo.colex, geo.pext8, geo.pdep8
    line_shift, line_start, nbytes = geo.line_shift, geo.line_start, geo.nbytes
    gravity, cols, full, bottom, k = geo.gravity, geo.cols, geo.full, geo.bottom, geo.k
    occs, fixed = lay.occ, lay.fixed
    p_key_block, p_occs, p_colourings = prev_lay.key_block, prev_lay.occ, prev_lay.colourings
    C = lay.colourings
    block = lo // C
    pattern = unrank_pattern(geo.binom, lo - block * C, lay.n, lay.x)
    colour = lo - block * C
    x_moved_last = lay.n % 2 == 1
    for i in range(lo, hi):
        occ = occs[block]
        first = deposit(pdep8, nbytes, pattern, occ)
        second = occ ^ first
        last = first if x_moved_last else second
        byte = np.uint8(0)
        ok = not has_line(line_shift, line_start, k, occ ^ last)  # the other side never won
        if ok and fixed[block]:
            ok = canonical(sym, first, second)[0] == first
        if ok:
            cand = removable(gravity, cols, bottom, last, occ)
            while cand:
                c = ctz(cand)
                bit = _ONE << np.uint64(c)
                cand ^= bit
                if x_moved_last:
                    pf, ps = canonical(sym, first ^ bit, second)
                else:
                    pf, ps = canonical(sym, first, second ^ bit)
                parent = rank(key_table, colex, pext8, nbytes, p_key_block, p_occs,
                              p_colourings, pf, ps)
                if prev[parent] == NONTERMINAL:
                    if has_line(line_shift, line_start, k, last):
                        byte = np.uint8(V_FIRST if x_moved_last else V_SECOND)
                    elif occ == full:
                        byte = np.uint8(V_DRAW)
                    else:
                        byte = np.uint8(NONTERMINAL)
                    break
        out[i - start] = byte
        block, colour, pattern = next_slot(block, colour, pattern, C, lay.x)


@njit(**JIT)
def _backward_range(geo, lay, reach, next_lay, nxt, out, start, lo, hi):
    """Value bytes of slots lo..hi-1 from the reach bytes and the next layer's values."""
    sym, key_table, colex, pext8, pdep8 = geo.sym, geo.key_table, geo.colex, geo.pext8, geo.pdep8
    nbytes, gravity, cols, full, bottom = geo.nbytes, geo.gravity, geo.cols, geo.full, geo.bottom
    occs = lay.occ
    n_key_block, n_occs, n_colourings = next_lay.key_block, next_lay.occ, next_lay.colourings
    C = lay.colourings
    block = lo // C
    pattern = unrank_pattern(geo.binom, lo - block * C, lay.n, lay.x)
    colour = lo - block * C
    x_to_move = lay.n % 2 == 0
    win_v = V_FIRST if x_to_move else V_SECOND
    loss_v = V_SECOND if x_to_move else V_FIRST
    slots = np.empty(64, dtype=np.int64)  # children's slots, computed before any is read
    for i in range(lo, hi):
        b = reach[i - start]
        if b == NONTERMINAL:
            occ = occs[block]
            first = deposit(pdep8, nbytes, pattern, occ)
            second = occ ^ first
            best_win = np.int64(255)
            best_draw = np.int64(-1)
            worst_loss = np.int64(-1)
            count = 0
            cand = playable(gravity, cols, full, bottom, occ)
            while cand:
                c = ctz(cand)
                bit = _ONE << np.uint64(c)
                cand ^= bit
                if x_to_move:
                    cf, cs = canonical(sym, first | bit, second)
                else:
                    cf, cs = canonical(sym, first, second | bit)
                slots[count] = rank(key_table, colex, pext8, nbytes, n_key_block, n_occs,
                                    n_colourings, cf, cs)
                count += 1
            for j in range(count):
                child = np.int64(nxt[slots[j]])
                v = child & 3
                d = child >> 2
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
                b = np.uint8(((best_win + 1) << 2) | win_v)
            elif best_draw >= 0:
                b = np.uint8(((best_draw + 1) << 2) | V_DRAW)
            else:
                b = np.uint8(((worst_loss + 1) << 2) | loss_v)
        out[i - start] = b
        block, colour, pattern = next_slot(block, colour, pattern, C, lay.x)


@njit(**JIT)
def forward_chunk_serial(geo, prev_lay, prev, lay, out, start):
    _forward_range(geo, prev_lay, prev, lay, out, start, start, start + out.shape[0])


@njit(**PARALLEL_JIT)
def forward_chunk_parallel(geo, prev_lay, prev, lay, out, start):
    n = out.shape[0]
    for t in prange(_PIECES):
        lo = start + n * t // _PIECES
        hi = start + n * (t + 1) // _PIECES
        if hi > lo:
            _forward_range(geo, prev_lay, prev, lay, out, start, lo, hi)


@njit(**JIT)
def backward_chunk_serial(geo, lay, reach, next_lay, nxt, out, start):
    _backward_range(geo, lay, reach, next_lay, nxt, out, start, start, start + out.shape[0])


@njit(**PARALLEL_JIT)
def backward_chunk_parallel(geo, lay, reach, next_lay, nxt, out, start):
    n = out.shape[0]
    for t in prange(_PIECES):
        lo = start + n * t // _PIECES
        hi = start + n * (t + 1) // _PIECES
        if hi > lo:
            _backward_range(geo, lay, reach, next_lay, nxt, out, start, lo, hi)


# --- counting --------------------------------------------------------------------------
@njit(**JIT)
def _histogram_range(geo, lay, data, start, lo, hi, positions, stored):
    sym, binom, pdep8, nbytes = geo.sym, geo.binom, geo.pdep8, geo.nbytes
    occs, fixed = lay.occ, lay.fixed
    group = sym.shape[0]
    C = lay.colourings
    for i in range(lo, hi):
        b = data[i - start]
        stored[b] += 1
        if b == 0:
            continue
        block = i // C
        weight = group
        if fixed[block]:
            occ = occs[block]
            first = deposit(pdep8, nbytes, unrank_pattern(binom, i - block * C, lay.n, lay.x), occ)
            weight = group // stabiliser_order(sym, first, occ ^ first)
        positions[b] += weight


@njit(**JIT)
def histogram_serial(geo, lay, data, start, positions, stored):
    """Add the chunk's counts per byte value: ``positions`` (each stored slot counts its
    whole orbit) and ``stored`` slots."""
    _histogram_range(geo, lay, data, start, start, start + data.shape[0], positions, stored)


@njit(**PARALLEL_JIT)
def histogram_parallel(geo, lay, data, start, positions, stored):
    n = data.shape[0]
    part_positions = np.zeros((_PIECES, 256), dtype=np.int64)
    part_stored = np.zeros((_PIECES, 256), dtype=np.int64)
    for t in prange(_PIECES):
        lo = start + n * t // _PIECES
        hi = start + n * (t + 1) // _PIECES
        _histogram_range(geo, lay, data, start, lo, hi, part_positions[t], part_stored[t])
    positions += part_positions.sum(axis=0)
    stored += part_stored.sum(axis=0)
