"""Relevance zones and the attacker's reach against plain df-pn on one question, each setting
with a fresh table and the same CPU budget (issue 19)::

    .venv/bin/python benchmarks/defender_zones.py 15x15k5 --moves 112,97,98 --seconds 60 \
        0/0/0 64/0/0 64/16/0 64/16/2
    .venv/bin/python benchmarks/defender_zones.py 7x7k5 --seconds 120 0/0/0 16/0/0

Each setting is ``zone_nodes/threat_nodes/attacker_reach`` of
:class:`fastttt.search.dfpn.ProofSearch`. One line each: the answer, CPU seconds, nodes (the
probes' among them), the root's proof and disproof numbers from the side to move, the
defender's nodes restricted by a zone and the moves they left out, and the load average.
"""

from __future__ import annotations

import argparse
import os
import time

from dfpn_args import add_position, position, run

from fastttt.search.dfpn import ProofSearch, warmup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_position(parser)
    parser.add_argument("settings", nargs="+", help="zone_nodes/threat_nodes/attacker_reach")
    parser.add_argument("--seconds", type=float, default=60.0, help="wall-time cap a setting")
    parser.add_argument("--tt-bits", type=int, default=22)
    args = parser.parse_args()
    pos = position(args)
    spec = pos.spec
    warmup()
    for setting in args.settings:
        zone, threat, reach = (int(x) for x in setting.split("/"))
        search = ProofSearch(spec, tt_bits=args.tt_bits, zone_nodes=zone, threat_nodes=threat)
        cpu = time.process_time()
        result = search.prove(
            pos, args.attacker, seconds=args.seconds, line=False, attacker_reach=reach
        )
        cpu = time.process_time() - cpu
        print(
            f"{args.game} {setting}: proven={result.proven} cpu={cpu:.1f}s "
            f"nodes={result.nodes:,} (probes {search.threat_probe_nodes:,}) "
            f"phi/delta={result.phi}/{result.delta} "
            f"zone cuts={search.zone_cuts:,} pruned={search.zone_moves_pruned:,} "
            f"load={os.getloadavg()[0]:.1f}",
            flush=True,
        )


if __name__ == "__main__":
    run(main)
