"""Pairing strategies: certificates checked by an independent checker, "no pairing" answers
checked by brute force on small boards, and pairing draws against the exact solvers."""

from __future__ import annotations

import pytest

from fastttt.errors import GameSpecError
from fastttt.games.mnk.spec import as_spec
from fastttt.search.pairing import find_pairing
from fastttt.tables.dense import solve


def lines_by_coordinates(rows: int, cols: int, k: int) -> list[frozenset[int]]:
    """Every line of k cells, from its definition: k consecutive cells of a row, a column or a
    diagonal (written here without fastttt's masks)."""
    found = set()
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= y < rows and 0 <= x < cols for y, x in cells):
                    found.add(frozenset(y * cols + x for y, x in cells))
    return sorted(found, key=sorted)


def check_certificate(rows: int, cols: int, k: int, pairs) -> None:
    """The pairs are disjoint cells of the board and every line holds both cells of one."""
    cells = [c for pair in pairs for c in pair]
    assert all(len(pair) == 2 for pair in pairs)
    assert len(cells) == len(set(cells)), "pairs share a cell"
    assert all(0 <= c < rows * cols for c in cells)
    for line in lines_by_coordinates(rows, cols, k):
        assert any(a in line and b in line for a, b in pairs), f"line {sorted(line)} uncovered"


def some_pairing_exists(rows: int, cols: int, k: int) -> bool:
    """Brute force over every set of disjoint pairs (small boards only)."""
    lines = lines_by_coordinates(rows, cols, k)
    cells = list(range(rows * cols))

    def extend(free: list[int], pairs: list[tuple[int, int]]) -> bool:
        if all(any(a in line and b in line for a, b in pairs) for line in lines):
            return True
        if not free:
            return False
        first, rest = free[0], free[1:]
        if extend(rest, pairs):  # the first free cell stays unpaired
            return True
        return any(
            extend([c for c in rest if c != other], pairs + [(first, other)]) for other in rest
        )

    return extend(cells, [])


PAIRED = ["5x5k5", "6x6k6", "7x7k7", "8x8k8", "7x7k6", "8x8k7", "2x8k8", "3x6k6", "4x5k5"]


@pytest.mark.parametrize("game", PAIRED)
def test_certificates_pass_the_independent_checker(game):
    spec = as_spec(game)
    result = find_pairing(spec)
    assert result.found and result.complete, result.verdict()
    check_certificate(spec.rows, spec.cols, spec.k, result.pairs)
    assert result.verdict().startswith("draw")


@pytest.mark.parametrize("game", ["3x3k3", "3x4k3", "2x4k2", "3x4k4", "2x5k3", "3x3k2"])
def test_no_pairing_answers_agree_with_brute_force(game):
    spec = as_spec(game)
    result = find_pairing(spec)
    assert result.complete
    assert result.found == some_pairing_exists(spec.rows, spec.cols, spec.k)
    if result.found:
        check_certificate(spec.rows, spec.cols, spec.k, result.pairs)


@pytest.mark.parametrize(
    "game", ["4x4k4", "5x5k4", "6x6k5", pytest.param("7x7k5", marks=pytest.mark.slow)]
)
def test_boards_without_a_pairing_say_so(game):
    result = find_pairing(game)
    assert not result.found and result.complete
    assert result.verdict() == "no pairing exists"


def test_a_pairing_draw_is_a_draw_for_the_exact_solver():
    for game in ("3x6k6", "3x5k5", "2x8k8"):
        assert find_pairing(game).found
        assert solve(game).summary()["value"] == "draw", game


def test_a_budget_too_small_says_unknown():
    result = find_pairing("7x7k6", node_budget=10)
    assert not result.found and not result.complete
    assert "unknown" in result.verdict()


def test_bad_requests_are_refused():
    with pytest.raises(GameSpecError, match="free board"):
        find_pairing("connect4")
    with pytest.raises(GameSpecError, match="node_budget"):
        find_pairing("6x6k6", node_budget=0)


def test_solve_search_proves_pairing_draws_at_once():
    import json

    from click.testing import CliRunner

    from fastttt.cli import main

    result = CliRunner().invoke(main, ["solve", "7x7k7", "--search", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["value"] == "draw" and out["method"] == "pairing + strategy-stealing"
    cells = [
        tuple((int(r) - 1) * 7 + int(c) - 1 for r, c in (m.split(",") for m in pair))
        for pair in out["pairs"]
    ]  # the pairs are written row,col from 1
    check_certificate(7, 7, 7, cells)
    result = CliRunner().invoke(main, ["solve", "4x4k3", "--search", "--json"])
    out = json.loads(result.stdout)
    assert out["value"] == "win" and out["winner"] == "first" and "pairs" not in out
