"""How the cost of an Ultimate proof grows with the plies left: df-pn's nodes to settle
positions of random games at several plies, and a projection to the empty board (issue 19,
item 5, for the open variant whose empty board stays unsettled).

Each line of the JSON Lines log is one position: its ply, verdict, nodes (both questions) and
CPU seconds; ``--summary`` reads a log and prints, for each ply, how many settled and the
median nodes of those, then the growth a ply fitted over the medians (least squares on their
logarithms) and what it gives at ply 0::

    .venv/bin/python benchmarks/ultimate_depths.py --open --seed 2020 --log depths.jsonl
    .venv/bin/python benchmarks/ultimate_depths.py --open --seed 2021 --log depths.jsonl
    .venv/bin/python benchmarks/ultimate_depths.py --summary depths.jsonl

Random games are lopsided, so their positions settle sooner than those of good play: the
projection is a lower bound on the work, and a median over positions that did not all settle
is one too.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time

from fastttt.search.ultimate.proof import solve, suite_positions


def run(args) -> None:
    plies = tuple(int(p) for p in args.plies.split(","))
    for state in suite_positions(args.open, plies=plies, per_ply=args.per_ply, seed=args.seed):
        t0 = time.process_time()
        value = solve(state, args.max_nodes, args.tt_bits)
        line = {
            "open": args.open,
            "ply": state.ply,
            "position": str(state),
            "verdict": value.verdict,
            "nodes": value.nodes,
            "cpu": round(time.process_time() - t0, 2),
            "max_nodes": args.max_nodes,
            "load": os.getloadavg()[0],
        }
        with open(args.log, "a") as out:
            out.write(json.dumps(line) + "\n")
        print(json.dumps(line), flush=True)


def summary(path: str) -> None:
    with open(path) as log:
        rows = [json.loads(line) for line in log]
    medians = {}
    for ply in sorted({r["ply"] for r in rows}, reverse=True):
        here = [r for r in rows if r["ply"] == ply]
        done = [r for r in here if r["verdict"] != "unknown within budget"]
        nodes = sorted(r["nodes"] for r in done)
        rate = sum(r["nodes"] for r in here) / max(sum(r["cpu"] for r in here), 1e-9)
        median = statistics.median(nodes) if nodes else None
        if median is not None and len(done) * 2 > len(here):  # a median of all the positions
            medians[ply] = statistics.median([r["nodes"] for r in here])
        print(
            f"ply {ply}: {len(done)} of {len(here)} settled, median nodes of those "
            f"{median:,.0f}, {rate / 1e3:,.0f} k nodes a CPU-second"
            if median is not None
            else f"ply {ply}: none of {len(here)} settled"
        )
    if len(medians) < 2:
        print("too few plies where most positions settled for a fit")
        return
    xs = list(medians)
    ys = [math.log10(medians[p]) for p in xs]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )
    at_zero = my - slope * mx
    print(
        f"fit over plies {sorted(xs)}: nodes grow {10**-slope:.2f}x a ply fewer played; "
        f"at ply 0: 10^{at_zero:.1f} nodes"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--open", action="store_true", help="won boards stay open")
    parser.add_argument("--plies", default="60,55,50,45,40,35")
    parser.add_argument("--per-ply", type=int, default=6)
    parser.add_argument("--seed", type=int, default=2020)
    parser.add_argument("--max-nodes", type=int, default=10_000_000, help="a question")
    parser.add_argument("--tt-bits", type=int, default=24)
    parser.add_argument("--log", help="JSON Lines file, appended to")
    parser.add_argument("--summary", metavar="LOG", help="summarise a log instead of running")
    args = parser.parse_args()
    if args.summary:
        return summary(args.summary)
    if not args.log:
        parser.error("--log is required for a run")
    run(args)


if __name__ == "__main__":
    main()
