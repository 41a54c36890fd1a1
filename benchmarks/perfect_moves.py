"""Time every move of ``perfect`` against ``random`` on a board, one line a move, then the
maximum and the median: the per-move check of issue 20.

    python benchmarks/perfect_moves.py [GAMES] [SEED] [GAME]   # defaults: 10 1 connect4

Games alternate sides (perfect first in even games). Wall time per move, in one process: the
kernels' compilation (or their cache load) is paid before the games and reported apart.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from fastttt.games.registry import load_game
from fastttt.play.players import PerfectPlayer, RandomPlayer
from fastttt.search.alphabeta import warmup


def main(games: int = 10, seed: int = 1, game: str = "connect4") -> None:
    spec = load_game(game)
    rng = random.Random(seed)
    perfect, other = PerfectPlayer(), RandomPlayer()
    t0 = time.perf_counter()
    perfect.choose(spec.initial(), random.Random(0))  # read the book
    warmup()  # compile or load the search kernels: the book answers the first moves
    print(f"warm-up (first move, compilation or cache load): {time.perf_counter() - t0:.2f} s")
    times: list[tuple[float, int, int, str]] = []
    for g in range(games):
        state = spec.initial()
        played: list[str] = []
        players = (perfect, other) if g % 2 == 0 else (other, perfect)
        while not state.is_over():
            player = players[state.ply % 2]
            t = time.perf_counter()
            move = player.choose(state, rng)
            if player is perfect:
                times.append((time.perf_counter() - t, g, state.ply, " ".join(played)))
            played.append(spec.format_move(state, move))
            state = state.play(move)
        won = {None: "a draw", 0: "first player wins", 1: "second player wins"}[state.winner()]
        side = "first" if g % 2 == 0 else "second"
        print(f"game {g + 1} (perfect {side}): {won} after {state.ply} plies", flush=True)
    slow = sorted(times, reverse=True)[:5]
    print(f"{len(times)} perfect moves: median {statistics.median(t[0] for t in times):.4f} s")
    for t, g, ply, moves in slow:
        print(f"  {t:.3f} s  game {g + 1}, ply {ply}, after --moves {moves!r}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]), *sys.argv[3:4])
