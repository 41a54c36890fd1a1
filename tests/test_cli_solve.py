"""``fastttt solve`` end to end: the console script, its JSON, its errors and exit codes."""

import json
import os
import stat
import subprocess
import sys

import pytest
from click.testing import CliRunner

from fastttt.cli import main


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "fastttt", *args], capture_output=True, text=True, timeout=300
    )


def test_default_is_tictactoe_json():
    result = run("solve", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["game"] == "tictactoe"
    assert (out["rows"], out["cols"], out["k"], out["gravity"]) == (3, 3, 3, False)
    assert out["schema"] == 1 and out["command"] == "solve" and out["engine"] == "dense"
    assert out["reachable"] == 5478 and out["value"] == "draw" and out["depth"] == 9
    assert out["winner"] == "draw" and out["to_move"] == "first"
    assert out["position"] == ".../.../..."
    assert out["terminal"] == {"first": 626, "second": 316, "draw": 16}
    assert out["values"] == {"first": 2936, "draw": 1068, "second": 1474}
    assert isinstance(out["seconds"], float)


@pytest.mark.parametrize(
    "args, message",
    [
        (["nosuchgame"], "unknown game 'nosuchgame'"),
        (["3x3k4"], "k=4 is larger than the board"),
        (["mnk", "--rows", "0", "--cols", "3", "-k", "2"], "rows must be at least 1"),
        (["mnk", "--rows", "3"], "needs cols, k"),
        (["--rows", "abc"], "'abc' is not a valid integer"),
        (["--position", "XXX..."], "has 6 cells"),
        (["--position", "XXX/..."], "has 2 rows, expected 3"),
        (["3x4k3", "--position", "X../.O./.../..."], "row 1 has 3 cells, expected 4"),
        (["--weak"], "drop --weak (--weak goes with --stdin or --all-moves)"),
        (
            ["8x8g", "--search", "--moves", "9"],
            "--moves: move 1 ('9'): column 9 is off the board (columns 1 to 8)",
        ),
        (["--search", "--position", "XXX/OO./..."], "the game is already over"),
        (["--max-memory", "nan"], "is not a finite number"),
        (["--max-memory", "inf"], "is not in the range"),
        (["--save", ""], "the path is empty"),
        (["4x4k4g", "--out", ""], "the path is empty"),
        (["3x3k-1"], "unknown game"),
        (["3x-1k3"], "unknown game"),
        (["--", "-1x3k3"], "unknown game"),
        (["tictactoe", "-k", "0"], "k must be at least 1"),
        (["--max-memory", "-1"], "is not in the range"),
        (
            ["4x4k3g", "--moves", "9"],
            "--moves: move 1 ('9'): column 9 is off the board (columns 1 to 4)",
        ),
        (
            ["connect4", "--search", "--moves", "4,4,10"],
            "--moves: move 3 ('10'): column 10 is off the board (columns 1 to 7)",
        ),
        (["--moves", "2,2 2,2"], "--moves: move 2 ('2,2'): row 2, column 2 is taken"),
        (["--moves", "0,4"], "--moves: move 1 ('0,4'): row 0 is off the board (rows 1 to 3)"),
        (["--moves", "5"], "--moves: move 1 ('5'): '5' is not a move: type row,col such as 2,3"),
        (
            ["ultimate", "--moves", "5,5 0,1"],
            "--moves: move 2 ('0,1'): '0,1': board and cell go from 1 to 9",
        ),
        (
            ["--moves", "1,1 1,2 2,1 2,2 3,1 3,3"],
            "--moves: move 6 ('3,3'): the game is already over",
        ),
        (["ultimate", "--search"], "ultimate is solved by search from --moves: drop --search"),
        (["--load", "t.fttt", "--search"], "--search uses no table: drop --load"),
    ],
)
def test_bad_arguments_are_one_line_exit_2(args, message):
    result = run("solve", *args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0]
    assert "Traceback" not in result.stderr


def test_too_big_is_refused_with_the_estimate():
    result = run("solve", "connect4")  # win/draw/loss by default past 2**33 slots
    assert result.returncode == 1
    assert "needs about 34.3 TiB" in result.stderr and "--search" in result.stderr
    with_depths = run("solve", "connect4", "--depth")
    assert with_depths.returncode == 1 and "needs about 37.2 TiB" in with_depths.stderr
    limited = run("solve", "4x4k4", "--max-memory", "0.01")
    assert limited.returncode == 1 and "needs about 252.0 MiB" in limited.stderr
    assert "1,377,557 slots" in limited.stderr


def test_summary_save_load_and_query(tmp_path):
    runner = CliRunner()
    path = tmp_path / "g.fttt"
    first = runner.invoke(main, ["solve", "4x4k3g", "--save", str(path)])
    assert first.exit_code == 0, first.output
    assert "empty board" in first.output and "saved" in first.output
    loaded = runner.invoke(main, ["solve", "--load", str(path), "--json", "--moves", "1 1"])
    assert loaded.exit_code == 0, loaded.output
    out = json.loads(loaded.output)
    assert out["game"] == "mnk(rows=4,cols=4,k=3,gravity)"
    assert out["query"]["position"] == "..../..../O.../X..."
    assert out["query"]["moves"] == ["1", "1"] and out["query"]["to_move"] == "first"
    assert out["query"]["best_moves"] and set(out["query"]["best_moves"]) <= {"1", "2", "3", "4"}


def test_position_query_text():
    result = CliRunner().invoke(main, ["solve", "--position", "XX./OO./..."])
    assert result.exit_code == 0
    assert "(first player to move): win in 1 plies, best moves 1,3" in result.output


def test_ultimate_exact_solve_reports_a_verdict():
    result = CliRunner().invoke(
        main, ["solve", "ultimate", "--moves", "5,5 5,1 1,5", "--json", "--max-nodes", "20000"]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["moves"] == ["5,5", "5,1", "1,5"] and out["nodes"] <= 20001
    assert out["verdict"] == "estimate" or out["verdict"].startswith(("win", "loss", "draw"))
    # 1,5 (the centre cell of board 1) sends O to board 5
    (best,) = out["best_moves"]
    assert best.startswith("5,") and out["to_move"] == "second"


def test_ultimate_illegal_moves_are_one_line():
    result = run("solve", "ultimate", "--moves", "5,5 1,5")
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "Error: --moves: move 2 ('1,5'): 1,5: the move must be in board 5"
    )


def test_stdin_filter_answers_each_line_and_reports_bad_ones():
    result = subprocess.run(
        [sys.executable, "-m", "fastttt", "solve", "connect4", "--stdin"],
        input="4455\n8\n44455554221\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.stdout.splitlines() == ["4455 18", "", "44455554221 -15"]
    assert result.stderr.startswith("line 2:")
    assert result.returncode == 1


def test_search_gives_the_empty_board_score():
    result = CliRunner().invoke(main, ["solve", "4x4k3", "--search", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["value"] == "win" and out["winner"] == "first"  # 4x4 k=3: a first-player win


def test_gravity_moves_accept_commas_for_wide_boards():
    from fastttt.cli.moves import parse_moves
    from fastttt.games.registry import load_game

    assert parse_moves(load_game("2x10k3g"), "1,10")[1] == [0, 9]
    assert parse_moves(load_game("2x10k3g"), "1 10")[1] == [0, 9]
    assert parse_moves(load_game("connect4"), "4455")[1] == [3, 3, 4, 4]
    assert parse_moves(load_game("connect4"), "4 4,5 5")[1] == [3, 3, 4, 4]


# --- issue 10: table files through the CLI -----------------------------------------------
def _solve_must_not_run(monkeypatch):
    """Any solve past its memory check fails the test (dense: the plan; layered: the store)."""
    from fastttt.tables import dense as solver
    from fastttt.tables import layered

    def refuse(*args, **kwargs):
        raise AssertionError("the solve started")

    monkeypatch.setattr(solver, "_plan", refuse)
    monkeypatch.setattr(layered, "open_store", refuse)


def test_explicit_game_is_checked_against_the_loaded_table(tmp_path):
    runner = CliRunner()
    path = tmp_path / "g.fttt"
    assert runner.invoke(main, ["solve", "3x4k3", "--save", str(path)]).exit_code == 0
    for game in (["tictactoe"], ["3x4k2"], ["mnk", "--rows", "3", "--cols", "4", "-k", "2"]):
        result = runner.invoke(main, ["solve", *game, "--load", str(path)])
        assert result.exit_code == 1, result.output
        assert "holds mnk(rows=3,cols=4,k=3), expected" in result.output
    for game in ([], ["3x4k3"]):
        result = runner.invoke(main, ["solve", *game, "--load", str(path), "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["game"] == "mnk(rows=3,cols=4,k=3)"


def test_save_checks_the_folder_before_solving(tmp_path, monkeypatch):
    _solve_must_not_run(monkeypatch)
    target = tmp_path / "missing" / "t.fttt"
    result = CliRunner().invoke(main, ["solve", "4x4k3", "--save", str(target)])
    assert result.exit_code == 1 and not isinstance(result.exception, AssertionError)
    assert str(target.parent) in result.output and ".tmp" not in result.output


def test_save_refuses_a_fifo_and_a_file_that_is_not_a_table(tmp_path, monkeypatch):
    runner = CliRunner()
    notes = tmp_path / "notes.txt"
    notes.write_text("keep me\n")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with monkeypatch.context() as m:
        _solve_must_not_run(m)
        refused = runner.invoke(main, ["solve", "--save", str(notes)])
        assert refused.exit_code == 1 and "not a fastttt table" in refused.output
        assert "--force" in refused.output and notes.read_text() == "keep me\n"
        for args in (
            ["--save", str(fifo)],
            ["--save", str(fifo), "--force"],
            ["--save", str(tmp_path), "--force"],
        ):
            result = runner.invoke(main, ["solve", *args])
            assert result.exit_code in (1, 2), result.output
            assert "FIFO" in result.output or "directory" in result.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    forced = runner.invoke(main, ["solve", "--save", str(notes), "--force"])
    assert forced.exit_code == 0, forced.output
    again = runner.invoke(main, ["solve", "--save", str(notes)])  # now a table: overwritten
    assert again.exit_code == 0, again.output
    assert runner.invoke(main, ["solve", "--force"]).exit_code == 2


def test_force_has_its_help_text():
    result = CliRunner().invoke(main, ["solve", "--help"])
    assert "overwrite FILE even if it is not a fastttt table" in " ".join(result.output.split())


def test_load_of_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "fastttt", "solve", "--load", str(fifo)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("solve --load FIFO blocked")
    assert result.returncode == 1 and "is a FIFO" in result.stderr
    assert "Traceback" not in result.stderr


# --- issue 10: sizes in exact integers ----------------------------------------------------
def test_slot_counts_and_estimates_are_exact_up_to_64_cells():
    from math import comb

    from fastttt import mnk
    from fastttt.play.players import uses_table
    from fastttt.tables.dense import estimate_memory, fits_in_memory
    from fastttt.tables.layout import slot_count

    for rows, cols in ((6, 7), (7, 7), (6, 9), (7, 8), (8, 8)):
        n = rows * cols
        exact = sum(
            comb(n, x) * comb(n - x, o) for x in range(n + 1) for o in (x - 1, x) if 0 <= o <= n - x
        )
        spec = mnk(rows, cols, 4)
        assert slot_count(spec) == exact
        assert estimate_memory(spec) > exact > 2**63
        assert not fits_in_memory(spec) and not fits_in_memory(spec, 2**62)
        assert not uses_table(spec)  # play and match search instead of building a table


@pytest.mark.parametrize("game", ["6x9k4", "8x8k5", "7x7k5"])
@pytest.mark.parametrize(
    "limit",
    [[], ["--max-memory", "0.001"], ["--max-memory", "1000000"]],
    ids=["default", "tiny", "above-ram"],
)
def test_boards_too_big_are_refused_in_one_line(game, limit):
    result = run("solve", game, *limit)
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "needs about" in lines[0]
    assert "--search" in lines[0] or "--out DIR" in lines[0]
    assert "Traceback" not in result.stderr and "-" not in lines[0].split("needs about")[1][:3]


def test_max_memory_above_physical_ram_is_capped(monkeypatch):
    """--max-memory 1000 on a (pretend) 1 GiB machine: refused, no solve, no MemoryError."""
    from fastttt.cli import memory
    from fastttt.tables import dense as solver

    _solve_must_not_run(monkeypatch)
    monkeypatch.setattr(memory, "physical_memory", lambda: 2**30)
    monkeypatch.setattr(solver, "available_memory", lambda: 2**30)
    result = CliRunner().invoke(main, ["solve", "5x5k4", "--max-memory", "1000"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert "needs about" in result.output and "--max-memory 1000 GiB is more than" in result.output


def test_a_failed_allocation_is_one_line(monkeypatch):
    from fastttt.cli import solve_table as cli_solve

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(cli_solve, "_run_solve", no_memory)
    result = CliRunner().invoke(main, ["solve", "4x4k3"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert result.output.startswith("Error: out of memory") and "--search" in result.output
