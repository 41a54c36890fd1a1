"""How far the provers get on an open board in a long run: df-pn on the empty board, its table
kept across checkpoints, one JSON line per checkpoint (append-only, so a killed run keeps what
it measured). Issue 13 asks for an hour on 8 x 8 k=5 and 15 x 15 k=5::

    .venv/bin/python benchmarks/frontier_run.py 8x8k5 --hours 1 --log frontier-8x8k5.jsonl
    .venv/bin/python benchmarks/frontier_run.py 15x15k5 --hours 1 --log frontier-15x15k5.jsonl

Each line: ``wall`` and ``cpu`` seconds since the start (compile excluded), ``nodes`` expanded
in all, the root's proof and disproof numbers for the attacker's question (``phi``/``delta``
from the side to move; 0 closes it), root moves searched and solved, the deepest ply reached,
and the load average. First a threat-space pass (a fast prover of forced wins), then df-pn.

``ultimate`` and ``ultimate-open`` (issue 19, item 5) run Ultimate's df-pn
(:class:`fastttt.search.ultimate.proof.Prover`, its table kept between checkpoints) on the
empty board: ``pn``/``dn`` are the root's numbers for the attacker, ``first_moves`` counts
X's 81 first moves by what the table says of the position after each (``proven``: the
attacker wins there, ``disproven``, ``open``, ``unseen``)::

    .venv/bin/python benchmarks/frontier_run.py ultimate-open --hours 0.5 --tt-bits 26 --log u.jsonl

``--moves`` starts from a position instead of the empty board (cells, comma-separated), and
``--zone-nodes``, ``--threat-nodes`` and ``--reach`` turn on df-pn's relevance zones, threat
probes and the attacker's reach (:class:`fastttt.search.dfpn.ProofSearch`); Go-Moku's
Huayue opening, "does X win?" with all three::

    .venv/bin/python benchmarks/frontier_run.py 15x15k5 --moves 112,97,98 --zone-nodes 64 \
        --threat-nodes 16 --reach 2 --log huayue.jsonl

``--snapshot FILE`` (m,n,k boards) writes df-pn's table to FILE after each line and on Ctrl-C
or SIGTERM (:mod:`fastttt.search.dfpn_snapshot`; its size is printed first, and a disk without
room for it is refused), and ``--resume`` goes on from FILE in a new process, node for node as
the run would have gone on: the same question and flags are required, a finished threat pass
is not run again, and ``--hours`` counts the CPU of the earlier runs too (the lines go on
counting from them). A larger ``--tt-bits`` than the snapshot's takes its table whole into a
bigger one (no longer node for node), and the snapshot is then rewritten at the new size.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from dfpn_args import add_narrowing, add_order_weight, add_position, narrowed_search, position, run

from fastttt.errors import InvalidArgumentError
from fastttt.search.dfpn import DEFAULT_ORDER_WEIGHT, DEFAULT_PAIRING_NODES, warmup
from fastttt.search.dfpn_snapshot import (
    check_snapshot_target,
    load_snapshot,
    read_snapshot_header,
    require_room,
    save_snapshot,
    snapshot_bytes,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_position(parser)  # the game may also be ultimate or ultimate-open
    add_narrowing(parser)
    add_order_weight(parser)
    parser.add_argument("--hours", type=float, default=1.0, help="CPU time to spend")
    parser.add_argument("--checkpoint", type=float, default=300.0, help="seconds between lines")
    parser.add_argument("--tt-bits", type=int, default=25, help="2**bits rows of 32 bytes")
    parser.add_argument("--threat-seconds", type=float, default=120.0)
    parser.add_argument("--weak-sums", action="store_true", help="df-pn's weak sums")
    parser.add_argument(
        "--pairing-nodes", type=int, default=DEFAULT_PAIRING_NODES, help="first pairing searches"
    )
    parser.add_argument("--log", required=True, help="JSON Lines file, appended to")
    parser.add_argument("--snapshot", type=Path, help="df-pn's table, rewritten at each line")
    parser.add_argument("--resume", action="store_true", help="go on from --snapshot's table")
    args = parser.parse_args()
    if args.resume and args.snapshot is None:
        parser.error("--resume goes on from the table of --snapshot FILE")
    if args.game in ("ultimate", "ultimate-open"):
        if args.snapshot is not None:
            parser.error("--snapshot is for m,n,k boards (df-pn's table)")
        if args.weak_sums:
            parser.error("--weak-sums is for m,n,k boards (Ultimate's df-pn has no such option)")
        if args.order_weight != DEFAULT_ORDER_WEIGHT:
            parser.error("--order-weight is for m,n,k boards (Ultimate's df-pn has estimates)")
        return ultimate_run(args)

    root = position(args)
    spec = root.spec
    search = narrowed_search(spec, args, weak_sums=args.weak_sums, pairing_nodes=args.pairing_nodes)
    question = {"moves": args.moves, "attacker": args.attacker, "reach": args.reach}
    progress = {"cpu": 0.0, "wall": 0.0, "phase": "threats" if not spec.gravity else "dfpn"}
    if args.snapshot is not None:
        progress = _open_snapshot(search, args.snapshot, args.resume, question) or progress
    if progress["phase"] == "settled":
        print(f"{args.snapshot}: the question is settled (the log's last line has the answer)")
        return
    compile_seconds = warmup()
    wall0 = time.perf_counter() - progress["wall"]
    cpu0 = time.process_time() - progress["cpu"]
    budget = args.hours * 3600

    def save() -> None:
        info = dict(question, phase=progress["phase"])
        info.update(cpu=time.process_time() - cpu0, wall=time.perf_counter() - wall0)
        save_snapshot(search, args.snapshot, info=info)

    def record(phase: str, r) -> bool:
        settled = r.proven is not None if phase == "dfpn" else bool(r.proven)
        progress["phase"] = "settled" if settled else "dfpn"
        if args.snapshot is not None:
            save()
        line = {
            "game": spec.name,
            "phase": phase,
            "attacker": args.attacker,
            "wall": round(time.perf_counter() - wall0, 1),
            "cpu": round(time.process_time() - cpu0, 1),
            "nodes": search.nodes,
            "proven": r.proven,
            "phi": r.phi,
            "delta": r.delta,
            "root_moves": r.root_moves,
            "root_solved": r.root_solved,
            "deepest": r.deepest,
            "load": os.getloadavg()[0],
            "tt_bits": args.tt_bits,
            "weak_sums": args.weak_sums,
            "pairing_nodes": args.pairing_nodes,
            "moves": args.moves,
            "zone_nodes": args.zone_nodes,
            "threat_nodes": args.threat_nodes,
            "dependent_threats": args.dependent_threats,
            "threat_offence": args.threat_offence,
            "sibling_work": args.sibling_work,
            "threat_probe_search": args.threat_probe_search,
            "zone_probe_search": args.zone_probe_search,
            "reach": args.reach,
            "order_weight": args.order_weight,
            "compile_seconds": round(compile_seconds, 1),
        }
        with open(args.log, "a") as out:
            out.write(json.dumps(line) + "\n")
        print(json.dumps(line), flush=True)
        return settled

    try:
        if progress["phase"] == "threats":  # a threat-space "no": no threat sequence
            r = search.prove(
                root, args.attacker, mode="threats", seconds=args.threat_seconds, line=False
            )
            if record("threats", r):
                return
        while time.process_time() - cpu0 < budget:
            left = budget - (time.process_time() - cpu0)
            r = search.prove(
                root,
                args.attacker,
                seconds=min(args.checkpoint, left),
                line=False,
                attacker_reach=args.reach,
            )
            if record("dfpn", r):
                return
    except KeyboardInterrupt:
        if args.snapshot is None:
            raise
        save()  # the table stays valid when Ctrl-C stops the kernel
        print(f"interrupted: the table is in {args.snapshot}; --resume goes on", flush=True)
        sys.exit(130)


def _open_snapshot(search, path: Path, resume: bool, question: dict) -> dict | None:
    """The run so far (``cpu`` and ``wall`` seconds, the ``phase`` to go on with) from the
    snapshot ``path`` of the same ``question``, loaded into ``search``, when resuming; when
    not, None (a fresh start), after refusing a ``path`` that exists (an earlier run's table) or
    cannot be written, or a disk without room for the snapshot."""
    if resume:
        info = read_snapshot_header(path)["info"]
        if not {"cpu", "wall", "phase"} <= set(info):
            raise InvalidArgumentError(f"{path}: not a snapshot of frontier_run's (info {info})")
        asked = {key: info.get(key) for key in question}
        if asked != question:
            raise InvalidArgumentError(
                f"{path}: a snapshot of the question {asked}, this run asks {question}"
            )
        load_snapshot(search, path)
        print(f"resuming from {path}: {search.nodes:,} nodes, {info['cpu']:.0f} CPU-s")
        return {"cpu": float(info["cpu"]), "wall": float(info["wall"]), "phase": info["phase"]}
    check_snapshot_target(path)
    if path.exists():
        raise InvalidArgumentError(
            f"{path}: exists (an earlier run's table): --resume goes on from it; remove it to"
            " start over"
        )
    size = snapshot_bytes(search)
    require_room(path.parent, size)
    print(f"snapshot: {size / 2**30:.2f} GiB in {path}, rewritten at each line")
    return None


def ultimate_run(args) -> None:
    """The Ultimate run of the module docstring: checkpoints of about ``args.checkpoint``
    seconds, counted in nodes (the kernel takes a node budget; the first 2 M nodes time it)."""
    from fastttt.games.ultimate.state import UltimateState
    from fastttt.search.ultimate.proof import Prover

    root = UltimateState(open_won_boards=args.game == "ultimate-open")
    prover = Prover(tt_bits=args.tt_bits)
    prover.prove(UltimateState(), 0, max_nodes=1000)  # compiles the kernel
    wall0, cpu0 = time.perf_counter(), time.process_time()
    budget = args.hours * 3600
    nodes, chunk = 0, 2_000_000
    while time.process_time() - cpu0 < budget:
        t0 = time.perf_counter()
        r = prover.prove(root, args.attacker, max_nodes=chunk)
        nodes += r.nodes
        rate = r.nodes / max(time.perf_counter() - t0, 1e-3)
        first_moves = {"proven": 0, "disproven": 0, "open": 0, "unseen": 0}
        for move in root.legal_moves():
            stored = prover.stored(root.play(move))
            kind = "unseen" if stored is None else "proven" if stored[0] == 0 else "disproven"
            if stored is not None and stored[0] and stored[1]:
                kind = "open"
            first_moves[kind] += 1
        line = {
            "game": args.game,
            "attacker": args.attacker,
            "wall": round(time.perf_counter() - wall0, 1),
            "cpu": round(time.process_time() - cpu0, 1),
            "nodes": nodes,
            "status": r.status,
            "pn": r.pn,
            "dn": r.dn,
            "first_moves": first_moves,
            "load": os.getloadavg()[0],
            "tt_bits": args.tt_bits,
        }
        with open(args.log, "a") as out:
            out.write(json.dumps(line) + "\n")
        print(json.dumps(line), flush=True)
        if r.status != "unknown":
            return
        left = budget - (time.process_time() - cpu0)
        chunk = max(1_000_000, int(rate * min(args.checkpoint, max(left, 1.0))))


if __name__ == "__main__":
    run(main)
