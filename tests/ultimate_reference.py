"""Plain-Python Ultimate tic-tac-toe rules and exhaustive minimax: slow, obviously correct (the
tests' oracle for the bitboard rules, kept out of the package).

Written independently of the bitboards, in the handout's terms: ``grid[b][c]`` is ``"."``,
``"X"`` or ``"O"`` for board b, cell c (both 0..8 row by row); ``claims[b]`` is ``"X"``, ``"O"``
or ``None``; ``forced`` is the board to play in or None. Used by the tests to check the kernels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def line_of(cells: list, who: str) -> bool:
    return any(all(cells[i] == who for i in line) for line in LINES)


@dataclass
class RefState:
    grid: list = field(default_factory=lambda: [["."] * 9 for _ in range(9)])
    claims: list = field(default_factory=lambda: [None] * 9)
    forced: int | None = None
    player: str = "X"
    open_won_boards: bool = False

    def copy(self) -> RefState:
        return RefState(
            [row[:] for row in self.grid],
            self.claims[:],
            self.forced,
            self.player,
            self.open_won_boards,
        )

    def board_finished(self, b: int) -> bool:
        full = all(v != "." for v in self.grid[b])
        if self.open_won_boards:
            return full
        return full or self.claims[b] is not None

    def winner(self) -> str | None:
        for who in "XO":
            if line_of(self.claims, who):
                return who
        return None

    def legal_moves(self) -> list[int]:
        if self.winner() is not None:
            return []
        if self.forced is not None and not self.board_finished(self.forced):
            boards = [self.forced]
        else:
            boards = [b for b in range(9) if not self.board_finished(b)]
        return [b * 9 + c for b in boards for c in range(9) if self.grid[b][c] == "."]

    def is_over(self) -> bool:
        return not self.legal_moves()

    def text(self) -> str:
        """The position as proof files name it: the 9x9 grid row by row (rows joined by
        ``/``), the boards' claims, the board to play in (``*``: any open one, or the game is
        over), ``open``."""
        rows = (
            "".join(self.grid[r // 3 * 3 + c // 3][r % 3 * 3 + c % 3] for c in range(9))
            for r in range(9)
        )
        claims = "".join(c or "." for c in self.claims)
        free = self.forced is None or self.board_finished(self.forced) or self.winner()
        text = f"{'/'.join(rows)} {claims} {'*' if free else self.forced}"
        return text + " open" if self.open_won_boards else text

    def play(self, move: int) -> RefState:
        assert move in self.legal_moves()
        b, c = divmod(move, 9)
        new = self.copy()
        new.grid[b][c] = self.player
        if new.claims[b] is None and line_of(new.grid[b], self.player):
            new.claims[b] = self.player
        new.forced = c
        new.player = "O" if self.player == "X" else "X"
        return new


class TreeTooLarge(RuntimeError):
    """The exhaustive minimax met more distinct positions than its ``limit``."""


def minimax(state: RefState, memo: dict | None = None, limit: int = 10**9) -> tuple[int, int]:
    """(value, plies): value +1 X wins, 0 draw, -1 O wins under perfect play; the winner
    hurries and the loser delays (plies to the end of the game). Raises TreeTooLarge past
    ``limit`` distinct positions."""
    if memo is None:
        memo = {}
    if len(memo) > limit:
        raise TreeTooLarge(f"more than {limit} positions")
    key = (
        tuple(tuple(r) for r in state.grid),
        tuple(state.claims),
        state.forced
        if state.forced is not None and not state.board_finished(state.forced)
        else None,
        state.player,
    )
    if key in memo:
        return memo[key]
    w = state.winner()
    if w is not None:
        result = (1 if w == "X" else -1, 0)
    else:
        moves = state.legal_moves()
        if not moves:
            result = (0, 0)
        else:
            sign = 1 if state.player == "X" else -1
            best = None
            for m in moves:
                v, d = minimax(state.play(m), memo, limit)
                # rank from the mover's view: win soon > win late > draw > lose late > lose soon
                rel = sign * v
                rank = (rel, -(d + 1) if rel > 0 else (d + 1) if rel < 0 else 0)
                if best is None or rank > best[0]:
                    best = (rank, (v, d + 1))
            result = best[1]
    memo[key] = result
    return result
