"""The sub-board argument: a first-player win on a smaller free board of the same k is a
first-player win on every free board that holds it.

The first player plays the small board's winning strategy inside a copy of it (the
*window*) placed on the big board, turned if need be. A reply of the second player outside
the window blocks no line inside it: the first player then answers with any empty cell of
the window, an extra stone that never hurts in an m,n,k-game, and goes on with the strategy
as if the reply had been a pass (where the strategy later asks for that cell, any other
empty cell of the window will do). The strategy completes a line of the window, which is a
line of the big board. The same holds for a window on any position whose stones all lie
inside it; here it serves the empty board. The argument does not hold with gravity (a stone
outside the window can change where the next one lands).

Which windows to try: the first-player wins of the literature file
(:func:`fastttt.games.facts.known_values`, those within this project's reach), smallest
first. They only pick the candidates: the window's value is proven again by search, never
taken from the file.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastttt.games.facts import KnownValue, known_values
from fastttt.games.mnk.spec import GameSpec


@dataclass(frozen=True)
class Window:
    """The small board ``small`` placed on ``big``: its row 0, column 0 at ``(row, col)`` of
    the big board, its rows running along the big board's columns when ``turned``."""

    small: GameSpec
    big: GameSpec
    row: int
    col: int
    turned: bool

    def cell(self, cell: int) -> int:
        """The big board's cell (``row * cols + col``) of the window's ``cell``."""
        r, c = divmod(cell, self.small.cols)
        if self.turned:
            r, c = c, r
        return (self.row + r) * self.big.cols + self.col + c


def place(small: GameSpec, big: GameSpec) -> Window | None:
    """``small`` centred on ``big`` (turned when only that fits), or None when the argument
    does not apply: gravity on either, another k, or no room."""
    if small.gravity or big.gravity or small.k != big.k:
        return None
    for turned in (False, True):
        rows, cols = (small.cols, small.rows) if turned else (small.rows, small.cols)
        if rows <= big.rows and cols <= big.cols:
            return Window(small, big, (big.rows - rows) // 2, (big.cols - cols) // 2, turned)
    return None


def candidates(big: GameSpec) -> list[tuple[Window, KnownValue]]:
    """The windows worth a search on ``big``'s empty board: boards smaller than ``big`` that
    the literature file lists as first-player wins within reach, smallest first, each with
    its line of the file (its ``budget``: the seconds its own check may take)."""
    found = []
    for known in known_values():
        if known.value != "first" or not known.reach:
            continue
        small = known.spec
        window = place(small, big) if small.cells < big.cells else None
        if window is not None:
            found.append((window, known))
    return sorted(found, key=lambda pair: (pair[0].small.cells, pair[1].game))
