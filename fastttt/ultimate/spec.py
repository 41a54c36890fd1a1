"""The Ultimate tic-tac-toe specs: plain rules, names and the geometry of the pictures; the Game
protocol (players, pictures, move values, move text) is :class:`fastttt.ultimate.game.
UltimateGame`'s, which ``fastttt.registry.load_game("ultimate")`` (or ``"ultimate-open"``)
returns."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from fastttt.ultimate.state import UltimateState


@dataclass(frozen=True)
class UltimateSpec:
    """Ultimate tic-tac-toe; ``open_won_boards`` selects the variant where claimed boards stay
    playable until full."""

    family: ClassVar[str] = "ultimate"  # the adapter fastttt.registry.as_game finds for it
    open_won_boards: bool = False
    # the geometry of its pictures: the 9 x 9 grid of cells (``rRcC`` in move texts)
    gravity: ClassVar[bool] = False
    rows: ClassVar[int] = 9
    cols: ClassVar[int] = 9
    cells: ClassVar[int] = 81

    @property
    def name(self) -> str:
        return "ultimate-open" if self.open_won_boards else "ultimate"

    def __str__(self) -> str:
        return self.name

    def describe(self) -> str:
        extra = ", play goes on in claimed boards until full" if self.open_won_boards else ""
        return f"Ultimate tic-tac-toe: nine 3x3 boards in a 3x3 frame{extra}"

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


ULTIMATE = UltimateSpec()
ULTIMATE_OPEN = UltimateSpec(open_won_boards=True)
