"""The value of every legal move, for pictures: exact where it can be had, else an estimate.

Values are from the side that plays the move (the mover), as in :mod:`fastttt.players`:
``result`` +1 it wins, 0 draw, -1 it loses under perfect play (winner hurries, loser delays);
``plies`` counts plies from the current position to the end, the move itself included.
Sources, best first:

- ``table``: the solved table (boards whose table fits, :func:`fastttt.players.uses_table`);
- ``search``: exact search (:mod:`fastttt.search`) move by move until a time budget runs out;
  moves not reached have no value (``result`` None);
- ``engine``: Ultimate tic-tac-toe, the engine's iterative deepening (:mod:`fastttt.ultimate.
  engine`) within the budget; proven results are exact, the others are estimates
  (``estimate`` True, ``score`` the engine's side-to-move score after the move, mover's view).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastttt.board import Position
from fastttt.games import GameSpec

DEFAULT_SECONDS = 2.0
Progress = Callable[[int, int], None]  # (moves valued, legal moves)


@dataclass(frozen=True)
class MoveValue:
    """One move's value from the mover's side (see the module docstring)."""

    result: int | None  # +1 win, 0 draw, -1 loss; None: not valued within the budget
    plies: int | None = None  # to the end, this move included (exact values only)
    estimate: bool = False  # a heuristic estimate (Ultimate engine), not a proof
    score: int = 0  # estimates: the engine's score, mover's view (positive: good for it)

    def __str__(self) -> str:
        if self.result is None:
            return "unknown"
        if self.estimate:
            return f"estimate {self.score:+d}"
        if self.result > 0:
            return f"win in {self.plies}"
        if self.result < 0:
            return f"loss in {self.plies}"
        return "draw"

    def as_json(self) -> dict:
        return {"result": self.result, "plies": self.plies, "estimate": self.estimate,
                "score": self.score, "label": str(self)}


@dataclass(frozen=True)
class MoveValues:
    """Every legal move's :class:`MoveValue`, where they came from (``table``, ``search`` or
    ``engine``) and whether the budget ran out before every move had an exact value."""

    values: dict[int, MoveValue]
    source: str
    complete: bool
    seconds: float


def move_values(
    state: Any, seconds: float = DEFAULT_SECONDS, progress: Progress | None = None
) -> MoveValues:
    """The value of every legal move of ``state`` (a Position or an UltimateState) within about
    ``seconds`` of search (tables are read whole, however long building them takes the first
    time: at most :data:`fastttt.players.PLAY_TABLE_MAX_SLOTS` slots)."""
    start = time.perf_counter()
    if isinstance(state, Position):
        from fastttt.players import move_outcomes, uses_table

        if uses_table(state.spec) or state.is_over():
            values = {m: MoveValue(o.result, o.plies) for m, o in move_outcomes(state).items()}
            done = MoveValues(values, "table", True, time.perf_counter() - start)
        else:
            done = _search_values(state, start + seconds, progress)
    else:
        done = _engine_values(state, start + seconds, progress)
    return MoveValues(done.values, done.source, done.complete, time.perf_counter() - start)


# --- exact search on boards without a table ---------------------------------------------

_SEARCHERS: dict[GameSpec, Any] = {}
_SEARCH_LOCK = threading.Lock()  # one search at a time: a Searcher's work array is shared


def _search_values(pos: Position, deadline: float, progress: Progress | None) -> MoveValues:
    from fastttt.kernels import negamax as nk
    from fastttt.players import _score_outcome
    from fastttt.search import Searcher

    moves = pos.legal_moves()
    values: dict[int, MoveValue] = {}
    with _SEARCH_LOCK:
        if pos.spec not in _SEARCHERS:
            _SEARCHERS[pos.spec] = Searcher(pos.spec)
        searcher = _SEARCHERS[pos.spec]
        for i, move in enumerate(moves):
            child = pos.play(move)
            if child.winner() is not None:
                values[move] = MoveValue(1, 1)
            elif child.is_full():
                values[move] = MoveValue(0, 1)
            else:
                left = deadline - time.perf_counter()
                if left <= 0:
                    break
                score = _stoppable(searcher, child, left, nk.S_STOP)
                if score is None:
                    break
                outcome = _score_outcome(pos, -score)
                values[move] = MoveValue(outcome.result, outcome.plies)
            if progress:
                progress(i + 1, len(moves))
    for move in moves:
        values.setdefault(move, MoveValue(None))
    complete = all(v.result is not None for v in values.values())
    return MoveValues(values, "search", complete, 0.0)


def _stoppable(searcher: Any, child: Position, seconds: float, stop_slot: int):
    """The child's exact score, or None when the search was stopped after ``seconds`` (a
    timer sets the kernel's stop word; the searcher's table keeps only finished entries)."""
    timer = threading.Timer(seconds, searcher.work.__setitem__, (stop_slot, 1))
    timer.start()
    try:
        score = searcher.solve(child).score
    finally:
        timer.cancel()
    if searcher.work[stop_slot]:
        searcher.work[stop_slot] = 0
        return None
    return score


# --- Ultimate: the engine's estimates ------------------------------------------------------

_ENGINE_LOCK = threading.Lock()
_ENGINE: list[Any] = []


def _engine_values(state: Any, deadline: float, progress: Progress | None) -> MoveValues:
    from fastttt.kernels import ultimate as K
    from fastttt.ultimate.engine import MATE, MATE_BOUND, Engine

    moves = state.legal_moves()
    values: dict[int, MoveValue] = {}
    with _ENGINE_LOCK:
        if not _ENGINE:
            _ENGINE.append(Engine(tt_bits=18))
        engine = _ENGINE[0]
        for i, move in enumerate(moves):
            child = state.play(move)
            if child.is_over():
                w = child.winner()
                values[move] = MoveValue(0 if w is None else 1, 1)
            else:
                share = (deadline - time.perf_counter()) / (len(moves) - i)
                res = engine.search(child, time_ms=max(share, 0.001) * 1000)
                score = -res.score
                remaining = int(K.remaining_plies(child.array()))
                if score >= MATE_BOUND:
                    values[move] = MoveValue(1, 1 + MATE - score)
                elif score <= -MATE_BOUND:
                    values[move] = MoveValue(-1, 1 + MATE + score)
                elif res.depth >= remaining and score == 0:
                    values[move] = MoveValue(0, 1 + remaining)
                else:
                    values[move] = MoveValue(_sign(score), None, True, score)
            if progress:
                progress(i + 1, len(moves))
    complete = not any(v.estimate for v in values.values())
    return MoveValues(values, "engine", complete, 0.0)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)
