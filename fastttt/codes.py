"""Position codes: every conversion between the forms of an m,n,k position, stated once.

Forms (cells numbered row by row from the top left, :mod:`fastttt.games.mnk.spec`)::

    bitboards    first, second: ints, bit c set when cell c holds that player's stone
    base-3 code  sum(d_c * 3**c) over the cells, d_c = 0 empty, 1 first player (X),
                 2 second player (O); the empty board is 0, codes run 0 .. 3**cells - 1
    cell text    one character a cell in cell order, e.g. ".XO......" (symbols given:
                 the classroom handouts write the first player's stones 'O')
    layout       a bitboard whose bits are placed by a ``cell_bit`` map (cell c -> bit
                 cell_bit[c]): the search kernels' padded column layout,
                 :mod:`fastttt.search.alphabeta`

Each conversion has a scalar form (Python ints, any board size) and a vectorised one (NumPy
arrays: uint64 bitboards, so at most 64 cells; int64 codes, so at most :data:`MAX_CODE_CELLS`
cells). Converters take what they are given as valid: callers check ranges
(:meth:`fastttt.games.mnk.board.Position.from_code` does). The kernels keep their own inner loops
over these forms (``fastttt.kernels.dense``, ``classroom``, ``layered``): a kernel cannot call
Python, and their loops fuse the conversion with the work.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

MAX_CODE_CELLS = 39  # 3**39 - 1 < 2**63 <= 3**40 - 1: larger codes do not fit int64


def code_count(cells: int) -> int:
    """Number of base-3 codes of ``cells`` cells: ``3**cells`` (the codes are 0 .. that - 1)."""
    return 3**cells


# --- scalar ---------------------------------------------------------------------------------
def code_of_bitboards(first: int, second: int) -> int:
    """Base-3 code of a position given as bitboards (cells beyond the last stone are empty).

    A bitboard's binary digits read in base 3 are ``sum(3**c)`` over its set bits, so the code
    is that of ``first`` plus twice that of ``second``."""
    return int(format(first, "b"), 3) + 2 * int(format(second, "b"), 3)


def bitboards_of_code(code: int, cells: int | None = None) -> tuple[int, int]:
    """(first, second) bitboards of a base-3 code; ``cells`` (optional) stops after that many
    cells (digits beyond are ignored)."""
    first = second = 0
    code = int(code)
    c = 0
    while code and (cells is None or c < cells):
        code, d = divmod(code, 3)
        if d == 1:
            first |= 1 << c
        elif d == 2:
            second |= 1 << c
        c += 1
    return first, second


def code_of_digits(digits: Iterable[int]) -> int:
    """Base-3 code of the cells' digits in cell order (0 empty, 1 first player, 2 second)."""
    code = 0
    for d in reversed(list(digits)):
        code = code * 3 + d
    return code


def code_of_cells(cells: str, symbols: str = "XO") -> int:
    """Base-3 code of a cell text (one character a cell, in cell order): ``symbols[0]`` the
    first player's stones (digit 1), ``symbols[1]`` the second's (digit 2), anything else
    empty. The handouts' state strings are ``code_of_cells(s, "OX")`` (J0 plays 'O')."""
    table = dict.fromkeys(map(ord, cells), "0") | {ord(symbols[0]): "1", ord(symbols[1]): "2"}
    return int(cells[::-1].translate(table), 3) if cells else 0


def bitboard_of(cells: Sequence[Any], symbol: Any) -> int:
    """Bitboard of the cells equal to ``symbol`` (cells in cell order: a text, or any
    sequence of marks such as the handouts' flattened grids)."""
    if isinstance(cells, str) and isinstance(symbol, str) and len(symbol) == 1:
        # the binary digits, most significant first: the text reversed, one bit a character
        table = dict.fromkeys(map(ord, cells), "0") | {ord(symbol): "1"}
        return int(cells[::-1].translate(table), 2) if cells else 0
    board = 0
    for c, mark in enumerate(cells):
        if mark == symbol:
            board |= 1 << c
    return board


def bitboards_of_cells(cells: Sequence[Any], symbols: Sequence[Any] = "XO") -> tuple[int, int]:
    """(first, second) bitboards of cells in cell order: ``symbols[0]`` marks the first
    player's stones, ``symbols[1]`` the second's, anything else is empty."""
    return bitboard_of(cells, symbols[0]), bitboard_of(cells, symbols[1])


def to_layout(board: int, cell_bit: Sequence[int]) -> int:
    """A bitboard in cell order moved to a layout: bit ``cell_bit[c]`` set when bit c is."""
    out = 0
    while board:
        low = board & -board
        out |= 1 << cell_bit[low.bit_length() - 1]
        board ^= low
    return out


def cells_of(board: int) -> list[int]:
    """The cells of a bitboard's set bits, in increasing order."""
    cells = []
    while board:
        low = board & -board
        cells.append(low.bit_length() - 1)
        board ^= low
    return cells


# --- vectorised -----------------------------------------------------------------------------
def pow3(cells: int) -> np.ndarray:
    """``3**c`` for c = 0 .. cells - 1 as int64 (at most :data:`MAX_CODE_CELLS` cells)."""
    return 3 ** np.arange(cells, dtype=np.int64)


def bitboards_of_codes(codes: np.ndarray, cells: int) -> tuple[np.ndarray, np.ndarray]:
    """(first, second) uint64 bitboards of an array of base-3 codes of ``cells`` cells."""
    rest = np.asarray(codes, dtype=np.int64).copy()
    first = np.zeros(rest.shape, dtype=np.uint64)
    second = np.zeros(rest.shape, dtype=np.uint64)
    for cell in range(cells):
        digit = rest % 3
        rest //= 3
        first |= (digit == 1).astype(np.uint64) << np.uint64(cell)
        second |= (digit == 2).astype(np.uint64) << np.uint64(cell)
    return first, second


def digits_of_codes(codes: np.ndarray, cells: int) -> np.ndarray:
    """int64 array of shape ``codes.shape + (cells,)``: the base-3 digit of each cell."""
    return (np.asarray(codes, dtype=np.int64)[..., None] // pow3(cells)) % 3


def codes_of_bitboards(first: np.ndarray, second: np.ndarray, cells: int) -> np.ndarray:
    """int64 base-3 codes of arrays of bitboards of ``cells`` cells."""
    first = np.asarray(first, dtype=np.uint64)
    second = np.asarray(second, dtype=np.uint64)
    codes = np.zeros(np.broadcast(first, second).shape, dtype=np.int64)
    for cell, p in enumerate(pow3(cells)):
        shift = np.uint64(cell)
        codes += ((first >> shift) & np.uint64(1)).astype(np.int64) * p
        codes += ((second >> shift) & np.uint64(1)).astype(np.int64) * (2 * p)
    return codes


def texts_of_bitboards(
    first: np.ndarray, second: np.ndarray, rows: int, cols: int, marks: str = "XO."
) -> list[str]:
    """The text of each position of arrays of uint64 bitboards, as ``str(Position)`` writes
    it: one character a cell in cell order (``marks``: the first player's stone, the second's,
    empty), the rows joined by ``/``."""
    cells = np.arange(rows * cols, dtype=np.uint64)
    first = (np.asarray(first, dtype=np.uint64)[:, None] >> cells) & np.uint64(1)
    second = (np.asarray(second, dtype=np.uint64)[:, None] >> cells) & np.uint64(1)
    x, o, empty = (np.uint8(ord(m)) for m in marks)
    grid = np.full((first.shape[0], rows, cols + 1), ord("/"), dtype=np.uint8)
    grid[:, :, :cols] = np.where(first != 0, x, np.where(second != 0, o, empty)).reshape(
        -1, rows, cols
    )
    width = rows * (cols + 1) - 1
    flat = grid.reshape(first.shape[0], rows * (cols + 1))[:, :width].tobytes().decode("ascii")
    return [flat[i : i + width] for i in range(0, len(flat), width)]


def to_layout_many(boards: np.ndarray, cell_bit: Sequence[int]) -> np.ndarray:
    """:func:`to_layout` of an array of uint64 bitboards."""
    boards = np.asarray(boards, dtype=np.uint64)
    out = np.zeros(boards.shape, dtype=np.uint64)
    for cell, bit in enumerate(cell_bit):
        out |= ((boards >> np.uint64(cell)) & np.uint64(1)) << np.uint64(bit)
    return out
