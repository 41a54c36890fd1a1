"""The Ultimate tic-tac-toe specs: plain rules (the variant), names and the geometry of the
pictures; positions are :class:`fastttt.games.ultimate.state.UltimateState`. The Game protocol
(positions made, players, pictures, move values, move text) is :class:`fastttt.families.ultimate.
UltimateGame`'s, which ``fastttt.games.registry.load_game("ultimate")`` (or ``"ultimate-open"``)
returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class UltimateSpec:
    """Ultimate tic-tac-toe; ``open_won_boards`` selects the variant where claimed boards stay
    playable until full."""

    family: ClassVar[str] = "ultimate"  # the adapter fastttt.games.registry.as_game finds for it
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


ULTIMATE = UltimateSpec()
ULTIMATE_OPEN = UltimateSpec(open_won_boards=True)
