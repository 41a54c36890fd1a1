"""Score conventions: defined here once, repeated in every docstring that returns a value.

Table values (dense solver, classroom layer) are absolute, from the FIRST player's side::

    +1  the first player (X, who moves first) wins under perfect play
     0  draw
    -1  the second player (O) wins

Depth: plies from the position to the end of the game under perfect play, when the winner
hurries and the loser delays (the rank of the position in the winner's attractor). A drawn
position's depth is the number of plies until the board is full. Finished positions have
depth 0.

Search scores (negamax, :mod:`fastttt.search`) are relative to the SIDE TO MOVE, in the
Connect Four benchmark convention: 0 draw; a win scores ``(cells + 1) // 2 + 1 - s`` where
``s`` is the number of stones the winner has placed when completing its line (sooner wins score
higher; 22 for the 42 cells of Connect Four; on odd boards the rounding up keeps a win on the
last cell above a draw); a loss is the negative of the opponent's win score.
"""

FIRST_WINS = 1
DRAW = 0
SECOND_WINS = -1

VALUE_NAMES = {FIRST_WINS: "first", DRAW: "draw", SECOND_WINS: "second"}


def value_name(value: int) -> str:
    """``"first"``, ``"draw"`` or ``"second"`` for a table value."""
    return VALUE_NAMES[int(value)]


def relative(value: int, to_move: int) -> int:
    """Turn an absolute table value into the side to move's view (+1 it wins)."""
    return int(value) if to_move == 0 else -int(value)
