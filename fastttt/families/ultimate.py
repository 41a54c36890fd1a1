"""The Game protocol (:class:`fastttt.games.registry.Game`) for Ultimate tic-tac-toe:
:class:`UltimateGame`, a thin adapter around a plain
:class:`~fastttt.games.ultimate.spec.UltimateSpec` giving it move text and terminal drawing
(:mod:`fastttt.views.ultimate_text`), pictures (:mod:`fastttt.views.svg`), players
(:mod:`fastttt.play.ultimate_players`) and move values (:mod:`fastttt.play.move_values`).
``load_game("ultimate")`` returns ``UltimateGame(ULTIMATE)``, equal to its spec and hashed as it is;
the package registers this adapter for the ``ultimate`` family, imported on first use
(``fastttt/__init__.py``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from fastttt.errors import InvalidPositionError
from fastttt.games.registry import SpecGame
from fastttt.games.ultimate.spec import UltimateSpec
from fastttt.games.ultimate.state import UltimateState
from fastttt.play import move_values as values_of_moves
from fastttt.play.ultimate_players import PLAYER_NAMES, make_player
from fastttt.views import svg
from fastttt.views.ultimate_text import MOVE_HELP, format_move, parse_move, render

# What a menu of players offers (UltimateGame.suggested_players), strongest engine first
SUGGESTED_PLAYERS = ("human", "engine:500", "mcts:2000", "minimax:3", "random")
# The largest parameter each player may take (UltimateGame.player_caps; engine: milliseconds,
# or nNODES nodes): each answers a move in about 2 s at most
PLAYER_CAPS = {"minimax:P": 5, "mcts:N": 50_000, "engine:MS": 5_000, "engine:nNODES": 3_000_000}


@dataclass(frozen=True, eq=False)
class UltimateGame(SpecGame):
    """Ultimate tic-tac-toe (``ultimate`` or ``ultimate-open``, as ``spec`` says) as a
    :class:`fastttt.games.registry.Game`; its positions are
    :class:`~fastttt.games.ultimate.state.UltimateState`."""

    spec: UltimateSpec
    supports_hints = False

    # --- the spec's rules, geometry and names ----------------------------------------------
    @property
    def open_won_boards(self) -> bool:
        return self.spec.open_won_boards

    def initial(self) -> UltimateState:
        """The empty board (crosses to move, free choice of board)."""
        return UltimateState(self.open_won_boards)

    def state_from_text(self, text: str) -> UltimateState:
        state = UltimateState.from_text(text)
        if state.open_won_boards != self.open_won_boards:
            raise InvalidPositionError(
                f"position text {text!r} is a position of {state.spec.name}, not {self.name}"
            )
        return state

    def state_from_moves(self, moves: Iterable[int]) -> UltimateState:
        return UltimateState.from_moves(moves, self.open_won_boards)

    # --- move text and drawing -------------------------------------------------------------
    @property
    def move_help(self) -> str:
        return MOVE_HELP

    def parse_move(self, state: Any, text: str) -> int:
        return parse_move(state, text)

    def format_move(self, state: Any, move: int) -> str:
        return format_move(state, move)

    def render(self, state: Any, last_cell: int | None = None, *, color: bool = False) -> str:
        return render(state, last_move=last_cell, color=color)

    def render_svg(self, state: Any, **options: Any) -> str:
        """:func:`fastttt.views.svg.ultimate_svg`; options as :func:`fastttt.views.svg.render`
        says."""
        return svg.ultimate_svg(state, **options)

    def move_values(
        self,
        state: Any,
        seconds: float,
        progress: Callable[[str], None] | None,
        cancel: threading.Event | None,
    ) -> Any:
        """The engine's iterative deepening, move by move: exact where it proves a result,
        else estimates (:func:`fastttt.play.move_values.engine_values`)."""
        return values_of_moves.engine_values(state, seconds, progress, cancel)

    # --- players ---------------------------------------------------------------------------
    def player_names(self) -> tuple[str, ...]:
        return ("human", *PLAYER_NAMES)

    def make_player(self, name: str) -> Any:
        return make_player(name)

    def default_player(self) -> str:
        return "engine"

    def suggested_players(self) -> list[str]:
        return list(SUGGESTED_PLAYERS)

    def player_caps(self) -> dict[str, int]:
        return dict(PLAYER_CAPS)
