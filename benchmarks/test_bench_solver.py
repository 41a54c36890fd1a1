"""Dense solver speed: against the handouts' dict pipeline and a one-byte-per-slot prototype,
bigger boards, cold and warm start.

Run: .venv/bin/pytest benchmarks/test_bench_solver.py --benchmark-enable -s [-m slow]

The in-process groups time CPU (``time.process_time``, every thread counted), so a busy
machine slows both sides of a ratio alike and a thread pool's spinning is not hidden.
Every solve records ``positions`` and a peak memory figure (``memory.py``: ``peak_traced_mib``
in process, ``peak_rss_mib`` for ``fastttt`` run in a child process).
"""

import json
import os
import resource
import subprocess
import sys
import time

import numpy as np
import pytest
from memory import children_peak_rss_mib, record_traced
from numba import njit
from ratio import record, speedup

from fastttt import mnk
from fastttt.games.mnk.board import cell_lines
from fastttt.kernels.bits import ctz
from fastttt.reference import morpion
from fastttt.tables.dense import solve


def reference_pipeline():
    """The handouts' dict version: game graph, predecessors, both attractors, minimax."""
    morpion._G.clear()
    morpion._memo_minimax.clear()
    graph = morpion._globaux()  # jeu_OXO(3, 0), inverse, attracteur(0), attracteur(1)
    for state in graph["successeurs"]:
        morpion.minimax(state)
    return len(graph["successeurs"])


@njit(cache=True, nogil=True)
def _prototype_kernels(table, L, pow3, lo_first, lo_second, lo_diff, line_start, line_masks):
    """Forward: a legal slot is reachable when a parent is reachable and not finished (255).
    Backward: each 255 slot gets ``depth << 2 | value`` from its children (fastttt's bytes)."""
    n_lo = pow3[L]
    n_hi = table.shape[0] // n_lo
    shift = np.uint64(L)
    full = np.uint64((1 << (pow3.shape[0] - 1)) - 1)
    table[0] = 255
    for hi in range(n_hi):
        hi_first = lo_first[hi] << shift
        hi_second = lo_second[hi] << shift
        for lo in range(n_lo):
            idx = hi * n_lo + lo
            diff = lo_diff[lo] + lo_diff[hi]
            if idx == 0 or (diff != 0 and diff != 1):
                continue
            first = hi_first | lo_first[lo]
            second = hi_second | lo_second[lo]
            last = first if diff else second
            digit = 1 if diff else 2
            cand = last
            found = -1
            while cand:
                c = ctz(cand)
                cand &= cand - np.uint64(1)
                if table[idx - digit * pow3[c]] == 255:
                    found = c
                    break
            if found < 0:
                continue
            byte = 255
            for i in range(line_start[found], line_start[found + 1]):
                if last & line_masks[i] == line_masks[i]:
                    byte = 1 if diff else 3
                    break
            if byte == 255 and first | second == full:
                byte = 2
            table[idx] = byte
    for hi in range(n_hi - 1, -1, -1):
        hi_occupied = (lo_first[hi] | lo_second[hi]) << shift
        for lo in range(n_lo - 1, -1, -1):
            idx = hi * n_lo + lo
            if table[idx] != 255:
                continue
            second_moves = lo_diff[lo] + lo_diff[hi]
            digit = 2 if second_moves else 1
            win_v = 3 if second_moves else 1
            best_win, best_draw, worst_loss = 255, -1, -1
            cand = full & ~(hi_occupied | lo_first[lo] | lo_second[lo])
            while cand:
                c = ctz(cand)
                cand &= cand - np.uint64(1)
                b = np.int64(table[idx + digit * pow3[c]])
                v = b & 3
                d = b >> 2
                if v == win_v:
                    if d < best_win:
                        best_win = d
                        if d == 0:
                            break
                elif v == 2:
                    best_draw = max(best_draw, d)
                else:
                    worst_loss = max(worst_loss, d)
            if best_win != 255:
                table[idx] = ((best_win + 1) << 2) | win_v
            elif best_draw >= 0:
                table[idx] = ((best_draw + 1) << 2) | 2
            else:
                table[idx] = ((worst_loss + 1) << 2) | (4 - win_v)


def prototype_solve(spec):
    """The dense prototype of PERFORMANCE.md: one byte per base-3 slot (3**cells of them, index
    = base-3 code = hi * 3**L + lo), one thread, no gravity. Returns the table."""
    L = min(spec.cells, 10)
    codes = np.arange(3**L, dtype=np.int64)
    lo_first = np.zeros(3**L, dtype=np.uint64)
    lo_second = np.zeros(3**L, dtype=np.uint64)
    for c in range(L):
        digit = codes // 3**c % 3
        lo_first |= (digit == 1).astype(np.uint64) << np.uint64(c)
        lo_second |= (digit == 2).astype(np.uint64) << np.uint64(c)
    lo_diff = np.bitwise_count(lo_first).astype(np.int64) - np.bitwise_count(lo_second)
    line_start, line_masks = cell_lines(spec)
    table = np.zeros(3**spec.cells, dtype=np.uint8)
    pow3 = 3 ** np.arange(spec.cells + 1, dtype=np.int64)
    _prototype_kernels(table, L, pow3, lo_first, lo_second, lo_diff, line_start, line_masks)
    return table


def _print_ratio(name, reference, ratio):
    if ratio:
        print(f"{name}: {1 / ratio:.3f} of the time of {reference}")


@pytest.mark.benchmark(group="tictactoe strong solve", timer=time.process_time)
def test_tictactoe_reference_dict_pipeline(benchmark):
    assert benchmark.pedantic(reference_pipeline, rounds=5, iterations=1) == 5478
    record("reference", benchmark)
    record_traced(benchmark, 5478, reference_pipeline)


@pytest.mark.benchmark(group="tictactoe strong solve", timer=time.process_time)
def test_tictactoe_dense_solve_warm(benchmark):
    solve("tictactoe")  # compile / load the kernels first
    solution = benchmark(solve, "tictactoe")
    assert solution.reachable == 5478
    speedup("reference", "dense", benchmark)
    record_traced(benchmark, solution.reachable, solve, "tictactoe")


@pytest.mark.benchmark(group="4x4 k=4", timer=time.process_time)
def test_4x4_k4_prototype(benchmark):
    spec = mnk(4, 4, 4)
    table = prototype_solve(spec)  # compile / load the kernels first
    reachable = np.flatnonzero(table)
    solution = solve(spec)
    assert np.array_equal(reachable, solution.reachable_codes())
    values, depths = solution.lookup(reachable)
    assert np.array_equal(table[reachable] >> 2, depths)
    assert np.array_equal(np.array([0, 1, 0, -1])[table[reachable] & 3], values)
    table = benchmark.pedantic(prototype_solve, (spec,), rounds=5, iterations=1)
    assert np.count_nonzero(table) == 9_722_011
    record("prototype", benchmark)
    record_traced(benchmark, 9_722_011, prototype_solve, spec)


@pytest.mark.benchmark(group="4x4 k=4", timer=time.process_time)
def test_4x4_k4(benchmark):
    solve(mnk(4, 4, 4))
    solution = benchmark.pedantic(solve, (mnk(4, 4, 4),), rounds=5, iterations=1)
    assert solution.reachable == 9_722_011
    _print_ratio("4x4 dense", "prototype", speedup("prototype", "4x4 dense", benchmark))
    record_traced(benchmark, solution.reachable, solve, mnk(4, 4, 4))


@pytest.mark.benchmark(group="4x4 k=4", timer=time.process_time)
def test_4x4_k4_parallel(benchmark):
    solve(mnk(4, 4, 4), parallel=True)
    solution = benchmark.pedantic(
        solve, (mnk(4, 4, 4),), {"parallel": True}, rounds=5, iterations=1
    )
    assert solution.reachable == 9_722_011
    _print_ratio(
        "4x4 dense, 2 threads", "prototype", speedup("prototype", "4x4 dense, 2 threads", benchmark)
    )
    record_traced(benchmark, solution.reachable, solve, mnk(4, 4, 4), parallel=True)


def _solve_in_child(game, env=None):
    """Run ``fastttt solve GAME --json`` in a fresh process; return (summary, peak RSS bytes
    of the largest child so far: ``ru_maxrss`` is a maximum over the children waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out = subprocess.run(
        [sys.executable, "-m", "fastttt", "solve", game, "--json"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return json.loads(out.stdout), max(peak, before) * 1024


def _record_child(benchmark, summary) -> None:
    benchmark.extra_info["positions"] = summary["reachable"]
    benchmark.extra_info["peak_rss_mib"] = children_peak_rss_mib()


@pytest.mark.benchmark(group="start-up")
def test_cold_start_compiles_kernels(benchmark, tmp_path):
    """First run on a machine: empty Numba cache, every kernel compiled."""

    def cold():
        env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / f"cache{len(os.listdir(tmp_path))}"))
        return _solve_in_child("tictactoe", env)

    summary, _ = benchmark.pedantic(cold, rounds=2, iterations=1)
    assert summary["reachable"] == 5478
    _record_child(benchmark, summary)


@pytest.mark.benchmark(group="start-up")
def test_warm_start(benchmark):
    _solve_in_child("tictactoe")
    summary, _ = benchmark.pedantic(_solve_in_child, ("tictactoe",), rounds=5, iterations=1)
    assert summary["reachable"] == 5478
    _record_child(benchmark, summary)


@pytest.mark.slow
@pytest.mark.benchmark(group="5x4 k=4")
def test_5x4_k4_time_and_peak_memory(benchmark):
    summary, peak = benchmark.pedantic(_solve_in_child, ("5x4k4",), rounds=1, iterations=1)
    benchmark.extra_info["peak_rss_mib"] = round(peak / 2**20, 1)
    benchmark.extra_info["positions"] = summary["reachable"]
    print(f"\n5x4 k=4: {summary['seconds']:.1f} s in the kernels, peak RSS {peak / 2**20:.0f} MiB")
    assert summary["reachable"] == 674_794_169 and summary["value"] == "draw"
