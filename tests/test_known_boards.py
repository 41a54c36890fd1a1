"""Known facts (fastttt/data/known_boards.txt) against fresh solves."""

import pytest

from fastttt.facts import known_boards
from fastttt.solver import solve


def _params():
    for board in known_boards():
        marks = [pytest.mark.slow] if board.slow else []
        yield pytest.param(board, id=board.game, marks=marks)


@pytest.mark.parametrize("board", list(_params()))
def test_known_board(board):
    assert board.facts, "a line of the facts file states no fact"
    assert board.check(solve(board.spec).summary()) == []
