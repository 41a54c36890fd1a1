"""Layer stores: the reach and value arrays of a layered solve, chunked, checksummed, resumable.

Layer ``n`` holds the positions with ``n`` stones; each (kind, layer) is a 1-D ``uint8`` array
of ``layer_sizes[n]`` slots cut into chunks of ``chunk`` slots (the last one shorter, a layer of
0 slots has 0 chunks). A win/draw/loss table (``values`` "wdl") packs its value layers
:data:`WDL_SLOTS` (4) slots a byte: slot ``i`` is bits ``2 * (i % 4)`` of byte ``i // 4``, the
v of the table bytes (1 first player wins, 2 draw, 3 second player wins, 0 no position;
:func:`pack_wdl`, :func:`unpack_wdl`); its array has ``ceil(size / 4)`` bytes in chunks of
``chunk / 4`` bytes (``chunk`` a multiple of 4: a chunk of slots is whole bytes).
:class:`LayerStore` keeps them on disk, :class:`MemoryLayerStore` in RAM with the same
methods, so that the solver has one code path.

On-disk layout::

    <path>/
        manifest.json          what the folder holds and which layers are complete
        reach/<layer>/         one zarr v3 array per layer (forward pass)
            zarr.json          shape, chunk shape, codecs: bytes -> zstd(3) -> crc32c
            c/<chunk>          one file per chunk
            sums/<chunk>       the chunk's CRC-32 bound to its place (below)
        value/<layer>/         same, final values

``manifest.json`` fields: ``format`` ("fastttt-layered"), ``version`` (3; 4 for a live table, so
that a reader of version 3 alone refuses it; 5 for a live table that drops whole layers, 6 for one
that drops them chunk by chunk), ``game`` (the
game's description), ``index`` and ``symmetry`` (how slots are numbered), ``layer_sizes``, ``chunk``
(slots per chunk), ``values`` ("depth": value and depth a byte; "wdl": win/draw/loss, packed; absent
in folders written before it, which hold "depth"), ``positions`` ("reachable": every reachable
position, after a forward pass; "live": every canonical colouring with no line, reachable or not,
and no finished position, without one; absent: "reachable"), ``keep_every`` (K: a live WDL table may
keep only the value layers that are multiples of K, each other one deleted as the layer below it
is solved; absent: 1), ``complete`` (``{"reach": [layers], "value": [layers]}``), ``dropped`` (value
layers solved, then deleted: whole once the layer below is solved, or while it is solved in version
6, each chunk once the chunks that read it are written; absent: none), ``info`` (free JSON
fields: timings, counts, ...),
``table`` (a random id made with the folder) and ``crc32``, the CRC-32 of every other field
(canonical JSON: sorted keys, no spaces), so that an edited manifest (another k, or ``values``) is
refused rather than read as another game.

Each layer's array metadata names the table id, kind and layer (a manifest from another folder
is refused), and each chunk's ``sums`` file holds the CRC-32 of its decoded bytes seeded with
``table/kind/layer/chunk``: a chunk copied from another layer, place or folder is refused even
when its bytes are valid (version 2 folders are refused: solve them again).

Guarantees:

* the manifest is complete or absent: written to a temporary file in the same folder, flushed,
  fsynced, renamed over the old one; only the driver process writes it, workers write chunks;
* a layer is listed in ``complete`` only once every chunk file of it exists and is fsynced;
* each chunk carries a crc32c of its compressed bytes; a flipped byte or a truncated file is
  refused with a :class:`~fastttt.errors.TableFileError` naming layer, kind and chunk;
* every chunk is written, all-zero ones included, and a missing chunk file is refused (zarr would
  otherwise read it back as zeros);
* chunk files are written to a temporary name and renamed (zarr's ``LocalStore``), so that
  workers writing different chunks of one array at once never see each other's halves.
* a resume keeps the chunks a stopped solve wrote of an unfinished layer (:meth:`resume_layer`):
  the solver reads them back, checksums checked, and computes only the others.

Why zarr: chunked arrays with a standard, checksummed codec pipeline that other tools can read
(``zarr.open_array(<path>/value/5)`` in any zarr v3 reader), and a store abstraction that maps
to object stores. An object store plugs in by swapping ``LocalStore`` for
``zarr.storage.FsspecStore.from_url("s3://bucket/table", storage_options=...)`` in
``_open_array``, writing the manifest with one ``fsspec`` put (atomic per object), and testing
for missing chunks with the store's ``exists`` instead of the file system.

zarr is optional: this module imports without it, and the first :class:`LayerStore` call raises
:class:`~fastttt.errors.MissingDependencyError`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import uuid
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from fastttt.errors import InvalidArgumentError, MissingDependencyError, TableFileError
from fastttt.files import sync_file, sync_folder, write_atomic
from fastttt.interrupt import sigint_held

FORMAT = "fastttt-layered"
FORMAT_VERSION = 3  # 2: the manifest carries its own CRC-32; 3: a table id binds its chunks
# a live table (``positions`` "live"): a version a reader of version 3 alone refuses, rather
# than reading its 0 bytes (finished games) as positions no game reaches
LIVE_FORMAT_VERSION = 4
# a live table that keeps only some value layers (``keep_every`` > 1): a reader of version 4
# alone would take the dropped layers for unfinished ones and solve them again
SPARSE_FORMAT_VERSION = 5
# the same, its layers dropped chunk by chunk while the layer below is solved: a reader of
# version 5 alone would delete the chunks a resume still reads
DRAIN_FORMAT_VERSION = 6
KINDS = ("reach", "value")
DEFAULT_CHUNK = 1 << 20  # slots (bytes) a chunk: a task of a fraction of a second
# past 2**33 slots (Connect Four 6x6 and up): fewer chunk files and tasks (Connect Four 5x6,
# live WDL on disk: 68 CPU-s and 255 MB with it against 83-85 CPU-s and 318 MB)
BIG_CHUNK = 1 << 24
ZSTD_LEVEL = 3
MANIFEST = "manifest.json"
SUMS = "sums"  # per layer: one file per chunk, its CRC-32 bound to its place

VALUES = ("depth", "wdl")  # what a value layer holds: depth << 2 | v a byte, or v in 2 bits
# which positions the value layers hold: the reachable ones (a forward pass first), or every
# canonical colouring with no line, reachable or not, and no finished game (no forward pass)
POSITIONS = ("reachable", "live")
WDL_SLOTS = 4  # slots a byte of a packed (wdl) value layer
_MATCHED_FIELDS = (
    "game",
    "index",
    "symmetry",
    "layer_sizes",
    "chunk",
    "values",
    "positions",
    "keep_every",
)


def require_zarr():
    """The zarr module, or MissingDependencyError."""
    try:
        import zarr
        import zarr.codecs
        import zarr.storage
    except ImportError as exc:
        raise MissingDependencyError(
            "the on-disk layered store needs zarr: pip install 'fastttt[store]'"
        ) from exc
    return zarr


def pack_wdl(values: np.ndarray) -> np.ndarray:
    """Four 2-bit values a byte (the low two bits of each of ``values``, uint8), slot ``i`` in
    bits ``2 * (i % 4)`` of byte ``i // 4``; the last byte padded with 0. Inverse:
    :func:`unpack_wdl`."""
    padded = np.zeros(-(-values.shape[0] // WDL_SLOTS) * WDL_SLOTS, dtype=np.uint8)
    padded[: values.shape[0]] = values & 3
    quads = padded.reshape(-1, WDL_SLOTS)
    return quads[:, 0] | quads[:, 1] << 2 | quads[:, 2] << 4 | quads[:, 3] << 6


def unpack_wdl(packed: np.ndarray, size: int) -> np.ndarray:
    """The first ``size`` 2-bit values of a packed layer, one uint8 each (:func:`pack_wdl`)."""
    shifts = np.arange(0, 8, 2, dtype=np.uint8)
    return ((packed[:, None] >> shifts) & 3).reshape(-1)[:size]


def _format_version(positions: str, keep_every: int) -> int:
    if keep_every > 1:
        return DRAIN_FORMAT_VERSION
    return LIVE_FORMAT_VERSION if positions == "live" else FORMAT_VERSION


def _read_versions(positions: str, keep_every: int) -> tuple[int, ...]:
    """The versions a table of these fields may have: a table dropping layers written before
    chunk-by-chunk drops is version 5 (this fastttt drops its layers whole)."""
    if keep_every > 1:
        return DRAIN_FORMAT_VERSION, SPARSE_FORMAT_VERSION
    return (_format_version(positions, keep_every),)


def _new_manifest(
    game,
    index,
    symmetry,
    layer_sizes,
    chunk,
    values="depth",
    positions="reachable",
    keep_every=1,
) -> dict:
    if not isinstance(game, dict):
        raise InvalidArgumentError(f"game must be a dict, got {type(game).__name__}")
    if not isinstance(index, str) or not isinstance(symmetry, str):
        raise InvalidArgumentError("index and symmetry must be strings")
    sizes = list(layer_sizes)
    if not all(isinstance(s, (int, np.integer)) and s >= 0 for s in sizes):
        raise InvalidArgumentError(f"layer_sizes must be integers >= 0, got {sizes!r}")
    if not isinstance(chunk, (int, np.integer)) or chunk < 1:
        raise InvalidArgumentError(f"chunk must be an integer >= 1, got {chunk!r}")
    if values not in VALUES:
        raise InvalidArgumentError(f"values must be one of {VALUES}, got {values!r}")
    if values == "wdl" and chunk % WDL_SLOTS:
        raise InvalidArgumentError(
            f"a win/draw/loss table packs {WDL_SLOTS} slots a byte: chunk must be a multiple "
            f"of {WDL_SLOTS}, got {chunk}"
        )
    if positions not in POSITIONS:
        raise InvalidArgumentError(f"positions must be one of {POSITIONS}, got {positions!r}")
    if type(keep_every) is not int or keep_every < 1:
        raise InvalidArgumentError(f"keep_every must be an integer >= 1, got {keep_every!r}")
    if keep_every > 1 and (positions, values) != ("live", "wdl"):
        raise InvalidArgumentError(
            "only a live win/draw/loss table keeps some value layers (keep_every > 1), not a "
            f"{positions} {values} one"
        )
    manifest = {
        "format": FORMAT,
        "version": _format_version(positions, keep_every),
        "game": game,
        "index": index,
        "symmetry": symmetry,
        "layer_sizes": [int(s) for s in sizes],
        "chunk": int(chunk),
        "values": values,
        "positions": positions,
        "keep_every": keep_every,
        "complete": {kind: [] for kind in KINDS},
        "dropped": [],
        "info": {},
        "table": uuid.uuid4().hex,
    }
    return json.loads(json.dumps(manifest))  # JSON types only (tuples become lists)


def _manifest_crc(manifest: dict) -> int:
    """CRC-32 of the manifest's fields other than ``crc32``, as canonical JSON."""
    fields = {key: value for key, value in manifest.items() if key != "crc32"}
    return zlib.crc32(json.dumps(fields, sort_keys=True, separators=(",", ":")).encode())


def _manifest_bytes(manifest: dict) -> bytes:
    """The manifest file: ``manifest`` and its CRC-32."""
    return json.dumps({**manifest, "crc32": _manifest_crc(manifest)}, indent=1).encode()


def _check_manifest(manifest: Any, where: str) -> dict:
    """Raise TableFileError unless ``manifest`` is one of ours, of this version, well formed."""
    if not isinstance(manifest, dict):
        raise TableFileError(f"{where}: manifest.json is damaged (not a JSON object)")
    if manifest.get("format") != FORMAT:
        raise TableFileError(
            f"{where}: manifest.json is of format {manifest.get('format')!r}, expected {FORMAT!r}"
        )
    versions = (FORMAT_VERSION, LIVE_FORMAT_VERSION, SPARSE_FORMAT_VERSION, DRAIN_FORMAT_VERSION)
    if manifest.get("version") not in versions:
        raise TableFileError(
            f"{where}: layered table version {manifest.get('version')!r}, this fastttt reads "
            f"versions {', '.join(map(str, versions))}; solve the game again"
        )
    if manifest.get("crc32") != _manifest_crc(manifest):
        raise TableFileError(f"{where}: manifest.json is damaged (checksum mismatch)")
    manifest = {key: value for key, value in manifest.items() if key != "crc32"}
    manifest.setdefault("values", "depth")  # written before the field: value and depth bytes
    manifest.setdefault("positions", "reachable")  # written before the field: a forward pass
    manifest.setdefault("keep_every", 1)  # written before the field: every layer kept
    manifest.setdefault("dropped", [])
    sizes, chunk, complete = (manifest.get(k) for k in ("layer_sizes", "chunk", "complete"))
    keep_every, dropped = manifest["keep_every"], manifest["dropped"]
    ok = (
        isinstance(manifest.get("game"), dict)
        and isinstance(manifest.get("index"), str)
        and isinstance(manifest.get("symmetry"), str)
        and isinstance(manifest.get("info"), dict)
        and isinstance(manifest.get("table"), str)
        and isinstance(sizes, list)
        and all(type(s) is int and s >= 0 for s in sizes)
        and type(chunk) is int
        and chunk >= 1
        and manifest["values"] in VALUES
        and (manifest["values"] == "depth" or chunk % WDL_SLOTS == 0)
        and manifest["positions"] in POSITIONS
        and type(keep_every) is int
        and keep_every >= 1
        and manifest["version"] in _read_versions(manifest["positions"], keep_every)
        and (keep_every == 1 or (manifest["positions"], manifest["values"]) == ("live", "wdl"))
        and isinstance(dropped, list)
        and all(type(n) is int and 0 <= n < len(sizes) and n % keep_every for n in dropped)
        and isinstance(complete, dict)
        and set(complete) == set(KINDS)
        and all(
            isinstance(done, list) and all(type(n) is int and 0 <= n < len(sizes) for n in done)
            for done in complete.values()
        )
        and len(set(dropped)) == len(dropped)
        and not set(dropped) & set(complete["value"])
    )
    if not ok:
        raise TableFileError(f"{where}: manifest.json is damaged (missing or malformed fields)")
    return manifest


def refuse_another_table(path, stored: dict, asked: dict) -> None:
    """Raise TableFileError when a field of :data:`_MATCHED_FIELDS` that ``asked`` holds
    differs from the ``stored`` manifest's: a resume must go on with the same table."""
    for field in _MATCHED_FIELDS:
        if field in asked and stored[field] != asked[field]:
            raise TableFileError(
                f"{path}: the table there has {field} {stored[field]!r}, asked for "
                f"{asked[field]!r}; cannot resume"
            )


def _require_uint8(data, size: int, what: str) -> None:
    if not isinstance(data, np.ndarray) or data.dtype != np.uint8 or data.shape != (size,):
        got = f"{data.dtype} {data.shape}" if isinstance(data, np.ndarray) else type(data).__name__
        raise InvalidArgumentError(f"{what} takes a uint8 array of shape ({size},), got {got}")


def _is_partial_metadata(file: Path, folder: Path) -> bool:
    """``file`` is zarr's temporary copy of the array's metadata, ``zarr.<hex>.partial`` in
    the array's folder, left behind when a write of ``zarr.json`` was killed."""
    return (
        file.parent == folder and re.fullmatch(r"zarr\.[0-9a-f]+\.partial", file.name) is not None
    )


class _Layers:
    """Geometry, argument checks and completion marks shared by both stores."""

    manifest: dict

    def _where(self) -> str:
        raise NotImplementedError

    def prepare(self, kind: str, layer: int) -> None:
        raise NotImplementedError

    def write_chunk(self, kind: str, layer: int, chunk_index: int, data: np.ndarray) -> None:
        raise NotImplementedError

    def read_chunk(self, kind: str, layer: int, chunk_index: int) -> np.ndarray:
        raise NotImplementedError

    def _save_manifest(self) -> None:
        raise NotImplementedError

    def delete(self, kind: str, layer: int) -> None:
        raise NotImplementedError

    def _chunks_present(self, kind: str, layer: int) -> list[bool]:
        raise NotImplementedError

    def delete_chunk(self, kind: str, layer: int, chunk_index: int) -> None:
        raise NotImplementedError

    def sync_chunk(self, kind: str, layer: int, chunk_index: int) -> None:
        """Make a written chunk durable (on disk: fsync its files and folders)."""

    def _has_array(self, kind: str, layer: int) -> bool:
        raise NotImplementedError

    def present_chunks(self, kind: str, layer: int) -> list[int]:
        """The chunks of a prepared layer whose files are there (their bytes are checked when
        read); TableFileError when the layer is absent or its array metadata damaged."""
        return [index for index, here in enumerate(self._chunks_present(kind, layer)) if here]

    def resume_layer(self, kind: str, layer: int) -> list[int]:
        """Start or go on with an unfinished layer (driver only): :meth:`prepare` it when it
        was never prepared, or its preparing stopped before the array's metadata was written
        (and return []), else return the chunks a stopped solve wrote
        (:meth:`present_chunks`), leaving them; damaged array metadata is refused, not
        replaced, since the chunks it would lose may be needed (a drained layer above)."""
        if not self._has_array(kind, layer):
            self.prepare(kind, layer)
            return []
        return self.present_chunks(kind, layer)

    def _check(self, kind: str, layer: int) -> int:
        """The size of ``layer``, after checking ``kind`` and ``layer``."""
        if kind not in KINDS:
            raise InvalidArgumentError(f"kind must be one of {KINDS}, got {kind!r}")
        sizes = self.manifest["layer_sizes"]
        if not isinstance(layer, (int, np.integer)) or not 0 <= layer < len(sizes):
            raise IndexError(f"layer {layer!r} out of range 0..{len(sizes) - 1}")
        return sizes[layer]

    def _check_data(self, kind, layer, chunk_index, data) -> tuple[int, int]:
        """The chunk's byte bounds (:meth:`byte_bounds`), after checking ``data``'s size."""
        start, stop = self.byte_bounds(kind, layer, chunk_index)
        _require_uint8(data, stop - start, f"layer {layer} chunk {chunk_index} of {kind}")
        return start, stop

    @property
    def values(self) -> str:
        """What the value layers hold: "depth" (value and depth a byte) or "wdl"."""
        return self.manifest["values"]

    def is_packed(self, kind: str) -> bool:
        """Whether the layers of ``kind`` hold 4 slots a byte (the value layers of a WDL table)."""
        return kind == "value" and self.manifest["values"] == "wdl"

    def array_size(self, kind: str, layer: int) -> int:
        """Bytes of the array of ``layer``: its slots, or a quarter of them rounded up
        (packed)."""
        size = self._check(kind, layer)
        return -(-size // WDL_SLOTS) if self.is_packed(kind) else size

    def array_chunk(self, kind: str) -> int:
        """Bytes of a whole chunk of ``kind``."""
        chunk = self.manifest["chunk"]
        return chunk // WDL_SLOTS if self.is_packed(kind) else chunk

    def byte_bounds(self, kind: str, layer: int, chunk_index: int) -> tuple[int, int]:
        """Bytes ``[start, stop)`` of the array that chunk ``chunk_index`` of ``layer`` holds:
        its slots (:meth:`chunk_bounds`), or packed their quarter, the last byte rounded up."""
        self._check(kind, layer)
        start, stop = self.chunk_bounds(layer, chunk_index)
        if self.is_packed(kind):
            return start // WDL_SLOTS, -(-stop // WDL_SLOTS)
        return start, stop

    def chunk_count(self, layer: int) -> int:
        """Number of chunks of ``layer`` (0 for an empty layer)."""
        size = self._check(KINDS[0], layer)
        return -(-size // self.manifest["chunk"])

    def chunk_bounds(self, layer: int, chunk_index: int) -> tuple[int, int]:
        """Slots ``[start, stop)`` of chunk ``chunk_index`` of ``layer``."""
        count = self.chunk_count(layer)
        if not isinstance(chunk_index, (int, np.integer)) or not 0 <= chunk_index < count:
            raise IndexError(f"chunk {chunk_index!r} out of range for layer {layer} ({count})")
        chunk = self.manifest["chunk"]
        start = int(chunk_index) * chunk
        return start, min(start + chunk, self.manifest["layer_sizes"][layer])

    def _missing(self, kind: str, layer: int, chunk_index: int) -> TableFileError:
        return TableFileError(
            f"{self._where()}: layer {layer} chunk {chunk_index} of {kind} is missing"
        )

    def is_complete(self, kind: str, layer: int) -> bool:
        """Whether ``mark_complete(kind, layer)`` was called (and the layer not deleted since)."""
        self._check(kind, layer)
        return layer in self.manifest["complete"][kind]

    def mark_complete(self, kind: str, layer: int) -> None:
        """Record that every chunk of the layer is written; refused while one is missing."""
        self._check(kind, layer)
        for index, present in enumerate(self._chunks_present(kind, layer)):
            if not present:
                raise self._missing(kind, layer, index)
        done = self.manifest["complete"][kind]
        if layer not in done:
            done.append(int(layer))
            done.sort()
            self._save_manifest()

    def keeps(self, layer: int) -> bool:
        """Whether the table keeps value layer ``layer`` once solved: every layer, or with
        ``keep_every`` K the multiples of K."""
        self._check("value", layer)
        return layer % self.manifest["keep_every"] == 0

    def is_solved(self, layer: int) -> bool:
        """Whether value layer ``layer`` is complete, or was and has been dropped."""
        return self.is_complete("value", layer) or layer in self.manifest["dropped"]

    def drop(self, layer: int) -> None:
        """Record value layer ``layer`` (one the table does not keep) as solved and dropped,
        then delete its chunks: a probe searches through it to the next kept layer."""
        if self.keeps(layer):
            raise InvalidArgumentError(f"layer {layer} is kept (keep_every)")
        if not self.is_solved(layer) or not self.is_solved(layer - 1):
            raise InvalidArgumentError(
                f"layer {layer} is dropped once it and layer {layer - 1} are solved"
            )
        self._mark_dropped(layer)
        self.delete("value", layer)

    def _mark_dropped(self, layer: int) -> None:
        """Move ``layer`` from complete to dropped in one manifest write (it stays solved)."""
        if layer not in self.manifest["dropped"]:
            complete = self.manifest["complete"]["value"]
            complete[:] = [n for n in complete if n != layer]
            self.manifest["dropped"] = sorted({*self.manifest["dropped"], int(layer)})
            self._save_manifest()

    def drains_next(self, layer: int) -> bool:
        """Whether solving value layer ``layer`` drops layer ``layer + 1`` chunk by chunk
        (:meth:`start_draining`): a table of version 6 that does not keep that layer."""
        above = layer + 1
        return (
            self.manifest["version"] >= DRAIN_FORMAT_VERSION
            and above < len(self.manifest["layer_sizes"])
            and not self.keeps(above)
        )

    def start_draining(self, layer: int) -> None:
        """Record value layer ``layer`` (solved, not kept) as dropped before the layer below
        it is solved, so that its chunks can go one by one (:class:`~fastttt.tables.drain.
        Drain`); once the layer below is solved the rest goes (:meth:`drop`)."""
        if (
            not self.drains_next(layer - 1)
            or not self.is_solved(layer)
            or self.is_solved(layer - 1)
        ):
            raise InvalidArgumentError(
                f"layer {layer} cannot drain now: it drains only in a table of version 6 that "
                f"does not keep it, once it is solved and while layer {layer - 1} is not"
            )
        self._mark_dropped(layer)

    def _unmark(self, kind: str, layer: int) -> None:
        if layer in self.manifest["complete"][kind]:
            self.manifest["complete"][kind].remove(layer)
            self._save_manifest()

    def set_info(self, **fields) -> None:
        """Merge JSON-able ``fields`` into ``manifest["info"]`` (one atomic manifest write)."""
        json.dumps(fields)  # TypeError here, before anything changes
        self.manifest["info"].update(json.loads(json.dumps(fields)))
        self._save_manifest()

    def write_layer(self, kind: str, layer: int, data: np.ndarray) -> None:
        """Prepare the array and write all its chunks from ``data`` (one process); does not mark
        the layer complete."""
        _require_uint8(data, self.array_size(kind, layer), f"layer {layer} of {kind}")
        self.prepare(kind, layer)
        for index in range(self.chunk_count(layer)):
            start, stop = self.byte_bounds(kind, layer, index)
            self.write_chunk(kind, layer, index, data[start:stop])

    def verify(self) -> None:
        """Read every chunk of every complete layer; TableFileError on the first damage."""
        for kind in KINDS:
            for layer in self.manifest["complete"][kind]:
                for index in range(self.chunk_count(layer)):
                    self.read_chunk(kind, layer, index)


class LayerStore(_Layers):
    """Layers on disk (see the module docstring). Arrays returned by ``read_*`` are read-only.

    The driver process calls :meth:`create` or :meth:`open`, :meth:`prepare`,
    :meth:`mark_complete`, :meth:`delete` and :meth:`set_info` (they write the manifest or the
    array metadata); workers get the store pickled or call ``LayerStore.open(path, "r+")`` and
    call only :meth:`write_chunk` and :meth:`read_chunk`.
    """

    def __init__(self, path: Path, manifest: dict, mode: str):
        self.path = path
        self.manifest = manifest
        self.mode = mode
        self._arrays: dict[tuple[str, int], Any] = {}  # zarr.Array handles of this process

    def __getstate__(self):
        return {"path": self.path, "manifest": self.manifest, "mode": self.mode}

    def __setstate__(self, state):
        self.__init__(state["path"], state["manifest"], state["mode"])

    def __repr__(self) -> str:
        return f"LayerStore({str(self.path)!r}, mode={self.mode!r})"

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path,
        *,
        game: dict,
        index: str,
        symmetry: str,
        layer_sizes: list[int],
        chunk: int = DEFAULT_CHUNK,
        values: str = "depth",
        positions: str = "reachable",
        keep_every: int = 1,
        resume: bool = False,
    ) -> LayerStore:
        """A new store at ``path`` (absent or an empty folder), or with ``resume`` the store
        already there, reopened "r+" when its game, index, symmetry, layer sizes, chunk,
        ``values`` ("depth" or "wdl"), ``positions`` (:data:`POSITIONS`) and ``keep_every``
        match. Anything else at ``path`` is refused and left untouched."""
        require_zarr()
        path = Path(path)
        manifest = _new_manifest(
            game, index, symmetry, layer_sizes, chunk, values, positions, keep_every
        )
        parent = path.absolute().parent
        if not parent.exists():
            raise TableFileError(f"{path}: parent folder {parent} does not exist")
        if not parent.is_dir():
            raise TableFileError(f"{path}: parent {parent} is not a folder")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise TableFileError(f"{path}: parent folder {parent} is not writable")
        if os.path.lexists(path):
            if not path.is_dir():  # follows symlinks: a link to a folder is that folder
                raise TableFileError(f"{path}: exists and is not a folder; choose another folder")
            if os.path.lexists(path / MANIFEST):
                store = cls.open(path, "r+" if resume else "r")
                if not resume:
                    raise TableFileError(
                        f"{path}: already holds a layered table; pass resume=True (--resume) "
                        "or choose another folder"
                    )
                refuse_another_table(path, store.manifest, manifest)
                return store
            leftovers = [f for f in path.iterdir() if re.fullmatch(rf"{MANIFEST}\.tmp\d+", f.name)]
            if leftovers and len(leftovers) == len(list(path.iterdir())):
                for f in leftovers:  # a solve killed while writing its first manifest
                    f.unlink()
            if any(path.iterdir()):
                raise TableFileError(
                    f"{path}: folder is not empty and holds no layered table; choose another folder"
                )
        else:
            try:
                path.mkdir()
            except OSError as exc:
                raise TableFileError(f"{path}: cannot create the folder ({exc})") from None
        store = cls(path, manifest, "r+")
        store._save_manifest()
        return store

    @classmethod
    def open(cls, path, mode: str = "r") -> LayerStore:
        """The store at ``path``; ``mode`` "r" (read only) or "r+" (read and write)."""
        if mode not in ("r", "r+"):
            raise InvalidArgumentError(f"mode must be 'r' or 'r+', got {mode!r}")
        require_zarr()
        path = Path(path)
        if not path.exists():
            raise TableFileError(f"{path}: no such folder")
        if not path.is_dir():
            raise TableFileError(f"{path}: is not a folder")
        try:
            text = (path / MANIFEST).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise TableFileError(f"{path}: no manifest.json (not a layered table)") from None
        except IsADirectoryError:
            raise TableFileError(f"{path}: manifest.json is damaged (a folder)") from None
        except UnicodeDecodeError:
            raise TableFileError(f"{path}: manifest.json is damaged (not UTF-8)") from None
        try:
            manifest = json.loads(text)
        except json.JSONDecodeError:
            raise TableFileError(f"{path}: manifest.json is damaged (not valid JSON)") from None
        return cls(path, _check_manifest(manifest, str(path)), mode)

    # -- manifest ----------------------------------------------------------------------------

    def _where(self) -> str:
        return str(self.path)

    def _writable(self) -> None:
        if self.mode != "r+":
            raise TableFileError(f"{self.path}: opened read-only (mode 'r')")

    def _save_manifest(self) -> None:
        self._writable()
        blob = _manifest_bytes(self.manifest)
        write_atomic(self.path / MANIFEST, lambda f: f.write(blob), TableFileError)

    # -- arrays ------------------------------------------------------------------------------

    def _dir(self, kind: str, layer: int) -> Path:
        return self.path / kind / str(int(layer))

    def _open_array(self, kind: str, layer: int):
        """This process's zarr handle on the array, after checking the array is there."""
        size = self.array_size(kind, layer)
        folder = self._dir(kind, layer)
        # checked on every call: zarr would create the folder of a deleted array on write
        if not (folder / "zarr.json").is_file():
            raise TableFileError(
                f"{self.path}: layer {layer} of {kind} is absent (not prepared, or deleted)"
            )
        key = (kind, int(layer))
        array = self._arrays.get(key)
        if array is None:
            zarr = require_zarr()
            read_only = self.mode == "r"
            try:
                array = zarr.open_array(
                    zarr.storage.LocalStore(folder, read_only=read_only),
                    mode="r" if read_only else "r+",
                    zarr_format=3,
                ).with_config({"write_empty_chunks": True})
            except Exception as exc:
                raise TableFileError(
                    f"{self.path}: layer {layer} of {kind}: damaged array metadata ({exc})"
                ) from None
            if array.attrs.get("fastttt") != self._identity(kind, layer):
                raise TableFileError(
                    f"{self.path}: layer {layer} of {kind} is not this table's (its array "
                    f"metadata names {array.attrs.get('fastttt')!r}): a layer or manifest from "
                    "another folder"
                )
            chunks = (_zarr_chunk(self.array_chunk(kind), size),)
            if array.shape != (size,) or array.dtype != np.uint8 or array.chunks != chunks:
                raise TableFileError(
                    f"{self.path}: layer {layer} of {kind} holds {array.dtype} {array.shape} in "
                    f"chunks of {array.chunks}, the manifest says uint8 ({size},) in {chunks}"
                )
            self._arrays[key] = array
        return array

    def _identity(self, kind: str, layer: int) -> dict:
        """What a layer's array metadata names: the table, the kind and the layer."""
        return {"kind": kind, "layer": int(layer), "table": self.manifest["table"]}

    def _chunk_file(self, array, kind: str, layer: int, chunk_index: int) -> Path:
        return self._dir(kind, layer) / array.metadata.encode_chunk_key((chunk_index,))

    def _sum_file(self, kind: str, layer: int, chunk_index: int) -> Path:
        return self._dir(kind, layer) / SUMS / str(int(chunk_index))

    def _bound_crc(self, kind: str, layer: int, chunk_index: int, data: np.ndarray) -> str:
        """CRC-32 of the chunk's bytes seeded with its place: the table id, the kind, the layer
        and the chunk's index, so that a chunk copied from another place does not match."""
        place = f"{self.manifest['table']}/{kind}/{int(layer)}/{int(chunk_index)}".encode()
        return f"{zlib.crc32(np.ascontiguousarray(data).data, zlib.crc32(place)):08x}"

    def _check_bound(self, kind: str, layer: int, chunk_index: int, data: np.ndarray) -> None:
        try:
            stored = self._sum_file(kind, layer, chunk_index).read_text()
        except (FileNotFoundError, UnicodeDecodeError):
            raise self._missing(kind, layer, chunk_index) from None
        if stored != self._bound_crc(kind, layer, chunk_index, data):
            raise TableFileError(
                f"{self.path}: layer {layer} chunk {chunk_index} of {kind} does not belong here "
                "(its checksum binds the table, layer and place: copied from elsewhere, or damaged)"
            )

    def _has_array(self, kind: str, layer: int) -> bool:
        """The layer's folder is there and holds more than a :meth:`prepare` stopped before
        its metadata was written: a folder whose only files are zarr's temporary copies of
        the metadata (``zarr.<hex>.partial``, renamed to ``zarr.json`` once written) and at
        most a ``zarr.json`` that is not JSON. Such a folder holds no chunk, so preparing it
        again loses nothing."""
        folder = self._dir(kind, layer)
        if not os.path.lexists(folder):
            return False
        if os.path.islink(folder) or not folder.is_dir():
            return True  # refused when opened, never replaced
        files = [Path(root, name) for root, _dirs, names in os.walk(folder) for name in names]
        metadata = folder / "zarr.json"
        if any(f != metadata and not _is_partial_metadata(f, folder) for f in files):
            return True
        if metadata not in files:
            return False
        try:
            json.loads(metadata.read_bytes())
        except (OSError, ValueError):
            return False
        return True

    def _chunks_present(self, kind: str, layer: int) -> list[bool]:
        array = self._open_array(kind, layer)
        return [
            self._chunk_file(array, kind, layer, index).is_file()
            and self._sum_file(kind, layer, index).is_file()
            for index in range(self.chunk_count(layer))
        ]

    def prepare(self, kind: str, layer: int) -> None:
        """Create the array of ``layer`` empty, replacing any earlier one and its complete mark
        (driver only, before any :meth:`write_chunk`)."""
        self._writable()
        size = self.array_size(kind, layer)
        self.delete(kind, layer)
        zarr = require_zarr()
        zarr.create_array(
            zarr.storage.LocalStore(self._dir(kind, layer)),
            shape=(size,),
            chunks=(_zarr_chunk(self.array_chunk(kind), size),),
            dtype="uint8",
            fill_value=0,
            compressors=[zarr.codecs.ZstdCodec(level=ZSTD_LEVEL), zarr.codecs.Crc32cCodec()],
            attributes={"fastttt": self._identity(kind, layer)},
            zarr_format=3,
        )
        # durable before any chunk: a resume must find the layer, not prepare it again
        folder = self._dir(kind, layer)
        sync_file(folder / "zarr.json")
        sync_folder(folder, strict=True)
        sync_folder(folder.parent, strict=True)

    def write_chunk(self, kind: str, layer: int, chunk_index: int, data: np.ndarray) -> None:
        """Write one chunk (safe from several processes at once, on different chunks)."""
        self._writable()
        start, stop = self._check_data(kind, layer, chunk_index, data)
        self._sum_file(kind, layer, chunk_index).unlink(missing_ok=True)  # stale until rewritten
        with sigint_held():  # a write cut by Ctrl-C goes on in zarr's thread past our exit
            self._open_array(kind, layer)[start:stop] = data
        crc = self._bound_crc(kind, layer, chunk_index, data).encode()
        target = self._sum_file(kind, layer, chunk_index)
        target.parent.mkdir(exist_ok=True)
        write_atomic(target, lambda f: f.write(crc), TableFileError)

    def _read(self, kind: str, layer: int, chunk_index: int, array) -> np.ndarray:
        start, stop = self.byte_bounds(kind, layer, chunk_index)
        if not self._chunk_file(array, kind, layer, chunk_index).is_file():
            raise self._missing(kind, layer, chunk_index)
        try:
            # crc32c mismatch (flipped byte, truncated file): ValueError; a crc-valid frame zstd
            # cannot decode: RuntimeError; an unreadable file: OSError
            with sigint_held():
                data = array[start:stop]
        except (ValueError, RuntimeError, OSError) as exc:
            raise TableFileError(
                f"{self.path}: layer {layer} chunk {chunk_index} of {kind} is damaged ({exc})"
            ) from None
        self._check_bound(kind, layer, chunk_index, data)
        return data

    def read_chunk(self, kind: str, layer: int, chunk_index: int) -> np.ndarray:
        """One chunk, checksum verified."""
        data = self._read(kind, layer, chunk_index, self._open_array(kind, layer))
        data.flags.writeable = False
        return data

    def read_layer(self, kind: str, layer: int) -> np.ndarray:
        """The whole layer, every chunk present and checksum verified."""
        array = self._open_array(kind, layer)
        for index, present in enumerate(self._chunks_present(kind, layer)):
            if not present:
                raise self._missing(kind, layer, index)
        try:
            with sigint_held():  # zarr reads and decodes the chunks concurrently
                data = array[:]
        except (ValueError, RuntimeError, OSError):
            for index in range(self.chunk_count(layer)):  # name the damaged chunk
                self._read(kind, layer, index, array)
            raise TableFileError(f"{self.path}: layer {layer} of {kind} is damaged") from None
        for index in range(self.chunk_count(layer)):
            start, stop = self.byte_bounds(kind, layer, index)
            self._check_bound(kind, layer, index, data[start:stop])
        data.flags.writeable = False
        return data

    def delete(self, kind: str, layer: int) -> None:
        """Remove the layer's complete mark, then its array files."""
        self._writable()
        self._check(kind, layer)
        self._unmark(kind, layer)
        self._arrays.pop((kind, int(layer)), None)
        folder = self._dir(kind, layer)
        if os.path.lexists(folder):
            shutil.rmtree(folder)  # refuses a symlink, so nothing outside the store goes

    def disk_bytes(self) -> int:
        """Bytes of all files of the store (symlinks not followed)."""
        total = 0
        for root, _dirs, files in os.walk(self.path):
            for name in files:
                info = os.lstat(os.path.join(root, name))
                if stat.S_ISREG(info.st_mode):
                    total += info.st_size
        return total

    def _fsync_chunk(self, array, kind: str, layer: int, chunk_index: int) -> None:
        try:
            sync_file(self._chunk_file(array, kind, layer, chunk_index))
        except FileNotFoundError:
            raise self._missing(kind, layer, chunk_index) from None

    def sync_chunk(self, kind: str, layer: int, chunk_index: int) -> None:
        """Fsync the chunk's file and the folders that name it and its checksum."""
        array = self._open_array(kind, layer)
        self._fsync_chunk(array, kind, layer, chunk_index)
        sync_folder(self._chunk_file(array, kind, layer, chunk_index).parent, strict=True)
        sync_folder(self._sum_file(kind, layer, chunk_index).parent, strict=True)

    def delete_chunk(self, kind: str, layer: int, chunk_index: int) -> None:
        """Remove one chunk's files (its checksum first: a chunk without one is missing)."""
        self._writable()
        array = self._open_array(kind, layer)
        self._sum_file(kind, layer, chunk_index).unlink(missing_ok=True)
        self._chunk_file(array, kind, layer, chunk_index).unlink(missing_ok=True)

    def mark_complete(self, kind: str, layer: int) -> None:
        """Fsync the layer's chunk files, then record it complete (refused while one is
        missing)."""
        self._writable()
        array = self._open_array(kind, layer)
        for index in range(self.chunk_count(layer)):
            self._fsync_chunk(array, kind, layer, index)
        if self.chunk_count(layer):
            sync_folder(self._chunk_file(array, kind, layer, 0).parent, strict=True)
            # the sums: written atomically
            sync_folder(self._sum_file(kind, layer, 0).parent, strict=True)
        super().mark_complete(kind, layer)


def _zarr_chunk(chunk: int, size: int) -> int:
    """The zarr chunk shape of a layer: ``chunk``, but no larger than the layer, and >= 1."""
    return max(1, min(chunk, size))


class MemoryLayerStore(_Layers):
    """Layers in RAM with the methods of :class:`LayerStore` (``path`` is None, nothing is
    written to disk, ``disk_bytes()`` is 0). Arrays returned by ``read_*`` are read-only views;
    written data is copied in."""

    path = None
    mode = "r+"

    def __init__(
        self,
        *,
        game: dict,
        index: str,
        symmetry: str,
        layer_sizes: list[int],
        chunk: int = DEFAULT_CHUNK,
        values: str = "depth",
        positions: str = "reachable",
        keep_every: int = 1,
    ):
        self.manifest = _new_manifest(
            game, index, symmetry, layer_sizes, chunk, values, positions, keep_every
        )
        self._data: dict[tuple[str, int], np.ndarray] = {}
        self._written: dict[tuple[str, int], np.ndarray] = {}

    @classmethod
    def create(cls, **fields) -> MemoryLayerStore:
        """Same as the constructor (there is no path, so nothing to resume)."""
        return cls(**fields)

    def __repr__(self) -> str:
        return f"MemoryLayerStore({len(self.manifest['layer_sizes'])} layers)"

    def _where(self) -> str:
        return "in-memory layer store"

    def _save_manifest(self) -> None:
        pass

    def _get(self, kind: str, layer: int) -> tuple[np.ndarray, np.ndarray]:
        self._check(kind, layer)
        key = (kind, int(layer))
        if key not in self._data:
            raise TableFileError(
                f"{self._where()}: layer {layer} of {kind} is absent (not prepared, or deleted)"
            )
        return self._data[key], self._written[key]

    def _has_array(self, kind: str, layer: int) -> bool:
        return (kind, int(layer)) in self._data

    def _chunks_present(self, kind: str, layer: int) -> list[bool]:
        return self._get(kind, layer)[1].tolist()

    def prepare(self, kind: str, layer: int) -> None:
        """Allocate the layer, zeroed, with no chunk written; drops any earlier one."""
        size = self.array_size(kind, layer)
        self.delete(kind, layer)
        self._data[(kind, int(layer))] = np.zeros(size, dtype=np.uint8)
        self._written[(kind, int(layer))] = np.zeros(self.chunk_count(layer), dtype=bool)

    def write_chunk(self, kind: str, layer: int, chunk_index: int, data: np.ndarray) -> None:
        start, stop = self._check_data(kind, layer, chunk_index, data)
        table, written = self._get(kind, layer)
        table[start:stop] = data
        written[chunk_index] = True

    def read_chunk(self, kind: str, layer: int, chunk_index: int) -> np.ndarray:
        start, stop = self.byte_bounds(kind, layer, chunk_index)
        table, written = self._get(kind, layer)
        if not written[chunk_index]:
            raise self._missing(kind, layer, chunk_index)
        view = table[start:stop]
        view.flags.writeable = False
        return view

    def read_layer(self, kind: str, layer: int) -> np.ndarray:
        table, written = self._get(kind, layer)
        if not written.all():
            raise self._missing(kind, layer, int(np.argmin(written)))
        view = table.view()
        view.flags.writeable = False
        return view

    def delete(self, kind: str, layer: int) -> None:
        self._check(kind, layer)
        self._unmark(kind, layer)
        self._data.pop((kind, int(layer)), None)
        self._written.pop((kind, int(layer)), None)

    def delete_chunk(self, kind: str, layer: int, chunk_index: int) -> None:
        start, stop = self.byte_bounds(kind, layer, chunk_index)
        table, written = self._get(kind, layer)
        table[start:stop] = 0
        written[chunk_index] = False

    def disk_bytes(self) -> int:
        return 0
