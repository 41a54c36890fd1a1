"""The sub-board argument (fastttt.search.subboard): windows placed on bigger boards, and the
portfolio's step that proves a first-player win through one, checked against the tables."""

from __future__ import annotations

import pytest

from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.search.portfolio import prove
from fastttt.search.subboard import candidates, place
from fastttt.tables.dense import solve

from proving import check_line


def _lines(spec) -> set[frozenset[int]]:
    """Every line of k cells of ``spec``, as sets of cells (written out here, by hand)."""
    found = set()
    for r in range(spec.rows):
        for c in range(spec.cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(spec.k)]
                if all(0 <= rr < spec.rows and 0 <= cc < spec.cols for rr, cc in cells):
                    found.add(frozenset(rr * spec.cols + cc for rr, cc in cells))
    return found


@pytest.mark.parametrize(
    "small, big, turned",
    [("3x4k3", "4x5k3", False), ("3x4k3", "5x3k3", True), ("4x9k4", "4x30k4", False)],
)
def test_a_window_maps_its_lines_onto_lines_of_the_big_board(small, big, turned):
    small, big = as_spec(small), as_spec(big)
    window = place(small, big)
    assert window is not None and window.turned == turned
    cells = [window.cell(c) for c in range(small.cells)]
    assert len(set(cells)) == small.cells and all(0 <= c < big.cells for c in cells)
    big_lines = _lines(big)
    for line in _lines(small):
        assert frozenset(window.cell(c) for c in line) in big_lines


@pytest.mark.parametrize(
    "small, big",
    [("4x4k3", "4x4k4"), ("4x4k4g", "5x5k4g"), ("4x4k4", "5x5k4g"), ("5x6k4", "4x30k4")],
)
def test_no_window_across_k_gravity_or_room(small, big):
    assert place(as_spec(small), as_spec(big)) is None


def test_candidates_come_from_the_literature_file_smallest_first():
    games = [known.game for _, known in candidates(as_spec("4x30k4"))]
    assert games[:2] == ["4x9k4", "4x10k4"]
    assert candidates(as_spec("15x15k5")) == []  # Allis' 15x15 is listed beyond reach
    assert candidates(as_spec("7x6k4g")) == []  # gravity


@pytest.mark.parametrize("big", ["4x5k3", "5x3k3", "3x6k3"])
def test_a_win_inside_is_a_win_on_the_big_board(listed, big):
    listed("3x4k3")
    spec = as_spec(big)
    assert solve(spec).value(Position.empty(spec)) == 1  # the table agrees
    result = prove(Position.empty(spec), methods=("sub-board", "dfpn"))
    assert result.value == 1 and result.method == "sub-board"
    assert result.steps[0].question == "mover wins on the 3x4 board inside"
    check_line(Position.empty(spec), result.line, 0)


def test_a_listed_board_that_is_not_a_win_is_searched_not_believed(listed):
    listed("2x5k3")  # a draw (its table says so), listed as a win here
    spec = as_spec("3x6k3")
    result = prove(Position.empty(spec), methods=("sub-board", "dfpn"))
    assert result.steps[0].method == "sub-board" and result.steps[0].answer == "not a win"
    assert result.value == solve(spec).value(Position.empty(spec)) == 1
    assert result.method == "dfpn"


def test_not_from_a_position_with_stones(listed):
    listed("3x4k3")
    result = prove(Position.from_moves("4x5k3", [7]), methods=("sub-board", "dfpn"))
    assert "sub-board" not in {step.method for step in result.steps}
