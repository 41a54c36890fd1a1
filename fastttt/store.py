"""Saving a Solution to disk and loading it back.

File layout (``.fttt``)::

    8 bytes   magic b"FASTTTT\\x00"
    4 bytes   header length H, little-endian uint32
    H bytes   header, UTF-8 JSON: format version, game, slot count, CRC-32 of the table, counts
    N bytes   the table (one byte per slot, see fastttt.kernels.dense)

A file is written to a temporary name in the same folder, flushed to disk, then renamed over the
target: it is complete or absent, never half-written. Loading checks the magic, the format
version, the game (when one is expected), the size and the checksum, and refuses a mismatch with
a message that says which.
"""

from __future__ import annotations

import json
import os
import struct
import zlib
from pathlib import Path

import numpy as np

from fastttt.errors import GameSpecError, TableFileError
from fastttt.games import GameSpec, as_spec, mnk
from fastttt.layout import slot_count
from fastttt.solver import Solution

MAGIC = b"FASTTTT\x00"
FORMAT_VERSION = 1
_CHUNK = 64 * 2**20


def _crc32(table: np.ndarray) -> int:
    crc = 0
    view = memoryview(table)
    for start in range(0, len(view), _CHUNK):
        crc = zlib.crc32(view[start : start + _CHUNK], crc)
    return crc


def save(solution: Solution, path: str | os.PathLike) -> Path:
    """Write ``solution`` atomically to ``path``; returns the path."""
    path = Path(path)
    spec = solution.spec
    header = {
        "format": FORMAT_VERSION,
        "game": {"rows": spec.rows, "cols": spec.cols, "k": spec.k, "gravity": spec.gravity},
        "name": spec.name,
        "slots": int(solution.table.shape[0]),
        "crc32": _crc32(solution.table),
        "seconds": solution.seconds,
        "counts": solution.counts(),
    }
    blob = json.dumps(header, sort_keys=True).encode()
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            f.write(MAGIC)
            f.write(struct.pack("<I", len(blob)))
            f.write(blob)
            solution.table.tofile(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def read_header(path: str | os.PathLike) -> dict:
    """The JSON header of a table file (checks the magic and the format version only)."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            magic = f.read(len(MAGIC))
            if magic != MAGIC:
                raise TableFileError(f"{path}: not a fastttt table (bad magic bytes)")
            raw = f.read(4)
            if len(raw) != 4:
                raise TableFileError(f"{path}: truncated header")
            (length,) = struct.unpack("<I", raw)
            blob = f.read(length)
    except FileNotFoundError:
        raise TableFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise TableFileError(f"{path}: is a directory") from None
    try:
        header = json.loads(blob)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise TableFileError(f"{path}: damaged header") from None
    if not isinstance(header, dict):
        raise TableFileError(f"{path}: damaged header")
    if header.get("format") != FORMAT_VERSION:
        raise TableFileError(
            f"{path}: table format {header.get('format')!r}, this fastttt reads format "
            f"{FORMAT_VERSION}; solve the game again"
        )
    header["_offset"] = len(MAGIC) + 4 + length
    return header


def load(path: str | os.PathLike, game: GameSpec | str | None = None) -> Solution:
    """Load a table written by :func:`save`; ``game`` (optional) must match the file's game."""
    path = Path(path)
    header = read_header(path)
    try:
        g = header["game"]
        spec = mnk(int(g["rows"]), int(g["cols"]), int(g["k"]), bool(g["gravity"]))
        slots, crc = int(header["slots"]), int(header["crc32"])
    except (KeyError, TypeError, ValueError, GameSpecError):
        raise TableFileError(f"{path}: damaged header") from None
    if game is not None and as_spec(game) != spec:
        raise TableFileError(f"{path}: holds {spec.name}, expected {as_spec(game).name}")
    # slot_count is arithmetic: no layout is built for a hand-made header
    if slot_count(spec) != slots:
        raise TableFileError(f"{path}: {slots} slots do not match the layout of {spec.name}")
    table = np.fromfile(path, dtype=np.uint8, offset=header["_offset"])
    if table.shape[0] != slots:
        raise TableFileError(
            f"{path}: table has {table.shape[0]} bytes, header says {slots} (truncated?)"
        )
    if _crc32(table) != crc:
        raise TableFileError(f"{path}: checksum mismatch, the file is damaged")
    return Solution(spec, table, float(header.get("seconds", 0.0)))
