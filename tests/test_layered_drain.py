"""Chunk-level resume and draining (:mod:`fastttt.tables.drain`): a layer the table does not keep
loses each chunk once every chunk that reads it is written, and a stopped solve resumes from the
chunks it wrote. Checked against tables solved in one go."""

from __future__ import annotations

import json

import numpy as np
import pytest

from fastttt.errors import InvalidArgumentError, TableFileError
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
    assert not store.drains_next(16)
    held = {}

    def progress(phase, n, done, total):
        if phase == "value" and n == 16:
            held[n] = min(held.get(n, 1 << 30), chunk_files(out, 17))

    plans = []
    solve_layered(GAME, out=out, resume=True, progress=progress, on_plan=plans.append)
    assert plans[0].drain_profiles is None  # nor is its disk estimated with drains
    assert held[16] == store.chunk_count(17)  # every chunk of layer 17 stayed throughout
    assert_same_table(out, reference, 3)
    assert json.loads((out / "manifest.json").read_text())["version"] == 5


def test_draining_is_refused_out_of_turn(tmp_path):
    out = tmp_path / "t"
    solve_layered("4x3k3g", out=out, chunk=64, positions="live", keep_every=2)
    store = LayerStore.open(out, "r+")
    with pytest.raises(InvalidArgumentError, match="layer 2 cannot drain now"):
        store.start_draining(2)  # a kept layer
    with pytest.raises(InvalidArgumentError, match="layer 3 cannot drain now"):
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
    assert [n for n, d in enumerate(drained.drain_profiles) if d is not None] == p.draining_layers()
    assert p.draining_layers() == [n for n in range(36) if (n + 1) % 4]
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
    with pytest.raises(
        DiskBudgetError,
        match="may need about .* even if each layer not kept went as soon as it is read",
    ):
        solve_layered("5x6k4g", out=tmp_path / "t", positions="live", keep_every=4)
    monkeypatch.undo()
    monkeypatch.setattr(layered, "disk_room", lambda out, resume: drained - 1)
    with pytest.raises(DiskBudgetError, match="may need about .* chunk by chunk as it is read"):
        solve_layered("5x6k4g", out=tmp_path / "t", positions="live", keep_every=4)
    assert not (tmp_path / "t").exists()


def stopped_inside_a_drain(out):
    """A 4x5k4g solve keeping one layer in 3, stopped inside layer 16 (layer 17 draining)."""
    with pytest.raises(Stop):
        solve_layered(
            GAME, out=out, chunk=CHUNK, positions="live", keep_every=3,
            progress=stopper("value", 400, []),
        )  # fmt: skip
    assert chunk_files(out, 17) < LayerStore.open(out).chunk_count(17)


def test_a_damaged_chunk_whose_reads_drained_is_refused_by_name(tmp_path):
    out = tmp_path / "t"
    stopped_inside_a_drain(out)
    first = out / "value" / "16" / "c" / "0"
    blob = bytearray(first.read_bytes())
    blob[len(blob) // 2] ^= 0xFF
    first.write_bytes(bytes(blob))
    with pytest.raises(TableFileError, match="layer 16 chunk 0 of value is missing or damaged"):
        solve_layered(GAME, out=out, resume=True)


def test_damaged_metadata_of_a_layer_left_unfinished_is_refused_not_replaced(tmp_path):
    out = tmp_path / "t"
    stopped_inside_a_drain(out)
    written = chunk_files(out, 16)
    (out / "value" / "16" / "zarr.json").write_text("")
    with pytest.raises(TableFileError, match="layer 16 of value: damaged array metadata"):
        solve_layered(GAME, out=out, resume=True)
    assert chunk_files(out, 16) == written


def test_whole_layers_hold_one_neighbouring_layer_at_a_time(tmp_path):
    """In whole-layer mode a draining neighbour goes through the chunk map: the whole layer
    read before is let go, and the other way round."""
    works = []

    def factory(work):
        works.append(work)
        return layered.LocalRunner(work)

    def progress(phase, n, done, total):
        if works:
            assert works[0]._whole is None or works[0].chunk_map is None

    solve_layered(
        GAME, out=tmp_path / "t", chunk=CHUNK, positions="live", keep_every=2, mode="whole",
        runner_factory=factory, progress=progress,
    )  # fmt: skip
