"""The layered solver: perfect layer indexes, equality with the dense and the naive solvers,
resume after an interruption or a SIGKILL, damaged chunks, Dask, lazy probing, memory plans.

Positions are bitboards (bit ``r * cols + c``; gravity: row ``rows - 1`` is the bottom); a
base-3 code has digit 1 for the first player and 2 for the second. Symmetry groups and
canonical forms are rebuilt here from their definitions, independently of the kernels.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import uuid
from functools import cache
from math import comb

import numpy as np
import pytest

from fastttt.errors import (
    DiskBudgetError,
    InvalidArgumentError,
    InvalidPositionError,
    MemoryBudgetError,
    TableFileError,
)
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec, mnk
from fastttt.memory import format_bytes
from fastttt.tables.cache import choose_engine
from fastttt.tables.dense import solve
from fastttt.tables.index import LayerIndex
from fastttt.tables.layer_store import DEFAULT_CHUNK, LayerStore
from fastttt.tables.layered import SPARE_BYTES, check_fits, fit_plan, plan, solve_layered
from fastttt.tables.probe import LayeredSolution, open_table

from naive import solve_naive

pytest.importorskip("zarr")

VALUE_OF_BYTE = np.array([0, 1, 0, -1], dtype=np.int8)  # byte & 3: 1 first, 2 draw, 3 second


# --- helpers: groups, canonical forms, codes, independently of fastttt ------------------------
def group_maps(spec, symmetry: bool) -> list[list[int]]:
    """Image cell of every cell for each distinct element of the board's symmetry group:
    the 8 of a square, the 4 of a rectangle, the left-right mirror with gravity."""
    rows, cols = spec.rows, spec.cols
    moves = [lambda r, c: (r, c)]
    if symmetry:
        moves.append(lambda r, c: (r, cols - 1 - c))
        if not spec.gravity:
            moves += [lambda r, c: (rows - 1 - r, c), lambda r, c: (rows - 1 - r, cols - 1 - c)]
            if rows == cols:
                n = rows
                moves += [
                    lambda r, c: (c, r),
                    lambda r, c: (n - 1 - c, n - 1 - r),
                    lambda r, c: (c, n - 1 - r),
                    lambda r, c: (n - 1 - c, r),
                ]
    maps = []
    for move in moves:
        image = [0] * spec.cells
        for r in range(rows):
            for c in range(cols):
                r2, c2 = move(r, c)
                image[r * cols + c] = r2 * cols + c2
        if image not in maps:
            maps.append(image)
    return maps


def permute(masks: np.ndarray, image: list[int]) -> np.ndarray:
    out = np.zeros_like(masks)
    for cell, target in enumerate(image):
        out |= ((masks >> np.uint64(cell)) & np.uint64(1)) << np.uint64(target)
    return out


def canonical(firsts, seconds, maps):
    """Canonical form: the image with the smallest occupied mask, then the smallest X mask."""
    occ = firsts | seconds
    best_occ, best_first = occ.copy(), firsts.copy()
    for image in maps[1:]:
        o, f = permute(occ, image), permute(firsts, image)
        better = (o < best_occ) | ((o == best_occ) & (f < best_first))
        best_occ = np.where(better, o, best_occ)
        best_first = np.where(better, f, best_first)
    return best_first, best_occ ^ best_first


def _digit_tables(digits: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """X and O bits of every group of ``digits`` base-3 digits."""
    values = np.arange(3**digits)
    firsts = np.zeros(3**digits, dtype=np.uint64)
    seconds = np.zeros(3**digits, dtype=np.uint64)
    for i in range(digits):
        digit = values // 3**i % 3
        firsts |= (digit == 1).astype(np.uint64) << np.uint64(i)
        seconds |= (digit == 2).astype(np.uint64) << np.uint64(i)
    return firsts, seconds


_FIRST8, _SECOND8 = _digit_tables()


def bitboards(codes: np.ndarray, cells: int) -> tuple[np.ndarray, np.ndarray]:
    """Bitboards of base-3 codes (digit c: cell c; 1 first player, 2 second)."""
    firsts = np.zeros(codes.shape[0], dtype=np.uint64)
    seconds = np.zeros(codes.shape[0], dtype=np.uint64)
    rest = codes.astype(np.int64)
    for shift in range(0, cells, 8):
        part = rest % 3**8
        rest = rest // 3**8
        firsts |= _FIRST8[part] << np.uint64(shift)
        seconds |= _SECOND8[part] << np.uint64(shift)
    return firsts, seconds


def codes_of(firsts: np.ndarray, seconds: np.ndarray, cells: int) -> np.ndarray:
    codes = np.zeros(firsts.shape[0], dtype=np.int64)
    for cell in range(cells):
        digit = ((firsts >> np.uint64(cell)) & np.uint64(1)).astype(np.int64)
        digit += 2 * ((seconds >> np.uint64(cell)) & np.uint64(1)).astype(np.int64)
        codes += digit * 3**cell
    return codes


def floating(spec, occ: np.ndarray) -> np.ndarray:
    """Stones of a gravity board with an empty cell below them."""
    bottom = sum(1 << ((spec.rows - 1) * spec.cols + c) for c in range(spec.cols))
    support = (occ >> np.uint64(spec.cols)) | np.uint64(bottom)
    return occ & ~support


def height_vectors(rows: int, cols: int, n: int) -> int:
    return sum(1 for h in itertools.product(range(rows + 1), repeat=cols) if sum(h) == n)


def value_layers(store) -> list[np.ndarray]:
    layers = range(len(store.manifest["layer_sizes"]))
    return [np.array(store.read_layer("value", n)) for n in layers]


@cache
def dense_solution(game: str):
    return solve(game)


# --- 1. the perfect indexes -----------------------------------------------------------------
INDEX_BOARDS = ["3x3k3", "3x4k3", "4x4k4", "4x4k4g", "3x5k3g"]


@pytest.mark.parametrize("game", INDEX_BOARDS)
def test_index_without_symmetry_is_a_bijection(game):
    spec = as_spec(game)
    index = LayerIndex(spec, symmetry=False)
    assert index.symmetry == "none" and index.group_order == 1
    assert index.layer_count == spec.cells + 1
    for n in range(spec.cells + 1):
        x = (n + 1) // 2
        if spec.gravity:
            expected = height_vectors(spec.rows, spec.cols, n) * comb(n, x)
        else:
            expected = comb(spec.cells, n) * comb(n, x)
        assert index.layer_size(n) == expected, f"layer {n}"
        slots = np.arange(expected, dtype=np.int64)
        firsts, seconds = index.unrank_many(n, slots)
        # each slot holds a position of the layer: x stones of X, n - x of O, no overlap
        assert not np.any(firsts & seconds)
        assert np.all(np.bitwise_count(firsts) == x)
        assert np.all(np.bitwise_count(seconds) == n - x)
        assert not np.any((firsts | seconds) >> np.uint64(spec.cells))
        if spec.gravity:
            assert not np.any(floating(spec, firsts | seconds))
        # ranks back to itself: unrank is injective, so with the size above a bijection
        assert np.array_equal(index.rank_many(n, firsts, seconds), slots), f"layer {n}"
    assert index.layer_sizes == [index.layer_size(n) for n in range(spec.cells + 1)]


@pytest.mark.parametrize("game", INDEX_BOARDS + ["4x3k3", "1x5k3"])
def test_index_with_symmetry_stores_canonical_forms(game):
    spec = as_spec(game)
    index = LayerIndex(spec, symmetry=True)
    maps = group_maps(spec, True)
    expected_name = "mirror" if spec.gravity else "d4" if spec.rows == spec.cols else "d2"
    assert index.symmetry == expected_name
    assert index.group_order == len(maps)
    plain = LayerIndex(spec, symmetry=False)
    for n in range(spec.cells + 1):
        lay = index.layer(n)
        # one block per orbit of occupied masks (counted here from every mask of the layer)
        masks = plain.layer(n).occ
        orbit_min = masks.copy()
        for image in maps[1:]:
            orbit_min = np.minimum(orbit_min, permute(masks, image))
        assert np.array_equal(np.sort(lay.occ), np.unique(orbit_min)), f"layer {n}"
        assert index.layer_size(n) == lay.occ.shape[0] * lay.colourings, f"layer {n}"
        assert lay.colourings == comb(n, (n + 1) // 2)
        slots = np.arange(index.layer_size(n), dtype=np.int64)
        firsts, seconds = index.unrank_many(n, slots)
        cf, cs = canonical(firsts, seconds, maps)
        is_canonical = (cf == firsts) & (cs == seconds)
        ranks = index.rank_many(n, firsts, seconds)
        assert np.all(ranks >= 0)
        # the slot a position ranks to holds its canonical form: same orbit
        rf, rs = index.unrank_many(n, ranks)
        assert np.array_equal(rf, cf) and np.array_equal(rs, cs), f"layer {n}"
        # canonical positions rank to themselves
        assert np.array_equal(ranks[is_canonical], slots[is_canonical]), f"layer {n}"
        # a block's mask is orbit-minimal; only blocks fixed by a symmetry hold other colourings
        occ = lay.occ
        for image in maps[1:]:
            assert np.all(permute(occ, image) >= occ)
        fixed = np.zeros(occ.shape[0], dtype=bool)
        for image in maps[1:]:
            fixed |= permute(occ, image) == occ
        assert np.array_equal(lay.fixed.astype(bool), fixed), f"layer {n}"
        block = slots // lay.colourings
        assert np.all(fixed[block[~is_canonical]]), f"layer {n}"
        assert np.all(is_canonical[~fixed[block]]), f"layer {n}"


@pytest.mark.parametrize("game", ["3x3k3", "3x4k3", "4x4k4g", "3x5k3g"])
def test_every_position_has_exactly_its_canonical_slot(game):
    """Ranks of all positions of a layer (from the plain index) cover the canonical slots of
    the symmetric index exactly once per orbit."""
    spec = as_spec(game)
    plain, sym = LayerIndex(spec, False), LayerIndex(spec, True)
    maps = group_maps(spec, True)
    for n in range(spec.cells + 1):
        firsts, seconds = plain.unrank_many(n, np.arange(plain.layer_size(n), dtype=np.int64))
        ranks = sym.rank_many(n, firsts, seconds)
        assert np.all(ranks >= 0)
        cf, cs = canonical(firsts, seconds, maps)
        rf, rs = sym.unrank_many(n, ranks)
        assert np.array_equal(rf, cf) and np.array_equal(rs, cs)
        orbits = np.unique(cf.astype(object) * 2**spec.cells + cs.astype(object)).shape[0]
        assert np.unique(ranks).shape[0] == orbits, f"layer {n}"
        all_slots = np.arange(sym.layer_size(n), dtype=np.int64)
        sf, ss = sym.unrank_many(n, all_slots)
        kf, ks = canonical(sf, ss, maps)
        canonical_slots = all_slots[(kf == sf) & (ks == ss)]
        assert np.array_equal(np.unique(ranks), canonical_slots), f"layer {n}"


def test_rank_refuses_positions_no_slot_holds():
    gravity = LayerIndex("4x4k4g", symmetry=True)
    with pytest.raises(InvalidPositionError):
        gravity.rank(1 << 0, 0)  # a stone floating in the top row
    with pytest.raises(InvalidPositionError):
        gravity.rank(0, 1 << 12)  # O moved first
    with pytest.raises(InvalidPositionError):
        gravity.rank(1 << 12, 1 << 12)  # both on one cell
    with pytest.raises(InvalidPositionError):
        gravity.unrank(1, gravity.layer_size(1))
    free = LayerIndex("3x3k3", symmetry=True)
    # one X: corner, edge or centre, three slots
    assert free.layer_size(1) == 3
    corners = {free.rank(1 << c, 0) for c in (0, 2, 6, 8)}
    edges = {free.rank(1 << c, 0) for c in (1, 3, 5, 7)}
    assert len(corners) == len(edges) == 1
    assert len(corners | edges | {free.rank(1 << 4, 0)}) == 3


# --- 2. equal to the dense solver and to the naive one --------------------------------------
DENSE_BOARDS = [
    "3x3k3",
    "3x4k3",
    "4x3k3",
    "4x4k3",
    "1x5k3",
    "2x2k2",
    "3x3k3g",
    "4x3k3g",
    "3x4k3g",
    "4x4k4g",
    "2x5k2g",
]


@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
@pytest.mark.parametrize("game", DENSE_BOARDS)
def test_equal_to_the_dense_solver(game, symmetry):
    dense = dense_solution(game)
    spec = dense.spec
    codes = dense.reachable_codes()
    expected = dense.table[dense._slots(codes)]
    firsts, seconds = bitboards(codes, spec.cells)
    sol = solve_layered(game, symmetry=symmetry)
    got = sol.bytes_of(firsts, seconds)
    bad = np.nonzero(got != expected)[0]
    assert bad.size == 0, (
        f"{bad.size} positions differ, e.g. {Position.from_code(spec, int(codes[bad[0]]))}: "
        f"layered byte {got[bad[0]]}, dense {expected[bad[0]]}"
    )
    assert sol.reachable == codes.shape[0]
    assert sol.counts() == dense.counts()
    summary, dense_summary = sol.summary(), dense.summary()
    for key in ("reachable", "value", "depth", "terminal", "values"):
        assert summary[key] == dense_summary[key], key
    # nothing else is stored: every non-zero slot is a reachable position with its dense byte
    stored = 0
    for n in range(spec.cells + 1):
        data = sol.store.read_layer("value", n)
        where = np.nonzero(data)[0]
        stored += where.shape[0]
        f, s = sol.index.unrank_many(n, where)
        slot_codes = codes_of(f, s, spec.cells)
        assert np.all(dense.is_reachable(slot_codes)), f"layer {n}"
        assert np.array_equal(dense.table[dense._slots(slot_codes)], data[where]), f"layer {n}"
    if not symmetry:
        assert stored == codes.shape[0]
    elif codes.shape[0] < 500_000:  # one slot per orbit of reachable positions
        cf, cs = canonical(firsts, seconds, group_maps(spec, True))
        orbits = np.unique(codes_of(cf, cs, spec.cells)).shape[0]
        assert stored == orbits


@pytest.mark.parametrize("game", ["3x3k3", "2x2k2", "1x5k3", "3x3k3g", "2x5k2g", "3x4k3g"])
def test_equal_to_the_naive_solver(game):
    spec = as_spec(game)
    naive = solve_naive(spec)
    codes = np.array(sorted(naive), dtype=np.int64)
    values = np.array([naive[c][0] for c in codes.tolist()], dtype=np.int8)
    depths = np.array([naive[c][1] for c in codes.tolist()], dtype=np.int64)
    firsts, seconds = bitboards(codes, spec.cells)
    for symmetry in (True, False):
        sol = solve_layered(spec, symmetry=symmetry)
        got = sol.bytes_of(firsts, seconds)
        assert np.all(got != 0)
        assert np.array_equal(VALUE_OF_BYTE[got & 3], values)
        assert np.array_equal(got >> 2, depths)
        assert sol.reachable == len(naive)
        empty = naive[0]
        assert (sol.value(Position.empty(spec)), sol.depth(Position.empty(spec))) == empty


def test_parallel_kernels_and_chunks_give_the_same_bytes():
    """4 rows x 5 cols Connect-4: one chunk per layer with the threaded kernels (layers over
    2**18 slots), against small chunks and serial kernels."""
    whole = solve_layered("4x5k4g")
    assert max(whole.index.layer_sizes) > 2**18
    chunked = solve_layered("4x5k4g", chunk=50_000, parallel=False)
    assert whole.reachable == chunked.reachable == 3_945_711  # John Tromp's count
    assert whole.counts() == chunked.counts()
    for n, (a, b) in enumerate(
        zip(value_layers(whole.store), value_layers(chunked.store), strict=True)
    ):
        assert np.array_equal(a, b), f"layer {n}"


def neighbours(spec, firsts, seconds, children: bool):
    """Children (a stone of the side to move on a legal cell) or parents (a stone of the side
    that moved last taken off a cell it could have been played on) of each position, as
    (index of the position, first, second) lists."""
    full = (1 << spec.cells) - 1
    bottom = sum(1 << ((spec.rows - 1) * spec.cols + c) for c in range(spec.cols))
    out = []
    for i, (f, s) in enumerate(zip(firsts.tolist(), seconds.tolist(), strict=True)):
        occ = f | s
        x_moves = bin(occ).count("1") % 2 == 0  # X to move, so O moved last
        if children:
            cells = full & ~occ
            if spec.gravity:
                cells &= (occ >> spec.cols) | bottom
        else:
            cells = s if x_moves else f
            if spec.gravity:
                cells &= ~(occ << spec.cols) & full
        for cell in range(spec.cells):
            bit = 1 << cell
            if cells & bit:
                if children:
                    out.append((i, f | bit, s) if x_moves else (i, f, s | bit))
                else:
                    out.append((i, f, s ^ bit) if x_moves else (i, f ^ bit, s))
    return out


def neighbour_slots(index, firsts, seconds, other: int, children: bool) -> np.ndarray:
    """Slots in layer ``other`` of :func:`neighbours` (every one of them in that layer)."""
    found = neighbours(index.spec, firsts, seconds, children)
    f = np.array([x[1] for x in found], dtype=np.uint64)
    s = np.array([x[2] for x in found], dtype=np.uint64)
    slots = index.rank_many(other, f, s) if found else np.zeros(0, dtype=np.int64)
    assert (slots >= 0).all()
    return slots


@pytest.mark.parametrize(
    ("game", "symmetry"), [("4x4k4g", True), ("4x4k4g", False), ("3x4k3", True), ("3x5k3g", True)]
)
def test_neighbour_chunks_hold_every_child_and_parent(game, symmetry):
    from fastttt.kernels.layered import neighbour_chunks

    spec = as_spec(game)
    index = LayerIndex(spec, symmetry)
    sizes = index.layer_sizes
    chunk = 97  # small and odd: many chunk boundaries inside blocks
    for n in range(1, spec.cells):
        for start in range(0, sizes[n], 5 * chunk):
            stop = min(start + 5 * chunk, sizes[n])
            firsts, seconds = index.unrank_many(n, np.arange(start, stop))
            for other, children in ((n + 1, True), (n - 1, False)):
                needed = np.zeros(-(-sizes[other] // chunk), dtype=bool)
                neighbour_chunks(
                    index.geometry,
                    index.layer(n),
                    index.layer(other),
                    start,
                    stop,
                    children,
                    chunk,
                    needed,
                )
                slots = neighbour_slots(index, firsts, seconds, other, children)
                assert needed[slots // chunk].all(), (n, other, start)


@pytest.mark.parametrize("game", ["6x6k4g", "7x6k4g"])
def test_without_symmetry_a_connect4_chunk_reads_a_few_neighbour_chunks(game):
    """Connect Four on a cluster: without symmetry the children and the parents of one chunk
    of the largest layer lie in a few chunks of the neighbouring layers (at most three per
    column), not in the whole of them (about 4 million chunks on 7x6)."""
    from fastttt.kernels.layered import neighbour_chunks

    index = LayerIndex(game, symmetry=False)
    sizes = index.layer_sizes
    n = int(np.argmax(sizes))
    chunk = 1 << 20
    for start in np.linspace(0, sizes[n] - chunk, 7).astype(np.int64):
        for other, children in ((n + 1, True), (n - 1, False)):
            needed = np.zeros(-(-sizes[other] // chunk), dtype=bool)
            neighbour_chunks(
                index.geometry,
                index.layer(n),
                index.layer(other),
                int(start),
                int(start) + chunk,
                children,
                chunk,
                needed,
            )
            assert 1 <= needed.sum() <= 3 * index.spec.cols, (other, start)


def test_workers_reading_only_the_chunks_they_need_give_the_same_bytes(tmp_path):
    """Each chunk on a fresh ChunkWork that reads only the neighbour chunks its slots need (a
    Dask task on a new worker) gives the bytes of one process reading whole layers, and on a
    gravity board reads far fewer chunks than a whole neighbouring layer per task."""
    from fastttt.tables.layered import ChunkWork

    reads = {"needed": 0, "whole layer": 0}

    class FreshWorkPerTask:
        def __init__(self, work):
            self.work = work

        def run(self, phase, n, chunks, done):
            results = []
            for c in chunks:
                work = ChunkWork(
                    self.work.store, self.work.index, parallel=False, whole_layers=False
                )
                read_chunk = work.store.read_chunk

                def counted(kind, layer, index, read_chunk=read_chunk, n=n):
                    reads["needed"] += layer != n  # the task's own reach chunk is not counted
                    return read_chunk(kind, layer, index)

                work.store.read_chunk = counted
                step = work.forward if phase == "reach" else work.backward
                results.append(step(n, c))
                del work.store.read_chunk
                neighbour = n - 1 if phase == "reach" else n + 1
                if 0 <= neighbour < len(self.work.index.layer_sizes) and not (
                    phase == "value" and n == self.work.index.spec.cells
                ):
                    reads["whole layer"] += self.work.store.chunk_count(neighbour)
                done(c)
            return results

    whole = solve_layered("4x5k4g", out=tmp_path / "whole", chunk=20_000)
    sparse = solve_layered(
        "4x5k4g", out=tmp_path / "sparse", chunk=20_000, runner_factory=FreshWorkPerTask
    )
    assert whole.reachable == sparse.reachable == 3_945_711  # John Tromp's count
    for n, (a, b) in enumerate(
        zip(value_layers(whole.store), value_layers(sparse.store), strict=True)
    ):
        assert np.array_equal(a, b), f"value layer {n}"
    assert 0 < reads["needed"] < reads["whole layer"] / 2, reads


# --- 4. resume ----------------------------------------------------------------------------
GAME = "4x4k4g"
CHUNK = 4096


class Stop(Exception):
    """Raised from a progress callback to interrupt a solve."""


def stopper(phase: str | None, at: int, calls: list):
    """A progress callback recording its calls, raising Stop at the ``at``-th call of
    ``phase``."""
    seen = [0]

    def progress(ph, layer, done, total):
        calls.append((ph, layer, done, total))
        if ph == phase:
            seen[0] += 1
            if seen[0] == at:
                raise Stop(f"{ph} layer {layer}")

    return progress


def check_progress(calls: list, total: int, finished=("reach", "value")) -> None:
    """Within each phase, slots done grow up to the total; a finished phase ends there."""
    for phase in ("reach", "value"):
        done = [d for ph, _, d, t in calls if ph == phase]
        assert all(t == total for ph, _, _, t in calls if ph == phase)
        assert all(a < b for a, b in zip(done, done[1:], strict=False)), phase
        assert all(d <= total for d in done)
        if done and phase in finished:
            assert done[-1] == total, phase


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """An uninterrupted solve of GAME in a folder, with its progress calls."""
    path = tmp_path_factory.mktemp("clean") / "table"
    calls: list = []
    sol = solve_layered(GAME, out=path, chunk=CHUNK, progress=stopper(None, 0, calls))
    assert sol.reachable == 161_029  # John Tromp's count of 4x4 Connect-4
    check_progress(calls, sum(sol.index.layer_sizes))
    return {
        "path": path,
        "layers": value_layers(sol.store),
        "counts": sol.counts(),
        "calls": calls,
        "sizes": list(sol.index.layer_sizes),
    }


def test_clean_solve_has_chunks_in_both_phases(clean):
    reach = [c for c in clean["calls"] if c[0] == "reach"]
    value = [c for c in clean["calls"] if c[0] == "value"]
    chunks = sum(-(-size // CHUNK) for size in clean["sizes"])
    assert len(reach) == len(value) == chunks
    assert chunks > 2 * len(clean["sizes"])  # several chunks in the larger layers
    manifest = json.loads((clean["path"] / "manifest.json").read_text())
    assert manifest["complete"]["value"] == list(range(17))
    assert manifest["complete"]["reach"] == []  # reach layers go once their values are done
    assert not (clean["path"] / "reach" / "5").exists()


@pytest.mark.parametrize("seed", range(3))
def test_resume_after_interruptions_gives_the_same_bytes(clean, tmp_path, seed):
    rng = random.Random(seed)
    n_reach = sum(1 for c in clean["calls"] if c[0] == "reach")
    n_value = sum(1 for c in clean["calls"] if c[0] == "value")
    out = tmp_path / "t"
    total = sum(clean["sizes"])

    calls: list = []
    with pytest.raises(Stop):
        solve_layered(
            GAME, out=out, chunk=CHUNK, progress=stopper("reach", rng.randint(1, n_reach), calls)
        )
    check_progress(calls, total, finished=())
    with pytest.raises(TableFileError, match="not finished"):
        open_table(out)
    store = LayerStore.open(out)
    todo = sum(store.chunk_count(n) for n in range(17) if not store.is_complete("reach", n))

    calls = []
    with pytest.raises(Stop):
        solve_layered(
            GAME,
            out=out,
            chunk=CHUNK,
            resume=True,
            progress=stopper("value", rng.randint(1, n_value), calls),
        )
    check_progress(calls, total, finished=("reach",))
    # the resumed run redid only the reach layers that were not complete
    assert sum(1 for c in calls if c[0] == "reach") == todo
    with pytest.raises(TableFileError, match="not finished"):
        open_table(out)
    store = LayerStore.open(out)
    done = [n for n in range(17) if store.is_complete("value", n)]
    todo = sum(store.chunk_count(n) for n in range(17) if n not in done)

    calls = []
    sol = solve_layered(GAME, out=out, chunk=CHUNK, resume=True, progress=stopper(None, 0, calls))
    check_progress(calls, total)
    assert [c for c in calls if c[0] == "reach"] == []
    assert len(calls) == todo
    assert sol.counts() == clean["counts"]
    for n, (a, b) in enumerate(zip(value_layers(sol.store), clean["layers"], strict=True)):
        assert np.array_equal(a, b), f"value layer {n}"
    reopened = open_table(out, GAME)
    assert reopened.counts() == clean["counts"]
    assert reopened.summary()["value"] == "draw" and reopened.summary()["depth"] == 16


def test_resume_of_a_finished_table_does_no_work(clean, tmp_path):
    out = tmp_path / "copy"
    shutil.copytree(clean["path"], out)
    calls: list = []
    sol = solve_layered(GAME, out=out, chunk=CHUNK, resume=True, progress=stopper(None, 0, calls))
    assert calls == []
    assert sol.counts() == clean["counts"]
    with pytest.raises(TableFileError, match="already holds a layered table"):
        solve_layered(GAME, out=out, chunk=CHUNK)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_resume_4x5_connect4_with_small_chunks(tmp_path, seed):
    rng = random.Random(seed)
    game = "4x5k4g"
    reference = solve_layered(game)
    out = tmp_path / "t"
    stops = [
        ("reach", rng.randint(1, 300)),
        ("reach", rng.randint(1, 300)),
        ("value", rng.randint(1, 300)),
        ("value", rng.randint(1, 300)),
    ]
    for phase, at in stops:
        with pytest.raises(Stop):
            solve_layered(
                game, out=out, chunk=CHUNK, resume=out.exists(), progress=stopper(phase, at, [])
            )
    sol = solve_layered(game, out=out, chunk=CHUNK, resume=True)
    assert sol.reachable == 3_945_711
    assert sol.counts() == reference.counts()
    for n, (a, b) in enumerate(
        zip(value_layers(sol.store), value_layers(reference.store), strict=True)
    ):
        assert np.array_equal(a, b), f"value layer {n}"


# SIGKILL of a real `fastttt solve --out` process, then --resume
KILL_GAME = "4x5k4g"


def _cli(*args, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", "fastttt", "solve", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def kill_reference():
    sol = solve_layered(KILL_GAME)
    return value_layers(sol.store), sol.counts()


def _kill_and_resume(tmp_path, reference, wait) -> dict:
    out = tmp_path / "t"
    proc = subprocess.Popen(
        [sys.executable, "-m", "fastttt", "solve", KILL_GAME, "--out", str(out), "--json"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        finished = wait(proc, out)
        if not finished:
            proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    state = {"returncode": proc.returncode}
    if (out / "manifest.json").exists():
        state["complete"] = json.loads((out / "manifest.json").read_text())["complete"]
    result = _cli(KILL_GAME, "--out", str(out), "--resume", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    layers, counts = reference
    assert summary["reachable"] == 3_945_711
    assert {k: summary[k] for k in ("reachable", "terminal", "values", "by_ply")} == counts
    got = value_layers(LayerStore.open(out))
    for n, (a, b) in enumerate(zip(got, layers, strict=True)):
        assert np.array_equal(a, b), f"value layer {n} after {state}"
    return state


def _sleep(delay):
    def wait(proc, out):
        try:
            proc.wait(timeout=delay)
            return True
        except subprocess.TimeoutExpired:
            return False

    return wait


# seeded delays over the whole run (start-up about 1 s, solve about 4 s); the default run
# takes the third (2.54 s: in the reach phase here), the others are slow
KILL_DELAYS = [round(random.Random(1234 + i).uniform(0.3, 4.5), 2) for i in range(4)]


@pytest.mark.parametrize(
    "delay",
    [
        pytest.param(d, marks=[] if i == 2 else [pytest.mark.slow])
        for i, d in enumerate(KILL_DELAYS)
    ],
)
def test_sigkill_after_a_random_delay_then_resume(tmp_path, kill_reference, delay):
    state = _kill_and_resume(tmp_path, kill_reference, _sleep(delay))
    assert state["returncode"] in (-signal.SIGKILL, 0)


def test_sigkill_in_the_value_phase_then_resume(tmp_path, kill_reference):
    """Killed once the first value layer is complete (polling the manifest)."""

    def wait(proc, out):
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return True
            try:
                complete = json.loads((out / "manifest.json").read_text())["complete"]
            except (OSError, ValueError, KeyError):
                complete = {}
            if complete.get("value"):
                return False
            time.sleep(0.02)
        return False

    state = _kill_and_resume(tmp_path, kill_reference, wait)
    assert state["returncode"] == -signal.SIGKILL
    assert state["complete"]["value"] and len(state["complete"]["value"]) < 21


def test_resume_after_a_kill_during_the_first_manifest_write(tmp_path):
    out = tmp_path / "t"
    out.mkdir()
    (out / "manifest.json.tmp4242").write_bytes(b'{"format": "fastttt-lay')  # half written
    sol = solve_layered(GAME, out=out, chunk=CHUNK, resume=True)
    assert sol.reachable == 161_029


# --- 5. damage ----------------------------------------------------------------------------
def flip_byte(path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def chunk_path(root, kind, layer, chunk):
    path = root / kind / str(layer) / "c" / str(chunk)
    assert path.is_file(), path
    return path


def test_a_damaged_value_chunk_is_refused_by_queries(clean, tmp_path):
    out = tmp_path / "copy"
    shutil.copytree(clean["path"], out)
    layer, chunk = 12, 2
    data = clean["layers"][layer]
    assert data.shape[0] > (chunk + 1) * CHUNK
    # a reachable slot in that chunk, another in chunk 0
    slots = np.nonzero(data[chunk * CHUNK : (chunk + 1) * CHUNK])[0] + chunk * CHUNK
    index = LayerIndex(GAME, True)
    f, s = index.unrank(layer, int(slots[0]))
    inside = Position(GAME, f, s)
    f, s = index.unrank(layer, int(np.nonzero(data[:CHUNK])[0][0]))
    outside = Position(GAME, f, s)
    before = open_table(out)
    expected = before.value(outside), before.depth(outside)

    flip_byte(chunk_path(out, "value", layer, chunk))
    table = open_table(out)  # reads the manifest only: opens fine
    with pytest.raises(TableFileError, match=f"layer {layer} chunk {chunk} of value"):
        table.value(inside)
    with pytest.raises(TableFileError):
        table.depth(inside)
    # the other chunks still answer
    assert (table.value(outside), table.depth(outside)) == expected
    with pytest.raises(TableFileError):
        LayerStore.open(out).verify()


def test_a_truncated_or_missing_value_chunk_is_refused(clean, tmp_path):
    out = tmp_path / "copy"
    shutil.copytree(clean["path"], out)
    target = chunk_path(out, "value", 9, 0)
    target.write_bytes(target.read_bytes()[:-7])
    table = open_table(out)
    index = LayerIndex(GAME, True)
    f, s = index.unrank(9, int(np.nonzero(clean["layers"][9][:CHUNK])[0][0]))
    with pytest.raises(TableFileError):
        table.value(Position(GAME, f, s))
    chunk_path(out, "value", 10, 1).unlink()
    f, s = index.unrank(10, int(np.nonzero(clean["layers"][10][CHUNK : 2 * CHUNK])[0][0]) + CHUNK)
    with pytest.raises(TableFileError, match="missing"):
        open_table(out).depth(Position(GAME, f, s))


@pytest.mark.parametrize("phase", ["reach", "value"])
def test_a_damaged_reach_chunk_stops_the_resumed_solve(tmp_path, phase):
    out = tmp_path / "t"
    # interrupt: in the reach phase once layer 9 is complete, or at the first value chunk
    at = 1 if phase == "value" else None
    calls: list = []

    def progress(ph, layer, done, total):
        calls.append(ph)
        if (phase == "value" and ph == "value" and calls.count("value") == at) or (
            phase == "reach" and ph == "reach" and layer == 10
        ):
            raise Stop

    with pytest.raises(Stop):
        solve_layered(GAME, out=out, chunk=CHUNK, progress=progress)
    store = LayerStore.open(out)
    assert store.is_complete("reach", 9) and store.chunk_count(9) > 1
    flip_byte(chunk_path(out, "reach", 9, 1))
    before = json.loads((out / "manifest.json").read_text())["complete"]
    with pytest.raises(TableFileError, match="layer 9 chunk 1 of reach"):
        solve_layered(GAME, out=out, chunk=CHUNK, resume=True)
    after = json.loads((out / "manifest.json").read_text())["complete"]
    assert 9 not in after["value"] and len(after["value"]) < 17
    assert set(before["value"]) <= set(after["value"])
    with pytest.raises(TableFileError, match="not finished"):
        open_table(out)


def test_resume_with_another_game_or_symmetry_is_refused(tmp_path):
    out = tmp_path / "t"
    with pytest.raises(Stop):
        solve_layered(GAME, out=out, chunk=CHUNK, progress=stopper("reach", 20, []))
    manifest = (out / "manifest.json").read_bytes()
    with pytest.raises(TableFileError, match="cannot resume"):
        solve_layered("4x4k3g", out=out, chunk=CHUNK, resume=True)
    with pytest.raises(TableFileError, match="cannot resume"):
        solve_layered("4x4k4", out=out, chunk=CHUNK, resume=True)
    with pytest.raises(TableFileError, match="cannot resume"):
        solve_layered(GAME, out=out, chunk=CHUNK, resume=True, symmetry=False)
    with pytest.raises(TableFileError, match="cannot resume"):
        solve_layered(GAME, out=out, chunk=2 * CHUNK, resume=True)
    with pytest.raises(TableFileError, match="already holds"):
        solve_layered(GAME, out=out, chunk=CHUNK)
    assert (out / "manifest.json").read_bytes() == manifest  # left untouched
    assert solve_layered(GAME, out=out, chunk=CHUNK, resume=True).reachable == 161_029


def test_resume_without_a_chunk_size_keeps_the_tables(clean, tmp_path):
    out = tmp_path / "t"
    with pytest.raises(Stop):
        solve_layered(GAME, out=out, chunk=CHUNK, progress=stopper("value", 3, []))
    sol = solve_layered(GAME, out=out, resume=True)
    assert LayerStore.open(out).manifest["chunk"] == CHUNK != DEFAULT_CHUNK
    for n, (a, b) in enumerate(zip(value_layers(sol.store), clean["layers"], strict=True)):
        assert np.array_equal(a, b), f"value layer {n}"


# --- 6. Dask ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dask_client():
    pytest.importorskip("distributed")
    from fastttt.tables.distributed import local_cluster

    cluster, client = local_cluster(2)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def test_a_local_cluster_leaves_the_dashboard_port_alone():
    """The scheduler's HTTP routes take a free port, so that two local clusters on one
    machine (the suite's two workers) do not both ask for Dask's default 8787."""
    pytest.importorskip("distributed")
    import socket
    import warnings

    from fastttt.tables.distributed import local_cluster

    with socket.socket() as taken, warnings.catch_warnings(record=True) as caught:
        try:
            taken.bind(("", 8787))
            taken.listen()
        except OSError:
            pass  # in use already, which is the case to check
        warnings.simplefilter("always")
        cluster, client = local_cluster(1)
        client.close()
        cluster.close()
    assert not [w for w in caught if "8787" in str(w.message)]


def dask_factory(client):
    from fastttt.tables.distributed import DaskRunner

    return lambda work: DaskRunner(work, client)


def test_dask_solve_gives_the_same_bytes(clean, dask_client, tmp_path):
    out = tmp_path / "t"
    calls: list = []
    sol = solve_layered(
        GAME,
        out=out,
        chunk=CHUNK,
        runner_factory=dask_factory(dask_client),
        progress=stopper(None, 0, calls),
    )
    check_progress(calls, sum(clean["sizes"]))
    assert len(calls) == len(clean["calls"])
    assert sol.counts() == clean["counts"]
    for n, (a, b) in enumerate(zip(value_layers(sol.store), clean["layers"], strict=True)):
        assert np.array_equal(a, b), f"value layer {n}"
    # both workers took part
    paths = dask_client.run(_worker_store_paths)
    assert len(paths) == 2 and all(str(out) in p for p in paths.values()), paths


def _worker_store_paths():
    from fastttt.tables import distributed

    return [key[0] for key in distributed._WORK]


def test_dask_solve_resumes_after_an_interruption(clean, dask_client, tmp_path):
    out = tmp_path / "t"
    n_value = sum(1 for c in clean["calls"] if c[0] == "value")
    with pytest.raises(Stop):
        solve_layered(
            GAME,
            out=out,
            chunk=CHUNK,
            runner_factory=dask_factory(dask_client),
            progress=stopper("value", random.Random(7).randint(1, n_value), []),
        )
    sol = solve_layered(
        GAME, out=out, chunk=CHUNK, resume=True, runner_factory=dask_factory(dask_client)
    )
    assert sol.counts() == clean["counts"]
    for n, (a, b) in enumerate(zip(value_layers(sol.store), clean["layers"], strict=True)):
        assert np.array_equal(a, b), f"value layer {n}"


def test_dask_new_solve_at_a_reused_path_with_another_chunk(clean, dask_client, tmp_path):
    out = tmp_path / "t"
    solve_layered(GAME, out=out, chunk=CHUNK, runner_factory=dask_factory(dask_client))
    shutil.rmtree(out)
    sol = solve_layered(GAME, out=out, chunk=2 * CHUNK, runner_factory=dask_factory(dask_client))
    assert sol.counts() == clean["counts"]
    for n, (a, b) in enumerate(zip(value_layers(sol.store), clean["layers"], strict=True)):
        assert np.array_equal(a, b), f"value layer {n}"


def test_dask_solve_with_a_relative_folder(clean, dask_client, tmp_path, monkeypatch):
    # the workers started in the repository's folder; the driver now works in tmp_path
    name = f"relative-out-{uuid.uuid4().hex}"  # exists nowhere
    monkeypatch.chdir(tmp_path)
    sol = solve_layered(GAME, out=name, chunk=CHUNK, runner_factory=dask_factory(dask_client))
    assert (tmp_path / name / "manifest.json").is_file()
    assert sol.counts() == clean["counts"]


def test_dask_runner_needs_a_folder():
    with pytest.raises(ValueError, match="--out"):
        solve_layered("3x3k3g", runner_factory=dask_factory(None))


# --- 7. lazy probing ----------------------------------------------------------------------
@pytest.fixture
def counted(monkeypatch):
    """start() makes LayerStore count read_chunk calls and refuse read_layer."""
    calls = {"read_chunk": 0, "read_layer": 0}
    original = LayerStore.read_chunk

    def read_chunk(self, kind, layer, chunk_index):
        calls["read_chunk"] += 1
        return original(self, kind, layer, chunk_index)

    def read_layer(self, kind, layer):
        calls["read_layer"] += 1
        raise AssertionError("a look-up read a whole layer")

    def start():
        monkeypatch.setattr(LayerStore, "read_chunk", read_chunk)
        monkeypatch.setattr(LayerStore, "read_layer", read_layer)
        return calls

    return start


def chunks_touched(index, positions, chunk) -> set:
    """(layer, chunk) of the positions and their children (what best_moves reads)."""
    keys = set()
    for pos in positions:
        for p in [pos] + [child for _, child in pos.children()]:
            layer, slot = index.rank(p.first, p.second)
            keys.add((layer, slot // chunk))
    return keys


def test_lazy_probe_of_a_gravity_table(clean, counted):
    reference = solve_layered(GAME)  # in RAM, before counting starts
    dense = dense_solution(GAME)
    moves = [[], [0], [1, 2], [0, 0, 0, 0, 3, 3], [3, 2, 1, 0, 0, 1, 2, 3, 1]]
    positions = [Position.from_moves(GAME, m) for m in moves]
    expected = [
        (reference.value(p), reference.depth(p), reference.best_moves(p)) for p in positions
    ]
    assert expected == [(dense.value(p), dense.depth(p), dense.best_moves(p)) for p in positions]
    assert expected[0] == (0, 16, expected[0][2])
    keys = chunks_touched(reference.index, positions, CHUNK)
    assert len(keys) <= 16  # the probe's chunk cache holds them all
    counted = counted()
    table = open_table(clean["path"], GAME)
    assert counted == {"read_chunk": 0, "read_layer": 0}  # opening reads the manifest only
    got = [(table.value(m), table.depth(m), table.best_moves(m)) for m in moves]
    assert got == expected
    # each chunk read once, however many questions it answers
    assert counted == {"read_chunk": len(keys), "read_layer": 0}
    assert table.move_outcomes([0]) == reference.move_outcomes([0])


def test_lazy_probe_of_a_free_table(tmp_path, counted):
    game = "3x4k3"
    dense = dense_solution(game)
    built = solve_layered(game, out=tmp_path / "t", chunk=2048)
    texts = [
        "..../..../....",
        "X.../..../....",
        "X.O./.X../....",
        "XO../OX../....",
        "XXX./OO../....",
    ]
    positions = [Position.from_text(game, t) for t in texts]
    keys = chunks_touched(built.index, positions, 2048)
    assert 1 < len(keys) <= 16
    counted = counted()
    table = open_table(tmp_path / "t")
    assert table.spec == as_spec(game)
    for text in texts:
        assert table.value(text) == dense.value(text)
        assert table.depth(text) == dense.depth(text)
        assert table.best_moves(text) == dense.best_moves(text)
    assert counted == {"read_chunk": len(keys), "read_layer": 0}
    assert table.value("XXX./OO../....") == 1 and table.depth("XXX./OO../....") == 0
    with pytest.raises(InvalidPositionError, match="not reachable"):
        table.value("XXX./OOO./....")  # O played on after X's line
    with pytest.raises(TableFileError, match="expected"):
        open_table(tmp_path / "t", "3x4k3g")


def test_open_table_without_symmetry(tmp_path):
    game = "3x4k3g"
    dense = dense_solution(game)
    solve_layered(game, out=tmp_path / "t", symmetry=False, chunk=1000)
    table = open_table(tmp_path / "t", game)
    assert isinstance(table, LayeredSolution)
    assert table.summary()["symmetry"] == "none" and table.counts() == dense.counts()
    codes = dense.reachable_codes()
    firsts, seconds = bitboards(codes, 12)
    assert np.array_equal(table.bytes_of(firsts, seconds), dense.table[dense._slots(codes)])


# --- 8. memory planning and the engine choice ---------------------------------------------
def test_check_fits_names_the_estimate():
    p = plan(GAME)
    assert p.slots == sum(p.sizes) == 112_861 and len(p.sizes) == 17
    with pytest.raises(MemoryBudgetError) as err:
        check_fits(p, max_bytes=1000)
    message = str(err.value)
    assert format_bytes(p.memory_bytes) in message and "112,861 slots" in message
    assert format_bytes(1000) in message  # the limit
    check_fits(p, max_bytes=p.memory_bytes)  # exactly enough: fine
    with pytest.raises(DiskBudgetError, match="disk"):
        check_fits(plan(GAME, on_disk=True), max_bytes=1 << 40, free_disk=10)
    with pytest.raises(MemoryBudgetError, match=format_bytes(p.memory_bytes)):
        solve_layered(GAME, max_bytes=1000)


def test_a_refused_solve_writes_nothing(tmp_path):
    out = tmp_path / "t"
    with pytest.raises(MemoryBudgetError):
        solve_layered(GAME, out=out, max_bytes=1000)
    assert not out.exists()


def test_choose_engine(tmp_path):
    free, gravity = as_spec("3x3k3"), as_spec("4x4k4g")
    assert choose_engine(free) == "dense"
    assert choose_engine(as_spec("4x4k3")) == "dense"
    assert choose_engine(gravity) == "layered"
    assert choose_engine(mnk(3, 4, 3, gravity=True)) == "layered"
    assert choose_engine(free, out=tmp_path / "t") == "layered"
    assert choose_engine(free, distributed=True) == "layered"
    assert choose_engine(free, max_bytes=1) == "layered"  # the dense table does not fit
    assert choose_engine(free, "layered") == "layered"
    assert choose_engine(gravity, "dense") == "dense"
    with pytest.raises(ValueError, match="dense engine"):
        choose_engine(free, "dense", out=tmp_path / "t")
    with pytest.raises(ValueError, match="dense engine"):
        choose_engine(free, "dense", distributed=True)
    with pytest.raises(ValueError, match="engine must be"):
        choose_engine(free, "sparse")
    assert not (tmp_path / "t").exists()


def test_memory_store_has_no_path_and_no_disk():
    sol = solve_layered("3x3k3g")
    # by name: tests/test_layer_store.py re-imports the store module to simulate missing zarr
    assert type(sol.store).__name__ == "MemoryLayerStore" and sol.store.path is None
    assert sol.summary()["disk_bytes"] == 0 and sol.summary()["engine"] == "layered"


@pytest.mark.parametrize("symmetry", [True, False])
def test_lookup_by_codes_equals_the_dense_table(symmetry):
    """LayeredSolution.lookup takes base-3 codes as Solution.lookup does (play, hints and the
    classroom layer use it) and gives the same values and depths on every reachable code."""
    dense = dense_solution("4x4k4g")
    layered = solve_layered("4x4k4g", symmetry=symmetry)
    codes = dense.reachable_codes()
    for got, want in zip(layered.lookup(codes), dense.lookup(codes), strict=True):
        assert np.array_equal(got, want)
    for bad in (3**16, -1, 2, 1 + 3, 1):  # off the board, O first, two X, a floating X
        with pytest.raises(InvalidPositionError):
            layered.lookup(np.array([0, bad]))


def test_play_takes_gravity_tables_from_the_layered_solver():
    from fastttt.play.players import move_outcomes
    from fastttt.tables.cache import solution_for, table_ready, uses_table
    from fastttt.tables.probe import LayeredSolution

    spec = as_spec("5x4k4g")  # 741 M dense slots: play searched; 1.7 M layered ones
    assert uses_table(spec)
    assert isinstance(solution_for(spec), LayeredSolution) and table_ready(spec)
    pos = Position.from_moves(spec, [1, 2])
    outcomes = move_outcomes(pos)
    assert sorted(outcomes) == [0, 1, 2, 3]
    table = solution_for(spec)
    for move, outcome in outcomes.items():
        child = pos.play(move)
        assert outcome.plies == 1 + table.depth(child)
        assert outcome.result == table.value(child) * (1 if pos.to_move == 0 else -1)


# --- 9. the chunk map: layers larger than memory ---------------------------------------------
@pytest.mark.parametrize(("game", "layers"), [("4x5k4g", (9, 12, 15)), ("5x5k4g", (13, 17, 21))])
def test_neighbour_chunks_of_small_ranges_in_big_blocks(game, layers):
    """Ranges of a few colourings inside blocks of thousands to millions: the mirrored moves'
    bounds keep the common rows and cut wide ranges in halves; the chunks marked still hold
    every child and parent (chunks of 61 slots, many boundaries)."""
    from fastttt.kernels.layered import mark_neighbour_chunks

    spec = as_spec(game)
    index = LayerIndex(spec, True)
    sizes = index.layer_sizes
    chunk = 61
    rng = np.random.default_rng(7)
    for n in layers:
        for _ in range(12):
            start = int(rng.integers(0, sizes[n] - 1))
            stop = min(sizes[n], start + int(rng.integers(1, 400)))
            firsts, seconds = index.unrank_many(n, np.arange(start, stop))
            for other, children in ((n + 1, True), (n - 1, False)):
                marks = np.zeros(-(-sizes[other] // chunk), dtype=np.int64)
                count = mark_neighbour_chunks(
                    index.geometry,
                    index.layer(n),
                    index.layer(other),
                    start,
                    stop,
                    children,
                    chunk,
                    marks,
                    5,
                )
                assert count == (marks == 5).sum()
                slots = neighbour_slots(index, firsts, seconds, other, children)
                assert (marks[slots // chunk] == 5).all(), (n, other, start, stop)


def test_a_chunk_map_holds_what_it_is_asked_and_gives_the_rest_back():
    """Chunks asked for read as the store's bytes; the others read as 0; at most ``spare``
    unasked chunks stay, least recently used out; released pages leave the process RSS."""
    from fastttt.tables.chunk_map import ChunkMap
    from fastttt.tables.layer_store import MemoryLayerStore

    chunk = 1 << 20
    store = MemoryLayerStore(
        game={"rows": 1}, index="x", symmetry="none", layer_sizes=[40 * chunk + 5], chunk=chunk
    )
    store.prepare("reach", 0)
    rng = np.random.default_rng(1)
    layer = rng.integers(1, 256, size=40 * chunk + 5, dtype=np.uint8)
    for c in range(store.chunk_count(0)):
        lo, hi = store.chunk_bounds(0, c)
        store.write_chunk("reach", 0, c, layer[lo:hi])
    held = ChunkMap(store, "reach", 0, spare=2)
    data = held.hold(range(0, 41))  # every chunk
    assert np.array_equal(data, layer) and held.loads == 41 and held.peak == 41

    def resident() -> int:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    before = resident() if sys.platform.startswith("linux") else 0
    held.hold([40, 3])
    assert held.held == 4 and held.releases == 37  # 3 and 40, and 38 and 39 (used last)
    if sys.platform.startswith("linux"):
        assert resident() < before - 30 * chunk  # 37 MiB given back
    kept = [3, 38, 39, 40]
    for c in range(41):
        lo, hi = store.chunk_bounds(0, c)
        want = layer[lo:hi] if c in kept else 0
        assert np.array_equal(data[lo:hi], np.broadcast_to(want, hi - lo)), c
    held.hold([5])  # 38 and 39 were used longest ago: they go
    assert held.held == 3 and set(held._held) == {3, 40, 5} and held.loads == 42


def _windowed(game, values, chunk, spare_chunks=0):
    """A windowed plan of ``game`` and the memory limit that gives it ``spare_chunks`` spare
    reach chunks."""
    p = plan(game, on_disk=True, chunk=chunk, values=values)
    bare = p.windowed(0)
    return bare, bare.memory_bytes + spare_chunks * chunk


class _MapStats:
    """A LocalRunner factory recording the most chunks each layer's chunk map held."""

    def __init__(self):
        self.peaks: dict = {}

    def __call__(self, work):
        from fastttt.tables.layered import LocalRunner

        stats = self

        class Runner(LocalRunner):
            def run(self, phase, n, chunks, done):
                out = super().run(phase, n, chunks, done)
                held = self.work.chunk_map
                read = ("reach", n - 1) if phase == "reach" else ("value", n + 1)
                if held is not None and (held.kind, held.layer) == read:
                    stats.peaks[(phase, n)] = (held.peak, held.releases)
                return out

        return Runner(work)


@pytest.mark.parametrize("values", ["depth", "wdl"])
def test_the_windowed_mode_gives_the_bytes_of_whole_layers(tmp_path, values):
    """Forced by a memory limit too small for whole layers, a solve on disk holds only the
    neighbour chunks each chunk reads (no more than the plan's window) and writes the bytes
    of the whole-layer mode; an interrupted windowed solve resumes to the same bytes."""
    game, chunk = GAME, 1024
    whole = solve_layered(game, chunk=chunk, values=values)  # in RAM: the same bytes
    bare, limit = _windowed(game, values, chunk)
    assert limit < plan(game, on_disk=True, chunk=chunk, values=values).memory_bytes
    seen: list = []
    stats = _MapStats()
    windowed = solve_layered(
        game,
        out=tmp_path / "windowed",
        chunk=chunk,
        values=values,
        max_bytes=limit,
        on_plan=seen.append,
        runner_factory=stats,
    )
    assert seen[0].mode == "windowed" and seen[0].spare_bytes == 0
    assert seen[0].memory_bytes == limit
    windows = bare.windows()
    for (phase, n), (peak, _) in stats.peaks.items():
        assert peak <= windows[n][0 if phase == "reach" else 1], (phase, n)
    assert sum(released for _, released in stats.peaks.values()) > 20
    assert windowed.counts() == whole.counts()
    for n, (a, b) in enumerate(
        zip(value_layers(windowed.store), value_layers(whole.store), strict=True)
    ):
        assert np.array_equal(a, b), f"value layer {n}"
    out = tmp_path / "resumed"
    for phase, at in (("reach", 60), ("value", 50)):
        with pytest.raises(Stop):
            solve_layered(
                game,
                out=out,
                chunk=chunk,
                values=values,
                mode="windowed",
                resume=out.exists(),
                max_bytes=limit + 3 * chunk,
                progress=stopper(phase, at, []),
            )
    resumed = solve_layered(game, out=out, values=values, resume=True, mode="windowed")
    for n, (a, b) in enumerate(
        zip(value_layers(resumed.store), value_layers(whole.store), strict=True)
    ):
        assert np.array_equal(a, b), f"value layer {n}"


def test_the_plan_goes_windowed_only_when_whole_layers_do_not_fit():
    p = plan(GAME, on_disk=True, chunk=CHUNK)
    assert fit_plan(p, p.memory_bytes).mode == "whole"
    windowed = fit_plan(p, p.memory_bytes - 1)
    assert windowed.mode == "windowed" and windowed.memory_bytes <= p.memory_bytes - 1
    assert windowed.spare_bytes == p.memory_bytes - 1 - p.windowed(0).memory_bytes
    assert fit_plan(p, 1 << 40, "windowed").spare_bytes == SPARE_BYTES  # at most that
    assert fit_plan(plan(GAME), 1000).mode == "whole"  # in RAM: nothing to choose
    with pytest.raises(InvalidArgumentError, match="mode must be one of"):
        fit_plan(p, None, "some")


def test_a_windowed_refusal_names_its_estimate(tmp_path):
    """Below even the windowed estimate the solve is refused with that estimate, and the
    in-RAM refusal names the smaller of the two on-disk plans."""
    bare, limit = _windowed(GAME, "depth", CHUNK)
    with pytest.raises(MemoryBudgetError) as err:
        solve_layered(GAME, out=tmp_path / "t", chunk=CHUNK, max_bytes=limit - 1)
    message = str(err.value)
    assert f"needs about {format_bytes(bare.memory_bytes)} of memory" in message
    assert "the neighbour chunks each chunk reads held" in message
    assert not (tmp_path / "t").exists()
    in_ram = plan(GAME, chunk=CHUNK)
    with pytest.raises(MemoryBudgetError, match="with --out DIR it keeps the neighbour chunks"):
        check_fits(in_ram, max_bytes=limit)
    with pytest.raises(MemoryBudgetError, match="with --out DIR it keeps two layers"):
        check_fits(in_ram, max_bytes=plan(GAME, on_disk=True, chunk=CHUNK).memory_bytes)


def test_the_disk_check_refuses_and_stops_before_the_disk_fills(tmp_path, monkeypatch):
    """A disk estimate above the free disk is refused before any work; a solve that finds
    less than the reserve free stops before writing a chunk, keeps its finished layers and
    resumes to the same bytes."""
    from fastttt.errors import DiskBudgetError
    from fastttt.tables import layered

    p = plan(GAME, on_disk=True, chunk=CHUNK, values="wdl")
    assert 0 < p.disk_bytes < p.raw_disk_bytes
    with pytest.raises(DiskBudgetError, match="may need about"):
        check_fits(p, max_bytes=1 << 40, free_disk=p.disk_bytes - 1)
    check_fits(p, max_bytes=1 << 40, free_disk=p.disk_bytes)
    out = tmp_path / "t"
    reference = solve_layered(GAME, chunk=CHUNK, values="wdl")
    free = layered.free_disk_for(tmp_path)
    calls: list = []
    with monkeypatch.context() as patch:
        patch.setattr(layered, "DISK_RESERVE", free + (1 << 40))
        with pytest.raises(DiskBudgetError, match="--resume"):
            solve_layered(
                GAME, out=out, chunk=CHUNK, values="wdl", progress=stopper(None, 0, calls)
            )
    assert calls == [] and (out / "manifest.json").is_file()
    sol = solve_layered(GAME, out=out, values="wdl", resume=True)
    assert sol.counts() == reference.counts()


@pytest.mark.parametrize(("given", "seen"), [(None, "PASSIVE"), ("ACTIVE", "ACTIVE")])
def test_importing_the_solver_puts_idle_openmp_threads_to_sleep_unless_told(given, seen):
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if given:
        env["OMP_WAIT_POLICY"] = given
    code = "import os, fastttt.tables.layered; print(os.environ['OMP_WAIT_POLICY'])"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.stdout.strip() == seen, out.stderr


def test_the_last_colouring_with_the_same_high_bits_is_found_as_by_counting():
    from fastttt.kernels.bits import clz
    from fastttt.kernels.layered import same_high_bits_last

    rng = random.Random(5)
    for _ in range(300):
        n = rng.randint(1, 12)
        x = rng.randint(0, n)
        pattern = sum(1 << b for b in rng.sample(range(n), x))
        q = rng.randint(0, n)
        same = [
            p
            for p in range(1 << n)
            if p.bit_count() == x and p >> q == pattern >> q and p >= pattern
        ]
        assert int(same_high_bits_last(np.uint64(pattern), q, x)) == max(same)
    for value in (1, 2, 3, 255, 1 << 40, (1 << 64) - 1):
        assert clz(np.uint64(value)) == 64 - value.bit_length()


@pytest.mark.parametrize(
    ("game", "symmetry"), [("4x5k4g", True), ("4x4k4g", False), ("4x4k3", True), ("3x4k3", False)]
)
def test_forward_chunks_write_their_own_slots_only_and_as_the_whole_layer(game, symmetry):
    # chunks of 61 slots cut the forward sweep's skipped runs at their ends; the bytes after
    # each chunk's buffer must stay untouched
    from fastttt.kernels.dense import NONTERMINAL
    from fastttt.kernels.layered import forward_chunk_serial

    index = LayerIndex(as_spec(game), symmetry)
    geo = index.geometry
    prev = np.array([NONTERMINAL], dtype=np.uint8)
    for n in range(1, index.spec.cells + 1):
        size = index.layer_sizes[n]
        before, lay = index.layer(n - 1), index.layer(n)
        whole = np.empty(size, dtype=np.uint8)
        forward_chunk_serial(geo, before, prev, lay, whole, 0)
        pieced = np.empty(size, dtype=np.uint8)
        for start in range(0, size, 61):
            stop = min(size, start + 61)
            buffer = np.full(stop - start + 8, 7, dtype=np.uint8)
            forward_chunk_serial(geo, before, prev, lay, buffer[: stop - start], start)
            assert (buffer[stop - start :] == 7).all(), (n, start)
            pieced[start:stop] = buffer[: stop - start]
        assert np.array_equal(pieced, whole), n
        prev = whole
