"""Score conventions (fastttt.values): every converter, on values that could come out wrong."""

from __future__ import annotations

import numpy as np
import pytest

from fastttt import values as V
from fastttt.games.mnk.spec import connect4, mnk, tictactoe


def test_table_values_and_outcomes():
    assert [V.value_name(v) for v in (1, 0, -1)] == ["first", "draw", "second"]
    assert V.relative(1, 0) == 1 and V.relative(1, 1) == -1 and V.relative(-1, 1) == 1
    for v in (-1, 0, 1):
        for side in (0, 1):
            assert V.relative(V.relative(v, side), side) == v  # its own inverse
    assert [V.value_of_winner(w) for w in (0, 1, None)] == [1, -1, 0]


def test_table_bytes():
    # depth 5, second player wins; depth 0, first wins; depth 9, draw
    bytes_ = np.array([5 << 2 | 3, 0 << 2 | 1, 9 << 2 | 2], dtype=np.uint8)
    values, depths = V.values_of_bytes(bytes_)
    assert values.tolist() == [-1, 1, 0] and depths.tolist() == [5, 0, 9]
    assert values.dtype == depths.dtype == np.int8
    assert V.BYTE_NAMES[3] == "second" and V.VALUE_OF_BYTE[V.BYTE_FIRST] == V.FIRST_WINS


def test_score_base():
    assert V.score_base(connect4) == 22
    assert V.score_base(tictactoe) == 6  # X's fifth stone on the last cell scores 1, not 0
    assert V.score_base(mnk(4, 4, 4)) == 9
    assert V.score_base(mnk(1, 1, 1)) == 2


def test_search_scores_from_and_to_table():
    # Connect Four: the first player wins with its 4th stone (ply 7 at the end).
    assert V.score_from_table(connect4, 0, 1, 7) == 22 - 4 == 18
    assert V.table_from_score(connect4, 0, 18) == (1, 7)
    # the same game seen after 1 stone: the second player to move loses in 6 plies
    assert V.score_from_table(connect4, 1, -1, 6) == -18
    assert V.table_from_score(connect4, 1, -18) == (-1, 6)
    # tic-tac-toe: X wins on the last cell (5th stone) scores 1; a draw's depth fills the board
    assert V.score_from_table(tictactoe, 0, 1, 9) == 1
    assert V.table_from_score(tictactoe, 0, 1) == (1, 9)
    assert V.table_from_score(tictactoe, 3, 0) == (0, 6)
    # O (second player) wins with its 3rd stone: ply 6 at the end
    assert V.table_from_score(tictactoe, 2, -(6 - 3)) == (-1, 4)
    assert V.table_from_score(tictactoe, 3, 6 - 3) == (1, 3)
    # round trip over every ply / depth / value of a board, ints and arrays
    for spec in (tictactoe, mnk(4, 4, 3), connect4):
        for ply in range(spec.cells):
            for depth in range(1, spec.cells - ply + 1):
                for value in (-1, 1):
                    winner_moves_last = (depth % 2 == 1) == (value == 1)
                    if not winner_moves_last:
                        continue  # the side that makes the last move is the winner
                    score = V.score_from_table(spec, ply, value, depth)
                    assert V.table_from_score(spec, ply, score) == (value, depth)
    arr = V.score_from_table(connect4, np.array([0, 1]), np.array([1, -1]), np.array([7, 6]))
    assert arr.tolist() == [18, -18]


def test_mate_scores():
    from fastttt.kernels import ultimate as K
    from fastttt.search.ultimate import engine

    assert (K.MATE, K.MATE_BOUND) == (V.MATE, V.MATE_BOUND)  # the kernel's numeric copy
    assert engine.MATE is V.MATE and engine.verdict_of is V.verdict_of  # re-exported
    assert V.verdict_of(V.MATE - 5, True) == "win in 5"
    assert V.verdict_of(-(V.MATE - 3), False) == "loss in 3"
    assert V.verdict_of(0, True) == "draw" and V.verdict_of(0, False) == "estimate"
    assert V.verdict_of(V.MATE_BOUND - 1, True) == "estimate"
    assert V.verdict_of(-V.MATE, True) == "loss in 0"
    assert V.mate_result(V.MATE - 7) == (1, 7) and V.mate_result(-V.MATE + 2) == (-1, 2)
    assert V.mate_result(V.MATE_BOUND - 1) is None and V.mate_result(0) is None
    assert [V.mate_sign(s) for s in (V.MATE_BOUND, -V.MATE_BOUND, V.MATE_BOUND - 1)] == [1, -1, 0]


def test_result_words():
    assert V.result_words(1, 3) == "win in 3" and V.result_words(-1, 8) == "loss in 8"
    assert V.result_words(0, 4) == "draw" and V.result_words(1) == "win"


@pytest.mark.parametrize(
    "value,to_move,name", [(1, 0, "first"), (1, 1, "second"), (-1, 0, "second"), (0, 1, "draw")]
)
def test_prove_winner_words(value, to_move, name):
    from fastttt.search.portfolio import ProofResult

    r = ProofResult(value, (value, value), None, None, None, 0, 0.0, to_move)
    assert r.winner == name


def test_move_value_words():
    from fastttt.play.move_values import MoveValue

    assert str(MoveValue(1, 3)) == "win in 3" and str(MoveValue(-1, 2)) == "loss in 2"
    assert str(MoveValue(0, 5)) == "draw" and str(MoveValue(1, None, True, 40)) == (
        "estimate +40 points, not proven"
    )


def test_values_imports_no_numba():
    """values.py is light: importing it compiles and loads no kernel."""
    import subprocess
    import sys

    code = "import sys, fastttt.values; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_table_from_score_agrees_with_players_outcome():
    """players._score_outcome (kept there for now) gives what values.table_from_score does."""
    from fastttt.games.mnk.board import Position
    from fastttt.play.players import _score_outcome

    spec = mnk(4, 4, 3)
    pos = Position.from_moves(spec, [5, 0, 6])
    base = V.score_base(spec)
    for score in [0, *range(1, base), *range(-base + 1, 0)]:
        out = _score_outcome(pos, score)
        assert (out.result, out.plies) == V.table_from_score(spec, pos.ply, score)
