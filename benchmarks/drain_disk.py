"""Disk of a live keep-every solve, projected from a measured size a live slot: the peak while
solving with layers dropped whole and with drains (:mod:`fastttt.tables.drain`), and the
finished table, for K = 4 to 8; beside them the plan's own estimate (what the solve asks for).

The drain profiles come from the chunks each chunk reads (:func:`~fastttt.tables.drain.
drain_profile`, measured once for every layer and shared by every K); the live slots of each
layer from :meth:`~fastttt.tables.layered.Plan.live_slots`. ``--bytes`` is the size of a live
slot on disk: 0.218 measured on Connect Four 6x6 with 16 Mi-slot chunks, blocks included.

    python benchmarks/drain_disk.py [GAME] [--bytes 0.218] [--chunk SLOTS]   # default: connect4
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

from fastttt.memory import format_bytes
from fastttt.tables.drain import drain_profile
from fastttt.tables.layer_store import BIG_CHUNK
from fastttt.tables.layered import plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="connect4")
    parser.add_argument("--bytes", type=float, default=0.218, help="bytes a live slot on disk")
    parser.add_argument("--chunk", type=int, default=BIG_CHUNK, help="slots a chunk")
    args = parser.parse_args()
    base = plan(args.game, on_disk=True, values="wdl", positions="live", chunk=args.chunk)
    started = time.process_time()
    live = base.live_slots()
    last = len(base.sizes) - 1
    profiles = []
    for n in range(last + 1):
        measured = n < last and base.sizes[n] and base.sizes[n + 1]
        profiles.append(drain_profile(base.index, base.sizes, n, base.chunk) if measured else None)
        base.index.forget({n, n + 1})
    print(
        f"{base.spec.name}: live slots and drain profiles in {time.process_time() - started:.0f} "
        f"CPU-s; {args.bytes} bytes a live slot"
    )
    print("K  peak, layers dropped whole  with drains  finished table  plan asks")
    on_disk = [args.bytes * slots for slots in live]
    for keep in range(4, 9):
        whole = replace(base, keep_every=keep, _live_slots=live)
        draining = set(whole.draining_layers())
        drained = replace(
            whole,
            drain_profiles=tuple(p if n in draining else None for n, p in enumerate(profiles)),
        )
        finished = sum(on_disk[n] for n in range(0, last + 1, keep))
        print(
            f"{keep}  {whole.held_at_peak(on_disk) / 1e9:>24.1f} GB  "
            f"{drained.held_at_peak(on_disk) / 1e9:>8.1f} GB  {finished / 1e9:>11.1f} GB  "
            f"{format_bytes(drained.disk_bytes):>9}"
        )


if __name__ == "__main__":
    main()
