"""The Game protocol (:class:`fastttt.games.registry.Game`) for m,n,k-games: :class:`MnkGame`, a
thin adapter around a plain :class:`~fastttt.games.mnk.spec.GameSpec` (rules and geometry), giving
it the services that live above it: move text and terminal drawing (:mod:`fastttt.views.text`),
pictures (:mod:`fastttt.views.svg`), players (:mod:`fastttt.play.players`) and move values
(:mod:`fastttt.play.move_values`).

``load_game("tictactoe")`` returns ``MnkGame(tictactoe)``; a game equals its spec and hashes as
it does (``load_game("connect4") == fastttt.games.mnk.spec.connect4``), so either keys the same
caches, and every function that takes a spec takes the game too
(:func:`fastttt.games.mnk.spec.as_spec`). A position's game is
``fastttt.games.registry.game_of(position)``. The package registers this adapter for the ``mnk``
family when it is imported (``fastttt/__init__.py``).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from fastttt.errors import UnknownPlayerError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import GameSpec
from fastttt.games.registry import SpecGame
from fastttt.play import move_values as values_of_moves
from fastttt.play import players
from fastttt.views import svg
from fastttt.views import text as board_text

# Depth caps of heuristic:P (plain minimax) and alphabeta:P (MnkGame.player_caps) keep the
# positions a search visits from the empty board under CAP_NODES (about a second or two: 8 x 8
# k=5 took 123 s at alphabeta:6 and 5 s at heuristic:4)
CAP_NODES = 5_000_000
CAP_MAX_DEPTH = 8


@dataclass(frozen=True, eq=False)
class MnkGame(SpecGame):
    """An m,n,k-game (free or gravity) as a :class:`fastttt.games.registry.Game`: ``spec``'s rules
    and geometry, and the players, pictures, move values and move text of its positions
    (:class:`~fastttt.games.mnk.board.Position`)."""

    spec: GameSpec
    supports_hints = True

    # --- the spec's geometry and names ---------------------------------------------------
    @property
    def short_name(self) -> str:
        return self.spec.short_name

    @property
    def k(self) -> int:
        return self.spec.k

    def initial(self) -> Position:
        return Position.empty(self.spec)

    def state_from_text(self, text: str) -> Position:
        return Position.from_text(self.spec, text)

    def state_from_moves(self, moves: Iterable[int]) -> Position:
        return Position.from_moves(self.spec, moves)

    # --- move text and drawing -------------------------------------------------------------
    @property
    def move_help(self) -> str:
        return "column" if self.spec.gravity else "row,col"

    def parse_move(self, state: Any, text: str) -> int:
        return board_text.parse_move(state, text)

    def format_move(self, state: Any, move: int) -> str:
        return board_text.format_move(state, move)

    def render(self, state: Any, last_cell: int | None = None, *, color: bool = False) -> str:
        return board_text.render(state, last_cell, color=color)

    def render_svg(self, state: Any, **options: Any) -> str:
        """:func:`fastttt.views.svg.board_svg`; options as :func:`fastttt.views.svg.render` says."""
        return svg.board_svg(state, **options)

    def move_values(
        self,
        state: Any,
        seconds: float,
        progress: Callable[[str], None] | None,
        cancel: threading.Event | None,
    ) -> Any:
        """From the solved table where :func:`fastttt.tables.cache.uses_table`, else exact search
        (:func:`fastttt.play.move_values.board_values`)."""
        return values_of_moves.board_values(state, seconds, progress, cancel)

    # --- players ---------------------------------------------------------------------------
    def player_names(self) -> tuple[str, ...]:
        return players.PLAYER_NAMES

    def make_player(self, name: str) -> Any:
        return players.make_player(name, self.spec)

    def default_player(self) -> str:
        return players.default_player(self.spec)

    def suggested_players(self) -> list[str]:
        """``human``, :func:`~fastttt.play.players.default_player`, ``perfect``, ``alphabeta`` at
        :func:`~fastttt.play.players.bounded_depth`, ``heuristic:2``, ``random``: those of them
        that play this board."""
        names = [
            "human",
            players.default_player(self.spec),
            "perfect",
            f"alphabeta:{players.bounded_depth(self.spec)}",
            "heuristic:2",
            "random",
        ]
        playable = []
        for name in dict.fromkeys(names):
            try:
                players.make_player(name, self.spec)
            except UnknownPlayerError:  # the heuristic players take at most 64 cells
                continue
            playable.append(name)
        return playable

    def player_caps(self) -> dict[str, int]:
        """The deepest ``heuristic`` (alias ``minimax``) and ``alphabeta`` searches expected to
        visit at most :data:`CAP_NODES` positions from the empty board (branching ``b``: the
        empty cells, or the columns with gravity; plain minimax visits about ``b (b-1) ...
        (b-P+1)`` positions, alpha-beta about ``b ** (0.75 P)``)."""
        b = self.cols if self.gravity else self.cells
        minimax = alphabeta = 1
        for depth in range(2, CAP_MAX_DEPTH + 1):
            if math.prod(b if self.gravity else b - i for i in range(depth)) <= CAP_NODES:
                minimax = depth
            if b ** (0.75 * depth) <= CAP_NODES:
                alphabeta = depth
        return {"heuristic:P": minimax, "minimax:P": minimax, "alphabeta:P": alphabeta}
