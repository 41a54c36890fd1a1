"""Connect Four search against a previous version of fastttt, same run: CPU per position on the
six public sets, the ratio new / previous (under 1: faster now).

Run: ``.venv/bin/pytest benchmarks/test_bench_previous.py --benchmark-enable -s``.
``FASTTTT_PREVIOUS=REV`` picks the version (default: 76339da, the last commit before the search
frontier work of issue 13); it is checked out with ``git worktree`` in a temporary folder. Each
set is timed in fresh interpreters, previous and current alternately (``ROUNDS`` each, the
minimum kept), exact mode from an empty table, kernels compiled or loaded before the clock
starts; every score is checked against the set's. ``FASTTTT_C4_LIMIT`` / ``FASTTTT_C4_HARD``
cap positions per set as in ``test_bench_connect4.py`` (here Begin-Medium defaults to 200).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PREVIOUS = os.environ.get("FASTTTT_PREVIOUS", "76339da")
ROUNDS = 2
SETS = [
    ("Test_L3_R1", "End-Easy", None),
    ("Test_L2_R1", "Middle-Easy", None),
    ("Test_L2_R2", "Middle-Medium", None),
    ("Test_L1_R1", "Begin-Easy", None),
    ("Test_L1_R2", "Begin-Medium", 200),
    ("Test_L1_R3", "Begin-Hard", 10),
]

CHILD = """
import json, sys, time
import numpy as np
from fastttt.search.connect4 import parse_move_lines, read_benchmark
from fastttt.games.mnk.spec import connect4
from fastttt.search.alphabeta import Batch, Searcher, solve_batch, warmup
path, limit = sys.argv[1], int(sys.argv[2])
warmup()
moves, expected = read_benchmark(path)
moves, expected = moves[:limit], expected[:limit]
s = Searcher(connect4)
batch, errors = parse_move_lines(s, moves)
solve_batch(s, Batch(batch.curs[:1], batch.masks[:1], batch.plies[:1]))
s.reset()
t0 = time.process_time()
scores, nodes = solve_batch(s, batch)
cpu = time.process_time() - t0
print(json.dumps({"cpu": cpu, "n": len(moves), "nodes": int(nodes.sum()),
                  "wrong": int((scores != expected).sum())}))
"""


@pytest.fixture(scope="module")
def previous_tree(tmp_path_factory):
    tree = tmp_path_factory.mktemp("previous") / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), PREVIOUS],
        check=True,
        capture_output=True,
    )
    yield tree
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
        check=False,
        capture_output=True,
    )


def _limit(name: str, default: int | None) -> int:
    if name == "Begin-Hard":
        return int(os.environ.get("FASTTTT_C4_HARD", default))
    value = os.environ.get("FASTTTT_C4_LIMIT")
    return int(value) if value else default or 10**9


def _time(tree: Path, path: Path, limit: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), str(limit)],
        cwd=tree,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("filename, name, default", SETS, ids=[s[1] for s in SETS])
def test_connect4_against_previous(
    benchmark, connect4_data, previous_tree, filename, name, default
):
    limit = _limit(name, default)
    path = connect4_data / filename
    runs: dict[str, list[dict]] = {"previous": [], "current": []}

    def run():
        for _ in range(ROUNDS):
            runs["previous"].append(_time(previous_tree, path, limit))
            runs["current"].append(_time(ROOT, path, limit))

    benchmark.pedantic(run, rounds=1, iterations=1)
    best = {k: min(v, key=lambda r: r["cpu"]) for k, v in runs.items()}
    n = best["current"]["n"]
    us = {k: r["cpu"] / n * 1e6 for k, r in best.items()}
    ratio = us["current"] / us["previous"]
    benchmark.extra_info.update(
        previous=PREVIOUS,
        positions=n,
        ratio=round(ratio, 3),
        **{f"{k}_us_per_position": round(v, 2) for k, v in us.items()},
        **{f"{k}_nodes": r["nodes"] for k, r in best.items()},
        load=os.getloadavg()[0],
    )
    print(
        f"\n{name:<13} {n:>4} positions  previous {us['previous']:11.1f} us  current "
        f"{us['current']:11.1f} us  ratio {ratio:.2f}  nodes {best['previous']['nodes']:,} "
        f"-> {best['current']['nodes']:,}  load {os.getloadavg()[0]:.1f}"
    )
    assert all(r["wrong"] == 0 for rs in runs.values() for r in rs)
