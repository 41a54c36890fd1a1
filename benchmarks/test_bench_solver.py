"""Dense solver speed: against the handouts' dict pipeline, bigger boards, cold and warm start.

Run: .venv/bin/pytest benchmarks/test_bench_solver.py --benchmark-enable -s [-m slow]
"""

import json
import os
import resource
import subprocess
import sys

import pytest
from ratio import record, speedup

from fastttt import mnk
from fastttt.reference import morpion
from fastttt.solver import solve


def reference_pipeline():
    """The handouts' dict version: game graph, predecessors, both attractors, minimax."""
    morpion._G.clear()
    morpion._memo_minimax.clear()
    graph = morpion._globaux()  # jeu_OXO(3, 0), inverse, attracteur(0), attracteur(1)
    for state in graph["successeurs"]:
        morpion.minimax(state)
    return len(graph["successeurs"])


@pytest.mark.benchmark(group="tictactoe strong solve")
def test_tictactoe_reference_dict_pipeline(benchmark):
    assert benchmark.pedantic(reference_pipeline, rounds=5, iterations=1) == 5478
    record("reference", benchmark)


@pytest.mark.benchmark(group="tictactoe strong solve")
def test_tictactoe_dense_solve_warm(benchmark):
    solve("tictactoe")  # compile / load the kernels first
    solution = benchmark(solve, "tictactoe")
    assert solution.reachable == 5478
    speedup("reference", "dense", benchmark)


@pytest.mark.benchmark(group="4x4 k=4")
def test_4x4_k4(benchmark):
    solve(mnk(4, 4, 4))
    solution = benchmark.pedantic(solve, (mnk(4, 4, 4),), rounds=5, iterations=1)
    assert solution.reachable == 9_722_011


def _solve_in_child(game, env=None):
    """Run ``fastttt solve GAME --json`` in a fresh process; return (summary, peak RSS bytes)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out = subprocess.run([sys.executable, "-m", "fastttt", "solve", game, "--json"],
                         capture_output=True, text=True, check=True, env=env)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return json.loads(out.stdout), max(peak, before) * 1024


@pytest.mark.benchmark(group="start-up")
def test_cold_start_compiles_kernels(benchmark, tmp_path):
    """First run on a machine: empty Numba cache, every kernel compiled."""

    def cold():
        env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / f"cache{len(os.listdir(tmp_path))}"))
        return _solve_in_child("tictactoe", env)

    summary, _ = benchmark.pedantic(cold, rounds=2, iterations=1)
    assert summary["reachable"] == 5478


@pytest.mark.benchmark(group="start-up")
def test_warm_start(benchmark):
    _solve_in_child("tictactoe")
    summary, _ = benchmark.pedantic(_solve_in_child, ("tictactoe",), rounds=5, iterations=1)
    assert summary["reachable"] == 5478


@pytest.mark.slow
@pytest.mark.benchmark(group="5x4 k=4")
def test_5x4_k4_time_and_peak_memory(benchmark):
    summary, peak = benchmark.pedantic(_solve_in_child, ("5x4k4",), rounds=1, iterations=1)
    benchmark.extra_info["peak_rss_mib"] = round(peak / 2**20, 1)
    print(f"\n5x4 k=4: {summary['seconds']:.1f} s in the kernels, peak RSS {peak / 2**20:.0f} MiB")
    assert summary["reachable"] == 674_794_169 and summary["value"] == "draw"
