"""The layered solve in RAM, without symmetry and with the mirror, over the heights index
(today's) and over the column-runs index (``index="column-runs"``, issue 22 item 1), in the
same run: slots, ``/pos`` (slots per reachable position, mirror images counted twice),
reachable positions, wall and CPU seconds, peak RSS. Each solve runs in its own process
(peak RSS is a process's), after a warm-up solve of 3x4k3g with the same index (serial and
parallel kernels compiled or loaded from Numba's cache). Time is reported, never asserted;
say the machine's load (``uptime``, printed before and after) with the figures.

    python benchmarks/runs_solve.py [GAME ...]      # default: 4x5k4g 5x5k4g
"""

from __future__ import annotations

import itertools
import json
import os
import resource
import subprocess
import sys
import time

BOARDS = ("4x5k4g", "5x5k4g")  # ROWSxCOLS
INDEXES = ("heights", "column-runs")


def one(game: str, index: str, symmetry: bool) -> dict:
    """Solve ``game`` with ``index`` in this process; the figures as a dict."""
    from fastttt.tables import layered
    from fastttt.tables.layered import solve_layered

    threshold, layered.PARALLEL_MIN_SLOTS = layered.PARALLEL_MIN_SLOTS, 0
    solve_layered("3x4k3g", symmetry=symmetry, index=index)  # warm-up, parallel kernels too
    layered.PARALLEL_MIN_SLOTS = threshold
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cpu = time.process_time()
    wall = time.perf_counter()
    sol = solve_layered(game, symmetry=symmetry, index=index)
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    return {
        "game": game,
        "index": index,
        "slots": sum(sol.store.manifest["layer_sizes"]),
        "reachable": sol.reachable,
        "wall_s": wall,
        "cpu_s": cpu,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "rss_after_warmup_mib": rss_before / 1024,
    }


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main(games: tuple[str, ...]) -> None:
    print(uptime(), flush=True)
    print(
        f"{'board':8} {'index':12} {'sym':6} {'slots':>12} {'/pos':>5} {'reachable':>11} "
        f"{'wall s':>7} {'cpu s':>7} {'peak MiB':>9}"
    )
    for game in games:
        for symmetry, index in itertools.product(("none", "mirror"), INDEXES):
            out = subprocess.run(
                [sys.executable, __file__, "--one", game, index, symmetry],
                capture_output=True,
                text=True,
                check=True,
                env=os.environ,
            ).stdout
            r = json.loads(out.strip().splitlines()[-1])
            print(
                f"{game:8} {index:12} {symmetry:6} {r['slots']:12,} "
                f"{r['slots'] / r['reachable']:5.2f} {r['reachable']:11,} "
                f"{r['wall_s']:7.1f} {r['cpu_s']:7.1f} "
                f"{r['peak_rss_mib']:9.0f}",
                flush=True,
            )
    print(uptime())


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(json.dumps(one(sys.argv[2], sys.argv[3], sys.argv[4] == "mirror")))
    else:
        main(tuple(sys.argv[1:]) or BOARDS)
