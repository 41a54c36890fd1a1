"""Every option a mode would ignore is refused with a one-line usage error (exit 2), and the
defaults answer within seconds on every game (issue 10, "Safety")."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from fastttt.cli import main
from fastttt.cli.solve import MODE_OPTIONS, solve

# a command line that selects each mode of ``fastttt solve`` (files never created: the
# refusal comes before any work)
MODE_ARGS = {
    "ultimate": ["ultimate"],
    "--stdin": ["--stdin"],
    "--search": ["--search"],
    "--all-moves": ["--all-moves"],
    "--load": ["--load", "{tmp}/t.fttt"],
    "--load --stdin": ["--load", "{tmp}/t.fttt", "--stdin"],
    "a table solve": [],
}
# one value for every option of ``solve``
OPTION_ARGS = {
    "rows": ["--rows", "3"],
    "cols": ["--cols", "3"],
    "k": ["-k", "3"],
    "gravity": ["--gravity"],
    "as_json": ["--json"],
    "save_path": ["--save", "{tmp}/s.fttt"],
    "force": ["--force"],
    "load_path": ["--load", "{tmp}/t.fttt"],
    "position": ["--position", "........."],
    "moves": ["--moves", "4"],
    "max_memory": ["--max-memory", "1"],
    "stdin": ["--stdin"],
    "all_moves": ["--all-moves"],
    "weak": ["--weak"],
    "nodes": ["--nodes"],
    "max_nodes": ["--max-nodes", "10"],
    "search": ["--search"],
    "engine": ["--engine", "dense"],
    "out_dir": ["--out", "{tmp}/o"],
    "resume": ["--resume"],
    "symmetry": ["--no-symmetry"],
    "workers": ["--workers", "2"],
    "scheduler": ["--scheduler", "tcp://127.0.0.1:1"],
    "wdl": ["--wdl"],
    "live": ["--live"],
    "keep_every": ["--keep-every", "2"],
    "chunk": ["--chunk", "4096"],
    "index": ["--index", "column-runs"],
    "budget": ["--budget", "1s"],
    "method": ["--method", "dfpn"],
    "threads": ["--threads", "1"],
    "tt_bits": ["--tt-bits", "18"],
    "checkpoint": ["--checkpoint", "{tmp}/split.json"],
}


def invoke(args, tmp_path, input=None):
    return CliRunner().invoke(main, [a.format(tmp=tmp_path) for a in args], input=input)


def one_line_error(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2, result.output
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    assert "Traceback" not in result.output
    return lines[0]


def test_the_table_covers_every_option():
    options = {p.name for p in solve.params if p.name != "game"}
    assert options == set(OPTION_ARGS)
    assert set(MODE_OPTIONS) == set(MODE_ARGS)


@pytest.mark.parametrize(
    "mode, option",
    [
        (m, o)
        for m in MODE_ARGS
        for o in OPTION_ARGS
        if o not in MODE_OPTIONS[m]
        and not (m == "a table solve" and OPTION_ARGS[o][0] in MODE_ARGS)
        and not (m == "--all-moves" and o == "stdin")  # --stdin --all-moves: the filter's mode
        and {m, OPTION_ARGS[o][0]} != {"--load", "--stdin"}  # together: the table's filter
    ],
)
def test_solve_refuses_what_its_mode_ignores(tmp_path, mode, option):
    # e.g. --json with --stdin and --rows with solve ultimate used to exit 0, ignored
    result = invoke(["solve", *MODE_ARGS[mode], *OPTION_ARGS[option]], tmp_path, input="")
    line = one_line_error(result)
    assert OPTION_ARGS[option][0].split("/")[0] in line and "drop" in line
    assert list(tmp_path.iterdir()) == []


def test_symmetry_is_refused_with_the_dense_engine(tmp_path):
    line = one_line_error(invoke(["solve", "--engine", "dense", "--no-symmetry"], tmp_path))
    assert "not used by the dense engine" in line


@pytest.mark.parametrize(
    "args, words",
    [
        (["solve", "4x4k3", "--search", "--moves", "2 3"], "move 1 ('2'): '2' is not a move"),
        (["solve", "--moves", "1, 2"], "move 1 ('1,'): '1,' is not a move"),
        (["solve", "4x4k3g", "--moves", "4 4 x"], "move 3 ('x'): 'x' is not a move"),
        (["solve", "ultimate", "--moves", "5 5"], "move 1 ('5'): '5': no board is forced"),
        (["solve", "--moves", "1,2,3"], "move 1 ('1,2,3'): '1,2,3' is not a move"),
        (
            ["render", "tictactoe", "--moves", "2,2 4,4", "-o", "{tmp}/b.svg"],
            "--moves: move 2 ('4,4'): row 4 is off the board (rows 1 to 3)",
        ),
        (["prove", "--moves", "5,5 5,5"], "--moves: move 2 ('5,5'): 5,5: the cell is taken"),
    ],
)
def test_a_bad_move_is_named_in_people_numbering(tmp_path, args, words):
    # a move list is the play screen's moves separated by spaces; the error names the move
    # (counted from 1), its text, and what is wrong, in the numbering of the screen
    assert words in one_line_error(invoke(args, tmp_path))


def test_spaces_separate_moves(tmp_path):
    result = invoke(["solve", "--moves", " 2,2   1,1 "], tmp_path)
    assert result.exit_code == 0, result.output
    assert "O../.X./..." in result.output


@pytest.mark.parametrize("command", ["play", "match"])
@pytest.mark.parametrize("name", ["", " ", "perfekt"])
def test_an_empty_or_unknown_player_lists_the_names(tmp_path, command, name):
    # --x '' used to mean perfect in match
    line = one_line_error(invoke([command, "--x", name, "--o", "random"], tmp_path))
    assert "choose from human, random, heuristic:P, alphabeta:P, perfect" in line


def test_hints_without_a_human_are_refused(tmp_path):
    line = one_line_error(invoke(["play", "--x", "random", "--o", "random", "--hints"], tmp_path))
    assert "--hints" in line and "human" in line


@pytest.mark.timeout(120)
def test_default_players_answer_on_connect4(tmp_path):
    # match connect4 and play connect4 --x random used to be perfect play: hours per move
    result = invoke(["match", "connect4", "-n", "2", "--seed", "1", "--json"], tmp_path)
    assert result.exit_code == 0, result.output
    assert '"a": "alphabeta:8"' in result.stdout
    result = invoke(["play", "connect4", "--x", "random", "--seed", "1"], tmp_path)
    assert result.exit_code == 0, result.output
    assert "O = alphabeta:8" in result.output and "Warning" not in result.stderr


@pytest.mark.parametrize(
    "game, cost",
    [("connect4", "reads its opening book to 8 plies"), ("5x8k4g", "exact search")],
)
def test_asked_perfect_play_on_a_big_board_warns_of_its_cost(tmp_path, game, cost):
    result = invoke(["play", game, "--x", "human", "--o", "perfect"], tmp_path, input="")
    assert result.exit_code == 0, result.output
    warning = [line for line in result.stderr.splitlines() if line.startswith("Warning")]
    assert len(warning) == 1 and cost in warning[0], warning


def test_bench_refuses_tables_bigger_than_free_memory(tmp_path, monkeypatch):
    # bench --tt-bits 30 used to allocate 32 GiB without a check
    import fastttt.tables.dense

    monkeypatch.setattr(fastttt.tables.dense, "available_memory", lambda: 64 * 2**20)
    line = one_line_error(invoke(["bench", "--tt-bits", "24"], tmp_path))
    assert "--tt-bits" in line and "512.0 MiB" in line


def test_a_bad_query_is_refused_before_the_solve(tmp_path):
    # found by the CLI fuzz: the layered solve ran (and wrote d/o) before --moves was read
    result = invoke(["solve", "3x3k3g", "--moves", "0", "--out", "{tmp}/o"], tmp_path)
    assert "--moves: move 1 ('0'): column 0 is off the board" in one_line_error(result)
    assert not (tmp_path / "o").exists()


def test_a_long_exact_search_is_announced(tmp_path, monkeypatch):
    import fastttt.play.players

    monkeypatch.setattr(fastttt.play.players, "QUICK_SEARCH_CELLS", {True: 4, False: 4})
    result = invoke(["solve", "4x4k3", "--search"], tmp_path)
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("Warning: exact search with 16 empty cells")


@pytest.mark.parametrize(
    "args, words",
    [
        (["play", "--x", "human", "--o", "human", "--seed", "3"], "both players are human"),
        (["match", "-n", "1", "--swap"], "--games 2 or more"),
    ],
)
def test_play_and_match_refuse_what_they_would_ignore(tmp_path, args, words):
    assert words in one_line_error(invoke(args, tmp_path))


def test_render_refuses_a_budget_without_values(tmp_path):
    result = invoke(
        ["render", "tictactoe", "--seconds", "2", "-o", str(tmp_path / "p.svg")], tmp_path
    )
    assert result.exit_code == 2 and "--seconds is the budget of --values" in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "command",
    [
        ["solve", "3x3k3g", "--out", "{tmp}/d"],
        ["solve", "4x4k4", "--search"],
        ["book", "build", "4x4k3g", "--depth", "2", "--out", "{tmp}/b.book"],
        ["prove", "--split", "1"],
    ],
    ids=["layered", "search", "book", "prove"],
)
@pytest.mark.parametrize(
    "address, words",
    [
        ("notanaddress", "--scheduler 'notanaddress': missing port number"),
        ("foo://127.0.0.1:1", "--scheduler 'foo://127.0.0.1:1': unknown address scheme 'foo'"),
        ("tcp://127.0.0.1:99999", "port 99999 is not in 1..65535"),
        ("", "--scheduler: the address is empty"),  # was ignored: the work ran here
    ],
)
def test_a_bad_scheduler_address_is_one_line(tmp_path, command, address, words):
    # Dask's ValueError was a traceback, after the work had begun; the address is read
    # before any connection, so no cluster is needed
    pytest.importorskip("distributed")
    assert words in one_line_error(invoke([*command, "--scheduler", address], tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_connect_refuses_a_bad_address_before_connecting():
    pytest.importorskip("distributed")
    from fastttt.errors import InvalidArgumentError
    from fastttt.tables.distributed import check_scheduler, connect

    with pytest.raises(InvalidArgumentError, match="--scheduler 'notanaddress': missing port"):
        connect("notanaddress")
    with pytest.raises(InvalidArgumentError, match="unknown address scheme 'foo'"):
        connect("foo://127.0.0.1:1")
    assert check_scheduler("tcp://127.0.0.1:8786") == "tcp://127.0.0.1:8786"
    assert check_scheduler("localhost:8786") == "localhost:8786"  # no look-up of the host
