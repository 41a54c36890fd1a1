"""Moves on the command line: people's numbering, the text of the play screen.

Every option that names moves (``solve --moves``, ``prove --moves``, ``render --moves``) reads
them here, each move with the game's own :meth:`~fastttt.registry.Game.parse_move`, and every
move the commands print (text or JSON) is written by :meth:`~fastttt.registry.Game.format_move`.
A move list is the moves separated by spaces (a move is written without spaces: ``2,3``, not
``2 3``): ``"2,2 1,1 3,3"`` on tic-tac-toe, ``"5,5 5,1"`` on Ultimate (or a lone cell in the
forced board: ``"5,5 1"``). With gravity a move is one column, so commas separate moves too
(``"4,4,5"``) and, on boards of at most 9 columns, a run of digits is one column per digit
(``4455``, the Connect Four notation the ``--stdin`` filter reads).
"""

from __future__ import annotations

import re
from typing import Any

import click

from fastttt.errors import FastTTTError

MAX_MOVES_TEXT = 6 * 1024  # longer texts are refused before parsing (a whole 32x32 game fits)


def _is_single_number(game: Any) -> bool:
    """Whether a move of ``game`` is a single number (a gravity column)."""
    return bool(getattr(game, "gravity", False))


def split_moves(game: Any, text: str) -> list[str]:
    """The move texts of a move list (see the module docstring), unparsed."""
    text = text.strip()
    if not text:
        return []
    if _is_single_number(game):
        if re.fullmatch(r"\d+", text) and getattr(game, "cols", 10) <= 9:
            return list(text)
        return [word for word in re.split(r"[\s,]+", text) if word]
    return text.split()


def parse_moves(game: Any, text: str | None, option: str = "--moves") -> tuple[Any, list[int]]:
    """``(state, moves)``: the game's state after the moves of ``text`` (people's numbering)
    and the moves in API form. Raises click.UsageError naming ``option``, the move (counted
    from 1) and its text: ``--moves: move 3 ('10'): column 10 is off the board (columns 1 to
    7)``."""
    state = game.initial()
    if text is None:
        return state, []
    if len(text) > MAX_MOVES_TEXT:
        raise click.UsageError(f"{option}: {len(text)} characters long (at most "
                               f"{MAX_MOVES_TEXT})")
    moves = []
    for i, word in enumerate(split_moves(game, text)):
        try:
            if state.is_over():
                raise ValueError("the game is already over")
            move = game.parse_move(word, state)
            state = state.play(move)
        except (FastTTTError, ValueError, IndexError) as err:
            raise click.UsageError(f"{option}: move {i + 1} ({word!r}): {err}") from None
        moves.append(move)
    return state, moves


def format_line(game: Any, state: Any, moves: list[int]) -> list[str]:
    """``moves`` played one after another from ``state``, each in people's numbering."""
    out = []
    for move in moves:
        out.append(game.format_move(state, move))
        state = state.play(move)
    return out


def move_list_text(game: Any, state: Any, moves: list[int]) -> str:
    """``moves`` as a move list that :func:`parse_moves` reads back."""
    return " ".join(format_line(game, state, moves))


def query_state(
    game: Any, position: str | None, moves: str | None
) -> tuple[Any, list[int] | None]:
    """``(state, moves)`` of ``--position`` (its text form; moves None) or ``--moves`` (the
    empty board without either); a usage error naming the option when the text is bad."""
    if position is None:
        return parse_moves(game, moves)
    try:
        return game.state_from_text(position), None
    except FastTTTError as err:
        raise click.UsageError(f"--position: {err}") from None
