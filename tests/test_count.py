"""Positions per ply: ``fastttt count`` (the forward pass alone, :mod:`fastttt.tables.count`)
and the ``by_ply`` counts of ``fastttt solve --json``, against the known counts
(``fastttt/data/known_counts.txt``: OEIS A212693 for Connect Four) and a plain breadth-first
search (``tests/naive.py``)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from fastttt.cli import main
from fastttt.errors import MemoryBudgetError
from fastttt.games.facts import COUNTS_FILE, known_counts, sources
from fastttt.games.mnk.spec import as_spec
from fastttt.tables.count import check_count_fits, count_positions, plan_count

from naive import positions_by_ply_naive

GiB = 2**30


def _known(game: str):
    return next(k for k in known_counts() if k.game == game)


# --- the known counts ------------------------------------------------------------------
def test_the_counts_file_holds_a212693_with_its_source():
    c4 = _known("connect4")
    assert len(c4.by_ply) == 43 and c4.by_ply[:5] == (1, 7, 49, 238, 1120)
    assert sum(c4.by_ply) == 4_531_985_219_092  # Tromp's total
    assert "A212693" in sources(COUNTS_FILE)[c4.source[0]]
    for line in known_counts():
        assert len(line.by_ply) == line.spec.cells + 1
        assert all(key in sources(COUNTS_FILE) for key in line.source)


@pytest.mark.parametrize("line", known_counts(), ids=lambda k: k.game)
def test_known_counts_of_the_first_plies(line):
    got = count_positions(line.game, line.fast)
    assert [p.reachable for p in got.by_ply] == list(line.by_ply[: line.fast + 1])
    if line.classes is not None:
        assert [p.classes for p in got.by_ply] == list(line.classes[: line.fast + 1])


@pytest.mark.slow
def test_connect4_counts_to_ply_16():
    """About a minute on two cores (ply 16: 259 M slots)."""
    got = count_positions("connect4", 16)
    assert [p.reachable for p in got.by_ply] == list(_known("connect4").by_ply[:17])


# --- against a plain breadth-first search ---------------------------------------------------
@pytest.mark.parametrize("game", ["tictactoe", "4x4k4g", "3x4k3", "4x3k3g", "2x2k2", "3x3k2"])
@pytest.mark.parametrize("symmetry", [True, False], ids=["symmetry", "no-symmetry"])
def test_counts_per_ply_equal_a_plain_bfs(game, symmetry):
    spec = as_spec(game)
    expected = positions_by_ply_naive(spec)
    got = count_positions(spec, symmetry=symmetry)
    assert got.complete and got.plies == spec.cells
    assert [(p.reachable, p.terminal) for p in got.by_ply] == expected
    if not symmetry:
        assert all(p.classes == p.reachable for p in got.by_ply)


def test_totals_equal_the_solvers_reachable():
    """The totals are the known boards' reachable (fastttt/data/known_boards.txt)."""
    assert count_positions("tictactoe").reachable == 5478
    assert count_positions("4x4k4g").reachable == 161_029
    assert count_positions("4x5k4g").reachable == 3_945_711


def test_plies_stop_early_and_beyond_the_board_is_the_whole_board():
    part = count_positions("tictactoe", 4)
    assert part.plies == 4 and not part.complete and part.reachable == 1 + 9 + 72 + 252 + 756
    assert count_positions("tictactoe", 99).plies == 9
    assert count_positions("tictactoe", 0).reachable == 1


def test_plies_after_every_game_ended_count_nothing():
    got = count_positions("2x2k2")  # the first player wins on ply 3, always
    assert [p.reachable for p in got.by_ply] == [1, 4, 12, 12, 0]
    assert got.terminal == {"first": 12, "second": 0, "draw": 0}


def test_parallel_and_small_chunks_give_the_same_counts():
    whole = count_positions("4x5k4g", parallel=False)
    chunked = count_positions("4x5k4g", parallel=True, chunk=4096)
    assert whole.by_ply == chunked.by_ply


# --- memory ------------------------------------------------------------------------------
def test_the_plan_holds_a_bit_a_slot_of_two_layers():
    p = plan_count("connect4", 20)
    assert p.largest_pair == p.sizes[19] + p.sizes[20]
    assert p.largest_pair // 8 < p.memory_bytes < p.largest_pair // 8 + GiB // 2
    assert plan_count("connect4").plies == 42
    assert p.fitting_plies(p.memory_bytes) == 20
    assert p.fitting_plies(plan_count("connect4", 17).memory_bytes) == 17


def test_a_count_that_does_not_fit_is_refused_with_the_estimate():
    with pytest.raises(
        MemoryBudgetError, match=r"counting connect4 to ply 42 needs about .*--plies"
    ):
        check_count_fits(plan_count("connect4"), max_bytes=GiB)
    with pytest.raises(MemoryBudgetError):
        count_positions("connect4", max_bytes=GiB)


# --- the command ----------------------------------------------------------------------------
def test_count_command_prints_a_row_a_ply():
    result = CliRunner().invoke(main, ["count"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:13]}
    assert rows["0"] == ["1", "0", "0", "0", "1"]
    assert rows["9"] == ["78", "62", "0", "16", "15"]
    assert rows["all"] == ["5,478", "626", "316", "16", "765"]
    assert "counted every ply" in result.output


def test_count_command_json():
    result = CliRunner().invoke(main, ["count", "connect4", "--plies", "8", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["command"] == "count" and doc["game"] == "connect4"
    assert doc["plies"] == 8 and doc["complete"] is False and doc["symmetry"] == "mirror"
    assert [p["reachable"] for p in doc["by_ply"]] == list(_known("connect4").by_ply[:9])
    assert doc["reachable"] == sum(_known("connect4").by_ply[:9])
    assert doc["by_ply"][7]["terminal"] == {"first": 728, "second": 0, "draw": 0}
    assert doc["memory_bytes"] > 0 and doc["peak_bytes"] > 0


def test_count_command_refuses_with_the_estimate():
    result = CliRunner().invoke(main, ["count", "connect4", "--max-memory", "1"])
    assert result.exit_code == 1
    assert "needs about" in result.output and "--plies" in result.output
    bad = CliRunner().invoke(main, ["count", "ultimate"])
    assert bad.exit_code == 2 and "not an m,n,k-game" in bad.output


# --- solve --json: counts per ply ----------------------------------------------------------
def _solve_json(*args: str) -> dict:
    result = CliRunner().invoke(main, ["solve", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    "game, engine",
    [("tictactoe", "dense"), ("tictactoe", "layered"), ("4x4k4g", "layered"), ("3x4k3g", "dense")],
)
def test_solve_json_counts_per_ply(game, engine):
    doc = _solve_json(game, "--engine", engine)
    by_ply = doc["by_ply"]
    spec = as_spec(game)
    assert [p["ply"] for p in by_ply] == list(range(spec.cells + 1))
    assert sum(p["reachable"] for p in by_ply) == doc["reachable"]
    for key in ("terminal", "values"):
        for side in ("first", "second", "draw"):
            assert sum(p[key][side] for p in by_ply) == doc[key][side]
    for p in by_ply:
        assert sum(p["values"].values()) == p["reachable"]
    naive = positions_by_ply_naive(spec)
    assert [(p["reachable"], p["terminal"]) for p in by_ply] == naive


def test_dense_and_layered_give_the_same_counts_per_ply():
    dense = _solve_json("3x4k3", "--engine", "dense")["by_ply"]
    layered = _solve_json("3x4k3", "--engine", "layered")["by_ply"]
    assert dense == layered
    assert dense[0]["values"] == {"first": 1, "draw": 0, "second": 0}  # 3x4, k=3: X wins


def test_a_loaded_table_keeps_its_counts_per_ply(tmp_path):
    saved = _solve_json("tictactoe", "--save", str(tmp_path / "t.fttt"))
    loaded = _solve_json("--load", str(tmp_path / "t.fttt"))
    assert loaded["by_ply"] == saved["by_ply"]
    assert loaded["by_ply"][9]["values"] == {"first": 62, "draw": 16, "second": 0}


# --- Ctrl-C ---------------------------------------------------------------------------------
@pytest.mark.slow
def test_count_interrupted_exits_130_with_one_line(tmp_path):
    """Ctrl-C stops between chunks (each a fraction of a second)."""
    from test_interrupts import assert_interrupted, interrupt_cli, warm

    warm(["count", "connect4", "--plies", "11"])  # the parallel kernels compiled and cached
    rc, out, err, seconds = interrupt_cli(["count", "connect4", "--plies", "19"], tmp_path)
    assert_interrupted(rc, err, seconds, tmp_path)
    assert out.splitlines()[2].split()[:2] == ["0", "1"]  # the plies done are printed


def test_verify_counts_the_known_plies(monkeypatch):
    monkeypatch.setattr("fastttt.games.facts.known_boards", lambda: [])
    result = CliRunner().invoke(main, ["verify"])
    assert result.exit_code == 0, result.output
    assert "ok    connect4 (count to ply 9, " in result.output
    assert "ok    tictactoe (count to ply 9, " in result.output
