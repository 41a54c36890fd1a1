"""Probes of saved tables: ``fastttt.open_table`` (a dense ``.fttt`` file or a layered folder),
the probe/get pairs, ``probe_many``, and ``solve --load PATH --stdin``.

Every answer is compared with the dense solve in RAM (``Solution.lookup``, itself checked
against the naive solver in test_solver.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import fastttt
from fastttt import InvalidPositionError, Position, TableFileError
from fastttt.cli import main
from fastttt.tables.dense import Solution, solve
from fastttt.tables.dense_store import save
from fastttt.tables.layered import solve_layered
from fastttt.tables.probe import LayeredSolution
from fastttt.tables.queries import MISSING_DEPTH

GAMES = ["3x3k3", "4x4k3g"]


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """game -> (dense solve in RAM, {kind: path of a saved table})."""
    root = tmp_path_factory.mktemp("tables")
    out = {}
    for game in GAMES:
        dense = solve(game)
        file = save(dense, root / f"{game}.fttt")
        folder = root / f"{game}-layered"
        solve_layered(game, out=folder, chunk=64)  # many chunks: more than the cache holds
        out[game] = (dense, {"dense": file, "layered": folder})
    return out


@pytest.fixture(params=[(g, k) for g in GAMES for k in ("dense", "layered")], ids=str)
def case(request, tables):
    """(dense solve, the same table opened from disk)."""
    game, kind = request.param
    dense, paths = tables[game]
    return dense, fastttt.open_table(paths[kind])


def test_open_table_opens_a_file_or_a_folder(tables):
    dense, paths = tables["3x3k3"]
    assert isinstance(fastttt.open_table(paths["dense"]), Solution)
    assert isinstance(fastttt.open_table(paths["layered"], "tictactoe"), LayeredSolution)
    assert "open_table" in fastttt.__all__
    for path in paths.values():
        with pytest.raises(
            TableFileError, match=r"holds tictactoe, expected mnk\(rows=4,cols=4,k=3\)"
        ):
            fastttt.open_table(path, "4x4k3")
    with pytest.raises(TableFileError, match="no such file"):
        fastttt.open_table(paths["dense"].parent / "missing.fttt")


def test_probe_many_equals_the_dense_solve(case):
    dense, table = case
    codes = dense.reachable_codes()
    want = dense.lookup(codes)
    for positions in (codes, codes.tolist()):
        values, depths = table.probe_many(positions)
        assert values.dtype == np.int8 and depths.dtype == np.int8
        assert np.array_equal(values, want[0]) and np.array_equal(depths, want[1])
    assert np.array_equal(table.lookup(codes)[1], want[1])


def test_probe_many_equals_a_loop_of_single_probes(case):
    dense, table = case
    codes = dense.reachable_codes()[:: max(1, dense.reachable // 300)]
    positions = [Position.from_code(dense.spec, int(c)) for c in codes]
    values, depths = table.probe_many(positions)
    assert values.tolist() == [table.probe_value(p) for p in positions]
    assert depths.tolist() == [table.probe_depth(p) for p in positions]
    assert values.tolist() == [dense.value(p) for p in positions]
    assert depths.tolist() == [dense.depth(p) for p in positions]
    assert [table.get_value(p) for p in positions] == values.tolist()
    assert [table.get_depth(p) for p in positions] == depths.tolist()
    # every form of a position gives the same answer: Position, text, moves, code
    mixed = [positions[-1], str(positions[-1]), []]
    assert table.probe_many(mixed)[1].tolist() == [depths[-1], depths[-1], dense.depth([])]
    assert table.probe_many([int(codes[-1])])[1].tolist() == [depths[-1]]
    with pytest.raises(InvalidPositionError, match="codes go to probe_many"):
        table.probe_many([[], int(codes[-1])])  # a code among moves: read as one position


def test_probe_moves_are_the_childrens_answers(case):
    dense, table = case
    pos = Position.empty(dense.spec).play(1)
    moves = table.probe_moves(pos)
    assert moves == dense.move_outcomes(pos)
    assert set(moves) == set(pos.legal_moves())
    for move, (value, depth) in moves.items():
        child = pos.play(move)
        assert (value, depth) == (dense.value(child), dense.depth(child))
    # a finished position has no move
    over = "XXX/OO./..." if not dense.spec.gravity else "..../..../OO../XXX."
    assert table.probe_moves(over) == {}


def test_tictactoe_answers():
    """Known values of tic-tac-toe: a draw in 9 plies, a corner reply to the centre draws,
    an edge reply loses."""
    table = solve("tictactoe")
    assert (table.probe_value([]), table.probe_depth([])) == (0, 9)
    assert table.probe_value([4, 0]) == 0
    assert table.probe_value([4, 1]) == 1  # O's edge reply to the centre loses
    values, depths = table.probe_many([[], [4, 1], "XXX/OO./..."])
    assert values.tolist() == [0, 1, 1] and depths.tolist()[::2] == [9, 0]


def test_a_position_not_in_the_table(case):
    """Not reachable (play stops at the first line): probe_* raise, get_* give the default,
    get_many depth -1."""
    dense, table = case
    bad = "XXX/OOO/..." if not dense.spec.gravity else "..../..../OOO./XXX."
    with pytest.raises(InvalidPositionError, match="not reachable"):
        table.probe_value(bad)
    with pytest.raises(InvalidPositionError, match="not reachable"):
        table.probe_depth(bad)
    with pytest.raises(InvalidPositionError, match="not reachable"):
        table.probe_moves(bad)
    assert table.get_value(bad) is None and table.get_depth(bad, -1) == -1
    with pytest.raises(InvalidPositionError, match=r"position 1 \(.*\) is not a reachable"):
        table.probe_many([[], bad])
    values, depths = table.get_many([[], bad])
    assert depths.tolist() == [dense.depth([]), MISSING_DEPTH] and values[1] == 0
    code = Position.from_text(dense.spec, bad).code
    with pytest.raises(InvalidPositionError, match=f"code {code} \\(index 1\\)"):
        table.probe_many(np.array([0, code]))
    # stone counts no game reaches: O first, two X ahead
    assert table.get_many([2, 1 + 3])[1].tolist() == [MISSING_DEPTH, MISSING_DEPTH]


def test_what_is_not_a_position_of_the_game_raises(case):
    """Bad text, illegal moves, another game's position, codes off the board: every form
    raises, get_* too, and probe_many names the item."""
    dense, table = case
    spec = dense.spec
    for bad in ("X..", [0, 0] if not spec.gravity else [0] * 9, 5, None):
        with pytest.raises(InvalidPositionError):
            table.probe_value(bad)
        with pytest.raises(InvalidPositionError):
            table.get_value(bad)
    with pytest.raises(
        InvalidPositionError, match=r"position of mnk\(rows=5,cols=5,k=4\), table of"
    ):
        table.probe_value(Position.empty("5x5k4"))
    with pytest.raises(InvalidPositionError, match="^position 1: "):
        table.get_many([[], "X.."])
    with pytest.raises(InvalidPositionError, match=f"code {3**spec.cells} \\(index 1\\)"):
        table.probe_many([0, 3**spec.cells])
    with pytest.raises(InvalidPositionError, match="1-D array of integers"):
        table.probe_many(np.array([[0, 1]]))
    with pytest.raises(InvalidPositionError, match="list or an array"):
        table.probe_many("X........")
    with pytest.raises(InvalidPositionError, match="a position is"):
        table.probe_value(1.5)
    assert [a.tolist() for a in table.probe_many([])] == [[], []]


# --- solve --load PATH --stdin ----------------------------------------------------------------
def run(args, stdin):
    return CliRunner().invoke(main, ["solve", *map(str, args)], input=stdin)


@pytest.mark.parametrize("kind", ["dense", "layered"])
def test_cli_answers_each_line_from_the_table(tables, kind):
    dense, paths = tables["3x3k3"]
    lines = ["2,2 1,1", "", "X../.O./...", "1,1 2,2 1,2 2,1 1,3", "3,3\t1,1"]
    result = run(["--load", paths[kind], "--stdin"], "\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    expected = []
    for pos in (
        Position.from_moves(dense.spec, [4, 0]),
        Position.empty(dense.spec),
        Position.from_text(dense.spec, "X../.O./..."),
        Position.from_moves(dense.spec, [0, 4, 1, 3, 2]),
        Position.from_moves(dense.spec, [8, 0]),
    ):
        expected.append(f"{pos} {dense.value(pos)} {dense.depth(pos)}")
    assert result.stdout.splitlines() == expected
    assert expected[0] == "O../.X./... 0 7" and expected[3] == "XXX/OO./... 1 0"


def test_cli_gravity_columns(tables):
    dense, paths = tables["4x4k3g"]
    result = run(["4x4k3g", "--load", paths["layered"], "--stdin"], "2233\r\n1 2 1\n")
    assert result.exit_code == 0, result.output
    for line, moves in zip(result.stdout.splitlines(), ([1, 1, 2, 2], [0, 1, 0]), strict=True):
        pos = Position.from_moves(dense.spec, moves)
        assert line == f"{pos} {dense.value(pos)} {dense.depth(pos)}"


@pytest.mark.parametrize("kind", ["dense", "layered"])
def test_cli_refuses_bad_lines_one_by_one(tables, kind):
    """A bad line answers an empty line and ``line N: reason`` on stderr; the others are
    answered; exit 1."""
    _, paths = tables["3x3k3"]
    stdin = "2,2\n2,2 2,2\nXXX/OOO/...\n5\n4,4\nX..\n\n"
    result = run(["--load", paths[kind], "--stdin"], stdin)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [".../.X./... 0 8", "", "", "", "", "", ".../.../... 0 9"]
    assert result.stderr.splitlines() == [
        "line 2: move 2 ('2,2'): row 2, column 2 is taken",
        "line 3: position XXX/OOO/... is not reachable from the empty board of tictactoe "
        "(a game stops at the first line)",
        "line 4: move 1 ('5'): '5' is not a move: type row,col such as 2,3",
        "line 5: move 1 ('4,4'): row 4 is off the board (rows 1 to 3)",
        "line 6: position text 'X..' has 3 cells, the 3 rows x 3 cols, 3 in a row board has 9",
    ]
    assert "Traceback" not in result.output


def test_cli_json_lines(tables):
    _, paths = tables["3x3k3"]
    result = run(["--load", paths["layered"], "--stdin", "--json"], "2,2 1,2\n9,9\n")
    assert result.exit_code == 1
    first, second = map(json.loads, result.stdout.splitlines())
    assert first == {
        "schema": 1,
        "command": "solve",
        "game": "tictactoe",
        "engine": "probe",
        "input_line": 1,
        "position": ".O./.X./...",
        "to_move": "first",
        "value": "win",
        "winner": "first",
        "depth": 5,
    }
    assert second["input_line"] == 2 and second["position"] is None and second["value"] is None
    assert second["error"] == "move 1 ('9,9'): row 9 is off the board (rows 1 to 3)"
    assert result.stderr == f"line 2: {second['error']}\n"


def test_cli_refuses_another_game_and_other_modes_in_one_line(tables):
    _, paths = tables["3x3k3"]
    result = run(["4x4k3", "--load", paths["dense"], "--stdin"], "\n")
    assert result.exit_code == 1 and result.stdout == ""
    assert (
        result.stderr
        == f"Error: {paths['dense']}: holds tictactoe, expected mnk(rows=4,cols=4,k=3)\n"
    )
    result = run(["--load", paths["dense"].parent / "nope", "--stdin"], "\n")
    assert result.exit_code == 1 and result.stderr.startswith("Error: ")
    for extra, words in (
        (["--all-moves"], "--load --stdin looks up one position per line in a table: drop"),
        (["--moves", "2,2"], "drop --moves"),
        (["--search"], "--search and --load --stdin are separate modes"),
    ):
        result = run(["--load", paths["dense"], "--stdin", *extra], "\n")
        assert result.exit_code == 2 and words in result.stderr, (extra, result.stderr)
        assert [line for line in result.stderr.splitlines() if "Error" in line] == [
            next(line for line in result.stderr.splitlines() if words in line)
        ]


# --- the filter's fast path: move lists played in Numba, texts written at once ---------------
def random_lines(game: str, count: int, seed: int) -> list[str]:
    """Move lists of random play, some past the end of the game, in the plain spellings and
    in others (junk, numbers out of range, odd separators)."""
    spec = fastttt.load_game(game)
    rng = np.random.default_rng(seed)
    junk = ["0", "x", ",", "1,,2", "02", "10000", "\x0b", "1, 2", "2,2,2", "\u00a0", "-1"]
    lines = []
    for _ in range(count):
        pos, words = spec.initial(), []
        for _ in range(rng.integers(0, spec.cells + 3)):
            moves = pos.legal_moves() or list(range(spec.cols if spec.gravity else spec.cells))
            move = int(rng.choice(moves))  # after the end: any cell or column
            words.append(spec.format_move(pos, move))
            if pos.legal_moves():
                pos = pos.play(move)
        if rng.random() < 0.2 and words:
            words[rng.integers(len(words))] = str(rng.choice(junk))
        gap = str(rng.choice([" ", "\t", "  ", " \t"]))
        if spec.gravity and rng.random() < 0.5:
            gap = str(rng.choice(["", ",", ", "]))
        text = gap.join(words)
        if rng.random() < 0.3:
            text = " " + text + "\t"
        lines.append(text + str(rng.choice(["\n", "\r\n", ""])))
    return lines


@pytest.mark.parametrize("game", ["3x3k3", "4x4k3g", "3x4k3", "2x11k3g"])
def test_play_lines_agrees_with_parse_moves(game):
    """Where the kernel reads a line, the parser reads the same position; where the parser
    refuses one, the kernel leaves it to the parser; plain move lists are the kernel's."""
    from fastttt.filter import Chunk
    from fastttt.games.movetext import MoveListError, move_list_text, parse_moves, play_lines

    spec = fastttt.load_game(game)
    lines = random_lines(game, 3000, seed=len(game))
    firsts, seconds, ok = play_lines(spec, Chunk.from_lines(lines, 1))
    accepted = 0
    for line, first, second, fast in zip(lines, firsts, seconds, ok, strict=True):
        try:
            pos = parse_moves(spec, line.removesuffix("\n").removesuffix("\r"))[0]
        except MoveListError:
            assert not fast, line
            continue
        accepted += 1
        if fast:
            assert (int(first), int(second)) == (pos.first, pos.second), line
    assert accepted > 1000 and ok.sum() > 0.5 * accepted
    plain = []
    for line in lines:
        try:
            state, moves = parse_moves(spec, line.removesuffix("\n").removesuffix("\r"))
        except MoveListError:
            continue
        plain.append(move_list_text(spec, spec.initial(), moves))
        if spec.gravity and spec.cols <= 9:
            plain.append("".join(str(m + 1) for m in moves))
    firsts, seconds, ok = play_lines(spec, Chunk.from_lines(plain, 1))
    assert ok.all()


@pytest.mark.parametrize("game", ["3x3k3", "4x5k4g", "1x7k3", "6x2k2"])
def test_texts_of_bitboards_are_the_positions_texts(game):
    from fastttt.codes import texts_of_bitboards

    spec = fastttt.load_game(game)
    rng = np.random.default_rng(0)
    positions = []
    for _ in range(200):
        pos = spec.initial()
        for _ in range(rng.integers(0, spec.cells + 1)):
            if pos.is_over():
                break
            pos = pos.play(int(rng.choice(pos.legal_moves())))
        positions.append(pos)
    firsts = np.array([p.first for p in positions], dtype=np.uint64)
    seconds = np.array([p.second for p in positions], dtype=np.uint64)
    assert texts_of_bitboards(firsts, seconds, spec.rows, spec.cols) == list(map(str, positions))
    assert texts_of_bitboards(firsts[:0], seconds[:0], spec.rows, spec.cols) == []


def test_play_lines_runs_as_plain_python():
    """NUMBA_DISABLE_JIT=1 gives the compiled kernel's answers (uint8 bytes do not overflow
    when read as numbers)."""
    import os
    import subprocess
    import sys

    script = (
        "from fastttt import load_game\n"
        "from fastttt.filter import Chunk\n"
        "from fastttt.games.movetext import play_lines\n"
        "for game, lines in (('3x3k3', ['2,2 1,1\\n', '2,2 2,2', '']), "
        "('2x11k3g', ['11 10, 9', '1 1 1'])):\n"
        "    f, s, ok = play_lines(load_game(game), Chunk.from_lines(lines, 1))\n"
        "    print(f.tolist(), s.tolist(), ok.tolist())\n"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    plain = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    compiled = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert plain.stdout == compiled.stdout
    assert plain.stdout.splitlines() == [
        "[16, 0, 0] [1, 0, 0] [True, False, True]",
        "[2621440, 0] [1048576, 0] [True, False]",  # cells 21 and 19, 20: the bottom row
    ]
