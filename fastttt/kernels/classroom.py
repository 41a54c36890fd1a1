"""Traversal kernels that reproduce the handouts' dict and list orders (classroom layer).

td-jeu-de-morpion states are encoded in base 3 with the HANDOUT's digits: ``code =
sum(d_c * 3**c)``, d = 0 ``'.'``, 1 ``'O'`` (J0), 2 ``'X'`` (J1); bitboards ``o`` and ``x``;
the player to move is stored beside the code. State ids are the insertion order of the
handout's ``successeurs`` dict. Final kinds: -1 unfinished, 0 J0 has a line, 1 J1 has one,
2 full board without a line.

tp-positions-gagnantes grids use that handout's digits: 1 X (player 1, starts), 2 O.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fastttt.config import JIT


@njit(**JIT)
def _final_kind(o, x, masks, full):
    for i in range(masks.shape[0]):
        if o & masks[i] == masks[i]:
            return 0
    for i in range(masks.shape[0]):
        if x & masks[i] == masks[i]:
            return 1
    if (o | x) == full:
        return 2
    return -1


@njit(**JIT)
def _code(o, x, cells, pow3):
    c = np.int64(0)
    for i in range(cells):
        if (o >> np.uint64(i)) & np.uint64(1):
            c += pow3[i]
        elif (x >> np.uint64(i)) & np.uint64(1):
            c += 2 * pow3[i]
    return c


@njit(**JIT)
def _grow64(arr, need):
    if need <= arr.shape[0]:
        return arr
    size = arr.shape[0] * 2
    while size < need:
        size *= 2
    out = np.empty(size, dtype=arr.dtype)
    out[: arr.shape[0]] = arr
    return out


@njit(**JIT)
def oxo_graph(cells, mover0, masks, pow3):
    """The handout's ``jeu_OXO`` traversal from the empty board with ``mover0`` to move.

    A stack (last in, first out): a popped unfinished state enters the dict with its children
    (cell order); a finished child enters as soon as it is met. Returns ``(codes, movers,
    kinds, child_start, child_ids)`` in dict order (CSR children, ids of the children).
    """
    full = np.uint64((1 << cells) - 1)
    ids = np.full(3**cells, -1, dtype=np.int32)
    codes = np.empty(1024, dtype=np.int64)
    movers = np.empty(1024, dtype=np.int8)
    kinds = np.empty(1024, dtype=np.int8)
    starts = np.empty(1025, dtype=np.int64)
    edges = np.empty(4096, dtype=np.int64)
    cap = cells * (cells + 1) // 2 + 2
    so = np.empty(cap, dtype=np.uint64)
    sx = np.empty(cap, dtype=np.uint64)
    sm = np.empty(cap, dtype=np.int8)
    local = np.empty(cells, dtype=np.int64)
    n = 0
    ne = 0
    top = 0
    k0 = _final_kind(np.uint64(0), np.uint64(0), masks, full)
    if k0 >= 0:
        ids[0] = 0
        codes[0] = 0
        movers[0] = mover0
        kinds[0] = k0
        starts[0] = 0
        n = 1
    else:
        so[0] = 0
        sx[0] = 0
        sm[0] = mover0
        top = 1
    while top > 0:
        top -= 1
        o = so[top]
        x = sx[top]
        m = sm[top]
        code = _code(o, x, cells, pow3)
        if ids[code] >= 0:
            continue
        codes = _grow64(codes, n + cells + 2)
        movers = _grow64(movers, n + cells + 2)
        kinds = _grow64(kinds, n + cells + 2)
        starts = _grow64(starts, n + cells + 2)
        edges = _grow64(edges, ne + cells)
        ids[code] = n
        codes[n] = code
        movers[n] = m
        kinds[n] = -1
        starts[n] = ne
        n += 1
        occ = o | x
        first = ne
        for c in range(cells):
            if not (occ >> np.uint64(c)) & np.uint64(1):
                edges[ne] = code + (1 + m) * pow3[c]
                local[ne - first] = c
                ne += 1
        for e in range(first, ne):
            cc = edges[e]
            if ids[cc] >= 0:
                continue
            bit = np.uint64(1) << np.uint64(local[e - first])
            co = o | bit if m == 0 else o
            cx = x | bit if m == 1 else x
            kind = _final_kind(co, cx, masks, full)
            if kind >= 0:
                ids[cc] = n
                codes[n] = cc
                movers[n] = 1 - m
                kinds[n] = kind
                starts[n] = ne
                n += 1
            else:
                so[top] = co
                sx[top] = cx
                sm[top] = 1 - m
                top += 1
    starts[n] = ne
    child_ids = np.empty(ne, dtype=np.int32)
    for e in range(ne):
        child_ids[e] = ids[edges[e]]
    return codes[:n].copy(), movers[:n].copy(), kinds[:n].copy(), starts[: n + 1].copy(), child_ids


@njit(**JIT)
def inverse_graph(starts, child_ids):
    """The handout's ``inverse``: key order (a key enters before its children) and CSR preds."""
    n = starts.shape[0] - 1
    seen = np.zeros(n, dtype=np.bool_)
    order = np.empty(n, dtype=np.int32)
    count = np.zeros(n + 1, dtype=np.int64)
    k = 0
    for c in range(n):
        if not seen[c]:
            seen[c] = True
            order[k] = c
            k += 1
        for e in range(starts[c], starts[c + 1]):
            s = child_ids[e]
            if not seen[s]:
                seen[s] = True
                order[k] = s
                k += 1
            count[s + 1] += 1
    for i in range(n):
        count[i + 1] += count[i]
    preds = np.empty(count[n], dtype=np.int32)
    fill = count[:n].copy()
    for c in range(n):
        for e in range(starts[c], starts[c + 1]):
            s = child_ids[e]
            preds[fill[s]] = c
            fill[s] += 1
    return order[:k].copy(), count, preds


@njit(**JIT)
def attractor_order(player, movers, kinds, starts, child_ids, pred_start, preds):
    """The handout's ``attracteur``: ids in joining order (the list A as it grows)."""
    n = movers.shape[0]
    inside = np.zeros(n, dtype=np.bool_)
    out = np.empty(n, dtype=np.int32)
    k = 0
    for s in range(n):
        if kinds[s] == player:
            out[k] = s
            inside[s] = True
            k += 1
    i = 0
    while i < k:
        s = out[i]
        i += 1
        for e in range(pred_start[s], pred_start[s + 1]):
            p = preds[e]
            if inside[p]:
                continue
            ok = movers[p] == player
            if not ok:
                ok = True
                for f in range(starts[p], starts[p + 1]):
                    if not inside[child_ids[f]]:
                        ok = False
                        break
            if ok:
                out[k] = p
                inside[p] = True
                k += 1
    return out[:k].copy()


@njit(**JIT)
def _grid_winner(code, lines, pow3):
    # lines: (8, 3) cells in the handout's checking order; returns 1, 2 or 0
    for li in range(lines.shape[0]):
        d0 = (code // pow3[lines[li, 0]]) % 3
        if d0 != 0:
            if d0 == (code // pow3[lines[li, 1]]) % 3 and d0 == (code // pow3[lines[li, 2]]) % 3:
                return d0
    return 0


@njit(**JIT)
def _grid_visit(code, memo, order, counter, lines, pow3):
    if memo[code] >= 0:
        return memo[code] == 1
    w = _grid_winner(code, lines, pow3)
    if w == 1:
        res = True
    elif w == 2:
        res = False
    else:
        empties = 0
        for c in range(9):
            if (code // pow3[c]) % 3 == 0:
                empties += 1
        j = 1 if empties % 2 == 1 else 2
        if j == 1:
            res = False
        else:
            res = empties > 0
        for c in range(9):
            if (code // pow3[c]) % 3 == 0:
                r = _grid_visit(code + j * pow3[c], memo, order, counter, lines, pow3)
                if j == 1 and r:
                    res = True
                if j == 2 and not r:
                    res = False
    memo[code] = 1 if res else 0
    order[counter[0]] = code
    counter[0] += 1
    return res


@njit(**JIT)
def grid_attractor(code, lines, pow3):
    """``estGagnante`` from ``code`` with an empty memo: (codes in memo order, their values)."""
    memo = np.full(3**9, -1, dtype=np.int8)
    order = np.empty(3**9, dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    _grid_visit(code, memo, order, counter, lines, pow3)
    n = counter[0]
    values = np.empty(n, dtype=np.bool_)
    for i in range(n):
        values[i] = memo[order[i]] == 1
    return order[:n].copy(), values


@njit(**JIT)
def grid_strategy(winning, lines, pow3):
    """For each winning code (sorted-free list): the first successor code still winning where
    player 1 moves and has not won, else -1 (the handout's ``strategie``)."""
    member = np.zeros(3**9, dtype=np.bool_)
    for i in range(winning.shape[0]):
        member[winning[i]] = True
    out = np.full(winning.shape[0], -1, dtype=np.int64)
    for i in range(winning.shape[0]):
        code = winning[i]
        if _grid_winner(code, lines, pow3) != 0:
            continue
        empties = 0
        for c in range(9):
            if (code // pow3[c]) % 3 == 0:
                empties += 1
        if empties % 2 == 0:
            continue
        for c in range(9):
            if (code // pow3[c]) % 3 == 0 and member[code + pow3[c]]:
                out[i] = code + pow3[c]
                break
    return out


@njit(**JIT)
def state_chars(codes, cells):
    """ASCII bytes of each state string (``'.'``, ``'O'``, ``'X'``), one row per code."""
    out = np.empty((codes.shape[0], cells), dtype=np.uint8)
    chars = np.array([46, 79, 88], dtype=np.uint8)
    for i in range(codes.shape[0]):
        c = codes[i]
        for k in range(cells):
            out[i, k] = chars[c % 3]
            c //= 3
    return out


@njit(**JIT)
def state_values(codes, values, cells, pow3):
    """``table[mover, code]``: J0's minimax value of every handout state of both games.

    ``codes``/``values``: the solver's reachable codes (digit 1 = first player) and values
    (+1 first player wins). Starter J0: the code is the same (``'O'`` is digit 1), the value
    too. Starter J1: digits 1 and 2 swap, the value changes sign. The mover follows from the
    stone counts; 2 marks a (code, mover) that is no state of either game.
    """
    table = np.full((2, 3**cells), 2, dtype=np.int8)
    for i in range(codes.shape[0]):
        c = codes[i]
        n1 = 0
        n2 = 0
        swapped = 0
        for k in range(cells):
            d = c % 3
            c //= 3
            if d == 1:
                n1 += 1
                swapped += 2 * pow3[k]
            elif d == 2:
                n2 += 1
                swapped += pow3[k]
        equal = 1 if n1 == n2 else 0
        table[1 - equal, codes[i]] = values[i]  # J0 started: J1 moves unless counts are equal
        table[equal, swapped] = -values[i]  # J1 started: J1 moves when counts are equal
    return table
