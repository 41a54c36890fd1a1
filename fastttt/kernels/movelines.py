"""Kernels of the move-string filter (:func:`fastttt.search.connect4.run_filter`): read a chunk of
lines of 1-based column digits, list the searches they need, write the answer lines.

A chunk is ``data`` (uint8, the lines' bytes, line endings included) and ``starts`` (line
``i`` is ``data[starts[i]:starts[i + 1]]``), as :class:`fastttt.filter.Chunk` holds it.
Positions are in the search layout of :mod:`fastttt.kernels.negamax` (gravity boards of at
most 9 columns whose layout fits 64 bits), built from the geometry of its work array.

Answers: each good line has ``width`` answer fields (1, or one per column with all moves);
field ``f`` of line ``i`` is ``kinds[i, f]``: :data:`NONE` (``-``, no such move),
:data:`FIXED` (the value ``fixed[i, f]``), or the index ``j >= 0`` of a search whose score is
``scores[j]`` (negated for moves: the search is of the child, from the opponent's side).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fastttt.config import JIT
from fastttt.kernels.negamax import G_BASE, G_H, G_W, M_BOARD, M_BOTTOM, M_COL0, has_line

NONE, FIXED = -2, -1
FIELD_BYTES = 5  # room for one answer field: a space and up to 4 characters ("-999")

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(**JIT)
def parse_lines(data, starts, work, curs, masks, plies, field_ends, ok):
    """Read each line of the chunk as :func:`fastttt.filter.position_field` and
    :func:`fastttt.search.connect4.from_move_string` do, without messages: ``ok[i]`` is True when
    line ``i`` is a live position (then ``curs[i]``, ``masks[i]``, ``plies[i]`` hold it and
    its position field is ``data[starts[i]:field_ends[i]]``), False when the filter refuses
    it (not printable ASCII after one line ending is removed, a line that was only ``\r``, a
    leading space or tab, a character that is not a column digit, a move in a full column or
    after a line of k, or a finished final position)."""
    w = np.uint64(work.ctypes.data)
    board = work[M_BOARD]
    bottom = work[M_BOTTOM]
    col0 = work[M_COL0]
    h1 = work[G_H] + _ONE
    width = np.int64(work[G_W])
    for i in range(starts.size - 1):
        s = starts[i]
        e = starts[i + 1]
        ok[i] = False
        raw = e - s
        if e - s >= 2 and data[e - 2] == 13 and data[e - 1] == 10:
            e -= 2
        elif e > s and (data[e - 1] == 10 or data[e - 1] == 13):
            e -= 1
        if e == s and raw > 0 and not (raw == 1 and data[s] == 10):
            continue  # only a carriage return: blank, not the empty board
        fe = e
        printable = True
        for j in range(s, e):
            c = data[j]
            if c == 9 or c == 32:
                if fe == e:
                    fe = j
            elif c < 32 or c > 126:
                printable = False
                break
        if not printable or (fe == s and e > s):
            continue
        field_ends[i] = fe
        cur = _ZERO
        mask = _ZERO
        live = True
        for j in range(s, fe):
            col = np.int64(data[j]) - 49
            if col < 0 or col >= width:
                live = False
                break
            mv = (mask + bottom) & board & (col0 << (np.uint64(col) * h1))
            if mv == _ZERO:  # a full column
                live = False
                break
            cur = cur ^ mask
            mask = mask | mv
        # stones stay: a line completed by any move is still there after the last one
        if live and mask != board and not has_line(cur, w) and not has_line(cur ^ mask, w):
            ok[i] = True
            curs[i] = cur
            masks[i] = mask
            plies[i] = fe - s


@njit(**JIT)
def list_moves(curs, masks, plies, ok, weak, work, kinds, fixed, job_curs, job_masks, job_plies):
    """Fill ``kinds`` and ``fixed`` (n x columns) with the score of each move of each good
    line, from the mover's side: ``NONE`` in a full column; ``FIXED`` for a move that ends the
    game (a win scores ``base - s``, ``s`` the mover's stones then, 1 when ``weak``; filling
    the board draws); else the index of a new search of the child position, appended to
    ``job_*``. Returns the number of searches (at most n x columns: the size of ``job_*``)."""
    w = np.uint64(work.ctypes.data)
    board = work[M_BOARD]
    bottom = work[M_BOTTOM]
    col0 = work[M_COL0]
    h1 = work[G_H] + _ONE
    base = np.int64(work[G_BASE])
    n_jobs = 0
    for i in range(curs.size):
        for c in range(kinds.shape[1]):
            kinds[i, c] = NONE
        if not ok[i]:
            continue
        cur = curs[i]
        mask = masks[i]
        for c in range(kinds.shape[1]):
            mv = (mask + bottom) & board & (col0 << (np.uint64(c) * h1))
            if mv == _ZERO:
                continue
            if has_line(cur | mv, w):
                kinds[i, c] = FIXED
                fixed[i, c] = 1 if weak else base - (plies[i] // 2 + 1)
            elif (mask | mv) == board:
                kinds[i, c] = FIXED
                fixed[i, c] = 0
            else:
                kinds[i, c] = n_jobs
                job_curs[n_jobs] = cur ^ mask
                job_masks[n_jobs] = mask | mv
                job_plies[n_jobs] = plies[i] + 1
                n_jobs += 1
    return n_jobs


@njit(**JIT)
def _put_int(out, at, value):
    """Write ``value`` in decimal at ``out[at]``; returns the position after it."""
    if value < 0:
        out[at] = 45  # '-'
        at += 1
        value = -value
    digits = 1
    rest = value // 10
    while rest:
        digits += 1
        rest //= 10
    for k in range(digits - 1, -1, -1):
        out[at + k] = 48 + value % 10
        value //= 10
    return at + digits


@njit(**JIT)
def benchmark(score, ply, odd):
    """A search score (side to move, ``ply`` stones) in the benchmark solver's formula: one
    less for a second-player win when ``odd`` (an odd number of cells; see
    :func:`fastttt.values.benchmark_score`)."""
    if odd and score != 0 and (ply % 2 == 1) == (score > 0):
        return score - 1 if score > 0 else score + 1
    return score


@njit(**JIT)
def format_lines(
    data, starts, field_ends, ok, kinds, fixed, scores, negate, plies, odd, first, last, out
):
    """Write the answer lines of lines ``first .. last - 1`` into ``out`` from its start:
    ``<position field> <field> ...`` for a good line (see the module docstring for the fields;
    a search's score is negated when ``negate``; scores in the benchmark formula of
    :func:`benchmark` when ``odd``, the mover having ``plies[i]`` stones), an empty line for a
    refused one. ``out`` needs ``starts[last] - starts[first] + (last - first) * (1 +
    FIELD_BYTES * width)`` bytes. Returns the number of bytes written."""
    at = 0
    for i in range(first, last):
        if ok[i]:
            for j in range(starts[i], field_ends[i]):
                out[at] = data[j]
                at += 1
            for f in range(kinds.shape[1]):
                out[at] = 32
                at += 1
                kind = kinds[i, f]
                if kind == NONE:
                    out[at] = 45  # '-'
                    at += 1
                elif kind == FIXED:
                    at = _put_int(out, at, benchmark(fixed[i, f], plies[i], odd))
                else:
                    score = -scores[kind] if negate else scores[kind]
                    at = _put_int(out, at, benchmark(score, plies[i], odd))
        out[at] = 10
        at += 1
    return at
