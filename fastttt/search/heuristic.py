"""Heuristic (line-count) evaluation and depth-limited search for any m,n,k-game.

Score convention, ONE consistent side: every score returned here is from the SIDE TO MOVE's
point of view (positive: good for the player to move). With ``L`` the number of lines of ``k``
cells on the board::

    finished, the side to move has a line      +(L + 1)   (cannot happen in a legal game)
    finished, the opponent has a line          -(L + 1)
    finished, full board                        0
    otherwise (a leaf at depth 0)               free(mover) - free(opponent)

where ``free(p)`` counts the lines holding no stone of ``p``'s opponent. The search is a
negamax over ``depth`` plies with this leaf value, so every leaf is scored from one side
whatever its depth parity. This differs on purpose from the td-jeu-de-morpion handout, whose
``minimax_heur`` reads a depth-0 leaf from the side to move THERE but uses it as J0's value;
:mod:`fastttt.compat.morpion` keeps that quirk so that the handout's printed values hold.

Wins are not discounted by distance: a win in 1 and a win in 5 both score ``L + 1``. The
convention is one of those of :mod:`fastttt.values`.

Kernels: :func:`fastttt.kernels.heuristic.static_value` behind :func:`line_count_eval`,
:func:`fastttt.kernels.heuristic.root_kernel` / ``search_kernel`` behind :func:`search`.
The first call compiles the kernels (a few seconds; cached on disk afterwards).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from fastttt.errors import FastTTTError, require_int
from fastttt.games.mnk.board import Position, win_masks
from fastttt.games.mnk.spec import GameSpec
from fastttt.interrupt import run
from fastttt.kernels import heuristic as K
from fastttt.values import relative

METHODS = {
    "minimax": 0,  # full-width, no memo: the textbook tree
    "memo": K.OPT_MEMO,  # full-width with a transposition table of exact values
    "alphabeta": K.OPT_ALPHABETA | K.OPT_MEMO,  # alpha-beta with a table of bounds
}


@cache
def _geometry(spec: GameSpec) -> tuple[np.ndarray, np.ndarray]:
    return win_masks(spec), K.geometry(spec.rows, spec.cols, spec.gravity)


def _check_position(pos: Position) -> None:
    if not isinstance(pos, Position):
        raise FastTTTError(f"expected a fastttt Position, got {type(pos).__name__}")


def line_count_eval(pos: Position) -> int:
    """Line-count value of ``pos`` from the side to move's view (see the module docstring)."""
    _check_position(pos)
    masks, geo = _geometry(pos.spec)
    v = int(
        K.static_value(
            np.uint64(pos.first), np.uint64(pos.second), pos.to_move, masks, geo[0], False
        )
    )
    return relative(v, pos.to_move)  # the kernel scores from the first player's side


def search(
    pos: Position,
    depth: int,
    method: str = "alphabeta",
    *,
    table_log2: int = 18,
    stats: np.ndarray | None = None,
) -> tuple[int, list[int], int]:
    """Depth-limited negamax with :func:`line_count_eval` leaves.

    Returns ``(score, best_moves, nodes)``: ``score`` from the side to move's view (see the
    module docstring), ``best_moves`` every legal move (cells, or columns with gravity) whose
    score equals it, in move order, and ``nodes`` the number of positions visited. A finished
    position, or ``depth == 0``, gives its static score and no moves.

    ``method``: ``"minimax"`` (full tree, no memo), ``"memo"`` (full width with a
    transposition table) or ``"alphabeta"`` (alpha-beta with a table of bounds): the three give
    the same score and moves; alpha-beta visits the fewest positions.

    ``stats``: the kernel's counters and stop word (``int64[K.STATS_STOP + 1]``), for another
    thread to stop the search by setting ``stats[K.STATS_STOP]``; its result is then meaningless.
    """
    _check_position(pos)
    # deeper than the empty cells searches the same tree
    depth = min(require_int(depth, "depth", 0, 2**31), pos.spec.cells)
    if method not in METHODS:
        raise FastTTTError(f"unknown method {method!r}; use one of {', '.join(METHODS)}")
    if pos.is_over() or depth == 0:
        return line_count_eval(pos), [], 1
    masks, geo = _geometry(pos.spec)
    opts = METHODS[method]
    tt = K.new_table(table_log2 if opts & K.OPT_MEMO else 0)
    if stats is None:
        stats = np.zeros(K.STATS_STOP + 1, dtype=np.int64)  # nodes, table hits, stop word
    stats[: K.STATS_STOP] = 0
    bits = np.zeros(64, dtype=np.uint64)
    vals = np.zeros(64, dtype=np.int64)
    mover = pos.to_move
    nm, best = run(
        K.root_kernel,
        np.uint64(pos.first),
        np.uint64(pos.second),
        mover,
        int(depth) - 1,
        masks,
        geo,
        opts,
        tt,
        stats,
        bits,
        vals,
        stop=stats,
        slot=K.STATS_STOP,
    )
    moves = pos.legal_moves()
    best_moves = [moves[i] for i in range(nm) if vals[i] == best]
    score = relative(best, mover)
    return score, best_moves, int(stats[0]) + 1
