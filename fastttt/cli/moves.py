"""Moves on the command line: the move lists of :mod:`fastttt.games.movetext` (people's numbering,
the text of the play screen), with errors that name the option.

Every option that names moves (``solve --moves``, ``prove --moves``, ``render --moves``) reads
them here, and every move the commands print (text or JSON) is written by
:func:`~fastttt.games.movetext.format_line` / :func:`~fastttt.games.movetext.move_list_text`, the
functions the web explorer uses too.
"""

from __future__ import annotations

from typing import Any

import click

from fastttt.errors import FastTTTError
from fastttt.games import movetext
from fastttt.games.movetext import MAX_MOVES_TEXT, format_line, move_list_text, split_moves


def parse_moves(game: Any, text: str | None, option: str = "--moves") -> tuple[Any, list[int]]:
    """``(state, moves)``: :func:`fastttt.games.movetext.parse_moves`, its error a click.UsageError
    naming ``option``, the move (counted from 1) and its text: ``--moves: move 3 ('10'): column
    10 is off the board (columns 1 to 7)``."""
    try:
        return movetext.parse_moves(game, text)
    except movetext.MoveListError as err:
        raise click.UsageError(f"{option}: {err}") from None


def query_state(game: Any, position: str | None, moves: str | None) -> tuple[Any, list[int] | None]:
    """``(state, moves)`` of ``--position`` (its text form; moves None) or ``--moves`` (the
    empty board without either); a usage error naming the option when the text is bad."""
    if position is None:
        return parse_moves(game, moves)
    try:
        return game.state_from_text(position), None
    except FastTTTError as err:
        raise click.UsageError(f"--position: {err}") from None


__all__ = [
    "MAX_MOVES_TEXT",
    "format_line",
    "move_list_text",
    "parse_moves",
    "query_state",
    "split_moves",
]
