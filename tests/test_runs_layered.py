"""The layered solver over the column-runs index (``index="column-runs"``): the same value and
depth of every reachable position as the dense solver and as the heights index, Tromp's
reachable counts, nothing stored outside the reachable positions; with the mirror, one slot
an orbit and the same counts as the heights index with the mirror.

Each backward sweep also checks that every child of an open reachable position has a slot
(the solve raises otherwise): the index leaves out only positions no game reaches."""

from __future__ import annotations

import json
from functools import cache

import numpy as np
import pytest

from fastttt.codes import bitboards_of_codes
from fastttt.errors import InvalidArgumentError
from fastttt.games.facts import known_boards
from fastttt.games.mnk.spec import as_spec
from fastttt.tables.dense import solve
from fastttt.tables.layered import solve_layered
from fastttt.tables.runs_index import ColumnRunsIndex

pytest.importorskip("zarr")


@cache
def heights_solution(game: str, values: str = "depth"):
    return solve_layered(game, symmetry=False, values=values)


@cache
def runs_solution(game: str, values: str = "depth"):
    return solve_layered(game, symmetry=False, values=values, index="column-runs")


TROMP = ("4x4k4g", "4x5k4g", "5x4k4g")


def tromp_reachable(game: str) -> int:
    name = as_spec(game).name
    known = [kb for kb in known_boards() if kb.spec.name == name and "reachable" in kb.facts]
    return int(known[0].facts["reachable"])


@pytest.mark.parametrize("game", ["3x3k3g", "4x3k3g", "3x4k3g", "4x4k4g", "2x5k2g"])
def test_equal_to_the_dense_solver(game):
    dense = solve(game)
    codes = dense.reachable_codes()
    expected = dense.table[dense._slots(codes)]
    firsts, seconds = bitboards_of_codes(codes, dense.spec.cells)
    sol = runs_solution(game)
    assert isinstance(sol.index, ColumnRunsIndex)
    np.testing.assert_array_equal(sol.bytes_of(firsts, seconds), expected)
    assert sol.counts() == dense.counts()
    stored = sum(
        np.count_nonzero(sol.store.read_layer("value", n))
        for n in range(len(sol.store.manifest["layer_sizes"]))
    )
    assert stored == codes.shape[0]  # a slot a reachable position, nothing else


@pytest.mark.parametrize("values", ["depth", "wdl"])
@pytest.mark.parametrize("game", ["4x4k4g", "4x5k4g", "5x4k4g"])
def test_equal_to_the_heights_index(game, values):
    heights, runs = heights_solution(game, values), runs_solution(game, values)
    assert runs.reachable == heights.reachable == tromp_reachable(game)
    assert runs.counts() == heights.counts()
    sizes = runs.store.manifest["layer_sizes"]
    assert sum(sizes) < sum(heights.store.manifest["layer_sizes"])
    depth = heights_solution(game)  # every reachable position's byte (its v in a WDL table)
    for n in range(len(sizes)):
        expected = np.asarray(depth.store.read_layer("value", n))
        where = np.flatnonzero(expected)
        firsts, seconds = depth.index.unrank_many(n, where)
        expected = expected[where] if values == "depth" else expected[where] & 3
        np.testing.assert_array_equal(runs.bytes_of(firsts, seconds), expected, f"layer {n}")
        if values == "depth":  # nothing stored but the reachable positions
            assert np.count_nonzero(runs.store.read_layer("value", n)) == where.size


def test_chunks_and_threads_give_the_same_bytes():
    whole = runs_solution("4x4k4g")
    small = solve_layered("4x4k4g", symmetry=False, index="column-runs", chunk=1000, parallel=False)
    for n in range(len(whole.store.manifest["layer_sizes"])):
        np.testing.assert_array_equal(
            small.store.read_layer("value", n), whole.store.read_layer("value", n)
        )


def test_what_the_column_runs_index_does_not_take_is_refused(tmp_path):
    with pytest.raises(InvalidArgumentError, match="gravity boards"):
        solve_layered("3x3k3", symmetry=False, index="column-runs")
    with pytest.raises(InvalidArgumentError, match="in RAM"):
        solve_layered("4x4k4g", symmetry=False, index="column-runs", out=tmp_path / "t")
    with pytest.raises(InvalidArgumentError, match="index must be one of"):
        solve_layered("4x4k4g", index="runs")


@pytest.mark.parametrize("game", ["3x4k3g", "4x3k3g", "4x4k4g", "2x5k2g", "4x5k4g"])
def test_with_the_mirror_equal_to_the_heights_index(game):
    heights = solve_layered(game, symmetry=True)
    runs = solve_layered(game, symmetry=True, index="column-runs")
    assert runs.index.symmetry == heights.index.symmetry == "mirror"
    assert runs.counts() == heights.counts()
    if game in TROMP:
        assert runs.reachable == tromp_reachable(game)
    depth = heights_solution(game)  # every reachable position, no symmetry
    for n in range(len(runs.store.manifest["layer_sizes"])):
        expected = np.asarray(depth.store.read_layer("value", n))
        where = np.flatnonzero(expected)
        firsts, seconds = depth.index.unrank_many(n, where)
        np.testing.assert_array_equal(runs.bytes_of(firsts, seconds), expected[where])
        data = np.asarray(runs.store.read_layer("value", n))  # one slot an orbit, both
        assert np.count_nonzero(data) == np.count_nonzero(heights.store.read_layer("value", n))
    assert sum(runs.store.manifest["layer_sizes"]) < sum(heights.store.manifest["layer_sizes"])


def test_the_cli_takes_the_index():
    from click.testing import CliRunner

    from fastttt.cli import main

    def solve_json(*args):
        result = CliRunner().invoke(main, ["solve", "4x4k4g", *args, "--json"])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    runs = solve_json("--index", "column-runs", "--no-symmetry")
    assert runs["index"] == "gravity-column-runs" and runs["symmetry"] == "none"
    heights = solve_json("--engine", "layered", "--no-symmetry")
    for key in ("reachable", "value", "depth", "terminal", "values"):
        assert runs[key] == heights[key], key
    result = CliRunner().invoke(main, ["solve", "4x4k4g", "--index", "column-runs", "--out", "x"])
    assert result.exit_code == 2 and "in memory" in result.output
