"""Known facts (fastttt/data/known_boards.txt) against fresh solves, through the engine
``fastttt solve`` picks (gravity boards go to the layered solver)."""

import pytest
from click.testing import CliRunner

from fastttt.cli import main
from fastttt.cli.verify import solve_board
from fastttt.games.facts import KnownBoard, known_boards


def _params():
    for board in known_boards():
        marks = [pytest.mark.slow] if board.slow else []
        yield pytest.param(board, id=board.game, marks=marks)


@pytest.mark.parametrize("board", list(_params()))
def test_known_board(board):
    assert board.facts, "a line of the facts file states no fact"
    solution = solve_board(board.spec)
    if board.spec.gravity:
        assert getattr(solution, "engine", "dense") == "layered"
    assert board.check(solution.summary()) == []


def test_the_file_holds_tromps_connect4_counts():
    facts = {board.game: board.facts for board in known_boards()}
    assert facts["4x4k4g"]["reachable"] == "161029"
    assert facts["4x5k4g"]["reachable"] == "3945711"
    assert facts["5x4k4g"]["reachable"] == "1706255"
    board = next(b for b in known_boards() if b.game == "5x4k4g")
    assert (board.spec.rows, board.spec.cols, board.spec.k, board.spec.gravity) == (5, 4, 4, True)


def test_verify_command_reports_engines_and_failures(monkeypatch):
    boards = [
        KnownBoard("3x3k3g", {"reachable": "694"}),
        KnownBoard("2x2k2", {"reachable": "29"}),
        KnownBoard("4x5k4g", {}, slow=True),
    ]
    monkeypatch.setattr("fastttt.games.facts.known_boards", lambda: boards)
    result = CliRunner().invoke(main, ["verify"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("ok    3x3k3g (layered, ")
    assert lines[1].startswith("ok    2x2k2 (dense, ")
    assert lines[2] == "skip  4x5k4g (slow; use --slow)"

    boards[0] = KnownBoard("3x3k3g", {"reachable": "695", "value": "draw"})
    result = CliRunner().invoke(main, ["verify"])
    assert result.exit_code == 1
    assert "FAIL  3x3k3g" in result.output
    assert "3x3k3g: reachable is 694, expected 695" in result.output
