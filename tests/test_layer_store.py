"""Layer stores: round trips, chunk checksums, missing chunks, manifest rules, create/open
refusals, concurrent chunk writers, and the in-memory twin."""

import importlib
import json
import multiprocessing
import os
import pickle
import sys
import zlib
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from fastttt.errors import FastTTTError, MissingDependencyError, TableFileError
from fastttt.tables.layer_store import (
    FORMAT,
    FORMAT_VERSION,
    KINDS,
    LayerStore,
    MemoryLayerStore,
    _manifest_bytes,
)

zarr = pytest.importorskip("zarr")

SIZES = [1, 10, 1000, 70000]
CHUNK = 4096
SPEC = dict(
    game={"rows": 3, "cols": 3, "k": 3, "gravity": False},
    index="combinadic",
    symmetry="none",
    layer_sizes=SIZES,
    chunk=CHUNK,
)


def layer_data(layer, kind="value"):
    rng = np.random.default_rng(layer * 7 + KINDS.index(kind))
    return rng.integers(0, 3, SIZES[layer], dtype=np.uint8)


def fill(store, kind="value", layers=None):
    for layer in range(len(SIZES)) if layers is None else layers:
        store.write_layer(kind, layer, layer_data(layer, kind))
        store.mark_complete(kind, layer)


def chunk_file(store, kind, layer, index):
    return store.path / kind / str(layer) / "c" / str(index)


@pytest.fixture
def disk(tmp_path):
    return LayerStore.create(tmp_path / "t", **SPEC)


@pytest.fixture(params=["disk", "memory"])
def store(request, tmp_path):
    if request.param == "disk":
        return LayerStore.create(tmp_path / "t", **SPEC)
    return MemoryLayerStore(**SPEC)


# -- behaviour shared by both stores ------------------------------------------------------------


def test_chunk_geometry(store):
    assert [store.chunk_count(n) for n in range(4)] == [1, 1, 1, 18]
    assert store.chunk_bounds(0, 0) == (0, 1)
    assert store.chunk_bounds(3, 1) == (4096, 8192)
    assert store.chunk_bounds(3, 17) == (17 * 4096, 70000)
    with pytest.raises(IndexError):
        store.chunk_bounds(3, 18)
    with pytest.raises(IndexError):
        store.chunk_count(4)
    with pytest.raises(ValueError, match="kind"):
        store.prepare("values", 1)


def test_round_trip_chunk_by_chunk(store):
    for kind in KINDS:
        for layer in range(len(SIZES)):
            data = layer_data(layer, kind)
            store.prepare(kind, layer)
            for index in reversed(range(store.chunk_count(layer))):
                start, stop = store.chunk_bounds(layer, index)
                store.write_chunk(kind, layer, index, data[start:stop])
            assert not store.is_complete(kind, layer)
            store.mark_complete(kind, layer)
            assert store.is_complete(kind, layer)
    for kind in KINDS:
        for layer in range(len(SIZES)):
            data = layer_data(layer, kind)
            got = store.read_layer(kind, layer)
            assert got.dtype == np.uint8 and np.array_equal(got, data)
            assert not got.flags.writeable
            start, stop = store.chunk_bounds(layer, store.chunk_count(layer) - 1)
            assert np.array_equal(
                store.read_chunk(kind, layer, store.chunk_count(layer) - 1), data[start:stop]
            )
    assert store.manifest["complete"] == {"reach": [0, 1, 2, 3], "value": [0, 1, 2, 3]}
    store.verify()


def test_empty_layer_has_no_chunks(tmp_path):
    for store in (
        LayerStore.create(tmp_path / "t", **{**SPEC, "layer_sizes": [0, 5]}),
        MemoryLayerStore(**{**SPEC, "layer_sizes": [0, 5]}),
    ):
        assert store.chunk_count(0) == 0
        store.write_layer("value", 0, np.zeros(0, np.uint8))
        store.mark_complete("value", 0)
        assert store.read_layer("value", 0).shape == (0,)
        store.verify()


def test_all_zero_chunks_are_written_and_read_back(store):
    store.write_layer("reach", 3, np.zeros(SIZES[3], np.uint8))
    store.mark_complete("reach", 3)  # refused if a zero chunk had been skipped
    assert not store.read_layer("reach", 3).any()
    if store.path is not None:
        assert len(list((store.path / "reach" / "3" / "c").iterdir())) == 18


def test_missing_chunks_are_refused(store):
    data = layer_data(3)
    store.prepare("value", 3)
    for index in range(18):
        if index != 5:
            start, stop = store.chunk_bounds(3, index)
            store.write_chunk("value", 3, index, data[start:stop])
    with pytest.raises(TableFileError, match="layer 3 chunk 5 of value is missing"):
        store.read_chunk("value", 3, 5)
    with pytest.raises(TableFileError, match="layer 3 chunk 5 of value is missing"):
        store.read_layer("value", 3)
    with pytest.raises(TableFileError, match="layer 3 chunk 5 of value is missing"):
        store.mark_complete("value", 3)
    assert not store.is_complete("value", 3)
    assert np.array_equal(store.read_chunk("value", 3, 4), data[4 * CHUNK : 5 * CHUNK])


def test_absent_layer_and_bad_data_are_refused(store):
    with pytest.raises(TableFileError, match="layer 2 of reach is absent"):
        store.write_chunk("reach", 2, 0, np.zeros(1000, np.uint8))
    with pytest.raises(TableFileError, match="layer 2 of reach is absent"):
        store.read_layer("reach", 2)
    if store.path is not None:
        assert not (store.path / "reach" / "2").exists()  # the failed write made no folder
    store.prepare("reach", 2)
    with pytest.raises(ValueError, match=r"shape \(1000,\)"):
        store.write_chunk("reach", 2, 0, np.zeros(999, np.uint8))
    with pytest.raises(ValueError, match="uint8"):
        store.write_chunk("reach", 2, 0, np.zeros(1000, np.int64))
    with pytest.raises(ValueError, match="uint8"):
        store.write_layer("reach", 1, [0] * 10)


def test_delete_and_prepare_drop_the_complete_mark(store):
    fill(store, layers=[2, 3])
    store.delete("value", 3)
    assert not store.is_complete("value", 3)
    with pytest.raises(TableFileError, match="absent"):
        store.read_chunk("value", 3, 0)
    if store.path is not None:
        assert not (store.path / "value" / "3").exists()
        assert (store.path / "value" / "2").exists()
    store.prepare("value", 2)  # starts the layer again, empty
    assert not store.is_complete("value", 2)
    with pytest.raises(TableFileError, match="layer 2 chunk 0 of value is missing"):
        store.read_layer("value", 2)
    store.delete("value", 1)  # nothing there: no error
    assert store.manifest["complete"]["value"] == []


def test_set_info_merges(store):
    store.set_info(seconds=1.5, counts={"win": 3})
    store.set_info(seconds=2.0, layers_done=4)
    assert store.manifest["info"] == {"seconds": 2.0, "counts": {"win": 3}, "layers_done": 4}
    with pytest.raises(TypeError):
        store.set_info(bad=object())
    assert "bad" not in store.manifest["info"]


# -- on disk ------------------------------------------------------------------------------------


def test_layout_and_manifest_are_readable_without_fastttt(disk):
    fill(disk, layers=[3])
    disk.set_info(seconds=1.0)
    assert sorted(p.name for p in disk.path.iterdir()) == ["manifest.json", "value"]
    manifest = json.loads((disk.path / "manifest.json").read_text())
    assert manifest == {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        **{k: v for k, v in SPEC.items()},
        "values": "depth",  # value and depth a byte (a "wdl" table packs 4 slots a byte)
        "positions": "reachable",  # after a forward pass ("live": every position with no line)
        "keep_every": 1,  # every value layer kept (a live WDL table may keep one in K)
        "complete": {"reach": [], "value": [3]},
        "dropped": [],  # value layers solved, then deleted (keep_every > 1)
        "info": {"seconds": 1.0},
        "table": manifest["table"],
        "crc32": manifest["crc32"],
    }
    assert len(manifest["table"]) == 32  # a random id, made with the folder
    del manifest["crc32"]
    text = json.dumps(manifest, sort_keys=True, separators=(",", ":")).encode()
    assert json.loads((disk.path / "manifest.json").read_text())["crc32"] == zlib.crc32(text)
    array = zarr.open_array(disk.path / "value" / "3", mode="r")
    assert array.shape == (70000,) and array.chunks == (4096,) and array.dtype == np.uint8
    codecs = [c["name"] for c in array.metadata.to_dict()["codecs"]]
    assert codecs == ["bytes", "zstd", "crc32c"]
    assert np.array_equal(array[:], layer_data(3))
    assert array.attrs["fastttt"] == {"kind": "value", "layer": 3, "table": manifest["table"]}
    place = f"{manifest['table']}/value/3/0".encode()
    crc = zlib.crc32(layer_data(3)[:4096].tobytes(), zlib.crc32(place))
    assert (disk.path / "value" / "3" / "sums" / "0").read_text() == f"{crc:08x}"
    assert disk.disk_bytes() > 0
    assert MemoryLayerStore(**SPEC).disk_bytes() == 0


def test_complete_marks_survive_reopening(disk):
    fill(disk, layers=[1, 3])
    again = LayerStore.open(disk.path)
    assert again.manifest == disk.manifest
    assert again.is_complete("value", 3) and not again.is_complete("value", 2)
    assert np.array_equal(again.read_layer("value", 1), layer_data(1))
    again.verify()


def _flip(path):
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0x10
    path.write_bytes(bytes(raw))


@pytest.mark.parametrize(
    "damage",
    [
        _flip,
        lambda p: p.write_bytes(p.read_bytes()[:-9]),
        lambda p: p.write_bytes(p.read_bytes()[:2]),
        lambda p: p.write_bytes(b""),
    ],
    ids=["flipped-byte", "truncated", "two-bytes", "empty"],
)
def test_damaged_chunks_are_refused(disk, damage):
    fill(disk, layers=[3])
    damage(chunk_file(disk, "value", 3, 7))
    fresh = LayerStore.open(disk.path)
    message = r"layer 3 chunk 7 of value is damaged"
    with pytest.raises(TableFileError, match=message):
        fresh.read_chunk("value", 3, 7)
    with pytest.raises(TableFileError, match=message):
        fresh.read_layer("value", 3)
    with pytest.raises(TableFileError, match=message):
        fresh.verify()
    assert fresh.read_chunk("value", 3, 6).shape == (4096,)


def test_verify_finds_a_deleted_chunk_file(disk):
    fill(disk)
    chunk_file(disk, "value", 3, 17).unlink()
    with pytest.raises(TableFileError, match="layer 3 chunk 17 of value is missing"):
        LayerStore.open(disk.path).verify()


@pytest.mark.parametrize(
    "metadata, message",
    [
        (b"{not json", "damaged array metadata"),
        (None, "holds uint8 \\(70001,\\)"),
    ],
    ids=["garbage", "other-shape"],
)
def test_damaged_array_metadata_is_refused(disk, metadata, message):
    fill(disk, layers=[3])
    path = disk.path / "value" / "3" / "zarr.json"
    if metadata is None:  # a valid zarr array of another shape
        meta = json.loads(path.read_text())
        meta["shape"] = [70001]
        metadata = json.dumps(meta).encode()
    path.write_bytes(metadata)
    with pytest.raises(TableFileError, match=message):
        LayerStore.open(disk.path).read_chunk("value", 3, 0)


PARTIAL = "zarr.0123456789abcdef0123456789abcdef.partial"  # zarr's temporary zarr.json


@pytest.mark.parametrize(
    "left",
    [{}, {"zarr.json": b""}, {"zarr.json": b'{"zarr_format'}, {PARTIAL: b'{"zarr'}],
    ids=["folder", "empty", "cut", "partial"],
)
def test_resume_prepares_again_a_layer_whose_prepare_was_cut(disk, left):
    """Killed inside ``prepare``: the layer's folder is there, its metadata missing, cut
    short or still in zarr's temporary file, no chunk written. A resume prepares it again
    instead of refusing it as absent."""
    fill(disk, layers=[3])
    folder = disk.path / "value" / "2"
    folder.mkdir()
    for name, data in left.items():
        (folder / name).write_bytes(data)
    again = LayerStore.create(disk.path, **SPEC, resume=True)
    assert again.resume_layer("value", 2) == []
    again.write_chunk("value", 2, 0, layer_data(2))
    assert again.present_chunks("value", 2) == [0]
    assert np.array_equal(again.read_chunk("value", 2, 0), layer_data(2))


def test_resume_refuses_a_layer_with_chunks_but_no_metadata(disk):
    """Chunks without their array's metadata may still be needed: refused, not replaced."""
    fill(disk, layers=[3])
    (disk.path / "value" / "3" / "zarr.json").unlink()
    again = LayerStore.create(disk.path, **SPEC, resume=True)
    with pytest.raises(TableFileError, match="absent"):
        again.resume_layer("value", 3)
    assert chunk_file(again, "value", 3, 0).is_file()


def test_resume_refuses_a_layer_with_chunks_and_only_temporary_metadata(disk):
    fill(disk, layers=[3])
    metadata = disk.path / "value" / "3" / "zarr.json"
    metadata.rename(metadata.with_name(PARTIAL))
    again = LayerStore.create(disk.path, **SPEC, resume=True)
    with pytest.raises(TableFileError, match="absent"):
        again.resume_layer("value", 3)
    assert chunk_file(again, "value", 3, 0).is_file()


def test_read_only_mode(disk):
    fill(disk, layers=[2])
    ro = LayerStore.open(disk.path, "r")
    assert np.array_equal(ro.read_layer("value", 2), layer_data(2))
    with pytest.raises(TableFileError, match="read-only"):
        ro.write_chunk("value", 2, 0, layer_data(2))
    with pytest.raises(TableFileError, match="read-only"):
        ro.mark_complete("value", 1)
    with pytest.raises(TableFileError, match="read-only"):
        ro.delete("value", 2)
    with pytest.raises(ValueError, match="mode"):
        LayerStore.open(disk.path, "w")


def test_manifest_write_is_atomic(disk, monkeypatch):
    before = (disk.path / "manifest.json").read_bytes()

    def failing_fsync(fd):
        raise OSError("io error")

    monkeypatch.setattr("os.fsync", failing_fsync)
    with pytest.raises(OSError, match="io error"):
        disk.set_info(seconds=3.0)
    assert (disk.path / "manifest.json").read_bytes() == before
    assert sorted(p.name for p in disk.path.iterdir()) == ["manifest.json"]  # no temporary


def _write_chunks(store, indexes):
    data = layer_data(3)
    for index in indexes:
        start, stop = store.chunk_bounds(3, index)
        store.write_chunk("value", 3, index, data[start:stop])
    return os.getpid()


def test_processes_write_chunks_of_one_array_at_once(disk):
    disk.prepare("value", 3)
    metadata = (disk.path / "value" / "3" / "zarr.json").read_bytes()
    blob = pickle.dumps(disk)  # what a Dask driver ships to its workers
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=spawn) as pool:
        pids = list(
            pool.map(_write_chunks, [pickle.loads(blob)] * 4, [range(k, 18, 4) for k in range(4)])
        )
    assert os.getpid() not in pids
    assert (disk.path / "value" / "3" / "zarr.json").read_bytes() == metadata
    disk.mark_complete("value", 3)
    assert np.array_equal(LayerStore.open(disk.path).read_layer("value", 3), layer_data(3))
    assert not list(disk.path.rglob("*.partial"))


# -- create and open ----------------------------------------------------------------------------


def test_create_in_an_empty_folder_and_refuse_a_second_create(tmp_path):
    (tmp_path / "t").mkdir()
    store = LayerStore.create(tmp_path / "t", **SPEC)
    fill(store, layers=[1])
    with pytest.raises(TableFileError, match="already holds a layered table; pass resume=True"):
        LayerStore.create(tmp_path / "t", **SPEC)
    assert LayerStore.open(tmp_path / "t").is_complete("value", 1)


def test_resume_reopens_a_matching_table(disk):
    fill(disk, layers=[2])
    disk.set_info(seconds=4.0)
    again = LayerStore.create(disk.path, **SPEC, resume=True)
    assert again.mode == "r+"
    assert again.is_complete("value", 2) and again.manifest["info"] == {"seconds": 4.0}
    again.write_layer("value", 3, layer_data(3))


@pytest.mark.parametrize(
    "field, value",
    [
        ("game", {"rows": 4, "cols": 4, "k": 3, "gravity": False}),
        ("index", "lexicographic"),
        ("symmetry", "d4"),
        ("layer_sizes", [1, 10, 1000, 70001]),
        ("chunk", 8192),
    ],
)
def test_resume_refuses_a_different_table(disk, field, value):
    before = (disk.path / "manifest.json").read_bytes()
    with pytest.raises(TableFileError, match=f"has {field} .* cannot resume"):
        LayerStore.create(disk.path, **{**SPEC, field: value}, resume=True)
    assert (disk.path / "manifest.json").read_bytes() == before


def _regular_file(path):
    path.write_text("keep me")


def _busy_folder(path):
    path.mkdir()
    (path / "notes.txt").write_text("keep me")


def _link_to_file(path):
    target = path.with_name("target.txt")
    target.write_text("keep me")
    path.symlink_to(target)


def _dangling_link(path):
    path.symlink_to(path.with_name("nowhere"))


def _fifo(path):
    os.mkfifo(path)


@pytest.mark.parametrize(
    "make, message",
    [
        (_regular_file, "not a folder"),
        (_busy_folder, "not empty and holds no layered table"),
        (_link_to_file, "not a folder"),
        (_dangling_link, "not a folder"),
        (_fifo, "not a folder"),
    ],
    ids=["file", "busy-folder", "link-to-file", "dangling-link", "fifo"],
)
@pytest.mark.parametrize("resume", [False, True])
def test_create_refuses_anything_else_and_leaves_it_alone(tmp_path, make, message, resume):
    path = tmp_path / "t"
    make(path)
    before = sorted((p.name, p.is_symlink(), p.lstat().st_mode) for p in tmp_path.rglob("*"))
    with pytest.raises(TableFileError, match=message) as info:
        LayerStore.create(path, **SPEC, resume=resume)
    assert str(path) in str(info.value)
    after = sorted((p.name, p.is_symlink(), p.lstat().st_mode) for p in tmp_path.rglob("*"))
    assert after == before
    for p in tmp_path.rglob("*.txt"):
        assert p.read_text() == "keep me"


def test_create_checks_the_parent_folder(tmp_path, monkeypatch):
    with pytest.raises(TableFileError, match="parent folder .*missing.* does not exist"):
        LayerStore.create(tmp_path / "missing" / "t", **SPEC)
    (tmp_path / "file").write_text("")
    with pytest.raises(TableFileError, match="is not a folder"):
        LayerStore.create(tmp_path / "file" / "t", **SPEC)
    # chmod does not stop root, so the permission check itself is made to say no
    monkeypatch.setattr("fastttt.tables.layer_store.os.access", lambda path, mode: False)
    with pytest.raises(TableFileError, match=f"parent folder {tmp_path} is not writable"):
        LayerStore.create(tmp_path / "t", **SPEC)
    assert not (tmp_path / "t").exists()


def _write_manifest(disk, **changes):
    """The manifest with ``changes`` and a checksum that matches them (a field check's test)."""
    (disk.path / "manifest.json").write_bytes(_manifest_bytes({**disk.manifest, **changes}))


def _edit_manifest(disk, old: str, new: str):
    """The manifest file with one edit and its old checksum (a hand edit)."""
    path = disk.path / "manifest.json"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda d: (d.path / "manifest.json").unlink(), "no manifest.json"),
        (lambda d: (d.path / "manifest.json").write_text('{"format": '), "not valid JSON"),
        (lambda d: (d.path / "manifest.json").write_bytes(b"\xff\xfe"), "not UTF-8"),
        (lambda d: (d.path / "manifest.json").write_text("[1]"), "not a JSON object"),
        (lambda d: _write_manifest(d, format="other"), "format 'other'"),
        (lambda d: _write_manifest(d, version=1), "version 1"),
        (lambda d: _write_manifest(d, chunk=0), "malformed fields"),
        (lambda d: _write_manifest(d, complete={"value": [9]}), "malformed fields"),
        (lambda d: _edit_manifest(d, '"chunk": 4096', '"chunk": 4097'), "checksum mismatch"),
        (lambda d: _edit_manifest(d, '"value": [\n   1', '"value": [\n   0'), "checksum mismatch"),
    ],
    ids=[
        "missing",
        "truncated",
        "binary",
        "list",
        "format",
        "version",
        "chunk",
        "complete",
        "edited-chunk",
        "edited-complete",
    ],
)
def test_open_refuses_a_bad_manifest(disk, damage, message):
    fill(disk, layers=[1])
    damage(disk)
    with pytest.raises(TableFileError, match=message):
        LayerStore.open(disk.path)
    with pytest.raises(TableFileError, match=f"{message}|not empty and holds no layered table"):
        LayerStore.create(disk.path, **SPEC, resume=True)
    assert (disk.path / "value" / "1" / "c" / "0").exists()


def test_open_refuses_missing_or_non_folders(tmp_path):
    with pytest.raises(TableFileError, match="no such folder"):
        LayerStore.open(tmp_path / "missing")
    (tmp_path / "f").write_text("")
    with pytest.raises(TableFileError, match="is not a folder"):
        LayerStore.open(tmp_path / "f")


def test_without_zarr_the_module_imports_and_the_store_says_what_to_install(tmp_path, monkeypatch):
    import fastttt.tables

    # the re-import below rebinds fastttt.tables.layer_store: the original comes back afterwards
    monkeypatch.setattr(fastttt.tables, "layer_store", fastttt.tables.layer_store)
    monkeypatch.setitem(sys.modules, "zarr", None)  # import zarr raises ImportError
    monkeypatch.delitem(sys.modules, "fastttt.tables.layer_store")
    module = importlib.import_module("fastttt.tables.layer_store")
    for call in (
        lambda: module.LayerStore.create(tmp_path / "t", **SPEC),
        lambda: module.LayerStore.open(tmp_path),
    ):
        with pytest.raises(MissingDependencyError, match=r"pip install 'fastttt\[store\]'"):
            call()
    assert issubclass(MissingDependencyError, FastTTTError)
    assert not (tmp_path / "t").exists()
    memory = module.MemoryLayerStore(**SPEC)  # the in-RAM store needs no zarr
    memory.write_layer("value", 1, layer_data(1))
    assert np.array_equal(memory.read_layer("value", 1), layer_data(1))
