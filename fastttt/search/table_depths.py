"""Depths for a win/draw/loss table: the table gives a position's value, a short search its
distance to the end, as Markus Böck's probe does over his win/draw/loss solution.

:func:`with_depths` wraps a table solved with ``--wdl`` (``has_depth`` False) so that it answers
every question of :class:`~fastttt.tables.queries.PositionQueries`, depths included: a draw
lasts until the board is full (no search), a win or a loss is the exact score of
:meth:`~fastttt.search.alphabeta.Searcher.solve_between` searched within the sign the table
gives (the half of the score range that a plain solve spends its first searches ruling out).
Values and depths are the byte table's (absolute values, plies to the end with the winner
hurrying); tests compare them position by position.
"""

from __future__ import annotations

import numpy as np

from fastttt.games.mnk.board import Position
from fastttt.search.alphabeta import Searcher, searcher
from fastttt.tables.queries import PositionQueries
from fastttt.values import DRAW, VALUE_OF_BYTE, relative, score_base, table_from_score


def with_depths(table: PositionQueries) -> PositionQueries:
    """``table`` itself when it holds depths, else a :class:`SearchedDepths` over it."""
    return table if table.has_depth else SearchedDepths(table)


class SearchedDepths(PositionQueries):
    """A win/draw/loss ``table`` whose depths are searched: ``depth``, ``best_moves``,
    ``move_outcomes`` and their probes search each position they need (one search a position;
    Connect Four 5x6, any position: well under a second), ``probe_many``/``get_many`` search
    every position given (for many positions, ask the table itself: values only)."""

    has_depth = True

    def __init__(self, table: PositionQueries, search: Searcher | None = None):
        self.table = table
        self.spec = table.spec
        self.search = search if search is not None else searcher(table.spec)

    def _table_name(self) -> str:
        return self.table._table_name()

    def _stored_byte(self, pos: Position) -> int:
        return self._with_depth(pos, self.table._stored_byte(pos))

    def bytes_of(self, firsts: np.ndarray, seconds: np.ndarray) -> np.ndarray:
        stored = self.table.bytes_of(firsts, seconds)
        out = stored.copy()
        for i in np.flatnonzero(stored).tolist():
            pos = Position(self.spec, int(firsts[i]), int(seconds[i]), check=False)
            out[i] = self._with_depth(pos, int(stored[i]))
        return out

    def _with_depth(self, pos: Position, byte: int) -> int:
        """``byte`` (a win/draw/loss table's: value only; 0 not in the table) with the depth
        of ``pos`` searched in."""
        if byte == 0 or pos.is_over():
            return byte
        return self.depth_of(pos, int(VALUE_OF_BYTE[byte & 3])) << 2 | byte & 3

    def depth_of(self, pos: Position, value: int) -> int:
        """Plies to the end of the live ``pos`` whose absolute ``value`` (+1 first player wins,
        0 draw, -1 second player wins) is known."""
        mover = relative(value, pos.to_move)
        if mover == DRAW:
            return self.spec.cells - pos.ply
        base = score_base(self.spec)
        if mover > 0:  # from the slowest win to a win with the next stone
            lo, hi = 1, base - (pos.ply // 2 + 1)
        else:
            lo, hi = -(base - ((pos.ply + 1) // 2 + 1)), -1
        return table_from_score(self.spec, pos.ply, self.search.solve_between(pos, lo, hi))[1]
