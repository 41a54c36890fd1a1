"""Depths of win/draw/loss tables by search (fastttt.search.table_depths): every depth, best
move and move outcome equal to the byte table's (value and depth a byte, checked against the
dense and naive solvers in test_layered.py), on gravity and free boards and with the wide
searcher."""

from __future__ import annotations

import numpy as np
import pytest

from fastttt.errors import InvalidPositionError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.search.alphabeta import Searcher, WideSearcher
from fastttt.search.table_depths import SearchedDepths, with_depths
from fastttt.tables.layered import solve_layered

pytest.importorskip("zarr")


def reachable(spec, limit: int, seed: int) -> list[Position]:
    """Up to ``limit`` positions of each ply, by random playouts from the empty board."""
    rng = np.random.default_rng(seed)
    seen: dict[int, set[Position]] = {}
    for _ in range(limit * spec.cells):
        pos = Position.empty(spec)
        while True:
            seen.setdefault(pos.ply, set()).add(pos)
            if pos.is_over():
                break
            pos = pos.play(int(rng.choice(pos.legal_moves())))
    return [p for ply in sorted(seen) for p in sorted(seen[ply], key=str)[:limit]]


@pytest.mark.parametrize("game", ["4x5k4g", "3x4k3", "4x4k3g"])
def test_searched_depths_equal_the_byte_tables(game):
    spec = as_spec(game)
    exact = solve_layered(spec)
    wdl = solve_layered(spec, values="wdl")
    assert not wdl.has_depth
    table = with_depths(wdl)
    assert isinstance(table, SearchedDepths) and with_depths(exact) is exact
    positions = reachable(spec, 40, seed=len(game))
    for pos in positions:
        assert table.value(pos) == exact.value(pos), pos
        assert table.depth(pos) == exact.depth(pos), pos
        if not pos.is_over():
            assert table.best_moves(pos) == exact.best_moves(pos), pos
    sample = positions[::7]
    for got, want in zip(table.probe_many(sample), exact.probe_many(sample), strict=True):
        assert np.array_equal(got, want)


def test_the_wide_searcher_gives_the_same_depths():
    spec = as_spec("3x4k3")
    exact = solve_layered(spec)
    table = SearchedDepths(solve_layered(spec, values="wdl"), WideSearcher(spec))
    for pos in reachable(spec, 15, seed=3):
        assert table.probe_moves(pos) == exact.probe_moves(pos), pos


def test_solve_between_searches_only_inside_the_range():
    spec = as_spec("4x5k4g")
    positions = [p for p in reachable(spec, 30, seed=5) if not p.is_over()]
    signs = set()
    for pos in positions:
        score = Searcher(spec).solve(pos).score
        signs.add((score > 0) - (score < 0))
        lo, hi = (1, 11) if score > 0 else (-11, -1) if score < 0 else (0, 0)
        s = Searcher(spec)
        assert s.solve_between(pos, lo, hi) == score, pos
        assert s.solve_between(pos, score, score) == score
    assert signs == {-1, 0, 1}
    empty = Position.empty(spec)
    s = Searcher(spec)
    s.solve_between(empty, 0, 0)
    assert s.nodes == 0  # a closed range needs no search


def test_a_position_outside_the_table_is_refused_as_the_table_refuses_it():
    spec = as_spec("4x4k3g")
    wdl = solve_layered(spec, values="wdl")
    floating = Position(spec, 1, 0, check=False)  # a stone above an empty column
    with pytest.raises(InvalidPositionError) as plain:
        wdl.value(floating)
    with pytest.raises(InvalidPositionError) as searched:
        with_depths(wdl).depth(floating)
    assert str(searched.value) == str(plain.value)
