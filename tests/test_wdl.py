"""Win/draw/loss layered tables (``solve_layered(values="wdl")``, ``solve --wdl``): four
positions a byte, every value equal to the byte table's, slot by slot and through probes;
chunks, threads, resume, damage, Dask, old manifests, and the questions of depth refused.

The byte tables (value and depth a byte, ``depth << 2 | v``) are the reference: they are
checked against the dense and naive solvers in ``test_layered.py``.
"""

from __future__ import annotations

import json
import random
import shutil
import zlib

import numpy as np
import pytest

from fastttt.errors import InvalidArgumentError, InvalidPositionError, NoDepthError, TableFileError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.kernels.dense import NONTERMINAL
from fastttt.kernels.layered import wdl_counted_bytes
from fastttt.tables.dense import solve
from fastttt.tables.index import LayerIndex
from fastttt.tables.layer_store import LayerStore, pack_wdl, unpack_wdl
from fastttt.tables.layered import plan, solve_layered
from fastttt.tables.probe import open_table
from fastttt.tables.queries import NO_DEPTH

pytest.importorskip("zarr")

GAME = "4x4k4g"
CHUNK = 4096


def unpacked_layers(sol) -> list[np.ndarray]:
    """Each value layer of a solution as one uint8 a slot: v (WDL) or the byte's low bits."""
    sizes = sol.store.manifest["layer_sizes"]
    layers = []
    for n, size in enumerate(sizes):
        data = np.array(sol.store.read_layer("value", n))
        layers.append(unpack_wdl(data, size) if sol.store.values == "wdl" else data & 3)
    return layers


def packed_layers(sol) -> list[np.ndarray]:
    sizes = sol.store.manifest["layer_sizes"]
    return [np.array(sol.store.read_layer("value", n)) for n in range(len(sizes))]


def sample_positions(sol, count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Bitboards of up to ``count`` stored positions of every layer (random slots that hold
    one), unranked by the table's index."""
    rng = np.random.default_rng(seed)
    firsts, seconds = [], []
    for n, data in enumerate(unpacked_layers(sol)):
        slots = np.flatnonzero(data)
        if slots.size:
            chosen = rng.choice(slots, size=min(count, slots.size), replace=False)
            f, s = sol.index.unrank_many(n, chosen)
            firsts.append(f)
            seconds.append(s)
    return np.concatenate(firsts), np.concatenate(seconds)


# --- packing --------------------------------------------------------------------------------
def test_pack_and_unpack_are_inverse_and_little_end_first():
    values = np.array([1, 2, 3, 0, 3, 1], dtype=np.uint8)
    packed = pack_wdl(values)
    assert packed.tolist() == [1 | 2 << 2 | 3 << 4, 3 | 1 << 2]
    assert unpack_wdl(packed, 6).tolist() == values.tolist()
    rng = np.random.default_rng(1)
    for size in (0, 1, 4, 5, 4099):
        v = rng.integers(0, 4, size, dtype=np.uint8)
        assert np.array_equal(unpack_wdl(pack_wdl(v), size), v)


def test_the_counted_bytes_of_a_packed_chunk_are_its_values_and_open_bits():
    rng = np.random.default_rng(2)
    for size in (0, 1, 5, 4099):
        values = rng.integers(0, 4, size, dtype=np.uint8)
        reach = np.where(rng.random(size) < 0.5, NONTERMINAL, values).astype(np.uint8)
        expected = values | (reach == NONTERMINAL).astype(np.uint8) << 2
        assert np.array_equal(wdl_counted_bytes(pack_wdl(values), reach), expected)


# --- values equal to the byte tables -------------------------------------------------------
@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
@pytest.mark.parametrize("game", ["3x3k3", "4x4k3", "4x4k4g", "4x5k4g", "3x4k3g", "1x5k3"])
def test_wdl_values_equal_the_byte_table(game, symmetry):
    depth = solve_layered(game, symmetry=symmetry)
    wdl = solve_layered(game, symmetry=symmetry, values="wdl")
    assert wdl.store.values == "wdl" and not wdl.has_depth
    sizes = depth.index.layer_sizes
    for n, (a, b) in enumerate(zip(unpacked_layers(wdl), unpacked_layers(depth), strict=True)):
        bad = np.flatnonzero(a != b)
        assert bad.size == 0, f"layer {n}: {bad.size} slots differ, e.g. slot {bad[0]}"
        assert wdl.store.read_layer("value", n).shape == (-(-sizes[n] // 4),)
    assert wdl.counts() == depth.counts()
    summary, reference = wdl.summary(), depth.summary()
    for key in ("reachable", "value", "terminal", "values", "by_ply"):
        assert summary[key] == reference[key], key
    assert summary["depth"] is None and summary["wdl"] and not reference["wdl"]
    assert summary["table_bytes"] == sum(-(-s // 4) for s in sizes)
    # through the probes: a sample of every layer's positions, and the empty board
    firsts, seconds = sample_positions(depth, 300, seed=len(game))
    assert np.array_equal(wdl.bytes_of(firsts, seconds), depth.bytes_of(firsts, seconds) & 3)
    positions = [Position(depth.spec, int(f), int(s)) for f, s in zip(firsts, seconds, strict=True)]
    values, depths = wdl.probe_many(positions)
    assert np.array_equal(values, depth.probe_many(positions)[0])
    assert np.all(depths == NO_DEPTH)
    for pos in positions[:: max(1, len(positions) // 40)]:
        assert wdl.probe_value(pos) == wdl.get_value(pos) == depth.value(pos)


@pytest.mark.parametrize("game", ["3x3k3", "4x4k3", "4x4k4g"])
def test_wdl_probes_equal_the_dense_table_on_every_position(game):
    dense = solve(game)
    codes = dense.reachable_codes()
    wdl = solve_layered(game, values="wdl")
    values, depths = wdl.probe_many(codes)
    assert np.array_equal(values, dense.probe_many(codes)[0])
    assert np.all(depths == NO_DEPTH)


def test_threads_and_small_chunks_give_the_same_packed_bytes():
    """4 rows x 5 cols Connect-4: one chunk a layer with the threaded kernel (pieces aligned
    to 4 slots, so no two threads write one byte) against chunks of 4 * 12,501 slots, serial."""
    whole = solve_layered("4x5k4g", values="wdl")
    assert max(whole.index.layer_sizes) > 2**18
    chunked = solve_layered("4x5k4g", values="wdl", chunk=50_004, parallel=False)
    assert whole.reachable == chunked.reachable == 3_945_711  # John Tromp's count
    for n, (a, b) in enumerate(zip(packed_layers(whole), packed_layers(chunked), strict=True)):
        assert np.array_equal(a, b), f"layer {n}"


def test_a_chunk_that_is_not_whole_bytes_is_refused(tmp_path):
    with pytest.raises(InvalidArgumentError, match="multiple of 4"):
        solve_layered("3x3k3", values="wdl", chunk=97)
    with pytest.raises(InvalidArgumentError, match="values must be one of"):
        solve_layered("3x3k3", values="exact")
    assert not (tmp_path / "t").exists()


def test_the_plan_counts_a_quarter_of_the_value_bytes():
    depth = plan("4x5k4g", on_disk=True)
    wdl = plan("4x5k4g", on_disk=True, values="wdl")
    assert depth.raw_disk_bytes - wdl.raw_disk_bytes == max(depth.sizes) - -(-max(depth.sizes) // 4)


# --- questions of depth -----------------------------------------------------------------------
def test_questions_of_depth_raise_a_typed_error_naming_the_table(tmp_path):
    out = tmp_path / "t"
    solve_layered("3x3k3", values="wdl", out=out)
    table = open_table(out)
    pos = Position.from_moves(table.spec, [4])
    assert table.value(pos) == 0
    for ask in (
        table.depth,
        table.probe_depth,
        table.get_depth,
        table.best_moves,
        table.move_outcomes,
        table.probe_moves,
    ):
        with pytest.raises(NoDepthError, match=rf"{out}.*win/draw/loss only.*without --wdl"):
            ask(pos)
    # a position not in the table is still refused as such
    with pytest.raises(InvalidPositionError, match="not reachable"):
        table.probe_value(Position.from_text(table.spec, "XXX/OOO/..."))
    assert table.get_value(Position.from_text(table.spec, "XXX/OOO/..."), "none") == "none"
    with pytest.raises(InvalidPositionError, match="not a reachable"):
        table.probe_many(["XXX/OOO/..."])
    in_ram = solve_layered("3x3k3", values="wdl")
    with pytest.raises(NoDepthError, match="in memory"):
        in_ram.depth(pos)


# --- on disk: manifest, resume, damage ---------------------------------------------------------
class Stop(Exception):
    """Raised from a progress callback to interrupt a solve."""


def stopper(phase: str, at: int):
    seen = [0]

    def progress(ph, layer, done, total):
        if ph == phase:
            seen[0] += 1
            if seen[0] == at:
                raise Stop(f"{ph} layer {layer}")

    return progress


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """An uninterrupted WDL solve of GAME in a folder, and the byte table's values."""
    path = tmp_path_factory.mktemp("wdl") / "table"
    sol = solve_layered(GAME, out=path, chunk=CHUNK, values="wdl")
    assert sol.reachable == 161_029  # John Tromp's count of 4x4 Connect-4
    return {
        "path": path,
        "packed": packed_layers(sol),
        "counts": sol.counts(),
        "depth": solve_layered(GAME, chunk=CHUNK),
    }


def test_the_manifest_says_wdl_and_chunks_are_whole_bytes(clean):
    manifest = json.loads((clean["path"] / "manifest.json").read_text())
    assert manifest["values"] == "wdl" and manifest["version"] == 3
    table = open_table(clean["path"])
    assert not table.has_depth
    for n in range(len(manifest["layer_sizes"])):
        chunks = table.store.chunk_count(n)
        assert [table.store.byte_bounds("value", n, c)[0] for c in range(chunks)] == [
            c * CHUNK // 4 for c in range(chunks)
        ]
    pairs = zip(unpacked_layers(table), unpacked_layers(clean["depth"]), strict=True)
    assert all(np.array_equal(a, b) for a, b in pairs)


@pytest.mark.parametrize("seed", range(3))
def test_resume_after_interruptions_gives_the_same_bytes(clean, tmp_path, seed):
    rng = random.Random(seed)
    out = tmp_path / "t"
    sizes = clean["depth"].index.layer_sizes
    chunks = sum(-(-s // CHUNK) for s in sizes)
    for phase in ("reach", "value"):
        with pytest.raises(Stop):
            solve_layered(
                GAME,
                out=out,
                chunk=CHUNK,
                values="wdl",
                resume=out.exists(),
                progress=stopper(phase, rng.randint(1, chunks)),
            )
    sol = solve_layered(GAME, out=out, values="wdl", resume=True)  # the stored chunk size
    assert sol.counts() == clean["counts"]
    for n, (a, b) in enumerate(zip(packed_layers(sol), clean["packed"], strict=True)):
        assert np.array_equal(a, b), f"value layer {n}"


def test_resume_with_the_other_kind_of_values_is_refused(tmp_path):
    out = tmp_path / "t"
    with pytest.raises(Stop):
        solve_layered(GAME, out=out, chunk=CHUNK, values="wdl", progress=stopper("reach", 3))
    with pytest.raises(TableFileError, match="values 'wdl', asked for 'depth'"):
        solve_layered(GAME, out=out, chunk=CHUNK, values="depth", resume=True)
    resumed = solve_layered(GAME, out=out, resume=True)  # values=None: the folder's own
    assert resumed.reachable == 161_029 and not resumed.has_depth


def test_a_damaged_wdl_chunk_is_refused(clean, tmp_path):
    out = tmp_path / "copy"
    shutil.copytree(clean["path"], out)
    layer, chunk = 12, 2
    target = out / "value" / str(layer) / "c" / str(chunk)
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0xFF
    target.write_bytes(bytes(data))
    values = unpacked_layers(clean["depth"])[layer]
    index = LayerIndex(GAME, True)
    inside = int(np.flatnonzero(values[chunk * CHUNK : (chunk + 1) * CHUNK])[0]) + chunk * CHUNK
    outside = int(np.flatnonzero(values[:CHUNK])[0])
    table = open_table(out)
    with pytest.raises(TableFileError, match=f"layer {layer} chunk {chunk} of value"):
        table.value(Position(table.spec, *index.unrank(layer, inside)))
    assert (
        table.value(Position(table.spec, *index.unrank(layer, outside)))
        == {1: 1, 2: 0, 3: -1}[int(values[outside])]
    )
    with pytest.raises(TableFileError):
        LayerStore.open(out).verify()


def test_a_manifest_claiming_wdl_for_byte_layers_is_refused(tmp_path):
    """Editing ``values`` (and the manifest's CRC with it) does not make byte layers read as
    packed ones: the arrays' shapes disagree."""
    out = tmp_path / "t"
    solve_layered("3x3k3", out=out)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["values"] = "wdl"
    del manifest["crc32"]
    text = json.dumps(manifest, sort_keys=True, separators=(",", ":")).encode()
    manifest["crc32"] = zlib.crc32(text)
    (out / "manifest.json").write_text(json.dumps(manifest))
    table = open_table(out)
    with pytest.raises(TableFileError, match="the manifest says"):
        table.value(Position.from_moves(table.spec, [4, 0, 1]))


def test_a_folder_written_before_the_values_field_opens_as_depth(tmp_path):
    out = tmp_path / "t"
    solve_layered("3x3k3", out=out)
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["values"], manifest["crc32"]
    text = json.dumps(manifest, sort_keys=True, separators=(",", ":")).encode()
    manifest["crc32"] = zlib.crc32(text)
    (out / "manifest.json").write_text(json.dumps(manifest))
    table = open_table(out)
    assert table.has_depth and table.store.values == "depth"
    assert table.depth(Position.empty(table.spec)) == 9
    assert solve_layered("3x3k3", out=out, resume=True).depth(Position.empty(as_spec("3x3k3"))) == 9


# --- Dask ---------------------------------------------------------------------------------------
def test_dask_wdl_solve_gives_the_same_bytes(clean, tmp_path):
    pytest.importorskip("distributed")
    from fastttt.tables.distributed import DaskRunner, local_cluster

    cluster, client = local_cluster(2)
    try:
        sol = solve_layered(
            GAME,
            out=tmp_path / "t",
            chunk=CHUNK,
            values="wdl",
            runner_factory=lambda work: DaskRunner(work, client),
        )
    finally:
        client.close()
        cluster.close()
    assert sol.counts() == clean["counts"]
    for n, (a, b) in enumerate(zip(packed_layers(sol), clean["packed"], strict=True)):
        assert np.array_equal(a, b), f"value layer {n}"


# --- SIGKILL of a real `fastttt solve --wdl --out` process, then --resume --------------------
def test_sigkill_in_the_value_phase_then_resume_gives_the_same_bytes(tmp_path):
    """Killed once the first value layer is complete (polling the manifest); the resume
    without --wdl is refused, with --wdl it ends on the bytes of an uninterrupted solve."""
    import signal
    import subprocess
    import sys
    import time

    game, out = "4x5k4g", tmp_path / "t"
    reference = solve_layered(game, values="wdl")
    command = [sys.executable, "-m", "fastttt", "solve", game, "--wdl", "--out", str(out)]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                complete = json.loads((out / "manifest.json").read_text())["complete"]
            except (OSError, ValueError, KeyError):
                complete = {}
            if complete.get("value"):
                proc.send_signal(signal.SIGKILL)
                break
            time.sleep(0.02)
    finally:
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    done = json.loads((out / "manifest.json").read_text())["complete"]["value"]
    assert 0 < len(done) < 21
    other = subprocess.run(
        command[:-3] + ["--depth", "--out", str(out), "--resume"], capture_output=True
    )
    assert other.returncode == 1 and b"values 'wdl', asked for 'depth'" in other.stderr
    resumed = subprocess.run([*command, "--resume", "--json"], capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["reachable"] == 3_945_711 and summary["wdl"] is True
    assert summary["values"] == reference.counts()["values"]
    table = open_table(out)
    for n, (a, b) in enumerate(zip(packed_layers(table), packed_layers(reference), strict=True)):
        assert np.array_equal(a, b), f"value layer {n}"


def test_past_the_default_slots_a_solve_keeps_win_draw_loss(monkeypatch):
    import fastttt.tables.layered as layered

    assert layered.plan("5x6k4g", on_disk=True).slots < layered.WDL_DEFAULT_SLOTS  # 5.2 G
    assert layered.plan("6x6k4g", on_disk=True).slots > layered.WDL_DEFAULT_SLOTS  # 311 G
    monkeypatch.setattr(layered, "WDL_DEFAULT_SLOTS", 100_000)
    assert not solve_layered(GAME).has_depth  # 4x4k4g: 112,861 slots
    assert solve_layered(GAME, values="depth").has_depth
    assert solve_layered("3x3k3g").has_depth
