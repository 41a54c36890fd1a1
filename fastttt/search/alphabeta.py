"""Exact search beyond the tables: negamax alpha-beta with a transposition table.

Score convention (side to move, the Connect Four benchmark one, generalised; defined in
:mod:`fastttt.values`, whose ``score_base`` and ``score_from_table`` are re-exported here):
0 draw; a win scores ``score_base(spec) - s`` where ``s`` is the number of stones the winner
has placed when it completes its line (sooner wins score higher); a loss scores minus the
opponent's win score. ``score_base(spec) = (cells + 1) // 2 + 1``: 22 for
Connect Four (7 x 6), ``cells // 2 + 1`` on every even board. Weak mode returns only the sign:
+1 win, 0 draw, -1 loss.

Kernels: :func:`fastttt.kernels.negamax.solve_kernel` (iterated null-window search) behind
:func:`solve_position`, :func:`fastttt.kernels.negamax.negamax` (its return contract is in its
docstring). The transposition table of a :class:`Searcher` is kept between calls: its entries
are exact bounds on exact scores, true whatever position is searched next. Ctrl-C stops a
search within milliseconds (:mod:`fastttt.interrupt`) and raises ``KeyboardInterrupt``; the
table keeps only entries finished before it, so the searcher stays usable.

Boards whose search layout does not fit 64 bits (``cols * (rows + 1) > 64``, and for free
boards also ``rows * (cols + 1) > 64``), up to :data:`fastttt.games.mnk.spec.MAX_CELLS` cells, are
searched by :class:`WideSearcher` (kernels :mod:`fastttt.kernels.wide`: per-line counters
updated move by move, a Zobrist-keyed table): ``Searcher(spec)`` and :func:`searcher` return
one for them, with the same scores and the same API. Both take a node and a time budget
(``solve(pos, max_nodes=..., seconds=...)``, :class:`~fastttt.errors.SearchBudgetError`).

Compilation: :func:`warmup` compiles the kernels (about 4 s from a cold Numba cache) or loads
them (about 0.2 s); benchmark figures exclude it. Connect Four 7 x 6, CPU per position on the
public sets (this machine kind, shared): End-Easy 3.8 us, Middle-Easy 30 us, Middle-Medium
3.6 ms, Begin-Easy 0.31 ms, Begin-Medium 94 ms, Begin-Hard 2.3 s (first 20), 11-15 M nodes/s
(``benchmarks/test_bench_connect4.py``). Empty 5 x 5 boards: k=4 a draw (2.3 M nodes, 0.25 s),
k=5 a draw (29 M nodes, 10 s).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from fastttt.codes import bitboards_of_codes, cells_of, to_layout, to_layout_many
from fastttt.errors import (
    GameSpecError,
    InvalidArgumentError,
    InvalidPositionError,
    SearchBudgetError,
    require_int,
    require_type,
)
from fastttt.games.mnk.board import Position, line_cells, symmetry_maps
from fastttt.games.mnk.spec import GameSpec, as_spec
from fastttt.interrupt import compile_kernel, run
from fastttt.kernels import negamax as nk
from fastttt.kernels import wide as wk
from fastttt.memory import require_memory
from fastttt.values import score_base
from fastttt.values import score_from_table as score_from_table  # re-exported

DEFAULT_TT_BITS = 23  # 2**23 entries x 8 bytes = 64 MiB
WIDE_TT_BITS = 22  # 2**22 entries x 16 bytes = 64 MiB (WideSearcher)
STOP_BUDGET = 3  # stop-word value a budget's watcher writes (Ctrl-C writes 1)
STOP_PEER = 4  # ... and a helper thread that found the value first
# the shared searchers' threads: 1, because lazy SMP did not pay here (2 cores, empty 7x6 board:
# win/draw/loss 29.6 s wall and 59 CPU-s on 2 threads against 34.9 s on one; exact score
# 50.9 s wall on 2 threads, 51 s on one)
SHARED_THREADS = 1
ZOBRIST_SEED = 20240611  # fixed keys: node counts repeat from run to run


@dataclass(frozen=True)
class SearchResult:
    """Outcome of one search: ``score`` from the side to move (module convention; in weak mode
    -1/0/+1), ``nodes`` searched, ``seconds`` of wall time, ``weak`` the mode."""

    score: int
    nodes: int
    seconds: float
    weak: bool = False


def fits_64(spec: GameSpec) -> bool:
    """True when the 64-bit kernels take ``spec`` (its padded layout fits one uint64); the
    other boards go to :class:`WideSearcher`."""
    try:
        _geometry(spec)
    except GameSpecError:
        return False
    return True


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


def centre_first(spec: GameSpec) -> list[int]:
    """The moves in the search's static order: columns (gravity) or cells nearest the centre
    first (Manhattan distance), ties by number."""
    if spec.gravity:
        centre = (spec.cols - 1) / 2
        return sorted(range(spec.cols), key=lambda c: (abs(c - centre), c))
    cr, cc = (spec.rows - 1) / 2, (spec.cols - 1) / 2
    return sorted(
        range(spec.cells),
        key=lambda x: (abs(x // spec.cols - cr) + abs(x % spec.cols - cc), x),
    )


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
    (default 23, 64 MiB, on boards of 21 cells or more; smaller below). ``threads``: threads
    that search one position together, sharing the table (:meth:`solve` without a node
    budget; the score is the same whatever the count, the nodes and the time differ; on this
    2-core machine two threads gained 1.18x wall time on the empty 7 x 6 board's value and none
    on its exact score, for twice the CPU: see :data:`SHARED_THREADS`).

    ``Searcher(spec)`` on a board the 64-bit layout cannot hold returns a
    :class:`WideSearcher` (same scores and API).
    """

    wide = False  # True for WideSearcher: no 64-bit layout (internal, batches)

    def __new__(cls, spec: GameSpec | str, **options):
        if cls is Searcher and not fits_64(as_spec(spec)):
            cls = WideSearcher
        return super().__new__(cls)

    def __init__(
        self,
        spec: GameSpec | str,
        *,
        tt_bits: int | None = None,
        mirror: bool | None = None,
        sym_ply: int | None = None,
        mirror_ply: int | None = None,
        threads: int = 1,
    ):
        spec = as_spec(spec)
        self.spec = spec
        self.threads = require_int(threads, "threads", 1, 256)
        self._helpers: list[np.ndarray] = []
        W, H, transposed = _geometry(spec)
        self.transposed = transposed
        h1 = H + 1
        cell_bit = []
        for cell in range(spec.cells):
            r, c = divmod(cell, spec.cols)
            if transposed:
                cell_bit.append(r * h1 + c)
            else:
                cell_bit.append(c * h1 + (spec.rows - 1 - r))
        self.cell_bit = cell_bit
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
        syms = symmetry_maps(spec.rows, spec.cols, spec.gravity)
        perms = np.tile(np.arange(64, dtype=np.int64), (len(syms), 1))
        for s, image in enumerate(syms):
            for cell, target in enumerate(image):
                perms[s, cell_bit[cell]] = cell_bit[target]
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
        key_bits = {nk.KEY_SUM: nbits + 1, nk.KEY_CONCAT: 2 * nbits}.get(keymode, 64)
        geo[nk.G_KEYBITS] = min(64, max(key_bits, tt_bits))
        tag_bits = int(geo[nk.G_KEYBITS]) - (tt_bits - 1)
        geo[nk.G_TTMOVES] = int(16 + tag_bits <= 58)
        work[nk.T_KEYMASK] = (1 << int(geo[nk.G_KEYBITS])) - 1
        work[nk.T_TAGBITS] = tag_bits
        work[nk.T_TAGMASK] = (1 << tag_bits) - 1
        col0 = (1 << H) - 1
        bottom = sum(1 << (c * h1) for c in range(W))
        work[nk.M_BOTTOM] = bottom
        work[nk.M_BOARD] = bottom * col0
        work[nk.M_COL0] = col0
        work[nk.M_CLAIM] = bottom * sum(1 << r for r in range(H % 2, H, 2))
        work[nk.S_LIMIT] = nk.NO_LIMIT
        order = centre_first(spec)
        if not spec.gravity:
            order = [cell_bit[x] for x in order]
        work[nk.ORDER : nk.ORDER + len(order)] = order
        work[nk.PERMS : nk.PERMS + perms.size] = perms.ravel()
        self.work = work
        require_memory(8 << tt_bits, f"a search table of 2**{tt_bits} entries (8 bytes each)")
        self.tt = np.zeros(1 << tt_bits, dtype=np.uint64)

    # --- conversions ---------------------------------------------------------------------
    def internal(self, pos: Position) -> tuple[int, int, int]:
        """``(cur, mask, ply)``: the side to move's stones and all stones, internal layout
        (:func:`fastttt.codes.to_layout` with :attr:`cell_bit`)."""
        first = to_layout(pos.first, self.cell_bit)
        second = to_layout(pos.second, self.cell_bit)
        cur = first if pos.to_move == 0 else second
        return cur, first | second, pos.ply

    def batch_from_codes(self, codes: np.ndarray) -> Batch:
        """Positions given by base-3 codes (digit 1 first player, 2 second) in the search
        layout; the codes must be live positions (not checked here)."""
        first, second = bitboards_of_codes(codes, self.spec.cells)
        first = to_layout_many(first, self.cell_bit)
        second = to_layout_many(second, self.cell_bit)
        mask = first | second
        n_first = np.bitwise_count(first).astype(np.int64)
        n_second = np.bitwise_count(second).astype(np.int64)
        cur = np.where(n_first == n_second, first, second)
        return Batch(cur, mask, n_first + n_second)

    def _run(self, kernel, *args):
        """``kernel(*args)`` under Ctrl-C: the kernels poll the work array's stop word."""
        self.work[nk.S_STOP] = 0
        return run(kernel, *args, stop=self.work, slot=nk.S_STOP)

    def halt(self) -> None:
        """Stop the budgeted :meth:`solve` that another thread runs: it raises
        SearchBudgetError within a millisecond or so, as when its time runs out (the table
        keeps what finished). A search that starts later clears the word: call again until
        the other thread is done."""
        self.work[nk.S_STOP] = STOP_BUDGET

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

    def solve(
        self,
        pos: Position,
        *,
        weak: bool = False,
        max_nodes: int | None = None,
        seconds: float | None = None,
    ) -> SearchResult:
        """Score of a live position (see the module docstring for the convention).

        ``max_nodes``, ``seconds``: a budget; the search stops at ``max_nodes`` nodes exactly,
        or within a millisecond or so of ``seconds``, and
        :class:`~fastttt.errors.SearchBudgetError` is raised; the table keeps only entries
        finished before, so the searcher stays usable."""
        self.check_live(pos)
        cur, mask, ply = self.internal(pos)
        before = self.nodes
        t0 = time.perf_counter()
        args = (np.uint64(cur), np.uint64(mask), ply, weak)
        if max_nodes is None and seconds is None:
            score = self._solve_threads(*args)
        elif max_nodes is None:
            with _Budget(self, max_nodes, seconds):
                score = self._solve_threads(*args)
        else:  # a node budget counts one thread's nodes exactly
            with _Budget(self, max_nodes, seconds):
                score = self._run(nk.solve_kernel, *args, self.work, self.tt)
        return SearchResult(int(score), self.nodes - before, time.perf_counter() - t0, weak)

    def _solve_threads(self, cur, mask, ply, weak) -> int:
        """:func:`~fastttt.kernels.negamax.solve_kernel` on :attr:`threads` threads sharing
        the table (lazy SMP): helper threads search the same position with their own ordering
        tie-breaks (``S_JITTER``), filling the table for each other; the first to finish gives
        the score (exact, whoever finds it) and the others stop. Their nodes are added to
        :attr:`nodes`."""
        if self.threads == 1:
            return self._run(nk.solve_kernel, cur, mask, ply, weak, self.work, self.tt)
        while len(self._helpers) < self.threads - 1:
            helper = self.work.copy()
            helper[nk.S_NODES] = 0
            helper[nk.S_LIMIT] = nk.NO_LIMIT
            helper[nk.S_JITTER] = len(self._helpers) + 1
            self._helpers.append(helper)
        found: list[int] = []

        def search(work: np.ndarray) -> None:
            score = nk.solve_kernel(cur, mask, ply, weak, work, self.tt)
            if work[nk.S_STOP] == 0:
                found.append(int(score))
                self.work[nk.S_STOP] = STOP_PEER  # the main thread stops: the value is known

        for helper in self._helpers:
            helper[nk.S_STOP] = 0
        workers = [threading.Thread(target=search, args=(h,), daemon=True) for h in self._helpers]
        for worker in workers:
            worker.start()
        try:
            score = self._run(nk.solve_kernel, cur, mask, ply, weak, self.work, self.tt)
        finally:
            for helper in self._helpers:
                helper[nk.S_STOP] = 1
            for worker in workers:
                worker.join()
            for helper in self._helpers:
                self.work[nk.S_NODES] += helper[nk.S_NODES]
                helper[nk.S_NODES] = 0
        if self.work[nk.S_STOP] == STOP_PEER:
            self.work[nk.S_STOP] = 0
            return found[0]
        return int(score)

    def solve_internal(self, cur: int, mask: int, ply: int, *, weak: bool = False) -> int:
        """Score of a live position already in the search layout (no checks: the caller
        guarantees it is live, e.g. :func:`fastttt.search.connect4.parse_move_lines`)."""
        args = (np.uint64(cur), np.uint64(mask), ply, weak, self.work, self.tt)
        return int(self._run(nk.solve_kernel, *args))

    def load_kernels(self) -> None:
        """Compile (or load from Numba's cache) the kernels behind :meth:`solve` and
        :meth:`table_move` now, so that a clock started after counts search only."""
        internal = (np.uint64(0), np.uint64(0), 0)
        compile_kernel(nk.solve_kernel, *internal, False, self.work, self.tt)
        compile_kernel(nk.table_move, *internal, self.work, self.tt)

    def table_move(self, pos: Position) -> int | None:
        """The best move the transposition table remembers for ``pos`` (a hint from earlier
        searches, proven by nothing), or None."""
        cur, mask, ply = self.internal(pos)
        at = int(nk.table_move(np.uint64(cur), np.uint64(mask), ply, self.work, self.tt))
        if at < 0:
            return None
        if self.spec.gravity:
            return at
        return self.cell_bit.index(at) if at in self.cell_bit else None

    def move_scores(self, pos: Position, *, weak: bool = False) -> dict[int, int]:
        """Score of each legal move from the mover's view (a move that wins at once scores
        ``base - stones``; weak mode -1/0/+1)."""
        self.check_live(pos)
        return scores_of_moves(pos, lambda child: self.solve(child, weak=weak).score, weak=weak)

    def best_moves(self, pos: Position, score: int | None = None) -> list[int]:
        """The moves of ``pos`` (live) that keep its exact ``score`` (searched when None, e.g.
        read from an opening book): the fastest win, else a draw, else the slowest loss. One
        null-window search per move ("does the child score more than ``-score``?"), much less
        work than every move's exact score (:meth:`move_scores`). Kernel:
        :func:`~fastttt.kernels.negamax.at_least_kernel`."""
        return sorted(self._moves_keeping(pos, score, pos.legal_moves()))

    def root_order(self, pos: Position) -> list[int]:
        """The legal moves of ``pos`` in the order the search tries them at its root: the move
        the table remembers (:meth:`table_move`), then centre first (:func:`centre_first`)."""
        legal = set(pos.legal_moves())
        order = [m for m in centre_first(pos.spec) if m in legal]
        remembered = self.table_move(pos)
        if remembered in legal:
            order.remove(remembered)
            order.insert(0, remembered)
        return order

    def first_best_move(self, pos: Position, order: Iterable[int], score: int | None = None) -> int:
        """The first move of ``order`` (the legal moves of ``pos``, in any order) among
        :meth:`best_moves`, stopping there: in a uniformly shuffled order, a uniformly random
        best move for the null-window searches of the moves before it only."""
        return next(iter(self._moves_keeping(pos, score, order)))

    def _moves_keeping(
        self, pos: Position, score: int | None, order: Iterable[int]
    ) -> Iterator[int]:
        self.check_live(pos)
        if score is None:
            score = self.solve(pos).score
        order = list(order)
        if sorted(order) != sorted(pos.legal_moves()):
            raise InvalidArgumentError(f"{order} are not the legal moves of {pos}")
        ends_now = scores_of_moves(pos, lambda child: -score, weak=False)
        if max(ends_now.values()) > score:
            raise InvalidArgumentError(f"{pos} scores more than {score}")
        kept = False
        for move in order:
            if ends_now[move] != score:  # a move that ends the game: its score is known
                continue
            child = pos.play(move)
            if child.is_over() or not self._at_least(child, 1 - score):
                kept = True
                yield move
        if not kept:
            raise InvalidArgumentError(f"no move of {pos} keeps the score {score}")

    def solve_between(self, pos: Position, lo: int, hi: int) -> int:
        """The exact score of a live ``pos`` known to lie in ``[lo, hi]`` (e.g. its sign read
        from a win/draw/loss table): null-window searches halving the range, none spent on what
        is known (a score outside the range is not detected: it comes out as the nearer end). A
        :class:`WideSearcher` (no null-window kernel) solves it whole."""
        self.check_live(pos)
        if self.wide:
            return self.solve(pos).score
        while lo < hi:
            med = lo + (hi - lo + 1) // 2
            if self._at_least(pos, med):
                lo = med
            else:
                hi = med - 1
        return lo

    def _at_least(self, pos: Position, bound: int) -> bool:
        cur, mask, ply = self.internal(pos)
        args = (np.uint64(cur), np.uint64(mask), ply, bound, self.work, self.tt)
        return bool(self._run(nk.at_least_kernel, *args))


def scores_of_moves(
    pos: Position, child_score: Callable[[Position], int], *, weak: bool = False
) -> dict[int, int]:
    """Each legal move of the live ``pos`` with its score from the mover's view: a move that
    wins at once scores ``base - stones`` (weak: 1), one that fills the board 0, any other
    ``-child_score(child)``."""
    win_now = 1 if weak else score_from_table(pos.spec, pos.ply, 1, 1)  # won in 1 ply
    result = {}
    for move in pos.legal_moves():
        child = pos.play(move)
        if child.winner() is not None:
            result[move] = win_now
        elif child.is_full():
            result[move] = 0
        else:
            result[move] = -child_score(child)
    return result


class _Budget:
    """``with _Budget(searcher, max_nodes, seconds):`` around one search: the kernel gets the
    node limit, which it checks at every node; a watcher thread writes the stop word
    (:data:`STOP_BUDGET`) once the time passes the budget. Raises SearchBudgetError on
    leaving when the budget stopped the search."""

    POLL = 0.001

    def __init__(self, s: Searcher, max_nodes: int | None, seconds: float | None):
        self.s = s
        self.limit: int | None = None
        if max_nodes is not None:
            self.limit = s.nodes + require_int(max_nodes, "max_nodes", 1, 2**62)
        if seconds is not None:
            if (
                isinstance(seconds, bool)
                or not isinstance(seconds, (int, float))
                or not (0 < seconds < float("inf"))
            ):
                raise InvalidArgumentError(f"seconds must be a positive number, got {seconds!r}")
        self.seconds = seconds
        self.max_nodes = max_nodes
        self.done = threading.Event()
        self.fired = False
        self.thread: threading.Thread | None = None

    def _watch(self, deadline: float) -> None:
        """Until the search ends: once the time is spent, write the stop word, again every
        POLL seconds (the search may clear it as it starts)."""
        work = self.s.work
        wait = max(deadline - time.perf_counter(), 0.0)
        while not self.done.wait(wait):
            self.fired = True
            work[nk.S_STOP] = STOP_BUDGET
            wait = self.POLL

    def __enter__(self) -> _Budget:
        kernels = wk if self.s.wide else nk
        self.s.work[kernels.S_LIMIT] = kernels.NO_LIMIT if self.limit is None else self.limit
        if self.seconds is not None:
            deadline = time.perf_counter() + self.seconds
            self.thread = threading.Thread(target=self._watch, args=(deadline,), daemon=True)
            self.thread.start()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.done.set()
        if self.thread is not None:
            self.thread.join()
        kernels = wk if self.s.wide else nk
        self.s.work[kernels.S_LIMIT] = kernels.NO_LIMIT
        stopped = int(self.s.work[nk.S_STOP]) in (kernels.STOP_NODES, STOP_BUDGET)  # or halt()
        if exc_type is None and (self.fired or stopped):
            self.s.work[nk.S_STOP] = 0
            spent = []
            if self.max_nodes is not None:
                spent.append(f"{self.max_nodes:,} nodes")
            if self.seconds is not None:
                spent.append(f"{self.seconds:g} s")
            raise SearchBudgetError(f"the search ran out of its budget ({' or '.join(spent)})")


class WideSearcher(Searcher):
    """Exact search of boards of any size (up to :data:`fastttt.games.mnk.spec.MAX_CELLS` cells),
    free or gravity: the kernels of :mod:`fastttt.kernels.wide` (per-line counters updated move by
    move, threats as multi-word bitboards, a Zobrist-keyed transposition table whose entries
    hold the whole 64-bit key). Same scores, rules and move ordering as :class:`Searcher`
    (most own threats after the move first, then centre first), without symmetry keys; on the
    boards both take, the scores are identical (tests compare them). ``tt_bits``: 2**bits
    entries of 16 bytes (default 22, 64 MiB; smaller on boards under 20 cells). ``potential``:
    order moves of equal threats by the lines they open or block before centre-first (default:
    on free boards over 64 cells, where it saves nodes; see
    :func:`fastttt.kernels.wide._order_score`). ``mirror``, ``sym_ply``, ``mirror_ply`` are
    accepted and ignored. ``Searcher(spec)`` returns one when
    the 64-bit layout cannot hold ``spec``; ``WideSearcher(spec)`` takes any board (tests
    and benchmarks compare it with the 64-bit kernels).

    Kernels: :func:`fastttt.kernels.wide.solve_kernel` behind :meth:`solve`,
    :func:`fastttt.kernels.wide.solve_many` behind :meth:`solve_batch`.
    """

    wide = True

    def __init__(
        self,
        spec: GameSpec | str,
        *,
        tt_bits: int | None = None,
        mirror: bool | None = None,
        sym_ply: int | None = None,
        mirror_ply: int | None = None,
        potential: bool | None = None,
    ):
        spec = as_spec(spec)
        self.spec = spec
        if potential is None:
            potential = not spec.gravity and spec.cells > 64
        self.potential = bool(potential)
        if spec.cells > wk.MAX_CELLS:
            raise GameSpecError(
                f"{spec.describe()}: exact search takes at most {wk.MAX_CELLS} cells"
            )
        if tt_bits is None:
            tt_bits = min(WIDE_TT_BITS, max(17, spec.cells + 2))
        self.tt_bits = require_int(tt_bits, "tt_bits", 17, 32)
        cells, cols = spec.cells, spec.cols
        lines = line_cells(spec)
        through: list[list[int]] = [[] for _ in range(cells)]
        for i, line in enumerate(lines):
            for c in line:
                through[c].append(i)
        order = centre_first(spec)
        words = (cells + 63) // 64
        sizes = [  # the parts of the work array, in the order of their offset fields
            (wk.O_CLSTART, cells + 1),
            (wk.O_CLLINES, sum(map(len, through))),
            (wk.O_LTOT, len(lines)),
            (wk.O_LSTATE, len(lines)),
            (wk.O_BOARD, cells),
            (wk.O_WINCNT, 2 * cells),
            (wk.O_WINBITS, 2 * words),
            (wk.O_NWIN, 2),
            (wk.O_TOP, cols),
            (wk.O_ORDER, len(order)),
            (wk.O_ZOB, 2 * cells),
            (wk.O_MBUF, (cells + 1) * len(order)),
        ]
        offsets, at = {}, wk.HEADER
        for field, size in sizes:
            offsets[field] = at
            at += size
        work = np.zeros(at, dtype=np.uint64)
        head = work[: wk.HEADER].view(np.int64)
        head[wk.H_CELLS], head[wk.H_K], head[wk.H_GRAV] = cells, spec.k, int(spec.gravity)
        head[wk.H_BASE], head[wk.H_ROWS], head[wk.H_COLS] = score_base(spec), spec.rows, cols
        head[wk.H_NLINES], head[wk.H_WORDS], head[wk.H_TTBITS] = len(lines), words, self.tt_bits
        head[wk.H_NORDER], head[wk.H_POTENTIAL] = len(order), int(self.potential)
        for field, offset in offsets.items():
            head[field] = offset

        def put(field: int, values) -> None:
            values = np.asarray(values, dtype=np.uint64)
            work[offsets[field] : offsets[field] + values.size] = values

        put(wk.O_CLSTART, np.cumsum([0] + [len(t) for t in through]))
        put(wk.O_CLLINES, [i for t in through for i in t])
        put(wk.O_LTOT, [sum(line) for line in lines])
        put(wk.O_ORDER, order)
        rng = np.random.default_rng(ZOBRIST_SEED)
        put(wk.O_ZOB, rng.integers(1, 2**64, size=2 * cells, dtype=np.uint64, endpoint=False))
        work[wk.S_LIMIT] = wk.NO_LIMIT
        self.work = work
        self.tt = np.zeros(2 << self.tt_bits, dtype=np.uint64)  # 2 words an entry

    def internal(self, pos: Position):
        raise GameSpecError(f"{self.spec.name}: the wide search has no 64-bit layout")

    def batch_from_codes(self, codes: np.ndarray) -> Batch:
        raise GameSpecError(f"{self.spec.name}: the wide search has no 64-bit layout")

    def solve_internal(self, cur: int, mask: int, ply: int, *, weak: bool = False) -> int:
        raise GameSpecError(f"{self.spec.name}: the wide search has no 64-bit layout")

    @staticmethod
    def stones(pos: Position) -> np.ndarray:
        """The cells of ``pos``'s stones, X's and O's alternately from X (the kernel's form
        of a position, :func:`fastttt.kernels.wide.load_position`)."""
        xs, os = cells_of(pos.first), cells_of(pos.second)
        out = np.empty(len(xs) + len(os), dtype=np.int64)
        out[0::2], out[1::2] = xs, os
        return out

    def solve(
        self,
        pos: Position,
        *,
        weak: bool = False,
        max_nodes: int | None = None,
        seconds: float | None = None,
    ) -> SearchResult:
        """Score of a live position (module convention; budgets as :meth:`Searcher.solve`)."""
        self.check_live(pos)
        stones = self.stones(pos)
        before = self.nodes
        t0 = time.perf_counter()
        if self.spec.k == 1:  # the first stone wins (the kernels' threats start at k = 2)
            score = 1 if weak else score_base(self.spec) - 1
        else:
            args = (self.work, self.tt, stones, 0, stones.size, weak)
            if max_nodes is None and seconds is None:
                score = self._run(wk.solve_kernel, *args)
            else:
                with _Budget(self, max_nodes, seconds):
                    score = self._run(wk.solve_kernel, *args)
        return SearchResult(int(score), self.nodes - before, time.perf_counter() - t0, weak)

    def load_kernels(self) -> None:
        stones = np.zeros(0, dtype=np.int64)
        compile_kernel(wk.solve_kernel, self.work, self.tt, stones, 0, 0, False)
        compile_kernel(wk.table_move, self.work, self.tt, stones, 0, 0)

    def table_move(self, pos: Position) -> int | None:
        stones = self.stones(pos)
        at = int(wk.table_move(self.work, self.tt, stones, 0, stones.size))
        if at < 0:
            return None
        return at % self.spec.cols if self.spec.gravity else at

    def batch(self, positions: list[Position]) -> WideBatch:
        """Live positions (checked) in the kernel's form, for :meth:`solve_batch`."""
        for pos in positions:
            self.check_live(pos)
        parts = [self.stones(p) for p in positions]
        starts = np.zeros(len(parts) + 1, dtype=np.int64)
        np.cumsum([p.size for p in parts], out=starts[1:])
        stones = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        return WideBatch(stones, starts)

    def solve_batch(self, batch: WideBatch, *, weak: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Scores and node counts of the positions of ``batch``, in order, sharing the table
        (one kernel call, :func:`fastttt.kernels.wide.solve_many`: benchmarks compare it with
        :func:`solve_batch` of the 64-bit kernels)."""
        n = batch.starts.size - 1
        scores = np.zeros(n, dtype=np.int64)
        nodes = np.zeros(n, dtype=np.int64)
        if self.spec.k == 1:
            scores[:] = 1 if weak else score_base(self.spec) - 1
            return scores, nodes
        self._run(
            wk.solve_many, self.work, self.tt, batch.stones, batch.starts, weak, scores, nodes
        )
        return scores, nodes


class WideBatch(NamedTuple):
    """Live positions in the wide kernels' form: position i is ``stones[starts[i]:starts[i +
    1]]``, the cells of X's and O's stones alternately from X."""

    stones: np.ndarray
    starts: np.ndarray


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
    """The shared :class:`Searcher` of a game (its table persists between calls): the 64-bit
    kernels when the board's layout fits a uint64 (on :data:`SHARED_THREADS` threads), else a
    :class:`WideSearcher`."""
    spec = as_spec(spec)
    key = (spec, tt_bits)
    if key not in _SEARCHERS:
        if fits_64(spec):
            _SEARCHERS[key] = Searcher(spec, tt_bits=tt_bits, threads=SHARED_THREADS)
        else:
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


def warmup(wide: bool = False) -> float:
    """Compile (or load from the Numba cache) the search kernels; returns the seconds taken.
    Measured here: about 4 s from a cold cache, 0.2 s from a warm one. ``wide``: also those of
    :class:`WideSearcher` (about 10 s cold, 0.07 s warm; off by default, so that the 64-bit
    path, the Connect Four filter's start-up included, pays nothing for them)."""
    t0 = time.perf_counter()
    from fastttt.games.mnk.spec import mnk

    for spec in (mnk(4, 4, 3, gravity=True), mnk(3, 3, 3)):
        s = Searcher(spec, tt_bits=17)
        pos = Position.from_moves(spec, [0, 1] if spec.gravity else [4])
        s.solve(pos)
        cur, mask, ply = s.internal(pos)
        batch = Batch(np.array([cur], np.uint64), np.array([mask], np.uint64), np.array([ply]))
        solve_batch(s, batch)
        nk.play_columns(np.zeros(1, dtype=np.int64), 1, s.work)
        if wide:
            w = WideSearcher(spec, tt_bits=17)
            w.solve(pos)
            w.solve_batch(w.batch([pos]))
    return time.perf_counter() - t0
