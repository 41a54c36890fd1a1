"""How big are df-pn's proofs? One question a root move of a position, each with a fresh table,
the proof counted and its principal line walked, one JSON line a move appended to ``--log``
(given the same log, a run asks only the moves it has no answer for: a killed run goes on, and
the moves unknown within the last budget are asked again). Issue 19: the proofs of Go-Moku's
Huayue opening (X 7,7, O 6,7, X 6,8) beside Allis' 138,790 positions, on both cores; then the
four of the moves left unknown, with more nodes and a bigger table::

    .venv/bin/python benchmarks/proof_sizes.py 15x15k5 --moves 112,97,98 --max-nodes 2e7 \\
        --tt-bits 24 --zone-nodes 64 --threat-nodes 16 --reach 2 --workers 2 --log sizes.jsonl
    .venv/bin/python benchmarks/proof_sizes.py 15x15k5 --moves 112,97,98 --max-nodes 5e7 \\
        --tt-bits 26 --zone-nodes 64 --threat-nodes 16 --reach 2 --workers 2 --log sizes.jsonl \\
        --only 69,114,128,141

Each line: the move (a cell), the answer ("does the attacker win after it?": true, false, or
null when unknown within the budget), the nodes, the proof's positions (``size``; those inside
threat probes' proofs, ``in_threats``; the rest are df-pn's own tree, whose leaves include the
nodes the probes proved), the principal line's length, the CPU seconds of its process and the
load average. The last line sums up the moves this run proved.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from concurrent.futures import as_completed

from dfpn_args import add_narrowing, add_position, narrowed_search, position, run

from fastttt.processes import process_pool
from fastttt.search.split import root_moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_position(parser)
    add_narrowing(parser)
    parser.add_argument("--max-nodes", type=float, default=2e7, help="nodes a move")
    parser.add_argument("--tt-bits", type=int, default=24)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", default="", help="root moves to ask, comma-separated (all)")
    parser.add_argument("--log", required=True, help="JSON Lines file, appended to")
    args = parser.parse_args()
    pos = position(args)
    moves = [int(m) for m in args.only.split(",") if m] or root_moves(pos)
    logged = []
    if os.path.exists(args.log):
        with open(args.log) as log:
            logged = [json.loads(line) for line in log]
    done = {line["move"] for line in logged if line.get("answer") is not None}
    todo = [m for m in moves if m not in done]
    lines = []
    with process_pool(max(1, min(args.workers, len(todo)))) as pool:
        tasks = [pool.submit(_one, args, m) for m in todo]
        for task in as_completed(tasks):
            line = task.result()
            lines.append(line)
            _record(args.log, line)
    proven = [line for line in lines if line["answer"] and line["size"] is not None]
    _record(
        args.log,
        {
            "game": pos.spec.name,
            "moves": args.moves,
            "asked": len(lines),
            "proven": len(proven),
            "nodes": sum(line["nodes"] for line in proven),
            "size": sum(line["size"] for line in proven),
            "in_threats": sum(line["in_threats"] for line in proven),
            "cpu": round(sum(line["cpu"] for line in proven), 1),
        },
    )


def _one(args: argparse.Namespace, move: int) -> dict:
    """Prove the attacker's win after ``move``, counting the proof."""
    child = position(args).play(move)
    search = narrowed_search(child.spec, args)
    cpu = time.process_time()
    r = search.prove(
        child,
        args.attacker,
        max_nodes=int(args.max_nodes),
        proof_size=True,
        attacker_reach=args.reach,
    )
    return {
        "move": move,
        "answer": r.proven,
        "nodes": r.nodes,
        "size": r.proof_size,
        "in_threats": r.proof_size_threats,
        "line": len(r.line) if r.line else None,
        "cpu": round(time.process_time() - cpu, 1),
        "load": round(os.getloadavg()[0], 2),
    }


def _record(path: str, line: dict) -> None:
    with open(path, "a") as out:
        out.write(json.dumps(line) + "\n")
    print(json.dumps(line), flush=True)


if __name__ == "__main__":
    run(main)
