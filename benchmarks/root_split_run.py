"""Which root moves of a position df-pn settles, each on its own budget: the root split
(:func:`fastttt.search.split.ask_split`) with one JSON line per move, appended to ``--log`` as
the answers come, and the answers kept in ``--checkpoint`` so that a killed run goes on where it
stopped. Issue 19: how much of Go-Moku's Huayue opening (X 7,7, O 6,7, X 6,8) falls to zones,
threat probes and the attacker's reach, 2 M nodes an answer, on one core::

    .venv/bin/python benchmarks/root_split_run.py 15x15k5 --moves 112,97,98 --max-nodes 2e6 \\
        --zone-nodes 64 --threat-nodes 16 --reach 2 --workers 1 \\
        --checkpoint huayue.json --log huayue-split.jsonl

Each line: the move (a cell), the answer ("does the attacker win after it?": true, false, or
null for unknown within the budget), the task's nodes, the wall seconds since the start and the
load average. The last line sums it up. The split stops at a move that decides the root (with a
reach no disproof does). With ``--snapshots DIR`` a task left unknown keeps its df-pn table
there, and the same split with a larger ``--max-nodes`` goes on from it (the line's nodes are
that run's).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from dfpn_args import add_narrowing, add_position, narrowing, position, run

from fastttt.search.split import ask_split


def _split(pos, args: argparse.Namespace, record):
    """``ask_split`` as the flags say, each answer recorded as it comes."""
    return ask_split(
        pos,
        args.attacker,
        workers=args.workers,
        seconds=args.seconds,
        max_nodes=int(args.max_nodes),
        checkpoint=args.checkpoint,
        tt_bits=args.tt_bits,
        attacker_reach=args.reach,
        only=[int(m) for m in args.only.split(",") if m] or None,
        pass_nodes=int(args.pass_nodes),
        snapshots=args.snapshots,
        progress=lambda m, a, n: record({"move": m, "answer": a, "nodes": n}),
        **narrowing(args),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_position(parser)
    add_narrowing(parser)
    parser.add_argument("--max-nodes", type=float, default=2e6, help="nodes an answer")
    parser.add_argument("--seconds", type=float, default=None, help="wall seconds an answer")
    parser.add_argument("--tt-bits", type=int, default=22)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", default="", help="root moves to ask, comma-separated (all)")
    parser.add_argument(
        "--pass-nodes",
        type=float,
        default=0,
        help="first prove, in this many nodes, the goal of the mover's opponent after the mover's"
        " pass; the moves off that proof's zone need no task (0: off)",
    )
    parser.add_argument("--checkpoint", default=None, help="JSON file of the answers so far")
    parser.add_argument(
        "--snapshots",
        default=None,
        help="folder where a task left unknown keeps its table, for the next split to go on",
    )
    parser.add_argument("--log", required=True, help="JSON Lines file, appended to")
    args = parser.parse_args()
    pos = position(args)
    t0 = time.perf_counter()

    def record(line: dict) -> None:
        line |= {"wall": round(time.perf_counter() - t0, 1), "load": os.getloadavg()[0]}
        with open(args.log, "a") as out:
            out.write(json.dumps(line) + "\n")
        print(json.dumps(line), flush=True)

    try:
        result = _split(pos, args, record)
    except KeyboardInterrupt:
        saved = f"; the tasks' tables are in {args.snapshots}" if args.snapshots else ""
        print(f"interrupted: the answers so far are in {args.checkpoint}{saved}", flush=True)
        sys.exit(130)
    answers = result.answers
    found = list(answers.values())
    record(
        {
            "game": pos.spec.name,
            "moves": args.moves,
            "root_moves": len(found),
            "proven": found.count(True),
            "disproven": found.count(False),
            "unknown": found.count(None),
            "root": result.proven,
            "nodes": result.nodes,
            "pass_zone": None if result.pass_zone is None else len(result.pass_zone),
        }
    )


if __name__ == "__main__":
    run(main)
