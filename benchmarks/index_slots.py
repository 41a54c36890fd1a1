"""Slots per reachable position of the gravity indexes, exact (issue 22, item 1): today's
heights index (:class:`fastttt.tables.index.LayerIndex`: every colouring of every height
vector) against the column-runs index (:mod:`fastttt.tables.runs_index`: no buried vertical
line; ``strict``: a top line only the last mover's, k long, in one column), each without and
with the left-right mirror (one height vector of each mirror pair keeps a block with all its
colourings, as LayerIndex and ``ColumnRunsIndex(symmetry=True)`` do). Every figure comes
from closed formulas (Burnside, generating functions), so the whole table takes a second.

Positions are every position reachable from the empty board, mirror images counted twice
(John Tromp's counts; 5x5 from this project's layered solve), so ``/pos`` is slots per
reachable position whatever the symmetry.

    python benchmarks/index_slots.py [GAME ...]     # default: 4x4k4g to connect4 (6x7k4g)
"""

from __future__ import annotations

import sys
import time

from fastttt.games.facts import known_boards, known_counts
from fastttt.games.mnk.spec import as_spec
from fastttt.tables.index import LayerIndex
from fastttt.tables.runs_index import column_runs_sizes

# boards are ROWSxCOLS: connect4 is 6 rows x 7 columns
BOARDS = ("4x4k4g", "4x5k4g", "5x4k4g", "5x5k4g", "5x6k4g", "6x5k4g", "6x6k4g", "connect4")
BYTES_A_SLOT = 0.25  # a win/draw/loss value layer: 2 bits a slot, before compression


def known_positions() -> dict[str, int]:
    """Reachable positions by spec name, where known."""
    known = {as_spec(k.game).name: sum(k.by_ply) for k in known_counts()}
    known |= {
        kb.spec.name: int(kb.facts["reachable"]) for kb in known_boards() if "reachable" in kb.facts
    }
    known[as_spec("5x5k4g").name] = 69_763_700  # docs/solving.md (the layered solve)
    known[as_spec("5x6k4g").name] = 2_818_972_642  # Tromp; the layered solve here agrees
    known[as_spec("6x6k4g").name] = 69_173_028_785  # Tromp (issue 22)
    return known


def board_slots(game: str) -> dict[str, int]:
    """Total slots of each index of ``game``."""
    return {
        "heights": sum(LayerIndex(game, symmetry=False).layer_sizes),
        "heights mirror": sum(LayerIndex(game, symmetry=True).layer_sizes),
        "buried": sum(column_runs_sizes(game, strict=False)),
        "strict": sum(column_runs_sizes(game)),
        "strict mirror": sum(column_runs_sizes(game, mirror=True)),
    }


def main(games: tuple[str, ...] = BOARDS) -> None:
    t0 = time.perf_counter()
    known = known_positions()
    columns = ("heights", "heights mirror", "buried", "strict", "strict mirror")
    print(f"{'board':9} {'positions':>10}" + "".join(f" {c:>16} {'/pos':>6}" for c in columns))
    rows = {}
    for game in games:
        spec = as_spec(game)
        slots = rows[spec.short_name] = board_slots(game)
        positions = known.get(spec.name)
        line = f"{spec.short_name:9} " + (f"{positions:10.3e}" if positions else f"{'-':>10}")
        for c in columns:
            ratio = f"{slots[c] / positions:6.2f}" if positions else f"{'-':>6}"
            line += f" {slots[c]:16.4e} {ratio}"
        print(line, flush=True)
    if "connect4" in rows:
        c4 = rows["connect4"]
        today, new = c4["heights mirror"], c4["strict mirror"]
        print(
            f"\nconnect4 (6 rows x 7 cols), with the mirror: {new / 1e12:.1f} T slots against "
            f"today's {today / 1e12:.1f} T ({today / new:.2f}x fewer; "
            f"{new * BYTES_A_SLOT / 1e12:.1f} TB of 2-bit values against "
            f"{today * BYTES_A_SLOT / 1e12:.1f} TB); without it {c4['strict'] / 1e12:.1f} T "
            f"against {c4['heights'] / 1e12:.1f} T"
        )
    print(f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main(tuple(sys.argv[1:]) or BOARDS)
