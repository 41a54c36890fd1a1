"""Negamax alpha-beta kernels over padded column-major bitboards (gravity and free boards).

Internal layout (search only; :mod:`fastttt.search.alphabeta` converts from/to :class:`Position`):
``W`` internal columns of ``H`` cells plus one always-empty sentinel bit on top of each
column, ``bit = col * (H + 1) + height`` (height 0 = bottom row). Gravity boards use
``W = cols``, ``H = rows``; free boards may be transposed to fit 64 bits. 7 x 6 example::

      .  .  .  .  .  .  .      sentinel row: bits 6 13 20 27 34 41 48 (never set)
      5 12 19 26 33 40 47      top row
      4 11 18 25 32 39 46
      3 10 17 24 31 38 45
      2  9 16 23 30 37 44
      1  8 15 22 29 36 43
      0  7 14 21 28 35 42      bottom row

Lines of ``k`` are found with shifts: 1 (vertical), ``H+1`` (horizontal), ``H`` and ``H+2``
(diagonals); the empty sentinel bits stop runs from wrapping between columns.

A search position is ``(cur, mask, ply)``: ``cur`` the stones of the side to move, ``mask``
every stone, ``ply`` the number of stones. Scores are from the side to move (see
:mod:`fastttt.values`): 0 draw, a win scores ``base - s`` with ``s`` the winner's stones when
it completes its line, a loss the negative of the opponent's win score.

Work array: one uint64 array (built by :class:`fastttt.search.alphabeta.Searcher`) holds the
geometry, the masks, the node counter, the static move order, the symmetry permutations and the
per-ply move-sorting buffers, at the offsets below, plus the address of the transposition table. The
recursive kernel receives only scalars and the work array's ADDRESS (``work.ctypes.data``):
array arguments make Numba count references on every call (atomic increments and
decrements for each array at each node): passing the address took Connect Four from about 4
to 8 M nodes/s. The caller keeps both arrays alive for the call.

Transposition table: a uint64 array of ``2**bits`` entries, two per 16-byte bucket, each
``(tag << 16) | (work << 9) | (lower << 8) | (score + 64)``, 0 = empty (``work``: log8 of
the nodes searched under the position, :func:`_work_of`); the bucket index and
the tag together are an invertible hash of the position key, so a hit is exact (keys: ``cur +
mask`` with gravity, ``mask << nbits | cur`` on free boards when that fits 64 bits, else a
64-bit hash). Slot 0 keeps the entry with the most work, slot 1 the latest other (with a
slot 0 nearest the root instead: Begin-Hard 9% fewer nodes than one always-replaced entry;
by work: five 7-ply positions on a 2**19 table 3.1% fewer than by depth, 0.8% on 2**21).
While a node sorts its moves it prefetches each child's bucket, so the child's probe finds
it in cache (8 -> 11-12 M nodes/s on the Connect Four sets).

Moves are tried in the order: the table's best move first, then by the cells that would
complete a line of the mover after the move (with gravity not those just above a cell that
completes the opponent's, idle while it stays open; weighted ``ORDER_ALL`` each, plus
``ORDER_ABOVE`` for one just above a playable cell, which the opponent cannot play under, and
``ORDER_PLAYABLE`` for one playable at once, which forces the reply), then centre first; only
non-losing moves are searched (a forced block when the opponent threatens once, none when
twice; with gravity never under an opponent's threat), and a position left with one goes
straight to its child, with no table probe, entry or ordering.
"""

from __future__ import annotations

import ctypes

import numpy as np
from llvmlite import ir
from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from fastttt.config import JIT
from fastttt.kernels.bits import ctz, popcount

# work array (uint64) offsets: geometry fields ...
G_W, G_H, G_K, G_GRAV, G_CELLS, G_BASE, G_SYMPLY, G_MIRROR, G_KEYMODE, G_TTBITS, G_NSYM = range(11)
G_FAST4, G_NBITS, G_TTADDR, G_KEYBITS, G_TTMOVES = 11, 12, 13, 14, 15
# ... masks, counters and tables
M_BOTTOM, M_BOARD, M_COL0, M_CLAIM = 16, 17, 18, 19  # M_CLAIM: rows h, H - h even
S_NODES, S_STOP = 20, 21  # node counter; stop word (non-zero: unwind, see fastttt.interrupt)
S_LIMIT = 22  # node budget: a node past this count writes STOP_NODES to the stop word
STOP_NODES = 2
S_JITTER = 23  # non-zero: a helper thread's seed, which breaks ordering ties its own way
T_KEYMASK, T_TAGBITS, T_TAGMASK = 24, 25, 26  # the table hash (Searcher sets them)
NO_LIMIT = (1 << 63) - 1
ORDER = 32  # 64 slots: columns (gravity) or bits (free boards), best first
PERMS = 96  # 8 x 64 slots: symmetry s maps bit b to PERMS + 64 * s + b
MBUF = PERMS + 8 * 64  # 66 x 64 slots: moves being tried at each ply
SBUF = MBUF + 66 * 64  # 66 x 64 slots: their ordering scores
WORK_SIZE = SBUF + 66 * 64
# key modes
KEY_SUM, KEY_CONCAT, KEY_HASH = 0, 1, 2
# weak mode probes for a quick outcome first when hi - lo exceeds this (7 x 6: more than
# 17 empty cells; fewer, and the probes cost more than they save: End-Easy)
WEAK_PROBE_SPAN = 16

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX = np.uint64(0xC2B2AE3D27D4EB4F)
_63 = np.uint64(63)
MOVE_SHIFT = np.uint64(58)  # table entries: bits 58-63 hold the best move's id + 1
MOVE_FIRST = 1000  # ordering score of the table's best move: tried first
ORDER_ALL, ORDER_ABOVE, ORDER_PLAYABLE = 4, 2, 1  # move ordering weights (module docstring)
ZERO_FIRST_EMPTY = 36  # exact scores with this many empty cells or more: 'a win?' early
ETC_EMPTY = 20  # enhanced transposition cut-offs at nodes with at least this many empty cells


if config.DISABLE_JIT:  # NUMBA_DISABLE_JIT=1: the same kernels as plain Python (debugging)

    def lowbit_index(x):
        """Index of the lowest set bit of a non-zero uint64."""
        return np.uint64(ctz(x))

    def ld(addr, idx):
        """``addr[idx]`` for the address of a uint64 array."""
        return np.uint64(ctypes.c_uint64.from_address(int(addr) + 8 * int(idx)).value)

    def st(addr, idx, value):
        """``addr[idx] = value`` for the address of a uint64 array."""
        ctypes.c_uint64.from_address(int(addr) + 8 * int(idx)).value = int(value)

    def prefetch(addr):
        """A cache hint: nothing to do in plain Python."""

else:

    @intrinsic
    def lowbit_index(typingctx, x):
        """Index of the lowest set bit of a non-zero uint64 (LLVM cttz)."""
        sig = types.uint64(types.uint64)

        def codegen(context, builder, signature, args):
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

        return sig, codegen

    @intrinsic
    def ld(typingctx, addr, idx):
        """``addr[idx]`` for the address of a uint64 array."""
        sig = types.uint64(types.uint64, types.int64)

        def codegen(context, builder, signature, args):
            ptr = builder.inttoptr(args[0], ir.PointerType(ir.IntType(64)))
            return builder.load(builder.gep(ptr, [args[1]]))

        return sig, codegen

    @intrinsic
    def st(typingctx, addr, idx, value):
        """``addr[idx] = value`` for the address of a uint64 array."""
        sig = types.void(types.uint64, types.int64, types.uint64)

        def codegen(context, builder, signature, args):
            ptr = builder.inttoptr(args[0], ir.PointerType(ir.IntType(64)))
            builder.store(args[2], builder.gep(ptr, [args[1]]))
            return context.get_dummy_value()

        return sig, codegen

    @intrinsic
    def prefetch(typingctx, addr):
        """Hint the CPU to start loading the cache line at ``addr`` (LLVM prefetch, read)."""
        sig = types.void(types.uint64)

        def codegen(context, builder, signature, args):
            ptr_t = ir.PointerType(ir.IntType(8))
            i32 = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [ptr_t, i32, i32, i32])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
            ptr = builder.inttoptr(args[0], ptr_t)
            builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
            return context.get_dummy_value()

        return sig, codegen


@njit(**JIT)
def gi(w, field):
    """A signed geometry field of the work array at address ``w``."""
    return np.int64(ld(w, field))


@njit(**JIT)
def _shl(x, s):
    if s >= 64:
        return _ZERO
    return x << np.uint64(s)


@njit(**JIT)
def _shr(x, s):
    if s >= 64:
        return _ZERO
    return x >> np.uint64(s)


@njit(**JIT)
def _line_cells(p, s, k):
    """Cells x such that stones of ``p`` fill a line of ``k`` through x in direction ``s``
    (any k; the k = 4 case has the unrolled :func:`_winning4`)."""
    r = _ZERO
    for j in range(k):
        t = _ALL
        for m in range(1, j + 1):
            t &= _shl(p, m * s)
        for m in range(1, k - j):
            t &= _shr(p, m * s)
        r |= t
    return r


@njit(**JIT)
def _winning4(p, h1):
    """Cells completing a line of 4 of ``p`` in the four directions (k = 4 fast path)."""
    r = _ZERO
    for s in (_ONE, h1, h1 - _ONE, h1 + _ONE):
        l1 = p >> s
        r1 = p << s
        l2 = l1 & (p >> (s + s))
        r2 = r1 & (p << (s + s))
        r |= (l2 & ((p >> (s + s + s)) | r1)) | (r2 & (l1 | (p << (s + s + s))))
    return r


@njit(**JIT)
def winning_cells_mask(p, mask, w):
    """Empty cells where one more stone of ``p`` completes a line of k (gravity ignored)."""
    if ld(w, G_FAST4) != _ZERO:
        return _winning4(p, ld(w, G_H) + _ONE) & (ld(w, M_BOARD) & ~mask)
    h1 = gi(w, G_H) + 1
    k = gi(w, G_K)
    r = _line_cells(p, 1, k)
    r |= _line_cells(p, h1, k)
    r |= _line_cells(p, h1 - 1, k)
    r |= _line_cells(p, h1 + 1, k)
    return r & (ld(w, M_BOARD) & ~mask)


@njit(**JIT)
def has_line(p, w):
    """True when the stones ``p`` contain a full line of k."""
    if ld(w, G_FAST4) != _ZERO:
        h1 = ld(w, G_H) + _ONE
        for s in (_ONE, h1, h1 - _ONE, h1 + _ONE):
            t = p & (p >> s)
            if t & (t >> (s + s)):
                return True
        return False
    h1 = gi(w, G_H) + 1
    k = gi(w, G_K)
    for s in (1, h1, h1 - 1, h1 + 1):
        t = p
        for m in range(1, k):
            t &= _shr(p, m * s)
        if t != _ZERO:
            return True
    return False


@njit(**JIT)
def possible_mask(mask, w):
    """Cells the side to move may take: lowest empty cell of each column with gravity."""
    board = ld(w, M_BOARD)
    if ld(w, G_GRAV) != _ZERO:
        return (mask + ld(w, M_BOTTOM)) & board
    return board & ~mask


@njit(**JIT)
def _mirror(x, w):
    """Reverse the internal column order (left-right mirror)."""
    width = gi(w, G_W)
    h1 = ld(w, G_H) + _ONE
    col = ld(w, M_COL0)
    m = _ZERO
    for c in range(width):
        m |= ((x >> (np.uint64(c) * h1)) & col) << (np.uint64(width - 1 - c) * h1)
    return m


@njit(**JIT)
def _raw_key(cur, mask, w):
    mode = gi(w, G_KEYMODE)
    if mode == KEY_SUM:
        return cur + mask
    if mode == KEY_CONCAT:
        return (mask << ld(w, G_NBITS)) | cur
    h = (cur ^ (mask * _MIX)) * _GOLDEN
    return h ^ (h >> np.uint64(29)) ^ mask


@njit(**JIT)
def _permute(x, w, s):
    y = _ZERO
    base = PERMS + 64 * s
    while x:
        b = np.int64(lowbit_index(x))
        y |= _ONE << ld(w, base + b)
        x &= x - _ONE
    return y


@njit(**JIT)
def position_key(cur, mask, ply, w):
    """``(key, sym)``: the key of the position, canonical under the symmetries in use
    (deterministic per position: every symmetry up to ``G_SYMPLY`` stones, else the
    left-right mirror up to ``G_MIRROR`` stones), and the symmetry that gave it: 0 none, 1 the
    mirror, 2 another (move ids are stored only under 0 and 1: :func:`_move_id`)."""
    key = _raw_key(cur, mask, w)
    sym = 0
    if ply <= gi(w, G_SYMPLY):
        for s in range(1, gi(w, G_NSYM)):
            k2 = _raw_key(_permute(cur, w, s), _permute(mask, w, s), w)
            if k2 < key:
                key, sym = k2, 2
    elif ply <= gi(w, G_MIRROR):
        k2 = _raw_key(_mirror(cur, w), _mirror(mask, w), w)
        if k2 < key:
            key, sym = k2, 1
    return key, sym


@njit(**JIT)
def _move_id(bit, sym, w):
    """Canonical id of the move on internal ``bit`` under symmetry ``sym``, or -1 when it has
    none: the column with gravity (mirrored under ``sym`` 1), the bit on free boards (under
    ``sym`` 0 only). The map is its own inverse: it also turns a stored id into the move."""
    h1 = gi(w, G_H) + 1
    if ld(w, G_GRAV) != _ZERO:
        col = bit // h1
        return gi(w, G_W) - 1 - col if sym == 1 else col
    if sym == 0:
        return bit
    if sym == 1:
        return (gi(w, G_W) - 1 - bit // h1) * h1 + bit % h1
    return -1


@njit(**JIT)
def _tt_slot(w, key):
    """``(bucket index, tag)`` of ``key``: the bucket is the top ``bits - 1`` bits, the tag the
    rest (``T_TAGBITS``), of ``key * GOLDEN`` modulo ``2**G_KEYBITS`` (odd multiplier:
    invertible, so a tag match is an exact hit; keys are below ``2**G_KEYBITS``)."""
    h = (key * _GOLDEN) & ld(w, T_KEYMASK)
    return np.int64(h >> ld(w, T_TAGBITS)) * 2, h & ld(w, T_TAGMASK)


@njit(**JIT)
def _tag_of(e, w):
    return (e >> np.uint64(16)) & ld(w, T_TAGMASK)


@njit(**JIT)
def tt_get(w, key):
    """Stored payload for ``key``, ``(move << 16) | (work << 9) | (lower << 8) | (score +
    64)``, or 0; ``move`` is the best move's id + 1 (0: none; see :func:`tt_put`).

    The table is ``2**(bits-1)`` buckets of two entries in one cache line: slot 0 keeps the
    entry with the most work, slot 1 the most recent other one."""
    idx, tag = _tt_slot(w, key)
    table = ld(w, G_TTADDR)
    e = ld(table, idx)
    if _tag_of(e, w) == tag and e != _ZERO:
        return np.int64(((e >> MOVE_SHIFT) << np.uint64(16)) | (e & np.uint64(0xFFFF)))
    e = ld(table, idx + 1)
    if _tag_of(e, w) == tag and e != _ZERO:
        return np.int64(((e >> MOVE_SHIFT) << np.uint64(16)) | (e & np.uint64(0xFFFF)))
    return np.int64(0)


@njit(**JIT)
def tt_prefetch(w, key):
    """Start loading the bucket of ``key`` (children's buckets load while siblings search)."""
    idx, _ = _tt_slot(w, key)
    prefetch(ld(w, G_TTADDR) + np.uint64(idx) * np.uint64(8))


@njit(**JIT)
def tt_put(w, key, score, lower, work, move):
    """Store a bound on the score of ``key`` (``lower`` 1: lower bound, 0: upper bound) found
    with ``work`` (:func:`_work_of`), and ``move``: the best move's id + 1 (0: none known; an
    entry of the same position keeps its move then). Move ids are canonical
    (:func:`position_key`) and stored only when the table has room for them (``G_TTMOVES``)."""
    idx, tag = _tt_slot(w, key)
    table = ld(w, G_TTADDR)
    e0 = ld(table, idx)
    same0 = e0 != _ZERO and _tag_of(e0, w) == tag
    if ld(w, G_TTMOVES) == _ZERO:
        move = 0
    elif move == 0:
        if same0:
            move = np.int64(e0 >> MOVE_SHIFT)
        else:
            e1 = ld(table, idx + 1)
            if e1 != _ZERO and _tag_of(e1, w) == tag:
                move = np.int64(e1 >> MOVE_SHIFT)
    entry = (
        (np.uint64(move) << MOVE_SHIFT)
        | (tag << np.uint64(16))
        | np.uint64(work * 512 + lower * 256 + score + 64)
    )
    if e0 == _ZERO or same0:
        st(table, idx, entry)
    elif np.int64((e0 >> np.uint64(9)) & np.uint64(127)) <= work:
        st(table, idx + 1, e0)
        st(table, idx, entry)
    else:
        st(table, idx + 1, entry)


@njit(**JIT)
def _claimeven_bound(cur, mask, ply, beta, w):
    """``beta`` lowered by the opponent's follow-up strategy (Allis' claimeven), for a
    gravity position with an even number of columns whose lowest empty cell lies off the rows
    h with H - h even (``M_CLAIM``): answering a move on such a row on top of it, in the same
    column, and a move off them in another such column, the opponent leaves the mover only
    the empty cells of those rows and the playable cells, and takes the others. Without a
    line in its stones plus its cells the mover cannot win (at most 0); if the opponent then
    has a line in its own, it wins by its last stone at the latest (at most the loss of a
    full board)."""
    empty = ld(w, M_BOARD) & ~mask
    movers = empty & (ld(w, M_CLAIM) | possible_mask(mask, w))
    if has_line(cur | movers, w):
        return beta
    bound = 0
    if has_line((cur ^ mask) | (empty & ~movers), w):
        cells = gi(w, G_CELLS)
        last_stone = (cells + 1) // 2 if ply % 2 else cells // 2  # the opponent's
        bound = -(gi(w, G_BASE) - last_stone)
    return bound if bound < beta else beta


@njit(**JIT)
def _work_of(nodes):
    """A table entry's work: log8 of the ``nodes`` (uint64, at least 1) searched for it."""
    work = 0
    while nodes > _ONE:
        nodes >>= np.uint64(3)
        work += 1
    return work


@njit(**JIT)
def negamax(cur, mask, ply, alpha, beta, w):
    """Negamax with alpha-beta of a position where the side to move cannot win with its next
    stone (the root checks that; children hold it because only non-losing moves are
    searched). ``w`` is the address of the work array; ``alpha < beta``.

    Return contract (``v`` returned, ``t`` the true score from the side to move):
    ``v <= alpha`` implies ``t <= v`` (upper bound); ``v >= beta`` implies ``t >= v`` (lower
    bound); ``alpha < v < beta`` implies ``t == v``. Counts one node per call. Once the stop
    word ``S_STOP`` is set (by Ctrl-C, a watcher, or here when the count passes ``S_LIMIT``),
    returns 0 at once up the tree and stores nothing (a meaningless value: the caller
    discards it).
    """
    nodes = ld(w, S_NODES)
    if nodes >= ld(w, S_LIMIT):
        st(w, S_STOP, np.uint64(STOP_NODES))
        return 0
    st(w, S_NODES, nodes + _ONE)
    gravity = ld(w, G_GRAV) != _ZERO
    base = gi(w, G_BASE)
    opp = cur ^ mask
    lowest = possible_mask(mask, w)
    possible = lowest
    opp_win = winning_cells_mask(opp, mask, w)
    forced = possible & opp_win
    if forced != _ZERO:
        if forced & (forced - _ONE):
            return -(base - ((ply + 1) // 2 + 1))
        possible = forced
    if gravity:
        possible &= ~(opp_win >> _ONE)
    if possible == _ZERO:
        return -(base - ((ply + 1) // 2 + 1))
    if ply >= gi(w, G_CELLS) - 2:
        return 0
    lo = -(base - ((ply + 1) // 2 + 2))
    if alpha < lo:
        alpha = lo
        if alpha >= beta:
            return alpha
    hi = base - (ply // 2 + 2)
    if beta > hi:
        beta = hi
        if alpha >= beta:
            return beta
    if gravity and beta > -1 and popcount(lowest & ~ld(w, M_CLAIM)) % 2 == 0:
        beta = _claimeven_bound(cur, mask, ply, beta, w)
        if alpha >= beta:
            return beta
    if possible & (possible - _ONE) == _ZERO:  # one move: no table entry, nothing to order
        return -negamax(opp, mask | possible, ply + 1, -beta, -alpha, w)
    key, sym = position_key(cur, mask, ply, w)
    e = tt_get(w, key)
    first = -1  # the table's best move: the column with gravity, else the bit
    if e != 0:
        if e >> 16:
            stored = (e >> 16) - 1
            first = _move_id(stored * (gi(w, G_H) + 1) if gravity else stored, sym, w)
        v = (e & 255) - 64
        if e & 256:
            if alpha < v:
                alpha = v
                if alpha >= beta:
                    return alpha
        elif beta > v:
            beta = v
            if alpha >= beta:
                return beta
    # order moves: more own threats first, ties in static order (centre first)
    n = 0
    moves = MBUF + 64 * ply
    scores = SBUF + 64 * ply
    h1 = ld(w, G_H) + _ONE
    col0 = ld(w, M_COL0)
    n_order = gi(w, G_W) if gravity else gi(w, G_CELLS)
    for i in range(n_order):
        at = np.int64(ld(w, ORDER + i))
        if gravity:
            mv = possible & (col0 << (np.uint64(at) * h1))
        else:
            mv = possible & (_ONE << np.uint64(at))
        if mv == _ZERO:
            continue
        if at == first:
            sc = MOVE_FIRST
        else:
            threats = winning_cells_mask(cur | mv, mask | mv, w)
            if gravity:
                threats &= ~(opp_win << _ONE)  # just above an opponent's threat: idle
            sc = popcount(threats)
            if gravity:
                above = (((mask | mv) + ld(w, M_BOTTOM)) & ld(w, M_BOARD)) << _ONE
                sc = (
                    ORDER_ALL * sc
                    + ORDER_ABOVE * popcount(threats & above)
                    + ORDER_PLAYABLE * popcount(threats & (above >> _ONE))
                )
            seed = ld(w, S_JITTER)
            if seed != _ZERO:  # a helper thread: its own tie-break, the same at each visit
                sc = 2 * sc + np.int64(((key ^ seed) * _GOLDEN + np.uint64(at) * _MIX) >> _63)
        tt_prefetch(w, _raw_key(opp, mask | mv, w))  # the child's key unless symmetry maps it
        j = n
        while j > 0 and ld(w, scores + j - 1) < sc:
            st(w, moves + j, ld(w, moves + j - 1))
            st(w, scores + j, ld(w, scores + j - 1))
            j -= 1
        st(w, moves + j, mv)
        st(w, scores + j, sc)
        n += 1
    if gi(w, G_CELLS) - ply >= ETC_EMPTY:
        for i in range(n):  # a child's stored upper bound may cut off before any search
            mv = ld(w, moves + i)
            ckey, _ = position_key(opp, mask | mv, ply + 1, w)
            ce = tt_get(w, ckey)
            if ce != 0 and ce & 256 == 0 and -((ce & 255) - 64) >= beta:
                return -((ce & 255) - 64)
    best = 0
    for i in range(n):
        mv = ld(w, moves + i)
        v = -negamax(opp, mask | mv, ply + 1, -beta, -alpha, w)
        if ld(w, S_STOP) != _ZERO:
            return 0  # stopped: v may be wrong, store nothing
        if v > alpha:
            best = _move_id(np.int64(lowbit_index(mv)), sym, w) + 1
            if best >= 64:
                best = 0
            if v >= beta:
                tt_put(w, key, v, 1, _work_of(ld(w, S_NODES) - nodes), best)
                return v
            alpha = v
    tt_put(w, key, alpha, 0, _work_of(ld(w, S_NODES) - nodes), best)
    return alpha


@njit(**JIT)
def _half(x):
    """x / 2 truncated toward zero (as C++ integer division)."""
    if x >= 0:
        return x // 2
    return -((-x) // 2)


@njit(**JIT)
def solve_kernel(cur, mask, ply, weak, work, tt):
    """Exact score of a live position (not finished, not full) from the side to move; with
    ``weak`` only its sign (-1, 0 or +1). Iterated null-window searches narrow [lo, hi] until
    it closes (kernel behind :func:`fastttt.search.alphabeta.solve_position`), each window halfway
    to the far end of the range (quick wins and losses are cheap to rule out), except that an
    early position (:data:`ZERO_FIRST_EMPTY` empty cells or more) asks "a quick win?", "a quick
    loss?", then "a win at all?" (the empty 7 x 6 board: 646 M nodes instead of 726 M;
    Begin-Easy 4.26 M instead of 4.30 M, where "a win?" alone took 6.83 M), and then walks up
    from the slowest win (or down from the slowest loss), since early scores lie near zero (the
    opening book's, ply 0 to 5: mostly 0 to 3): the empty board 524 M nodes instead of 595 M,
    Begin-Hard's first 60 positions of at most 6 stones 3.01 G instead of 3.03 G, Begin-Medium's
    41 such positions, faster wins, 235 M instead of 198 M.
    ``work[G_TTADDR]`` must hold ``tt``'s address (set here). Returns a meaningless 0 once
    ``work[S_STOP]`` is set.

    Weak mode, when the score range is wider than :data:`WEAK_PROBE_SPAN`, first asks the two
    questions the exact mode starts with, "a win scoring above half the best?" and "a loss
    scoring below half the worst?": their windows cut every line that cannot end that soon, so a
    quick outcome is proven without the whole-game (0, 1) search, which may wander into slow
    wins and deep refutations (Begin-Easy: 2,750 nodes a position instead of 21,000, and the
    exact mode's 3,760). Only then the windows (0, 1) and (-1, 0)."""
    w = np.uint64(work.ctypes.data)
    work[G_TTADDR] = np.uint64(tt.ctypes.data)
    base = gi(w, G_BASE)
    possible = possible_mask(mask, w)
    if winning_cells_mask(cur, mask, w) & possible:
        return 1 if weak else base - (ply // 2 + 1)
    lo = -(base - ((ply + 1) // 2 + 1))
    hi = base - (ply // 2 + 2)
    if weak:
        if hi - lo > WEAK_PROBE_SPAN:
            med = _half(hi)  # a quick win?
            r = negamax(cur, mask, ply, med, med + 1, w)
            if work[S_STOP]:
                return 0
            if r > med:
                return 1
            hi = r
            med = _half(lo)  # a quick loss?
            if med < hi:
                r = negamax(cur, mask, ply, med, med + 1, w)
                if work[S_STOP]:
                    return 0
                if r <= med:
                    return -1
                lo = r
            if lo > 0:
                return 1
            if hi < 0:
                return -1
        lo, hi = max(lo, -1), min(hi, 1)
    early = gi(w, G_CELLS) - ply >= ZERO_FIRST_EMPTY
    quick = 2 if early else -1  # early positions: 3 probes
    while lo < hi:
        med = lo + (hi - lo) // 2
        if quick == 2 and _half(hi) > 0:
            med = _half(hi)  # a quick win?
        elif quick >= 1 and _half(lo) < 0:
            med = _half(lo)  # a quick loss?
        elif quick >= 0 and lo < 0 < hi:
            med = 0  # a win at all?
        elif early and lo > 0:
            med = lo  # the slowest win first
        elif early and hi < 0:
            med = hi - 1  # the slowest loss first
        elif med <= 0 and _half(lo) < med:
            med = _half(lo)
        elif med >= 0 and _half(hi) > med:
            med = _half(hi)
        quick -= 1
        r = negamax(cur, mask, ply, med, med + 1, w)
        if work[S_STOP]:
            return 0
        if r <= med:
            hi = r
        else:
            lo = r
    if weak:
        return (lo > 0) - (lo < 0)
    return lo


@njit(**JIT)
def at_least_kernel(cur, mask, ply, bound, work, tt):
    """Is the exact score of a live position (side to move) at least ``bound``? One
    null-window search (window ``(bound - 1, bound)``); a meaningless False once
    ``work[S_STOP]`` is set."""
    w = np.uint64(work.ctypes.data)
    work[G_TTADDR] = np.uint64(tt.ctypes.data)
    if winning_cells_mask(cur, mask, w) & possible_mask(mask, w):
        return gi(w, G_BASE) - (ply // 2 + 1) >= bound
    return negamax(cur, mask, ply, bound - 1, bound, w) >= bound


@njit(**JIT)
def play_columns(cols, n, work):
    """Play gravity moves ``cols[:n]`` (0-based internal columns) from the empty board.

    Returns ``(cur, mask, err_at, err_code)``: ``err_at`` -1 when all moves are fine, else the
    0-based index of the first bad move with ``err_code`` 1 off the board, 2 full column, 3 the
    game was already over (a line was completed before it); ``err_code`` 3 with
    ``err_at == n`` means the final position is finished (won or full).
    """
    w = np.uint64(work.ctypes.data)
    board = work[M_BOARD]
    h1 = work[G_H] + _ONE
    col0 = work[M_COL0]
    cur = _ZERO
    mask = _ZERO
    for i in range(n):
        c = cols[i]
        if c < 0 or c >= gi(w, G_W):
            return cur, mask, i, 1
        mv = (mask + work[M_BOTTOM]) & board & (col0 << (np.uint64(c) * h1))
        if mv == _ZERO:
            return cur, mask, i, 2
        if has_line(cur | mv, w):
            if i == n - 1:
                return cur ^ mask, mask | mv, n, 3
            return cur ^ mask, mask | mv, i + 1, 3
        cur = cur ^ mask
        mask = mask | mv
    if mask == board:
        return cur, mask, n, 3
    return cur, mask, -1, 0


@njit(**JIT)
def solve_many(curs, masks_in, plies, weak, work, tt, out_scores, out_nodes):
    """Solve a batch of live positions in order, sharing the table (benchmarks, filter);
    stops early once ``work[S_STOP]`` is set: the position being searched then and the rest
    are left unsolved (their ``out_scores`` and ``out_nodes`` slots untouched)."""
    for i in range(curs.shape[0]):
        if work[S_STOP]:
            return
        before = work[S_NODES]
        score = solve_kernel(curs[i], masks_in[i], plies[i], weak, work, tt)
        if work[S_STOP]:
            return
        out_scores[i] = score
        out_nodes[i] = np.int64(work[S_NODES] - before)


@njit(**JIT)
def table_move(cur, mask, ply, work, tt):
    """The best move the table holds for a position: the internal column with gravity, else
    the internal bit; -1 when it holds none."""
    w = np.uint64(work.ctypes.data)
    work[G_TTADDR] = np.uint64(tt.ctypes.data)
    key, sym = position_key(cur, mask, ply, w)
    e = tt_get(w, key)
    if e >> 16 == 0:
        return -1
    stored = (e >> 16) - 1
    if ld(w, G_GRAV) != _ZERO:
        return _move_id(stored * (gi(w, G_H) + 1), sym, w)
    return _move_id(stored, sym, w)
