"""The wide search (boards over 64 bits) against the 64-bit kernels on the same positions.

Run: ``.venv/bin/pytest benchmarks/test_bench_wide.py --benchmark-enable -s`` (the project's
default options disable benchmarks). Every workload is searched by both kernels in the same
run, from empty tables, three rounds each (interleaved), after a warm-up that compiles or
loads the kernels; the line printed gives the best CPU time of each, the nodes, nodes per CPU
second, and the wide kernel's CPU time as a multiple of the 64-bit one (the ratio that
matters: both run in the same process on the same machine load). Positions are prepared
before timing (the kernels alone are timed: ``solve_batch`` of each). Scores must agree (and
match the benchmark file where there is one); time is reported, never asserted.

The 64-bit kernels also use symmetric keys on free boards (``sym_ply``); "64-bit, no
symmetry" runs them with ``mirror=False, sym_ply=-1`` so that the trees compare. The wide-only
workloads (boards that only the wide kernels take) print their node counts, which change only
when the search does (fixed Zobrist keys).
"""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import connect4, mnk
from fastttt.search.alphabeta import Searcher, WideSearcher, solve_batch, warmup
from fastttt.search.connect4 import from_move_string, parse_move_lines, read_benchmark

ROUNDS = int(os.environ.get("FASTTTT_WIDE_ROUNDS", "3"))


def _best(run, reset) -> tuple[float, np.ndarray, np.ndarray]:
    best, out = float("inf"), None
    for _ in range(ROUNDS):
        reset()
        t0 = time.process_time()
        out = run()
        best = min(best, time.process_time() - t0)
    return best, out[0], out[1]


def _compare(
    benchmark, name, narrow: Searcher, batch64, wide: WideSearcher, batchw, expected=None
) -> None:
    """Time both kernels on the same positions (``batch64``, ``batchw``), interleaved; print
    and record the figures."""
    solve_batch(narrow, batch64)  # compile or load
    wide.solve_batch(batchw)
    figures = {}

    def run():
        figures["64"] = _best(lambda: solve_batch(narrow, batch64), narrow.reset)
        figures["wide"] = _best(lambda: wide.solve_batch(batchw), wide.reset)

    benchmark.pedantic(run, rounds=1, iterations=1)
    (t64, s64, n64), (tw, sw, nw) = figures["64"], figures["wide"]
    assert np.array_equal(s64, sw)
    if expected is not None:
        assert np.array_equal(sw, expected)
    n = len(s64)
    ratio = tw / t64
    benchmark.extra_info.update(
        positions=n,
        cpu_64=t64,
        cpu_wide=tw,
        nodes_64=int(n64.sum()),
        nodes_wide=int(nw.sum()),
        wide_over_64=round(ratio, 2),
    )
    print(
        f"\n{name}: {n} positions; 64-bit {t64 / n * 1e6:,.1f} us/position, "
        f"{int(n64.sum()):,} nodes, {n64.sum() / t64 / 1e6:.1f} M nodes/s; wide "
        f"{tw / n * 1e6:,.1f} us/position, {int(nw.sum()):,} nodes, "
        f"{nw.sum() / tw / 1e6:.1f} M nodes/s; wide/64-bit CPU x{ratio:.2f}"
    )


@pytest.mark.parametrize(
    "filename, name, limit",
    [
        ("Test_L3_R1", "End-Easy", 1000),
        ("Test_L2_R1", "Middle-Easy", 1000),
        ("Test_L1_R1", "Begin-Easy", 100),
    ],
)
def test_connect4_sets(benchmark, connect4_data, filename, name, limit):
    warmup(wide=True)
    moves, expected = read_benchmark(connect4_data / filename)
    moves, expected = moves[:limit], expected[:limit]
    narrow = Searcher(connect4)
    batch, errors = parse_move_lines(narrow, moves)
    assert not any(errors)
    wide = WideSearcher(connect4)
    batchw = wide.batch([from_move_string(connect4, m) for m in moves])
    _compare(benchmark, name, narrow, batch, wide, batchw, expected)


@pytest.mark.parametrize(
    "spec, symmetry",
    [
        (mnk(4, 4, 4), True),
        (mnk(4, 4, 4), False),
        (mnk(4, 4, 4, gravity=True), True),
        (mnk(5, 5, 4), True),
        (mnk(5, 5, 4), False),
    ],
    ids=["4x4k4", "4x4k4-nosym", "4x4k4g", "5x5k4", "5x5k4-nosym"],
)
def test_empty_boards(benchmark, spec, symmetry):
    warmup(wide=True)
    options = {} if symmetry else {"mirror": False, "sym_ply": -1}
    name = f"{spec.name} from empty" + ("" if symmetry else ", 64-bit without symmetry")
    narrow, wide = Searcher(spec, **options), WideSearcher(spec)
    positions = [Position.empty(spec)]
    batch64 = narrow.batch_from_codes(np.array([p.code for p in positions], dtype=np.int64))
    _compare(benchmark, name, narrow, batch64, wide, wide.batch(positions))


def _four_three() -> Position:
    spec = mnk(19, 19, 5)
    xs = [(9, 6), (9, 7), (9, 8), (7, 9), (8, 9)]
    os = [(9, 5), (0, 0), (18, 0), (0, 3), (18, 3)]
    return Position(
        spec, sum(1 << (r * 19 + c) for r, c in xs), sum(1 << (r * 19 + c) for r, c in os)
    )


@pytest.mark.parametrize(
    "name, position",
    [
        ("9x9 k=4 from empty (first player wins)", lambda: Position.empty(mnk(9, 9, 4))),
        ("19x19 k=5 four-three (win with the 3rd stone)", _four_three),
        (
            "8x9 k=4 gravity, 21 stones (second player wins)",
            lambda: Position.from_moves(
                mnk(8, 9, 4, gravity=True),
                [6, 3, 2, 5, 3, 5, 7, 2, 6, 7, 3, 7, 8, 0, 7, 1, 6, 0, 7, 3, 3],
            ),
        ),
    ],
    ids=["9x9k4", "19x19-four-three", "8x9k4g"],
)
def test_wide_only(benchmark, name, position):
    warmup(wide=True)
    pos = position()
    wide = WideSearcher(pos.spec)
    figures = {}

    def run():
        wide.reset()
        t0 = time.process_time()
        figures["result"] = wide.solve(pos, max_nodes=200_000_000)
        figures["cpu"] = time.process_time() - t0

    benchmark.pedantic(run, rounds=1, iterations=1)
    r, cpu = figures["result"], figures["cpu"]
    benchmark.extra_info.update(score=r.score, nodes=r.nodes, cpu=cpu)
    print(
        f"\n{name}: score {r.score}, {r.nodes:,} nodes, {cpu:.3f} s CPU, "
        f"{r.nodes / max(cpu, 1e-9) / 1e6:.1f} M nodes/s"
    )
