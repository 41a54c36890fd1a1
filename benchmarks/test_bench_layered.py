"""Layered solver speed: against the dense solver on gravity boards, the cost and saving of
symmetry, and Dask from one worker to two.

Run: .venv/bin/pytest benchmarks/test_bench_layered.py --benchmark-enable -s [-m slow]
The Dask scaling test (slow) wants an otherwise idle machine: say the load with its figures.
Solves record ``positions`` and, in process, ``peak_traced_mib`` (``memory.py``).
"""

import os

import pytest
from memory import record_traced
from ratio import record, speedup

from fastttt.games.mnk.spec import as_spec
from fastttt.tables.dense import solve
from fastttt.tables.layered import plan, solve_layered

GRAVITY_BOARDS = [
    pytest.param("4x4k4g", 161_029, 5, 20, id="4x4g"),
    pytest.param("5x4k4g", 1_706_255, 1, 5, id="5x4g", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("game", "positions", "dense_rounds", "layered_rounds"), GRAVITY_BOARDS)
@pytest.mark.benchmark(group="gravity: dense reference, then layered")
def test_gravity_dense_then_layered(benchmark, game, positions, dense_rounds, layered_rounds):
    """The dense table as the reference, then the layered solver, in the same test."""
    import time

    spec = as_spec(game)
    solve(spec)  # compile / load the kernels first
    dense = []
    for _ in range(dense_rounds):
        start = time.perf_counter()
        assert solve(spec).reachable == positions
        dense.append(time.perf_counter() - start)
    solve_layered(spec)
    solution = benchmark.pedantic(solve_layered, (spec,), rounds=layered_rounds, iterations=1)
    assert solution.reachable == positions
    ratio = min(dense) / benchmark.stats.stats.min
    benchmark.extra_info["dense_min_s"] = min(dense)
    benchmark.extra_info["speedup_vs_dense"] = round(ratio, 1)
    record_traced(benchmark, positions, solve_layered, spec)
    print(f"\nlayered {game}: {ratio:,.1f}x faster than dense ({min(dense) * 1e3:.1f} ms)")


@pytest.mark.parametrize("game", ["4x5k4g", "4x4k4"])
@pytest.mark.parametrize("symmetry", [False, True])
@pytest.mark.benchmark(group="symmetry: cost and saving")
def test_symmetry(benchmark, game, symmetry):
    """Slots stored and time, with and without the board's symmetry group."""
    solve_layered(game, symmetry=symmetry)
    solution = benchmark.pedantic(
        solve_layered, (game,), {"symmetry": symmetry}, rounds=3, iterations=1
    )
    slots = plan(game, symmetry=symmetry).slots
    benchmark.extra_info["slots"] = slots
    record_traced(benchmark, solution.reachable, solve_layered, game, symmetry=symmetry)
    name = f"{game} symmetry={symmetry}"
    if symmetry:
        speedup(f"{game} symmetry=False", name, benchmark)
    else:
        record(name, benchmark)
    print(f"\n{name}: {slots:,} slots for {solution.reachable:,} positions")


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.benchmark(group="Dask: 5x4 k=4 (674,794,169 positions)")
def test_dask_scaling(benchmark, tmp_path, workers):
    """One and two LocalCluster workers on the same store kind; ratio in the same run."""
    from fastttt.tables.distributed import DaskRunner, local_cluster

    cluster, client = local_cluster(workers)
    runs = iter(range(100))
    try:

        def run():
            out = tmp_path / f"run{next(runs)}"
            return solve_layered(
                "5x4k4", out=out, runner_factory=lambda work: DaskRunner(work, client)
            )

        solution = benchmark.pedantic(run, rounds=1, iterations=1)
    finally:
        client.close()
        cluster.close()
    assert solution.reachable == 674_794_169
    benchmark.extra_info["load"] = os.getloadavg()
    benchmark.extra_info["positions"] = solution.reachable  # memory: in the Dask workers
    if workers == 1:
        record("dask 1 worker", benchmark)
    else:
        speedup("dask 1 worker", "dask 2 workers", benchmark)
