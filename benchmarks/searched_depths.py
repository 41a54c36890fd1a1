"""What a searched depth costs (:mod:`fastttt.search.table_depths`): random positions of a ply,
each solved plainly and within the sign a win/draw/loss table would give
(:meth:`~fastttt.search.alphabeta.Searcher.solve_between`), on a fresh searcher each; mean
and maximum CPU a position and mean nodes, the two scores checked equal.

    python benchmarks/searched_depths.py [GAME] [POSITIONS] [PLIES]   # 5x6k4g 20 0,4,8,12,16
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.search.alphabeta import Searcher
from fastttt.values import score_base


def sign_range(spec, ply: int, score: int) -> tuple[int, int]:
    base = score_base(spec)
    if score > 0:
        return 1, base - (ply // 2 + 1)
    if score < 0:
        return -(base - ((ply + 1) // 2 + 1)), -1
    return 0, 0


def random_position(spec, ply: int, rng: np.random.Generator) -> Position | None:
    pos = Position.empty(spec)
    while pos.ply < ply and not pos.is_over():
        pos = pos.play(int(rng.choice(pos.legal_moves())))
    return None if pos.is_over() else pos


def main(game: str = "5x6k4g", count: int = 20, plies: str = "0,4,8,12,16") -> None:
    spec = as_spec(game)
    rng = np.random.default_rng(1)
    for ply in (int(p) for p in plies.split(",")):
        cpu, nodes, worst = [0.0, 0.0], [0, 0], [0.0, 0.0]
        done = 0
        while done < count:
            pos = random_position(spec, ply, rng)
            if pos is None:
                continue
            done += 1
            for i in (0, 1):
                s = Searcher(spec)
                t = time.process_time()
                if i == 0:
                    score = s.solve(pos).score
                else:
                    assert s.solve_between(pos, *sign_range(spec, ply, score)) == score, pos
                took = time.process_time() - t
                cpu[i] += took
                nodes[i] += s.nodes
                worst[i] = max(worst[i], took)
        print(
            f"{game} ply {ply}, {count} positions: solve {cpu[0] / count:.3f} s "
            f"(max {worst[0]:.2f}), {nodes[0] / count:,.0f} nodes; within the sign "
            f"{cpu[1] / count:.3f} s (max {worst[1]:.2f}), {nodes[1] / count:,.0f} nodes "
            f"(load {os.getloadavg()[0]:.1f})",
            flush=True,
        )


if __name__ == "__main__":
    main(*sys.argv[1:2], *(int(a) for a in sys.argv[2:3]), *sys.argv[3:4])
