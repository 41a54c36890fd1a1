"""Players chosen by name, and the perfect-play outcome of every move (used by hints).

A player is any object with a ``name`` and ``choose(state, rng) -> move``, where ``rng`` is a
:class:`random.Random` (every random choice goes through it, so a seed replays a game) and the
move is in API form (a cell, or a 0-based column with gravity; see :mod:`fastttt.games.mnk.board`).

Names understood by :func:`make_player`:

``human``          typed moves; the game loop (:mod:`fastttt.play.loop`) asks for them
``random``         a uniformly random legal move
``heuristic:P``    depth-P minimax with the handouts' line-counting evaluation
                   (:func:`fastttt.search.heuristic.search`), random among equal best moves
``alphabeta:P``    the same search with alpha-beta pruning (same values, fewer nodes)
``perfect``        perfect play: the solved table when the board fits in memory, exact search
                   otherwise; fastest win, else a draw, else slowest loss, random among equals

:func:`default_player` names the strongest player that answers within about a second a move:
``perfect`` where a table or exact search answers in seconds, else ``alphabeta:P`` at the depth
``P`` the board allows (:func:`bounded_depth`); :func:`perfect_play_cost` is the warning for
asking ``perfect`` where it is exact search (7 x 6 Connect Four: hours from the empty board).

Outcomes (:func:`move_outcomes`) are from the side that plays the move: ``result`` +1 it wins,
0 draw, -1 it loses, under perfect play by both sides (winner hurries, loser delays);
``plies`` counts plies from the current position to the end of the game, the move itself
included (a move that completes a line has ``plies == 1``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastttt.errors import UnknownPlayerError
from fastttt.games.mnk.board import BITBOARD_CELLS, Position
from fastttt.games.mnk.spec import GameSpec
from fastttt.games.registry import Player
from fastttt.tables.cache import solution_for, uses_table
from fastttt.values import relative, table_from_score

if TYPE_CHECKING:
    import numpy as np

    from fastttt.search.alphabeta import Searcher


@dataclass(frozen=True)
class Outcome:
    """Perfect-play outcome of one move, from the mover's side.

    ``result``: +1 win, 0 draw, -1 loss. ``plies``: plies to the end, this move included (for a
    draw from the table: plies until the board is full).
    """

    result: int
    plies: int

    def __str__(self) -> str:
        if self.result > 0:
            return f"win in {self.plies}"
        if self.result < 0:
            return f"loss in {self.plies}"
        return "draw"

    @property
    def sort_key(self) -> tuple[int, int]:
        """Larger is better: wins (sooner first), draws, losses (later first)."""
        if self.result > 0:
            return (2, -self.plies)
        if self.result < 0:
            return (0, self.plies)
        return (1, 0)


# --- perfect play: tables and search ---------------------------------------------------


def perfect_play_reach(
    spec: GameSpec, what: str = "perfect play", verb: str = "needs"
) -> str | None:
    """Why perfect play (and hints) cannot be had on ``spec``: no table is built for it and
    exact search does not take its board; None when they can. ``what`` (and its ``verb``)
    begin the sentence. Exact search takes every board a :class:`GameSpec` allows (over 64
    bits, :class:`fastttt.search.alphabeta.WideSearcher`), so this is None today; how long it takes
    is :func:`perfect_play_cost`'s warning."""
    from fastttt.kernels.wide import MAX_CELLS as SEARCH_MAX_CELLS

    if uses_table(spec) or spec.cells <= SEARCH_MAX_CELLS:
        return None
    return (
        f"{what} on {spec.name} {verb} exact search, which takes at most "
        f"{SEARCH_MAX_CELLS} cells; {default_player(spec)} plays it"
    )


def _score_outcome(pos: Position, score: int) -> Outcome:
    """The :class:`Outcome` of a move of ``pos`` from its exact search score (mover's side)."""
    return Outcome(*table_from_score(pos.spec, pos.ply, score))


def move_outcomes(pos: Position) -> dict[int, Outcome]:
    """Every legal move of ``pos`` with its perfect-play :class:`Outcome` (mover's side).

    Uses the solved table when the board fits (cached per game), else the opening book
    shipped for the game (:func:`fastttt.search.book.shipped`) within its depth, else
    :func:`fastttt.search.alphabeta.move_scores`. Empty for a finished game.
    """
    if pos.is_over():
        return {}
    if uses_table(pos.spec):
        outcomes = solution_for(pos.spec).move_outcomes(pos)
        return {m: Outcome(relative(v, pos.to_move), 1 + d) for m, (v, d) in outcomes.items()}
    from fastttt.search.alphabeta import move_scores
    from fastttt.search.book import shipped

    book = shipped(pos.spec)
    scores = book.move_scores(pos) if book is not None else None
    if scores is None:
        scores = move_scores(pos)
    return {int(m): _score_outcome(pos, s) for m, s in scores.items()}


def perfect_moves(pos: Position) -> list[int]:
    """The moves of ``pos`` (live) with the best perfect-play outcome, sorted: those of
    :func:`best_outcome_moves` over :func:`move_outcomes`, but past a table and the book's
    move scores only a null-window search per move against the position's exact score (from
    the book, else searched: :meth:`fastttt.search.alphabeta.Searcher.best_moves`)."""
    search = _search_past_the_book(pos)
    if search is None:
        return best_outcome_moves(move_outcomes(pos))
    searcher, score = search
    return searcher.best_moves(pos, score)


def perfect_move(pos: Position, rng: random.Random) -> int:
    """A uniformly random move of :func:`perfect_moves` from a table or the book's move scores;
    at the book's deepest positions the best move it keeps; past them, the first best move in
    the search's root order (:meth:`~fastttt.search.alphabeta.Searcher.root_order`: the table's
    move, then centre first; :meth:`~fastttt.search.alphabeta.Searcher.first_best_move`),
    which the search usually proves first and cheapest (Connect Four just past the book:
    1.3-1.6 CPU-s where a shuffled order took 3.2-4.1), so the choice there does not depend on
    ``rng``."""
    search = _search_past_the_book(pos)
    if search is None:
        return rng.choice(best_outcome_moves(move_outcomes(pos)))
    searcher, score = search
    from fastttt.search.book import shipped

    book = shipped(pos.spec)
    kept = book.best_move(pos) if book is not None else None
    if kept is not None:
        return kept
    return searcher.first_best_move(pos, searcher.root_order(pos), score)


def _search_past_the_book(pos: Position) -> tuple[Searcher, int | None] | None:
    """The exact searcher of ``pos`` and the book's score of it (None: not in the book) when
    neither a table nor the shipped book's move scores answer ``pos``; else None."""
    from fastttt.search.alphabeta import fits_64, searcher
    from fastttt.search.book import shipped

    book = shipped(pos.spec)
    if uses_table(pos.spec) or not fits_64(pos.spec) or (book and book.move_scores(pos)):
        return None
    return searcher(pos.spec), book.score(pos) if book else None


def best_outcome_moves(outcomes: dict[int, Outcome]) -> list[int]:
    """The moves with the best outcome: fastest win, else draw, else slowest loss (sorted)."""
    best = max(o.sort_key for o in outcomes.values())
    return sorted(m for m, o in outcomes.items() if o.sort_key == best)


# --- players -----------------------------------------------------------------------------


class HumanPlayer:
    """A person at the keyboard: :func:`fastttt.play.loop.play_game` reads the move."""

    name = "human"
    is_human = True

    def choose(self, state: Any, rng: random.Random) -> int:
        raise RuntimeError("a human's move is read by the game loop (fastttt.play.loop.play_game)")


class RandomPlayer:
    """A uniformly random legal move."""

    name = "random"

    def choose(self, state: Any, rng: random.Random) -> int:
        return rng.choice(list(state.legal_moves()))


class HeuristicPlayer:
    """Depth-limited search with the line-counting evaluation, random among equal best moves.

    ``method`` is ``"minimax"`` (``heuristic:P``) or ``"alphabeta"`` (``alphabeta:P``).
    """

    def __init__(self, depth: int, method: str = "minimax"):
        self.depth = depth
        self.method = method
        self.name = f"{'heuristic' if method == 'minimax' else 'alphabeta'}:{depth}"
        self._stats: np.ndarray | None = None  # the running search's counters and stop word

    def choose(self, state: Position, rng: random.Random) -> int:
        import numpy as np

        from fastttt.search.heuristic import K, search

        self._stats = np.zeros(K.STATS_STOP + 1, dtype=np.int64)
        _score, best, _nodes = search(state, self.depth, method=self.method, stats=self._stats)
        return rng.choice(sorted(int(m) for m in best))

    def stop(self) -> None:
        """From another thread: the search now running returns at once, its move meaningless
        (call it again until ``choose`` returns: a search starting later is not stopped)."""
        stats = self._stats
        if stats is not None:
            from fastttt.search.heuristic import K

            stats[K.STATS_STOP] = 1


class PerfectPlayer:
    """Perfect play: fastest win, else draw, else slowest loss; random among equal moves.

    The solved table when the board fits in memory (built once per process), else exact search.
    """

    name = "perfect"

    def __init__(self) -> None:
        self._spec: GameSpec | None = None
        self._start = 0

    def choose(self, state: Position, rng: random.Random) -> int:
        from fastttt.search.alphabeta import shared_searcher

        searcher = shared_searcher(state.spec)
        self._spec, self._start = state.spec, searcher.nodes if searcher is not None else 0
        return perfect_move(state, rng)

    def progress(self) -> str:
        """Nodes the game's shared exact searcher has visited during this choice, if any."""
        from fastttt.search.alphabeta import shared_searcher

        searcher = shared_searcher(self._spec) if self._spec is not None else None
        if searcher is None or searcher.nodes <= self._start:
            return ""
        return f"{searcher.nodes - self._start:,} nodes"


PLAYER_NAMES = ("human", "random", "heuristic:P", "alphabeta:P", "perfect")
MAX_DEPTH = 64  # a heuristic search depth, without a game to bound it by its cells

# alpha-beta visits about branching ** (0.75 * depth) positions from an empty board (measured
# 4 x 4 to 6 x 6 free, 7 x 6 gravity, depths 4 to 8; ~7 M positions/s): keep one move near 0.5 s
BOUNDED_NODES = 3_000_000
BOUNDED_MAX_DEPTH = 8
# exact search from the empty board, measured: 6 x 5 gravity 0.4 s, 4 x 6 free 0.5 s, but
# 5 x 5 k=5 free 22 s and 7 x 6 gravity hours
QUICK_SEARCH_CELLS = {True: 30, False: 24}  # gravity -> most cells


def bounded_depth(spec: GameSpec) -> int:
    """The deepest ``alphabeta`` depth (even, 2..8) expected to answer one move of ``spec``
    within about half a second: 8 on 7 x 6 Connect Four, 6 on 5 x 5, 4 on 6 x 6, 2 beyond."""
    branching = spec.cols if spec.gravity else spec.cells
    for depth in range(BOUNDED_MAX_DEPTH, 2, -2):
        if branching ** (0.75 * depth) <= BOUNDED_NODES:
            return depth
    return 2


def is_perfect_quick(spec: GameSpec) -> bool:
    """True when perfect play on ``spec`` answers within seconds: a table serves it, or the
    board is small enough for exact search (:data:`QUICK_SEARCH_CELLS`)."""
    return uses_table(spec) or spec.cells <= QUICK_SEARCH_CELLS[spec.gravity]


def default_player(spec: GameSpec) -> str:
    """The name of the strongest engine that answers within seconds on ``spec``: ``perfect``
    when a table or a quick search serves it, else ``alphabeta:P``; ``random`` on boards over
    64 cells, where the heuristic players (uint64 bitboards) do not play."""
    if is_perfect_quick(spec):
        return "perfect"
    if spec.cells > BITBOARD_CELLS:
        return "random"
    return f"alphabeta:{bounded_depth(spec)}"


def perfect_play_cost(spec: GameSpec) -> str | None:
    """A one-line warning when perfect play (or hints) on ``spec`` is exact search on a board
    too big for it to be quick, so that a move may take minutes or hours; else None."""
    if is_perfect_quick(spec):
        return None
    from fastttt.search.book import shipped

    book = shipped(spec)
    if book is not None:
        lines = f" and its own lines to {book.lines}" if book.lines > book.depth else ""
        return (
            f"perfect play on {spec.name} reads its opening book to {book.depth} plies{lines}, "
            f"then searches: a move just past the book can take seconds (hints longer); "
            f"{default_player(spec)} answers within a second"
        )
    return (
        f"perfect play on {spec.name} ({spec.describe()}) is exact search: "
        f"a move near the empty board can take minutes to hours; "
        f"{default_player(spec)} answers within a second"
    )


def make_player(name: str, spec: GameSpec | None = None) -> Player:
    """The player called ``name`` (see the module docstring) for the m,n,k-game ``spec``
    (None: no bound from a board). Every game's players: ``game.make_player(name)``
    (:class:`fastttt.games.registry.Game`). Raises :class:`UnknownPlayerError`.
    """
    if not isinstance(name, str):
        raise UnknownPlayerError(f"a player name must be a string, got {name!r}")
    key = name.strip().lower()
    if key == "human":
        return HumanPlayer()
    if key == "random":
        return RandomPlayer()
    if key == "perfect":
        reason = perfect_play_reach(spec) if spec is not None else None
        if reason:
            raise UnknownPlayerError(reason)
        return PerfectPlayer()
    kind, sep, depth = key.partition(":")
    if kind in ("heuristic", "alphabeta", "minimax"):
        if spec is not None and spec.cells > BITBOARD_CELLS:
            raise UnknownPlayerError(
                f"player {name!r}: the heuristic search takes boards of at most "
                f"{BITBOARD_CELLS} cells; {spec.name} has {spec.cells} (random and perfect "
                "play it)"
            )
        most = MAX_DEPTH if spec is None else spec.cells
        if (
            not sep
            or not (depth.strip().isascii() and depth.strip().isdigit())
            or not 1 <= int(depth) <= most
        ):
            raise UnknownPlayerError(
                f"player {name!r} needs a search depth from 1 to {most} (the cells of the "
                f"board), e.g. {kind}:3"
            )
        return HeuristicPlayer(int(depth), "alphabeta" if kind == "alphabeta" else "minimax")
    raise UnknownPlayerError(f"unknown player {name!r}; choose from {', '.join(PLAYER_NAMES)}")
