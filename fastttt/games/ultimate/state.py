"""Positions of Ultimate tic-tac-toe ("Morpionception"): nine 3x3 boards in a 3x3 frame.

Numbering (boards in the frame and cells in a board are both row by row from the top-left)::

    board 0 | board 1 | board 2          cell  0 1 2
    --------+---------+--------                3 4 5
    board 3 | board 4 | board 5                6 7 8
    --------+---------+--------
    board 6 | board 7 | board 8          move = board * 9 + cell   (0..80)

On the 9x9 grid, row R and column C (0-based) hold board (R//3)*3 + C//3, cell (R%3)*3 + C%3.

Rules: crosses (X, player 0) move first. The cell played sends the opponent to the board of
that number; when that board is closed they may play in any open board. Three in a line in a
board claims it for the player who made the line; a full board without a line claims nothing.
Three claimed boards in a line of the frame win; no move left otherwise is a draw. Standard
rule: a claimed board is closed. Variant ``open_won_boards=True``: play goes on inside claimed
boards until they are full (the first line in a board claims it for good).

Text form (round-trips, ``UltimateState.from_text(str(s)) == s``)::

    "X......../........./...../.........  X........  4"    [+ " open" for the variant]
     9 grid rows joined by '/'             frame        forced board 0..8, or '*' for free

The frame lists the claim of each board (``X``, ``O`` or ``.``); it may be left out under the
standard rule, where the stones decide it. Bitboard layout: :mod:`fastttt.kernels.ultimate`.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from fastttt.errors import (
    IllegalMoveError,
    InvalidArgumentError,
    InvalidPositionError,
    require_moves,
)
from fastttt.games.mnk.board import contains_line
from fastttt.kernels import ultimate as K

_apply = getattr(K.apply_move, "py_func", K.apply_move)
_gen = getattr(K.gen_moves, "py_func", K.gen_moves)

SYMBOLS = ("X", "O")


def _has_line(mask: int) -> bool:
    """Whether a 9-bit board (or frame) mask holds a line of three."""
    return contains_line(K.LINES, mask)


class UltimateState:
    """An immutable Ultimate tic-tac-toe position (see the module docstring for conventions).

    ``UltimateState()`` is the empty board; ``open_won_boards=True`` selects the variant where
    claimed boards stay playable until full.
    """

    __slots__ = ("_s",)

    def __init__(self, open_won_boards: bool = False):
        if not isinstance(open_won_boards, (bool, np.bool_)):
            raise InvalidArgumentError(f"open_won_boards must be a bool, got {open_won_boards!r}")
        s = [0] * K.NS
        s[K.FORCED] = -1
        s[K.VARIANT] = 1 if open_won_boards else 0
        self._s = tuple(s)

    @classmethod
    def _from_slots(cls, slots) -> UltimateState:
        obj = cls.__new__(cls)
        obj._s = tuple(int(v) for v in slots)
        return obj

    # --- properties ------------------------------------------------------------------
    @property
    def open_won_boards(self) -> bool:
        return bool(self._s[K.VARIANT])

    @property
    def spec(self):
        """The game, ``ultimate`` or ``ultimate-open`` (an :class:`~.spec.UltimateSpec`)."""
        from fastttt.games.ultimate.spec import ULTIMATE, ULTIMATE_OPEN

        return ULTIMATE_OPEN if self.open_won_boards else ULTIMATE

    @property
    def to_move(self) -> int:
        """0 when crosses (X, first player) move, 1 when circles (O) move."""
        return self._s[K.SIDE]

    @property
    def ply(self) -> int:
        """Number of moves played."""
        return self._s[K.PLY]

    @property
    def forced_board(self) -> int | None:
        """The board (0..8) the side to move must play in, or None for a free choice."""
        f = self._s[K.FORCED]
        return None if f < 0 or self.is_over() else f

    def frame_mask(self, player: int) -> int:
        """Bit b set when ``player`` has claimed board b."""
        return self._s[K.FX + player]

    def closed_mask(self) -> int:
        """Bit b set when no move is left in board b (won or full; full only in the variant)."""
        return self._s[K.CLOSED]

    def claims(self) -> tuple[int | None, ...]:
        """For each board: 0 claimed by X, 1 claimed by O, None unclaimed."""
        fx, fo = self._s[K.FX], self._s[K.FO]
        return tuple(0 if fx >> b & 1 else 1 if fo >> b & 1 else None for b in range(9))

    def cell(self, move: int) -> int | None:
        """Who holds cell ``move`` (0..80): 0 X, 1 O, None empty."""
        b, c = divmod(move, 9)
        if self._s[b] >> c & 1:
            return 0
        if self._s[9 + b] >> c & 1:
            return 1
        return None

    def winner(self) -> int | None:
        """0 if crosses won, 1 if circles won, None otherwise (ongoing or drawn)."""
        r = self._s[K.RESULT]
        return 0 if r == K.X_WON else 1 if r == K.O_WON else None

    def is_over(self) -> bool:
        return self._s[K.RESULT] != K.ONGOING

    def move_cell(self, move: int) -> int:
        """The cell ``move`` fills: the move itself (0..80)."""
        return int(move)

    def is_draw(self) -> bool:
        return self._s[K.RESULT] == K.DRAWN

    def legal_moves(self) -> list[int]:
        """Legal moves (board * 9 + cell) in increasing order; empty when the game is over."""
        out = [0] * 81
        n = _gen(self._s, out)
        return out[:n]

    def play(self, move: int) -> UltimateState:
        """The position after ``move`` (0..80); never mutates. Raises IllegalMoveError."""
        if isinstance(move, bool) or not isinstance(move, (int, np.integer)):
            raise IllegalMoveError(f"a move must be an integer 0..80, got {move!r}")
        move = int(move)
        if self.is_over():
            raise IllegalMoveError("the game is already over")
        if not 0 <= move < 81:
            raise IllegalMoveError(f"move {move} is off the board (0..80 = board * 9 + cell)")
        reason = self.why_illegal(move)
        if reason is not None:
            b, c = divmod(move, 9)  # the API move as given, boards and cells counted from 1
            raise IllegalMoveError(f"move {move} (board {b + 1}, cell {c + 1}): {reason}")
        s = list(self._s)
        _apply(s, move)
        return UltimateState._from_slots(s)

    def why_illegal(self, move: int) -> str | None:
        """Why the rules forbid ``move`` (0..80) in this live position, in people's words
        (boards counted from 1); None when it is legal."""
        b = move // 9
        if self.cell(move) is not None:
            return "the cell is taken"
        if self._s[K.CLOSED] >> b & 1:
            return f"board {b + 1} is finished"
        f = self.forced_board
        if f is not None and b != f:
            return f"the move must be in board {f + 1}"
        return None

    def array(self) -> np.ndarray:
        """The kernel state (int32 array, layout in :mod:`fastttt.kernels.ultimate`)."""
        return np.array(self._s, dtype=np.int32)

    @classmethod
    def from_moves(cls, moves: Iterable[int], open_won_boards: bool = False) -> UltimateState:
        """Play ``moves`` (0..80, in order: not a set or a dict) from the empty board; the error
        names the first bad move."""
        state = cls(open_won_boards)
        for i, move in enumerate(require_moves(moves, "integers 0..80")):
            try:
                state = state.play(move)
            except IllegalMoveError as err:
                raise IllegalMoveError(f"move {i + 1}: {err}") from None
        return state

    # --- text ------------------------------------------------------------------------
    def grid_text(self) -> str:
        rows = []
        for r in range(9):
            row = []
            for c in range(9):
                who = self.cell((r // 3 * 3 + c // 3) * 9 + (r % 3) * 3 + c % 3)
                row.append("." if who is None else SYMBOLS[who])
            rows.append("".join(row))
        return "/".join(rows)

    def __str__(self) -> str:
        frame = "".join("." if c is None else SYMBOLS[c] for c in self.claims())
        f = self.forced_board
        text = f"{self.grid_text()} {frame} {'*' if f is None else f}"
        return text + " open" if self.open_won_boards else text

    def __repr__(self) -> str:
        return f"UltimateState.from_text({str(self)!r})"

    def _repr_svg_(self) -> str | None:
        """Inline picture in Jupyter: the one the views register
        (:func:`fastttt.games.registry.notebook_picture`, :func:`fastttt.views.svg.repr_svg`)."""
        from fastttt.games.registry import notebook_picture

        return notebook_picture(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UltimateState) and self._s == other._s

    def __hash__(self) -> int:
        return hash(self._s)

    @classmethod
    def from_text(cls, text: str) -> UltimateState:
        """Parse the text form (see the module docstring); checks counts, claims and forced."""
        if not isinstance(text, str):
            raise InvalidPositionError(f"expected a position text, got {text!r}")
        tokens = text.split()
        variant = bool(tokens) and tokens[-1].lower() == "open"
        if variant:
            tokens = tokens[:-1]
        if not 1 <= len(tokens) <= 3:
            raise InvalidPositionError(
                f"position text {text!r}: expected 'GRID [FRAME] [FORCED] [open]'"
            )
        grid = tokens[0].replace("/", "").replace("|", "")
        if len(grid) != 81:
            raise InvalidPositionError(
                f"position text {text!r}: the grid has {len(grid)} cells, expected 81"
            )
        s = [0] * K.NS
        for i, ch in enumerate(grid.upper()):
            r, c = divmod(i, 9)
            b, cell = r // 3 * 3 + c // 3, (r % 3) * 3 + c % 3
            if ch == "X":
                s[b] |= 1 << cell
            elif ch == "O":
                s[9 + b] |= 1 << cell
            elif ch not in ".-_":
                raise InvalidPositionError(
                    f"position text {text!r}: grid row {r + 1}, column {c + 1} is {ch!r}; "
                    "use '.', 'X' or 'O'"
                )
        nx = sum(bin(m).count("1") for m in s[0:9])
        no = sum(bin(m).count("1") for m in s[9:18])
        if nx - no not in (0, 1):
            raise InvalidPositionError(
                f"position text {text!r}: {nx} X and {no} O; X moves first, so X must have "
                "as many stones as O or one more"
            )
        frame_text = tokens[1] if len(tokens) >= 2 else None
        if frame_text is not None and len(frame_text) != 9:
            raise InvalidPositionError(
                f"position text {text!r}: the frame {frame_text!r} must have 9 characters"
            )
        for b in range(9):
            lx, lo = _has_line(s[b]), _has_line(s[9 + b])
            claim = None
            if frame_text is not None:
                ch = frame_text[b].upper()
                if ch not in "XO.-_":
                    raise InvalidPositionError(
                        f"position text {text!r}: frame board {b + 1} is {ch!r}; use '.', 'X', 'O'"
                    )
                claim = 0 if ch == "X" else 1 if ch == "O" else None
            if lx and lo and not variant:
                raise InvalidPositionError(
                    f"position text {text!r}: board {b + 1} has lines of both players"
                )
            if not variant or not (lx and lo):
                derived = 0 if lx else 1 if lo else None
                if frame_text is not None and claim != derived:
                    raise InvalidPositionError(
                        f"position text {text!r}: the frame says board {b + 1} is claimed by "
                        f"{'nobody' if claim is None else SYMBOLS[claim]}, its stones say "
                        f"{'nobody' if derived is None else SYMBOLS[derived]}"
                    )
                claim = derived
            elif claim is None:
                raise InvalidPositionError(
                    f"position text {text!r}: board {b + 1} has lines of both players; the frame "
                    "must say who made the first"
                )
            if claim is not None:
                s[K.FX + claim] |= 1 << b
                if not variant:
                    s[K.CLOSED] |= 1 << b
            if s[b] | s[9 + b] == K.FULL:
                s[K.CLOSED] |= 1 << b
        s[K.SIDE] = 0 if nx == no else 1
        s[K.PLY] = nx + no
        s[K.VARIANT] = int(variant)
        wx, wo = _has_line(s[K.FX]), _has_line(s[K.FO])
        if wx and wo:
            raise InvalidPositionError(f"position text {text!r}: both players won the frame")
        if wx or wo:
            winner = 0 if wx else 1
            if s[K.SIDE] == winner:
                raise InvalidPositionError(
                    f"position text {text!r}: {SYMBOLS[winner]} won but is to move"
                )
            s[K.RESULT] = K.X_WON if wx else K.O_WON
        elif s[K.CLOSED] == K.FULL:
            s[K.RESULT] = K.DRAWN
        forced_text = tokens[2] if len(tokens) == 3 else "*"
        if forced_text in ("*", "-"):
            s[K.FORCED] = -1
        elif forced_text.isascii() and forced_text.isdigit() and int(forced_text) < 9:
            f = int(forced_text)
            if s[K.CLOSED] >> f & 1 or s[K.RESULT] != K.ONGOING:
                raise InvalidPositionError(
                    f"position text {text!r}: forced board {f} is finished; write '*'"
                )
            s[K.FORCED] = f
        else:
            raise InvalidPositionError(
                f"position text {text!r}: the forced board must be 0..8 or '*', got {forced_text!r}"
            )
        return cls._from_slots(s)
