"""Which engine solves a board, and the tables the process keeps: one policy, one cache.

Two engines make a strong table: the dense one (:mod:`fastttt.tables.dense`: one byte per slot
of the compact layout, in RAM, fastest on free boards that fit) and the layered one
(:mod:`fastttt.tables.layered`: only legal positions get a slot, layer by layer, in RAM or on
disk). :func:`choose_engine` picks one for ``fastttt solve``; :func:`uses_table` says whether
play and hints read a table at all (else they search), and :func:`solution_for` gives the table
they read: the layered one on gravity boards (5x4: 0.1 s where the dense table took 26 s), the
dense one on free boards. Every table solved on request is kept here, once per engine and game,
until :func:`forget_solved`.

Importing this module loads no Numba: the solvers are imported when a table is solved.
"""

from __future__ import annotations

from typing import Any

from fastttt.errors import InvalidArgumentError
from fastttt.games.mnk.board import BITBOARD_CELLS
from fastttt.games.mnk.spec import GameSpec, as_spec

ENGINES = ("dense", "layered")
PLAY_TABLE_MAX_SLOTS = 100_000_000  # dense tables (free boards) built for play
PLAY_LAYERED_MAX_SLOTS = 30_000_000  # layered tables (gravity boards): about a second

_SOLVED: dict[tuple[str, GameSpec], Any] = {}  # (engine, game) -> its solution


def choose_engine(
    spec: GameSpec,
    engine: str = "auto",
    *,
    out=None,
    distributed: bool = False,
    max_bytes: int | None = None,
    save: bool = False,
) -> str:
    """ "dense" or "layered": the dense table when it fits and is the fastest (free boards
    that fit in RAM) or a table file is wanted (``save``), the layered solver for gravity
    boards, bigger boards, ``out`` or Dask."""
    from fastttt.tables.dense import fits_in_memory

    if engine not in ("auto", *ENGINES):
        raise InvalidArgumentError(f"engine must be auto, dense or layered, got {engine!r}")
    if engine == "dense" and (out is not None or distributed):
        raise InvalidArgumentError(
            "the dense engine keeps its table in RAM: --out, --workers and "
            "--scheduler go with the layered engine"
        )
    if engine != "auto":
        return engine
    if out is not None or distributed:
        return "layered"
    if spec.gravity and not save:
        return "layered"
    return "dense" if fits_in_memory(spec, max_bytes) else "layered"


def solved(spec: GameSpec | str, engine: str = "dense") -> Any:
    """The solution of ``spec`` by ``engine`` (``dense``: a
    :class:`~fastttt.tables.dense.Solution`; ``layered``: a
    :class:`~fastttt.tables.layered.LayeredSolution` in RAM), solved on the first call and kept
    for the process."""
    key = (engine, as_spec(spec))
    if key not in _SOLVED:
        if engine == "dense":
            from fastttt.tables.dense import solve

            _SOLVED[key] = solve(key[1])
        elif engine == "layered":
            from fastttt.tables.layered import solve_layered

            _SOLVED[key] = solve_layered(key[1])
        else:
            raise InvalidArgumentError(f"engine must be dense or layered, got {engine!r}")
    return _SOLVED[key]


def is_solved(spec: GameSpec | str, engine: str = "dense") -> bool:
    """Whether :func:`solved` already holds ``spec``'s table by ``engine``."""
    return (engine, as_spec(spec)) in _SOLVED


def forget_solved() -> None:
    """Drop every table kept by :func:`solved` (the next call solves again)."""
    _SOLVED.clear()


def play_engine(spec: GameSpec) -> str:
    """The engine whose table play and hints read: layered on gravity boards, else dense."""
    return "layered" if spec.gravity else "dense"


def solution_for(spec: GameSpec) -> Any:
    """The solved table that play and hints read (:func:`play_engine`), built once per
    process."""
    return solved(spec, play_engine(spec))


def table_ready(spec: GameSpec) -> bool:
    """Whether :func:`solution_for` holds ``spec``'s table already (no solve to wait for)."""
    return is_solved(spec, play_engine(spec))


def uses_table(spec: GameSpec) -> bool:
    """True when perfect play and hints for ``spec`` come from a solved table, not search
    (never over 64 cells: the tables index uint64 bitboards)."""
    if spec.cells > BITBOARD_CELLS:
        return False
    if table_ready(spec):
        return True
    if spec.gravity:
        from fastttt.tables.layered import plan

        return plan(spec).slots <= PLAY_LAYERED_MAX_SLOTS
    from fastttt.tables.dense import fits_in_memory
    from fastttt.tables.layout import slot_count

    # Tables above ~100 M slots take tens of seconds to build: search answers sooner.
    return slot_count(spec) <= PLAY_TABLE_MAX_SLOTS and bool(fits_in_memory(spec))
