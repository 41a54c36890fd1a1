"""Score conventions: every one defined here once, with the converters between them, and
repeated in every docstring that returns a value.

**Outcomes.** A finished game's winner is 0 (the first player, X), 1 (the second, O) or None
(a draw); :func:`value_of_winner` gives its table value.

**Table values** (dense solver, layered tables, classroom layer) are absolute, from the FIRST
player's side::

    +1  the first player (X, who moves first) wins under perfect play
     0  draw
    -1  the second player (O) wins

Depth: plies from the position to the end of the game under perfect play, when the winner
hurries and the loser delays (the rank of the position in the winner's attractor). A drawn
position's depth is the number of plies until the board is full. Finished positions have
depth 0. :func:`relative` turns a value to the side to move's view (+1 it wins), and back.

**Table bytes** (one per position, :mod:`fastttt.kernels.dense`, :mod:`fastttt.tables`):
0 not reachable, else ``depth << 2 | v`` with v = 1 first player wins, 2 draw, 3 second player
wins (:func:`values_of_bytes`).

**Search scores** (negamax, :mod:`fastttt.search.alphabeta`) are relative to the SIDE TO MOVE, in
the Connect Four benchmark convention: 0 draw; a win scores ``score_base(spec) - s`` where ``s`` is
the number of stones the winner has placed when completing its line (sooner wins score higher;
``score_base`` is ``(cells + 1) // 2 + 1``, 22 for the 42 cells of Connect Four; on odd boards
the rounding up keeps a win on the last cell above a draw); a loss is the negative of the
opponent's win score. Weak mode keeps the sign only: +1 win, 0 draw, -1 loss (the portfolio
prover's values, :mod:`fastttt.search.portfolio`). :func:`score_from_table` and
:func:`table_from_score` convert between a search score and (relative value, depth).

**Ultimate mate scores** (:mod:`fastttt.search.ultimate.engine`) are from the side to move: 0 draw,
``MATE - n`` a proven win in n plies, ``-(MATE - n)`` a proven loss in n plies (winner hurries,
loser delays); anything with ``|score| < MATE_BOUND`` is a heuristic estimate
(:func:`mate_result`, :func:`verdict_of`).

**Heuristic scores** (line count, :mod:`fastttt.search.heuristic`) are from the side to move: with
``L`` lines on the board, ``+(L + 1)`` / ``-(L + 1)`` a finished game won by the side to move /
its opponent, 0 a full board, else ``free(mover) - free(opponent)`` (lines holding no stone of
the player's opponent); wins are not discounted by distance. The kernels compute them from the
first player's side: :func:`relative` turns them to the side to move's.

**Words.** A result from the side to move (+1, 0, -1) with its plies reads ``"win in N"``,
``"draw"``, ``"loss in N"`` (:func:`result_words`); a table value reads ``"first"``,
``"draw"``, ``"second"`` (:func:`value_name`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from fastttt.games.mnk.spec import GameSpec

# --- outcomes and table values ---------------------------------------------------------------
FIRST_WINS = 1
DRAW = 0
SECOND_WINS = -1

VALUE_NAMES = {FIRST_WINS: "first", DRAW: "draw", SECOND_WINS: "second"}
RESULT_WORDS = {1: "win", 0: "draw", -1: "loss"}  # a value from the side to move


def value_name(value: int) -> str:
    """``"first"``, ``"draw"`` or ``"second"`` for a table value."""
    return VALUE_NAMES[int(value)]


def relative(value: int, to_move: int) -> int:
    """Turn an absolute table value into the side to move's view (+1 it wins); its own
    inverse (a value from the side to move back to the first player's side)."""
    return int(value) if to_move == 0 else -int(value)


def value_of_winner(winner: int | None) -> int:
    """Table value of a finished game: +1 the first player (0) won, -1 the second (1), 0 a
    draw (None)."""
    return DRAW if winner is None else FIRST_WINS if winner == 0 else SECOND_WINS


# --- table bytes -----------------------------------------------------------------------------
BYTE_FIRST, BYTE_DRAW, BYTE_SECOND = 1, 2, 3  # the low two bits of a table byte
BYTE_NAMES = {BYTE_FIRST: "first", BYTE_DRAW: "draw", BYTE_SECOND: "second"}
VALUE_OF_BYTE = np.array([0, FIRST_WINS, DRAW, SECOND_WINS], dtype=np.int8)  # by byte & 3


def values_of_bytes(bytes_: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(values int8, depths int8) of table bytes (reachable positions: bytes other than 0)."""
    bytes_ = np.asarray(bytes_, dtype=np.uint8)
    return VALUE_OF_BYTE[bytes_ & 3], (bytes_ >> 2).astype(np.int8)


def table_counts(histogram) -> dict:
    """Reachable positions, finished ones by result (``terminal``: depth 0) and all of them by
    value (``values``), from ``histogram[b]``: positions whose solved table byte is ``b``
    (256 entries, 0 = not reachable). The counts of ``fastttt solve --json``, whole or by ply.
    """
    h = np.asarray(histogram, dtype=np.int64)
    low = np.arange(256) & 3
    values = {name: int(h[1:][low[1:] == v].sum()) for v, name in BYTE_NAMES.items()}
    return {
        "reachable": int(h[1:].sum()),
        "terminal": {
            "first": int(h[BYTE_FIRST]),
            "second": int(h[BYTE_SECOND]),
            "draw": int(h[BYTE_DRAW]),
        },
        "values": {name: values[name] for name in ("first", "draw", "second")},
    }


# --- search scores ---------------------------------------------------------------------------
def score_base(spec: GameSpec) -> int:
    """``(cells + 1) // 2 + 1``: a win with the winner's ``s``-th stone scores ``base - s``.

    Equal to ``cells // 2 + 1`` on even boards (22 for Connect Four); on odd boards the first
    player may place ``(cells + 1) // 2`` stones, and its win on the last cell must still score
    above a draw (``cells // 2 + 1`` would give it 0).
    """
    return (spec.cells + 1) // 2 + 1


def score_from_table(spec: GameSpec, ply, value, depth):
    """Exact score (side to move) of a position with ``ply`` stones from a table value relative
    to the side to move (+1 it wins, 0 draw, -1 it loses) and the table depth (plies to the end,
    winner hurrying, loser delaying). The game ends after ``ply + depth`` stones; whoever wins,
    the winner then has ``(ply + depth + 1) // 2`` stones (the mover when ``depth`` is odd, the
    opponent when it is even). Works on ints and elementwise on NumPy integer arrays."""
    win = score_base(spec) - (ply + depth + 1) // 2
    if isinstance(value, np.ndarray):
        return np.sign(value).astype(np.int64) * win
    return 0 if value == 0 else (win if value > 0 else -win)


def table_from_score(spec: GameSpec, ply: int, score: int) -> tuple[int, int]:
    """``(value, depth)`` of a position with ``ply`` stones from its exact search score (side
    to move): value +1 it wins, 0 draw, -1 it loses; depth the plies to the end (winner
    hurrying, loser delaying; a draw's the plies until the board is full). The inverse of
    :func:`score_from_table`."""
    score = int(score)
    if score == 0:
        return DRAW, spec.cells - ply
    stones = score_base(spec) - abs(score)  # the winner's, its line complete
    winner_first = (score > 0) == (ply % 2 == 0)  # the side to move is the first player
    total = 2 * stones - 1 if winner_first else 2 * stones
    return (1 if score > 0 else -1), total - ply


def benchmark_score(spec: GameSpec, ply, score):
    """A search score (side to move, ``ply`` stones on the board) in the benchmark solver's
    own formula, which the ``solve --stdin`` filter prints: a win on move ``n`` (counted from
    1, the winning stone included) scores ``(cells + 2 - n) // 2``. Equal to the search score
    on boards with an even number of cells; on odd boards a win of the second player scores one
    less (5 x 5: ``13 - s`` where the search says ``14 - s``). Works on ints and elementwise on
    NumPy integer arrays."""
    if spec.cells % 2 == 0:
        return score
    second_wins = np.where(np.asarray(ply) % 2 == 1, score > 0, score < 0)
    adjusted = score - np.sign(score) * second_wins
    return adjusted if isinstance(adjusted, np.ndarray) and np.ndim(adjusted) else int(adjusted)


# --- Ultimate mate scores --------------------------------------------------------------------
# fastttt.kernels.ultimate keeps its own numeric copy (kernels import only config and bits);
# tests/test_values.py checks the two agree.
MATE = 100_000
MATE_BOUND = MATE - 200  # at least this (in absolute value): a proven result


def mate_result(score: int) -> tuple[int, int] | None:
    """``(result, plies)`` of a proven mate score (side to move: +1 win, -1 loss, in that many
    plies), None for a score below :data:`MATE_BOUND` (a draw or an estimate)."""
    if score >= MATE_BOUND:
        return 1, MATE - score
    if score <= -MATE_BOUND:
        return -1, MATE + score
    return None


def mate_sign(score: int) -> int:
    """+1 a proven win, -1 a proven loss, 0 otherwise (side to move)."""
    return 1 if score >= MATE_BOUND else -1 if score <= -MATE_BOUND else 0


def verdict_of(score: int, proven: bool) -> str:
    """Words for a side-to-move mate score: ``win in N`` / ``loss in N`` (N plies) /
    ``draw`` (a proven 0) / ``estimate``."""
    mate = mate_result(score)
    if mate is not None:
        return result_words(*mate)
    return "draw" if proven and score == 0 else "estimate"


# --- words -----------------------------------------------------------------------------------
def result_words(result: int, plies: int | None = None) -> str:
    """``"win in N"``, ``"loss in N"`` or ``"draw"`` for a result from the side to move (+1,
    -1, 0) and its plies to the end (``"win"``/``"loss"`` alone when ``plies`` is None)."""
    word = RESULT_WORDS[result]
    return word if result == 0 or plies is None else f"{word} in {plies}"
