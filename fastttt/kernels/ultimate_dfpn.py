"""Depth-first proof-number search (df-pn, Nagai 2002) for Ultimate tic-tac-toe.

The question is always "does ``attacker`` (0 = X, 1 = O) win?": a node where the attacker moves
is an OR node, one where the defender moves an AND node. Proof and disproof numbers ``pn, dn``
are stored from that question's side; inside the search each node works with its mover's
``phi, delta`` (OR: pn, dn; AND: dn, pn), so that ``phi(n) = min delta(child)`` and
``delta(n) = sum phi(child)``. ``pn == 0``: the attacker wins; ``dn == 0``: it does not (the
defender wins or the game is drawn). Numbers saturate at :data:`INF`.

A child's thresholds use the 1 + epsilon trick (Pawlewicz and Lew 2007): the best child is
searched until its delta passes ``(1 + EPS)`` times the second best, which cuts the
re-expansions of plain df-pn. Transposition table: buckets of two entries, keyed by the
Zobrist hash of :func:`fastttt.kernels.ultimate.state_hash`, each with the ply of its state: the
first entry keeps the shallower state (the most work behind it), the second the last other one
stored there, so the entries near the root outlive the leaves that pass through once the table
is full (with plain numbers a 2**16 table settles the suite's ply-40 draw in 16.0 M nodes, where
one entry a slot, always replaced, did not in 48 M).

With ``ctl[D_ESTIMATE]`` a position met for the first time starts from :func:`estimate`
instead of (1, 1) (df-pn+, Nagai 2002): pn is the attacker's :func:`distance` to three boards
in a row, dn the defender's, both at least 1; and a position where the attacker can no longer
complete any line of boards is disproven on sight.

With ``ctl[D_CONFINE]`` the attacker's moves are narrowed (:func:`confine`): only those that
win the game or a board, and those that send the defender to an open board where it already
has the most stones (all of them when no move sends it to an open board). A proof is a proof
of the real game (the defender's moves are all searched); a disproof says only that no win
keeps to these moves. State layout and rules:
:mod:`fastttt.kernels.ultimate`. Kernels never raise; the stop word and the node budget end a
search early (the root's numbers are then bounds, not a result).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fastttt.config import JIT
from fastttt.kernels import ultimate as K
from fastttt.kernels.stop import is_stopped

INF = np.int64(1 << 40)
EPS = 0.25
# ctl slots (int64)
D_NODES, D_LIMIT, D_ABORTED, D_ATTACKER, D_ESTIMATE, D_CONFINE = range(6)
NCTL = 6
FAR = 16  # what a side lacks for a board it can no longer win; above 3 boards x 3 stones
LINE_MASKS = np.array(K.LINES, dtype=np.int64)


@njit(**JIT)
def tt_lookup(tt_keys, tt_pn, tt_dn, h):
    """(pn, dn, found) of the state with hash ``h``; (1, 1, False) when not stored."""
    i = h & np.uint64(tt_keys.shape[0] - 2)
    for slot in (i, i + np.uint64(1)):
        if tt_keys[slot] == h:
            return tt_pn[slot], tt_dn[slot], True
    return np.int64(1), np.int64(1), False


@njit(**JIT)
def _tt_store(tt_keys, tt_pn, tt_dn, tt_ply, h, pn, dn, ply):
    """Store (pn, dn) of the state with hash ``h`` at game ply ``ply`` (module docstring)."""
    i = h & np.uint64(tt_keys.shape[0] - 2)  # the bucket's first entry: the shallower state
    j = i + np.uint64(1)  # its second: the last other state stored there
    if tt_keys[j] == h:
        i = j
    elif tt_keys[i] != h:
        if tt_keys[i] != 0 and ply > tt_ply[i]:
            i = j
        else:  # the shallower state moves in first; the one it displaces goes second
            tt_keys[j], tt_pn[j], tt_dn[j], tt_ply[j] = tt_keys[i], tt_pn[i], tt_dn[i], tt_ply[i]
    tt_keys[i] = h
    tt_pn[i] = pn
    tt_dn[i] = dn
    tt_ply[i] = ply


@njit(**JIT)
def _sat(a):
    return a if a < INF else INF


@njit(**JIT)
def cells_lacking(mine, theirs):
    """The fewest stones ``mine`` lacks for a line of a small board that ``theirs`` does not
    block; FAR when every line is blocked."""
    best = FAR
    for i in range(8):
        line = LINE_MASKS[i]
        if line & theirs == 0:
            best = min(best, 3 - K.POP[line & mine])
    return best


@njit(**JIT)
def board_lacks(s, p, b):
    """What ``p`` lacks for board ``b``: 0 when it holds it, FAR when it can no longer win it
    (the other side's, closed, or every line blocked: a claim is for good)."""
    if (s[K.FX + p] >> b) & 1:
        return 0
    if ((s[K.FX + 1 - p] | s[K.CLOSED]) >> b) & 1:
        return FAR
    return cells_lacking(s[p * 9 + b], s[(1 - p) * 9 + b])


@njit(**JIT)
def fill_lacks(s, p, out):
    """``out[b]`` = :func:`board_lacks` of each board."""
    for b in range(9):
        out[b] = board_lacks(s, p, b)


@njit(**JIT)
def least_line_sum(lacks):
    """The least sum of ``lacks`` (one entry a board) over the lines of boards, at most FAR:
    FAR exactly when every line holds a board that lacks FAR (three boards lack 9 at most)."""
    best = FAR
    for i in range(8):
        line = LINE_MASKS[i]
        total = 0
        for b in range(9):
            if (line >> b) & 1:
                total += lacks[b]
        best = min(best, total)
    return best


@njit(**JIT)
def distance(s, p):
    """The fewest stones ``p`` lacks for three boards in a row: over the lines of boards, the
    least sum of what each board lacks. FAR when every line holds a board ``p`` can no longer
    win: then ``p`` cannot win the game."""
    lacks = np.empty(9, dtype=np.int64)
    fill_lacks(s, p, lacks)
    return least_line_sum(lacks)


@njit(**JIT)
def estimate(child, board, lacks, attacker):
    """(pn, dn) of a new ``child`` whose last move was in ``board``: the attacker's and the
    defender's :func:`distance`, at least 1, or (INF, 0) when the attacker can no longer win.
    ``lacks`` holds the parent's board lacks, row p for side p (as it was on return): a move
    changes only its own board."""
    attacker_lacks = np.int64(0)
    defender_lacks = np.int64(0)
    for p in range(2):
        before = lacks[p, board]
        lacks[p, board] = board_lacks(child, p, board)
        if p == attacker:
            attacker_lacks = least_line_sum(lacks[p])
        else:
            defender_lacks = least_line_sum(lacks[p])
        lacks[p, board] = before
    if attacker_lacks >= FAR:
        return INF, np.int64(0)
    return max(attacker_lacks, np.int64(1)), max(defender_lacks, np.int64(1))


@njit(**JIT)
def confine(s, moves, n, child, held, attacker):
    """Keep in ``moves[:n]`` (the attacker's, in ``s``) those that win the game or a board,
    and those that send the defender to an open board holding the most defender's stones
    among such targets (every move when none has one); returns how many are kept, in order.
    ``child`` is a work row, ``held`` (int64[2, 81]) a work array: per move, the defender's
    stones on its target (-1: no open target) and whether it wins."""
    defender = 1 - attacker
    most = -1
    for i in range(n):
        for j in range(K.NS):
            child[j] = s[j]
        K.apply_move(child, moves[i])
        target = child[K.FORCED]
        won_board = (child[K.FX + attacker] & ~s[K.FX + attacker]) >> (moves[i] // 9) & 1
        held[1, i] = child[K.RESULT] == 1 + attacker or won_board != 0
        held[0, i] = -1
        if child[K.RESULT] == K.ONGOING and target >= 0:
            held[0, i] = K.POP[child[defender * 9 + target]]
            most = max(most, held[0, i])
    if most < 0:
        return n
    kept = 0
    for i in range(n):
        if held[1, i] or held[0, i] == most:
            moves[kept] = moves[i]
            kept += 1
    return kept


@njit(**JIT)
def _enter(ply, parent_hash, work, table, zob, attacker, with_estimates, lacks, held, confining):
    """Generate the children of ``stack[ply]`` and read their numbers; returns their count.
    ``work``: the search's per-ply rows (stack, moves, cpn, cdn, chash); ``table``: (tt_keys,
    tt_pn, tt_dn); ``lacks``: a (2, 9) work array for :func:`estimate`; ``held``: one for
    :func:`confine`, used when ``confining``."""
    stack, moves, cpn, cdn, chash = work
    tt_keys, tt_pn, tt_dn = table
    s = stack[ply]
    n = K.gen_moves(s, moves[ply])
    child = stack[ply + 1]
    if confining and s[K.SIDE] == attacker:
        n = confine(s, moves[ply], n, child, held, attacker)
    filled = False  # lacks holds the parent's board lacks
    for i in range(n):
        for j in range(K.NS):
            child[j] = s[j]
        K.apply_move(child, moves[ply, i])
        h = K.child_hash(parent_hash, s, child, moves[ply, i], zob)
        chash[ply, i] = h
        if child[K.RESULT] == K.ONGOING:
            pn, dn, found = tt_lookup(tt_keys, tt_pn, tt_dn, h)
            if with_estimates and not found:
                if not filled:
                    fill_lacks(s, 0, lacks[0])
                    fill_lacks(s, 1, lacks[1])
                    filled = True
                pn, dn = estimate(child, moves[ply, i] // 9, lacks, attacker)
        elif child[K.RESULT] == 1 + attacker:
            pn, dn = np.int64(0), INF
        else:
            pn, dn = INF, np.int64(0)
        cpn[ply, i] = pn
        cdn[ply, i] = dn
    return n


@njit(**JIT)
def dfpn_root(start, tt_keys, tt_pn, tt_dn, tt_ply, zob, ctl, stop):
    """Prove or disprove "``ctl[D_ATTACKER]`` wins" from ``start`` (an ongoing state) within
    ``ctl[D_LIMIT]`` nodes; returns the root's (pn, dn). ``ctl[D_NODES]`` counts the nodes
    (expansions), ``ctl[D_ABORTED]`` is 1 when the budget or the stop word ended it.

    Nagai's recursive MID, unrolled onto per-ply arrays (a recursive kernel does not survive
    Numba's cache): a node is searched until its phi reaches ``thphi[ply]`` or its delta
    ``thdelta[ply]``; then its numbers go to the table and to its parent's child slot."""
    rows = K.MAXPLY + 2
    stack = np.zeros((rows, K.NS), dtype=np.int32)
    hashes = np.zeros(rows, dtype=np.uint64)
    moves = np.zeros((rows, 81), dtype=np.int32)
    cpn = np.zeros((rows, 81), dtype=np.int64)
    cdn = np.zeros((rows, 81), dtype=np.int64)
    chash = np.zeros((rows, 81), dtype=np.uint64)
    count = np.zeros(rows, dtype=np.int64)
    chosen = np.zeros(rows, dtype=np.int64)
    thphi = np.zeros(rows, dtype=np.int64)
    thdelta = np.zeros(rows, dtype=np.int64)
    attacker = ctl[D_ATTACKER]
    with_estimates = ctl[D_ESTIMATE] != 0
    confining = ctl[D_CONFINE] != 0
    held = np.zeros((2, 81), dtype=np.int64)
    lacks = np.zeros((2, 9), dtype=np.int64)
    work = (stack, moves, cpn, cdn, chash)
    table = (tt_keys, tt_pn, tt_dn)
    for j in range(K.NS):
        stack[0, j] = start[j]
    hashes[0] = K.state_hash(start, zob)
    ctl[D_ABORTED] = 0
    thphi[0] = INF
    thdelta[0] = INF
    ply = 0
    entering = True  # stack[ply] is new: generate its children
    while True:
        if entering:
            ctl[D_NODES] += 1
            count[ply] = _enter(
                ply, hashes[ply], work, table, zob, attacker, with_estimates, lacks, held, confining
            )
            entering = False
        or_node = stack[ply, K.SIDE] == attacker
        phi = INF
        delta = np.int64(0)
        best = -1
        best_phi = INF
        second = INF
        for i in range(count[ply]):
            # the child is the other kind of node: its phi/delta, from its mover's side
            c_phi = cdn[ply, i] if or_node else cpn[ply, i]
            c_delta = cpn[ply, i] if or_node else cdn[ply, i]
            delta = _sat(delta + c_phi)
            if c_delta < phi:
                second = phi
                phi = c_delta
                best = i
                best_phi = c_phi
            elif c_delta < second:
                second = c_delta
        aborted = ctl[D_NODES] >= ctl[D_LIMIT] or is_stopped(stop)
        if phi >= thphi[ply] or delta >= thdelta[ply] or aborted:
            if aborted:
                ctl[D_ABORTED] = 1
            pn, dn = (phi, delta) if or_node else (delta, phi)
            _tt_store(
                tt_keys, tt_pn, tt_dn, tt_ply, hashes[ply], pn, dn, np.uint8(stack[ply, K.PLY])
            )
            if ply == 0:
                return pn, dn
            ply -= 1
            cpn[ply, chosen[ply]] = pn
            cdn[ply, chosen[ply]] = dn
            continue
        grown = np.int64(second * (1.0 + EPS)) + 1 if second < INF else INF
        thphi[ply + 1] = _sat(thdelta[ply] + best_phi - delta)
        thdelta[ply + 1] = min(thphi[ply], grown)
        chosen[ply] = best
        for j in range(K.NS):
            stack[ply + 1, j] = stack[ply, j]
        K.apply_move(stack[ply + 1], moves[ply, best])
        hashes[ply + 1] = chash[ply, best]
        ply += 1
        entering = True
