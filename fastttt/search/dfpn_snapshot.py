"""A df-pn searcher saved to a file and loaded back: a long proof goes on in another process.

:class:`~fastttt.search.dfpn.ProofSearch` keeps everything it has learned in its table (and
zone cache), so a question asked again goes on where the last one stopped. A snapshot is that
table, the zone cache and the control words (settings and counters) with the nodes so far:
loaded into a searcher of the same game and settings, the next question searches exactly as
the saving searcher's next question would have (the same nodes, the same answer).

File layout: a framed file (:mod:`fastttt.files`) with the magic bytes ``FTTTDFPN``, a JSON
header (``format``, ``game``, ``tt_bits``, ``settings`` by name, ``keys``: the CRC-32 of the
Zobrist keys, ``nodes``, the shapes of the parts, ``info``: the caller's JSON object), then
the table, the zone cache and the control words (int64, native order), and the CRC-32 of all of
it. It is written as every fastttt file is (complete or absent; an existing file is replaced
only when it is a snapshot), and loading refuses another game, setting or key set, or a table
larger than the searcher's, with a message that names it, before it reads the table. A
searcher with a larger table takes every row of a smaller one: a question that outgrew its
table goes on in a bigger one.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import numpy as np

from fastttt.errors import InvalidArgumentError, TableFileError
from fastttt.files import (
    check_frame_size,
    check_target,
    crc32,
    file_head,
    open_regular,
    read_frame_header,
    read_frame_parts,
    write_framed,
)
from fastttt.games.mnk.spec import GameSpec, game_fields
from fastttt.kernels import dfpn as K
from fastttt.kernels import lines as L
from fastttt.memory import require_memory
from fastttt.search.dfpn import PROBE_SEARCHES, ProofSearch, zone_cache_shape
from fastttt.search.lineboard import Geometry

MAGIC = b"FTTTDFPN"
FORMAT_VERSION = 1
WHAT = "a df-pn snapshot"
_FIELDS = {"format", "game", "tt_bits", "settings", "keys", "nodes", "shapes", "info", "order"}
_PROBE_NAMES = {code: name for name, code in PROBE_SEARCHES.items()}


def settings(search: ProofSearch) -> dict[str, Any]:
    """The searcher's settings, by :class:`~fastttt.search.dfpn.ProofSearch`'s argument names,
    as its control words hold them (the order weight in eighths)."""
    ctl = search.ctl
    return {
        "epsilon": int(ctl[K.C_EPS_NUM]) / int(ctl[K.C_EPS_DEN]),
        "pairing": bool(ctl[K.C_PAIRING]),
        "pairing_nodes": int(ctl[K.C_PAIR_BUDGET]),
        "threat_nodes": int(ctl[K.C_TSS_BUDGET]),
        "zone_nodes": int(ctl[K.C_ZONE_BUDGET]),
        "weak_sums": bool(ctl[K.C_WEAK]),
        "pairing_zones": int(ctl[K.C_PZONE_TRIES]),
        "order_weight_eighths": int(ctl[K.C_ORDER]),
        "dependent_threats": bool(ctl[K.C_DEPENDENT]),
        "threat_offence": int(ctl[K.C_OFFENCE]),
        "sibling_zone_work": int(ctl[K.C_SIBLING]),
        "threat_probe_search": _PROBE_NAMES[int(ctl[K.C_THREAT_PROBE])],
        "zone_probe_search": _PROBE_NAMES[int(ctl[K.C_ZONE_PROBE])],
    }


def _keys_crc(search: ProofSearch) -> int:
    return crc32(np.ascontiguousarray(search.board.Z[L.Z_KEYS_AT :]))


def _parts(search: ProofSearch) -> list[np.ndarray]:
    return [search.tt, search.zone_cache, search.ctl]


def _require_search(search) -> None:
    if not isinstance(search, ProofSearch):
        raise InvalidArgumentError(
            f"search must be a fastttt.search.dfpn.ProofSearch, got {type(search).__name__}"
        )


def _is_snapshot(path: Path) -> bool:
    return file_head(path, len(MAGIC)) == MAGIC


def check_snapshot_target(path: str | os.PathLike, force: bool = False) -> Path:
    """Refuse a save to ``path`` before any work (TableFileError): a target that is not a
    regular file, a file other than a snapshot (unless ``force``), a missing or read-only
    folder. Returns the path."""
    return check_target(path, _is_snapshot, WHAT, TableFileError, force=force)


def save_snapshot(
    search: ProofSearch,
    path: str | os.PathLike,
    *,
    info: dict | None = None,
    force: bool = False,
) -> Path:
    """Write ``search``'s table, zone cache, control words and nodes to ``path`` (atomically;
    ``info``: a JSON object kept in the header for the caller); refuses what
    :func:`check_snapshot_target` refuses. Not while ``search`` is proving."""
    _require_search(search)
    if info is not None and not isinstance(info, dict):
        raise InvalidArgumentError(f"info must be a dict (JSON object), got {type(info).__name__}")
    path = check_snapshot_target(path, force)
    parts = _parts(search)
    header = {
        "format": FORMAT_VERSION,
        "game": game_fields(search.geometry),
        "tt_bits": search.tt_bits,
        "settings": settings(search),
        "keys": _keys_crc(search),
        "nodes": int(search.nodes),
        "shapes": [list(part.shape) for part in parts],
        "order": sys.byteorder,
        "info": info or {},
    }
    return write_framed(path, MAGIC, header, parts, TableFileError)


def _read_header(f, path: Path, size: int) -> tuple[dict, bytes]:
    header, prefix = read_frame_header(f, path, size, MAGIC, WHAT, TableFileError)
    version = header.get("format")
    if type(version) is not int or version != FORMAT_VERSION:
        raise TableFileError(
            f"{path}: snapshot format {version!r}, this fastttt reads format {FORMAT_VERSION}"
        )
    if set(header) != _FIELDS:
        raise TableFileError(
            f"{path}: damaged header (fields {sorted(header)}, expected {sorted(_FIELDS)})"
        )
    if not isinstance(header["info"], dict):
        raise TableFileError(f"{path}: damaged header (info is not a JSON object)")
    return header, prefix


def read_snapshot_header(path: str | os.PathLike) -> dict:
    """The header of the snapshot ``path`` (its ``info`` is the caller's object), read without
    the table: the checksum is checked by :func:`load_snapshot`, not here."""
    path = Path(path)
    fd, st = open_regular(path, WHAT, TableFileError)
    with os.fdopen(fd, "rb") as f:
        header, _ = _read_header(f, path, st.st_size)
    return header


def load_snapshot(search: ProofSearch, path: str | os.PathLike) -> dict:
    """Load the snapshot ``path`` into ``search`` (its table, zone cache, control words and
    nodes are replaced) and return the file's header. A table of the snapshot's size is read
    in place; a smaller one is read beside it and its rows put into ``search``'s (so the file's
    table must fit in memory too). Refuses (TableFileError) a file that is not a snapshot, of
    another size than its header says, or of another game, byte order, setting or key set
    than ``search``'s, or with a larger table, leaving ``search`` as it was; and one whose
    checksum fails, leaving ``search`` as it was when the table was read beside it, else with
    its table empty (:meth:`ProofSearch.reset`)."""
    _require_search(search)
    path = Path(path)
    fd, st = open_regular(path, WHAT, TableFileError)
    with os.fdopen(fd, "rb") as f:
        header, prefix = _read_header(f, path, st.st_size)
        _check_matches(header, search, path)
        grow = header["tt_bits"] < search.tt_bits
        if grow:
            table, zones = (tuple(shape) for shape in header["shapes"][:2])
            require_memory(8 * (np.prod(table) + np.prod(zones)), f"{path}'s table, read beside")
            parts = [np.empty(table, np.int64), np.empty(zones, np.int64)]
        else:
            parts = [search.tt, search.zone_cache]
        parts.append(np.empty_like(search.ctl))
        check_frame_size(path, st.st_size, prefix, parts, TableFileError)
        try:
            read_frame_parts(f, path, prefix, parts, TableFileError)
        except BaseException:
            if not grow:
                search.reset()
            raise
    if grow:
        search.reset()
        K.regrow_table(parts[0], search.tt, search.tt_bits)
        K.regrow_zone_cache(parts[1], search.zone_cache)
    search.ctl[...] = parts[2]
    search.ctl[K.C_TTBITS] = search.tt_bits
    search.nodes = header["nodes"]
    return header


def open_snapshot(path: str | os.PathLike, tt_bits: int | None = None) -> tuple[ProofSearch, dict]:
    """A searcher of the snapshot ``path``'s game and settings, with its table (of 2**``tt_bits``
    rows; default the file's), loaded: ``(search, header)``. Refuses what
    :func:`load_snapshot` refuses."""
    header = read_snapshot_header(path)
    try:
        spec = GameSpec(**header["game"])
        kwargs = dict(header["settings"])
        kwargs["order_weight"] = kwargs.pop("order_weight_eighths") / K.ORDER_SCALE
        search = ProofSearch(
            spec, tt_bits=header["tt_bits"] if tt_bits is None else tt_bits, **kwargs
        )
    except (TypeError, KeyError, AttributeError) as e:
        raise TableFileError(f"{path}: damaged header (game or settings: {e})") from None
    return search, load_snapshot(search, path)


def _check_matches(header: dict, search: ProofSearch, path: Path) -> None:
    """Refuse a snapshot that another searcher than ``search`` wrote."""
    geometry = search.geometry
    if header["game"] != game_fields(geometry):
        try:
            theirs = Geometry(**header["game"]).name
        except TypeError:
            theirs = repr(header["game"])
        raise TableFileError(f"{path}: a snapshot of {theirs}, this search is of {geometry.name}")
    bits = header["tt_bits"]
    if type(bits) is not int or not 4 <= bits <= 32:
        raise TableFileError(f"{path}: damaged header (tt_bits {bits!r})")
    if bits > search.tt_bits:
        raise TableFileError(
            f"{path}: a table of 2**{bits} rows does not fit this search's 2**{search.tt_bits}"
            f" (tt_bits {bits} or more reads it)"
        )
    if header["order"] != sys.byteorder:
        raise TableFileError(f"{path}: written {header['order']}-endian, this machine is not")
    ours = settings(search)
    theirs = header["settings"]
    if not isinstance(theirs, dict):
        raise TableFileError(f"{path}: damaged header (settings)")
    differ = [
        f"{name} {theirs.get(name)!r} (here {ours[name]!r})"
        for name in ours
        if theirs.get(name) != ours[name]
    ]
    if differ or set(theirs) != set(ours):
        extra = sorted(set(theirs) - set(ours))
        raise TableFileError(
            f"{path}: written by a search with other settings: "
            + ", ".join(differ + [f"{name} (unknown here)" for name in extra])
        )
    if header["keys"] != _keys_crc(search):
        raise TableFileError(
            f"{path}: written with other position keys (another fastttt version?), its table"
            " would be read wrong"
        )
    if type(header["nodes"]) is not int or header["nodes"] < 0:
        raise TableFileError(f"{path}: damaged header (nodes {header['nodes']!r})")
    cells = geometry.cells
    zones = zone_cache_shape(cells, bits, int(search.ctl[K.C_ZONE_BUDGET]))
    shapes = [[1 << bits, 4], list(zones), [K.CTL_SIZE]]
    if header["shapes"] != shapes:
        raise TableFileError(
            f"{path}: parts of shapes {header['shapes']}, a table of 2**{bits} rows has {shapes}"
        )


def require_room(folder: str | os.PathLike, size: int, files: int = 1) -> None:
    """Refuse (InvalidArgumentError) a disk without room in ``folder`` for ``files`` snapshots
    of ``size`` bytes written at once, each beside the file it replaces (which stays until the
    new one is complete)."""
    folder = Path(folder).absolute()
    need = 2 * files * size
    free = shutil.disk_usage(folder).free
    if free < need:
        raise InvalidArgumentError(
            f"snapshots: each takes {size / 2**30:.2f} GiB, and {files} at once need"
            f" {need / 2**30:.2f} GiB free in {folder}; {free / 2**30:.2f} GiB are"
        )


def snapshot_bytes(search: ProofSearch) -> int:
    """The bytes of a snapshot of ``search`` but its header (a few hundred): what a save needs
    on disk."""
    return sum(part.nbytes for part in _parts(search)) + 4
