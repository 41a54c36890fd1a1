"""Live WDL tables that keep one value layer in K (``keep_every``, ``solve --keep-every K``):
each other layer is dropped once the layer below it is solved, and a probe of its positions
searches down to a kept layer. Checked against the plain recursion (``tests/naive.py``) on every
position of small boards, and against the table that keeps every layer.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from fastttt.errors import InvalidArgumentError, TableFileError
from fastttt.games.mnk.board import Position, has_line, win_masks
from fastttt.games.mnk.spec import as_spec
from fastttt.tables.layer_store import BIG_CHUNK, DEFAULT_CHUNK, LayerStore, MemoryLayerStore
from fastttt.tables.layered import drop_spent_layers, plan, solve_layered
from fastttt.tables.probe import open_table

from test_layered import Stop, stopper
from test_layered_live import every_position, expected_byte, solve_on_dask

pytest.importorskip("zarr")


def positions_of(game):
    pairs = list(every_position(as_spec(game)))
    firsts = np.array([f for f, _ in pairs], dtype=np.uint64)
    seconds = np.array([s for _, s in pairs], dtype=np.uint64)
    return pairs, firsts, seconds


@pytest.mark.parametrize("keep_every", [2, 3, 5])
@pytest.mark.parametrize("symmetry", [True, False], ids=["sym", "nosym"])
@pytest.mark.parametrize("game", ["3x3k3", "4x3k3g", "3x4k3g"])
def test_every_position_equals_the_naive_recursion(game, symmetry, keep_every):
    spec = as_spec(game)
    sol = solve_layered(
        game, symmetry=symmetry, values="wdl", positions="live", keep_every=keep_every
    )
    pairs, firsts, seconds = positions_of(game)
    memo: dict = {}
    expected = np.array([expected_byte(spec, f, s, memo, False) for f, s in pairs])
    got = sol.bytes_of(firsts, seconds)
    assert (expected != 0).sum() > 1000
    assert np.array_equal(got, expected)
    dropped = [n for n in range(spec.cells + 1) if n % keep_every]
    assert sol.store.manifest["dropped"] == dropped
    assert sol.store.manifest["complete"]["value"] == list(range(0, spec.cells + 1, keep_every))
    every = solve_layered(game, symmetry=symmetry, values="wdl", positions="live")
    assert sol.counts() == every.counts()  # counted while solving, dropped layers included


def test_on_disk_only_the_kept_layers_stay_and_probes_search_the_others(tmp_path):
    game = "4x5k4g"
    every = solve_layered(game, values="wdl", positions="live")
    out = tmp_path / "t"
    solve_layered(game, out=out, positions="live", keep_every=3)  # values: wdl
    assert sorted(int(p.name) for p in (out / "value").iterdir()) == list(range(0, 21, 3))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["version"] == 6 and manifest["keep_every"] == 3
    reopened = open_table(out)
    rng = np.random.default_rng(7)
    spec = as_spec(game)
    lines = []
    for _ in range(300):  # random games of every length
        moves = []
        pos = Position(spec, 0, 0)
        for _ply in range(int(rng.integers(0, spec.cells + 1))):
            legal = pos.legal_moves()
            if not legal:
                break
            pos = pos.play(legal[int(rng.integers(len(legal)))])
            moves.append(pos)
        lines.extend(moves)
    firsts = np.array([p.first for p in lines], dtype=np.uint64)
    seconds = np.array([p.second for p in lines], dtype=np.uint64)
    assert np.array_equal(reopened.bytes_of(firsts, seconds), every.bytes_of(firsts, seconds))
    assert reopened.value([]) == every.value([]) == 0
    summary = reopened.summary()
    assert summary["keep_every"] == 3
    kept_bytes = sum(every.store.array_size("value", n) for n in range(0, 21, 3))
    assert summary["table_bytes"] == kept_bytes < every.summary()["table_bytes"] / 2


def test_a_stopped_solve_resumes_and_drops_what_the_stop_left(tmp_path):
    game = "4x4k4g"
    reference = solve_layered(game, positions="live", values="wdl")
    out = tmp_path / "t"
    progress = stopper("value", 25, [])
    with pytest.raises(Stop):
        solve_layered(game, out=out, chunk=4096, positions="live", keep_every=2, progress=progress)
    with pytest.raises(TableFileError, match="keep_every 2, asked for 3"):
        solve_layered(game, out=out, resume=True, keep_every=3)
    with pytest.raises(TableFileError, match="not finished"):
        open_table(out)
    sol = solve_layered(game, out=out, resume=True)  # the table's own keep_every
    assert sol.store.manifest["dropped"] == list(range(1, 17, 2))
    for n in range(0, 17, 2):
        expected = reference.store.read_layer("value", n)
        assert np.array_equal(sol.store.read_layer("value", n), expected), f"layer {n}"
    assert open_table(out).counts() == reference.counts()


def test_a_layer_left_complete_by_a_kill_is_dropped_on_resume():
    """A solve killed between marking layer n complete and dropping layer n + 1."""
    store = MemoryLayerStore(
        game={}, index="i", symmetry="none", layer_sizes=[4, 4, 4], chunk=4, values="wdl",
        positions="live", keep_every=2,
    )  # fmt: skip
    for n in (2, 1, 0):
        store.write_layer("value", n, np.zeros(1, dtype=np.uint8))
        store.mark_complete("value", n)
    drop_spent_layers(store)
    assert store.manifest["dropped"] == [1]
    assert store.manifest["complete"]["value"] == [0, 2]
    assert store.is_solved(1) and not store.is_complete("value", 1)
    with pytest.raises(InvalidArgumentError, match="layer 2 is kept"):
        store.drop(2)
    store.delete("value", 0)  # layer 1 then has nothing solved below it
    store.write_layer("value", 1, np.zeros(1, dtype=np.uint8))
    store.manifest["dropped"] = []
    store.mark_complete("value", 1)
    with pytest.raises(InvalidArgumentError, match="once it and layer 0 are solved"):
        store.drop(1)


def test_files_a_kill_left_while_a_layer_was_dropped_go_on_resume(tmp_path):
    out = tmp_path / "t"
    solve_layered("4x3k3g", out=out, positions="live", keep_every=2, chunk=64)
    store = LayerStore.open(out, "r+")
    store.prepare("value", 3)  # the folder of a dropped layer, as a kill during rmtree leaves it
    assert (out / "value" / "3").exists()
    solve_layered("4x3k3g", out=out, resume=True)
    assert not (out / "value" / "3").exists()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(keep_every=2), "takes a live win/draw/loss table"),
        (dict(keep_every=2, positions="live", values="depth"), "not a live depth one"),
        (dict(keep_every=0, positions="live"), "keep_every must be an integer from 1 to 8"),
        (dict(keep_every=9, positions="live", values="wdl"), "from 1 to 8"),
    ],
)
def test_refusals(kwargs, message):
    with pytest.raises(InvalidArgumentError, match=message):
        solve_layered("4x4k4g", **kwargs)


def test_a_manifest_that_drops_a_kept_layer_is_refused(tmp_path):
    out = tmp_path / "t"
    solve_layered("4x3k3g", out=out, positions="live", keep_every=2)
    store = LayerStore.open(out, "r+")
    good = dict(store.manifest)
    store.manifest["dropped"] = [*store.manifest["dropped"], 2]
    store._save_manifest()  # a valid checksum over a wrong field
    with pytest.raises(TableFileError, match="damaged"):
        open_table(out)
    store.manifest = {**good, "dropped": [*good["dropped"], 1]}  # twice
    store._save_manifest()
    with pytest.raises(TableFileError, match="damaged"):
        open_table(out)
    store.manifest = {**good, "complete": {"reach": [], "value": [0, 1, 2, 4, 6, 8, 10, 12]}}
    store._save_manifest()  # layer 1 both complete and dropped
    with pytest.raises(TableFileError, match="damaged"):
        open_table(out)


def test_the_disk_estimate_counts_the_kept_layers():
    full = plan("6x6k4g", on_disk=True, values="wdl", positions="live")
    kept = plan("6x6k4g", on_disk=True, values="wdl", positions="live", keep_every=4)
    sizes = full.sizes
    assert full.stored_slots() == sum(sizes)
    # the most at once: the kept layers above layer n + 1, layer n + 1 and layer n
    expected = max(
        sum(sizes[m] for m in range(n + 2, len(sizes)) if m % 4 == 0)
        + (sizes[n + 1] if n + 1 < len(sizes) else 0)
        + sizes[n]
        for n in range(len(sizes))
    )
    assert kept.stored_slots() == expected
    assert kept.disk_bytes < 0.5 * full.disk_bytes


def test_sampled_live_slots_count_the_slots_with_no_line():
    """Exact on layers of at most LIVE_SAMPLES * LIVE_SAMPLE_SLOTS slots: every slot whose
    colouring has no line (the live table's stored slots, and the non-canonical colourings of
    symmetric blocks, which it leaves 0)."""
    game = "4x5k4g"
    spec = as_spec(game)
    masks = win_masks(spec)
    p = plan(game, on_disk=True, values="wdl", positions="live")
    live = solve_layered(game, values="wdl", positions="live")
    for n, estimate in enumerate(p.live_slots()):
        firsts, seconds = p.index.unrank_many(n, np.arange(p.sizes[n], dtype=np.int64))
        lined = ((firsts[:, None] & masks) == masks).any(1)
        lined |= ((seconds[:, None] & masks) == masks).any(1)
        assert estimate == int((~lined).sum()), f"layer {n}"
        by_byte = live.store.manifest["info"]["layers"].get(str(n), {})
        assert sum(pair[1] for byte, pair in by_byte.items() if byte != "0") <= estimate
    small = "3x4k3g"
    unmirrored = plan(small, symmetry=False, on_disk=True, values="wdl", positions="live")
    no_line = sum(
        1
        for f, s in every_position(as_spec(small))
        if not has_line(as_spec(small), f) and not has_line(as_spec(small), s)
    )
    assert sum(unmirrored.live_slots()) == no_line


def test_big_boards_get_big_chunks_unless_asked():
    seen = []

    def stop(p):
        seen.append(p)
        raise Stop

    for chunk in (None, 4096):
        with pytest.raises(Stop):
            solve_layered("6x6k4g", max_bytes=1 << 50, positions="live", chunk=chunk, on_plan=stop)
    assert [p.chunk for p in seen] == [BIG_CHUNK, 4096]
    with pytest.raises(Stop):
        solve_layered("5x6k4g", max_bytes=1 << 50, positions="live", on_plan=stop)
    assert seen[-1].chunk == DEFAULT_CHUNK


def test_probes_of_a_dropped_layer_are_searched_in_batches(monkeypatch):
    import fastttt.tables.probe as probe

    game = "4x3k3g"
    pairs, firsts, seconds = positions_of(game)
    expected = solve_layered(game, values="wdl", positions="live").bytes_of(firsts, seconds)
    monkeypatch.setattr(probe, "SEARCH_BATCH", 7)
    sol = solve_layered(game, values="wdl", positions="live", keep_every=4)
    assert np.array_equal(sol.bytes_of(firsts, seconds), expected)


def test_a_live_solve_too_big_for_the_disk_is_refused_before_the_windows(tmp_path, monkeypatch):
    from fastttt.errors import DiskBudgetError
    from fastttt.tables import layered

    def no_windows(*args, **kwargs):
        raise AssertionError("the windows were measured")

    monkeypatch.setattr(layered, "neighbour_windows", no_windows)
    monkeypatch.setattr(layered, "disk_room", lambda out, resume: 1 << 20)
    with pytest.raises(DiskBudgetError, match="bytes a position with no line") as err:
        solve_layered("5x6k4g", out=tmp_path / "t", positions="live", values="wdl", mode="windowed")
    assert "--keep-every K keeps one value layer in K" in str(err.value)
    assert not (tmp_path / "t").exists()


def test_a_dask_worker_keeps_at_most_the_spare_chunks(tmp_path):
    """A worker's chunk map releases the chunks beyond SPARE_BYTES used last, as one process's
    windowed mode does, instead of keeping every chunk it has read."""
    from fastttt.tables import distributed
    from fastttt.tables.layered import SPARE_BYTES

    out = tmp_path / "t"
    solve_layered("4x3k3g", out=out, positions="live", chunk=64)
    spec = as_spec("4x3k3g")
    game = (spec.rows, spec.cols, spec.k, spec.gravity)
    work = distributed._work_for(str(out), game, True, "test")
    try:
        assert work.spare_bytes == SPARE_BYTES and not work.whole_layers
    finally:
        distributed._WORK.clear()


def test_dask_workers_keep_one_layer_in_k_with_the_same_bytes(tmp_path):
    """The driver drops the spent layers while the workers hold their own chunk maps: the kept
    layers equal one process's, byte for byte, and the dropped ones are gone from disk."""
    game = "4x4k4g"
    alone = solve_layered(game, out=tmp_path / "alone", chunk=512, positions="live", keep_every=3)
    sol = solve_on_dask(game, out=tmp_path / "dask", chunk=512, positions="live", keep_every=3)
    kept = list(range(0, 17, 3))
    assert sorted(int(p.name) for p in (tmp_path / "dask" / "value").iterdir()) == kept
    for n in kept:
        expected = alone.store.read_layer("value", n)
        assert np.array_equal(sol.store.read_layer("value", n), expected), f"layer {n}"
    pairs, firsts, seconds = positions_of(game)
    assert np.array_equal(sol.bytes_of(firsts, seconds), alone.bytes_of(firsts, seconds))
    assert sol.counts() == alone.counts()
