"""``fastttt solve`` end to end: the console script, its JSON, its errors and exit codes."""

import json
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
    assert out["reachable"] == 5478 and out["value"] == "draw" and out["depth"] == 9
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
        (["--position", "XXX/..."], "has 6 cells"),
        (["--weak"], "go with --stdin"),
        (["8x8g", "--search"], "the search needs columns x (rows + 1) <= 64 bits"),
        (["--search", "--position", "XXX/OO./..."], "the game is already over"),
        (["--max-memory", "nan"], "must be a number of GiB"),
        (["--max-memory", "-1"], "is not in the range"),
        (["4x4k3g", "--moves", "9"], "move 1: column 9 is off the board (1..4)"),
        (["ultimate", "--search"], "not for ultimate"),
        (["--load", "t.fttt", "--search"], "--search uses no table"),
    ],
)
def test_bad_arguments_are_one_line_exit_2(args, message):
    result = run("solve", *args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0]
    assert "Traceback" not in result.stderr


def test_too_big_is_refused_with_the_estimate():
    result = run("solve", "connect4")
    assert result.returncode == 1
    assert "needs about 37.2 TiB" in result.stderr and "--out DIR" in result.stderr
    limited = run("solve", "4x4k4", "--max-memory", "0.01")
    assert limited.returncode == 1 and "needs about 252.0 MiB" in limited.stderr
    assert "1,377,557 slots" in limited.stderr


def test_summary_save_load_and_query(tmp_path):
    runner = CliRunner()
    path = tmp_path / "g.fttt"
    first = runner.invoke(main, ["solve", "4x4k3g", "--save", str(path)])
    assert first.exit_code == 0, first.output
    assert "empty board" in first.output and "saved" in first.output
    loaded = runner.invoke(main, ["solve", "--load", str(path), "--json", "--moves", "11"])
    assert loaded.exit_code == 0, loaded.output
    out = json.loads(loaded.output)
    assert out["game"] == "mnk(rows=4,cols=4,k=3,gravity)"
    assert out["query"]["position"] == "..../..../O.../X..."
    assert all(1 <= m <= 4 for m in out["query"]["best_moves"])


def test_position_query_text():
    result = CliRunner().invoke(main, ["solve", "--position", "XX./OO./..."])
    assert result.exit_code == 0
    assert "first to move): first in 1 plies, best moves [2]" in result.output


def test_ultimate_exact_solve_reports_a_verdict():
    result = CliRunner().invoke(
        main, ["solve", "ultimate", "--moves", "40,36,4", "--json", "--max-nodes", "20000"]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["moves"] == [40, 36, 4] and out["nodes"] <= 20001
    assert out["verdict"] == "estimate" or out["verdict"].startswith(("win", "loss", "draw"))
    assert 36 <= out["best_move"] <= 44  # move 4 (cell 4 of board 0) sends O to board 4


def test_ultimate_illegal_moves_are_one_line():
    result = run("solve", "ultimate", "--moves", "40,4")
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "Error: --moves: move 2: move 4 (board 0, cell 4): the move must be in board 4"
    )


def test_stdin_filter_answers_each_line_and_reports_bad_ones():
    result = subprocess.run(
        [sys.executable, "-m", "fastttt", "solve", "connect4", "--stdin"],
        input="4455\n8\n44455554221\n", capture_output=True, text=True, timeout=300,
    )
    assert result.stdout.splitlines() == ["4455 18", "", "44455554221 -15"]
    assert result.stderr.startswith("line 2:")
    assert result.returncode == 1


def test_search_gives_the_empty_board_score():
    result = CliRunner().invoke(main, ["solve", "4x4k3", "--search", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["score"] > 0  # 4x4 k=3 is a first-player win


def test_gravity_moves_accept_commas_for_wide_boards():
    from fastttt.cli.solve import _parse_moves
    from fastttt.games import load_game

    assert _parse_moves(load_game("2x10k3g"), "1,10") == [0, 9]
    assert _parse_moves(load_game("connect4"), "4455") == [3, 3, 4, 4]
