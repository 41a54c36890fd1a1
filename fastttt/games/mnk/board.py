"""Positions of an m,n,k-game: two bitboards, a base-3 code, a text form, win-line masks.

Encodings (geometry and cell numbering are defined in :mod:`fastttt.games.mnk.spec`)::

    bitboards   first, second: ints, bit c set when cell c holds that player's stone
    base-3 code sum(d_c * 3**c) with d_c = 0 empty, 1 first player (X), 2 second player (O);
                every conversion between the forms is in :mod:`fastttt.codes`
    text        rows top to bottom joined by '/', cells '.', 'X', 'O':  "X.O/.X./..O"
    moves       non-gravity: cell numbers; gravity: column numbers (0-based in the API,
                1-based in the command line and in Connect Four move strings)
    move text   comma-separated numbers, spaces allowed around commas only ("0, 4"; "0 4"
                is an error, never the move 4 glued to 0); gravity also digits ("4455");
                :func:`numbers_from_move_text`

The side to move follows from the stone counts: the first player moves when both have as many
stones, the second when the first has one more. A game ends at the first completed line of k
or on a full board.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache

import numpy as np

from fastttt.codes import (
    bitboards_of_cells,
    bitboards_of_code,
    cells_of,
    code_count,
    code_of_bitboards,
)
from fastttt.errors import GameSpecError, IllegalMoveError, InvalidPositionError, require_moves
from fastttt.games.mnk.spec import GameSpec, as_spec

FIRST, SECOND = 0, 1
SYMBOLS = ("X", "O")
EMPTY = "."


MAX_MOVE_DIGITS = 4  # a move number has at most this many digits (games.MAX_CELLS)


def numbers_from_move_text(text: str, *, digits: bool = False) -> list[int]:
    """The numbers of a move list as typed: comma-separated non-negative integers with
    optional spaces around each comma, or (``digits``, Connect Four style) one digit per move
    when there is no comma. An empty (or all-space) text is no move. Numbers are returned as
    typed (no range check). Raises :class:`InvalidPositionError` naming the 1-based character
    of the first problem: whitespace inside a move, an empty move, a non-digit."""
    if not isinstance(text, str):
        raise InvalidPositionError(f"a move list is a string, got {text!r}")
    if not text.strip(" "):
        return []
    if digits and "," not in text:
        stripped = text.strip(" ")
        start = text.index(stripped)
        for i, ch in enumerate(stripped):
            if not ch.isascii() or not ch.isdigit():
                what = "whitespace inside a move list" if ch.isspace() else f"{ch!r} is not a digit"
                raise InvalidPositionError(
                    f"move list {text!r}: {what} at character {start + i + 1}; "
                    "give one digit per move, or comma-separated numbers"
                )
        return [int(ch) for ch in stripped]
    numbers, at = [], 0
    for number, field in enumerate(text.split(","), start=1):
        body = field.strip(" ")
        start = at + field.index(body) if body else at
        if not body:
            raise InvalidPositionError(
                f"move list {text!r}: move {number} is empty (character {start + 1})"
            )
        for i, ch in enumerate(body):
            if not ch.isascii() or not ch.isdigit():
                what = (
                    "whitespace inside a move; separate moves with commas"
                    if ch.isspace()
                    else f"{ch!r} is not a digit"
                )
                raise InvalidPositionError(
                    f"move list {text!r}: {what} (character {start + i + 1})"
                )
        if len(body) > MAX_MOVE_DIGITS:
            raise InvalidPositionError(
                f"move list {text!r}: move {number} is too long (character {start + 1})"
            )
        numbers.append(int(body))
        at += len(field) + 1
    return numbers


BITBOARD_CELLS = 64  # boards up to this many cells have uint64 masks (win_masks, cell_lines)


@cache
def line_cells(spec: GameSpec) -> tuple[tuple[int, ...], ...]:
    """The cells of every line of ``spec.k`` cells (rows, columns, both diagonals), each in
    increasing order, every line once, in the order of :func:`line_masks`."""
    rows, cols, k = spec.rows, spec.cols, spec.k
    lines = set()
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(rows):
            for c in range(cols):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    lines.add(tuple(sorted((r + dr * i) * cols + c + dc * i for i in range(k))))
    # k == 1 counts each cell once per direction: the set keeps distinct lines only.
    return tuple(sorted(lines, key=lambda cells: sum(1 << x for x in cells)))


@cache
def line_masks(spec: GameSpec) -> tuple[int, ...]:
    """Bitmask (a Python int, any board size) of every line of ``spec.k`` cells: rows,
    columns, both diagonals; distinct and in increasing order."""
    return tuple(sum(1 << x for x in cells) for cells in line_cells(spec))


@cache
def win_masks(spec: GameSpec) -> np.ndarray:
    """:func:`line_masks` as uint64 (boards of at most :data:`BITBOARD_CELLS` cells; raises
    :class:`~fastttt.errors.GameSpecError` on bigger ones, whose masks need more bits)."""
    if spec.cells > BITBOARD_CELLS:
        raise GameSpecError(
            f"{spec.describe()}: {spec.cells} cells do not fit the uint64 "
            f"bitboards of this feature (at most {BITBOARD_CELLS} cells)"
        )
    return np.array(line_masks(spec), dtype=np.uint64)


@cache
def cell_lines(spec: GameSpec) -> tuple[np.ndarray, np.ndarray]:
    """Lines through each cell in CSR form: masks[start[c]:start[c+1]] are the lines through c."""
    masks = win_masks(spec)
    start = np.zeros(spec.cells + 1, dtype=np.int64)
    through: list[int] = []
    for c in range(spec.cells):
        bit = np.uint64(1 << c)
        row = [m for m in masks if m & bit]
        through.extend(int(m) for m in row)
        start[c + 1] = start[c] + len(row)
    return start, np.array(through, dtype=np.uint64)


def completed_lines(masks: Iterable[int], stones: int) -> Iterator[int]:
    """The line ``masks`` that ``stones`` (a bitboard) covers, in order: THE line test of the
    Python side (the kernels keep their own, fused with their loops)."""
    return (int(m) for m in masks if m & stones == m)


def contains_line(masks: Iterable[int], stones: int) -> bool:
    """True when ``stones`` (a bitboard) covers one of the line ``masks``."""
    return next(completed_lines(masks, stones), None) is not None


def has_line(spec: GameSpec, stones: int) -> bool:
    """True when ``stones`` (a bitboard) contains a full line of the game."""
    return contains_line(line_masks(spec), stones)


def symmetry_maps(rows: int, cols: int, gravity: bool) -> list[list[int]]:
    """The board's symmetries as cell maps, identity first (``maps[s][cell]``: the image of
    ``cell``): the left-right mirror with gravity; the 4 of a rectangle or the 8 of a square
    without."""
    R, C = rows, cols
    maps = [lambda r, c: (r, c), lambda r, c: (r, C - 1 - c)]
    if not gravity:
        maps += [lambda r, c: (R - 1 - r, c), lambda r, c: (R - 1 - r, C - 1 - c)]
        if R == C:
            maps += [
                lambda r, c: (c, r),
                lambda r, c: (C - 1 - c, R - 1 - r),
                lambda r, c: (c, R - 1 - r),
                lambda r, c: (C - 1 - c, r),
            ]
    out = []
    for f in maps:
        images = (f(cell // C, cell % C) for cell in range(R * C))
        out.append([r * C + c for r, c in images])
    return out


def full_mask(spec: GameSpec) -> int:
    return (1 << spec.cells) - 1


def bottom_row_mask(spec: GameSpec) -> int:
    """Cells of the lowest row (where a stone dropped into an empty column lands)."""
    return ((1 << spec.cols) - 1) << ((spec.rows - 1) * spec.cols)


def _bitboard(value: object, name: str) -> int:
    """``value`` as a non-negative int (ints and NumPy integers only, never bools)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidPositionError(f"bitboard {name} must be an integer, got {value!r}")
    if value < 0:
        raise InvalidPositionError(f"bitboard {name} must not be negative, got {value}")
    return int(value)


class Position:
    """An immutable position: the spec, the first player's and the second player's bitboards.

    ``Position.from_text(spec, str(p)) == p`` and ``repr(p)`` is a constructor expression.
    """

    __slots__ = ("spec", "first", "second")

    def __init__(
        self, spec: GameSpec | str, first: int = 0, second: int = 0, *, check: bool = True
    ):
        self.spec = as_spec(spec)
        self.first = _bitboard(first, "first")
        self.second = _bitboard(second, "second")
        if check:
            self._validate()

    # --- construction ------------------------------------------------------------------
    @classmethod
    def empty(cls, spec: GameSpec | str) -> Position:
        return cls(spec, 0, 0, check=False)

    @classmethod
    def from_text(cls, spec: GameSpec | str, text: str) -> Position:
        """Parse ``'X.O/.X./..O'``, rows from the top (whitespace and ``|`` ignored; ``x``/``o``
        accepted). Slashes are optional, but a text with slashes must hold ``rows`` rows of
        ``cols`` cells each; without them it is the cells row by row."""
        spec = as_spec(spec)
        if not isinstance(text, str):
            raise InvalidPositionError(f"a position text is a string, got {text!r}")
        rows = ["".join(ch for ch in row if ch not in " \t\n|") for row in text.split("/")]
        if len(rows) > 1:
            for r, row in enumerate(rows[: spec.rows]):
                if len(row) != spec.cols:
                    raise InvalidPositionError(
                        f"position text {text!r}: row {r + 1} has {len(row)} cells, expected "
                        f"{spec.cols} (the {spec.describe()} board)"
                    )
            if len(rows) != spec.rows:
                raise InvalidPositionError(
                    f"position text {text!r} has {len(rows)} rows, expected {spec.rows} (the "
                    f"{spec.describe()} board)"
                )
        cleaned = "".join(rows)
        if len(cleaned) != spec.cells:
            raise InvalidPositionError(
                f"position text {text!r} has {len(cleaned)} cells, the {spec.describe()} board "
                f"has {spec.cells}"
            )
        cleaned = cleaned.upper()
        for c, ch in enumerate(cleaned):
            if ch not in "XO.-_":
                raise InvalidPositionError(
                    f"position text {text!r}: cell {c} is {ch!r}; use '.', 'X' or 'O'"
                )
        return cls(spec, *bitboards_of_cells(cleaned, SYMBOLS))

    @classmethod
    def from_code(cls, spec: GameSpec | str, code: int) -> Position:
        """Decode a base-3 code (digit 1 = first player, 2 = second player;
        :func:`fastttt.codes.bitboards_of_code`)."""
        spec = as_spec(spec)
        if isinstance(code, bool) or not isinstance(code, (int, np.integer)):
            raise InvalidPositionError(f"a code is an integer, got {code!r}")
        if not 0 <= int(code) < code_count(spec.cells):
            raise InvalidPositionError(f"code {code} is outside 0..3**{spec.cells}-1")
        return cls(spec, *bitboards_of_code(int(code)))

    @classmethod
    def from_moves(cls, spec: GameSpec | str, moves: Iterable[int]) -> Position:
        """Play ``moves`` (cells, or columns with gravity; 0-based; in order: a list, tuple, array
        or iterator, not a set or a dict) from the empty board."""
        pos = cls.empty(spec)
        for i, move in enumerate(require_moves(moves)):
            try:
                pos = pos.play(move)
            except IllegalMoveError as err:
                raise IllegalMoveError(f"move {i + 1} ({move}): {err}") from None
        return pos

    def _validate(self) -> None:
        spec = self.spec
        full = full_mask(spec)
        if self.first & ~full or self.second & ~full:
            raise InvalidPositionError("bitboard has stones outside the board")
        if self.first & self.second:
            raise InvalidPositionError("a cell holds both players' stones")
        nx, no = self.first.bit_count(), self.second.bit_count()
        if nx - no not in (0, 1):
            raise InvalidPositionError(
                f"{nx} X and {no} O: the first player (X) must have as many stones as O or one more"
            )
        if spec.gravity:
            occupied = self.first | self.second
            below = (occupied >> spec.cols) | bottom_row_mask(spec)
            floating = occupied & ~below
            if floating:
                cell = (floating & -floating).bit_length() - 1
                raise InvalidPositionError(
                    f"with gravity the stone at row {cell // spec.cols + 1}, column "
                    f"{cell % spec.cols + 1} cannot float above an empty cell"
                )

    # --- basic properties ------------------------------------------------------------
    @property
    def occupied(self) -> int:
        return self.first | self.second

    @property
    def ply(self) -> int:
        """Number of stones on the board."""
        return self.occupied.bit_count()

    @property
    def to_move(self) -> int:
        """0 when the first player (X) moves, 1 when the second player (O) moves."""
        return 0 if self.first.bit_count() == self.second.bit_count() else 1

    @property
    def code(self) -> int:
        """Base-3 code: sum(d_c * 3**c), d = 0 empty, 1 first player, 2 second player
        (:func:`fastttt.codes.code_of_bitboards`)."""
        return code_of_bitboards(self.first, self.second)

    def winner(self) -> int | None:
        """0 if the first player has a line, 1 if the second has, None otherwise."""
        if has_line(self.spec, self.first):
            return FIRST
        if has_line(self.spec, self.second):
            return SECOND
        return None

    def is_full(self) -> bool:
        return self.occupied == full_mask(self.spec)

    def is_over(self) -> bool:
        return self.is_full() or self.winner() is not None

    def playable_mask(self) -> int:
        """Bitboard of the cells the side to move may take (empty if the game is over)."""
        if self.is_over():
            return 0
        empty = full_mask(self.spec) & ~self.occupied
        if self.spec.gravity:
            return empty & ((self.occupied >> self.spec.cols) | bottom_row_mask(self.spec))
        return empty

    def legal_moves(self) -> list[int]:
        """Moves in increasing order: cells, or columns on gravity boards."""
        mask = self.playable_mask()
        cells = cells_of(mask)
        if self.spec.gravity:
            return sorted(c % self.spec.cols for c in cells)
        return cells

    def move_cell(self, move: int) -> int:
        """The cell a move lands on (checks it), for either kind of board."""
        spec = self.spec
        if self.is_over():
            raise IllegalMoveError("the game is already over")
        if isinstance(move, bool) or not isinstance(move, (int, np.integer)):
            raise IllegalMoveError(f"a move must be an integer, got {move!r}")
        move = int(move)
        if spec.gravity:
            if not 0 <= move < spec.cols:
                raise IllegalMoveError(f"column {move} is off the board (0..{spec.cols - 1})")
            for row in reversed(range(spec.rows)):
                cell = row * spec.cols + move
                if not self.occupied >> cell & 1:
                    return cell
            raise IllegalMoveError(f"column {move} is full")
        if not 0 <= move < spec.cells:
            raise IllegalMoveError(f"cell {move} is off the board (0..{spec.cells - 1})")
        if self.occupied >> move & 1:
            raise IllegalMoveError(
                f"cell {move} (row {move // spec.cols + 1}, column {move % spec.cols + 1}) is taken"
            )
        return move

    def play(self, move: int) -> Position:
        """The position after ``move`` (a cell, or a column with gravity); never mutates."""
        bit = 1 << self.move_cell(move)
        if self.to_move == FIRST:
            return Position(self.spec, self.first | bit, self.second, check=False)
        return Position(self.spec, self.first, self.second | bit, check=False)

    def children(self) -> list[tuple[int, Position]]:
        return [(m, self.play(m)) for m in self.legal_moves()]

    # --- text --------------------------------------------------------------------------
    def cell_char(self, cell: int) -> str:
        if self.first >> cell & 1:
            return SYMBOLS[FIRST]
        if self.second >> cell & 1:
            return SYMBOLS[SECOND]
        return EMPTY

    def __str__(self) -> str:
        cols = self.spec.cols
        chars = [self.cell_char(c) for c in range(self.spec.cells)]
        return "/".join("".join(chars[r * cols : (r + 1) * cols]) for r in range(self.spec.rows))

    def __repr__(self) -> str:
        return f"Position.from_text({self.spec.name!r}, {str(self)!r})"

    def _repr_svg_(self) -> str | None:
        """Inline picture in Jupyter: the one the views register
        (:func:`fastttt.games.registry.notebook_picture`, :func:`fastttt.views.svg.repr_svg`)."""
        from fastttt.games.registry import notebook_picture

        return notebook_picture(self)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.spec == other.spec
            and self.first == other.first
            and self.second == other.second
        )

    def __hash__(self) -> int:
        return hash((self.spec, self.first, self.second))
