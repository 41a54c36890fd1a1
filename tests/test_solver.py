"""The dense solver against the naive reference, position by position, and its API."""

from functools import cache

import numpy as np
import pytest

from fastttt import Position, load_game, mnk
from fastttt.errors import InvalidPositionError, MemoryBudgetError
from fastttt.kernels import dense
from fastttt.tables import dense as solver
from fastttt.tables.dense import estimate_memory, solve
from fastttt.tables.layout import build_layout, hi_layers, slot_count

from naive import solve_naive

SMALL_BOARDS = [
    mnk(1, 1, 1),
    mnk(2, 2, 2),
    mnk(3, 3, 3),
    mnk(3, 3, 2),
    mnk(2, 3, 2),
    mnk(3, 2, 3),
    mnk(1, 5, 3),
    mnk(2, 3, 1),
    mnk(3, 4, 3),
    mnk(4, 3, 4),
    mnk(3, 3, 3, gravity=True),
    mnk(4, 3, 3, gravity=True),
    mnk(3, 4, 3, gravity=True),
    mnk(4, 4, 3, gravity=True),
    mnk(2, 5, 2, gravity=True),
]


@cache
def _naive_arrays(spec):
    ref = solve_naive(spec)
    codes = np.array(sorted(ref), dtype=np.int64)
    values = np.array([ref[c][0] for c in codes], dtype=np.int8)
    depths = np.array([ref[c][1] for c in codes], dtype=np.int8)
    return codes, values, depths


@pytest.mark.parametrize("spec", SMALL_BOARDS, ids=str)
@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
def test_every_position_matches_naive(spec, parallel):
    codes, values, depths = _naive_arrays(spec)
    solution = solve(spec, parallel=parallel)
    assert np.array_equal(solution.reachable_codes(), codes)
    got_values, got_depths = solution.lookup(codes)
    assert np.array_equal(got_values, values)
    assert np.array_equal(got_depths, depths)


@pytest.mark.parametrize("spec", [mnk(3, 3, 3), mnk(3, 4, 3), mnk(2, 3, 1), mnk(4, 4, 4)], ids=str)
def test_forward_sweep_agrees_with_reachability_from_lines(spec):
    """Boards without gravity skip the forward sweep (the one gravity and > 64 lines need)."""
    layout = build_layout(spec)
    assert layout.closed_form
    table = np.zeros(slot_count(spec), dtype=np.uint8)
    order = np.concatenate(hi_layers(spec))
    dense.forward_serial(table, layout, order)
    dense.values_serial(table, layout, order, True)
    assert np.array_equal(table, solve(spec, parallel=False).table)
    assert np.array_equal(table, solve(spec, parallel=True).table)


@pytest.mark.parametrize("spec", [mnk(3, 4, 3), mnk(3, 4, 3, gravity=True)], ids=str)
@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
def test_progress_reaches_the_total(spec, parallel):
    calls = []
    solve(spec, lambda *call: calls.append(call), parallel=parallel)
    assert calls and calls[-1][0] == "values" and calls[-1][1] == calls[-1][2]
    assert [done for _, done, _ in calls] == sorted(done for _, done, _ in calls)


def test_small_solves_do_not_read_available_memory(monkeypatch):
    monkeypatch.setattr(solver, "available_memory", lambda: 0)
    assert solve("tictactoe").reachable == 5478
    with pytest.raises(MemoryBudgetError):
        solve(mnk(5, 4, 4))


@pytest.mark.parametrize("spec", SMALL_BOARDS, ids=str)
def test_retrograde_attractor_equals_backward_sweep(spec):
    solution = solve(spec)
    codes = solution.reachable_codes()
    values, depths = solution.lookup(codes)
    for player, won in ((0, 1), (1, -1)):
        attr_codes, ranks = solution.attractor(player)
        assert np.array_equal(attr_codes, codes[values == won])
        assert np.array_equal(ranks, depths[values == won])


def test_tictactoe_attractor_sizes_match_the_handout():
    solution = solve("tictactoe")
    assert len(solution.attractor(0)[0]) == 2936
    assert len(solution.attractor(1)[0]) == 1474


@pytest.mark.parametrize("spec", [mnk(3, 3, 3), mnk(3, 4, 3, gravity=True), mnk(2, 5, 2)], ids=str)
def test_layout_is_a_bijection_on_legal_codes(spec):
    layout = build_layout(spec)
    assert int(layout.hi_base[-1]) == slot_count(spec)
    all_codes = np.arange(3**spec.cells, dtype=np.int64)
    solution = solve(spec)
    slots = solution._slots(all_codes)
    first = np.zeros_like(all_codes)
    second = np.zeros_like(all_codes)
    rest = all_codes.copy()
    for _ in range(spec.cells):
        first += rest % 3 == 1
        second += rest % 3 == 2
        rest //= 3
    legal = (first - second == 0) | (first - second == 1)
    assert np.all(slots[~legal] == -1)
    assert np.array_equal(np.sort(slots[legal]), np.arange(slot_count(spec)))


def test_best_moves_fastest_win_slowest_loss():
    solution = solve("tictactoe")
    # X to move with two open threats of its own: cell 2 wins at once.
    pos = Position.from_text("tictactoe", "XX./OO./...")
    assert solution.value(pos) == 1 and solution.depth(pos) == 1
    assert solution.best_moves(pos) == [2]
    # O to move, lost: every move loses; the best ones delay the loss.
    lost = Position.from_text("tictactoe", "X.X/.O./X.O")
    assert solution.value(lost) == 1
    outcomes = solution.move_outcomes(lost)
    slowest = max(d for v, d in outcomes.values())
    assert solution.best_moves(lost) == sorted(m for m, (v, d) in outcomes.items() if d == slowest)
    assert solution.depth(lost) == slowest + 1


def test_empty_and_finished_positions():
    solution = solve("tictactoe")
    assert solution.best_moves(Position.from_text("tictactoe", "XXX/OO./...")) == []
    assert solution.best_moves([]) == list(range(9))  # every opening move draws
    assert solution.value("XXX/OO./...") == 1 and solution.depth("XXX/OO./...") == 0


def test_unreachable_position_is_refused_with_its_text():
    solution = solve("tictactoe")
    with pytest.raises(InvalidPositionError, match="not reachable"):
        solution.value("XXX/OOO/...")  # play would have stopped at the first line
    with pytest.raises(InvalidPositionError, match="index 1"):
        solution.lookup(np.array([0, Position.from_text("tictactoe", "XXX/OOO/...").code]))


def test_gravity_moves_are_columns():
    spec = load_game("4x4k4g")
    solution = solve(spec)
    pos = Position.from_moves(spec, [0, 1, 0, 1, 0, 1])  # X three high in column 0
    assert solution.best_moves(pos) == [0]
    assert solution.value(pos) == 1 and solution.depth(pos) == 1


def test_memory_refusal_carries_the_estimate():
    with pytest.raises(MemoryBudgetError, match="needs about .*table slots"):
        solve(mnk(4, 4, 4), max_bytes=1000)
    assert estimate_memory(mnk(5, 4, 4)) < 2**30  # the 1 GiB budget for 5x4
    assert slot_count(mnk(5, 4, 4)) == 741_365_049


def test_lookup_refuses_non_integer_or_2d_codes():
    solution = solve("tictactoe")
    with pytest.raises(InvalidPositionError, match="1-D array of integers"):
        solution.lookup(np.array([[0, 1]]))
    with pytest.raises(InvalidPositionError, match="1-D array of integers"):
        solution.lookup(np.array([1.7]))


def test_solved_keeps_one_solution_per_game():
    from fastttt.tables.cache import forget_solved, is_solved, solved

    forget_solved()
    assert not is_solved("tictactoe")
    first = solved("tictactoe")
    assert solved(mnk(3, 3, 3)) is first and is_solved("tictactoe")
    forget_solved()
    assert solved("tictactoe") is not first


def test_format_bytes_names_every_size():
    from fastttt.memory import format_bytes

    assert format_bytes(512) == "512 B"
    assert format_bytes(1.5 * 2**30) == "1.5 GiB"
    assert format_bytes(1023 * 2**50) == "1023.0 PiB"
    assert format_bytes(1.9e24) == "1.9e+24 bytes"
