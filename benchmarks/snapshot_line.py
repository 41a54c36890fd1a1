"""Where a long df-pn question stands: the line its snapshot finds most promising (issue 19)::

    .venv/bin/python benchmarks/snapshot_line.py r84.dfpn --plies 30

The snapshot is one that ``frontier_run.py --snapshot`` or ``root_split_run.py --snapshots``
wrote; its header says the question (the moves or the split's position and move, the attacker
and the reach). Each line of the output is a ply of
:meth:`~fastttt.search.dfpn.ProofSearch.promising_line`: the side, the move (cell and row,
column), the proof and disproof numbers after it from the attacker's side, and how many of the
position's children the table holds and leaves open. The ply whose open children stay few
while the numbers stay large is the subtree that keeps the question open; a split there asks
it on its own (``root_split_run.py --moves ...``). Loading needs the snapshot's memory.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from dfpn_args import run

from fastttt.errors import TableFileError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import GameSpec
from fastttt.search.dfpn_snapshot import open_snapshot


def question(header: dict, path: Path) -> tuple[Position, int, int]:
    """``(position, attacker, reach)`` of the question the snapshot's header names."""
    spec, info = GameSpec(**header["game"]), header["info"]
    try:
        if "moves" in info:
            moves = [int(m) for m in str(info["moves"]).split(",") if m]
            pos = Position.from_moves(spec, moves)
        else:
            pos = Position.from_text(spec, info["position"]).play(info["move"])
        return pos, int(info["attacker"]), int(info["reach"])
    except (KeyError, TypeError, ValueError) as e:
        raise TableFileError(f"{path}: its info does not name a question ({info}): {e}") from None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("snapshot", type=Path)
    parser.add_argument("--plies", type=int, help="longest line shown (default: all)")
    args = parser.parse_args()
    search, header = open_snapshot(args.snapshot)
    pos, attacker, reach = question(header, args.snapshot)
    cols = search.geometry.cols
    print(f"{args.snapshot}: {header['nodes']:,} nodes; attacker {'XO'[attacker]}, reach {reach}")
    for step in search.promising_line(pos, attacker, reach, args.plies):
        side = "XO"[pos.to_move]
        print(
            f"{side} {step.move:>4} ({step.move // cols},{step.move % cols})"
            f"  proof {step.proof:,} disproof {step.disproof:,}"
            f"  children held {step.held}, open {step.open}"
        )
        pos = pos.play(step.move)


if __name__ == "__main__":
    run(main)
