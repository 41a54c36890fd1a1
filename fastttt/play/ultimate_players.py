"""Computer players for Ultimate tic-tac-toe, chosen by name (see :func:`make_player`).

Each player has ``.name`` and ``.choose(state, rng) -> move`` (0..80); all randomness comes
from ``rng`` (a ``random.Random``), so seeded matches replay exactly (except ``engine:MS``,
whose depth depends on the machine's speed).
"""

from __future__ import annotations

import random

import numpy as np

from fastttt.errors import UnknownPlayerError
from fastttt.games.ultimate.state import UltimateState
from fastttt.interrupt import new_stop, run
from fastttt.kernels import ultimate as K
from fastttt.play.players import HumanPlayer, RandomPlayer
from fastttt.search.ultimate.engine import DEFAULT_COEFFS, Coeffs, Engine, SearchResult, two_table

PLAYER_NAMES = ("random", "engine", "engine:MS", "engine:nNODES", "mcts:N", "minimax:P")
DEFAULT_ENGINE_MS = 200


class EnginePlayer:
    """Iterative-deepening alpha-beta under a time (ms) or node budget."""

    def __init__(self, time_ms: int | None = None, nodes: int | None = None):
        self.time_ms = time_ms
        self.nodes = nodes
        self.name = f"engine:n{nodes}" if nodes is not None else f"engine:{time_ms}"
        self.engine = Engine()
        self.last: SearchResult | None = None

    def choose(self, state: UltimateState, rng: random.Random) -> int:
        self.last = self.engine.search(state, time_ms=self.time_ms, nodes=self.nodes)
        return self.last.move

    def progress(self) -> str:
        """How far the search now running has got (read from another thread by ``play``)."""
        return self.engine.progress()

    def stop(self) -> None:
        """From another thread: the search now running stops at its next node, its move
        meaningless (call it again until ``choose`` returns: each iteration resets the limit)."""
        self.engine.ctl[K.C_LIMIT] = -1


class MCTSPlayer:
    """UCT with ``playouts`` random playouts (Numba kernel ``mcts``); most visited move."""

    def __init__(self, playouts: int, c_uct: float = 1.4):
        self.playouts = playouts
        self.c_uct = c_uct
        self.name = f"mcts:{playouts}"
        self._stop = new_stop()

    def choose(self, state: UltimateState, rng: random.Random) -> int:
        seed = K.rng_state(rng.getrandbits(64))
        moves = np.zeros(81, dtype=np.int32)
        visits = np.zeros(81, dtype=np.float64)
        stop = self._stop
        args = (state.array(), self.playouts, self.c_uct, seed, moves, visits, stop)
        n = run(K.mcts, *args, stop=stop)
        top = visits[:n].max()
        best = [int(m) for m, v in zip(moves[:n], visits[:n], strict=True) if v == top]
        return int(rng.choice(best))

    def stop(self) -> None:
        """From another thread: this player's searches stop at once, their moves meaningless."""
        self._stop[0] = 1


class MinimaxPlayer:
    """Plain depth-P minimax (no pruning) with the engine's evaluation; random among the best."""

    def __init__(self, depth: int, coeffs: Coeffs = DEFAULT_COEFFS):
        self.depth = depth
        self.coeffs = coeffs.array()
        self.name = f"minimax:{depth}"
        self._stop = new_stop()

    def choose(self, state: UltimateState, rng: random.Random) -> int:
        moves = np.zeros(81, dtype=np.int32)
        scores = np.zeros(81, dtype=np.int64)
        stop = self._stop
        args = (state.array(), self.depth, self.coeffs, two_table(), moves, scores, stop)
        n = run(K.minimax_root, *args, stop=stop)
        top = scores[:n].max()
        best = [int(m) for m, v in zip(moves[:n], scores[:n], strict=True) if v == top]
        return int(rng.choice(best))


# Upper bounds of the players' parameters: beyond them a move would not answer in a day, or
# MCTS would allocate its tree (about 640 bytes a playout) beyond a machine's memory.
MAX_PLAYOUTS = 1_000_000
MAX_DEPTH = 81  # plies left in a game at most
MAX_NODES = 10**12  # about a day of search
MAX_TIME_MS = 86_400_000  # a day


def _positive(text: str, what: str, name: str, most: int) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= most:
        raise UnknownPlayerError(
            f"player {name!r}: {what} must be an integer from 1 to {most:,}, got {text!r}"
        )
    return int(text)


def make_player(spec: str):
    """A player from its name: ``human`` (typed moves); ``random``; ``engine`` (200 ms a
    move), ``engine:MS`` (time budget in ms), ``engine:nNODES`` (node budget); ``mcts:N`` (N
    playouts a move);
    ``minimax:P`` (plain depth-P minimax). Raises UnknownPlayerError (a ValueError) with a
    one-line message for an unknown name or a parameter out of range."""
    if not isinstance(spec, str):
        raise UnknownPlayerError(f"a player name must be a string, got {spec!r}")
    key = spec.strip().lower()
    kind, sep, arg = key.partition(":")
    if key == "human":
        return HumanPlayer()
    if kind == "random" and not sep:
        return RandomPlayer()
    if kind == "engine":
        if not sep:
            return EnginePlayer(time_ms=DEFAULT_ENGINE_MS)
        if arg.startswith("n"):
            return EnginePlayer(nodes=_positive(arg[1:], "the node budget", spec, MAX_NODES))
        return EnginePlayer(time_ms=_positive(arg, "the time budget (ms)", spec, MAX_TIME_MS))
    if kind == "mcts" and sep:
        return MCTSPlayer(_positive(arg, "the number of playouts", spec, MAX_PLAYOUTS))
    if kind == "minimax" and sep:
        return MinimaxPlayer(_positive(arg, "the depth", spec, MAX_DEPTH))
    raise UnknownPlayerError(
        f"unknown Ultimate player {spec!r}; choose from human, {', '.join(PLAYER_NAMES)}"
    )


def warmup() -> None:
    """Compile (or load from the Numba cache) every Ultimate kernel on a tiny input."""
    state = UltimateState.from_moves([40, 36])
    Engine(tt_bits=8).search(state, max_depth=2)
    K.random_playouts(state.array(), 1, np.array([12345], dtype=np.uint64))
    make_player("mcts:10").choose(state, random.Random(0))
    make_player("minimax:1").choose(state, random.Random(0))
