"""Live layered tables (``positions="live"``, ``solve --live``): no forward pass; every
canonical colouring with no line is solved, reachable or not, and no finished game is stored
(its probe is answered from its lines). Checked against the plain recursion of
``tests/naive.py`` on every position of small boards, and against the reachable table's bytes.

Positions are bitboards (bit ``r * cols + c``; gravity: row ``rows - 1`` is the bottom).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from fastttt.errors import InvalidArgumentError, TableFileError
from fastttt.games.mnk.board import Position, has_line
from fastttt.games.mnk.spec import as_spec
from fastttt.tables.layered import solve_layered
from fastttt.tables.probe import open_table

from naive import naive_outcome
from test_layered import Stop, stopper

pytest.importorskip("zarr")

BYTE_OF_VALUE = {1: 1, 0: 2, -1: 3}  # value -> v of a table byte (1 first wins, 2 draw, 3 second)


def every_position(spec):
    """(first, second) of every position with a game's stone counts (X as many as O, or one
    more) and, on a gravity board, no stone above an empty cell, in the order of the base-3
    digits (cell 0 the slowest)."""
    if spec.gravity:  # a stack of stones a column: far fewer candidates than 3**cells
        stacked = sorted(
            tuple(map(sum, zip(*stacks, strict=True)))
            for stacks in itertools.product(*(_stacks(spec, c) for c in range(spec.cols)))
        )
        candidates = ((first, second) for _, first, second in stacked)
    else:
        candidates = (
            (
                sum(1 << c for c, d in enumerate(digits) if d == 1),
                sum(1 << c for c, d in enumerate(digits) if d == 2),
            )
            for digits in itertools.product(range(3), repeat=spec.cells)
        )
    for first, second in candidates:
        if first.bit_count() - second.bit_count() in (0, 1):
            yield first, second


def _stacks(spec, col):
    """(base-3 digits' value, first, second) of every stack of stones in column ``col`` of a
    gravity board; the values of stacks of different columns add up to the position's."""
    stacks = []
    for height in range(spec.rows + 1):
        cells = [(spec.rows - 1 - i) * spec.cols + col for i in range(height)]
        for owners in itertools.product((1, 2), repeat=height):
            first = sum(1 << c for c, o in zip(cells, owners, strict=True) if o == 1)
            second = sum(1 << c for c, o in zip(cells, owners, strict=True) if o == 2)
            value = sum(o * 3 ** (spec.cells - 1 - c) for c, o in zip(cells, owners, strict=True))
            stacks.append((value, first, second))
    return stacks


def expected_byte(spec, first: int, second: int, memo: dict, depth: bool) -> int:
    """The byte a live table answers for a position: its value and depth when no side has a
    line; a win at depth 0 when only the side that moved last has one and a stone it could
    have played last (gravity: nothing above it) leaves it without; else 0."""
    x_last = first.bit_count() > second.bit_count()
    first_line, second_line = has_line(spec, first), has_line(spec, second)
    if first_line or second_line:
        if (first_line and second_line) or first_line != x_last:
            return 0
        last = first if x_last else second
        occupied = first | second
        for cell in range(spec.cells):
            above = cell - spec.cols
            if not last >> cell & 1 or (spec.gravity and above >= 0 and occupied >> above & 1):
                continue
            if not has_line(spec, last & ~(1 << cell)):
                return 1 if first_line else 3
        return 0
    value, plies = naive_outcome(Position(spec, first, second), memo)
    return (plies << 2 if depth else 0) | BYTE_OF_VALUE[value]


@pytest.mark.parametrize("values", ["depth", "wdl"])
@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
@pytest.mark.parametrize("game", ["3x3k3", "3x3k3g", "4x3k3g", "3x4k3g"])
def test_every_position_equals_the_naive_recursion(game, symmetry, values):
    spec = as_spec(game)
    sol = solve_layered(game, symmetry=symmetry, values=values, positions="live")
    assert sol.summary()["positions"] == "live"
    pairs = list(every_position(spec))
    firsts = np.array([f for f, _ in pairs], dtype=np.uint64)
    seconds = np.array([s for _, s in pairs], dtype=np.uint64)
    memo: dict = {}
    expected = np.array(
        [expected_byte(spec, f, s, memo, values == "depth") for f, s in pairs], dtype=np.uint8
    )
    got = sol.bytes_of(firsts, seconds)
    bad = np.flatnonzero(got != expected)
    if bad.size:
        pos = Position(spec, int(firsts[bad[0]]), int(seconds[bad[0]]))
        raise AssertionError(
            f"{bad.size} positions differ, e.g. {pos}: table byte "
            f"{got[bad[0]]}, expected {expected[bad[0]]}"
        )
    # the table stores exactly the positions with no line, one a symmetry class
    stored = 0
    for n in range(spec.cells + 1):
        layer = sol.store.read_layer("value", n)
        if values == "wdl":
            layer = np.unpackbits(layer, bitorder="little").reshape(-1, 2)
            layer = (layer[:, 0] | layer[:, 1] << 1)[: sol.index.layer_size(n)]
        where = np.flatnonzero(layer)
        stored += where.size
        f, s = sol.index.unrank_many(n, where)
        assert not any(
            has_line(spec, int(a)) or has_line(spec, int(b)) for a, b in zip(f, s, strict=True)
        )
    no_line = sum(1 for f, s in pairs if not has_line(spec, f) and not has_line(spec, s))
    assert sol.counts()["reachable"] == no_line  # each stored slot counts its orbit
    if symmetry:
        assert stored < no_line
    else:
        assert stored == no_line
    # probes: a finished game from its lines, a floating stone refused
    empty = Position.empty(spec)
    assert sol.value(empty) == naive_outcome(empty, memo)[0]
    won = next(p for p in map(lambda fs: Position(spec, *fs), pairs) if p.winner() == 0)
    assert sol.value(won) == 1
    if values == "depth":
        assert sol.depth(won) == 0
    if spec.gravity:
        top_alone = sol.bytes_of(np.array([1], dtype=np.uint64), np.array([0], dtype=np.uint64))
        assert top_alone[0] == 0  # a stone floating in the top row: no slot, not finished


def test_live_and_reachable_tables_agree_on_open_positions():
    """4 rows x 5 cols Connect-4: every open reachable position has the same byte (value and
    depth) in both tables; a finished one is not in the live table; chunks and serial kernels
    give the same bytes as whole layers on threads; the packed table holds the same values."""
    game = "4x5k4g"
    reach = solve_layered(game)
    live = solve_layered(game, positions="live")
    chunked = solve_layered(game, positions="live", chunk=50_000, parallel=False)
    packed = solve_layered(game, positions="live", values="wdl")
    unreachable_live = 0
    for n in range(reach.spec.cells + 1):
        r = np.asarray(reach.store.read_layer("value", n))
        v = np.asarray(live.store.read_layer("value", n))
        assert np.array_equal(v, chunked.store.read_layer("value", n)), f"layer {n}"
        is_open = r >> 2 > 0
        assert np.array_equal(v[is_open], r[is_open]), f"layer {n}"
        won = (r != 0) & (r >> 2 == 0) & (r != 2)
        assert not v[won].any(), f"layer {n}"
        unreachable_live += int(((r == 0) & (v != 0)).sum())
        bits = np.unpackbits(packed.store.read_layer("value", n), bitorder="little")
        wdl = (bits[0::2] | bits[1::2] << 1)[: v.size]
        assert np.array_equal(wdl, v & 3), f"layer {n}"
    assert 0 < unreachable_live < 0.02 * reach.reachable  # nearly every live one is reachable
    assert live.value([]) == reach.value([]) == 0
    assert live.depth([]) == reach.depth([])
    assert live.counts()["values"] == packed.counts()["values"]
    assert live.counts()["by_ply"][-1] == packed.counts()["by_ply"][-1]  # full-board draws


def test_live_solve_on_disk_resumes_and_refuses_the_other_kind(tmp_path):
    game = "4x4k4g"
    reference = solve_layered(game, positions="live", values="wdl")
    out = tmp_path / "t"
    calls: list = []
    progress = stopper("value", 20, calls)
    with pytest.raises(Stop):
        solve_layered(game, out=out, chunk=4096, positions="live", values="wdl", progress=progress)
    assert {call[0] for call in calls} == {"value"}  # no forward pass
    assert not (out / "reach").exists()
    with pytest.raises(TableFileError, match="positions 'live', asked for 'reachable'"):
        solve_layered(game, out=out, resume=True, positions="reachable")
    sol = solve_layered(game, out=out, resume=True, mode="windowed")  # the table's own kind
    assert sol.store.manifest["positions"] == "live"
    for n in range(17):
        expected = reference.store.read_layer("value", n)
        assert np.array_equal(sol.store.read_layer("value", n), expected), f"layer {n}"
    reopened = open_table(out)
    assert reopened.value([]) == 0 and reopened.live
    assert reopened.counts() == reference.counts()


def test_live_refuses_the_column_runs_index():
    with pytest.raises(InvalidArgumentError, match="heights index"):
        solve_layered("4x4k4g", positions="live", index="column-runs")
    with pytest.raises(InvalidArgumentError, match="positions must be one of"):
        solve_layered("4x4k4g", positions="all")


def solve_on_dask(game, **kwargs):
    """``solve_layered(game, **kwargs)`` with its chunks run on a LocalCluster of 2 workers."""
    pytest.importorskip("distributed")
    from fastttt.tables.distributed import DaskRunner, local_cluster

    cluster, client = local_cluster(2)
    try:
        return solve_layered(game, runner_factory=lambda work: DaskRunner(work, client), **kwargs)
    finally:
        client.close()
        cluster.close()


def test_live_solve_on_dask_workers_gives_the_same_bytes(tmp_path):
    game = "4x4k4g"
    reference = solve_layered(game, positions="live")
    sol = solve_on_dask(game, out=tmp_path / "t", chunk=4096, positions="live")
    for n in range(17):
        expected = reference.store.read_layer("value", n)
        assert np.array_equal(sol.store.read_layer("value", n), expected), f"layer {n}"
    assert sol.counts() == reference.counts()
