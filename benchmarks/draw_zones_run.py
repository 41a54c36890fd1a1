"""How small the zones of a draw get when the attacker passes at every node, against df-pn's
own proof of the same draw (:mod:`fastttt.search.draw_zones`; issue 19)::

    .venv/bin/python benchmarks/draw_zones_run.py 7x7k5 --moves 24,25 --max-positions 2e6

First df-pn answers "does the attacker win?" and counts its proof graph; then the zone proof
runs on the same table. One JSON line: both sizes, the root's zone against its empty cells,
the attacker's moves that its passes pruned against those it had there, the pairing leaves and
the share of the empty cells their pairs take, CPU seconds and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from dfpn_args import add_position, position, run

from fastttt.search.draw_zones import DrawZones


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_position(parser)
    parser.add_argument("--max-positions", type=float, default=1e6, help="of the zone proof")
    parser.add_argument("--tt-bits", type=int, default=22)
    args = parser.parse_args()
    pos = position(args)
    zones = DrawZones(pos.spec, tt_bits=args.tt_bits, max_positions=int(args.max_positions))
    cpu = time.process_time()
    plain = zones.search.prove(pos, args.attacker, proof_size=True, line=False)
    plain_cpu = time.process_time() - cpu
    r = zones.zone(pos, args.attacker)
    empty = pos.spec.cells - pos.occupied.bit_count()
    out = {
        "game": args.game,
        "moves": args.moves,
        "attacker_wins": plain.proven,
        "dfpn_nodes": plain.nodes,
        "dfpn_proof": plain.proof_size,
        "dfpn_cpu_s": round(plain_cpu, 1),
        "zone_proof_positions": r.positions,
        "complete": r.complete,
        "root_zone": None if r.zone is None else len(r.zone),
        "root_empty": empty,
        "passes": r.passes,
        "passes_held": r.passes_held,
        "moves_pruned": r.moves_pruned,
        "moves_at_held_passes": r.pass_moves,
        "pairing_leaves": r.pairing_leaves,
        "pairing_share": round(r.pairing_share, 3),
        "zone_dfpn_nodes": r.dfpn_nodes,
        "zone_cpu_s": round(time.process_time() - cpu - plain_cpu, 1),
        "load": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    run(main)
