"""The Ultimate tic-tac-toe game object that ``fastttt.games.load_game("ultimate")`` returns."""

from __future__ import annotations

from dataclasses import dataclass

from fastttt.ultimate.state import UltimateState


@dataclass(frozen=True)
class UltimateSpec:
    """Ultimate tic-tac-toe; ``open_won_boards`` selects the variant where claimed boards stay
    playable until full."""

    open_won_boards: bool = False

    @property
    def name(self) -> str:
        return "ultimate-open" if self.open_won_boards else "ultimate"

    def __str__(self) -> str:
        return self.name

    def describe(self) -> str:
        extra = ", play goes on in claimed boards until full" if self.open_won_boards else ""
        return f"Ultimate tic-tac-toe: nine 3x3 boards in a 3x3 frame, moves 0..80{extra}"

    def initial(self) -> UltimateState:
        """The empty board (crosses to move, free choice of board)."""
        return UltimateState(self.open_won_boards)


ULTIMATE = UltimateSpec()
ULTIMATE_OPEN = UltimateSpec(open_won_boards=True)
