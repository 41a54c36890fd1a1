"""Where the gravity index spends its slots (issue 22, item 1): for each layer of a board, a
uniform sample of slots, unranked and sorted into

- ``live``: no completed line, canonical (the only positions a retrograde pass must store:
  a child that completes a line is a win for its mover, known without a slot);
- ``won``: the last mover has a line and the other player none (may be reachable, terminal);
- ``waste``: the other player has a line too, or the slot is a non-canonical colouring of a
  mirror-symmetric block (never a position).

Prints, per board, the slots of today's index and the estimated live and won slots, with the
exact position counts where they are known (``fastttt/data/known_counts.txt`` for 7x6), so that
the size of an index over live colourings only can be judged before it is built.

    python benchmarks/index_waste.py [SAMPLES_PER_LAYER] [GAME ...]
    # defaults: 20000 samples a layer; 4x5k4g 5x5k4g 5x6k4g 6x6k4g 6x7k4g
"""

from __future__ import annotations

import sys
import time

import numpy as np

from fastttt.games.facts import known_boards, known_counts
from fastttt.games.mnk.board import line_masks
from fastttt.games.mnk.spec import as_spec
from fastttt.tables.index import LayerIndex

BOARDS = ("4x5k4g", "5x5k4g", "5x6k4g", "6x6k4g", "6x7k4g")


def has_line(stones: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """For each bitboard of ``stones``, whether it covers one of ``lines``."""
    return ((stones[:, None] & lines[None, :]) == lines[None, :]).any(axis=1)


def classify(game: str, samples: int, rng: np.random.Generator) -> dict[str, float]:
    spec = as_spec(game)
    index = LayerIndex(spec, symmetry=True)
    lines = np.array(line_masks(spec), dtype=np.uint64)
    totals = {"slots": 0.0, "live": 0.0, "won": 0.0, "waste": 0.0}
    for n, size in enumerate(index.layer_sizes):
        if size == 0:
            continue
        take = min(size, samples)
        slots = np.arange(size, dtype=np.int64) if take == size else rng.integers(0, size, take)
        firsts, seconds = index.unrank_many(n, slots)
        back = index.rank_many(n, firsts, seconds)  # a non-canonical colouring ranks elsewhere
        canonical = back == slots
        last, other = (firsts, seconds) if n % 2 == 1 else (seconds, firsts)
        last_line, other_line = has_line(last, lines), has_line(other, lines)
        live = canonical & ~last_line & ~other_line
        won = canonical & last_line & ~other_line
        scale = size / take
        totals["slots"] += size
        totals["live"] += live.sum() * scale
        totals["won"] += won.sum() * scale
        totals["waste"] += (take - live.sum() - won.sum()) * scale
        index.forget(set())
    return totals


def main(samples: int = 20_000, games: tuple[str, ...] = BOARDS) -> None:
    rng = np.random.default_rng(22)
    known = {as_spec(k.game).name: sum(k.by_ply) for k in known_counts()}
    known |= {
        kb.spec.name: int(kb.facts["reachable"]) for kb in known_boards() if "reachable" in kb.facts
    }
    known[as_spec("5x6k4g").name] = 2_818_972_642  # Tromp; the layered solve here agrees
    known[as_spec("6x6k4g").name] = 69_173_028_785  # Tromp (issue 22)
    print(f"{'board':8} {'slots':>10} {'live':>10} {'won':>10} {'waste':>7} {'positions':>10}")
    for game in games:
        t0 = time.perf_counter()
        t = classify(game, samples, rng)
        positions = known.get(as_spec(game).name)
        pos_text = f"{positions:10.3e}" if positions else f"{'-':>10}"
        print(
            f"{game:8} {t['slots']:10.3e} {t['live']:10.3e} {t['won']:10.3e} "
            f"{t['waste'] / t['slots']:7.1%} {pos_text}   ({time.perf_counter() - t0:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000, tuple(sys.argv[2:]) or BOARDS)
