"""The Ultimate tic-tac-toe games that ``fastttt.registry.load_game("ultimate")`` and
``load_game("ultimate-open")`` return; they implement :class:`fastttt.registry.Game`."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from fastttt.ultimate.state import UltimateState

# What a menu of players offers (UltimateSpec.suggested_players), strongest engine first
SUGGESTED_PLAYERS = ("human", "engine:500", "mcts:2000", "minimax:3", "random")
# The largest parameter each player may take (UltimateSpec.player_caps; engine: milliseconds,
# or nNODES nodes): each answers a move in about 2 s at most
PLAYER_CAPS = {"minimax:P": 5, "mcts:N": 50_000, "engine:MS": 5_000, "engine:nNODES": 3_000_000}


@dataclass(frozen=True)
class UltimateSpec:
    """Ultimate tic-tac-toe; ``open_won_boards`` selects the variant where claimed boards stay
    playable until full."""

    open_won_boards: bool = False
    supports_hints = False
    # the geometry of its pictures: the 9 x 9 grid of cells (``rRcC`` in move texts)
    gravity = False
    rows = 9
    cols = 9
    cells = 81

    @property
    def name(self) -> str:
        return "ultimate-open" if self.open_won_boards else "ultimate"

    def __str__(self) -> str:
        return self.name

    def describe(self) -> str:
        extra = ", play goes on in claimed boards until full" if self.open_won_boards else ""
        return f"Ultimate tic-tac-toe: nine 3x3 boards in a 3x3 frame{extra}"

    @property
    def move_help(self) -> str:
        from fastttt.ultimate.render import MOVE_HELP

        return MOVE_HELP

    def initial(self) -> UltimateState:
        """The empty board (crosses to move, free choice of board)."""
        return UltimateState(self.open_won_boards)

    def state_from_text(self, text: str) -> UltimateState:
        state = UltimateState.from_text(text)
        if state.open_won_boards != self.open_won_boards:
            from fastttt.errors import InvalidPositionError

            raise InvalidPositionError(
                f"position text {text!r} is a position of {state.spec.name}, not {self.name}"
            )
        return state

    def state_from_moves(self, moves: Iterable[int]) -> UltimateState:
        return UltimateState.from_moves(moves, self.open_won_boards)

    def parse_move(self, state: Any, text: str) -> int:
        from fastttt.ultimate.render import parse_move

        return parse_move(state, text)

    def format_move(self, state: Any, move: int) -> str:
        from fastttt.ultimate.render import format_move

        return format_move(state, move)

    def render(self, state: Any, last_cell: int | None = None, *, color: bool = False) -> str:
        from fastttt.ultimate.render import render

        return render(state, last_move=last_cell, color=color)

    def player_names(self) -> tuple[str, ...]:
        from fastttt.ultimate.players import PLAYER_NAMES

        return ("human", *PLAYER_NAMES)

    def make_player(self, name: str) -> Any:
        from fastttt.ultimate.players import make_player

        return make_player(name)

    def default_player(self) -> str:
        return "engine"

    def suggested_players(self) -> list[str]:
        return list(SUGGESTED_PLAYERS)

    def player_caps(self) -> dict[str, int]:
        return dict(PLAYER_CAPS)

    def render_svg(self, state: Any, **options: Any) -> str:
        """:func:`fastttt.svg.ultimate_svg`; options as :func:`fastttt.svg.render` says."""
        from fastttt.svg import ultimate_svg

        return ultimate_svg(state, **options)

    def move_values(
        self,
        state: Any,
        seconds: float,
        progress: Callable[[str], None] | None,
        cancel: threading.Event | None,
    ) -> Any:
        """The engine's iterative deepening, move by move: exact where it proves a result,
        else estimates."""
        from fastttt.move_values import engine_values

        return engine_values(state, seconds, progress, cancel)


ULTIMATE = UltimateSpec()
ULTIMATE_OPEN = UltimateSpec(open_won_boards=True)
