"""Threat-space search (fastttt.search.threats): it never claims a win that alpha-beta refutes, its
lines are legal games that end on the winner's line, it finds the classic threat wins, and
the threat primitives (fours, threes, defences) follow their definitions."""

from __future__ import annotations

import numpy as np
import pytest

from fastttt.errors import InvalidArgumentError, InvalidPositionError
from fastttt.games.mnk.board import Position, win_masks
from fastttt.games.mnk.spec import as_spec
from fastttt.kernels import threats as T
from fastttt.search.alphabeta import Searcher
from fastttt.search.dfpn import ProofSearch
from fastttt.search.lineboard import LineBoard
from fastttt.search.threats import threat_search
from fastttt.tables.dense import solve

from proving import check_line, live_positions, random_positions


@pytest.mark.parametrize("game", ["tictactoe", pytest.param("3x4k3", marks=pytest.mark.slow)])
def test_every_threat_win_is_a_win(game):
    spec = as_spec(game)
    table = solve(spec)
    search = ProofSearch(spec, tt_bits=14)
    wins = found = 0
    for pos in live_positions(spec):
        value = table.value(pos) * (1 if pos.to_move == 0 else -1)
        result = threat_search(pos, searcher=search)
        assert result.won is not None
        wins += value == 1
        if result.won:
            found += 1
            assert value == 1, pos
            check_line(pos, result.line, pos.to_move)
    assert found > 0.5 * wins  # most wins on these boards are threat wins


@pytest.mark.parametrize(
    "game, count, min_ply",
    [
        ("4x4k3", 300, 0),
        ("3x5k3", 300, 0),
        ("4x4k4", 300, 0),
        ("5x5k4", 200, 4),
        ("4x5k4", 200, 2),
        pytest.param("5x5k5", 80, 8, marks=pytest.mark.slow),
        pytest.param("6x6k5", 60, 10, marks=pytest.mark.slow),
    ],
)
def test_threat_wins_are_alphabeta_wins(game, count, min_ply):
    spec = as_spec(game)
    reference = Searcher(spec)
    search = ProofSearch(spec, tt_bits=18)
    found = 0
    for pos in random_positions(spec, count, seed=11, min_ply=min_ply):
        result = threat_search(pos, searcher=search)
        if result.won:
            found += 1
            assert reference.solve(pos, weak=True).score == 1, pos
            check_line(pos, result.line, pos.to_move)
    assert found > 0


def test_an_open_three_wins_by_threats():
    # X to move with an open three on a row of 7 x 7, k = 5: four, then five
    spec = as_spec("7x7k5")
    pos = Position.from_text(spec, "......./......./.XXX.../......./O....../O....../O......")
    result = threat_search(pos)
    assert result.won and result.proof_size == 2  # the root and the open four (a leaf)
    check_line(pos, result.line, 0)
    assert result.line[0] in (14, 18)  # the open four: either end of the three


def test_a_four_three_wins_at_once():
    # X to move (k = 4): cell 11 makes a four on row 1 (8, 9, 11: cell 10 wins) and an open
    # three on column 4 (11, 18, 25: cells 4 and 32 win): too many cells to block
    spec = as_spec("7x7k4")
    pos = Position.from_text(spec, "......O/.XX..../....X../....X../O....../......O/O......")
    assert pos.to_move == 0
    result = threat_search(pos)
    assert result.won and result.line[0] == 11 and len(result.line) == 3
    check_line(pos, result.line, 0)


def test_quiet_positions_have_no_threat_win():
    spec = as_spec("7x7k5")
    assert threat_search(Position.empty(spec)).won is False
    assert threat_search(Position.from_moves(spec, [24, 25])).won is False


def test_budget_and_bad_requests():
    spec = as_spec("9x9k5")
    pos = Position.from_moves(spec, [40, 41, 30, 31, 50, 51])
    result = threat_search(pos, max_nodes=1)
    assert result.won is None and result.nodes == 1
    with pytest.raises(InvalidArgumentError, match="free board"):
        threat_search(Position.empty("connect4"))
    with pytest.raises(InvalidPositionError, match="already over"):
        threat_search(Position.from_moves("tictactoe", [0, 3, 1, 4, 2]))


# --- the primitives ---------------------------------------------------------------------


def _winning_cells(pos: Position, player: int) -> set[int]:
    """Empty cells where a stone of ``player`` completes a line (from the rules)."""
    out = set()
    stones = pos.first if player == 0 else pos.second
    for c in range(pos.spec.cells):
        if not pos.occupied >> c & 1:
            after = Position(
                pos.spec,
                *((stones | 1 << c, pos.second) if player == 0 else (pos.first, stones | 1 << c)),
                check=False,
            )
            if after.winner() == player:
                out.add(c)
    return out


def _after(pos: Position, player: int, cell: int) -> Position:
    first, second = pos.first, pos.second
    if player == 0:
        first |= 1 << cell
    else:
        second |= 1 << cell
    return Position(pos.spec, first, second, check=False)


@pytest.mark.parametrize("game, count", [("7x7k5", 12), ("6x6k4", 30), ("5x5k3", 150)])
def test_fours_threes_and_defences_follow_their_definitions(game, count):
    spec = as_spec(game)
    lb = LineBoard(spec)
    out = np.zeros(spec.cells, dtype=np.int64)
    checked = local_seen = 0
    for pos in random_positions(spec, count, seed=12, min_ply=2):
        if _winning_cells(pos, 0) or _winning_cells(pos, 1):
            continue  # the definitions below are for quiet positions
        checked += 1
        lb.load(pos.first, pos.second)
        empty = [c for c in range(spec.cells) if not pos.occupied >> c & 1]
        for p in (0, 1):
            doubles = {}
            for c in empty:
                after = _after(pos, p, c)
                wins = _winning_cells(after, p)
                assert T.is_four(lb.B, p, c) == bool(wins), (pos, p, c)
                if len(wins) >= 2:
                    doubles[c] = wins
            mine = pos.first if p == 0 else pos.second
            theirs = pos.second if p == 0 else pos.first
            for c in empty:  # a three: a double-threat cell on a line through c after c
                after = _after(pos, p, c)
                if _winning_cells(after, p):
                    continue  # a four
                near = {
                    g
                    for m in map(int, win_masks(spec))
                    if m >> c & 1
                    and not m & theirs
                    and ((mine | 1 << c) & m).bit_count() == spec.k - 2
                    for g in range(spec.cells)
                    if m >> g & 1 and not after.occupied >> g & 1
                }
                expected = any(len(_winning_cells(_after(after, p, g), p)) >= 2 for g in near)
                assert T.is_three(lb.B, p, c) == expected, (pos, p, c)
            threats, n = T.defences(lb.B, p, out, -1)
            assert threats == len(doubles)
            if doubles:
                expected = set.intersection(*({g} | w for g, w in doubles.items()))
                assert set(out[:n].tolist()) == expected
            # local defences: only the double-threat cells on a line through a stone of p
            for last in [c for c in range(spec.cells) if mine >> c & 1][:3]:
                local = {
                    g: w
                    for g, w in doubles.items()
                    if any(m >> g & 1 and m >> last & 1 for m in map(int, win_masks(spec)))
                }
                threats, n = T.defences(lb.B, p, out, last)
                assert threats == len(local), (pos, p, last)
                if local:
                    local_seen += 1
                    expected = set.intersection(*({g} | w for g, w in local.items()))
                    assert set(out[:n].tolist()) == expected
    assert checked >= 3 and local_seen > 0


def _pairing_exists(open_lines: list[int], budget: int = 50_000) -> bool | None:
    """Plain depth-first search for disjoint pairs of cells, each open line (its empty cells,
    as a bitmask) holding one pair; None beyond ``budget`` nodes."""
    nodes = 0

    def search(lines: list[int], used: int) -> bool | None:
        nonlocal nodes
        if not lines:
            return True
        nodes += 1
        if nodes > budget:
            return None
        line = min(lines, key=lambda m: (m & ~used).bit_count())
        free = [c for c in range(line.bit_length()) if line >> c & 1 and not used >> c & 1]
        unknown = False
        for i, x in enumerate(free):
            for y in free[i + 1 :]:
                pair = 1 << x | 1 << y
                found = search([m for m in lines if m & pair != pair], used | pair)
                if found:
                    return True
                unknown = unknown or found is None
        return None if unknown else False

    return search(open_lines, 0)


@pytest.mark.parametrize("game, count", [("5x5k4", 120), ("6x6k5", 100), ("7x7k5", 40)])
def test_pairing_search_agrees_with_a_plain_search(game, count):
    spec = as_spec(game)
    lb = LineBoard(spec)
    covered = np.zeros(lb.lines, dtype=np.int8)
    used = np.zeros(spec.cells, dtype=np.int8)
    masks = [int(m) for m in win_masks(spec)]
    seen = {1: 0, 0: 0}
    for pos in random_positions(spec, count, seed=13, min_ply=3):
        lb.load(pos.first, pos.second)
        for a in (0, 1):
            theirs = pos.second if a == 0 else pos.first
            open_lines = [m & ~pos.occupied for m in masks if not m & theirs]
            got, nodes = T.pairing_search(lb.B, a, covered, used, 100_000)
            assert 0 <= nodes <= 100_001
            assert not covered.any() and not used.any()
            if got == -1:
                continue
            expected = all(m.bit_count() >= 2 for m in open_lines) and _pairing_exists(open_lines)
            if expected is None:
                continue
            assert got == int(expected), (pos, a)
            seen[got] += 1
            held, greedy_nodes = T.pairing_holds(lb.B, a, covered, used, 0)
            assert greedy_nodes == 0
            if held:  # the greedy: never more
                assert got == 1
    assert seen[1] > 0 and seen[0] > 0
