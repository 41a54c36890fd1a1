"""Ultimate tic-tac-toe engine: iterative-deepening negamax alpha-beta with a transposition
table, a tunable evaluation, the handout's heuristic pruning as an option, exact solving.

Kernel: :func:`fastttt.kernels.ultimate.negamax` (behind :meth:`Engine.search` and
:func:`solve_exact`). Scores are from the SIDE TO MOVE: 0 draw, ``MATE - n`` a proven win in n
plies, ``-(MATE - n)`` a proven loss in n plies (the winner hurries, the loser delays); any
other score is a heuristic estimate (``|score| < MATE_BOUND``). Verdicts: ``"win in N"``,
``"draw"``, ``"loss in N"`` (N in plies, proven) or ``"estimate"``. The convention, ``MATE``,
``MATE_BOUND`` and :func:`~fastttt.values.verdict_of` are defined in :mod:`fastttt.values`.

Compilation of the kernels takes several seconds on a cold Numba cache (about 0.5 s to load a
warm one): call :func:`fastttt.play.ultimate_players.warmup` before timing anything.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from fastttt.errors import InvalidArgumentError, InvalidPositionError, require_int, require_type
from fastttt.games.ultimate.state import UltimateState
from fastttt.interrupt import run
from fastttt.kernels import ultimate as K
from fastttt.values import MATE as MATE  # re-exported: the mate scores live in fastttt.values
from fastttt.values import MATE_BOUND as MATE_BOUND
from fastttt.values import verdict_of as verdict_of

DEFAULT_NODE_BUDGET = 10_000_000  # solve_exact's budget: a few seconds on one core
MAX_NODES = 2**62  # a node budget, as the kernels count nodes (int64)


class Coeffs(NamedTuple):
    """Evaluation coefficients (the handout's ``jeu_de_coeffs``), in points for X minus O,
    turned to the side to move's view; ``free_move`` goes to the side to move when it may play
    in any open board."""

    board_center: int = 30  # a claimed centre board
    board_corner: int = 24  # a claimed corner board
    board_edge: int = 20  # a claimed edge board
    frame_two: int = 40  # two claimed boards in a frame line whose third is still open
    local_two: int = 4  # two stones in a local line whose third cell is empty (open board)
    local_center: int = 3  # the centre cell of an open board
    local_corner: int = 1  # a corner cell of an open board
    free_move: int = 6  # side to move may choose its board

    def array(self) -> np.ndarray:
        return np.array(self, dtype=np.int64)


DEFAULT_COEFFS = Coeffs()
_TWO: np.ndarray | None = None
_ZOB = K.zobrist_keys()


def two_table() -> np.ndarray:
    """The (cached) two-in-a-line table of the evaluation."""
    global _TWO
    if _TWO is None:
        _TWO = K.two_table()
    return _TWO


def evaluate(state: UltimateState, coeffs: Coeffs = DEFAULT_COEFFS) -> int:
    """Static evaluation of ``state`` from the side to move (kernel ``evaluate``)."""
    require_type(state, UltimateState, "state")
    return int(K.evaluate(state.array(), coeffs.array(), two_table()))


class SearchResult(NamedTuple):
    """``move``: best move (0..80, -1 if the game is over); ``score``: side-to-move score (see
    module); ``depth``: deepest completed iteration; ``nodes``: nodes searched in all;
    ``seconds``: wall time; ``verdict``: "win in N" / "draw" / "loss in N" / "estimate"."""

    move: int
    score: int
    depth: int
    nodes: int
    seconds: float
    verdict: str


class Engine:
    """Negamax alpha-beta engine with a transposition table of ``2**tt_bits`` entries.

    ``prune=(delta, stop)`` turns on the handout's heuristic pruning: at each node only the
    moves whose value (``lookahead``-ply plain minimax; 1 = static evaluation of the child) is
    less than ``delta`` below the best and above ``-stop`` are searched, and a node without such a
    move counts as lost; results are then never reported as proofs.
    The table and move history persist between searches (reuse one engine in a game).
    """

    def __init__(
        self,
        coeffs: Coeffs = DEFAULT_COEFFS,
        tt_bits: int = 20,
        prune: tuple[int, int] | None = None,
        lookahead: int = 1,
    ):
        size = 1 << require_int(tt_bits, "tt_bits", 4, 30)
        self.coeffs = coeffs
        self.prune = prune
        self.tt = (
            np.zeros(size, dtype=np.uint64),
            np.zeros(size, dtype=np.int32),
            np.zeros(size, dtype=np.int8),
            np.zeros(size, dtype=np.int8),
            np.zeros(size, dtype=np.int8),
        )
        self.work = (
            np.zeros((K.MAXPLY + 2, K.NS), dtype=np.int32),
            np.zeros(K.MAXPLY + 2, dtype=np.uint64),
            np.zeros((K.MAXPLY + 2, 81), dtype=np.int32),
            np.zeros((K.MAXPLY + 2, 81), dtype=np.int64),
            np.zeros(2 * 81, dtype=np.int64),
            np.zeros((K.MAXPLY + 2, K.NFRAME), dtype=np.int64),
        )
        self.ctl = np.zeros(K.NCTL, dtype=np.int64)
        if prune is not None:
            self.ctl[K.C_PRUNE] = 1
            self.ctl[K.C_DELTA] = int(prune[0])
            self.ctl[K.C_STOP] = int(prune[1])
        self.ctl[K.C_LOOK] = max(int(lookahead), 1)
        self.ctx = (self.ctl, coeffs.array(), two_table(), _ZOB)
        self.depth = 0  # of the iteration running now, and nodes of the finished ones:
        self.searched = 0  # what progress() reports

    def progress(self) -> str:
        """Depth and nodes of the search running now (safe to read from another thread)."""
        return f"depth {self.depth}, {self.searched + int(self.ctl[K.C_NODES]):,} nodes"

    def clear(self) -> None:
        for a in (*self.tt, self.work[4]):
            a[:] = 0

    def search_depth(self, state: UltimateState, depth: int, node_limit: int = 2**62):
        """One fixed-depth search: (score, best move, nodes, completed)."""
        self.ctl[K.C_NODES] = 0
        self.ctl[K.C_ABORTED] = 0
        self.ctl[K.C_LIMIT] = node_limit
        self.depth = depth
        # Ctrl-C sets the node limit to -1: the search stops at its next node, storing nothing
        score = run(
            K.search_root,
            state.array(),
            depth,
            self.tt,
            self.work,
            self.ctx,
            stop=self.ctl,
            slot=K.C_LIMIT,
            value=-1,
        )
        return (
            int(score),
            int(self.ctl[K.C_BEST]),
            int(self.ctl[K.C_NODES]),
            not self.ctl[K.C_ABORTED],
        )

    def search(
        self,
        state: UltimateState,
        *,
        time_ms: float | None = None,
        nodes: int | None = None,
        max_depth: int | None = None,
    ) -> SearchResult:
        """Iterative deepening under a time budget (ms) and/or a node budget, up to ``max_depth``.

        Stops early on a proof (a mate score, or a full-depth search). The time budget is kept
        by turning the remaining time into a node limit from the measured speed. The result is
        that of the deepest completed iteration (depth 1 always completes).
        """
        require_type(state, UltimateState, "state")
        if nodes is not None:
            nodes = require_int(nodes, "nodes", 1, MAX_NODES)
        if max_depth is not None:
            max_depth = require_int(max_depth, "max_depth", 1, K.MAXPLY)
        if time_ms is not None and not (
            isinstance(time_ms, (int, float, np.number))
            and not isinstance(time_ms, bool)
            and 0 < time_ms < 1e12
        ):
            raise InvalidArgumentError(f"time_ms must be a positive number, got {time_ms!r}")
        t0 = time.perf_counter()
        self.work[4][:] //= 2  # age the history
        remaining = int(K.remaining_plies(state.array()))
        if remaining == 0:
            return SearchResult(-1, 0, 0, 0, 0.0, verdict_of(0, True) if state.is_over() else "")
        top = remaining if max_depth is None else min(max_depth, remaining)
        total = 0
        best: tuple[int, int, int, bool] | None = None
        self.searched = 0
        for depth in range(1, top + 1):
            limit = 2**62
            if nodes is not None:
                limit = max(nodes - total, 1)
            if time_ms is not None and depth > 1:
                elapsed = time.perf_counter() - t0
                left = time_ms / 1000.0 - elapsed
                if left <= 0:
                    break
                nps = total / max(elapsed, 1e-6)
                limit = min(limit, max(int(left * nps), 1))
            if depth == 1:
                limit = 2**62  # always finish depth 1 (at most 82 nodes)
            score, move, used, done = self.search_depth(state, depth, limit)
            total += used
            self.searched = total
            if not done:
                break
            proven = self.prune is None and (abs(score) >= MATE_BOUND or depth >= remaining)
            best = (move, score, depth, proven)
            if proven:
                break
            if nodes is not None and total >= nodes:
                break
        assert best is not None  # depth 1 always finishes
        move, score, depth, proven = best
        return SearchResult(
            move, score, depth, total, time.perf_counter() - t0, verdict_of(score, proven)
        )


def solve_exact(
    state: UltimateState,
    node_budget: int | None = DEFAULT_NODE_BUDGET,
    engine: Engine | None = None,
):
    """Solve ``state`` exactly if its tree fits ``node_budget`` nodes (None: the default,
    :data:`DEFAULT_NODE_BUDGET`; there is no unlimited search), with ``engine`` (default: a
    fresh one with a 2**22-entry table; its :meth:`Engine.progress` reads from another thread
    while it searches).

    Returns ``(verdict, score, best_move, nodes)``: verdict ``"win in N"`` / ``"draw"`` /
    ``"loss in N"`` for the side to move (N = plies to the end, winner hurrying, loser
    delaying) when proven, else ``"estimate"`` with the deepest heuristic result; ``score``
    from the side to move (module convention); ``best_move`` 0..80 (-1 if the game is over).
    """
    if not isinstance(state, UltimateState):
        raise InvalidPositionError(f"expected an UltimateState, got {state!r}")
    if node_budget is None:
        node_budget = DEFAULT_NODE_BUDGET
    node_budget = require_int(node_budget, "node_budget", 1, MAX_NODES)
    if state.is_over():
        score = 0 if state.is_draw() else -MATE  # over and not drawn: the mover has lost
        return verdict_of(score, True), score, -1, 0
    engine = Engine(tt_bits=22) if engine is None else require_type(engine, Engine, "engine")
    res = engine.search(state, nodes=node_budget)
    return res.verdict, res.score, res.move, res.nodes
