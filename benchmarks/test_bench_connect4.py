"""Connect Four search speed on the six public sets: CPU time per position, nodes, nodes/s.

Run: ``.venv/bin/pytest benchmarks/test_bench_connect4.py --benchmark-enable -s`` (the
project's default options disable benchmarks). ``FASTTTT_C4_LIMIT=N`` caps the positions per
set (default: every position, except Begin-Hard: first 20, ``FASTTTT_C4_HARD=N`` to change).
Each set is searched once from an empty table (2**23 entries), after a warm-up that compiles
or loads the kernels, exact then weak; the printed line gives CPU us per position and its
ratio to the C++ solver measured on this machine kind (``shared/PERFORMANCE.md``; exact
mode), and for weak mode its ratio to exact mode in the same run. Every score must be exact
(its sign in weak mode); time is reported, never asserted. The filter against the C++ solver
run as a filter in the same run: ``test_bench_filter.py``.
"""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from fastttt.games.mnk.spec import connect4
from fastttt.search.alphabeta import Batch, Searcher, solve_batch, warmup
from fastttt.search.connect4 import parse_move_lines, read_benchmark

# file, name, C++ reference CPU per position (microseconds, low load, same machine kind)
SETS = [
    ("Test_L3_R1", "End-Easy", 9.5),
    ("Test_L2_R1", "Middle-Easy", 72.0),
    ("Test_L2_R2", "Middle-Medium", 5100.0),
    ("Test_L1_R1", "Begin-Easy", 380.0),
    ("Test_L1_R2", "Begin-Medium", 140000.0),
    ("Test_L1_R3", "Begin-Hard", 3600000.0),
]


def _limit(name: str) -> int | None:
    if name == "Begin-Hard":
        return int(os.environ.get("FASTTTT_C4_HARD", "20"))
    value = os.environ.get("FASTTTT_C4_LIMIT")
    return int(value) if value else None


_EXACT_CPU: dict[str, float] = {}  # exact-mode CPU per position, by set, in this run


@pytest.mark.parametrize("weak", [False, True], ids=["exact", "weak"])
@pytest.mark.parametrize("filename, name, cpp_us", SETS, ids=[s[1] for s in SETS])
def test_connect4_set(benchmark, connect4_data, filename, name, cpp_us, weak):
    moves, expected = read_benchmark(connect4_data / filename)
    if weak:
        expected = np.sign(expected)
    limit = _limit(name)
    if limit is not None:
        moves, expected = moves[:limit], expected[:limit]
    compile_s = warmup()
    s = Searcher(connect4)
    batch, errors = parse_move_lines(s, moves)
    assert not any(errors)
    solve_batch(s, Batch(batch.curs[:1], batch.masks[:1], batch.plies[:1]))  # compile check
    figures = {}

    def setup():
        s.reset()  # every round starts from an empty table: same nodes each time
        return (), {}

    def run():
        t0 = time.process_time()
        scores, nodes = solve_batch(s, batch, weak=weak)
        figures["cpu"] = time.process_time() - t0
        figures["scores"], figures["nodes"] = scores, nodes

    benchmark.pedantic(run, setup=setup, rounds=1, iterations=1)
    n = len(moves)
    cpu_us = figures["cpu"] / n * 1e6
    nodes = int(figures["nodes"].sum())
    wrong = int((figures["scores"] != expected).sum())
    if not weak:
        _EXACT_CPU[name] = cpu_us
    versus = (
        f"x{cpu_us / _EXACT_CPU[name]:.2f} of exact"
        if weak and name in _EXACT_CPU
        else ""
        if weak
        else f"x{cpu_us / cpp_us:.2f} of C++"
    )
    benchmark.extra_info.update(
        positions=n,
        weak=weak,
        cpu_us_per_position=round(cpu_us, 2),
        ratio_to_cpp=None if weak else round(cpu_us / cpp_us, 3),
        ratio_to_exact=round(cpu_us / _EXACT_CPU[name], 3) if weak and name in _EXACT_CPU else None,
        nodes=nodes,
        nodes_per_position=round(nodes / n, 1),
        mnodes_per_cpu_second=round(nodes / figures["cpu"] / 1e6, 2),
        warmup_seconds=round(compile_s, 2),
    )
    print(
        f"\n{name:<13} {'weak' if weak else 'exact':<5} {n:>4} positions  {cpu_us:12.1f} us "
        f"CPU/position  {versus:<15} {nodes / n:12.1f} nodes/position  "
        f"{nodes / figures['cpu'] / 1e6:5.2f} M nodes/s  wrong {wrong}"
    )
    assert wrong == 0
    assert np.array_equal(np.sign(figures["scores"]), np.sign(expected))
