"""Chunk-level resume and draining (:mod:`fastttt.tables.drain`): a layer the table does not keep
loses each chunk once every chunk that reads it is written, and a stopped solve resumes from the
chunks it wrote. Checked against tables solved in one go."""

from __future__ import annotations

import json

import numpy as np
import pytest

from fastttt.errors import InvalidArgumentError
from fastttt.tables import layered
from fastttt.tables.layer_store import LayerStore, _manifest_bytes
from fastttt.tables.layered import solve_layered
from fastttt.tables.probe import open_table

from test_layered import Stop, stopper

pytest.importorskip("zarr")

GAME = "4x5k4g"  # 21 layers, up to 490 k slots: 120 chunks of 4 Ki
CHUNK = 4096


@pytest.fixture(scope="module")
def reference():
    return solve_layered(GAME, positions="live", values="wdl")


def chunk_files(out, n: int) -> int:
    folder = out / "value" / str(n) / "c"
    return len(list(folder.iterdir())) if folder.exists() else 0


def computed_layers(monkeypatch) -> list:
    """The layer of each chunk the solves compute from now on (``ChunkWork.backward``)."""
    computed: list = []
    backward = layered.ChunkWork.backward

    def counted(self, n, chunk):
        computed.append(n)
        return backward(self, n, chunk)

    monkeypatch.setattr(layered.ChunkWork, "backward", counted)
    return computed


def assert_same_table(out, reference, keep_every: int) -> None:
    sol = open_table(out)
    for n in range(0, 21, keep_every):
        expected = reference.store.read_layer("value", n)
        assert np.array_equal(sol.store.read_layer("value", n), expected), f"layer {n}"
    assert sol.counts() == reference.counts()


def test_a_layer_not_kept_goes_chunk_by_chunk_while_the_layer_below_is_solved(tmp_path, reference):
    out = tmp_path / "t"
    held = {}  # layer n -> most chunk files of layers n and n + 1 at once

    def progress(phase, n, done, total):
        if phase == "value" and n < 20:
            both = chunk_files(out, n) + chunk_files(out, n + 1)
            held[n] = max(held.get(n, 0), both)

    solve_layered(GAME, out=out, chunk=CHUNK, positions="live", keep_every=3, progress=progress)
    assert_same_table(out, reference, 3)
    store = LayerStore.open(out)
    for n in (15, 16):  # they read layers 16 and 17, which the table does not keep
        pair = store.chunk_count(n) + store.chunk_count(n + 1)
        assert held[n] < 0.9 * pair, (n, held[n], pair)
    assert held[17] == store.chunk_count(17) + store.chunk_count(18)  # layer 18 is kept


def test_a_solve_stopped_while_a_layer_drains_resumes_from_its_chunks(
    tmp_path, reference, monkeypatch
):
    out = tmp_path / "t"
    calls: list = []
    # layers 20 to 17 take 46 + 68 + 107 + 113 chunks: stop inside layer 16, which drains 17
    progress = stopper("value", 400, calls)
    with pytest.raises(Stop):
        solve_layered(GAME, out=out, chunk=CHUNK, positions="live", keep_every=3, progress=progress)
    stopped_in = calls[-1][1]
    assert stopped_in == 16
    manifest = json.loads((out / "manifest.json").read_text())
    assert 17 in manifest["dropped"] and 16 not in manifest["complete"]["value"]
    store = LayerStore.open(out)
    written = chunk_files(out, 16)
    assert 0 < written < store.chunk_count(16)
    assert chunk_files(out, 17) < store.chunk_count(17)  # some chunks of layer 17 are gone

    computed = computed_layers(monkeypatch)
    solve_layered(GAME, out=out, resume=True)
    assert computed.count(16) == store.chunk_count(16) - written
    assert_same_table(out, reference, 3)
    assert not (out / "value" / "17").exists()


def test_a_stopped_reachable_solve_resumes_from_the_chunks_it_wrote(tmp_path, monkeypatch):
    game = "4x4k4g"
    reference = solve_layered(game)
    out = tmp_path / "t"
    calls: list = []
    with pytest.raises(Stop):
        solve_layered(game, out=out, chunk=512, progress=stopper("value", 30, calls))
    stopped_in = calls[-1][1]
    written = chunk_files(out, stopped_in)
    assert written > 0
    computed = computed_layers(monkeypatch)
    sol = solve_layered(game, out=out, resume=True)
    total = sol.store.chunk_count(stopped_in)
    assert computed.count(stopped_in) == total - written
    for n in range(17):
        expected = reference.store.read_layer("value", n)
        assert np.array_equal(sol.store.read_layer("value", n), expected), f"layer {n}"
    assert sol.counts() == reference.counts()


def test_a_damaged_chunk_left_by_a_stop_is_computed_again(tmp_path):
    game = "4x4k4g"
    reference = solve_layered(game, positions="live")
    out = tmp_path / "t"
    calls: list = []
    with pytest.raises(Stop):
        progress = stopper("value", 30, calls)
        solve_layered(game, out=out, chunk=512, positions="live", progress=progress)
    stopped_in = calls[-1][1]
    damaged = sorted((out / "value" / str(stopped_in) / "c").iterdir())[0]
    blob = bytearray(damaged.read_bytes())
    blob[len(blob) // 2] ^= 0xFF
    damaged.write_bytes(bytes(blob))
    sol = solve_layered(game, out=out, resume=True)
    for n in range(17):
        expected = reference.store.read_layer("value", n)
        assert np.array_equal(sol.store.read_layer("value", n), expected), f"layer {n}"


def test_a_table_of_version_5_drops_whole_layers(tmp_path, reference):
    """Written before draining: it opens, and a resume drops its layers whole."""
    out = tmp_path / "t"
    calls: list = []
    with pytest.raises(Stop):
        solve_layered(
            GAME, out=out, chunk=CHUNK, positions="live", keep_every=3,
            progress=stopper("value", 20, calls),
        )  # fmt: skip
    store = LayerStore.open(out, "r+")
    assert not store.manifest["dropped"]  # stopped before any layer drained
    store.manifest["version"] = 5
    (out / "manifest.json").write_bytes(_manifest_bytes(store.manifest))
    store = LayerStore.open(out)
    assert not store.drains(16)
    held = {}

    def progress(phase, n, done, total):
        if phase == "value" and n == 16:
            held[n] = min(held.get(n, 1 << 30), chunk_files(out, 17))

    solve_layered(GAME, out=out, resume=True, progress=progress)
    assert held[16] == store.chunk_count(17)  # every chunk of layer 17 stayed throughout
    assert_same_table(out, reference, 3)
    assert json.loads((out / "manifest.json").read_text())["version"] == 5


def test_draining_is_refused_out_of_turn(tmp_path):
    out = tmp_path / "t"
    solve_layered("4x3k3g", out=out, chunk=64, positions="live", keep_every=2)
    store = LayerStore.open(out, "r+")
    with pytest.raises(InvalidArgumentError, match="layer 2 drains while layer 1"):
        store.start_draining(2)  # a kept layer
    with pytest.raises(InvalidArgumentError, match="layer 3 drains while layer 2"):
        store.start_draining(3)  # layer 2 is solved already


def test_the_drain_profile_follows_the_chunks_each_chunk_reads():
    """drain_profile (from each chunk's last reader) against a Drain's own counts of readers
    (each chunk's reads), chunk by chunk in order, on layers 15 and 16 of 4x5k4g."""
    from fastttt.tables.drain import Drain, drain_profile
    from fastttt.tables.layer_store import MemoryLayerStore
    from fastttt.tables.layered import plan

    p = plan(GAME, on_disk=True, values="wdl", positions="live", chunk=CHUNK, keep_every=3)
    store = MemoryLayerStore(
        game={}, index="i", symmetry="s", layer_sizes=p.sizes, chunk=CHUNK, values="wdl",
        positions="live", keep_every=3,
    )  # fmt: skip
    for n in (15, 16):
        store.write_layer("value", n + 1, np.zeros(store.array_size("value", n + 1), np.uint8))
        store.prepare("value", n)
        drain = Drain(store, p.index, n)
        left, written = [], []
        for c in range(store.chunk_count(n)):
            present = store.resume_layer("value", n + 1)  # its chunks still there
            left.append(sum(np.diff(store.chunk_bounds(n + 1, r))[0] for r in present))
            written.append(store.chunk_bounds(n, c)[1])
            start, stop = store.byte_bounds("value", n, c)
            store.write_chunk("value", n, c, np.zeros(stop - start, np.uint8))
            drain.written(c)
        profile = drain_profile(p.index, p.sizes, n, CHUNK)
        assert profile.shape == (2, store.chunk_count(n))
        assert np.allclose(profile[0], np.array(written) / p.sizes[n])
        assert np.allclose(profile[1], np.array(left) / p.sizes[n + 1])
        assert profile[1][0] > 0.9 and profile[1][-1] < 0.5  # it drains


def test_the_disk_estimate_counts_the_drains():
    from fastttt.tables.layered import plan

    p = plan("6x6k4g", on_disk=True, values="wdl", positions="live", keep_every=4)
    drained = p.with_drains()
    assert [n for n, d in enumerate(drained.drains) if d is not None] == p.draining()
    assert p.draining() == [n for n in range(36) if (n + 1) % 4]
    floor, whole = p.drain_floor().disk_bytes, p.disk_bytes
    assert floor <= drained.disk_bytes < 0.9 * whole


def test_a_disk_too_small_even_for_drains_is_refused_before_they_are_measured(
    tmp_path, monkeypatch
):
    from fastttt.errors import DiskBudgetError
    from fastttt.tables.layered import plan

    def no_drains(*args, **kwargs):
        raise AssertionError("the drains were measured")

    p = plan("5x6k4g", on_disk=True, values="wdl", positions="live", keep_every=4)
    floor, drained = p.drain_floor().disk_bytes, p.with_drains().disk_bytes
    monkeypatch.setattr(layered, "disk_room", lambda out, resume: floor - 1)
    monkeypatch.setattr(layered, "drain_profile", no_drains)
    with pytest.raises(DiskBudgetError, match="needs at least .* as soon as it is read"):
        solve_layered("5x6k4g", out=tmp_path / "t", positions="live", keep_every=4)
    monkeypatch.undo()
    monkeypatch.setattr(layered, "disk_room", lambda out, resume: drained - 1)
    with pytest.raises(DiskBudgetError, match="may need about .* chunk by chunk as it is read"):
        solve_layered("5x6k4g", out=tmp_path / "t", positions="live", keep_every=4)
    assert not (tmp_path / "t").exists()
