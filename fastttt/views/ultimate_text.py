"""Drawing of an Ultimate tic-tac-toe position and the text form of moves a person types.

A person names a move by its board and cell, both 1..9 row by row (``5,1`` = top-left cell
of the centre board), or by row and column of the 9x9 grid (``r4c4``, the same cell), or, when
a board is forced, by the cell alone (``1``). Labels count from 1; the API counts moves
0..80 = board * 9 + cell (see :mod:`fastttt.games.ultimate.state`)::

         1 2 3   4 5 6   7 8 9      boards   frame
       +-------+-------+-------+    1 2 3    X . .
     1 | X . . | . . . |       |    4 5 6    . . .
     2 | . . . | . . . |       |    7 8 9    . . -
     ...

Empty cells where the side to move may play are ``.``; other empty cells are blank; stones
of finished boards are lower case (``x``, ``o``), and the frame beside the grid shows who
claimed each board (``-`` a full board without a line). The last
move is shown in parentheses, the forced board's border in ``*`` (``#`` when the variant
keeps claimed boards open). ``color=True`` adds ANSI colours (X red, O blue, playable cells
yellow).
"""

from __future__ import annotations

import re

from fastttt.errors import IllegalMoveError, InvalidArgumentError, require_int
from fastttt.games.ultimate.state import SYMBOLS, UltimateState

MOVE_HELP = "board,cell (1-9 each, row by row), rRcC on the 9x9 grid, or the cell in a forced board"

_COLORS = ("31", "34")
_RESET = "\x1b[0m"


def _paint(text: str, code: str, color: bool) -> str:
    return f"\x1b[{code}m{text}{_RESET}" if color else text


def render(state: UltimateState, last_move: int | None = None, color: bool = False) -> str:
    """A readable 9x9 drawing with the frame of claims and who is to move (plain text)."""
    legal = set(state.legal_moves())
    forced = state.forced_board
    claims = state.claims()
    closed = state.closed_mask()
    lines = ["       1 2 3   4 5 6   7 8 9"]

    def border(band: int) -> str:
        parts = []
        for bc in range(3):
            near = {band * 3 + bc - 3, band * 3 + bc}
            mark = "*" if forced is not None and forced in near and 0 <= forced < 9 else "-"
            parts.append(mark * 7)
        return "     +" + "+".join(parts) + "+"

    for r in range(9):
        if r % 3 == 0:
            lines.append(border(r // 3))
        row = f"   {r + 1} |"
        for bc in range(3):
            seps = [" "] * 4
            chars = []
            for i in range(3):
                c = bc * 3 + i
                move = (r // 3 * 3 + bc) * 9 + (r % 3) * 3 + c % 3
                who = state.cell(move)
                if who is not None:
                    sym = SYMBOLS[who]
                    if closed >> (move // 9) & 1:
                        sym = sym.lower()  # a finished board: its stones no longer count
                    chars.append(_paint(sym, _COLORS[who], color))
                elif move in legal:
                    chars.append(_paint(".", "33", color))
                else:
                    chars.append(" ")
                if move == last_move:
                    seps[i], seps[i + 1] = "(", ")"
            row += "".join(s + ch for s, ch in zip(seps, chars, strict=False)) + seps[3] + "|"
        lines.append(row)
    lines.append(border(3))
    frame = []
    for fr in range(3):
        cells = []
        for fc in range(3):
            b = fr * 3 + fc
            cl = claims[b]
            cells.append(SYMBOLS[cl] if cl is not None else "-" if closed >> b & 1 else ".")
        frame.append(" ".join(cells))
    side_text = [
        "boards   frame",
        *(f"{fr * 3 + 1} {fr * 3 + 2} {fr * 3 + 3}    {frame[fr]}" for fr in range(3)),
    ]
    for i, extra in enumerate(side_text):
        lines[2 + i] += "    " + extra
    if state.is_over():
        w = state.winner()
        status = "draw" if w is None else f"{SYMBOLS[w]} wins"
    else:
        where = f"in board {forced + 1}" if forced is not None else "in any open board"
        status = f"{SYMBOLS[state.to_move]} to move {where}"
    variant = ", claimed boards stay open" if state.open_won_boards else ""
    lines.append(f"ply {state.ply}: {status}{variant}")
    return "\n".join(lines)


def format_move(state: UltimateState, move: int) -> str:
    """A move as a person types it: ``board,cell`` counted from 1; a move off the board (not
    an integer 0..80) raises InvalidArgumentError."""
    b, c = divmod(require_int(move, "a cell of ultimate", 0, 80), 9)
    return f"{b + 1},{c + 1}"


def parse_move(state: UltimateState, text: str) -> int:
    """Read a person's move (``board,cell``, ``rRcC`` or a lone cell in the forced board, all
    1-based) and return it as 0..80. Malformed text raises ValueError, numbers out of 1..9
    IndexError, a move the rules forbid IllegalMoveError (a ValueError); one-line messages."""
    t = text.strip().lower()
    grid = re.fullmatch(r"r\s*(\d+)\s*[, ]?\s*c\s*(\d+)", t)
    pair = re.fullmatch(r"(\d+)\s*[,.;/ ]\s*(\d+)", t)
    if grid:
        r, c = int(grid.group(1)), int(grid.group(2))
        if not (1 <= r <= 9 and 1 <= c <= 9):
            raise IndexError(f"{text.strip()!r}: grid row and column go from 1 to 9")
        r, c = r - 1, c - 1
        move = (r // 3 * 3 + c // 3) * 9 + (r % 3) * 3 + c % 3
    elif pair:
        b, c = int(pair.group(1)), int(pair.group(2))
        if not (1 <= b <= 9 and 1 <= c <= 9):
            raise IndexError(f"{text.strip()!r}: board and cell go from 1 to 9")
        move = (b - 1) * 9 + c - 1
    elif re.fullmatch(r"\d+", t):
        if state.forced_board is None:
            raise InvalidArgumentError(
                f"{text.strip()!r}: no board is forced; type board,cell (e.g. 5,1)"
            )
        c = int(t)
        if not 1 <= c <= 9:
            raise IndexError(f"{text.strip()!r}: a cell goes from 1 to 9")
        move = state.forced_board * 9 + c - 1
    else:
        raise InvalidArgumentError(f"{text.strip()!r} is not a move; type {MOVE_HELP}")
    if state.is_over():
        raise IllegalMoveError("the game is already over")
    reason = state.why_illegal(move)
    if reason is not None:
        raise IllegalMoveError(f"{format_move(state, move)}: {reason}")
    return move
