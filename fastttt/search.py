"""Exact search beyond the tables: negamax alpha-beta with a transposition table.

Score convention (side to move, the Connect Four benchmark one, generalised; see
:mod:`fastttt.values`): 0 draw; a win scores ``score_base(spec) - s`` where ``s`` is the number
of stones the winner has placed when it completes its line (sooner wins score higher); a loss
scores minus the opponent's win score. ``score_base(spec) = (cells + 1) // 2 + 1``: 22 for
Connect Four (7 x 6), ``cells // 2 + 1`` on every even board. Weak mode returns only the sign:
+1 win, 0 draw, -1 loss.

Kernels: :func:`fastttt.kernels.negamax.solve_kernel` (iterated null-window search) behind
:func:`solve_position`, :func:`fastttt.kernels.negamax.negamax` (its return contract is in its
docstring). The transposition table of a :class:`Searcher` is kept between calls: its entries
are exact bounds on exact scores, true whatever position is searched next. Ctrl-C stops a
search within milliseconds (:mod:`fastttt.interrupt`) and raises ``KeyboardInterrupt``; the
table keeps only entries finished before it, so the searcher stays usable.

Compilation: :func:`warmup` compiles the kernels (about 4 s from a cold Numba cache) or loads
them (about 0.2 s); benchmark figures exclude it. Connect Four 7 x 6, CPU per position on the
public sets (this machine kind, shared): End-Easy 3.8 us, Middle-Easy 30 us, Middle-Medium
3.6 ms, Begin-Easy 0.31 ms, Begin-Medium 94 ms, Begin-Hard 2.3 s (first 20), 11-15 M nodes/s
(``benchmarks/test_bench_connect4.py``). Empty 5 x 5 boards: k=4 a draw (2.3 M nodes, 0.25 s),
k=5 a draw (29 M nodes, 10 s).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from fastttt.board import Position
from fastttt.errors import GameSpecError, InvalidPositionError, require_int, require_type
from fastttt.games import GameSpec, as_spec
from fastttt.interrupt import run
from fastttt.kernels import negamax as nk

DEFAULT_TT_BITS = 23  # 2**23 entries x 8 bytes = 64 MiB


def score_base(spec: GameSpec) -> int:
    """``(cells + 1) // 2 + 1``: a win with the winner's ``s``-th stone scores ``base - s``.

    Equal to ``cells // 2 + 1`` on even boards (22 for Connect Four); on odd boards the first
    player may place ``(cells + 1) // 2`` stones, and its win on the last cell must still score
    above a draw (``cells // 2 + 1`` would give it 0).
    """
    return (spec.cells + 1) // 2 + 1


def score_from_table(spec: GameSpec, ply, value, depth):
    """Exact score (side to move) of a position with ``ply`` stones from a table value relative
    to the side to move (+1 it wins, 0 draw, -1 it loses) and the table depth (plies to the end,
    winner hurrying, loser delaying). The game ends after ``ply + depth`` stones; whoever wins,
    the winner then has ``(ply + depth + 1) // 2`` stones (the mover when ``depth`` is odd, the
    opponent when it is even). Works on ints and elementwise on NumPy integer arrays."""
    win = score_base(spec) - (ply + depth + 1) // 2
    if isinstance(value, np.ndarray):
        return np.sign(value).astype(np.int64) * win
    return 0 if value == 0 else (win if value > 0 else -win)


@dataclass(frozen=True)
class SearchResult:
    """Outcome of one search: ``score`` from the side to move (module convention; in weak mode
    -1/0/+1), ``nodes`` searched, ``seconds`` of wall time, ``weak`` the mode."""

    score: int
    nodes: int
    seconds: float
    weak: bool = False


def _geometry(spec: GameSpec) -> tuple[int, int, bool]:
    """(W, H, transposed): internal columns, cells per column, and whether rows map to them."""
    if spec.cols * (spec.rows + 1) <= 64:
        return spec.cols, spec.rows, False
    if not spec.gravity and spec.rows * (spec.cols + 1) <= 64:
        return spec.rows, spec.cols, True
    raise GameSpecError(
        f"{spec.describe()}: the search needs columns x (rows + 1) <= 64 bits "
        f"(got {spec.cols} x {spec.rows + 1})"
    )


def _symmetries(spec: GameSpec) -> list[list[tuple[int, int]]]:
    """Board symmetries as lists mapping cell -> (row, col): mirror for gravity; the 4 of a
    rectangle or the 8 of a square for free boards (identity first)."""
    R, C = spec.rows, spec.cols
    maps = [lambda r, c: (r, c), lambda r, c: (r, C - 1 - c)]
    if not spec.gravity:
        maps += [lambda r, c: (R - 1 - r, c), lambda r, c: (R - 1 - r, C - 1 - c)]
        if R == C:
            maps += [
                lambda r, c: (c, r),
                lambda r, c: (C - 1 - c, R - 1 - r),
                lambda r, c: (c, R - 1 - r),
                lambda r, c: (C - 1 - c, r),
            ]
    return [[f(cell // C, cell % C) for cell in range(spec.cells)] for f in maps]


class Batch(NamedTuple):
    """Live positions in the search layout: side to move's stones, all stones, stone counts."""

    curs: np.ndarray
    masks: np.ndarray
    plies: np.ndarray


class Searcher:
    """The search of one game: internal geometry, symmetry tables and a transposition table.

    ``mirror``: canonical keys under the left-right mirror for positions with at most
    ``mirror_ply`` stones. Default: a quarter of the cells with gravity (Connect Four: it saves
    about 2% of the nodes and costs about as much per node deeper), every position on free
    boards (5 x 5 k=4 from empty: 2.5 M nodes instead of 3.2 M). ``sym_ply``: on free boards,
    canonical keys under every board symmetry (8 on squares, 4 on rectangles) for positions
    with at most this many stones (default half the cells; 5 x 5 k=4: 2.3 M nodes at 12,
    2.0 M but slower at 25; -1 disables). ``tt_bits``: 2**bits table entries of 8 bytes
    (default 23, 64 MiB, on boards of 21 cells or more; smaller below).
    """

    def __init__(
        self,
        spec: GameSpec | str,
        *,
        tt_bits: int | None = None,
        mirror: bool | None = None,
        sym_ply: int | None = None,
        mirror_ply: int | None = None,
    ):
        spec = as_spec(spec)
        self.spec = spec
        W, H, transposed = _geometry(spec)
        self.width, self.height, self.transposed = W, H, transposed
        h1 = H + 1
        cell_bit = []
        for cell in range(spec.cells):
            r, c = divmod(cell, spec.cols)
            if transposed:
                cell_bit.append(r * h1 + c)
            else:
                cell_bit.append(c * h1 + (spec.rows - 1 - r))
        self.cell_bit = cell_bit
        self.bit_cell = {b: c for c, b in enumerate(cell_bit)}
        nbits = W * h1
        if tt_bits is None:
            tt_bits = min(DEFAULT_TT_BITS, max(17, spec.cells + 2))
        tt_bits = require_int(tt_bits, "tt_bits", 17, 32)
        self.tt_bits = tt_bits
        if mirror is None:
            mirror = True
        if mirror_ply is None:
            mirror_ply = spec.cells // 4 if spec.gravity else spec.cells
        if sym_ply is None:
            sym_ply = -1 if spec.gravity else spec.cells // 2
        syms = _symmetries(spec)
        perms = np.tile(np.arange(64, dtype=np.int64), (len(syms), 1))
        for s, image in enumerate(syms):
            for cell, (r, c) in enumerate(image):
                perms[s, cell_bit[cell]] = cell_bit[r * spec.cols + c]
        if spec.gravity:
            keymode = nk.KEY_SUM
        elif 2 * nbits <= 64:
            keymode = nk.KEY_CONCAT
        else:
            keymode = nk.KEY_HASH  # 64-bit hash: a false hit is possible but unlikely
        self.exact_keys = keymode != nk.KEY_HASH
        work = np.zeros(nk.WORK_SIZE, dtype=np.uint64)
        geo = work[: nk.M_BOTTOM].view(np.int64)
        geo[nk.G_W], geo[nk.G_H], geo[nk.G_K] = W, H, spec.k
        geo[nk.G_GRAV] = int(spec.gravity)
        geo[nk.G_CELLS] = spec.cells
        geo[nk.G_BASE] = score_base(spec)
        geo[nk.G_SYMPLY] = sym_ply
        geo[nk.G_MIRROR] = mirror_ply if mirror and not transposed else -1
        geo[nk.G_KEYMODE] = keymode
        geo[nk.G_TTBITS] = tt_bits
        geo[nk.G_NSYM] = len(syms)
        geo[nk.G_FAST4] = int(spec.k == 4 and 3 * (H + 2) < 64)
        geo[nk.G_NBITS] = nbits
        col0 = (1 << H) - 1
        bottom = sum(1 << (c * h1) for c in range(W))
        work[nk.M_BOTTOM] = bottom
        work[nk.M_BOARD] = bottom * col0
        work[nk.M_COL0] = col0
        if spec.gravity:
            centre = (W - 1) / 2
            order = sorted(range(W), key=lambda c: (abs(c - centre), c))
        else:
            cr, cc = (spec.rows - 1) / 2, (spec.cols - 1) / 2
            cells = sorted(
                range(spec.cells),
                key=lambda x: (abs(x // spec.cols - cr) + abs(x % spec.cols - cc), x),
            )
            order = [cell_bit[x] for x in cells]
        work[nk.ORDER : nk.ORDER + len(order)] = order
        work[nk.PERMS : nk.PERMS + perms.size] = perms.ravel()
        self.work = work
        self.tt = np.zeros(1 << tt_bits, dtype=np.uint64)

    # --- conversions ---------------------------------------------------------------------
    def internal(self, pos: Position) -> tuple[int, int, int]:
        """``(cur, mask, ply)``: the side to move's stones and all stones, internal layout."""
        first = second = 0
        for cell, bit in enumerate(self.cell_bit):
            if pos.first >> cell & 1:
                first |= 1 << bit
            elif pos.second >> cell & 1:
                second |= 1 << bit
        cur = first if pos.to_move == 0 else second
        return cur, first | second, pos.ply

    def batch_from_codes(self, codes: np.ndarray) -> Batch:
        """Positions given by base-3 codes (digit 1 first player, 2 second) in the search
        layout; the codes must be live positions (not checked here)."""
        codes = np.asarray(codes, dtype=np.int64)
        first = np.zeros(codes.shape, dtype=np.uint64)
        second = np.zeros(codes.shape, dtype=np.uint64)
        rest = codes.copy()
        for bit in self.cell_bit:
            digit = rest % 3
            rest //= 3
            first |= (digit == 1).astype(np.uint64) << np.uint64(bit)
            second |= (digit == 2).astype(np.uint64) << np.uint64(bit)
        mask = first | second
        n_first = np.bitwise_count(first).astype(np.int64)
        n_second = np.bitwise_count(second).astype(np.int64)
        cur = np.where(n_first == n_second, first, second)
        return Batch(cur, mask, n_first + n_second)

    def _run(self, kernel, *args):
        """``kernel(*args)`` under Ctrl-C: the kernels poll the work array's stop word."""
        self.work[nk.S_STOP] = 0
        return run(kernel, *args, stop=self.work, slot=nk.S_STOP)

    def reset(self) -> None:
        """Empty the transposition table and zero the node counter."""
        self.tt[:] = 0
        self.work[nk.S_NODES] = 0

    @property
    def nodes(self) -> int:
        """Nodes searched since creation or the last :meth:`reset`."""
        return int(self.work[nk.S_NODES])

    def check_live(self, pos: Position) -> None:
        require_type(pos, Position, "pos")
        if pos.spec != self.spec:
            raise InvalidPositionError(f"position of {pos.spec.name}, searcher of {self.spec.name}")
        if pos.is_over():
            raise InvalidPositionError(f"the game is already over in {pos!r}")

    def solve(self, pos: Position, *, weak: bool = False) -> SearchResult:
        """Score of a live position (see the module docstring for the convention)."""
        self.check_live(pos)
        cur, mask, ply = self.internal(pos)
        before = self.nodes
        t0 = time.perf_counter()
        score = self._run(
            nk.solve_kernel, np.uint64(cur), np.uint64(mask), ply, weak, self.work, self.tt
        )
        seconds = time.perf_counter() - t0
        return SearchResult(int(score), self.nodes - before, seconds, weak)

    def solve_internal(self, cur: int, mask: int, ply: int, *, weak: bool = False) -> int:
        """Score of a live position already in the search layout (no checks: the caller
        guarantees it is live, e.g. :func:`fastttt.connect4.parse_move_lines`)."""
        args = (np.uint64(cur), np.uint64(mask), ply, weak, self.work, self.tt)
        return int(self._run(nk.solve_kernel, *args))

    def move_scores(self, pos: Position, *, weak: bool = False) -> dict[int, int]:
        """Score of each legal move from the mover's view (a move that wins at once scores
        ``base - stones``; weak mode -1/0/+1)."""
        self.check_live(pos)
        base = score_base(self.spec)
        result = {}
        for move in pos.legal_moves():
            child = pos.play(move)
            if child.winner() is not None:
                result[move] = 1 if weak else base - (pos.ply // 2 + 1)
            elif child.is_full():
                result[move] = 0
            else:
                result[move] = -self.solve(child, weak=weak).score
        return result


def solve_batch(s: Searcher, batch: Batch, *, weak: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Scores and node counts of every position of ``batch`` (all live), in order, sharing the
    searcher's table. Kernel: :func:`fastttt.kernels.negamax.solve_many`."""
    n = batch.curs.shape[0]
    scores = np.zeros(n, dtype=np.int64)
    nodes = np.zeros(n, dtype=np.int64)
    s._run(nk.solve_many, batch.curs, batch.masks, batch.plies, weak, s.work, s.tt, scores, nodes)
    return scores, nodes


_SEARCHERS: dict[tuple[GameSpec, int | None], Searcher] = {}


def searcher(spec: GameSpec | str, tt_bits: int | None = None) -> Searcher:
    """The shared :class:`Searcher` of a game (its table persists between calls)."""
    spec = as_spec(spec)
    key = (spec, tt_bits)
    if key not in _SEARCHERS:
        _SEARCHERS[key] = Searcher(spec, tt_bits=tt_bits)
    return _SEARCHERS[key]


def shared_searcher(spec: GameSpec, tt_bits: int | None = None) -> Searcher | None:
    """The shared :class:`Searcher` of a game if :func:`searcher` made one, else None (never
    allocates; ``play`` reads its node count while it searches)."""
    return _SEARCHERS.get((spec, tt_bits))


def solve_position(
    pos: Position, *, weak: bool = False, tt_bits: int | None = None
) -> SearchResult:
    """Exact score of ``pos`` from the side to move: 0 draw, ``score_base - s`` for a win whose
    winner completes its line with its ``s``-th stone, the negative for a loss; ``weak`` gives
    only -1/0/+1. Raises :class:`InvalidPositionError` when the game is already over.
    Kernel: :func:`fastttt.kernels.negamax.solve_kernel`."""
    if not isinstance(pos, Position):
        raise InvalidPositionError(f"expected a Position, got {pos!r}")
    return searcher(pos.spec, tt_bits).solve(pos, weak=weak)


def move_scores(pos: Position, *, weak: bool = False) -> dict[int, int]:
    """Score of every legal move of ``pos`` from the mover's view (same convention as
    :func:`solve_position`): moves are cells, or 0-based columns with gravity."""
    if not isinstance(pos, Position):
        raise InvalidPositionError(f"expected a Position, got {pos!r}")
    return searcher(pos.spec).move_scores(pos, weak=weak)


def best_moves(pos: Position) -> list[int]:
    """Moves of the highest exact score (fastest win, else draw, else slowest loss)."""
    scores = move_scores(pos)
    top = max(scores.values())
    return [m for m, s in scores.items() if s == top]


def warmup() -> float:
    """Compile (or load from the Numba cache) the search kernels; returns the seconds taken.
    Measured here: about 4 s from a cold cache, 0.2 s from a warm one."""
    t0 = time.perf_counter()
    from fastttt.games import mnk

    for spec in (mnk(4, 4, 3, gravity=True), mnk(3, 3, 3)):
        s = Searcher(spec, tt_bits=17)
        pos = Position.from_moves(spec, [0, 1] if spec.gravity else [4])
        s.solve(pos)
        cur, mask, ply = s.internal(pos)
        batch = Batch(np.array([cur], np.uint64), np.array([mask], np.uint64), np.array([ply]))
        solve_batch(s, batch)
        nk.play_columns(np.zeros(1, dtype=np.int64), 1, s.work)
    return time.perf_counter() - t0
