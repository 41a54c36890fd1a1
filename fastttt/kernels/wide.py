"""Negamax alpha-beta kernels for boards of any size (more than 64 cells), free or gravity.

The 64-bit kernels (:mod:`fastttt.kernels.negamax`) find lines with shifts of one padded
bitboard; here a position is kept as per-line counters, updated move by move (make and unmake),
so that the cost of a move is the number of lines through its cell (at most ``4 k``), whatever
the size of the board. Cells are the :mod:`fastttt.games.mnk.spec` numbering (``row * cols + col``,
row 0 on top); no padding is needed. The same score convention as the 64-bit kernels (see
:mod:`fastttt.values`): from the side to move, 0 draw, a win ``base - s`` with ``s`` the
winner's stones when it completes its line, a loss the negative of the opponent's win score.

State, one uint64 work array (built by :class:`fastttt.search.alphabeta.WideSearcher`), offsets of
its
parts held in its header (``H_*`` fields)::

    line state  per line: (X stones) | (O stones) << 16 | (sum of its occupied cells) << 32
                a line with one empty cell left names it: line total - occupied sum
    board       per cell: 0 empty, 1 X, 2 O
    wincount    per player and cell: lines of that player's k - 1 stones (no opponent stone)
                whose only empty cell this is (the player completes a line there)
    winbits     per player: multi-word bitboard (bit c of word c // 64) of cells with
                wincount > 0, and nwin, their number
    top         per column (gravity): the cell a stone dropped there lands on (the lowest
                empty one), negative when the column is full
    hash        Zobrist key of the position: XOR of zobrist[player * cells + cell] over stones

Transposition table: a uint64 array of ``2**bits`` entries of two words (16 bytes): the full
64-bit Zobrist key, then ``(move + 1) << 32 | ply << 13 | lower << 12 | (score + 2048)`` (0 =
empty; ``move`` the cell that cut off or raised alpha, tried first when the position comes
back, before its other moves are even listed: 5 x 5 k = 4 from the empty board 18% faster);
buckets of two entries (32 bytes), indexed by the key's top bits; a probe accepts an entry only
when the stored key equals the whole 64-bit key, and its move only when it is legal and not
losing at once there. Slot 0 keeps the entry nearest the root, slot 1 the latest other (the
64-bit table keeps the entry with the most work there). Scores stay within +-2047
(:data:`MAX_CELLS` cells).

Move order: the table's move, then more new threats first (:func:`_order_score`), then
centre first; only moves that do not lose at once (a forced block; with gravity never under an
opponent's winning cell), as the 64-bit kernels.

Layout choice: per-line counters rather than multi-word bitboards with shifts. Finding the
winning cells of a side with shifts costs ``O(words * k)`` word operations per direction, and
the move ordering needs it for every candidate move (361 on 19 x 19, 6 words); with counters a
move costs the lines through one cell (at most ``4 k``, 20 for k = 5) whatever the board, the
winning cells are kept as they change, and the threat count of a move reads those lines once.

The recursive kernel receives scalars and the work array's ADDRESS (see
:mod:`fastttt.kernels.negamax` for why), and reads the stop word ``S_STOP`` (same slot as the
64-bit work array) after every child; a node budget (``S_LIMIT``) sets that word itself (to
``STOP_NODES``) when the count passes it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fastttt.config import JIT
from fastttt.kernels.negamax import ld, lowbit_index, prefetch, st

# header fields (int64 values in the uint64 work array)
H_CELLS, H_K, H_GRAV, H_BASE, H_ROWS, H_COLS, H_NLINES, H_WORDS = range(8)
H_TTBITS, H_TTADDR, H_NORDER, H_POTENTIAL = 8, 9, 10, 27
# offsets of the parts
O_CLSTART, O_CLLINES, O_LTOT, O_LSTATE, O_BOARD, O_WINCNT, O_WINBITS, O_NWIN = range(11, 19)
O_TOP, O_ORDER, O_ZOB, O_MBUF = 19, 24, 25, 26  # 20-23: the S_* words
# counters and words shared with the 64-bit work array's slots
S_NODES, S_STOP, S_LIMIT, S_HASH = 20, 21, 22, 23
HEADER = 32
STOP_NODES = 2  # S_STOP value written when the node budget ran out
SCORE_OFFSET = 2048  # table scores are stored as score + 2048 in 12 bits
MAX_CELLS = 4000  # scores within +-2047, counts within 16 bits, line sums within 32
NO_LIMIT = (1 << 63) - 1

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_CNT = np.uint64(0xFFFF)
_CELL = np.uint64(0xFFFF)  # a cell (or column) in a packed move
_LOW = np.uint64(0xFFFFFFFF)  # a packed move without its score


@njit(**JIT)
def gi(w, field):
    """A signed header field of the work array at address ``w``."""
    return np.int64(ld(w, field))


@njit(**JIT)
def _flip_win(w, p, cell, delta):
    """wincount[p][cell] += delta, keeping winbits and nwin in step."""
    cells = gi(w, H_CELLS)
    at = gi(w, O_WINCNT) + p * cells + cell
    old = np.int64(ld(w, at))
    new = old + delta
    st(w, at, np.uint64(new))
    if old == 0 or new == 0:
        word = gi(w, O_WINBITS) + p * gi(w, H_WORDS) + (cell >> 6)
        st(w, word, ld(w, word) ^ (_ONE << np.uint64(cell & 63)))
        nw = gi(w, O_NWIN) + p
        if new == 0:
            st(w, nw, ld(w, nw) - _ONE)
        else:
            st(w, nw, ld(w, nw) + _ONE)


@njit(**JIT)
def is_win_cell(w, p, cell):
    """True when player ``p`` completes a line by playing the empty ``cell``."""
    word = ld(w, gi(w, O_WINBITS) + p * gi(w, H_WORDS) + (cell >> 6))
    return (word >> np.uint64(cell & 63)) & _ONE != _ZERO


@njit(**JIT)
def make(w, cell, q):
    """Player ``q`` (0 X, 1 O) plays the empty ``cell``: lines, threats, board, hash (the
    caller keeps ``top`` with gravity)."""
    k = gi(w, H_K)
    shift = np.uint64(16 * q)
    inc = (_ONE << shift) + (np.uint64(cell) << np.uint64(32))
    ltot = gi(w, O_LTOT)
    lstate = gi(w, O_LSTATE)
    cll = gi(w, O_CLLINES)
    for j in range(gi(w, gi(w, O_CLSTART) + cell), gi(w, gi(w, O_CLSTART) + cell + 1)):
        line = np.int64(ld(w, cll + j))
        e = ld(w, lstate + line)
        a = np.int64((e >> shift) & _CNT)
        b = np.int64((e >> (np.uint64(16) - shift)) & _CNT)
        e += inc
        st(w, lstate + line, e)
        if b == 0:
            if a == k - 2:  # q now has k - 1 here: the last empty cell completes it
                _flip_win(w, q, np.int64(ld(w, ltot + line) - (e >> np.uint64(32))), 1)
            elif a == k - 1:  # q completes this line (never inside the search)
                _flip_win(w, q, cell, -1)
        elif a == 0 and b == k - 1:  # the opponent's threat through this cell is blocked
            _flip_win(w, 1 - q, cell, -1)
    st(w, gi(w, O_BOARD) + cell, np.uint64(q + 1))
    st(w, S_HASH, ld(w, S_HASH) ^ ld(w, gi(w, O_ZOB) + q * gi(w, H_CELLS) + cell))


@njit(**JIT)
def unmake(w, cell, q):
    """Undo :func:`make` of ``cell`` by player ``q`` (the last move made)."""
    k = gi(w, H_K)
    shift = np.uint64(16 * q)
    inc = (_ONE << shift) + (np.uint64(cell) << np.uint64(32))
    ltot = gi(w, O_LTOT)
    lstate = gi(w, O_LSTATE)
    cll = gi(w, O_CLLINES)
    st(w, gi(w, O_BOARD) + cell, _ZERO)
    for j in range(gi(w, gi(w, O_CLSTART) + cell), gi(w, gi(w, O_CLSTART) + cell + 1)):
        line = np.int64(ld(w, cll + j))
        e = ld(w, lstate + line)
        a = np.int64((e >> shift) & _CNT) - 1  # q's stones before the move
        b = np.int64((e >> (np.uint64(16) - shift)) & _CNT)
        if b == 0:
            if a == k - 2:
                _flip_win(w, q, np.int64(ld(w, ltot + line) - (e >> np.uint64(32))), -1)
            elif a == k - 1:
                _flip_win(w, q, cell, 1)
        elif a == 0 and b == k - 1:
            _flip_win(w, 1 - q, cell, 1)
        st(w, lstate + line, e - inc)
    st(w, S_HASH, ld(w, S_HASH) ^ ld(w, gi(w, O_ZOB) + q * gi(w, H_CELLS) + cell))


@njit(**JIT)
def _order_score(w, cell, q):
    """Ordering score of ``q`` playing ``cell`` (larger first). Primary: lines that would then
    need only one more stone of ``q``, whose last cell is not a winning cell of ``q`` already
    (the 64-bit kernels count ``q``'s winning cells after the move: the same up to a constant
    but for two new lines sharing their last cell). With ``H_POTENTIAL`` set, then: the sum
    over the lines through ``cell`` of (own stones + 1)**2 where the opponent has none and
    (opponent's stones)**2 where ``q`` has none (free boards over 64 cells: 9 x 9 k = 4 from
    the empty board in 1.7 M nodes instead of 4.3 M; on Connect Four and boards of 25 cells or
    fewer centre-first alone searched fewer nodes, so it is off there)."""
    k = gi(w, H_K)
    shift = np.uint64(16 * q)
    ltot = gi(w, O_LTOT)
    lstate = gi(w, O_LSTATE)
    cll = gi(w, O_CLLINES)
    potential = ld(w, H_POTENTIAL) != _ZERO
    n = 0
    pot = 0
    for j in range(gi(w, gi(w, O_CLSTART) + cell), gi(w, gi(w, O_CLSTART) + cell + 1)):
        line = np.int64(ld(w, cll + j))
        e = ld(w, lstate + line)
        a = np.int64((e >> shift) & _CNT)
        b = np.int64((e >> (np.uint64(16) - shift)) & _CNT)
        if b == 0:
            pot += (a + 1) * (a + 1)
            if a == k - 2:
                last = np.int64(ld(w, ltot + line) - (e >> np.uint64(32))) - cell
                if not is_win_cell(w, q, last):
                    n += 1
        elif a == 0:
            pot += b * b
    if not potential:
        return n << 20
    return (n << 20) + min(pot, (1 << 20) - 1)


@njit(**JIT)
def _tt_index(w, key):
    bits = ld(w, H_TTBITS) - _ONE
    return np.int64((key * _GOLDEN) >> (np.uint64(64) - bits)) * 4


@njit(**JIT)
def tt_get(w, key):
    """Stored payload for ``key`` (``move + 1 << 32 | ply << 13 | lower << 12 | score +
    2048``, move 0 = none), or 0."""
    table = ld(w, H_TTADDR)
    idx = _tt_index(w, key)
    if ld(table, idx) == key:
        e = ld(table, idx + 1)
        if e != _ZERO:
            return np.int64(e)
    if ld(table, idx + 2) == key:
        return np.int64(ld(table, idx + 3))
    return np.int64(0)


@njit(**JIT)
def tt_put(w, key, score, lower, ply, move):
    """Store a bound on the score of ``key`` (``lower``: 1 lower bound, 0 upper bound) found
    with ``ply`` stones, and the cell of the move to try first there (-1: none)."""
    table = ld(w, H_TTADDR)
    idx = _tt_index(w, key)
    data = np.uint64((move + 1) << 32 | ply * 8192 + lower * 4096 + score + SCORE_OFFSET)
    k0 = ld(table, idx)
    d0 = ld(table, idx + 1)
    if d0 == _ZERO or k0 == key:
        st(table, idx, key)
        st(table, idx + 1, data)
    elif np.int64((d0 >> np.uint64(13)) & np.uint64(0x7FFFF)) >= ply:
        st(table, idx + 2, k0)
        st(table, idx + 3, d0)
        st(table, idx, key)
        st(table, idx + 1, data)
    else:
        st(table, idx + 2, key)
        st(table, idx + 3, data)


@njit(**JIT)
def negamax(ply, alpha, beta, w):
    """Negamax with alpha-beta of the position held in the work array at address ``w``, with
    ``ply`` stones (X moves when ``ply`` is even), where the side to move cannot win with its
    next stone. Same rules and return contract as :func:`fastttt.kernels.negamax.negamax`:
    ``v <= alpha`` implies true score ``<= v``, ``v >= beta`` implies ``>= v``, else exact.
    Counts one node per call; once ``S_STOP`` is set (Ctrl-C, a time budget, or the node
    budget ``S_LIMIT`` passed here) returns 0 up the tree and stores nothing. Leaves the
    position as it found it."""
    nodes = ld(w, S_NODES) + _ONE
    st(w, S_NODES, nodes)
    if nodes > ld(w, S_LIMIT):
        st(w, S_STOP, np.uint64(STOP_NODES))
        return 0
    me = ply & 1
    opp = 1 - me
    base = gi(w, H_BASE)
    cells = gi(w, H_CELLS)
    cols = gi(w, H_COLS)
    gravity = ld(w, H_GRAV) != _ZERO
    loss = -(base - ((ply + 1) // 2 + 1))
    n_order = gi(w, H_NORDER)
    order = gi(w, O_ORDER)
    moves = gi(w, O_MBUF) + ply * n_order  # this ply's moves: score << 32 | col << 16 | cell
    # the moves that do not lose at once, in static order (centre first)
    n = 0
    if gravity:
        top = gi(w, O_TOP)
        forced = -1
        for i in range(n_order):
            c = gi(w, order + i)
            cell = gi(w, top + c)
            if cell < 0:
                continue
            if is_win_cell(w, opp, cell):
                if forced >= 0:
                    return loss  # two threats to block
                forced = c
            if cell >= cols and is_win_cell(w, opp, cell - cols):
                continue  # a stone here lets the opponent complete the cell above
            st(w, moves + n, np.uint64(c << 16 | cell))
            n += 1
        if forced >= 0:
            cell = gi(w, top + forced)
            if cell >= cols and is_win_cell(w, opp, cell - cols):
                return loss
            st(w, moves, np.uint64(forced << 16 | cell))
            n = 1
        if n == 0:
            return loss
    else:  # free boards list their moves after the table's move has been tried
        forced = -1
        n_win = gi(w, gi(w, O_NWIN) + opp)
        if n_win >= 2:
            return loss
        if n_win == 1:
            bits = gi(w, O_WINBITS) + opp * gi(w, H_WORDS)
            i = 0
            while ld(w, bits + i) == _ZERO:
                i += 1
            forced = i * 64 + np.int64(lowbit_index(ld(w, bits + i)))
    if ply >= cells - 2:
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
    key = ld(w, S_HASH)
    e = tt_get(w, key)
    first = -1  # the move the table remembers: tried before the others are even listed
    if e != 0:
        v = (e & 4095) - SCORE_OFFSET
        if e & 4096:
            if alpha < v:
                alpha = v
                if alpha >= beta:
                    return alpha
        elif beta > v:
            beta = v
            if alpha >= beta:
                return beta
        first = np.int64((e >> 32) & 0xFFFF) - 1
    best = -1
    board = gi(w, O_BOARD)
    if first >= 0:  # check it is one of this node's moves (a 64-bit key may collide)
        ok = False
        if gravity:
            for i in range(n):
                if np.int64(ld(w, moves + i) & _CELL) == first:
                    ok = True
        else:
            ok = first < cells and ld(w, board + first) == _ZERO and (forced < 0 or first == forced)
        if not ok:
            first = -1
    zob = gi(w, O_ZOB) + me * cells
    table = ld(w, H_TTADDR)
    m = 0
    i = -1 if first >= 0 else 0  # -1: the table's move, before the list is made
    while True:
        if i == 0:  # list the other moves: more new threats first (ties keep the static
            # order); prefetch the children's table buckets meanwhile
            if not gravity:
                if forced >= 0:
                    st(w, moves, np.uint64(forced))
                    n = 1
                else:
                    for j in range(n_order):
                        cell = gi(w, order + j)
                        if ld(w, board + cell) == _ZERO:
                            st(w, moves + n, np.uint64(cell))
                            n += 1
            for j in range(n):
                mv = ld(w, moves + j)
                cell = np.int64(mv & _CELL)
                if cell == first:
                    continue
                prefetch(table + np.uint64(_tt_index(w, key ^ ld(w, zob + cell)) * 8))
                sc = _ZERO if n == 1 else np.uint64(_order_score(w, cell, me))
                t = m
                while t > 0 and (ld(w, moves + t - 1) >> np.uint64(32)) < sc:
                    st(w, moves + t, ld(w, moves + t - 1))
                    t -= 1
                st(w, moves + t, (mv & _LOW) | sc << np.uint64(32))
                m += 1
        if i >= m:
            break
        if i < 0:
            cell = first
            col = first % cols
        else:
            mv = ld(w, moves + i)
            cell = np.int64(mv & _CELL)
            col = np.int64((mv >> np.uint64(16)) & _CELL)
        make(w, cell, me)
        if gravity:
            at = gi(w, O_TOP) + col
            st(w, at, np.uint64(cell - cols))
            v = -negamax(ply + 1, -beta, -alpha, w)
            st(w, at, np.uint64(cell))
        else:
            v = -negamax(ply + 1, -beta, -alpha, w)
        unmake(w, cell, me)
        if ld(w, S_STOP) != _ZERO:
            return 0  # stopped: v may be wrong, store nothing
        if v >= beta:
            tt_put(w, key, v, 1, ply, cell)
            return v
        if v > alpha:
            alpha = v
            best = cell
        elif i < 0:
            best = cell
        i += 1
    tt_put(w, key, alpha, 0, ply, best)
    return alpha


@njit(**JIT)
def _half(x):
    """x / 2 truncated toward zero (as C++ integer division)."""
    if x >= 0:
        return x // 2
    return -((-x) // 2)


@njit(**JIT)
def load_position(work, stones, start, end):
    """Empty the state of ``work``, then play ``stones[start:end]`` (cells, X's and O's
    alternately from X: ``stones[start + i]`` by player ``i % 2``). Returns the ply."""
    w = np.uint64(work.ctypes.data)
    cells = gi(w, H_CELLS)
    words = gi(w, H_WORDS)
    work[gi(w, O_LSTATE) : gi(w, O_LSTATE) + gi(w, H_NLINES)] = 0
    work[gi(w, O_BOARD) : gi(w, O_BOARD) + cells] = 0
    work[gi(w, O_WINCNT) : gi(w, O_WINCNT) + 2 * cells] = 0
    work[gi(w, O_WINBITS) : gi(w, O_WINBITS) + 2 * words] = 0
    work[gi(w, O_NWIN) : gi(w, O_NWIN) + 2] = 0
    work[S_HASH] = 0
    for i in range(end - start):
        make(w, stones[start + i], i & 1)
    if ld(w, H_GRAV) != _ZERO:
        cols = gi(w, H_COLS)
        board = gi(w, O_BOARD)
        for c in range(cols):
            cell = (gi(w, H_ROWS) - 1) * cols + c
            while cell >= 0 and ld(w, board + cell) != _ZERO:
                cell -= cols
            work[gi(w, O_TOP) + c] = np.uint64(cell)
    return end - start


@njit(**JIT)
def table_move(work, tt, stones, start, end):
    """The cell of the move the table holds for the position ``stones[start:end]`` (see
    :func:`load_position`): the move to try first there, proven by nothing; -1 when none."""
    w = np.uint64(work.ctypes.data)
    work[H_TTADDR] = np.uint64(tt.ctypes.data)
    load_position(work, stones, start, end)
    return np.int64((tt_get(w, ld(w, S_HASH)) >> 32) & 0xFFFF) - 1


@njit(**JIT)
def solve_kernel(work, tt, stones, start, end, weak):
    """Exact score (side to move) of the live position whose stones are ``stones[start:end]``
    (X's and O's alternately, see :func:`load_position`); with ``weak`` only its sign.
    Iterated null-window searches, as :func:`fastttt.kernels.negamax.solve_kernel` (the kernel
    behind :meth:`fastttt.search.alphabeta.WideSearcher.solve`). Returns a meaningless 0 once
    ``work[S_STOP]`` is set."""
    w = np.uint64(work.ctypes.data)
    work[H_TTADDR] = np.uint64(tt.ctypes.data)
    ply = load_position(work, stones, start, end)
    me = ply & 1
    base = gi(w, H_BASE)
    wins = False
    if ld(w, H_GRAV) != _ZERO:
        for c in range(gi(w, H_COLS)):
            cell = gi(w, gi(w, O_TOP) + c)
            if cell >= 0 and is_win_cell(w, me, cell):
                wins = True
    else:
        wins = gi(w, gi(w, O_NWIN) + me) > 0
    if wins:
        return 1 if weak else base - (ply // 2 + 1)
    if weak:
        lo, hi = -1, 1
    else:
        lo = -(base - ((ply + 1) // 2 + 1))
        hi = base - (ply // 2 + 2)
    while lo < hi:
        med = lo + (hi - lo) // 2
        if med <= 0 and _half(lo) < med:
            med = _half(lo)
        elif med >= 0 and _half(hi) > med:
            med = _half(hi)
        r = negamax(ply, med, med + 1, w)
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
def solve_many(work, tt, stones, starts, weak, out_scores, out_nodes):
    """Solve the live positions ``stones[starts[i]:starts[i + 1]]`` in order, sharing the
    table (benchmarks); stops early, the rest unsolved, once ``work[S_STOP]`` is set."""
    for i in range(starts.shape[0] - 1):
        if work[S_STOP]:
            return
        before = work[S_NODES]
        out_scores[i] = solve_kernel(work, tt, stones, starts[i], starts[i + 1], weak)
        out_nodes[i] = np.int64(work[S_NODES] - before)
