"""The value of every legal move, for pictures: exact where it can be had, else an estimate.

Values are from the side that plays the move (the mover), as in :mod:`fastttt.play.players`
(conversions from search and mate scores: :mod:`fastttt.values`):
``result`` +1 it wins, 0 draw, -1 it loses under perfect play (winner hurries, loser delays);
``plies`` counts plies from the current position to the end, the move itself included.
Sources, best first:

- ``table``: the solved table (boards whose table fits, :func:`fastttt.tables.cache.uses_table`);
- ``book``: the opening book shipped for the game (:func:`fastttt.search.book.shipped`), within
  its depth;
- ``search``: exact search (:mod:`fastttt.search.alphabeta`) move by move until a time budget runs
out
  (a child in the book is read from it); moves not reached have no value (``result`` None);
- ``engine``: Ultimate tic-tac-toe, the engine's iterative deepening (:mod:`fastttt.ultimate.
  engine`) within the budget; proven results are exact, the others are estimates
  (``estimate`` True, ``score`` the engine's side-to-move score after the move, mover's view,
  in evaluation points, :data:`ESTIMATE_UNIT`);
  moves not reached before a cancel have no value.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastttt.errors import InvalidArgumentError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import GameSpec
from fastttt.games.registry import State, game_of
from fastttt.values import mate_result, result_words, table_from_score

DEFAULT_SECONDS = 2.0
# What an estimate's ``score`` counts: the Ultimate engine's evaluation points for the mover
# (fastttt.search.ultimate.engine.Coeffs: a claimed centre board 30, corner 24, edge 20; mates
# apart)
ESTIMATE_UNIT = "points"
TICK = 0.01  # seconds between a stopper's checks
_POOL_LOCK = threading.Lock()
_SEARCHERS: dict[GameSpec, list[Any]] = {}  # idle Searchers, by game
_ENGINES: dict[None, list[Any]] = {}  # idle Ultimate engines
Progress = Callable[[str], None]  # a line for people: "3 of 7 moves valued"


@dataclass(frozen=True)
class MoveValue:
    """One move's value from the mover's side (see the module docstring)."""

    result: int | None  # +1 win, 0 draw, -1 loss; None: not valued within the budget
    plies: int | None = None  # to the end, this move included (exact values only)
    estimate: bool = False  # a heuristic estimate (Ultimate engine), not a proof
    score: int = 0  # estimates: the engine's score in ESTIMATE_UNIT, mover's view (+: good)

    def __str__(self) -> str:
        if self.result is None:
            return "unknown"
        if self.estimate:
            return f"estimate {self.score:+d} {ESTIMATE_UNIT}, not proven"
        return result_words(self.result, self.plies)

    def as_json(self) -> dict:
        return {
            "result": self.result,
            "plies": self.plies,
            "estimate": self.estimate,
            "score": self.score,
            "label": str(self),
        }


@dataclass(frozen=True)
class MoveValues:
    """Every legal move's :class:`MoveValue`, where they came from (``table``, ``book``,
    ``search`` or ``engine``) and whether the budget ran out before every move had an exact
    value."""

    values: dict[int, MoveValue]
    source: str
    complete: bool
    seconds: float


def move_values(
    state: Any,
    seconds: float = DEFAULT_SECONDS,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
) -> MoveValues:
    """The value of every legal move of ``state`` (a state of any game) within about
    ``seconds`` of search (tables are read whole, however long building them takes the first
    time: at most :data:`fastttt.tables.cache.PLAY_TABLE_MAX_SLOTS` slots). ``progress`` is called
    with a line of text for people as the work goes (``3 of 7 moves valued``). Setting
    ``cancel`` (from another thread) stops the search within milliseconds, as the budget running
    out does. The game picks the source (its :meth:`~fastttt.games.registry.Game.move_values`:
    :func:`board_values` on m,n,k boards, :func:`engine_values` on Ultimate)."""
    if not isinstance(state, State):
        raise InvalidArgumentError(
            f"expected a game state (fastttt.games.registry.State), got {type(state).__name__}"
        )
    start = time.perf_counter()
    done = game_of(state).move_values(state, seconds, progress, cancel)
    return MoveValues(done.values, done.source, done.complete, time.perf_counter() - start)


def board_values(
    pos: Position, seconds: float, progress: Progress | None, cancel: threading.Event | None
) -> MoveValues:
    """An m,n,k position's move values (:meth:`fastttt.families.mnk.MnkGame.move_values`): from the
    solved table where :func:`fastttt.tables.cache.uses_table` (built first if need be, saying so
    through ``progress``), else the shipped opening book and exact search move by move within
    ``seconds``."""
    from fastttt.play.players import move_outcomes
    from fastttt.tables.cache import table_ready, uses_table

    start = time.perf_counter()
    if uses_table(pos.spec) or pos.is_over():
        if progress and not pos.is_over() and not table_ready(pos.spec):
            progress(f"solving {pos.spec.name} (once: the table is kept)")
        values = {m: MoveValue(o.result, o.plies) for m, o in move_outcomes(pos).items()}
        return MoveValues(values, "table", True, time.perf_counter() - start)
    return _search_values(pos, start + seconds, progress, cancel)


def engine_values(
    state: Any, seconds: float, progress: Progress | None, cancel: threading.Event | None
) -> MoveValues:
    """An Ultimate position's move values (:meth:`fastttt.families.ultimate.UltimateGame.
    move_values`): the engine's search, move by move, within ``seconds`` in all."""
    return _engine_values(state, time.perf_counter() + seconds, progress, cancel)


class _Stopper:
    """``with _Stopper(fire, deadline, cancel) as s``: while the block runs, a helper thread
    calls ``fire()`` (which sets a kernel's stop word) every :data:`TICK` seconds once
    ``deadline`` (``time.perf_counter``) has passed or ``cancel`` is set; ``s.fired`` tells
    whether it did, so the block's result is then not to be trusted. Firing again and again
    covers kernels that clear their stop word as they start."""

    def __init__(self, fire: Callable[[], None], deadline: float, cancel: threading.Event | None):
        self.fire, self.deadline, self.cancel = fire, deadline, cancel
        self.fired = False
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="fastttt-stopper", daemon=True)

    def _watch(self) -> None:
        while not self._done.wait(TICK):
            if time.perf_counter() >= self.deadline or (self.cancel and self.cancel.is_set()):
                self.fired = True
                self.fire()

    def __enter__(self) -> _Stopper:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()


def _pooled(pool: dict[Any, list[Any]], key: Any, make: Callable[[], Any]):
    """A context manager lending an idle object of ``pool[key]`` (made when none is idle):
    concurrent jobs never share a search's work arrays, and later ones reuse its table."""

    @contextlib.contextmanager
    def lend():
        with _POOL_LOCK:
            idle = pool.setdefault(key, [])
            obj = idle.pop() if idle else None
        if obj is None:
            obj = make()
        try:
            yield obj
        finally:
            with _POOL_LOCK:
                pool[key].append(obj)

    return lend()


# --- exact search on boards without a table ---------------------------------------------


def _search_values(
    pos: Position, deadline: float, progress: Progress | None, cancel: threading.Event | None
) -> MoveValues:
    from fastttt.kernels import negamax as nk
    from fastttt.search.alphabeta import Searcher
    from fastttt.search.book import shipped

    book = shipped(pos.spec)
    moves = pos.legal_moves()
    values: dict[int, MoveValue] = {}
    searched = 0
    with _pooled(_SEARCHERS, pos.spec, lambda: Searcher(pos.spec)) as searcher:
        for i, move in enumerate(moves):
            child = pos.play(move)
            if child.winner() is not None:
                values[move] = MoveValue(1, 1)
            elif child.is_full():
                values[move] = MoveValue(0, 1)
            elif book is not None and (known := book.score(child)) is not None:
                values[move] = MoveValue(*table_from_score(pos.spec, pos.ply, -known))
            else:
                if time.perf_counter() >= deadline or (cancel and cancel.is_set()):
                    break
                with _Stopper(
                    lambda: searcher.work.__setitem__(nk.S_STOP, 1), deadline, cancel
                ) as stopper:
                    score = searcher.solve(child).score
                if stopper.fired:  # the table keeps only entries finished before the stop
                    break
                searched += 1
                values[move] = MoveValue(*table_from_score(pos.spec, pos.ply, -score))
            if progress:
                progress(f"{i + 1} of {len(moves)} moves valued")
    for move in moves:
        values.setdefault(move, MoveValue(None))
    complete = all(v.result is not None for v in values.values())
    from_book = book is not None and complete and searched == 0 and pos.ply < book.depth
    return MoveValues(values, "book" if from_book else "search", complete, 0.0)


# --- Ultimate: the engine's estimates ------------------------------------------------------


def _engine_values(
    state: Any, deadline: float, progress: Progress | None, cancel: threading.Event | None
) -> MoveValues:
    from fastttt.kernels import ultimate as K
    from fastttt.search.ultimate.engine import Engine

    moves = state.legal_moves()
    values: dict[int, MoveValue] = {}
    with _pooled(_ENGINES, None, lambda: Engine(tt_bits=18)) as engine:
        for i, move in enumerate(moves):
            child = state.play(move)
            if child.is_over():
                w = child.winner()
                values[move] = MoveValue(0 if w is None else 1, 1)
            else:
                if cancel and cancel.is_set():
                    break
                share = (deadline - time.perf_counter()) / (len(moves) - i)
                # the engine keeps its own time; a cancel sets its node limit to -1
                with _Stopper(
                    lambda: engine.ctl.__setitem__(K.C_LIMIT, -1), float("inf"), cancel
                ) as stopper:
                    try:
                        res = engine.search(child, time_ms=max(share, 0.001) * 1000)
                    except Exception:
                        if not stopper.fired:
                            raise
                if stopper.fired:
                    break
                score = -res.score
                remaining = int(K.remaining_plies(child.array()))
                mate = mate_result(score)
                if mate is not None:
                    values[move] = MoveValue(mate[0], 1 + mate[1])
                elif res.depth >= remaining and score == 0:
                    values[move] = MoveValue(0, 1 + remaining)
                else:
                    values[move] = MoveValue(_sign(score), None, True, score)
            if progress:
                progress(f"{i + 1} of {len(moves)} moves valued")
    for move in moves:
        values.setdefault(move, MoveValue(None))
    complete = not any(v.estimate or v.result is None for v in values.values())
    return MoveValues(values, "engine", complete, 0.0)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)
