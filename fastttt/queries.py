"""Questions about single positions, answered the same way by every strong table.

A table stores one byte per position (:mod:`fastttt.kernels.dense`): 0 not reachable,
``depth << 2 | v`` with v = 1 first player wins, 2 draw, 3 second player wins (the table
bytes of :mod:`fastttt.values`, read by :func:`~fastttt.values.values_of_bytes`). Values are
absolute: +1 the first player wins, 0 draw, -1 the second player wins;
depth is the number of plies to the end when the winner hurries and the loser delays.
"""

from __future__ import annotations

from collections.abc import Iterable

from fastttt.board import Position
from fastttt.errors import InvalidPositionError
from fastttt.games import GameSpec
from fastttt.values import VALUE_OF_BYTE, value_name

PositionLike = Position | str | Iterable[int]


class PositionQueries:
    """value / depth / best_moves / move_outcomes of a table; subclasses give ``spec`` and
    ``_stored_byte(pos)`` (0 when the position is not reachable)."""

    spec: GameSpec

    def _stored_byte(self, pos: Position) -> int:
        raise NotImplementedError

    def _position(self, pos: PositionLike) -> Position:
        if isinstance(pos, Position):
            if pos.spec != self.spec:
                raise InvalidPositionError(
                    f"position of {pos.spec.name}, table of {self.spec.name}"
                )
            return pos
        if isinstance(pos, str):
            return Position.from_text(self.spec, pos)
        return Position.from_moves(self.spec, pos)

    def _byte(self, pos: PositionLike) -> tuple[Position, int]:
        pos = self._position(pos)
        byte = self._stored_byte(pos)
        if byte == 0:
            raise InvalidPositionError(
                f"position {pos} is not reachable from the empty board of {self.spec.name} "
                "(a game stops at the first line)"
            )
        return pos, byte

    def value(self, pos: PositionLike) -> int:
        """+1 first player wins, 0 draw, -1 second player wins (pos: Position, text or moves)."""
        return int(VALUE_OF_BYTE[self._byte(pos)[1] & 3])

    def depth(self, pos: PositionLike) -> int:
        """Plies to the end under perfect play (winner hurries, loser delays); 0 if finished."""
        return self._byte(pos)[1] >> 2

    def best_moves(self, pos: PositionLike) -> list[int]:
        """Moves keeping the best outcome for the side to move: fastest win, else draw, else
        slowest loss; cells, or columns with gravity, in increasing order ([] when finished)."""
        pos, byte = self._byte(pos)
        if byte >> 2 == 0:
            return []
        target = byte - 4  # a best child has the same value and one ply less
        return [m for m, child in pos.children() if self._byte(child)[1] == target]

    def move_outcomes(self, pos: PositionLike) -> dict[int, tuple[int, int]]:
        """Each legal move -> (value, depth) of the position it leads to."""
        pos = self._position(pos)
        return {m: (self.value(child), self.depth(child)) for m, child in pos.children()}

    def _summary(self, counts: dict, seconds: float, table_bytes: int) -> dict:
        """The fields of ``fastttt solve --json`` shared by every engine."""
        empty = Position.empty(self.spec)
        return {
            "game": self.spec.name,
            "rows": self.spec.rows,
            "cols": self.spec.cols,
            "k": self.spec.k,
            "gravity": self.spec.gravity,
            "reachable": counts["reachable"],
            "value": value_name(self.value(empty)),
            "depth": self.depth(empty),
            "terminal": counts["terminal"],
            "values": counts["values"],
            "seconds": round(seconds, 6),
            "table_bytes": int(table_bytes),
        }
