"""df-pn's nodes a CPU-second on one question, with a fixed node budget so that two versions of
the kernel can be compared on the same search (issue 19)::

    .venv/bin/python benchmarks/dfpn_rate.py 15x15k5 --moves 112,97,98 --nodes 5e6 \\
        --zone-nodes 64 --threat-nodes 16 --reach 2

Prints the answer, the CPU seconds (compiling excluded), the nodes (the probes' among them),
the rate, the root's numbers, the defender's nodes restricted to a relevance zone (those
whose zone came from the zone cache among them) and the load average. The same node count
and root numbers from two versions say that they searched the same tree. ``--children N``
then lists the N moves of the root with the least proof numbers in the table
(:meth:`~fastttt.search.dfpn.ProofSearch.child_numbers`): where df-pn would go on, which a
split one ply deeper can ask on its own (``root_split_run.py --moves ...,MOVE``).
"""

from __future__ import annotations

import argparse
import os
import time

from dfpn_args import add_narrowing, add_order_weight, add_position, narrowed_search, position, run

from fastttt.search.dfpn import warmup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_position(parser)
    add_narrowing(parser)
    add_order_weight(parser)
    parser.add_argument("--nodes", type=float, default=1e6, help="the node budget")
    parser.add_argument("--tt-bits", type=int, default=22)
    parser.add_argument(
        "--children", type=int, default=0, help="list this many root moves by proof number"
    )
    args = parser.parse_args()
    pos = position(args)
    warmup()
    search = narrowed_search(pos.spec, args)
    cpu = time.process_time()
    r = search.prove(
        pos,
        args.attacker,
        max_nodes=int(args.nodes),
        line=False,
        proof_size=False,
        attacker_reach=args.reach,
    )
    cpu = time.process_time() - cpu
    print(
        f"{args.game} [{args.moves}]: proven={r.proven} cpu={cpu:.2f}s nodes={r.nodes:,} "
        f"(probes {search.threat_probe_nodes:,}; pairing searches "
        f"{search.pairing_search_nodes:,} more) {r.nodes / cpu / 1e3:.0f} k nodes/s "
        f"phi/delta={r.phi}/{r.delta} zones={search.zone_cuts:,} "
        f"(from the cache {search.zone_cache_hits:,}) siblings={search.sibling_zones:,} "
        f"(moves cut {search.sibling_zone_moves_pruned:,}) load={os.getloadavg()[0]:.1f}"
    )
    numbers = search.child_numbers(pos, args.attacker, attacker_reach=args.reach)
    for move, (proof, disproof) in sorted(numbers.items(), key=lambda kv: kv[1])[: args.children]:
        print(f"  move {move}: proof {proof:,}, disproof {disproof:,}")


if __name__ == "__main__":
    run(main)
