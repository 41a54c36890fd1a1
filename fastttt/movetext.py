"""A game and a position given as text, as the command line and the web explorer's URLs write
them: ``game`` a name :func:`fastttt.registry.load_game` accepts, then either ``moves`` or
``position``.

Moves, as ``fastttt solve --moves`` reads them: with gravity 1-based columns, as digits
(``4455``) or comma-separated (``1,10``); on free boards comma-separated 0-based cells
(``4,0,8``); Ultimate comma-separated moves 0..80 (board * 9 + cell). ``position`` is the text
form of :class:`fastttt.board.Position` or :class:`fastttt.ultimate.UltimateState`.
"""

from __future__ import annotations

from typing import Any

from fastttt.board import Position, numbers_from_move_text
from fastttt.errors import InvalidPositionError
from fastttt.games import MAX_CELLS, GameSpec
from fastttt.registry import load_game

MAX_TEXT = 6 * MAX_CELLS  # longer inputs are refused before parsing (a whole game of the
# biggest board fits: up to 4 digits and a comma a move)


def parse_moves(spec: Any, text: str) -> list[int]:
    """The moves of ``text`` in API form (cells, 0-based columns, or 0..80 for Ultimate).

    The numbers are read by :func:`fastttt.board.numbers_from_move_text` (whitespace inside
    a move is an error); raises :class:`InvalidPositionError` naming the first bad move;
    legality is checked when the moves are played."""
    text = _checked(text, "moves")
    gravity = isinstance(spec, GameSpec) and spec.gravity
    numbers = numbers_from_move_text(text, digits=gravity)
    if not gravity:
        return numbers
    for i, col in enumerate(numbers):
        if not 1 <= col <= spec.cols:
            raise InvalidPositionError(
                f"moves {text!r}: move {i + 1}: column {col} is off the board (1..{spec.cols})"
            )
    return [col - 1 for col in numbers]


def format_moves(spec: Any, moves: list[int]) -> str:
    """The text :func:`parse_moves` reads back (comma-separated; columns from 1 with gravity)."""
    gravity = isinstance(spec, GameSpec) and spec.gravity
    return ",".join(str(m + 1 if gravity else m) for m in moves)


def load_state(game: str, moves: str | None = None, position: str | None = None):
    """``(spec, state)``: the game ``game`` after ``moves``, or at ``position`` (not both;
    neither: the empty board). Raises :class:`~fastttt.errors.GameSpecError` or
    :class:`~fastttt.errors.InvalidPositionError` (a ``ValueError``) on bad text."""
    spec = load_game(_checked(game, "game"))
    if moves is not None and position is not None:
        raise InvalidPositionError("give moves or a position, not both")
    if isinstance(spec, GameSpec):
        if position is not None:
            return spec, Position.from_text(spec, _checked(position, "position"))
        return spec, Position.from_moves(spec, parse_moves(spec, moves or ""))
    from fastttt.ultimate import UltimateState

    if position is not None:
        state = UltimateState.from_text(_checked(position, "position"))
        if state.open_won_boards != spec.open_won_boards:
            raise InvalidPositionError(f"position {position!r} is not a position of {spec.name}")
        return spec, state
    return spec, UltimateState.from_moves(parse_moves(spec, moves or ""), spec.open_won_boards)


def _checked(text: object, what: str) -> str:
    if not isinstance(text, str):
        raise InvalidPositionError(f"{what} must be text, got {text!r}")
    if len(text) > MAX_TEXT:
        raise InvalidPositionError(f"{what} is {len(text)} characters long (at most {MAX_TEXT})")
    return text
