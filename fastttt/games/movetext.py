"""Move lists as people write them, read and written once for the command line and the web
explorer (see the README's "Move numbering").

A move is what the play screen takes, read by the game's own
:meth:`~fastttt.games.registry.Game.parse_move` and written by its
:meth:`~fastttt.games.registry.Game.format_move`: ``row,col`` from 1 on free boards, the column from
1 with gravity, ``board,cell`` from 1 on Ultimate (or ``rRcC``, or the cell alone when a board
is forced). A move list is the moves separated by spaces (a move is written without spaces:
``2,3``, not ``2 3``): ``"2,2 1,1 3,3"`` on tic-tac-toe, ``"5,5 5,1"`` on Ultimate. With
gravity a move is one number, so commas separate moves too (``"4,4,5"``) and, on boards of at
most 9 columns, a run of digits is one column per digit (``4455``, Connect Four notation).

Used by ``solve``/``prove``/``render --moves`` (:mod:`fastttt.cli.moves` adds the option's name
to the errors) and by the web explorer's ``moves`` parameter (:mod:`fastttt.views.web.app`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from fastttt.errors import FastTTTError, IllegalMoveError, InvalidPositionError
from fastttt.games.registry import as_game, load_game

if TYPE_CHECKING:
    from fastttt.filter import Chunk

MAX_MOVES_TEXT = 6 * 1024  # longer texts are refused before parsing (a whole 32x32 game fits)


class MoveListError(InvalidPositionError):
    """A move list that cannot be read or played: the message names the first bad move,
    counted from 1, its text and what is wrong (``move 3 ('10'): column 10 is off the board
    (columns 1 to 7)``)."""


def split_moves(game: Any, text: str) -> list[str]:
    """The move texts of a move list (see the module docstring), unparsed."""
    text = text.strip()
    if not text:
        return []
    if game.gravity:
        if re.fullmatch(r"\d+", text) and game.cols <= 9:
            return list(text)
        return [word for word in re.split(r"[\s,]+", text) if word]
    return text.split()


def parse_moves(game: Any, text: str | None) -> tuple[Any, list[int]]:
    """``(state, moves)``: ``game``'s state after the moves of ``text`` (people's numbering;
    None or blank: no move) and the moves in API form. Raises :class:`MoveListError` (a
    ``ValueError``) naming the first bad move: unreadable, off the board, illegal there, or
    after the end of the game. ``game``: a :class:`~fastttt.games.registry.Game`, its spec or its
    name (:func:`~fastttt.games.registry.as_game`)."""
    game = as_game(game)
    state = game.initial()
    if text is None:
        return state, []
    if not isinstance(text, str):
        raise MoveListError(f"a move list is text, got {text!r}")
    if len(text) > MAX_MOVES_TEXT:
        raise MoveListError(f"{len(text)} characters long (at most {MAX_MOVES_TEXT})")
    moves = []
    for i, word in enumerate(split_moves(game, text)):
        try:
            if state.is_over():
                raise IllegalMoveError("the game is already over")
            move = game.parse_move(state, word)
            state = state.play(move)
        except (FastTTTError, ValueError, IndexError) as err:
            raise MoveListError(f"move {i + 1} ({word!r}): {err}") from None
        moves.append(move)
    return state, moves


def play_lines(game: Any, chunk: Chunk) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(firsts, seconds, ok)``: the position after each line of ``chunk`` (one move list a
    line, its line ending aside) as uint64 bitboards, for an m,n,k game (``rows``, ``cols``,
    ``k``, ``gravity``) of at most 64 cells; the kernel
    :func:`fastttt.kernels.movetext.play_lines` reads the plain spellings only, and where
    ``ok`` is False the line is for :func:`parse_moves` (which names what is wrong, or reads
    a spelling the kernel leaves to it)."""
    from fastttt.games.mnk.board import BITBOARD_CELLS, cell_lines
    from fastttt.kernels.movetext import play_lines as kernel

    n = len(chunk)
    firsts = np.zeros(n, dtype=np.uint64)
    seconds = np.zeros(n, dtype=np.uint64)
    ok = np.zeros(n, dtype=np.bool_)
    if game.rows * game.cols <= BITBOARD_CELLS:
        board = (game.rows, game.cols, bool(game.gravity), MAX_MOVES_TEXT)
        start, masks = cell_lines(game)
        kernel(board, start, masks, chunk.array, chunk.starts, firsts, seconds, ok)
    return firsts, seconds, ok


def format_line(game: Any, state: Any, moves: list[int]) -> list[str]:
    """``moves`` (API form) played one after another from ``state``, each in people's
    numbering; ``game`` as :func:`parse_moves` takes it."""
    game = as_game(game)
    out = []
    for move in moves:
        out.append(game.format_move(state, move))
        state = state.play(move)
    return out


def move_list_text(game: Any, state: Any, moves: list[int]) -> str:
    """``moves`` (API form, played from ``state``) as a move list that :func:`parse_moves`
    reads back from the same state."""
    return " ".join(format_line(game, state, moves))


class LoadedState(NamedTuple):
    """A game and a position given as text: :func:`load_state`'s answer."""

    game: Any
    state: Any
    moves: list[int] | None  # API form; None for a position given as text


def load_state(game: str, moves: str | None = None, position: str | None = None) -> LoadedState:
    """The game called ``game`` (:func:`~fastttt.games.registry.load_game`) after the move list
    ``moves`` (:func:`parse_moves`), or at ``position`` (its text form; not both; neither: the
    empty board). Raises :class:`~fastttt.errors.GameSpecError` or
    :class:`~fastttt.errors.InvalidPositionError` (both ``ValueError``) on bad text."""
    spec = load_game(_checked(game, "game"))
    if moves is not None and position is not None:
        raise InvalidPositionError("give moves or a position, not both")
    if position is not None:
        return LoadedState(spec, spec.state_from_text(_checked(position, "position")), None)
    try:
        state, played = parse_moves(spec, _checked(moves or "", "moves"))
    except MoveListError as err:
        raise MoveListError(f"moves: {err}") from None
    return LoadedState(spec, state, played)


def _checked(text: object, what: str) -> str:
    if not isinstance(text, str):
        raise InvalidPositionError(f"{what} must be text, got {text!r}")
    if len(text) > MAX_MOVES_TEXT:
        raise InvalidPositionError(
            f"{what} is {len(text)} characters long (at most {MAX_MOVES_TEXT})"
        )
    return text
