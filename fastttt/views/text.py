"""Board drawing with row and column labels, and the text form of moves a person types.

Labels count from 1, as a person reads them: rows top to bottom, columns left to right (cell
numbering and geometry are defined in :mod:`fastttt.games.mnk.spec`). A person names a move
``row,col``
(``2,3`` = second row, third column) or, on gravity boards, by its column alone (``3``)::

         1   2   3
       +---+---+---+
     1 | X |   | O |
       +---+---+---+
     2 |   | X |   |
       +---+---+---+
     3 |   |   | O |
       +---+---+---+

``render(pos, color=True)`` returns the same drawing with ANSI colours for terminals (X red, O
blue, the last move underlined). Plain text is the default.
"""

from __future__ import annotations

import re

from fastttt.errors import IllegalMoveError, InvalidArgumentError, require_int
from fastttt.games.mnk.board import FIRST, SYMBOLS, Position

_COLORS = ("31", "34")  # ANSI: red X, blue O
_RESET = "\x1b[0m"


def format_move(pos: Position, move: int) -> str:
    """A move as a person types it: ``row,col`` counted from 1, or the column alone with gravity.

    ``pos`` is the position *before* the move (with gravity it tells where the stone lands).
    A move off the board (or not an integer) raises InvalidArgumentError.
    """
    spec = pos.spec
    if spec.gravity:
        return str(require_int(move, f"a column of {spec.name}", 0, spec.cols - 1) + 1)
    move = require_int(move, f"a cell of {spec.name}", 0, spec.cells - 1)
    return f"{move // spec.cols + 1},{move % spec.cols + 1}"


def describe_move(pos: Position, move: int) -> str:
    """Longer form for messages: ``row 2, column 3`` or ``column 4`` (gravity)."""
    if pos.spec.gravity:
        return f"column {int(move) + 1}"
    cols = pos.spec.cols
    return f"row {int(move) // cols + 1}, column {int(move) % cols + 1}"


def parse_move(pos: Position, text: str) -> int:
    """Read a move typed by a person: ``row,col`` from 1 (a column alone on gravity boards).

    Returns the move in API form (a cell, or a 0-based column with gravity). Raises, each with a
    one-line message meant for the player:

    - :class:`ValueError` when the text is malformed (not numbers, wrong count);
    - :class:`IndexError` when a coordinate is off the board;
    - :class:`~fastttt.errors.IllegalMoveError` when the cell is taken or the column full.

    (``IllegalMoveError`` is a ``ValueError``: catch it first.)
    """
    spec = pos.spec
    pattern = r"\s*(\d+)\s*" if spec.gravity else r"\s*(\d+)\s*[, ]\s*(\d+)\s*"
    example = "a column number such as 4" if spec.gravity else "row,col such as 2,3"
    found = re.fullmatch(pattern, text, re.ASCII)
    if found is None:
        raise InvalidArgumentError(f"{text.strip()!r} is not a move: type {example}")
    numbers = [int(p) for p in found.groups()]
    if spec.gravity:
        (col,) = numbers
        if not 1 <= col <= spec.cols:
            raise IndexError(f"column {col} is off the board (columns 1 to {spec.cols})")
        move = col - 1
    else:
        row, col = numbers
        if not 1 <= row <= spec.rows:
            raise IndexError(f"row {row} is off the board (rows 1 to {spec.rows})")
        if not 1 <= col <= spec.cols:
            raise IndexError(f"column {col} is off the board (columns 1 to {spec.cols})")
        move = (row - 1) * spec.cols + col - 1
    if move not in pos.legal_moves():
        if spec.gravity:
            raise IllegalMoveError(f"column {move + 1} is full")
        raise IllegalMoveError(f"{describe_move(pos, move)} is taken")
    return move


def render(pos: Position, last_cell: int | None = None, *, color: bool = False) -> str:
    """Draw ``pos`` with column labels on top and row labels on the left (both from 1).

    ``last_cell`` (a cell number) is underlined when ``color`` is on; ``color`` adds ANSI
    escape codes and is meant for terminals.
    """
    spec = pos.spec
    rows, cols = spec.rows, spec.cols
    lw = len(str(rows))  # row-label width
    cw = max(3, len(str(cols)) + 2)  # cell width
    pad = " " * (lw + 1)
    header = pad + " " + "".join(f"{c + 1:^{cw}} " for c in range(cols)).rstrip()
    rule = pad + "+" + ("-" * cw + "+") * cols
    lines = [header, rule]
    for r in range(rows):
        cells = []
        for c in range(cols):
            cell = r * cols + c
            ch = pos.cell_char(cell)
            text = f"{(' ' if ch == '.' else ch):^{cw}}"
            if color and ch != ".":
                who = FIRST if ch == SYMBOLS[FIRST] else 1 - FIRST
                style = "1;" + _COLORS[who] + (";4" if cell == last_cell else "")
                text = f"\x1b[{style}m{text}{_RESET}"
            cells.append(text)
        lines.append(f"{r + 1:>{lw}} |" + "|".join(cells) + "|")
        lines.append(rule)
    return "\n".join(lines)
