"""Saving a Solution to disk and loading it back.

File layout (``.fttt``, format 2)::

    8 bytes   magic b"FASTTTT\\x00"
    4 bytes   header length H, little-endian uint32
    H bytes   header, UTF-8 JSON: format version, game (rows, cols, k, gravity), name, slots,
              solve seconds, counts
    N bytes   the table (one byte per slot, see fastttt.kernels.dense)
    4 bytes   CRC-32 of everything before it (magic, length, header and table), little-endian

A file is written as :mod:`fastttt.files` writes every file: to ``NAME.tmpPID`` in the same
folder, flushed, then renamed over the target, so it is complete or absent. Saving refuses a
target that is not a regular file, or a regular file that is not a fastttt table unless
``force``, and removes the temporary files that killed saves left next to the target.
Loading refuses anything but a regular file before reading it, then checks the magic, the
format version, the header's fields, the size and the checksum (which covers the header: an
edited game is refused), and the game when one is expected, with a message that says which.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np

from fastttt.errors import GameSpecError, InvalidArgumentError, TableFileError
from fastttt.files import (
    check_frame_size,
    check_target,
    open_regular,
    read_frame_header,
    read_frame_parts,
    write_framed,
)
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import GameSpec, as_spec, game_fields, mnk
from fastttt.tables.dense import Solution
from fastttt.tables.layout import slot_count
from fastttt.values import value_of_winner

MAGIC = b"FASTTTT\x00"
FORMAT_VERSION = 2
_GAME_FIELDS = {"rows": int, "cols": int, "k": int, "gravity": bool}
_FIELDS = {"format", "game", "name", "slots", "seconds", "counts"}


def _is_table(path: Path) -> bool:
    """Whether the regular file ``path`` starts with the magic bytes."""
    fd, _ = open_regular(path, "a table file", TableFileError)
    with os.fdopen(fd, "rb") as f:
        return f.read(len(MAGIC)) == MAGIC


def check_save_target(path: str | os.PathLike, force: bool = False) -> Path:
    """Refuse a save to ``path`` before any work: TableFileError when ``path`` exists and is
    not a regular file, is a regular file that is not a fastttt table (unless ``force``), or
    its folder is missing or not writable. Removes stale temporary files; returns the path."""
    return check_target(
        path,
        _is_table,
        "a fastttt table",
        TableFileError,
        force=force,
        force_hint=" (--force overwrites)",
    )


def save(solution: Solution, path: str | os.PathLike, *, force: bool = False) -> Path:
    """Write ``solution`` atomically to ``path``; returns the path.

    Refuses (TableFileError) what :func:`check_save_target` refuses; ``force`` overwrites a
    regular file that is not a fastttt table."""
    if not isinstance(solution, Solution):
        raise InvalidArgumentError(
            f"solution must be a solved table (fastttt.solve(...)), got {type(solution).__name__}"
        )
    path = check_save_target(path, force)
    spec = solution.spec
    header = {
        "format": FORMAT_VERSION,
        "game": game_fields(spec),
        "name": spec.name,
        "slots": int(solution.table.shape[0]),
        "seconds": float(solution.seconds),
        "counts": solution.counts(),
    }
    table = np.ascontiguousarray(solution.table, dtype=np.uint8)
    return write_framed(path, MAGIC, header, [table], TableFileError)


def _read_prefix(f, path: Path, size: int) -> tuple[dict, bytes]:
    """The JSON header (magic and format version checked) and the bytes it was read from."""
    header, prefix = read_frame_header(f, path, size, MAGIC, "a fastttt table", TableFileError)
    version = header.get("format")
    if type(version) is not int or version != FORMAT_VERSION:
        raise TableFileError(
            f"{path}: table format {version!r}, this fastttt reads format "
            f"{FORMAT_VERSION}; solve the game again (re-solve) to get a readable file"
        )
    return header, prefix


def read_header(path: str | os.PathLike) -> dict:
    """The JSON header of a table file (checks the magic and the format version only, not the
    checksum); ``_offset`` is where the table starts."""
    path = Path(path)
    fd, st = open_regular(path, "a table file", TableFileError)
    with os.fdopen(fd, "rb") as f:
        header, prefix = _read_prefix(f, path, st.st_size)
    header["_offset"] = len(prefix)
    return header


def _parse_header(header: dict, path: Path) -> tuple[GameSpec, int, float]:
    """Game, slot count and seconds of a header, each field of the exact type it is written
    with."""

    def damaged(what: str) -> TableFileError:
        return TableFileError(f"{path}: damaged header ({what})")

    if set(header) != _FIELDS:
        raise damaged(f"fields {sorted(header)}, expected {sorted(_FIELDS)}")
    g = header["game"]
    if not isinstance(g, dict) or set(g) != set(_GAME_FIELDS):
        raise damaged("game is not {rows, cols, k, gravity}")
    for key, kind in _GAME_FIELDS.items():
        if type(g[key]) is not kind:
            raise damaged(f"game {key} {g[key]!r} is not a {kind.__name__}")
    try:
        spec = mnk(g["rows"], g["cols"], g["k"], g["gravity"])
    except GameSpecError as err:
        raise damaged(f"game: {err}") from None
    if header["name"] != spec.name:
        raise damaged(f"name {header['name']!r} is not the game's, {spec.name!r}")
    slots, seconds = header["slots"], header["seconds"]
    if type(slots) is not int:
        raise damaged(f"slots {slots!r} is not an integer")
    if type(seconds) not in (int, float) or not math.isfinite(seconds) or seconds < 0:
        raise damaged(f"seconds {seconds!r}")
    # slot_count is arithmetic: no layout is built for a hand-made header
    if slot_count(spec) != slots:
        raise TableFileError(f"{path}: {slots} slots do not match the layout of {spec.name}")
    return spec, slots, float(seconds)


def load(path: str | os.PathLike, game: GameSpec | str | None = None) -> Solution:
    """Load a table written by :func:`save`; ``game`` (optional) must match the file's game.

    Raises TableFileError when ``path`` is not a regular file, not a table, of another format
    version, damaged (header or table: one CRC-32 covers both), or of another game."""
    path = Path(path)
    expected = None if game is None else as_spec(game)
    fd, st = open_regular(path, "a table file", TableFileError)
    with os.fdopen(fd, "rb") as f:
        header, prefix = _read_prefix(f, path, st.st_size)
        spec, slots, seconds = _parse_header(header, path)
        table = np.empty(slots, dtype=np.uint8)
        check_frame_size(path, st.st_size, prefix, [table], TableFileError)
        read_frame_parts(f, path, prefix, [table], TableFileError)
    if expected is not None and expected != spec:
        raise TableFileError(f"{path}: holds {spec.name}, expected {expected.name}")
    solution = Solution(spec, table, seconds)
    _check_sense(solution, path)
    return solution


SENSE_SAMPLE = 4096  # reachable positions whose stored ending is checked against the rules


def _check_sense(solution: Solution, path: Path) -> None:
    """Refuse (TableFileError) a table whose checksum matches but whose contents cannot be the
    header's game: another length than the game's table, a value code out of range, a depth
    beyond the cells, or a sample of reachable positions (the empty board among them) whose
    stored ending disagrees with the header's rules (finished by them exactly when the table
    says depth 0, with the winner they give): a table of another k under this header."""
    spec, table = solution.spec, solution.table
    if table.shape[0] != slot_count(spec):
        raise TableFileError(
            f"{path}: {table.shape[0]:,} slots, a table of {spec.name} has {slot_count(spec):,}"
        )
    bad = np.flatnonzero((table != 0) & ((table & 3) == 0))
    if bad.size:
        raise TableFileError(f"{path}: slot {bad[0]:,} holds {table[bad[0]]}, not a value code")
    deepest = int(table.max(initial=0)) >> 2
    if deepest > spec.cells:
        raise TableFileError(f"{path}: a depth of {deepest} plies on a board of {spec.cells} cells")
    codes = solution.reachable_codes()
    if codes.size == 0 or codes[0] != 0:
        raise TableFileError(f"{path}: the empty board is not in the table")
    if codes.size > SENSE_SAMPLE:
        pick = np.random.default_rng(0).choice(codes.size - 1, SENSE_SAMPLE - 1, replace=False)
        codes = np.concatenate([codes[:1], codes[1:][np.sort(pick)]])
    values, depths = solution.lookup(codes)
    for code, value, depth in zip(codes.tolist(), values.tolist(), depths.tolist(), strict=True):
        pos = Position.from_code(spec, code)
        winner = pos.winner()
        over = winner is not None or pos.is_full()
        if over != (depth == 0) or (over and value != value_of_winner(winner)):
            raise TableFileError(
                f"{path}: position {pos} is stored as {'finished' if depth == 0 else 'live'} "
                f"(value {value}), the rules of {spec.name} say otherwise: not this game's table"
            )
