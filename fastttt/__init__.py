"""fastttt: fast strong solvers for the tic-tac-toe family.

Conventions (see :mod:`fastttt.games`, :mod:`fastttt.board`, :mod:`fastttt.values`): boards are
``rows x cols``, cells numbered row by row from the top-left; the first player is X and moves
first; table values are +1 first player wins, 0 draw, -1 second player wins.
"""

from fastttt.board import Position
from fastttt.errors import (
    FastTTTError,
    GameSpecError,
    IllegalMoveError,
    InvalidPositionError,
    MemoryBudgetError,
    TableFileError,
)
from fastttt.games import GameSpec, connect4, mnk, tictactoe
from fastttt.registry import game_names, load_game

__version__ = "0.1.0"

__all__ = [
    "FastTTTError",
    "GameSpec",
    "GameSpecError",
    "IllegalMoveError",
    "InvalidPositionError",
    "MemoryBudgetError",
    "Position",
    "TableFileError",
    "connect4",
    "game_names",
    "load_game",
    "mnk",
    "tictactoe",
]
