"""Time ``--all-moves`` (every move's exact score) on random Connect Four positions of a given
number of stones, read from the opening book where it holds them: the `--all-moves` check of
issue 20.

    python benchmarks/book_all_moves.py [STONES] [COUNT] [SEED] [BOOK]   # defaults: 7 30 1, shipped

Each position is a random game of STONES moves (uniform columns, none already won), answered
by the line filter (``fastttt solve connect4 --stdin --all-moves --nodes``) in one process:
its nodes and microseconds per line, then their median and maximum.
"""

from __future__ import annotations

import io
import random
import statistics
import sys

from fastttt.games.mnk.board import Position
from fastttt.games.registry import load_game
from fastttt.search import book as books
from fastttt.search.connect4 import run_filter


def random_line(spec, stones: int, rng: random.Random) -> str:
    """A random game of ``stones`` moves that nobody has won, as 1-based column digits."""
    while True:
        pos, moves = Position.empty(spec), []
        for _ in range(stones):
            if pos.is_over():
                break
            move = rng.choice(pos.legal_moves())
            pos, moves = pos.play(move), [*moves, move]
        if len(moves) == stones and not pos.is_over():
            return "".join(str(m + 1) for m in moves)


def main(stones: int = 7, count: int = 30, seed: int = 1, book_path: str | None = None) -> None:
    spec = load_game("connect4")
    book = books.shipped(spec) if book_path is None else books.load(book_path, spec)
    rng = random.Random(seed)
    lines = [random_line(spec, stones, rng) for _ in range(count)]
    out, err = io.StringIO(), io.StringIO()
    run_filter(spec, lines, out, err, all_moves=True, nodes=True, book=book)
    rows = [line.split() for line in out.getvalue().splitlines()]
    nodes = [int(row[-2]) for row in rows]
    micros = [int(row[-1]) for row in rows]
    for row in rows:
        print(" ".join(row))
    depth = book.depth if book is not None else "no book"
    print(
        f"{count} positions of {stones} stones (book depth {depth}): nodes median "
        f"{statistics.median(nodes):,.0f}, max {max(nodes):,}; time median "
        f"{statistics.median(micros) / 1e6:.6f} s, max {max(micros) / 1e6:.6f} s"
    )
    assert not err.getvalue(), err.getvalue()


if __name__ == "__main__":
    args = sys.argv[1:]
    main(*(int(a) for a in args[:3]), *args[3:4])
