"""fastttt: fast strong solvers for the tic-tac-toe family.

Conventions (see :mod:`fastttt.games.mnk.spec`, :mod:`fastttt.games.mnk.board`,
:mod:`fastttt.values`): boards are ``rows x cols``, cells numbered row by row from the top-left; the
first player is X and moves first; table values are +1 first player wins, 0 draw, -1 second player
wins.

``fastttt.open_table(PATH)`` opens a solved table (a layered folder or a ``.fttt`` file) for
probes (:func:`fastttt.tables.probe.open_table`); ``fastttt.solve`` and ``solve_layered`` solve a
board (:mod:`fastttt.tables.dense`, :mod:`fastttt.tables.layered`), ``fastttt.render`` draws a
position as SVG (:func:`fastttt.views.svg.render`) and ``fastttt.move_values`` values every move
(:func:`fastttt.play.move_values.move_values`). These are imported on first use, with Numba.

Importing the package registers each game family's adapter (the Game protocol, above the players
and views it uses) with :mod:`fastttt.games.registry`: m,n,k-games now
(:class:`fastttt.families.mnk.MnkGame`), Ultimate on first use
(:class:`fastttt.families.ultimate.UltimateGame`).
"""

from typing import TYPE_CHECKING, Any

from fastttt.errors import (
    FastTTTError,
    GameSpecError,
    IllegalMoveError,
    InvalidPositionError,
    MemoryBudgetError,
    TableFileError,
)
from fastttt.families.mnk import MnkGame
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import GameSpec, connect4, mnk, tictactoe
from fastttt.games.registry import game_names, load_game, register_family

if TYPE_CHECKING:
    from fastttt.play.move_values import move_values
    from fastttt.tables.dense import solve
    from fastttt.tables.layered import solve_layered
    from fastttt.tables.probe import open_table
    from fastttt.views.svg import render

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
    "move_values",
    "open_table",
    "render",
    "solve",
    "solve_layered",
    "tictactoe",
]


def _ultimate_game(spec: Any) -> Any:
    """Ultimate's adapter, imported (with the engine and Numba) when a game of it is asked for."""
    from fastttt.families.ultimate import UltimateGame

    return UltimateGame(spec)


register_family("mnk", MnkGame)
register_family("ultimate", _ultimate_game)


def __getattr__(name: str) -> Any:
    """The attributes imported on first use: they load Numba (0.3 s)."""
    if name == "open_table":
        from fastttt.tables.probe import open_table

        return open_table
    if name == "solve":
        from fastttt.tables.dense import solve

        return solve
    if name == "solve_layered":
        from fastttt.tables.layered import solve_layered

        return solve_layered
    if name == "move_values":
        from fastttt.play.move_values import move_values

        return move_values
    if name == "render":
        from fastttt.views.svg import render

        return render
    raise AttributeError(f"module 'fastttt' has no attribute {name!r}")
