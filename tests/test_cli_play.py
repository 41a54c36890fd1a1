"""``fastttt play`` and ``fastttt match`` driven through click with scripted standard input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from fastttt.cli import main


def invoke(args, input=None):
    return CliRunner().invoke(main, args, input=input)


def test_play_a_whole_game_from_stdin():
    res = invoke(["play", "--x", "human", "--o", "human"], "1,1\n2,1\n1,2\n2,2\n1,3\n")
    assert res.exit_code == 0, res.output
    assert "tictactoe: 3 rows x 3 cols, 3 in a row. X = human, O = human" in res.output
    assert "1 | X | X | X |" in res.output
    assert res.output.rstrip().endswith("X (human) wins in 5 plies.")
    assert "\x1b" not in res.output  # no colour when not a terminal


def test_play_every_bad_input_then_end_of_input():
    res = invoke(["play", "--x", "human", "--o", "human"], "x\n5,1\n1,7\n2,2\n2,2\n")
    assert res.exit_code == 0
    out = res.output
    assert "Invalid input: 'x' is not a move" in out
    assert "Off the board: row 5 is off the board (rows 1 to 3)" in out
    assert "Off the board: column 7 is off the board (columns 1 to 3)" in out
    assert "Illegal move: row 2, column 2 is taken" in out
    assert out.rstrip().endswith("End of input: game abandoned.")
    assert "Traceback" not in out


def test_play_connect4_columns_against_an_engine():
    res = invoke(["play", "connect4", "--o", "random", "--seed", "3"], "4\n0\n4\nq\n")
    assert res.exit_code == 0
    assert "connect4: 6 rows x 7 cols, 4 in a row, gravity." in res.output
    assert "Off the board: column 0 is off the board (columns 1 to 7)" in res.output
    assert res.output.count("O (random) plays ") == 2
    assert res.output.rstrip().endswith("Game abandoned.")


def test_play_with_hints_and_seed_is_reproducible():
    args = ["play", "4x4k3", "--o", "perfect", "--hints", "--seed", "7"]
    a, b = invoke(args, "2,2\n"), invoke(args, "2,2\n")
    assert a.exit_code == 0 and a.output == b.output
    assert "Hints (perfect play; plies to the end, this move included):" in a.output
    assert a.output.count("  * ") >= 1


def test_play_engines_only():
    res = invoke(["play", "--x", "perfect", "--o", "perfect", "--seed", "1"])
    assert res.exit_code == 0
    assert res.output.rstrip().endswith("Draw after 9 plies.")


def test_play_game_size_options():
    res = invoke(
        [
            "play",
            "mnk",
            "--rows",
            "3",
            "--cols",
            "4",
            "-k",
            "3",
            "--x",
            "random",
            "--o",
            "random",
            "--seed",
            "2",
        ]
    )
    assert res.exit_code == 0
    assert "3 rows x 4 cols, 3 in a row" in res.output


@pytest.mark.parametrize(
    "args, words",
    [
        (["play", "--x", "robot"], "unknown player 'robot'"),
        (["play", "--o", "heuristic"], "needs a search depth"),
        (["play", "nogame"], "unknown game 'nogame'"),
        (["play", "3x3k5"], "k=5 is larger than the board"),
        (["match", "--games", "0"], "0"),
        (["match", "--x", "human"], "between engines"),
        (["match", "--o", "alphabeta:zero"], "needs a search depth"),
    ],
)
def test_bad_options_exit_2_with_one_line(args, words):
    res = invoke(args)
    assert res.exit_code == 2, res.output
    assert words in res.output
    assert "Traceback" not in res.output


def test_match_table():
    res = invoke(
        ["match", "--x", "perfect", "--o", "random", "--games", "20", "--seed", "4", "--swap"]
    )
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == "tictactoe: 20 games, seed 4"
    assert lines[1].split()[:3] == ["games", "A", "wins"]
    assert lines[3].startswith("A=X perfect vs B=O random")
    assert lines[4].startswith("B=X random vs A=O perfect")
    total = lines[5].split()
    assert total[:2] == ["total", "20"] and total[4] == "0"  # perfect never loses


def test_match_json_is_reproducible():
    args = [
        "match",
        "4x4k4g",
        "--x",
        "perfect",
        "--o",
        "heuristic:1",
        "-n",
        "6",
        "--seed",
        "5",
        "--swap",
        "--json",
    ]
    a, b = invoke(args), invoke(args)
    assert a.exit_code == 0, a.output
    data = json.loads(a.stdout)
    assert data == json.loads(b.stdout)
    assert "Solving mnk(rows=4,cols=4,k=4,gravity) for perfect play..." in a.stderr
    assert data["game"] == "mnk(rows=4,cols=4,k=4,gravity)" and data["games"] == 6
    assert data["a"] == "perfect" and data["b"] == "heuristic:1"
    assert data["total"]["losses"] == 0
    assert data["a_as_x"]["games"] == data["a_as_o"]["games"] == 3


def test_ultimate_through_the_same_commands():
    pytest.importorskip("fastttt.ultimate")
    res = invoke(["play", "ultimate", "--o", "random", "--seed", "2"], "5,5\nzz\n")
    assert res.exit_code == 0, res.output
    assert "O (random) plays " in res.output
    assert "Invalid input: 'zz' is not a move" in res.output
    assert res.output.rstrip().endswith("End of input: game abandoned.")
    res = invoke(
        ["match", "ultimate", "--x", "random", "--o", "random", "-n", "4", "--seed", "1", "--json"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["game"] == "ultimate" and data["games"] == 4
    assert all(17 <= n <= 81 for n in data["lengths"])  # a frame line needs 9 X stones
    res = invoke(["play", "ultimate", "--o", "perfect"])
    assert res.exit_code == 2 and "unknown Ultimate player 'perfect'" in res.output
    res = invoke(["play", "ultimate", "--x", "random", "--hints"])
    assert res.exit_code == 2 and "hints are not available on ultimate" in res.output


@pytest.mark.parametrize("game", ["8x8k5", "9x9k5", "19x19k5g"])
def test_perfect_play_over_64_bits_is_exact_search_with_a_warning(game):
    """Exact search takes boards over 64 bits (fastttt.search.alphabeta.WideSearcher), so perfect
    play and hints are offered there, with the warning that a move may take hours (they were
    refused before, issue 10, item 3). A game is not started: it would search for hours."""
    from fastttt.games.registry import load_game
    from fastttt.play.players import make_player, perfect_play_cost, perfect_play_reach

    spec = load_game(game)
    assert perfect_play_reach(spec) is None
    assert "minutes to hours" in perfect_play_cost(spec)
    assert make_player("perfect", spec).name == "perfect"
