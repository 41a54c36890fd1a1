"""Kernel of :func:`fastttt.games.movetext.play_lines`: a chunk of move lists read and played into
bitboards, without messages.

A chunk is ``data`` (uint8, the lines' bytes, line endings included) and ``starts`` (line ``i``
is ``data[starts[i]:starts[i + 1]]``), as :class:`fastttt.filter.Chunk` holds it. A line is a
move list as :func:`fastttt.games.movetext.parse_moves` reads it, in its plainest spellings only:
moves separated by runs of ASCII spaces and tabs (around them too), each ``row,col`` (numbers
from 1) on free boards, a column number with gravity (there commas separate moves too, and on
boards of at most 9 columns a line of digits alone is one column per digit). Anything else
(other whitespace, a line longer than the parser reads, a number of more than 4 digits, a move
off the board, on a taken cell or a full column, or after a line of ``k`` or a full board)
leaves ``ok[i]`` False: the caller reads that line with the Python parser, which names the
problem or reads the spelling.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fastttt.config import JIT

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_MAX_DIGITS = 4
SPACE, TAB, COMMA, CR, LF = 32, 9, 44, 13, 10


@njit(**JIT)
def _over(stones, cell, full, occupied, line_start, line_masks):
    """Whether the game is over once ``stones`` (its mover's, ``cell`` just played) stand."""
    if occupied == full:
        return True
    for j in range(line_start[cell], line_start[cell + 1]):
        if stones & line_masks[j] == line_masks[j]:
            return True
    return False


@njit(**JIT)
def play_lines(board, line_start, line_masks, data, starts, firsts, seconds, ok):
    """Fill ``firsts[i]``, ``seconds[i]`` (uint64 bitboards of the position after line ``i``'s
    moves) and ``ok[i]`` for each line of the chunk (module docstring). ``board`` is
    ``(rows, cols, gravity, max_length)``, the longest line read in bytes (its ending
    removed); ``line_start`` and ``line_masks`` are :func:`fastttt.games.mnk.board.cell_lines`."""
    rows, cols, gravity, max_length = board
    cells = rows * cols
    full = (_ONE << np.uint64(cells)) - _ONE if cells < 64 else ~_ZERO
    digits_alone = gravity and cols <= 9
    heights = np.zeros(cols, dtype=np.int64)
    numbers = np.empty(2, dtype=np.int64)
    for i in range(starts.size - 1):
        s = starts[i]
        e = starts[i + 1]
        ok[i] = False
        firsts[i] = _ZERO
        seconds[i] = _ZERO
        if e > s and data[e - 1] == LF:
            e -= 1
        if e > s and data[e - 1] == CR:
            e -= 1
        if e - s > max_length:
            continue
        plain = digits_alone
        for j in range(s, e):
            if data[j] < 48 or data[j] > 57:
                plain = False
        heights[:] = 0
        ply = 0
        first = _ZERO
        second = _ZERO
        over = False
        good = True
        j = s
        while good:
            while j < e and (data[j] == SPACE or data[j] == TAB):
                j += 1
            if j == e:
                break
            if over:
                good = False
                break
            # one move: a digit alone, or numbers separated by a comma
            want = 1 if gravity else 2
            for n in range(want):
                if n == 1:
                    if j == e or data[j] != COMMA:
                        good = False
                        break
                    j += 1
                value = 0
                length = 0
                while j < e and 48 <= data[j] <= 57 and length < _MAX_DIGITS:
                    value = value * 10 + int(data[j]) - 48
                    j += 1
                    length += 1
                    if plain:
                        break
                if length == 0 or (j < e and 48 <= data[j] <= 57 and not plain):
                    good = False
                    break
                numbers[n] = value
            if not good:
                break
            if j < e and not (
                data[j] == SPACE or data[j] == TAB or (gravity and data[j] == COMMA) or plain
            ):
                good = False
                break
            if gravity and j < e and data[j] == COMMA:
                j += 1
                if j == e or data[j] == COMMA:
                    good = False  # an empty move: left to the parser
                    break
            if gravity:
                col = numbers[0] - 1
                if col < 0 or col >= cols or heights[col] == rows:
                    good = False
                    break
                cell = (rows - 1 - heights[col]) * cols + col
                heights[col] += 1
            else:
                row = numbers[0] - 1
                col = numbers[1] - 1
                if row < 0 or row >= rows or col < 0 or col >= cols:
                    good = False
                    break
                cell = row * cols + col
            bit = _ONE << np.uint64(cell)
            if (first | second) & bit:
                good = False
                break
            if ply % 2 == 0:
                first |= bit
                over = _over(first, cell, full, first | second, line_start, line_masks)
            else:
                second |= bit
                over = _over(second, cell, full, first | second, line_start, line_masks)
            ply += 1
        if good:
            firsts[i] = first
            seconds[i] = second
            ok[i] = True
