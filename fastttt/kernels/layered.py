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
2 draw, 3 second player wins). A win/draw/loss value layer (``wdl``) keeps only v, four slots
a byte: slot ``i`` in bits ``2 * (i % 4)`` and ``2 * (i % 4) + 1`` of byte ``i // 4``
(:func:`wdl_of`; a chunk starts at a multiple of 4 slots)::

    byte  | 7 6 | 5 4 | 3 2 | 1 0 |
    slot  | 4b+3| 4b+2| 4b+1| 4b  |

Chunk kernels write ``out[i - start]`` for the slots
``start <= i < start + len(out)`` of one layer and never raise.

The sweeps walk a layer block by block: what a block's slots share about their neighbours
(the neighbour's block, the cell's place in the X pattern, the symmetry that makes it
canonical) is computed once a block (:func:`block_moves`); a slot then inserts or deletes one
bit of its pattern and ranks it. The forward sweep skips at once the run of colourings after a
slot in which the other side keeps a line (:func:`same_high_bits_last`). The helpers take
arrays, not the tuples: the sweeps unpack the tuples once, since taking an array out of a tuple
inside a loop counts references on every iteration (3x slower). For the same reason the rare
paths (:func:`moved_slot`, :func:`is_canonical`, :func:`block_moves`) are real calls: inlined,
their branches left atomic reference counts in the slot loops (2-3x slower).
"""

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from fastttt.config import INLINE_JIT, JIT, PARALLEL_JIT
from fastttt.kernels.bits import clz, ctz, popcount
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


@njit(**JIT)
def is_canonical(sym, first, second):
    """Whether (first, second) is its own canonical form (a call, not inlined: see
    :func:`moved_slot`)."""
    return canonical(sym, first, second)[0] == first


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
    r = p + (p & (~p + _ONE))
    return (((r ^ p) >> np.uint64(2)) >> np.uint64(ctz(p))) | r  # a shift: no 64-bit divide


@njit(**INLINE_JIT)
def next_slot(block, colour, pattern, colourings, x):
    """(block, colour, X pattern) of the slot after the given one in a layer."""
    if colour + 1 == colourings:
        return block + 1, 0, (_ONE << np.uint64(x)) - _ONE
    return block, colour + 1, next_pattern(pattern)


@njit(**INLINE_JIT)
def insert_bit(pattern, pos, bit):
    """``pattern`` with ``bit`` (0 or 1) inserted at position ``pos``, the bits above moving up."""
    low = (_ONE << np.uint64(pos)) - _ONE
    return (pattern & low) | (bit << np.uint64(pos)) | ((pattern & ~low) << _ONE)


@njit(**INLINE_JIT)
def delete_bit(pattern, pos):
    """``pattern`` without its bit at position ``pos``, the bits above moving down."""
    low = (_ONE << np.uint64(pos)) - _ONE
    return (pattern & low) | (((pattern >> np.uint64(pos)) >> _ONE) << np.uint64(pos))


@njit(**INLINE_JIT)
def move_buffers():
    """Empty (mv_bit, mv_pos, mv_base, mv_occ, mv_g) arrays for :func:`block_moves`."""
    return (
        np.empty(64, dtype=np.uint64),
        np.empty(64, dtype=np.int64),
        np.empty(64, dtype=np.int64),
        np.empty(64, dtype=np.uint64),
        np.empty(64, dtype=np.int64),
    )


@njit(**JIT)
def block_moves(
    sym, key_table, nbytes, key_block, colourings, occ, cand, mv_bit, mv_pos, mv_base, mv_occ, mv_g
):
    """What a block's slots share about their neighbours: one entry per cell of ``cand``
    (a stone added to, or removed from, ``occ``). ``mv_pos``: the cell's rank among the
    occupied cells (where the pattern gains or loses a bit); ``mv_base``: first slot of the
    neighbour's block; ``mv_occ``: its canonical mask; ``mv_g``: the group element that maps
    the neighbour onto its canonical form, 0 the identity, -1 when several do (the colours
    decide then). Returns the number of entries."""
    count = 0
    while cand:
        c = ctz(cand)
        bit = _ONE << np.uint64(c)
        cand ^= bit
        o = occ ^ bit
        best = o
        best_g = 0
        ties = False
        for g in range(1, sym.shape[0]):
            t = transform(sym, g, o)
            if t < best:
                best = t
                best_g = g
                ties = False
            elif t == best:
                ties = True
        block = key_block[table_rank(key_table, nbytes, best)]
        mv_bit[count] = bit
        mv_pos[count] = popcount(occ & (bit - _ONE))
        mv_base[count] = block * colourings
        mv_occ[count] = best
        mv_g[count] = -1 if ties else best_g
        count += 1
    return count


@njit(**JIT)
def moved_slot(
    sym,
    key_table,
    colex,
    pext8,
    nbytes,
    key_block,
    occs,
    colourings,
    first,
    second,
    bit,
    base,
    occ,
    g,
    x_stone,
):
    """Slot of the position with the stone at ``bit`` (an X when ``x_stone``) added or
    removed, when a group element other than the identity makes it canonical (an entry of
    :func:`block_moves` with ``g != 0``). Not inlined: the sweeps call it off their hot path."""
    f = first ^ bit if x_stone else first
    s = second if x_stone else second ^ bit
    if g > 0:
        return base + table_rank(colex, nbytes, extract(pext8, nbytes, transform(sym, g, f), occ))
    f, s = canonical(sym, f, s)
    return rank(key_table, colex, pext8, nbytes, key_block, occs, colourings, f, s)


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
    """True when ``stones`` hold a whole line of k."""
    return line_starts(line_shift, line_start, k, stones) != 0


@njit(**INLINE_JIT)
def line_starts(line_shift, line_start, k, stones):
    """The cells (bits) that start a whole line of k in ``stones`` (a line's lowest cell), in
    the first direction that has one (runs shifted along the four directions); 0 when there is
    none."""
    for d in range(4):
        step = np.uint64(line_shift[d])
        run = stones
        for _ in range(k - 1):
            run &= run >> step
        run &= line_start[d]
        if run:
            return run
    return np.uint64(0)


@njit(**INLINE_JIT)
def same_high_bits_last(pattern, q, x):
    """The last X pattern (x bits, colex order) whose bits from ``q`` up are ``pattern``'s:
    its low ``q`` bits hold the same number of X bits, all at the top."""
    q = np.int64(q)
    high = (pattern >> np.uint64(q)) << np.uint64(q)
    j = x - np.int64(popcount(high))
    return high | (((_ONE << np.uint64(j)) - _ONE) << np.uint64(q - j))


@njit(**INLINE_JIT)
def skip_dead_run(colex, nbytes, occ, starts, pattern, colour, x, i, hi, out, start, zero):
    """Skip the run of colourings after slot ``i`` (X ``pattern``, colex rank ``colour``, over
    ``occ``) that keep its line (``starts``: :func:`line_starts` of the side that has one):
    those with the same bits from the line's lowest cell up, a run of colex order
    (:func:`same_high_bits_last`), none of them a position. With ``zero`` writes 0 to
    ``out[t - start]`` for the skipped slots. Returns (slot, colour, pattern) of the run's last
    slot, or of slot ``hi - 1`` when the run goes past it (its pattern then stale: not read),
    for the caller to write and step past."""
    top = _ONE << np.uint64(63 - clz(starts))
    end = same_high_bits_last(pattern, popcount(occ & (top - _ONE)), x)
    run = table_rank(colex, nbytes, end) - colour
    skip = min(run, hi - 1 - i)
    if zero:
        for t in range(i - start, i - start + skip):
            out[t] = 0
    return i + skip, colour + skip, end if skip == run else pattern


_NO_OUT = np.zeros(0, dtype=np.uint8)  # live_visits writes nothing


@njit(**JIT)
def live_visits(geo, lay, lo, hi):
    """(dead, live) slots of ``lo..hi-1`` that the live sweep visits: the loop of
    ``_backward_range`` with ``live``, its runs skipped the same way, no child looked up (the
    non-canonical colourings of symmetric blocks count as live: a few)."""
    colex, pdep8, nbytes = geo.colex, geo.pdep8, geo.nbytes
    line_shift, line_start, k = geo.line_shift, geo.line_start, geo.k
    C = lay.colourings
    block = lo // C
    pattern = unrank_pattern(geo.binom, lo - block * C, lay.n, lay.x)
    colour = lo - block * C
    dead = live = 0
    i = lo
    while i < hi:
        occ = lay.occ[block]
        first = deposit(pdep8, nbytes, pattern, occ)
        starts = line_starts(line_shift, line_start, k, first)
        if not starts:
            starts = line_starts(line_shift, line_start, k, occ ^ first)
        if starts:
            dead += 1
            i, colour, pattern = skip_dead_run(
                colex, nbytes, occ, starts, pattern, colour, lay.x, i, hi, _NO_OUT, lo, False
            )
        else:
            live += 1
        block, colour, pattern = next_slot(block, colour, pattern, C, lay.x)
        i += 1
    return dead, live


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
@njit(**INLINE_JIT)
def is_open(prev, slot, packed):
    """Whether ``slot`` of a previous layer is reachable and open: its reach byte is
    ``NONTERMINAL``, or (``packed``) its bit is set in ``prev``, one bit a slot, bit ``slot % 8``
    of byte ``slot // 8`` (NumPy's ``packbits(..., bitorder="little")``)."""
    if packed:
        return (prev[slot >> 3] >> (slot & 7)) & 1 != 0
    return prev[slot] == NONTERMINAL


@njit(**JIT)
def _forward_range(geo, prev_lay, prev, lay, out, start, lo, hi, packed):
    """Reach bytes of slots lo..hi-1, pulled from their parents in ``prev`` (reach bytes, or
    open bits when ``packed``: :func:`is_open`)."""
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
    last_bit = _ONE if x_moved_last else np.uint64(0)
    mv_bit, mv_pos, mv_base, mv_occ, mv_g = move_buffers()
    moves = 0
    moves_block = -1
    i = lo
    while i < hi:
        occ = occs[block]
        first = deposit(pdep8, nbytes, pattern, occ)
        second = occ ^ first
        last = first if x_moved_last else second
        byte = np.uint8(0)
        starts = line_starts(line_shift, line_start, k, occ ^ last)
        ok = not starts  # the other side never won
        if not ok:
            i, colour, pattern = skip_dead_run(
                colex, nbytes, occ, starts, pattern, colour, lay.x, i, hi, out, start, True
            )
        if ok and fixed[block]:
            ok = is_canonical(sym, first, second)
        if ok:
            won = has_line(line_shift, line_start, k, last)
            if moves_block != block:  # parents: a stone that could have been played last
                moves = block_moves(
                    sym,
                    key_table,
                    nbytes,
                    p_key_block,
                    p_colourings,
                    occ,
                    removable(gravity, cols, bottom, occ, occ),
                    mv_bit,
                    mv_pos,
                    mv_base,
                    mv_occ,
                    mv_g,
                )
                moves_block = block
            for m in range(moves):
                if ((pattern >> np.uint64(mv_pos[m])) & _ONE) != last_bit:
                    continue  # that stone is the other side's
                if won and has_line(line_shift, line_start, k, last ^ mv_bit[m]):
                    continue  # the game was over before that stone: no look-up needed
                if mv_g[m] == 0:
                    parent = mv_base[m] + table_rank(colex, nbytes, delete_bit(pattern, mv_pos[m]))
                else:
                    parent = moved_slot(
                        sym,
                        key_table,
                        colex,
                        pext8,
                        nbytes,
                        p_key_block,
                        p_occs,
                        p_colourings,
                        first,
                        second,
                        mv_bit[m],
                        mv_base[m],
                        mv_occ[m],
                        mv_g[m],
                        x_moved_last,
                    )
                if is_open(prev, parent, packed):
                    if won:
                        byte = np.uint8(V_FIRST if x_moved_last else V_SECOND)
                    elif occ == full:
                        byte = np.uint8(V_DRAW)
                    else:
                        byte = np.uint8(NONTERMINAL)
                    break
        out[i - start] = byte
        block, colour, pattern = next_slot(block, colour, pattern, C, lay.x)
        i += 1


@njit(**INLINE_JIT)
def wdl_of(packed, slot):
    """The 2-bit v of ``slot`` in a packed win/draw/loss layer (0: no position)."""
    return (np.int64(packed[slot >> 2]) >> ((slot & 3) << 1)) & 3


@njit(**JIT)
def wdl_counted_bytes(packed, reach):
    """The bytes a packed win/draw/loss chunk is counted by, one a slot: its v
    (:func:`wdl_of`) | 4 when its reach byte is ``NONTERMINAL`` (the game not over), so that
    the counts read as a byte table's with depth 0 or 1 (one pass; no unpacked copies)."""
    out = np.empty(reach.shape[0], dtype=np.uint8)
    for i in range(reach.shape[0]):
        v = (packed[i >> 2] >> ((i & 3) << 1)) & 3
        out[i] = v | 4 if reach[i] == NONTERMINAL else v
    return out


@njit(**JIT)
def wdl_live_bytes(packed, size, full):
    """:func:`wdl_counted_bytes` of a live chunk (``size`` slots): every position it holds is
    open (v | 4), but on a ``full`` board, where each is a finished draw (v)."""
    out = np.empty(size, dtype=np.uint8)
    for i in range(size):
        v = (packed[i >> 2] >> ((i & 3) << 1)) & 3
        out[i] = v | 4 if v and not full else v
    return out


@njit(**INLINE_JIT)
def take_child(nxt, slot, wdl, win_v, best_win, best_draw, worst_loss):
    """Fold the child in ``slot`` of the next layer ``nxt`` into the mover's best so far
    (quickest win, longest draw, longest loss: depths of the children, -1 or 255 when none);
    returns them and whether nothing can beat the result any more (a win in one move). A
    child stored as 0 is a game the mover has just won (a live table keeps no finished
    position; a reach table has no 0 child of an open position). With ``wdl`` (``nxt``
    packed, :func:`wdl_of`) depth 0 stands for every depth: any win ends the scan."""
    if wdl:
        v = wdl_of(nxt, slot)
        if v == win_v or v == 0:
            return np.int64(0), best_draw, worst_loss, True
        if v == V_DRAW:
            best_draw = np.int64(0)
        else:
            worst_loss = np.int64(0)
        return best_win, best_draw, worst_loss, False
    child = np.int64(nxt[slot])
    v = child & 3
    d = child >> 2
    if v == win_v or child == 0:
        return min(best_win, d), best_draw, worst_loss, d == 0
    if v == V_DRAW:
        return best_win, max(best_draw, d), worst_loss, False
    return best_win, best_draw, max(worst_loss, d), False


@njit(**INLINE_JIT)
def value_byte(best_win, best_draw, worst_loss, win_v, loss_v):
    """The value byte of an open position from :func:`take_child`'s best: a win one ply after
    the quickest, else a draw after the longest, else a loss after the longest."""
    if best_win != 255:
        return np.uint8(((best_win + 1) << 2) | win_v)
    if best_draw >= 0:
        return np.uint8(((best_draw + 1) << 2) | V_DRAW)
    return np.uint8(((worst_loss + 1) << 2) | loss_v)


@njit(**INLINE_JIT)
def best_child_byte(nxt, slots, moves, wdl, win_v, loss_v):
    """The value byte of an open position for its mover from its children's, ``slots[:moves]``
    of the next layer ``nxt`` (:func:`take_child`, :func:`value_byte`)."""
    best_win = np.int64(255)
    best_draw = np.int64(-1)
    worst_loss = np.int64(-1)
    for j in range(moves):
        best_win, best_draw, worst_loss, done = take_child(
            nxt, slots[j], wdl, win_v, best_win, best_draw, worst_loss
        )
        if done:
            break
    return value_byte(best_win, best_draw, worst_loss, win_v, loss_v)


@njit(**INLINE_JIT)
def store_value(out, r, byte, wdl):
    """Write value ``byte`` at offset ``r`` of ``out``: its v alone, packed, with ``wdl``."""
    if wdl:
        out[r >> 2] |= np.uint8((byte & 3) << ((r & 3) << 1))
    else:
        out[r] = byte


@njit(**JIT)
def _backward_range(geo, lay, reach, next_lay, nxt, out, start, lo, hi, wdl, live):
    """Value bytes of slots lo..hi-1 from the reach bytes and the next layer's values; with
    ``wdl`` the next layer and ``out`` are packed (:func:`wdl_of`; ``out`` zeroed, ``lo - start``
    a multiple of 4) and only v is found: win, else draw, else loss. With ``live`` there are no
    reach bytes: every canonical colouring with no line (reachable or not) is solved, the
    others are 0 (runs of them skipped at once, :func:`skip_dead_run`)."""
    sym, key_table, colex, pext8, pdep8 = geo.sym, geo.key_table, geo.colex, geo.pext8, geo.pdep8
    nbytes, gravity, cols, full, bottom = geo.nbytes, geo.gravity, geo.cols, geo.full, geo.bottom
    line_shift, line_start, k = geo.line_shift, geo.line_start, geo.k
    occs, fixed = lay.occ, lay.fixed
    n_key_block, n_occs, n_colourings = next_lay.key_block, next_lay.occ, next_lay.colourings
    C = lay.colourings
    block = lo // C
    pattern = unrank_pattern(geo.binom, lo - block * C, lay.n, lay.x)
    colour = lo - block * C
    x_to_move = lay.n % 2 == 0
    win_v = V_FIRST if x_to_move else V_SECOND
    loss_v = V_SECOND if x_to_move else V_FIRST
    x_bit = _ONE if x_to_move else np.uint64(0)
    mv_bit, mv_pos, mv_base, mv_occ, mv_g = move_buffers()
    moves = 0
    moves_block = -1
    i = lo
    while i < hi:
        occ = occs[block]
        first = np.uint64(0)
        if live:
            first = deposit(pdep8, nbytes, pattern, occ)
            b = np.uint8(NONTERMINAL)
            starts = line_starts(line_shift, line_start, k, first)
            if not starts:
                starts = line_starts(line_shift, line_start, k, occ ^ first)
            if starts:
                b = np.uint8(0)
                i, colour, pattern = skip_dead_run(  # a packed ``out`` comes zeroed
                    colex, nbytes, occ, starts, pattern, colour, lay.x, i, hi, out, start, not wdl
                )
            elif fixed[block] and not is_canonical(sym, first, occ ^ first):
                b = np.uint8(0)
            elif occ == full:
                b = np.uint8(V_DRAW)
        else:
            b = reach[i - start]
            if b == NONTERMINAL:
                first = deposit(pdep8, nbytes, pattern, occ)
        if b == NONTERMINAL:
            second = occ ^ first
            if moves_block != block:
                moves = block_moves(
                    sym,
                    key_table,
                    nbytes,
                    n_key_block,
                    n_colourings,
                    occ,
                    playable(gravity, cols, full, bottom, occ),
                    mv_bit,
                    mv_pos,
                    mv_base,
                    mv_occ,
                    mv_g,
                )
                moves_block = block
            best_win = np.int64(255)
            best_draw = np.int64(-1)
            worst_loss = np.int64(-1)
            for m in range(moves):  # each child read once ranked: a win in one ends the scan
                if mv_g[m] == 0:  # the child is canonical as it is: only the pattern changes
                    slot = mv_base[m] + table_rank(
                        colex, nbytes, insert_bit(pattern, mv_pos[m], x_bit)
                    )
                else:
                    slot = moved_slot(
                        sym,
                        key_table,
                        colex,
                        pext8,
                        nbytes,
                        n_key_block,
                        n_occs,
                        n_colourings,
                        first,
                        second,
                        mv_bit[m],
                        mv_base[m],
                        mv_occ[m],
                        mv_g[m],
                        x_to_move,
                    )
                best_win, best_draw, worst_loss, done = take_child(
                    nxt, slot, wdl, win_v, best_win, best_draw, worst_loss
                )
                if done:
                    break
            b = value_byte(best_win, best_draw, worst_loss, win_v, loss_v)
        store_value(out, i - start, b, wdl)
        block, colour, pattern = next_slot(block, colour, pattern, C, lay.x)
        i += 1


@njit(**JIT)
def forward_chunk_serial(geo, prev_lay, prev, lay, out, start, packed=False):
    """Reach bytes of the slots ``start..start + len(out) - 1`` of ``lay`` from the previous
    layer ``prev``: its reach bytes, or its open bits when ``packed`` (:func:`is_open`)."""
    _forward_range(geo, prev_lay, prev, lay, out, start, start, start + out.shape[0], packed)


@njit(**PARALLEL_JIT)
def forward_chunk_parallel(geo, prev_lay, prev, lay, out, start, packed=False):
    n = out.shape[0]
    for t in prange(_PIECES):
        lo = start + n * t // _PIECES
        hi = start + n * (t + 1) // _PIECES
        if hi > lo:
            _forward_range(geo, prev_lay, prev, lay, out, start, lo, hi, packed)


_NO_REACH = np.zeros(0, dtype=np.uint8)


@njit(**JIT)
def backward_chunk_serial(geo, lay, reach, next_lay, nxt, out, start, wdl=False):
    """Value bytes of the slots ``start..start + len(reach) - 1`` of ``lay`` from their reach
    bytes and the next layer's values ``nxt``; with ``wdl`` the next layer and ``out`` (zeroed,
    ``ceil(len(reach) / 4)`` bytes) are packed win/draw/loss layers (:func:`wdl_of`)."""
    hi = start + reach.shape[0]
    _backward_range(geo, lay, reach, next_lay, nxt, out, start, start, hi, wdl, False)


@njit(**JIT)
def backward_chunk_parallel(geo, lay, reach, next_lay, nxt, out, start, wdl=False):
    _backward_pieces(geo, lay, reach, next_lay, nxt, out, start, reach.shape[0], wdl, False)


@njit(**JIT)
def live_chunk_serial(geo, lay, next_lay, nxt, out, start, size, wdl=False):
    """Value bytes of the slots ``start..start + size - 1`` of ``lay`` as
    :func:`backward_chunk_serial`, without reach bytes: every canonical colouring with no
    line is solved, reachable or not, and the others are 0 (a live table)."""
    hi = start + size
    _backward_range(geo, lay, _NO_REACH, next_lay, nxt, out, start, start, hi, wdl, True)


@njit(**JIT)
def live_chunk_parallel(geo, lay, next_lay, nxt, out, start, size, wdl=False):
    _backward_pieces(geo, lay, _NO_REACH, next_lay, nxt, out, start, size, wdl, True)


@njit(**PARALLEL_JIT)
def _backward_pieces(geo, lay, reach, next_lay, nxt, out, start, n, wdl, live):
    for t in prange(_PIECES):
        # pieces start at multiples of 4 slots: no two threads share a byte of a packed ``out``
        lo = start + (n * t // _PIECES) // 4 * 4
        hi = start + n if t == _PIECES - 1 else start + (n * (t + 1) // _PIECES) // 4 * 4
        if hi > lo:
            _backward_range(geo, lay, reach, next_lay, nxt, out, start, lo, hi, wdl, live)


@njit(**INLINE_JIT)
def patterns_below(binom, value, x):
    """How many patterns of ``x`` set bits are smaller integers than ``value`` (the colex rank
    of ``value`` when it has ``x`` bits)."""
    count = np.int64(0)
    j = x
    for i in range(63, -1, -1):
        if (value >> np.uint64(i)) & _ONE:
            count += binom[i, j]
            j -= 1
            if j < 0:
                break
    return count


@njit(**JIT)
def mirrored_pattern_bounds(geo, o, o_canon, low, high, x):
    """Bounds ``(qlow, qhigh)`` of the X patterns over ``o_canon`` (``o`` mirrored: a gravity
    board's group element 1) of the positions whose pattern over ``o`` is an integer in
    ``low..high`` with ``x`` bits; ``qlow > qhigh`` when there is none.

    The mirror keeps every cell in its row and cells are numbered row by row, so it maps
    the pattern bits of one row (a run of consecutive bits, the same run in ``o`` and in
    ``o_canon``) onto the same run, reversed. The rows above the highest bit where ``low``
    and ``high`` differ (that bit's row excluded) are common to the whole range: their mirror
    image is exact, and the rest of the ``x`` bits lie anywhere below them."""
    pdep8, pext8, nbytes, cols = geo.pdep8, geo.pext8, geo.nbytes, geo.cols
    diff = low ^ high
    cut = np.uint64(0)  # bits below ``cut`` vary, those above are common
    if diff:
        top = np.uint64(63)
        while not (diff >> top) & _ONE:
            top -= _ONE
        cell = ctz(deposit(pdep8, nbytes, _ONE << top, o))
        row_end = (cell // cols + 1) * cols  # the rows from here up are common
        below = o if row_end >= 64 else o & ((_ONE << np.uint64(row_end)) - _ONE)
        cut = popcount(below)
    prefix = (low >> cut) << cut
    q = extract(pext8, nbytes, transform(geo.sym, 1, deposit(pdep8, nbytes, prefix, o)), o_canon)
    rest = np.int64(x) - np.int64(popcount(q))
    if rest < 0 or rest > np.int64(cut):
        return _ONE, np.uint64(0)
    ones = (_ONE << np.uint64(rest)) - _ONE
    return q | ones, q | (ones << (cut - np.uint64(rest)))


@njit(**INLINE_JIT)
def move_pattern_bounds(first, last, pos, children, x_bit, last_bit):
    """Integer bounds ``(low, high)`` of the neighbours' X patterns (over the mask with the
    cell of pattern position ``pos`` added, ``children``, or removed) of the patterns
    ``first..last`` of one block; ``low > high`` when none of them has a neighbour there.

    Inserting a bit at one place keeps the integer (colex) order, and so does deleting one
    among patterns that agree on it; only patterns with ``last_bit`` at ``pos`` have a
    parent through that cell."""
    if children:
        return insert_bit(first, pos, x_bit), insert_bit(last, pos, x_bit)
    p = np.uint64(pos)
    low = delete_bit(first, pos)
    high = delete_bit(last, pos)
    # a bound has the end pattern's bits above pos, or the next prefix up (down) when the
    # end pattern's bit at pos is the wrong one
    if ((first >> p) & _ONE) != last_bit:
        low = ((first >> p >> _ONE) + (_ONE - last_bit)) << p
    if ((last >> p) & _ONE) != last_bit:
        prefix = last >> p >> _ONE
        if last_bit == _ONE:
            if prefix == 0:
                return _ONE, np.uint64(0)  # no pattern of the range has a parent there
            prefix -= _ONE
        high = (prefix << p) | ((_ONE << p) - _ONE)
    return low, high


_SPLITS = 4096  # pieces a mirrored move's range is cut into at most (each marks its bounds)
_WIDE = 4  # chunks a piece's bounds may span before it is cut in halves


@njit(**INLINE_JIT)
def _mark(marks, stamp, a, b, chunk):
    """Stamp the chunks of slots ``a..b``; returns how many were not stamped before."""
    count = 0
    for c in range(a // chunk, b // chunk + 1):
        if marks[c] != stamp:
            marks[c] = stamp
            count += 1
    return count


@njit(**JIT)
def mark_neighbour_chunks(geo, lay, nb_lay, lo, hi, children, chunk, marks, stamp):
    """Set ``marks[c] = stamp`` for every chunk ``c`` (of ``chunk`` slots) of the neighbouring
    layer ``nb_lay`` that may hold a child (``children``) or a parent of a slot
    ``lo <= i < hi`` of ``lay`` (a superset of what the sweeps read); returns how many
    entries were not ``stamp`` before. ``marks``: bool (``stamp`` True) or int64.

    Inside a block, colex order is the integer order of the X patterns, so the neighbours
    through a move that needs no symmetry lie between bounds made from the range's first and
    last patterns (:func:`move_pattern_bounds`). A move onto the mirror image of a gravity
    board keeps the rows common to those bounds (:func:`mirrored_pattern_bounds`); a range
    whose image spans :data:`_WIDE` chunks or more is cut in halves (a lone colouring is
    exact), into :data:`_SPLITS` pieces at most, each marking its own bounds. Any other
    symmetry takes the neighbour's whole block."""
    sym, key_table, binom, nbytes = geo.sym, geo.key_table, geo.binom, geo.nbytes
    gravity, cols, full, bottom = geo.gravity, geo.cols, geo.full, geo.bottom
    mv_bit, mv_pos, mv_base, mv_occ, mv_g = move_buffers()
    C = lay.colourings
    nb_C = nb_lay.colourings
    x_bit = _ONE if lay.n % 2 == 0 else np.uint64(0)  # the colour of a stone added
    last_bit = _ONE - x_bit  # the colour of a stone taken off
    stack = np.empty((2 * 64 + 2, 2), dtype=np.int64)  # pieces of colourings, depth first
    count = 0
    for block in range(lo // C, (hi - 1) // C + 1):
        occ = lay.occ[block]
        r0 = max(lo, block * C) - block * C
        r1 = min(hi, (block + 1) * C) - 1 - block * C
        first = unrank_pattern(binom, r0, lay.n, lay.x)
        last = unrank_pattern(binom, r1, lay.n, lay.x)
        if children:
            cand = playable(gravity, cols, full, bottom, occ)
        else:
            cand = removable(gravity, cols, bottom, occ, occ)
        moves = block_moves(
            sym,
            key_table,
            nbytes,
            nb_lay.key_block,
            nb_C,
            occ,
            cand,
            mv_bit,
            mv_pos,
            mv_base,
            mv_occ,
            mv_g,
        )
        for m in range(moves):
            base = mv_base[m]
            if mv_g[m] == 0:
                low, high = move_pattern_bounds(first, last, mv_pos[m], children, x_bit, last_bit)
                if low <= high:
                    a = base + patterns_below(binom, low, nb_lay.x)
                    b = base + patterns_below(binom, high + _ONE, nb_lay.x) - 1
                    count += _mark(marks, stamp, a, b, chunk)
                continue
            if not gravity:
                count += _mark(marks, stamp, base, base + nb_C - 1, chunk)
                continue
            o = occ ^ mv_bit[m]  # the neighbour's mask, before the mirror
            stack[0, 0] = r0
            stack[0, 1] = r1
            depth = 1
            pieces = 0
            while depth:
                depth -= 1
                p0 = stack[depth, 0]
                p1 = stack[depth, 1]
                pieces += 1
                pf = first if p0 == r0 else unrank_pattern(binom, p0, lay.n, lay.x)
                pl = last if p1 == r1 else unrank_pattern(binom, p1, lay.n, lay.x)
                low, high = move_pattern_bounds(pf, pl, mv_pos[m], children, x_bit, last_bit)
                if low > high:
                    continue
                if mv_g[m] < 0 and p0 == r0 and p1 == r1:  # a symmetric mask: either image
                    a = base + patterns_below(binom, low, nb_lay.x)  # may be canonical
                    b = base + patterns_below(binom, high + _ONE, nb_lay.x) - 1
                    count += _mark(marks, stamp, a, b, chunk)
                qlow, qhigh = mirrored_pattern_bounds(geo, o, mv_occ[m], low, high, nb_lay.x)
                if qlow > qhigh:
                    continue
                a = base + patterns_below(binom, qlow, nb_lay.x)
                b = base + patterns_below(binom, qhigh + _ONE, nb_lay.x) - 1
                wide = b - a >= _WIDE * chunk and p1 > p0 and pieces < _SPLITS
                if wide and depth + 2 <= stack.shape[0]:
                    mid = (p0 + p1) // 2
                    stack[depth, 0] = mid + 1
                    stack[depth, 1] = p1
                    stack[depth + 1, 0] = p0
                    stack[depth + 1, 1] = mid
                    depth += 2
                    continue
                count += _mark(marks, stamp, a, b, chunk)
    return count


@njit(**JIT)
def neighbour_chunks(geo, lay, nb_lay, lo, hi, children, chunk, needed):
    """Set ``needed[c]`` (bool) for every chunk of ``nb_lay`` that may hold a neighbour of a
    slot ``lo <= i < hi`` of ``lay`` (:func:`mark_neighbour_chunks`)."""
    mark_neighbour_chunks(geo, lay, nb_lay, lo, hi, children, chunk, needed, True)


@njit(**JIT)
def neighbour_window(geo, lay, nb_lay, size, children, chunk, marks):
    """The most chunks of ``nb_lay`` that one chunk of the ``size`` slots of ``lay`` reads
    (:func:`mark_neighbour_chunks`); ``marks``: int64, one per chunk of ``nb_lay``, zeroed."""
    most = 0
    for c in range((size + chunk - 1) // chunk):
        lo = c * chunk
        count = mark_neighbour_chunks(
            geo, lay, nb_lay, lo, min(lo + chunk, size), children, chunk, marks, c + 1
        )
        most = max(most, count)
    return most


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
