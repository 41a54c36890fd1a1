"""The ``fastttt solve connect4 --stdin`` filter against the C++ solvers run as filters: CPU
per position on the six public sets, exact and weak, all measured in the same run.

Each solver runs as a child process fed through a pipe. A first line (``4455``) is answered
so that start-up, kernel loading and the C++ table's allocation are over; then the child's
CPU clock is read (its process CPU-time clock through ``clock_gettime``: user and system time
of all its threads, in nanoseconds), the set's move strings are written, every answer is read
and checked against the set's score (signs only with ``--weak``), and the clock is read again.
CPU per position is the difference over the number of positions. What this leaves out is the
same for both: process start (about 1 s for fastttt, 0.05 s for the C++ solver, most of it
zeroing its 2**24-entry table; fastttt's 64 MiB table is zeroed lazily, as the search
touches it, and so is counted).

The C++ solver is PascalPons/connect4 built with its Makefile outside the repository, named
by ``FASTTTT_C4_REFERENCE=/path/to/c4solver`` and run without an opening book (``-b`` naming
no file; ``-w`` for weak); without it only fastttt is measured. Christophe Steininger's c4
(1 thread) has no filter of its own: ``FASTTTT_C4_STEININGER_FILTER=/path/to/filter`` names a
driver built outside the repository on c4's solver library that reads the same lines and
answers ``<moves> <score>`` in the same convention (``-w``: sign only); measured when given.
``FASTTTT_C4_LIMIT=N`` caps the positions per set (default: all), ``FASTTTT_C4_HARD=N`` those
of Begin-Hard (default 20: seconds each). Time is reported, never asserted; every score is asserted.

Run: ``FASTTTT_C4_REFERENCE=/tmp/c4ref/c4solver .venv/bin/pytest benchmarks/test_bench_filter.py
--benchmark-enable -s``, or ``.venv/bin/python benchmarks/test_bench_filter.py`` for the whole
table in Markdown.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "connect4"
SETS = [
    ("Test_L3_R1", "End-Easy"),
    ("Test_L2_R1", "Middle-Easy"),
    ("Test_L2_R2", "Middle-Medium"),
    ("Test_L1_R1", "Begin-Easy"),
    ("Test_L1_R2", "Begin-Medium"),
    ("Test_L1_R3", "Begin-Hard"),
]
FIRST_LINE = b"4455\n"  # answered before the clock starts (a win in 4: a few nodes)


def reference(variable: str = "FASTTTT_C4_REFERENCE") -> str | None:
    path = os.environ.get(variable)
    return path if path and os.access(path, os.X_OK) else None


def commands(weak: bool) -> dict[str, list[str]]:
    """The filters to measure: fastttt's CLI and, when given, the C++ solvers."""
    cmds = {
        "fastttt": [sys.executable, "-m", "fastttt", "solve", "connect4", "--stdin"]
        + (["--weak"] if weak else [])
    }
    cpp = reference()
    if cpp:
        cmds["c++"] = [cpp, "-b", os.devnull] + (["-w"] if weak else [])
    steininger = reference("FASTTTT_C4_STEININGER_FILTER")
    if steininger:
        cmds["steininger"] = [steininger] + (["-w"] if weak else [])
    return cmds


def read_set(filename: str, name: str) -> tuple[list[str], list[int]]:
    moves, scores = [], []
    for line in (DATA / filename).read_text().splitlines():
        if line.strip():
            m, sc = line.split()
            moves.append(m)
            scores.append(int(sc))
    limit = (
        os.environ.get("FASTTTT_C4_HARD", "20")
        if name == "Begin-Hard"
        else (os.environ.get("FASTTTT_C4_LIMIT"))
    )
    if limit:
        moves, scores = moves[: int(limit)], scores[: int(limit)]
    return moves, scores


def process_cpu(pid: int) -> float:
    """CPU seconds of process ``pid`` so far (Linux: its CPUCLOCK_SCHED process clock)."""
    return time.clock_gettime((~pid << 3) | 2)


def filter_cpu(cmd: list[str], moves: list[str]) -> tuple[float, float, list[int]]:
    """(CPU seconds, wall seconds, scores) of the filter ``cmd`` answering ``moves``."""
    proc = subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=REPO
    )
    try:
        proc.stdin.write(FIRST_LINE)
        proc.stdin.flush()
        first = proc.stdout.readline()
        assert first.split()[0] == b"4455", first
        data = "".join(m + "\n" for m in moves).encode()
        writer = threading.Thread(target=lambda: (proc.stdin.write(data), proc.stdin.flush()))
        cpu0, wall0 = process_cpu(proc.pid), time.perf_counter()
        writer.start()
        answers = [proc.stdout.readline() for _ in moves]
        cpu, wall = process_cpu(proc.pid) - cpu0, time.perf_counter() - wall0
        writer.join()
    finally:
        proc.stdin.close()
        proc.wait()
    got = []
    for m, answer in zip(moves, answers, strict=True):
        fields = answer.split()
        assert fields and fields[0].decode() == m, (m, answer)
        got.append(int(fields[1]))
    return cpu, wall, got


def measure(filename: str, name: str, weak: bool) -> dict:
    """One row: CPU microseconds per position of each filter (scores checked)."""
    moves, expected = read_set(filename, name)
    if weak:
        expected = [(s > 0) - (s < 0) for s in expected]
    row = {"set": name, "positions": len(moves), "weak": weak}
    for label, cmd in commands(weak).items():
        cpu, wall, got = filter_cpu(cmd, moves)
        if weak:  # the C++ solver's weak mode gives a win at once its exact score
            got = [(g > 0) - (g < 0) for g in got]
        wrong = sum(g != e for g, e in zip(got, expected, strict=True))
        assert wrong == 0, f"{label} {name}: {wrong} wrong scores"
        row[label] = cpu / len(moves) * 1e6
        row[label + " wall"] = wall / len(moves) * 1e6
    row["load"] = os.getloadavg()[0]
    return row


def _us(x: float) -> str:
    return f"{x:,.1f} us" if x < 1000 else f"{x / 1000:,.2f} ms" if x < 1e6 else f"{x / 1e6:.2f} s"


def format_row(row: dict) -> str:
    cells = [_us(row["fastttt"])]
    for label in ("c++", "steininger"):
        other = row.get(label)
        cells += [_us(other), f"{row['fastttt'] / other:.2f}"] if other else ["-", "-"]
    return (
        f"| {row['set']} | {row['positions']} | {'weak' if row['weak'] else 'exact'} | "
        f"{' | '.join(cells)} | {row['load']:.2f} |"
    )


needs_linux = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads a child's CPU clock (Linux)"
)


@needs_linux
@pytest.mark.parametrize("weak", [False, True], ids=["exact", "weak"])
@pytest.mark.parametrize("filename, name", SETS, ids=[s[1] for s in SETS])
def test_filter_against_cpp(benchmark, connect4_data, filename, name, weak):
    rows = []
    benchmark.pedantic(lambda: rows.append(measure(filename, name, weak)), rounds=1, iterations=1)
    row = rows[0]
    benchmark.extra_info.update(
        {k: (round(v, 2) if isinstance(v, float) else v) for k, v in row.items()}
    )
    for label, key in (("c++", "ratio_to_cpp"), ("steininger", "ratio_to_steininger")):
        if label in row:
            benchmark.extra_info[key] = round(row["fastttt"] / row[label], 3)
    print("\n" + format_row(row))


if __name__ == "__main__":
    print(
        "| set | positions | mode | fastttt CPU/position | Pons CPU/position | ratio "
        "| Steininger CPU/position | ratio | load |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for filename, name in SETS:
        for weak in (False, True):
            print(format_row(measure(filename, name, weak)), flush=True)
