"""Numba kernels of Ultimate tic-tac-toe: rules, random playouts, evaluation, searches.

The public API is :mod:`fastttt.ultimate`; these functions take plain arrays and never raise.

State layout: one int32 array of ``NS`` slots (a search keeps a stack of them, one row a ply)::

    slot  0..8   X local boards: bit c set when X holds cell c of board b (slot b)
    slot  9..17  O local boards (slot 9 + b)
    slot 18      X frame: bit b set when X has claimed board b
    slot 19      O frame
    slot 20      closed: bit b set when no move is left in board b
                 (standard: won or full; variant "open won boards": full)
    slot 21      forced board 0..8, or -1 when any open board may be played
    slot 22      side to move: 0 = X (crosses, moves first), 1 = O (circles)
    slot 23      ply (moves played)
    slot 24      result: 0 ongoing, 1 X won, 2 O won, 3 draw
    slot 25      variant: 0 standard, 1 play goes on in won boards until they are full

Boards in the frame and cells in a board are both numbered row by row::

    0 1 2        move = board * 9 + cell  (0..80); the cell played is the board
    3 4 5        the opponent is sent to (free choice when that board is closed)
    6 7 8

Scores (engine, :mod:`fastttt.search.ultimate.engine`) are from the side to move: 0 draw,
``MATE - n`` a win in n plies from the search root, ``-(MATE - n)`` a loss in n plies;
heuristic evaluations stay below ``MATE_BOUND`` in absolute value.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fastttt.config import JIT
from fastttt.kernels.stop import is_stopped

NS = 26
FX, FO, CLOSED, FORCED, SIDE, PLY, RESULT, VARIANT = 18, 19, 20, 21, 22, 23, 24, 25
ONGOING, X_WON, O_WON, DRAWN = 0, 1, 2, 3
FULL = 511
MAXPLY = 82

# Numeric copies of fastttt.values.MATE and MATE_BOUND, where the convention is defined
# (kernels import only config and bits); tests/test_values.py checks that they agree.
MATE = 100_000
MATE_BOUND = MATE - 200
INF = 1_000_000

TT_EXACT, TT_LOWER, TT_UPPER = 1, 2, 3

# ctl slots of the search control array (int64)
C_NODES, C_LIMIT, C_ABORTED, C_PRUNE, C_DELTA, C_STOP, C_HORIZON, C_BEST, C_LOOK = range(9)
NCTL = 9

LINES = (0o7, 0o70, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124)


def _tables():
    win = np.zeros(512, dtype=np.uint8)
    pop = np.zeros(512, dtype=np.uint8)
    sel = np.zeros(512 * 9, dtype=np.int8)
    for m in range(512):
        win[m] = any(m & line == line for line in LINES)
        bits = [c for c in range(9) if m >> c & 1]
        pop[m] = len(bits)
        for r, c in enumerate(bits):
            sel[m * 9 + r] = c
    return win, pop, sel


WIN, POP, SEL = _tables()
# board class in the frame: 0 centre, 1 corner, 2 edge
BOARD_CLASS = np.array([1, 2, 1, 2, 0, 2, 1, 2, 1], dtype=np.int64)
CORNERS = 0b101000101


def two_table() -> np.ndarray:
    """``two[mine * 512 + theirs]``: lines holding two of ``mine`` and none of ``theirs``."""
    two = np.zeros(512 * 512, dtype=np.int8)
    lines = np.array(LINES)
    popc = np.array([bin(m).count("1") for m in range(512)])
    for mine in range(512):
        held = popc[lines & mine] == 2
        for theirs in range(512):
            if mine & theirs:
                continue
            two[mine * 512 + theirs] = int(np.sum(held & ((lines & theirs) == 0)))
    return two


def zobrist_keys(seed: int = 20261122) -> np.ndarray:
    """Random keys: [0, 162) stones (side * 81 + move), [162, 172) forced board + 1,
    172 side to move, 173 variant, [174, 192) claimed boards (side * 9 + board)."""
    rng = np.random.default_rng(seed)
    return rng.integers(1, 2**63, size=192, dtype=np.int64).astype(np.uint64)


# --- rules ------------------------------------------------------------------------------


@njit(**JIT)
def apply_move(s, m):
    """Play move ``m`` (assumed legal) in state ``s`` in place."""
    b = m // 9
    c = m - 9 * b
    p = s[SIDE]
    idx = p * 9 + b
    s[idx] |= 1 << c
    bb = 1 << b
    if (s[FX] | s[FO]) & bb == 0 and WIN[s[idx]]:
        s[FX + p] |= bb
        if s[VARIANT] == 0:
            s[CLOSED] |= bb
        if WIN[s[FX + p]]:
            s[RESULT] = 1 + p
    if (s[b] | s[9 + b]) == FULL:
        s[CLOSED] |= bb
    if s[RESULT] == ONGOING and s[CLOSED] == FULL:
        s[RESULT] = DRAWN
    if s[RESULT] != ONGOING or (s[CLOSED] >> c) & 1:
        s[FORCED] = -1
    else:
        s[FORCED] = c
    s[SIDE] = 1 - p
    s[PLY] += 1


@njit(**JIT)
def gen_moves(s, out):
    """Write the legal moves of ``s`` in increasing order into ``out``; return their count."""
    if s[RESULT] != ONGOING:
        return 0
    n = 0
    f = s[FORCED]
    for b in range(9):
        if f >= 0 and b != f:
            continue
        if (s[CLOSED] >> b) & 1:
            continue
        empty = ~(s[b] | s[9 + b]) & FULL
        for c in range(9):
            if (empty >> c) & 1:
                out[n] = b * 9 + c
                n += 1
    return n


@njit(**JIT)
def remaining_plies(s):
    """Upper bound on the plies left: empty cells of open boards (0 when the game is over)."""
    if s[RESULT] != ONGOING:
        return 0
    n = 0
    for b in range(9):
        if not (s[CLOSED] >> b) & 1:
            n += POP[~(s[b] | s[9 + b]) & FULL]
    return n


# --- random playouts -------------------------------------------------------------------


def rng_state(seed: int) -> np.ndarray:
    """A xorshift state (uint64 array of one non-zero slot) mixed from any integer seed."""
    z = (int(seed) + 0x9E3779B97F4A7C15) % 2**64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
    z ^= z >> 31
    return np.array([z or 1], dtype=np.uint64)


@njit(**JIT)
def _next(rng):
    """xorshift64* step on ``rng[0]`` (a uint64 array of one slot); returns 32 random bits."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return (x * np.uint64(2685821657736338717)) >> np.uint64(32)


@njit(**JIT)
def _below(rng, n):
    """Uniform integer in [0, n) (n < 2**31) by multiply-shift."""
    return np.int64((_next(rng) * np.uint64(n)) >> np.uint64(32))


@njit(**JIT)
def random_move(s, rng):
    """A uniformly random legal move of the ongoing state ``s``."""
    f = s[FORCED]
    if f >= 0:
        empty = ~(s[f] | s[9 + f]) & FULL
        return f * 9 + SEL[empty * 9 + _below(rng, POP[empty])]
    closed = s[CLOSED]
    total = 0
    for b in range(9):
        if not (closed >> b) & 1:
            total += POP[~(s[b] | s[9 + b]) & FULL]
    r = _below(rng, total)
    for b in range(9):
        if not (closed >> b) & 1:
            empty = ~(s[b] | s[9 + b]) & FULL
            k = POP[empty]
            if r < k:
                return b * 9 + SEL[empty * 9 + r]
            r -= k
    return -1


@njit(**JIT)
def playout(s, rng):
    """Play uniformly random moves in ``s`` (in place) to the end; return the moves played."""
    n = 0
    while s[RESULT] == ONGOING:
        apply_move(s, random_move(s, rng))
        n += 1
    return n


@njit(**JIT)
def random_playouts(start, games, rng):
    """Play ``games`` random games from ``start``; return (X wins, O wins, draws, moves)."""
    s = start.copy()
    xw = 0
    ow = 0
    dr = 0
    moves = 0
    for _ in range(games):
        for i in range(NS):
            s[i] = start[i]
        moves += playout(s, rng)
        r = s[RESULT]
        if r == X_WON:
            xw += 1
        elif r == O_WON:
            ow += 1
        else:
            dr += 1
    return xw, ow, dr, moves


# --- evaluation ------------------------------------------------------------------------


@njit(**JIT)
def evaluate(s, coeffs, two):
    """Static evaluation from the side to move (|value| < MATE_BOUND); ``coeffs`` slots:
    0 centre board, 1 corner board, 2 edge board (claimed), 3 frame two-in-a-line open,
    4 local two-in-a-line open, 5 local centre cell, 6 local corner cell, 7 free move."""
    xf = s[FX]
    of = s[FO]
    cl = s[CLOSED]
    dead = cl & ~(xf | of)
    sx = 0
    for b in range(9):
        bb = 1 << b
        if xf & bb:
            sx += coeffs[BOARD_CLASS[b]]
        elif of & bb:
            sx -= coeffs[BOARD_CLASS[b]]
        elif not cl & bb:
            xb = s[b]
            ob = s[9 + b]
            sx += coeffs[4] * (two[xb * 512 + ob] - two[ob * 512 + xb])
            sx += coeffs[5] * (((xb >> 4) & 1) - ((ob >> 4) & 1))
            sx += coeffs[6] * (np.int64(POP[xb & CORNERS]) - np.int64(POP[ob & CORNERS]))
    sx += coeffs[3] * (two[xf * 512 + (of | dead)] - two[of * 512 + (xf | dead)])
    if s[SIDE] == 1:
        sx = -sx
    if s[FORCED] < 0:
        sx += coeffs[7]
    return sx


@njit(**JIT)
def _terminal_score(s, ply):
    """Score of a finished state for its side to move (who has lost, or drawn)."""
    if s[RESULT] == DRAWN:
        return 0
    return -MATE + ply


# --- plain minimax (the handout's depth-P player) --------------------------------------


_NO_STOP = np.zeros(1, dtype=np.uint8)  # the stop word of searches that are never stopped


@njit(**JIT)
def _minimax(ply0, depth0, stack, moves, coeffs, two, stop):
    """Plain negamax value of ``stack[ply0]`` to ``depth0`` plies (scores: module docstring);
    a meaningless 0 once ``stop[0]`` is set (checked at every inner node).

    Iterative (an explicit stack): Numba segfaults on recursive functions loaded from its
    cache (numba issue #6061). Uses rows ply0.. of ``stack`` and ``moves``.
    """
    s = stack[ply0]
    if s[RESULT] != ONGOING:
        return np.int64(_terminal_score(s, ply0))
    if depth0 <= 0:
        return np.int64(evaluate(s, coeffs, two))
    best = np.empty(depth0 + 1, dtype=np.int64)
    idx = np.zeros(depth0 + 1, dtype=np.int64)
    cnt = np.zeros(depth0 + 1, dtype=np.int64)
    k = 0
    cnt[0] = gen_moves(s, moves[ply0])
    best[0] = -INF
    while True:
        p = ply0 + k
        if idx[k] < cnt[k]:
            child = stack[p + 1]
            for i in range(NS):
                child[i] = stack[p, i]
            apply_move(child, moves[p, idx[k]])
            idx[k] += 1
            if child[RESULT] != ONGOING:
                v = -np.int64(_terminal_score(child, p + 1))
            elif depth0 - k - 1 <= 0:
                v = -np.int64(evaluate(child, coeffs, two))
            else:
                if is_stopped(stop):
                    return np.int64(0)
                k += 1
                cnt[k] = gen_moves(child, moves[p + 1])
                idx[k] = 0
                best[k] = -INF
                continue
            if v > best[k]:
                best[k] = v
        else:
            if k == 0:
                return best[0]
            v = -best[k]
            k -= 1
            if v > best[k]:
                best[k] = v


@njit(**JIT)
def minimax_root(start, depth, coeffs, two, out_moves, out_scores, stop):
    """Plain (no pruning) depth-``depth`` negamax of every root move; returns the count.

    ``out_scores[j]`` is the score of ``out_moves[j]`` for the side to move at ``start``; the
    scores are meaningless once ``stop[0]`` is set (the search then returns early).
    """
    stack = np.zeros((depth + 2, NS), dtype=np.int32)
    moves = np.zeros((depth + 2, 81), dtype=np.int32)
    for i in range(NS):
        stack[0, i] = start[i]
    n = gen_moves(stack[0], out_moves)
    for j in range(n):
        for i in range(NS):
            stack[1, i] = start[i]
        apply_move(stack[1], out_moves[j])
        out_scores[j] = -_minimax(1, depth - 1, stack, moves, coeffs, two, stop)
    return n


# --- alpha-beta with a transposition table ---------------------------------------------

# per-ply slots of the search frame (work[5], int64)
F_DEPTH, F_ALPHA, F_BETA, F_ALPHA0, F_BEST, F_BESTM, F_NEXT, F_COUNT, F_SLOT = range(9)
NFRAME = 9


@njit(**JIT)
def _to_tt(v, ply):
    if v >= MATE_BOUND:
        return v + ply
    if v <= -MATE_BOUND:
        return v - ply
    return v


@njit(**JIT)
def _from_tt(v, ply):
    if v >= MATE_BOUND:
        return v - ply
    if v <= -MATE_BOUND:
        return v + ply
    return v


@njit(**JIT)
def _enter(ply, tt, work, ctx):
    """Open the node at ``ply``: returns (True, value) for a leaf or a table cutoff, else
    (False, 0) with its moves generated, ordered keys written and its frame set up."""
    tt_key, tt_score, tt_depth, tt_flag, tt_move = tt
    stack, hashes, moves, keys, history, fr = work
    ctl, coeffs, two, zob = ctx
    ctl[C_NODES] += 1
    if ctl[C_NODES] > ctl[C_LIMIT]:
        ctl[C_ABORTED] = 1
        return True, np.int64(0)
    s = stack[ply]
    if s[RESULT] != ONGOING:
        return True, np.int64(_terminal_score(s, ply))
    depth = fr[ply, F_DEPTH]
    if depth <= 0:
        ctl[C_HORIZON] += 1
        return True, np.int64(evaluate(s, coeffs, two))
    alpha = fr[ply, F_ALPHA]
    beta = fr[ply, F_BETA]
    h = hashes[ply]
    slot = np.int64(h & np.uint64(tt_key.shape[0] - 1))
    ttm = -1
    if tt_key[slot] == h:
        ttm = tt_move[slot]
        if ply > 0 and tt_depth[slot] >= depth:
            v = _from_tt(np.int64(tt_score[slot]), ply)
            f = tt_flag[slot]
            if f == TT_EXACT or (f == TT_LOWER and v >= beta) or (f == TT_UPPER and v <= alpha):
                return True, v
    side = s[SIDE]
    mv = moves[ply]
    ky = keys[ply]
    n = gen_moves(s, mv)
    for j in range(n):
        m = mv[j]
        if m == ttm:
            ky[j] = INF
        else:
            ky[j] = history[side * 81 + m]
    if ctl[C_PRUNE]:
        best_e = np.int64(-INF)
        child = stack[ply + 1]
        for j in range(n):
            for i in range(NS):
                child[i] = s[i]
            apply_move(child, mv[j])
            e = -_minimax(ply + 1, ctl[C_LOOK] - 1, stack, moves, coeffs, two, _NO_STOP)
            keys[ply + 1, j] = e
            if e > best_e:
                best_e = e
        kept = 0
        for j in range(n):
            e = keys[ply + 1, j]
            if e > best_e - ctl[C_DELTA] and e > -ctl[C_STOP]:
                kept += 1
                ky[j] = ky[j] // 2 + e  # order kept moves by their value first
            else:
                ky[j] = -INF
        if kept == 0:
            return True, np.int64(-MATE + ply + 1)  # every move hopeless: lost (handout's -1)
    fr[ply, F_ALPHA0] = alpha
    fr[ply, F_BEST] = -INF
    fr[ply, F_BESTM] = -1
    fr[ply, F_NEXT] = 0
    fr[ply, F_COUNT] = n
    fr[ply, F_SLOT] = slot
    return False, np.int64(0)


@njit(**JIT)
def _finish(ply, tt, work, ctx):
    """Close the node at ``ply``: store it in the table; return its value."""
    tt_key, tt_score, tt_depth, tt_flag, tt_move = tt
    hashes = work[1]
    fr = work[5]
    best = fr[ply, F_BEST]
    bestm = fr[ply, F_BESTM]
    depth = fr[ply, F_DEPTH]
    if ply == 0:
        ctx[0][C_BEST] = bestm
    if best <= fr[ply, F_ALPHA0]:
        flag = TT_UPPER
    elif best >= fr[ply, F_BETA]:
        flag = TT_LOWER
    else:
        flag = TT_EXACT
    slot = fr[ply, F_SLOT]
    h = hashes[ply]
    if tt_key[slot] != h or depth >= tt_depth[slot]:
        tt_key[slot] = h
        tt_score[slot] = _to_tt(best, ply)
        tt_depth[slot] = depth
        tt_flag[slot] = flag
        tt_move[slot] = bestm
    return best


@njit(**JIT)
def negamax(depth, alpha, beta, tt, work, ctx):
    """Fail-soft negamax alpha-beta of ``work[0][0]`` (hash in ``work[1][0]``) to ``depth``.

    Contract: returns v with v <= alpha meaning the true score is <= v (upper bound),
    v >= beta a lower bound, else the exact depth-limited score (side to move; see module).
    Mate scores are exact proofs. ``tt`` = (keys, scores, depths, flags, moves), ``work`` =
    (stack, hashes, moves, keys, history, frame), ``ctx`` = (ctl, coeffs, two, zobrist). Sets
    ``ctl[C_ABORTED]`` and returns 0, storing nothing more, when the node budget
    ``ctl[C_LIMIT]`` runs out (Ctrl-C sets it to -1, :mod:`fastttt.interrupt`); stores
    the best root move in ``ctl[C_BEST]``. With ``ctl[C_PRUNE]`` the handout's heuristic
    pruning keeps only moves whose value (a plain ``ctl[C_LOOK]``-ply minimax, 1 = static
    evaluation of the child) is less than ``ctl[C_DELTA]`` below the best and above
    ``-ctl[C_STOP]``; a node with no such move counts as lost (no proofs in that mode).

    Iterative with an explicit frame per ply (Numba issue #6061: cached recursive functions
    segfault).
    """
    stack, hashes, moves, keys, history, fr = work
    ctl = ctx[0]
    zob = ctx[3]
    fr[0, F_DEPTH] = depth
    fr[0, F_ALPHA] = alpha
    fr[0, F_BETA] = beta
    ply = 0
    phase = 0  # 0: enter the node at ply, 1: a child returned v, 2: go to the next child
    v = np.int64(0)
    while True:
        if phase == 0:
            leaf, v = _enter(ply, tt, work, ctx)
            if ctl[C_ABORTED]:
                return np.int64(0)
            if leaf:
                if ply == 0:
                    return v
                ply -= 1
                v = -v
                phase = 1
            else:
                phase = 2
        elif phase == 1:
            m = moves[ply, fr[ply, F_NEXT] - 1]
            phase = 2
            if v > fr[ply, F_BEST]:
                fr[ply, F_BEST] = v
                fr[ply, F_BESTM] = m
                if v > fr[ply, F_ALPHA]:
                    fr[ply, F_ALPHA] = v
                    if v >= fr[ply, F_BETA]:
                        d = fr[ply, F_DEPTH]
                        history[stack[ply, SIDE] * 81 + m] += d * d
                        fr[ply, F_NEXT] = fr[ply, F_COUNT]  # cut: no more children
        else:
            j = fr[ply, F_NEXT]
            n = fr[ply, F_COUNT]
            mv = moves[ply]
            ky = keys[ply]
            k = j
            for q in range(j + 1, n):
                if ky[q] > ky[k]:
                    k = q
            if j >= n or ky[k] == -INF:
                v = _finish(ply, tt, work, ctx)
                if ply == 0:
                    return v
                ply -= 1
                v = -v
                phase = 1
                continue
            m = mv[k]
            mv[k] = mv[j]
            mv[j] = m
            t = ky[k]
            ky[k] = ky[j]
            ky[j] = t
            fr[ply, F_NEXT] = j + 1
            s = stack[ply]
            child = stack[ply + 1]
            for i in range(NS):
                child[i] = s[i]
            apply_move(child, m)
            hashes[ply + 1] = child_hash(hashes[ply], s, child, m, zob)
            fr[ply + 1, F_DEPTH] = fr[ply, F_DEPTH] - 1
            fr[ply + 1, F_ALPHA] = -fr[ply, F_BETA]
            fr[ply + 1, F_BETA] = -fr[ply, F_ALPHA]
            ply += 1
            phase = 0


@njit(**JIT)
def state_hash(s, zob):
    """Zobrist hash of a state (stones, forced board, side to move, variant; in the variant
    also the claimed boards, which the stones do not tell there: a board may hold a line of
    each side, and it belongs to the first)."""
    h = np.uint64(0)
    for p in range(2):
        for b in range(9):
            for c in range(9):
                if (s[p * 9 + b] >> c) & 1:
                    h ^= zob[p * 81 + b * 9 + c]
    h ^= zob[163 + s[FORCED]]
    if s[SIDE] == 1:
        h ^= zob[172]
    if s[VARIANT]:
        h ^= zob[173]
        for b in range(9):
            if (s[FX] >> b) & 1:
                h ^= zob[174 + b]
            if (s[FO] >> b) & 1:
                h ^= zob[183 + b]
    return h


@njit(**JIT)
def child_hash(h, parent, child, m, zob):
    """:func:`state_hash` of ``child``, ``parent`` after move ``m``, from ``h``, the parent's
    (a move claims at most its own board, for its mover)."""
    p = parent[SIDE]
    h ^= zob[p * 81 + m] ^ zob[172] ^ zob[163 + parent[FORCED]] ^ zob[163 + child[FORCED]]
    if child[VARIANT] and (child[FX + p] ^ parent[FX + p]):
        h ^= zob[174 + p * 9 + m // 9]
    return h


@njit(**JIT)
def search_root(start, depth, tt, work, ctx):
    """Set up ply 0 from ``start`` and run :func:`negamax` with a full window."""
    stack = work[0]
    hashes = work[1]
    for i in range(NS):
        stack[0, i] = start[i]
    hashes[0] = state_hash(start, ctx[3])
    ctx[0][C_BEST] = -1
    return negamax(depth, np.int64(-INF), np.int64(INF), tt, work, ctx)


# --- Monte Carlo tree search -----------------------------------------------------------


@njit(**JIT)
def mcts(start, iterations, c_uct, rng, out_moves, out_visits, stop):
    """UCT search with random playouts; returns the number of root moves written.

    ``out_visits[j]`` is how often root move ``out_moves[j]`` was explored. A node's ``wins``
    are from the view of the player who moved into it (1 win, 0.5 draw). Stops before the
    next playout once ``stop[0]`` is set.
    """
    cap = iterations * 20 + 100
    first = np.full(cap, -1, dtype=np.int64)
    count = np.zeros(cap, dtype=np.int32)
    move = np.zeros(cap, dtype=np.int32)
    visits = np.zeros(cap, dtype=np.float64)
    wins = np.zeros(cap, dtype=np.float64)
    path = np.zeros(MAXPLY + 1, dtype=np.int64)
    buf = np.zeros(81, dtype=np.int32)
    s = start.copy()
    used = 1
    root_mover = 1 - start[SIDE]
    for _ in range(iterations):
        if is_stopped(stop):
            break
        for i in range(NS):
            s[i] = start[i]
        node = 0
        depth = 0
        path[0] = 0
        while first[node] >= 0 and s[RESULT] == ONGOING:
            best = -1.0
            bestc = first[node]
            lnv = np.log(visits[node] + 1.0)
            for c in range(first[node], first[node] + count[node]):
                if visits[c] == 0.0:
                    bestc = c
                    break
                u = wins[c] / visits[c] + c_uct * np.sqrt(lnv / visits[c])
                if u > best:
                    best = u
                    bestc = c
            node = bestc
            apply_move(s, move[node])
            depth += 1
            path[depth] = node
        if s[RESULT] == ONGOING and (visits[node] > 0.0 or node == 0):
            n = gen_moves(s, buf)
            if used + n <= cap:
                first[node] = used
                count[node] = n
                for j in range(n):
                    move[used + j] = buf[j]
                used += n
                node = first[node] + _below(rng, n)
                apply_move(s, move[node])
                depth += 1
                path[depth] = node
        playout(s, rng)
        r = s[RESULT]
        for d in range(depth + 1):
            nd = path[d]
            visits[nd] += 1.0
            mover = (root_mover + d) & 1  # who moved into path[d]
            if r == DRAWN:
                wins[nd] += 0.5
            elif r == 1 + mover:
                wins[nd] += 1.0
    n = count[0]
    for j in range(n):
        out_moves[j] = move[first[0] + j]
        out_visits[j] = visits[first[0] + j]
    return n
