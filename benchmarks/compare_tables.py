"""Compare two win/draw/loss folders of one board slot by slot, chunk by chunk: a reachable
table (``solve --wdl``) against a live one (``solve --wdl --live``), or any two.

Prints the slots both hold (and how many of those differ: 0 for two correct tables), the
slots only the second holds (live: colourings no game reaches) and the slots only the first
holds (reachable: finished games, which a live table does not store). Layers that one of them
does not keep (``--keep-every``) are left out and counted.

    python benchmarks/compare_tables.py REACHABLE_DIR LIVE_DIR
"""

from __future__ import annotations

import argparse

import numpy as np

from fastttt.tables.layer_store import LayerStore


def compare(first: str, second: str) -> dict[str, int]:
    a, b = LayerStore.open(first), LayerStore.open(second)
    if not (a.is_packed("value") and b.is_packed("value")):
        raise SystemExit("both folders must hold win/draw/loss tables (solve --wdl)")
    for field in ("game", "index", "symmetry", "layer_sizes", "chunk"):
        if a.manifest[field] != b.manifest[field]:
            raise SystemExit(f"the folders differ in {field}: not the same slots")
    counts = {"both": 0, "differ": 0, "second only": 0, "first only": 0, "layers left out": 0}
    for n in range(len(a.manifest["layer_sizes"])):
        if not (a.is_complete("value", n) and b.is_complete("value", n)):
            counts["layers left out"] += 1
            continue
        for chunk in range(a.chunk_count(n)):
            x = np.asarray(a.read_chunk("value", n, chunk))
            y = np.asarray(b.read_chunk("value", n, chunk))
            for shift in (0, 2, 4, 6):  # the four slots of each byte
                u, v = (x >> shift) & 3, (y >> shift) & 3
                both = (u != 0) & (v != 0)
                counts["both"] += int(np.count_nonzero(both))
                counts["differ"] += int(np.count_nonzero(both & (u != v)))
                counts["second only"] += int(np.count_nonzero((u == 0) & (v != 0)))
                counts["first only"] += int(np.count_nonzero((u != 0) & (v == 0)))
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", help="a finished win/draw/loss folder (say, reachable)")
    parser.add_argument("second", help="another of the same board (say, live)")
    args = parser.parse_args()
    for name, count in compare(args.first, args.second).items():
        print(f"{name:>12} {count:16,d}")


if __name__ == "__main__":
    main()
