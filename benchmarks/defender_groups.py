"""Groups of the defender's moves refuted at once (:meth:`fastttt.search.dfpn.ProofSearch.
refute_group`): for each group, "does the attacker win when the defender has a stone on every
cell of it?" (True: each of those moves loses), then, with ``--each``, each cell of the groups
asked alone in the same way, for the cost of settling them one by one in the same run. Issue
19: O's far replies to Go-Moku's Huayue opening (X 7,7, O 6,7, X 6,8), one core::

    .venv/bin/python benchmarks/defender_groups.py 15x15k5 --moves 112,97,98 \\
        --groups "0,14,210,224;0,14,210,224,2,12,212,222" --each 0,14,210,224 \\
        --max-nodes 6e7 --threat-nodes 16 --zone-nodes 64 --reach 2 --tt-bits 24

With ``--far D --group-size S`` the groups are built from every empty cell at least D rows or
columns from each stone: S cells a group, each group's cells as far apart as a greedy choice
makes them (the next cell the one farthest from the group's cells so far), so that the
defender's stones in a group make no shape of their own. O's replies 5 or more away, 12 a group::

    .venv/bin/python benchmarks/defender_groups.py 15x15k5 --moves 112,97,98 --far 5 \\
        --group-size 12 --max-nodes 6e7 --threat-nodes 16 --zone-nodes 64 --reach 2 --tt-bits 24

One JSON line a question (cells, answer: true, false or null for unknown, nodes, CPU seconds,
load average), a fresh table each, appended to ``--log`` when given, and a last line with the
totals.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from dfpn_args import add_narrowing, add_position, narrowed_search, position, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_position(parser)
    add_narrowing(parser)
    parser.add_argument("--groups", default="", help="groups of cells: 'c,c,...;c,c,...'")
    parser.add_argument("--each", default="", help="cells to ask alone, comma-separated")
    parser.add_argument("--far", type=int, default=0, help="group the cells this far (0: off)")
    parser.add_argument("--group-size", type=int, default=12, help="cells a group, with --far")
    parser.add_argument("--max-nodes", type=float, default=2e7, help="nodes a question")
    parser.add_argument("--tt-bits", type=int, default=22)
    parser.add_argument("--log", default=None, help="JSON Lines file, appended to")
    args = parser.parse_args()
    pos = position(args)
    groups = [[int(c) for c in g.split(",") if c] for g in args.groups.split(";") if g.strip()]
    if args.far:
        groups += spread_groups(far_cells(pos, args.far), args.group_size, pos.spec.cols)
    groups += [[int(c)] for c in args.each.split(",") if c]
    totals = {"questions": 0, "cells": 0, "cells_refuted": 0, "nodes": 0, "cpu": 0.0}
    for cells in groups:
        search = narrowed_search(pos.spec, args)
        t0 = time.process_time()
        answer = search.refute_group(
            pos,
            cells,
            args.attacker,
            max_nodes=int(args.max_nodes),
            attacker_reach=args.reach,
        )
        line = {
            "cells": cells,
            "attacker_wins": answer,
            "nodes": search.nodes,
            "cpu": round(time.process_time() - t0, 1),
            "load": round(os.getloadavg()[0], 2),
        }
        record(line, args.log)
        totals["questions"] += 1
        totals["cells"] += len(cells)
        totals["cells_refuted"] += len(cells) if answer else 0
        totals["nodes"] += search.nodes
        totals["cpu"] = round(totals["cpu"] + line["cpu"], 1)
    record({"totals": totals}, args.log)


def record(line: dict, log: str | None) -> None:
    print(json.dumps(line), flush=True)
    if log:
        with open(log, "a") as out:
            out.write(json.dumps(line) + "\n")


def far_cells(pos, distance: int) -> list[int]:
    """The empty cells at least ``distance`` rows or columns from every stone."""
    cols = pos.spec.cols
    stones = [c for c in range(pos.spec.cells) if pos.occupied >> c & 1]
    return [
        c
        for c in range(pos.spec.cells)
        if not pos.occupied >> c & 1
        and all(
            max(abs(c // cols - s // cols), abs(c % cols - s % cols)) >= distance for s in stones
        )
    ]


def spread_groups(cells: list[int], size: int, cols: int) -> list[list[int]]:
    """``cells`` in groups of ``size`` (the last one smaller), each group's next cell the one
    farthest (rows or columns) from its cells so far, ties to the smallest cell."""

    def apart(a: int, b: int) -> int:
        return max(abs(a // cols - b // cols), abs(a % cols - b % cols))

    left = sorted(cells)
    groups = []
    while left:
        group = [left.pop(0)]
        while left and len(group) < size:
            best = max(left, key=lambda c: (min(apart(c, g) for g in group), -c))
            left.remove(best)
            group.append(best)
        groups.append(sorted(group))
    return groups


if __name__ == "__main__":
    run(main)
