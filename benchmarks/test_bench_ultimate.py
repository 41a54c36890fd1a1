"""Ultimate tic-tac-toe speed: random playouts (moves/s, one thread) and engine search
(nodes/s, depth reached in 1 s from the empty board). Times are reported, never asserted.

Run: ``.venv/bin/pytest benchmarks/test_bench_ultimate.py --benchmark-enable -s``
"""

from __future__ import annotations

import random
import time

import pytest

from fastttt.kernels import ultimate as K
from fastttt.ultimate import Engine, UltimateState, warmup

from ultimate_reference import RefState

GAMES = 20_000


@pytest.fixture(scope="module", autouse=True)
def _warm():
    warmup()


def _reference_playouts(games: int, seed: int) -> int:
    """Random games with the plain-Python reference rules; returns the moves played."""
    rng = random.Random(seed)
    moves = 0
    for _ in range(games):
        s = RefState()
        while True:
            legal = s.legal_moves()
            if not legal:
                break
            s = s.play(rng.choice(legal))
            moves += 1
    return moves


def test_bench_random_playouts(benchmark):
    start = UltimateState().array()
    rng = K.rng_state(1)
    result = benchmark.pedantic(K.random_playouts, args=(start, GAMES, rng), rounds=5)
    moves = result[3]
    secs = benchmark.stats.stats.min if benchmark.stats else None
    t0 = time.perf_counter()
    ref_moves = _reference_playouts(100, 1)
    ref_secs = time.perf_counter() - t0
    t0 = time.perf_counter()
    moves = K.random_playouts(start, GAMES, rng)[3]
    kern_secs = time.perf_counter() - t0
    print(
        f"\nrandom playouts: {moves / kern_secs / 1e6:.1f} M moves/s (kernel, one thread), "
        f"{ref_moves / ref_secs / 1e3:.1f} k moves/s (plain-Python reference), "
        f"ratio {moves / kern_secs / (ref_moves / ref_secs):.0f}x"
        + (f"; benchmark min {moves / secs / 1e6:.1f} M moves/s" if secs else "")
    )


def test_bench_engine_one_second():
    engine = Engine()
    res = engine.search(UltimateState(), time_ms=1000)
    print(
        f"\nengine from the empty board, 1 s: depth {res.depth}, {res.nodes} nodes, "
        f"{res.nodes / res.seconds / 1e6:.2f} M nodes/s, best move {res.move}, score {res.score}"
    )


@pytest.mark.parametrize("depth", [6, 8])
def test_bench_engine_fixed_depth(benchmark, depth):
    """Deterministic bench: node count of a fixed-depth search from the empty board."""

    def run():
        return Engine(tt_bits=20).search(UltimateState(), max_depth=depth)

    res = benchmark.pedantic(run, rounds=3)
    print(f"\ndepth {depth}: {res.nodes} nodes (Bench: {res.nodes})")


@pytest.mark.parametrize("open_won_boards", [False, True], ids=["usual", "open"])
def test_bench_proof_estimate(benchmark, open_won_boards):
    """df-pn on the proof suite's positions at plies 50, 40 and 30 (2,000,000 nodes a question):
    distance estimates against plain (1, 1) numbers, in the same run."""
    from fastttt.search.ultimate.proof import solve, suite_positions

    states = suite_positions(open_won_boards, plies=(50, 40, 30))

    def run(estimate: bool) -> tuple[int, int, float]:
        t0 = time.process_time()
        values = [solve(s, 2_000_000, 22, estimate) for s in states]
        settled = sum(v.proved for v in values)
        return settled, sum(v.nodes for v in values), time.process_time() - t0

    plain = run(False)
    estimate = benchmark.pedantic(run, args=(True,), rounds=1)
    print(
        f"\nproof suite, {'open variant' if open_won_boards else 'usual rules'}, "
        f"{len(states)} positions: plain {plain[0]} settled, {plain[1]:,} nodes, "
        f"{plain[2]:.1f} CPU-s; estimates {estimate[0]} settled, {estimate[1]:,} nodes, "
        f"{estimate[2]:.1f} CPU-s; nodes ratio {plain[1] / estimate[1]:.2f}x"
    )
