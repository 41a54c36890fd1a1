"""Boards kept as line counts: the board of the proof searches (df-pn, threat-space search).

Any m,n,k board, free or with gravity, of any size (no 64-bit limit): a board of ``N`` cells
numbered as everywhere in fastttt (``cell = row * cols + col``, row 0 at the top) and its
``L`` lines of ``k`` cells (rows, columns, both diagonals). For each line and player the
board keeps the player's stones on it, and from them, for each cell and player ``p``::

    wc[p][c]  lines that a stone of p on c would complete: k-1 stones of p, none of the
              opponent, c the empty cell ("c is a winning cell of p")
    tc[p][c]  lines of p with exactly two empty cells, one of them c: k-2 stones of p, none of
              the opponent (a stone of p on c makes a winning cell: a "four" when k = 5)

A move updates the lines through its cell only (at most 4k of them). Everything lives in one
int32 array ``B`` (geometry, then state) and one uint64 array ``Z`` (Zobrist keys and the
position's hashes), built by :class:`fastttt.search.lineboard.LineBoard`::

    B:  header (HEADER slots: sizes, counters such as each player's winning cells, completed
        lines and open lines, and the offsets of the sections below)
        line_first[L] line_step[L]        a line's cells: first + t * step, t < k
        line_cells[L * k]                  the same cells, listed
        cl_start[N + 1] cl_lines[...]      lines through each cell (CSR)
        board[N]                           0 empty, 1 first player (X), 2 second player (O)
        cnt[2 * L]                         stones of player p on line l at p * L + l
        wc[2 * N]  tc[2 * N]               as above, at p * N + c
        height[cols]                       stones in each column (gravity)
        scratch[...]                       work space of the threat kernels (4N + L slots: [3N,
                                           4N) holds df-pn's relevance zone or the greedy
                                           pairing's pairs; then the pairing search's stack)
    Z:  hashes[8]                          the position's Zobrist hash under each symmetry
        keys[nsym * N * 2]                 key of (symmetry s, cell c, player p)

The hash under symmetry ``s`` is the plain Zobrist hash of the board mapped by ``s``; the
canonical key (:func:`canonical_key`) is their minimum, xor a tag that names the question
asked, so symmetric positions share transposition-table entries. Kernels here validate
nothing (the wrapper builds consistent arrays); :func:`recount` rebuilds every derived
counter from ``board``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fastttt.config import INLINE_JIT, JIT

# header slots
H_CELLS, H_LINES, H_K, H_ROWS, H_COLS, H_GRAV, H_NSYM, H_PLY, H_EMPTY = range(9)
H_NWIN = 9  # 2 slots: distinct winning cells of each player (gravity: reachable or not)
H_NFULL = 11  # 2 slots: completed lines of each player
H_LFIRST, H_LSTEP, H_LCELLS, H_CLSTART, H_CLINES = 13, 14, 15, 16, 17
H_BOARD, H_CNT, H_WC, H_TC, H_HEIGHT, H_SCRATCH = 18, 19, 20, 21, 22, 23
H_NOPEN = 24  # 2 slots: lines with no stone of the opponent of each player ("open" lines)
HEADER = 32

# Z sections
Z_KEYS_AT = 8  # hashes occupy Z[0:8] (at most 8 symmetries)


@njit(**INLINE_JIT)
def empties2(B, line):
    """``(n, e1, e2)``: how many empty cells ``line`` has and the first two of them (-1 when
    missing)."""
    k = B[H_K]
    base = B[H_LCELLS] + line * k
    board = B[H_BOARD]
    n = 0
    e1 = -1
    e2 = -1
    for t in range(k):
        c = B[base + t]
        if B[board + c] == 0:
            if n == 0:
                e1 = c
            elif n == 1:
                e2 = c
            n += 1
    return n, e1, e2


@njit(**INLINE_JIT)
def _bump_win(B, p, c, sign):
    """wc[p][c] += sign, keeping the count of distinct winning cells of ``p``."""
    at = B[H_WC] + p * B[H_CELLS] + c
    before = B[at]
    B[at] = before + sign
    if before == 0 and sign > 0:
        B[H_NWIN + p] += 1
    elif before + sign == 0 and sign < 0:
        B[H_NWIN + p] -= 1


@njit(**INLINE_JIT)
def _line_share(B, line, sign):
    """Add (sign = +1) or take away (-1) what ``line`` contributes to wc and tc, read from the
    current board and counts."""
    k = B[H_K]
    nl = B[H_LINES]
    n = B[H_CELLS]
    a = B[B[H_CNT] + line]
    b = B[B[H_CNT] + nl + line]
    for p in range(2):
        mine = a if p == 0 else b
        theirs = b if p == 0 else a
        if theirs != 0:
            continue
        if mine == k - 1:
            m, e1, e2 = empties2(B, line)
            if m >= 1:
                _bump_win(B, p, e1, sign)
        elif mine == k - 2:
            m, e1, e2 = empties2(B, line)
            tc = B[H_TC] + p * n
            if m >= 1:
                B[tc + e1] += sign
            if m >= 2:
                B[tc + e2] += sign


@njit(**JIT)
def place(B, Z, c, p):
    """Put a stone of player ``p`` (0 first, 1 second) on the empty cell ``c``."""
    lo = B[B[H_CLSTART] + c]
    hi = B[B[H_CLSTART] + c + 1]
    cl = B[H_CLINES]
    nl = B[H_LINES]
    k = B[H_K]
    for i in range(lo, hi):
        _line_share(B, B[cl + i], -1)
    B[B[H_BOARD] + c] = p + 1
    for i in range(lo, hi):
        at = B[H_CNT] + p * nl + B[cl + i]
        B[at] += 1
        if B[at] == 1:
            B[H_NOPEN + 1 - p] -= 1
        if B[at] == k:
            B[H_NFULL + p] += 1
    for i in range(lo, hi):
        _line_share(B, B[cl + i], 1)
    B[H_PLY] += 1
    B[H_EMPTY] -= 1
    if B[H_GRAV]:
        B[B[H_HEIGHT] + c % B[H_COLS]] += 1
    n = B[H_CELLS]
    for s in range(B[H_NSYM]):
        Z[s] ^= Z[Z_KEYS_AT + (s * n + c) * 2 + p]


@njit(**JIT)
def take_back(B, Z, c, p):
    """Undo :func:`place` of a stone of ``p`` on ``c``."""
    lo = B[B[H_CLSTART] + c]
    hi = B[B[H_CLSTART] + c + 1]
    cl = B[H_CLINES]
    nl = B[H_LINES]
    k = B[H_K]
    for i in range(lo, hi):
        _line_share(B, B[cl + i], -1)
    B[B[H_BOARD] + c] = 0
    for i in range(lo, hi):
        at = B[H_CNT] + p * nl + B[cl + i]
        if B[at] == k:
            B[H_NFULL + p] -= 1
        if B[at] == 1:
            B[H_NOPEN + 1 - p] += 1
        B[at] -= 1
    for i in range(lo, hi):
        _line_share(B, B[cl + i], 1)
    B[H_PLY] -= 1
    B[H_EMPTY] += 1
    if B[H_GRAV]:
        B[B[H_HEIGHT] + c % B[H_COLS]] -= 1
    n = B[H_CELLS]
    for s in range(B[H_NSYM]):
        Z[s] ^= Z[Z_KEYS_AT + (s * n + c) * 2 + p]


@njit(**JIT)
def recount(B, Z):
    """Rebuild counts, wc, tc, the counters, column heights and hashes from ``board``."""
    n = B[H_CELLS]
    nl = B[H_LINES]
    k = B[H_K]
    board = B[H_BOARD]
    B[B[H_CNT] : B[H_CNT] + 2 * nl] = 0
    B[B[H_WC] : B[H_WC] + 2 * n] = 0
    B[B[H_TC] : B[H_TC] + 2 * n] = 0
    B[H_NWIN] = 0
    B[H_NWIN + 1] = 0
    B[H_NFULL] = 0
    B[H_NFULL + 1] = 0
    B[H_NOPEN] = 0
    B[H_NOPEN + 1] = 0
    B[B[H_HEIGHT] : B[H_HEIGHT] + B[H_COLS]] = 0
    ply = 0
    for s in range(B[H_NSYM]):
        Z[s] = 0
    for c in range(n):
        v = B[board + c]
        if v != 0:
            ply += 1
            if B[H_GRAV]:
                B[B[H_HEIGHT] + c % B[H_COLS]] += 1
            for s in range(B[H_NSYM]):
                Z[s] ^= Z[Z_KEYS_AT + (s * n + c) * 2 + v - 1]
    for line in range(nl):
        base = B[H_LCELLS] + line * k
        for t in range(k):
            v = B[board + B[base + t]]
            if v != 0:
                B[B[H_CNT] + (v - 1) * nl + line] += 1
        for p in range(2):
            if B[B[H_CNT] + p * nl + line] == k:
                B[H_NFULL + p] += 1
            if B[B[H_CNT] + (1 - p) * nl + line] == 0:
                B[H_NOPEN + p] += 1
        _line_share(B, line, 1)
    B[H_PLY] = ply
    B[H_EMPTY] = n - ply


@njit(**INLINE_JIT)
def canonical_key(B, Z, tag):
    """The position's key: the least hash over the board's symmetries, xor ``tag`` (never 0)."""
    key = Z[0]
    for s in range(1, B[H_NSYM]):
        if Z[s] < key:
            key = Z[s]
    key ^= tag
    if key == 0:
        key = np.uint64(1)
    return key


@njit(**INLINE_JIT)
def child_key(B, Z, tag, c, p):
    """:func:`canonical_key` of the position after a stone of ``p`` on ``c`` (not played)."""
    n = B[H_CELLS]
    key = Z[0] ^ Z[Z_KEYS_AT + c * 2 + p]
    for s in range(1, B[H_NSYM]):
        h = Z[s] ^ Z[Z_KEYS_AT + (s * n + c) * 2 + p]
        if h < key:
            key = h
    key ^= tag
    if key == 0:
        key = np.uint64(1)
    return key


@njit(**INLINE_JIT)
def is_playable(B, c):
    """True when the side to move may put a stone on ``c`` (empty; with gravity, the lowest
    empty cell of its column)."""
    board = B[H_BOARD]
    if B[board + c] != 0:
        return False
    if B[H_GRAV] == 0:
        return True
    cols = B[H_COLS]
    below = c + cols
    return below >= B[H_CELLS] or B[board + below] != 0


@njit(**JIT)
def playable_wins(B, p, out):
    """The winning cells of ``p`` that ``p`` could take now (all of them on free boards, the
    lowest empty cell of a column with gravity), into ``out`` (at most 2 listed: callers only
    tell none, one and several apart); returns how many there are, capped at 2."""
    if B[H_NWIN + p] == 0:
        return 0
    n = B[H_CELLS]
    wc = B[H_WC] + p * n
    found = 0
    if B[H_GRAV]:
        cols = B[H_COLS]
        rows = B[H_ROWS]
        height = B[H_HEIGHT]
        for col in range(cols):
            h = B[height + col]
            if h < rows:
                c = (rows - 1 - h) * cols + col
                if B[wc + c] > 0:
                    out[found] = c
                    found += 1
                    if found == 2:
                        return 2
        return found
    for c in range(n):
        if B[wc + c] > 0:
            out[found] = c
            found += 1
            if found == 2:
                return 2
    return found


@njit(**JIT)
def has_won(B, p):
    """True when ``p`` has completed a line."""
    return B[H_NFULL + p] > 0
