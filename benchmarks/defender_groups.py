"""Groups of the defender's moves refuted at once (:meth:`fastttt.search.dfpn.ProofSearch.
refute_group`): for each group, "does the attacker win when the defender has a stone on every
cell of it?" (True: each of those moves loses), then, with ``--each``, each cell of the groups
asked alone in the same way, for the cost of settling them one by one in the same run. Issue
19: O's far replies to Go-Moku's Huayue opening (X 7,7, O 6,7, X 6,8), one core::

    .venv/bin/python benchmarks/defender_groups.py 15x15k5 --moves 112,97,98 \\
        --groups "0,14,210,224;0,14,210,224,2,12,212,222" --each 0,14,210,224 \\
        --max-nodes 6e7 --threat-nodes 16 --zone-nodes 64 --reach 2 --tt-bits 24

One JSON line a question (cells, answer: true, false or null for unknown, nodes, CPU seconds,
load average), a fresh table each, appended to ``--log`` when given.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from dfpn_args import add_narrowing, add_position, position

from fastttt.search.dfpn import ProofSearch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_position(parser)
    add_narrowing(parser)
    parser.add_argument("--groups", default="", help="groups of cells: 'c,c,...;c,c,...'")
    parser.add_argument("--each", default="", help="cells to ask alone, comma-separated")
    parser.add_argument("--max-nodes", type=float, default=2e7, help="nodes a question")
    parser.add_argument("--tt-bits", type=int, default=22)
    parser.add_argument("--log", default=None, help="JSON Lines file, appended to")
    args = parser.parse_args()
    pos = position(args)
    groups = [[int(c) for c in g.split(",") if c] for g in args.groups.split(";") if g.strip()]
    groups += [[int(c)] for c in args.each.split(",") if c]
    for cells in groups:
        search = ProofSearch(
            pos.spec,
            tt_bits=args.tt_bits,
            zone_nodes=args.zone_nodes,
            threat_nodes=args.threat_nodes,
        )
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
        print(json.dumps(line), flush=True)
        if args.log:
            with open(args.log, "a") as out:
                out.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
