"""The empty 7 x 6 Connect Four board from scratch: the search engine's CPU and nodes, exact
score and win/draw/loss, beside Christophe Steininger's ``c4`` in the same run when
``FASTTTT_C4_STEININGER`` names its binary (built from its public source as
``../shared/PEERS.md`` says; it reads a position, empty here, on stdin and solves it).

Run: ``FASTTTT_C4_STEININGER=/path/to/c4 .venv/bin/pytest benchmarks/test_bench_connect4_empty.py
--benchmark-enable -s``. Each figure is one run (about a minute each here); CPU is user + sys
of the process (the peer runs 2 threads), time is reported, never asserted.
"""

from __future__ import annotations

import os
import resource
import subprocess
import time

import pytest

from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import connect4
from fastttt.search.alphabeta import Searcher, warmup

_FASTTTT_CPU: dict[str, float] = {}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.mark.parametrize("weak", [False, True], ids=["exact", "weak"])
def test_empty_board(benchmark, weak):
    warmup()
    s = Searcher(connect4)
    figures = {}

    def run():
        t0 = time.process_time()
        figures["result"] = s.solve(Position.empty(connect4), weak=weak)
        figures["cpu"] = time.process_time() - t0

    benchmark.pedantic(run, rounds=1, iterations=1)
    result, cpu = figures["result"], figures["cpu"]
    _FASTTTT_CPU["weak" if weak else "exact"] = cpu
    benchmark.extra_info.update(cpu_seconds=round(cpu, 2), nodes=result.nodes, score=result.score)
    print(
        f"\nfastttt {'weak ' if weak else 'exact'} score {result.score}  {cpu:.1f} CPU-s  "
        f"{result.nodes:,} nodes  {result.nodes / cpu / 1e6:.1f} M nodes/s  "
        f"(load {os.getloadavg()[0]:.1f})"
    )
    assert result.score == 1  # the first player wins (exact: with its last stone, move 41)


def test_empty_board_steininger(benchmark):
    path = os.environ.get("FASTTTT_C4_STEININGER")
    if not path:
        pytest.skip("set FASTTTT_C4_STEININGER to Steininger's c4 binary to measure it alongside")
    figures = {}

    def run():
        before = _children_cpu()
        out = subprocess.run([path], input="\n\n", capture_output=True, text=True, timeout=3600)
        figures["cpu"], figures["out"] = _children_cpu() - before, out.stdout

    benchmark.pedantic(run, rounds=1, iterations=1)
    cpu = figures["cpu"]
    ratio = {mode: round(ours / cpu, 2) for mode, ours in _FASTTTT_CPU.items()}
    benchmark.extra_info.update(cpu_seconds=round(cpu, 2), fastttt_over_peer=ratio)
    print(
        f"\nSteininger c4 exact  {cpu:.1f} CPU-s (all its threads); fastttt / c4 CPU: {ratio} "
        f"(load {os.getloadavg()[0]:.1f})"
    )
    assert "Score" in figures["out"] or "score" in figures["out"]
