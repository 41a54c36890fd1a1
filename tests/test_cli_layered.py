"""``fastttt solve`` with the layered engine: JSON, tables in a folder, queries, usage errors,
memory refusals and symmetry."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from fastttt.cli import main
from fastttt.memory import format_bytes
from fastttt.tables.index import LayerIndex
from fastttt.tables.layered import plan
from fastttt.tables.probe import open_table

pytest.importorskip("zarr")

GAME = "4x4k4g"
COUNTS = ("reachable", "value", "depth", "terminal", "values")


def invoke(*args):
    return CliRunner().invoke(main, ["solve", *args])


def solve_json(*args) -> dict:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def in_ram():
    return solve_json(GAME)


@pytest.fixture(scope="module")
def table_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "table"
    summary = solve_json(GAME, "--out", str(out))
    return out, summary


def test_gravity_board_goes_to_the_layered_engine(in_ram):
    assert in_ram["engine"] == "layered"
    assert in_ram["game"] == "mnk(rows=4,cols=4,k=4,gravity)"
    assert in_ram["reachable"] == 161_029  # John Tromp's count
    assert in_ram["value"] == "draw" and in_ram["depth"] == 16
    assert in_ram["layers"] == 17
    assert in_ram["index"] == "gravity-heights" and in_ram["symmetry"] == "mirror"
    assert in_ram["disk_bytes"] == 0
    assert in_ram["table_bytes"] == sum(LayerIndex(GAME, True).layer_sizes) == 112_861
    assert sum(in_ram["values"].values()) == 161_029
    assert sum(in_ram["terminal"].values()) < 161_029


def test_layered_and_dense_engines_agree(in_ram):
    dense = solve_json(GAME, "--engine", "dense")
    assert dense["engine"] == "dense" and dense["layers"] is None
    assert {k: dense[k] for k in COUNTS} == {k: in_ram[k] for k in COUNTS}


def test_no_symmetry_gives_the_same_counts(in_ram):
    plain = solve_json(GAME, "--no-symmetry")
    assert plain["symmetry"] == "none"
    assert {k: plain[k] for k in COUNTS} == {k: in_ram[k] for k in COUNTS}
    assert plain["table_bytes"] == sum(LayerIndex(GAME, False).layer_sizes)
    assert plain["table_bytes"] > in_ram["table_bytes"]
    free = solve_json("3x4k3", "--engine", "layered", "--no-symmetry")
    free_sym = solve_json("3x4k3", "--engine", "layered")
    assert free["symmetry"] == "none" and free_sym["symmetry"] == "d2"
    assert {k: free[k] for k in COUNTS} == {k: free_sym[k] for k in COUNTS}


def test_out_writes_a_table_that_answers_like_the_in_ram_solve(in_ram, table_dir):
    out, summary = table_dir
    assert {k: summary[k] for k in COUNTS} == {k: in_ram[k] for k in COUNTS}
    assert summary["disk_bytes"] > 0 and (out / "manifest.json").is_file()
    table = open_table(out, GAME)
    assert table.counts()["reachable"] == 161_029
    for moves in ["1", "44", "1234", "444411"]:
        ram = solve_json(GAME, "--moves", moves)["query"]
        disk = solve_json(GAME, "--out", str(out), "--resume", "--moves", moves)["query"]
        assert disk == ram
        assert (
            table.value([int(c) - 1 for c in moves])
            == {"first": 1, "draw": 0, "second": -1}[ram["winner"]]
        )
        assert ram["moves"] == list(moves)


def test_load_dir_answers_like_the_in_ram_solve(table_dir):
    out, summary = table_dir
    position = "..../..../.O../.XX."
    ram = solve_json(GAME, "--position", position)
    loaded = solve_json("--load", str(out), "--position", position)
    assert loaded["engine"] == "layered"
    assert loaded["query"] == ram["query"]
    assert {k: loaded[k] for k in COUNTS} == {k: ram[k] for k in COUNTS}


def test_text_summary_names_the_engine_and_the_disk(table_dir, tmp_path):
    result = invoke(GAME, "--out", str(tmp_path / "t"))
    assert result.exit_code == 0, result.output
    assert "layered: 17 layers, index gravity-heights, symmetry mirror" in result.stdout
    assert "161,029 positions" in result.stdout
    assert "disk" in result.stdout
    assert f"layer by layer in {tmp_path / 't'}" in result.stderr


def test_out_on_a_finished_table_needs_resume(table_dir):
    out, _ = table_dir
    result = invoke(GAME, "--out", str(out))
    assert result.exit_code == 1
    last = result.stderr.strip().splitlines()[-1]  # after the plan's announcement
    assert last.startswith("Error: ") and "already holds a layered table" in last
    other = invoke("4x4k3g", "--out", str(out), "--resume")
    assert other.exit_code == 1 and "cannot resume" in other.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        ([GAME, "--resume"], "--resume goes on with the solve in --out DIR: give --out"),
        ([GAME, "--workers", "2"], "give --out DIR"),
        ([GAME, "--scheduler", "tcp://127.0.0.1:1"], "give --out DIR"),
        ([GAME, "--engine", "dense", "--out", "{tmp}/x"], "the dense engine keeps its table"),
        (
            [GAME, "--engine", "layered", "--save", "{tmp}/f.fttt"],
            "a layered table is kept with --out DIR",
        ),
        (["3x3k3", "--engine", "layered", "--save", "{tmp}/f.fttt"], "not --save FILE"),
        (["--load", "{tmp}/f.fttt", "--out", "{tmp}/x"], "--load reads a solved table: drop --out"),
        (["--load", "{table}", "--out", "{tmp}/x"], "--load"),
        (
            [GAME, "--out", "{tmp}/x", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
            "not both",
        ),
        ([GAME, "--wdl", "--engine", "dense"], "--wdl/--depth go with the layered engine"),
        ([GAME, "--depth", "--engine", "dense"], "--wdl/--depth go with the layered engine"),
        (["--load", "{table}", "--wdl"], "--load reads a solved table: drop --wdl"),
        ([GAME, "--wdl", "--stdin"], "drop --wdl"),
        ([GAME, "--live", "--engine", "dense"], "--live/--reachable go with the layered engine"),
        ([GAME, "--live", "--index", "column-runs"], "--live takes the heights index"),
        (["--load", "{table}", "--live"], "drop --live"),
        ([GAME, "--keep-every", "2", "--engine", "dense"], "--keep-every goes with the layered"),
        ([GAME, "--keep-every", "2", "--reachable"], "--keep-every keeps layers of a live table"),
        ([GAME, "--keep-every", "2", "--live", "--depth"], "not --depth"),
        ([GAME, "--keep-every", "0"], "0 is not in the range 1<=x<=8"),
        ([GAME, "--chunk", "4096"], "--chunk cuts the layers kept in --out DIR: give --out"),
    ],
)
def test_usage_errors_are_one_line_exit_2(tmp_path, table_dir, args, message):
    args = [a.format(tmp=tmp_path, table=table_dir[0]) for a in args]
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], lines
    assert result.stdout == ""
    assert not (tmp_path / "x").exists() and not (tmp_path / "f.fttt").exists()


def test_usage_error_from_the_console_script(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "fastttt",
            "solve",
            GAME,
            "--engine",
            "dense",
            "--out",
            str(tmp_path / "x"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "Error: the dense engine keeps its table in RAM: --out, --workers and --scheduler go "
        "with the layered engine"
    ]


def test_max_memory_refuses_with_the_estimate(tmp_path):
    result = invoke(GAME, "--max-memory", "0.0001")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    p = plan(GAME)
    assert f"needs about {format_bytes(p.memory_bytes)} of memory" in lines[0]
    assert "112,861 slots" in lines[0] and format_bytes(0.0001 * 2**30) in lines[0]
    on_disk = invoke(GAME, "--max-memory", "0.0001", "--out", str(tmp_path / "t"))
    assert on_disk.exit_code == 1
    estimate = format_bytes(plan(GAME, on_disk=True).memory_bytes)
    assert f"needs about {estimate} of memory" in on_disk.stderr
    assert not (tmp_path / "t").exists()


@pytest.mark.slow
def test_workers_solve_matches(tmp_path, in_ram):
    summary = solve_json(GAME, "--out", str(tmp_path / "t"), "--workers", "2")
    assert {k: summary[k] for k in COUNTS} == {k: in_ram[k] for k in COUNTS}


def _limit_memory():  # run in the child: 3 GiB of address space, so nothing can swap
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS")
def test_a_board_far_too_big_is_refused_with_the_estimate():
    """The plan counts slots without building the layers' indexes (C(36, 18) keys here)."""
    result = subprocess.run(
        [sys.executable, "-m", "fastttt", "solve", "6x6k4"],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=_limit_memory,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "needs about" in lines[0]
    assert "mnk(rows=6,cols=6,k=4)" in lines[0] and "PiB of memory" in lines[0]


@pytest.mark.parametrize("to_folder", [False, True], ids=["in RAM", "--out"])
def test_ctrl_c_stops_a_layered_solve_between_chunks(tmp_path, to_folder):
    """SIGINT in the reach phase of 5x4 k=4 (about 20 s of layers), once layer 10 is under
    way: exit 130 within a second or so, one line; with --out, the line names --resume and
    the folder keeps a table to resume."""
    import signal
    import time

    out = tmp_path / "t"
    args = ["solve", "5x4k4", "--engine", "layered"] + (["--out", str(out)] if to_folder else [])
    proc = subprocess.Popen(
        [sys.executable, "-m", "fastttt", *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # SIGINT answered even when this run inherited it ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    seen = []
    for line in proc.stderr:  # a progress line per layer: the kernels are compiled by then
        seen.append(line)
        if line.split()[1:3] == ["reach", "layer"] and int(line.split()[3][:-1]) >= 10:
            break
    assert proc.poll() is None, "".join(seen)
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    _, rest = proc.communicate(timeout=120)
    err = "".join(seen) + rest
    assert proc.returncode == 130, err
    assert time.perf_counter() - sent < 10  # between two chunks, not at the end of the solve
    last = err.splitlines()[-1]
    assert "Traceback" not in err
    if to_folder:
        assert "--resume" in last and str(out) in last
        assert (out / "manifest.json").exists()
    else:
        assert last == "Interrupted."
        assert list(tmp_path.iterdir()) == []


def test_load_refuses_a_manifest_edited_to_another_game(table_dir, tmp_path):
    """Issue 10, defect 2 for folders: k edited from 4 to 3 would read the 4x4 gravity table
    as a 4x4 k=3 game (a first-player win) without the manifest's checksum."""
    import shutil

    out = tmp_path / "edited"
    shutil.copytree(table_dir[0], out)
    manifest = out / "manifest.json"
    text = manifest.read_text()
    assert '"k": 4' in text
    manifest.write_text(text.replace('"k": 4', '"k": 3', 1))
    result = invoke("--load", str(out), "--json")
    assert result.exit_code != 0
    assert "manifest.json is damaged (checksum mismatch)" in result.output
    assert "Traceback" not in result.output


# --- win/draw/loss tables (--wdl) -------------------------------------------------------------
WDL_COUNTS = ("reachable", "value", "terminal", "values", "by_ply")


@pytest.fixture(scope="module")
def wdl_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("wdl") / "table"
    summary = solve_json(GAME, "--wdl", "--out", str(out))
    return out, summary


def test_wdl_gives_the_same_counts_by_value_in_a_quarter_of_the_bytes(in_ram, wdl_dir):
    out, on_disk = wdl_dir
    ram = solve_json(GAME, "--wdl")
    sizes = LayerIndex(GAME, True).layer_sizes
    for summary in (ram, on_disk):
        assert summary["engine"] == "layered" and summary["wdl"] is True
        assert {k: summary[k] for k in WDL_COUNTS} == {k: in_ram[k] for k in WDL_COUNTS}
        assert summary["depth"] is None
        assert summary["table_bytes"] == sum(-(-s // 4) for s in sizes) == 28_219
    assert in_ram["wdl"] is False
    assert (
        on_disk["disk_bytes"] > 0
        and json.loads((out / "manifest.json").read_text())["values"] == "wdl"
    )
    free = solve_json("3x4k3", "--wdl")  # a free board: --wdl picks the layered engine
    byte = solve_json("3x4k3", "--engine", "layered")
    assert free["engine"] == "layered" and free["wdl"] is True
    assert {k: free[k] for k in WDL_COUNTS} == {k: byte[k] for k in WDL_COUNTS}


def test_wdl_text_summary_says_no_depths(tmp_path):
    result = invoke(GAME, "--wdl")
    assert result.exit_code == 0, result.output
    assert "symmetry mirror, win/draw/loss" in result.stdout
    assert "empty board  draw, win/draw/loss table: no depths" in result.stdout
    assert "by value  first 36,499 · draw 90,120 · second 34,410" in result.stdout


@pytest.mark.parametrize("moves", ["1", "44", "1234", "444411"])
def test_load_of_a_wdl_table_searches_depth_and_best_moves(wdl_dir, moves):
    out, _ = wdl_dir
    ram = solve_json(GAME, "--moves", moves)["query"]
    loaded = solve_json("--load", str(out), "--moves", moves)["query"]
    assert loaded.pop("depth_searched") and not ram.pop("depth_searched")
    assert loaded == ram
    text = invoke("--load", str(out), "--moves", moves)
    assert text.exit_code == 0, text.output
    best = " ".join(ram["best_moves"])
    searched = "(searched: a win/draw/loss table)"
    assert f"{ram['value']} in {ram['depth']} plies {searched}, best moves {best}" in text.stdout


def test_load_stdin_of_a_wdl_table_prints_no_depth(table_dir, wdl_dir):
    lines = "1\n44\n1234\n444411\n"
    byte = CliRunner().invoke(main, ["solve", "--load", str(table_dir[0]), "--stdin"], lines)
    wdl = CliRunner().invoke(main, ["solve", "--load", str(wdl_dir[0]), "--stdin"], lines)
    assert byte.exit_code == wdl.exit_code == 0, wdl.output
    expected = [" ".join(line.split()[:2]) + " -" for line in byte.stdout.splitlines()]
    assert wdl.stdout.splitlines() == expected
    as_json = CliRunner().invoke(
        main, ["solve", "--load", str(wdl_dir[0]), "--stdin", "--json"], lines
    )
    assert [json.loads(line)["depth"] for line in as_json.stdout.splitlines()] == [None] * 4


# --- live tables (--live) -----------------------------------------------------------------------
@pytest.mark.parametrize("moves", ["", "1", "44", "1234", "444411", "1212121"])
def test_a_live_table_answers_like_the_reachable_one(in_ram, tmp_path, moves):
    out = tmp_path / "live"
    summary = solve_json(GAME, "--live", "--out", str(out))
    assert summary["positions"] == "live" and in_ram["positions"] == "reachable"
    assert (summary["value"], summary["depth"]) == (in_ram["value"], in_ram["depth"])
    assert summary["reachable"] != in_ram["reachable"]  # it counts every position with no line
    assert not (out / "reach").exists()
    if moves:
        ram = solve_json(GAME, "--moves", moves)["query"]
        assert solve_json("--load", str(out), "--moves", moves)["query"] == ram
    text = invoke("--load", str(out))
    assert text.exit_code == 0, text.output
    assert f"live  {summary['reachable']:,} positions with no line, reachable or not" in text.stdout
    assert "finished" not in text.stdout


# --- tables that keep one layer in K (--keep-every) ----------------------------------------------
@pytest.mark.parametrize("moves", ["", "1", "44", "1234", "444411"])
def test_a_table_keeping_every_third_layer_answers_like_the_live_one(tmp_path, moves):
    every = tmp_path / "every"
    kept = tmp_path / "kept"
    full = solve_json(GAME, "--live", "--wdl", "--out", str(every))
    summary = solve_json(GAME, "--keep-every", "3", "--chunk", "4096", "--out", str(kept))
    assert summary["positions"] == "live"  # implied by --keep-every
    assert summary["keep_every"] == 3 and summary["wdl"]
    assert summary["values"] == full["values"] and summary["value"] == full["value"]
    assert sorted(int(p.name) for p in (kept / "value").iterdir()) == list(range(0, 17, 3))
    assert json.loads((kept / "manifest.json").read_text())["chunk"] == 4096
    if moves:
        query = solve_json("--load", str(every), "--moves", moves)["query"]
        assert solve_json("--load", str(kept), "--moves", moves)["query"] == query
    text = invoke("--load", str(kept))
    assert text.exit_code == 0, text.output
    assert "win/draw/loss, one value layer in 3 kept" in text.stdout
