"""Questions about single positions, answered the same way by every strong table.

A table stores one byte per position (:mod:`fastttt.kernels.dense`): 0 no position (not
reachable; in a live layered table, which also solves unreachable colourings with no line, a
position no game can be in), ``depth << 2 | v`` with v = 1 first player wins, 2 draw, 3 second
player wins (the table bytes of :mod:`fastttt.values`, read by
:func:`~fastttt.values.values_of_bytes`). Values are
absolute: +1 the first player wins, 0 draw, -1 the second player wins;
depth is the number of plies to the end when the winner hurries and the loser delays.

Single positions: ``value`` / ``depth`` / ``best_moves`` / ``move_outcomes``, with python-chess's
probe/get pairs beside them (``probe_*`` raises on a position not in the table, ``get_*``
returns a default). Many positions: :meth:`PositionQueries.probe_many` /
:meth:`PositionQueries.get_many`, one vectorised look-up (:meth:`PositionQueries.bytes_of`).
A position is a :class:`~fastttt.games.mnk.board.Position`, its text (``X.O/.X./..O``) or its moves
from the empty board (cells, or columns with gravity; 0-based); the many-position look-ups also take
base-3 codes (:mod:`fastttt.codes`): an array of them, or a list of ints.

A win/draw/loss table (``has_depth`` False: ``solve --wdl``) stores v alone (its bytes are
1, 2 or 3): values are answered, every question of depth (``depth``, ``best_moves``,
``move_outcomes`` and their probes) raises :class:`~fastttt.errors.NoDepthError`, and the
many-position look-ups give :data:`NO_DEPTH` as the depth of every position in the table.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from fastttt.codes import MAX_CODE_CELLS, bitboards_of_codes, code_count
from fastttt.errors import InvalidPositionError, NoDepthError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import GameSpec
from fastttt.values import VALUE_OF_BYTE, value_name, values_of_bytes

PositionLike = Position | str | Iterable[int]
MISSING_DEPTH = -1  # get_many's depth of a position not in the table (its value: 0)
NO_DEPTH = -2  # get_many's depth of a position of a win/draw/loss table (it has no depths)


class PositionQueries:
    """value / depth / best_moves / move_outcomes and the probes of a table; subclasses give
    ``spec``, ``_stored_byte(pos)`` and :meth:`bytes_of` (0 for no position: see above)."""

    spec: GameSpec
    has_depth = True  # False: a win/draw/loss table (its bytes hold v alone)

    def _table_name(self) -> str:
        return f"the table of {self.spec.name}"

    def _require_depth(self) -> None:
        """Raise NoDepthError when this table holds win/draw/loss only."""
        if not self.has_depth:
            raise NoDepthError(
                f"{self._table_name()} holds win/draw/loss only, no depths: solve without "
                "--wdl (values='depth') for depths, best moves and move outcomes"
            )

    def _stored_byte(self, pos: Position) -> int:
        raise NotImplementedError

    def bytes_of(self, firsts: np.ndarray, seconds: np.ndarray) -> np.ndarray:
        """Table byte (uint8, :mod:`fastttt.values`) of each position given as uint64 bitboards
        of this game (first, second: no shared cell, none off the board); 0 when it is not
        reachable (wrong stone counts, floating stones, play past the end)."""
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
        if isinstance(pos, Iterable):
            return Position.from_moves(self.spec, pos)
        raise InvalidPositionError(  # a lone int could be a move as well as a code
            f"a position is a Position, its text or its moves (codes go to probe_many), got {pos!r}"
        )

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
        self._require_depth()
        return self._byte(pos)[1] >> 2

    def best_moves(self, pos: PositionLike) -> list[int]:
        """Moves keeping the best outcome for the side to move: fastest win, else draw, else
        slowest loss; cells, or columns with gravity, in increasing order ([] when finished)."""
        self._require_depth()
        pos, byte = self._byte(pos)
        if byte >> 2 == 0:
            return []
        target = byte - 4  # a best child has the same value and one ply less
        return [m for m, child in pos.children() if self._byte(child)[1] == target]

    def move_outcomes(self, pos: PositionLike) -> dict[int, tuple[int, int]]:
        """Each legal move -> (value, depth) of the position it leads to."""
        self._require_depth()
        pos = self._position(pos)
        return {m: (self.value(child), self.depth(child)) for m, child in pos.children()}

    # --- python-chess's probe/get pairs -----------------------------------------------------
    def probe_value(self, pos: PositionLike) -> int:
        """+1 first player wins, 0 draw, -1 second player wins; raises InvalidPositionError when
        ``pos`` is not a position of this game or not in the table (byte 0: see above)."""
        return self.value(pos)

    def probe_depth(self, pos: PositionLike) -> int:
        """Plies to the end under perfect play (winner hurries, loser delays; 0 if finished);
        raises as :meth:`probe_value`."""
        return self.depth(pos)

    def probe_moves(self, pos: PositionLike) -> dict[int, tuple[int, int]]:
        """Each legal move (cell, or column with gravity; 0-based) -> (value, depth) of the
        position it leads to, values +1/0/-1 from the first player's side (:meth:`move_outcomes`);
        {} when the game is over; raises as :meth:`probe_value`."""
        self._byte(pos)  # refuses a position not in the table, as its children would be
        return self.move_outcomes(pos)

    def get_value(self, pos: PositionLike, default: Any = None) -> Any:
        """:meth:`probe_value`, or ``default`` when ``pos`` is not in the table (a position
        that is not one of this game still raises)."""
        byte = self._stored_byte(self._position(pos))
        return default if byte == 0 else int(VALUE_OF_BYTE[byte & 3])

    def get_depth(self, pos: PositionLike, default: Any = None) -> Any:
        """:meth:`probe_depth`, or ``default`` when ``pos`` is not in the table."""
        self._require_depth()
        byte = self._stored_byte(self._position(pos))
        return default if byte == 0 else byte >> 2

    # --- many positions -----------------------------------------------------------------------
    def _bitboards(self, positions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """(firsts, seconds) uint64 of ``positions``, and their codes when given as codes."""
        if isinstance(positions, np.ndarray):
            if positions.ndim != 1 or not (positions.dtype.kind in "iu" or positions.size == 0):
                raise InvalidPositionError(
                    "positions as an array are base-3 codes: a 1-D array of integers, got "
                    f"{positions.ndim}-D {positions.dtype}"
                )
            codes = positions
        elif isinstance(positions, (str, Position)) or not isinstance(positions, Iterable):
            raise InvalidPositionError(
                f"positions are a list or an array of positions, got {type(positions).__name__}"
            )
        else:
            items = list(positions)
            if not items or not all(
                isinstance(p, (int, np.integer)) and not isinstance(p, bool) for p in items
            ):
                firsts = np.empty(len(items), dtype=np.uint64)
                seconds = np.empty(len(items), dtype=np.uint64)
                for i, item in enumerate(items):
                    try:
                        pos = self._position(item)
                    except InvalidPositionError as err:
                        raise type(err)(f"position {i}: {err}") from None
                    firsts[i], seconds[i] = pos.first, pos.second
                return firsts, seconds, None
            codes = np.array(items, dtype=object)  # exact ints: a huge one is refused below
        if self.spec.cells > MAX_CODE_CELLS:
            raise InvalidPositionError(
                f"codes of {self.spec.name} do not fit 64 bits: give Positions or moves"
            )
        outside = (codes < 0) | (codes >= code_count(self.spec.cells))
        if outside.any():
            i = int(np.argmax(outside))
            raise InvalidPositionError(
                f"code {int(codes[i])} (index {i}) is not a position of {self.spec.name}"
            )
        codes = codes.astype(np.int64)
        return *bitboards_of_codes(codes, self.spec.cells), codes

    def get_many(self, positions: Any) -> tuple[np.ndarray, np.ndarray]:
        """(values int8, depths int8) of many positions (a list of Positions, texts or move
        lists, a list of codes, or a 1-D integer array of codes): values +1 first player wins,
        0 draw, -1 second player wins, depths in plies to the end; a position not in the table
        gets value 0 and depth :data:`MISSING_DEPTH` (-1); every depth of a win/draw/loss table
        is :data:`NO_DEPTH` (-2). Raises InvalidPositionError naming
        the first item that is not a position of this game."""
        values, depths = self._many(positions)[:2]
        return values, depths

    def lookup(self, codes: Any) -> tuple[np.ndarray, np.ndarray]:
        """(values int8, depths int8) of base-3 codes (a 1-D integer array, or a list): the
        codes-only :meth:`probe_many`; InvalidPositionError names the first unreachable code."""
        return self.probe_many(np.asarray(codes))

    def probe_many(self, positions: Any) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`get_many`, but a position not in the table raises InvalidPositionError naming
        the first one: the vectorised :meth:`probe_value` and :meth:`probe_depth`."""
        values, depths, firsts, seconds, codes = self._many(positions)
        missing = depths == MISSING_DEPTH
        if missing.any():
            i = int(np.argmax(missing))
            what = (
                f"code {int(codes[i])} (index {i})"
                if codes is not None
                else f"position {i} ({Position(self.spec, int(firsts[i]), int(seconds[i]))})"
            )
            raise InvalidPositionError(
                f"{what} is not a reachable position of {self.spec.name} "
                "(a game stops at the first line)"
            )
        return values, depths

    def _many(self, positions: Any):
        firsts, seconds, codes = self._bitboards(positions)
        lead = np.bitwise_count(firsts).astype(np.int64) - np.bitwise_count(seconds)
        counted = (lead == 0) | (lead == 1)  # X moved first: no table holds other counts
        bytes_ = np.zeros(firsts.shape[0], dtype=np.uint8)
        bytes_[counted] = self.bytes_of(firsts[counted], seconds[counted])
        values, depths = values_of_bytes(bytes_)
        if not self.has_depth:
            depths[:] = NO_DEPTH
        depths[bytes_ == 0] = MISSING_DEPTH
        return values, depths, firsts, seconds, codes

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
            "depth": self.depth(empty) if self.has_depth else None,
            "terminal": counts["terminal"],
            "values": counts["values"],
            "by_ply": counts["by_ply"],
            "seconds": round(seconds, 6),
            "table_bytes": int(table_bytes),
        }
