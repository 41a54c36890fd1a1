"""Threats and defences on a line-count board (:mod:`fastttt.kernels.lines`), free boards.

Words (k = 5 gives Go-Moku's; p is a player, o its opponent):

* a **winning cell** of p completes a line of p (k-1 stones of p, none of o);
* a **four** is a move of p that makes a winning cell (a cell c with ``tc[p][c] >= 1``);
* a **double-threat cell** of p is an empty cell g after which p would hold two or more
  distinct winning cells; its **partners** E(g) are those winning cells;
* a **three** is a move of p after which p has a double-threat cell on a line through the
  move (a line that now holds k-2 stones of p and none of o).

The rule the searches prune with, sound on free boards: let the side to move s have no
winning cell, o no winning cell and a double-threat cell g. Then every move of s outside
``{g} + E(g)`` that is not a four loses: o plays g, holds two winning cells, s has none and
can block only one. So s need only try the cells of the intersection of ``{g} + E(g)`` over
all of o's double-threat cells (Allis's "cost squares" of the threat), and its fours
(:func:`defences`). On an empty intersection with no four, s loses.

:func:`pairing_holds` looks for a pairing of the position (cell pairs, both empty, disjoint,
each line of the attacker not yet blocked holding one pair): then the defender answers each
move in a pair with its partner and the attacker never completes a line, whoever moves now
(Hales and Jewett's pairing strategy, :mod:`fastttt.search.pairing`, applied to a sub-position). The
search is greedy (most constrained line first, its closest free pair) and can miss pairings:
a False is "not found", never "none exists".
"""

from __future__ import annotations

from numba import njit

from fastttt.config import INLINE_JIT, JIT
from fastttt.kernels.lines import (
    H_BOARD,
    H_CELLS,
    H_CLINES,
    H_CLSTART,
    H_CNT,
    H_EMPTY,
    H_K,
    H_LCELLS,
    H_LFIRST,
    H_LINES,
    H_LSTEP,
    H_NOPEN,
    H_NWIN,
    H_SCRATCH,
    H_TC,
    empties2,
)


@njit(**INLINE_JIT)
def partner_count(B, p, g, limit):
    """Distinct winning cells ``p`` would hold after a stone on the empty cell ``g`` that come
    from lines through ``g`` (counted up to ``limit``). Uses scratch slots [2N, 3N)."""
    n = B[H_CELLS]
    nl = B[H_LINES]
    k = B[H_K]
    seen = B[H_SCRATCH] + 2 * n
    mine = B[H_CNT] + p * nl
    theirs = B[H_CNT] + (1 - p) * nl
    cl = B[H_CLINES]
    lo = B[B[H_CLSTART] + g]
    hi = B[B[H_CLSTART] + g + 1]
    ne = 0
    for i in range(lo, hi):
        line = B[cl + i]
        if B[mine + line] == k - 2 and B[theirs + line] == 0:
            m, e1, e2 = empties2(B, line)
            e = e2 if e1 == g else e1
            dup = False
            for j in range(ne):
                if B[seen + j] == e:
                    dup = True
                    break
            if not dup:
                B[seen + ne] = e
                ne += 1
                if ne >= limit:
                    return ne
    return ne


@njit(**JIT)
def defences(B, o, out, last):
    """Moves of the side to move s = 1 - o that stop every double-threat cell of ``o``: the
    intersection of ``{g} + E(g)`` over o's double-threat cells g, into ``out``; with
    ``last >= 0``, only over those on a line through the cell ``last`` (the threats o's last
    move made: a move outside the intersection still loses to one of them, and the answer
    reads only their lines). Returns ``(threats, n)``: the number of double-threat cells
    counted (0: nothing to stop, ``out`` untouched) and the number of cells written. Assumes
    neither player has a winning cell. Uses scratch slots [0, 3N)."""
    n = B[H_CELLS]
    board = B[H_BOARD]
    tc = B[H_TC] + o * n
    hits = B[H_SCRATCH]
    touched = hits + n
    seen = hits + 2 * n
    threats = 0
    n_touched = 0
    for g in range(n):
        if B[board + g] != 0 or B[tc + g] < 2:
            continue
        if last >= 0 and not _shares_a_line(B, g, last):
            continue
        ne = partner_count(B, o, g, n)
        if ne < 2:
            continue
        threats += 1
        for j in range(-1, ne):
            x = g if j < 0 else B[seen + j]
            if B[hits + x] == 0:
                B[touched + n_touched] = x
                n_touched += 1
            B[hits + x] += 1
    count = 0
    for j in range(n_touched):
        x = B[touched + j]
        if B[hits + x] == threats:
            out[count] = x
            count += 1
        B[hits + x] = 0
    return threats, count


@njit(**INLINE_JIT)
def is_four(B, p, c):
    """True when a stone of ``p`` on the empty cell ``c`` makes a winning cell of ``p``."""
    return B[B[H_TC] + p * B[H_CELLS] + c] >= 1


@njit(**JIT)
def is_three(B, p, c):
    """True when a stone of ``p`` on the empty cell ``c`` gives ``p`` a double-threat cell on
    a line through ``c`` that then holds k-2 stones of ``p`` and none of the opponent: one of
    that line's two empty cells g from which two lines of k-2 (``c`` counted) lead to two
    distinct winning cells (:func:`_two_partners_after`). Read from the counts, nothing
    played."""
    n = B[H_CELLS]
    nl = B[H_LINES]
    k = B[H_K]
    mine = B[H_CNT] + p * nl
    theirs = B[H_CNT] + (1 - p) * nl
    cl = B[H_CLINES]
    lo = B[B[H_CLSTART] + c]
    hi = B[B[H_CLSTART] + c + 1]
    rising = 0  # lines through c going from k-3 stones of p to k-2, none of the opponent
    for i in range(lo, hi):
        line = B[cl + i]
        if B[mine + line] == k - 3 and B[theirs + line] == 0:
            rising += 1
    if rising == 0:
        return False
    board = B[H_BOARD]
    tc = B[H_TC] + p * n
    for i in range(lo, hi):
        line = B[cl + i]
        if B[mine + line] != k - 3 or B[theirs + line] != 0:
            continue
        base = B[H_LCELLS] + line * k
        for t in range(k):
            g = B[base + t]
            # g's lines of k-2 after c are at most those of k-2 now (tc) and the rising ones
            if g == c or B[board + g] != 0 or B[tc + g] + rising < 2:
                continue
            if _two_partners_after(B, p, g, c):
                return True
    return False


@njit(**INLINE_JIT)
def _two_partners_after(B, p, g, c):
    """True when, with a stone of ``p`` on the empty cell ``c`` (not played), a stone of
    ``p`` on the empty cell ``g`` would give ``p`` two distinct winning cells on lines
    through ``g``: lines with k-2 stones of ``p`` (``c`` counted) and none of the opponent,
    each leading to its other empty cell (:func:`partner_count` on the board after ``c``)."""
    nl = B[H_LINES]
    k = B[H_K]
    mine = B[H_CNT] + p * nl
    theirs = B[H_CNT] + (1 - p) * nl
    cl = B[H_CLINES]
    board = B[H_BOARD]
    partner = -1
    for i in range(B[B[H_CLSTART] + g], B[B[H_CLSTART] + g + 1]):
        line = B[cl + i]
        count = B[mine + line]
        if B[theirs + line] != 0 or count < k - 3 or count > k - 2:
            continue
        if count + _contains(B, line, c) != k - 2:
            continue
        base = B[H_LCELLS] + line * k
        for t in range(k):
            e = B[base + t]
            if e != g and e != c and B[board + e] == 0:
                if partner < 0:
                    partner = e
                elif e != partner:
                    return True
                break
    return False


@njit(**INLINE_JIT)
def _shares_a_line(B, g, c):
    """True when the cells ``g`` and ``c`` lie on one line."""
    cl = B[H_CLINES]
    for i in range(B[B[H_CLSTART] + c], B[B[H_CLSTART] + c + 1]):
        if _contains(B, B[cl + i], g):
            return True
    return False


@njit(**INLINE_JIT)
def _contains(B, line, c):
    """True when cell ``c`` is on ``line`` (its cells are first + t * step, t < k)."""
    d = c - B[B[H_LFIRST] + line]
    step = B[B[H_LSTEP] + line]
    if d < 0 or d % step != 0:
        return False
    return d // step < B[H_K]


@njit(**JIT)
def pairing_holds(B, a, covered, used, budget):
    """True when a pairing of empty cells covers every line of ``a`` with no stone of the
    opponent (so ``a`` cannot complete a line whoever moves). ``covered`` (int8[L]) and
    ``used`` (int8[N]) are work arrays, left zeroed. First a greedy pass (the open line with
    the fewest free cells first, paired with its two closest free cells: a pair then covers
    the most lines of its direction), then, when it fails, :func:`pairing_search` within
    ``budget`` nodes. Returns ``(held, nodes)``: the search's nodes (0 for the greedy pass)."""
    if _pairing_greedy(B, a, covered, used):
        return True, 0
    if budget <= 0:
        return False, 0
    found, nodes = pairing_search(B, a, covered, used, budget)
    return found == 1, nodes


@njit(**JIT)
def _pairing_greedy(B, a, covered, used):
    """The greedy pass of :func:`pairing_holds` (scratch slots [4N, 4N + L): each open
    line's free cells). Its pairs are left in scratch slots [3N, 4N), two cells each, then -1
    where room is left (:func:`blocking_pairs`)."""
    nl = B[H_LINES]
    k = B[H_K]
    board = B[H_BOARD]
    theirs = B[H_CNT] + (1 - a) * nl
    lc = B[H_LCELLS]
    cl = B[H_CLINES]
    free = B[H_SCRATCH] + 4 * B[H_CELLS]
    if B[H_NWIN + a] > 0:
        return False
    # a pair covers at most k - 1 lines (overlapping windows of one direction): too many open
    # lines for the empty cells, and no pairing can exist
    if B[H_NOPEN + a] > (k - 1) * (B[H_EMPTY] // 2):
        return False
    open_lines = 0
    for line in range(nl):
        if B[theirs + line] != 0:
            covered[line] = 1  # blocked: nothing to cover
            continue
        open_lines += 1
        m = 0
        for t in range(k):
            if B[board + B[lc + line * k + t]] == 0:
                m += 1
        B[free + line] = m
    pairs = B[H_SCRATCH] + 3 * B[H_CELLS]
    paired = 0
    ok = True
    while open_lines > 0:
        best = -1
        best_free = k + 1
        for line in range(nl):
            if not covered[line] and B[free + line] < best_free:
                best_free = B[free + line]
                best = line
                if best_free < 2:
                    break
        if best_free < 2:
            ok = False
            break
        x = -1
        y = -1
        gap = k + 1
        prev = -1
        for t in range(k):
            c = B[lc + best * k + t]
            if B[board + c] == 0 and not used[c]:
                if prev >= 0 and t - prev < gap:
                    gap = t - prev
                    x = B[lc + best * k + prev]
                    y = c
                prev = t
        used[x] = 1
        used[y] = 1
        B[pairs + paired] = x
        B[pairs + paired + 1] = y
        paired += 2
        for z in (x, y):
            for i in range(B[B[H_CLSTART] + z], B[B[H_CLSTART] + z + 1]):
                B[free + B[cl + i]] -= 1
        for i in range(B[B[H_CLSTART] + x], B[B[H_CLSTART] + x + 1]):
            line = B[cl + i]
            if not covered[line] and _contains(B, line, y):
                covered[line] = 1
                open_lines -= 1
    if paired < B[H_CELLS]:
        B[pairs + paired] = -1
    covered[:] = 0
    used[:] = 0
    return ok


@njit(**JIT)
def blocking_pairs(B, a, covered, used, budget, out):
    """The pairs that :func:`pairing_holds` finds (its greedy pass, then its search of
    ``budget`` nodes) into ``out`` (int64[N], two cells a pair); returns how many pairs, -1
    when it finds no pairing."""
    if not _pairing_greedy(B, a, covered, used) and (
        budget <= 0 or pairing_search(B, a, covered, used, budget)[0] != 1
    ):
        return -1
    n = B[H_CELLS]
    pairs = B[H_SCRATCH] + 3 * n
    count = 0
    while 2 * count < n and B[pairs + 2 * count] >= 0:
        out[2 * count] = B[pairs + 2 * count]
        out[2 * count + 1] = B[pairs + 2 * count + 1]
        count += 1
    return count


_CHOOSE, _APPLY, _BACK = 0, 1, 2


@njit(**JIT)
def pairing_search(B, a, covered, used, budget):
    """Depth-first search for a pairing of the open lines of ``a`` (see
    :func:`pairing_holds`): the uncovered line with the fewest free cells first, its pairs of
    free cells in the order of the uncovered lines each would cover. Returns ``(result,
    nodes)``: 1 (found), 0 (no pairing exists) or -1 (more than ``budget`` nodes), and the
    nodes it searched. ``covered`` and ``used`` are left
    zeroed; scratch slots from 4N + L hold the stack (:func:`pairing_frame` slots a level,
    at most N / 2 + 1 levels); the pairs found are left as :func:`_pairing_greedy` leaves
    them."""
    n = B[H_CELLS]
    nl = B[H_LINES]
    k = B[H_K]
    board = B[H_BOARD]
    theirs = B[H_CNT] + (1 - a) * nl
    lc = B[H_LCELLS]
    cl = B[H_CLINES]
    clstart = B[H_CLSTART]
    free = B[H_SCRATCH] + 4 * n
    pairs = k * (k - 1) // 2
    size = pairing_frame(k)
    base = free + nl
    if B[H_NWIN + a] > 0:
        return 0, 0
    if B[H_NOPEN + a] > (k - 1) * (B[H_EMPTY] // 2):
        return 0, 0
    remaining = 0
    for line in range(nl):
        if B[theirs + line] != 0:
            covered[line] = 1
            continue
        remaining += 1
        m = 0
        for t in range(k):
            if B[board + B[lc + line * k + t]] == 0:
                m += 1
        B[free + line] = m
    depth = 0
    nodes = 0
    result = 0
    state = _CHOOSE
    while True:
        if state == _CHOOSE:
            if remaining == 0:
                result = 1
                break
            nodes += 1
            if nodes > budget:
                result = -1
                break
            best = -1
            best_free = k + 1
            for line in range(nl):
                if not covered[line] and B[free + line] < best_free:
                    best_free = B[free + line]
                    best = line
                    if best_free < 2:
                        break
            if best_free < 2:
                state = _BACK
                continue
            f = base + depth * size
            opts = f + 4
            count = 0
            for i in range(k):
                x = B[lc + best * k + i]
                if B[board + x] != 0 or used[x]:
                    continue
                for j in range(i + 1, k):
                    y = B[lc + best * k + j]
                    if B[board + y] != 0 or used[y]:
                        continue
                    score = 0
                    for z in range(B[clstart + x], B[clstart + x + 1]):
                        line = B[cl + z]
                        if not covered[line] and _contains(B, line, y):
                            score += 1
                    at = count  # insertion by score, highest first
                    while at > 0 and B[opts + 3 * (at - 1) + 2] < score:
                        B[opts + 3 * at] = B[opts + 3 * (at - 1)]
                        B[opts + 3 * at + 1] = B[opts + 3 * (at - 1) + 1]
                        B[opts + 3 * at + 2] = B[opts + 3 * (at - 1) + 2]
                        at -= 1
                    B[opts + 3 * at] = x
                    B[opts + 3 * at + 1] = y
                    B[opts + 3 * at + 2] = score
                    count += 1
            B[f] = best
            B[f + 1] = count
            B[f + 2] = 0
            B[f + 3] = 0
            state = _APPLY
        elif state == _APPLY:
            f = base + depth * size
            i = B[f + 2]
            if i >= B[f + 1]:
                state = _BACK
                continue
            B[f + 2] = i + 1
            x = B[f + 4 + 3 * i]
            y = B[f + 4 + 3 * i + 1]
            used[x] = 1
            used[y] = 1
            for z in (x, y):
                for q in range(B[clstart + z], B[clstart + z + 1]):
                    B[free + B[cl + q]] -= 1
            done = f + 4 + 3 * pairs
            ncov = 0
            for q in range(B[clstart + x], B[clstart + x + 1]):
                line = B[cl + q]
                if not covered[line] and _contains(B, line, y):
                    covered[line] = 1
                    B[done + ncov] = line
                    ncov += 1
            B[f + 3] = ncov
            remaining -= ncov
            depth += 1
            state = _CHOOSE
        else:  # undo the pair of the level above and try its next one
            if depth == 0:
                result = 0
                break
            depth -= 1
            _undo_pair(B, base + depth * size, pairs, covered, used, free)
            remaining += B[base + depth * size + 3]
            state = _APPLY
    found = B[H_SCRATCH] + 3 * n  # the pairs found, as the greedy pass leaves them
    paired = 0
    while depth > 0:
        depth -= 1
        f = base + depth * size
        if result == 1:
            i = B[f + 2] - 1
            B[found + paired] = B[f + 4 + 3 * i]
            B[found + paired + 1] = B[f + 4 + 3 * i + 1]
            paired += 2
        _undo_pair(B, f, pairs, covered, used, free)
    if result == 1 and paired < n:
        B[found + paired] = -1
    covered[:] = 0
    used[:] = 0
    return result, nodes


@njit(**JIT)
def _undo_pair(B, f, pairs, covered, used, free):
    """Take back the pair that the frame at ``f`` applied last."""
    i = B[f + 2] - 1
    x = B[f + 4 + 3 * i]
    y = B[f + 4 + 3 * i + 1]
    done = f + 4 + 3 * pairs
    for q in range(B[f + 3]):
        covered[B[done + q]] = 0
    used[x] = 0
    used[y] = 0
    cl = B[H_CLINES]
    clstart = B[H_CLSTART]
    for z in (x, y):
        for q in range(B[clstart + z], B[clstart + z + 1]):
            B[free + B[cl + q]] += 1


@njit(**JIT)
def pairing_frame(k):
    """Scratch slots of one level of :func:`pairing_search`: the line, option count, next
    option, lines covered, then (x, y, score) per pair of the line's cells and the lines the
    chosen pair covers."""
    return 4 + 3 * (k * (k - 1) // 2) + k
