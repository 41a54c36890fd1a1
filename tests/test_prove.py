"""The portfolio prover (fastttt.search.portfolio) and ``fastttt solve --search``: values equal to
the tables and alpha-beta, each value with the method that proved it, budgets that end with
"unknown within budget" and the bounds found, and the command line's outputs."""

from __future__ import annotations

import json
import re
import threading
import time

import pytest
from click.testing import CliRunner

from fastttt.cli import main
from fastttt.cli.solve_search import parse_budget
from fastttt.errors import InvalidArgumentError, InvalidPositionError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.search import portfolio
from fastttt.search.alphabeta import Searcher, searcher
from fastttt.search.portfolio import METHODS, prove
from fastttt.tables.dense import solve

from proving import check_line, check_line_start, random_positions


def _methods_named(result) -> set[str]:
    return set(result.method.split(" + "))


@pytest.mark.parametrize(
    "game, count", [("tictactoe", 150), ("4x4k3", 60), ("4x4k4", 60), ("3x4k3g", 60)]
)
def test_values_match_the_tables(game, count):
    spec = as_spec(game)
    table = solve(spec)
    for pos in random_positions(spec, count, seed=21):
        # a node budget bounds the line by nodes, not by time (one second on a loaded machine
        # may go to loading a kernel, and the line is then left out)
        result = prove(pos, budget_nodes=10_000_000)
        expected = table.value(pos) * (1 if pos.to_move == 0 else -1)
        assert result.value == expected, pos
        assert result.bounds == (expected, expected)
        assert _methods_named(result) <= set(METHODS)
        assert (
            result.winner
            == {
                1: "first" if pos.to_move == 0 else "second",
                0: "draw",
                -1: "second" if pos.to_move == 0 else "first",
            }[expected]
        )
        if expected != 0:
            check_line(pos, result.line, pos.to_move if expected == 1 else 1 - pos.to_move)


@pytest.mark.parametrize("game", ["5x5k4", "4x5k4g"])
def test_values_match_alphabeta(game):
    spec = as_spec(game)
    reference = Searcher(spec)
    for pos in random_positions(spec, 40, seed=22, min_ply=3):
        assert prove(pos).value == reference.solve(pos, weak=True).score, pos


@pytest.mark.parametrize(
    "game, value, methods",
    [
        ("tictactoe", 0, {"dfpn", "strategy-stealing"}),
        ("4x4k3", 1, {"threats"}),
        ("5x5k5", 0, {"pairing", "strategy-stealing"}),
        ("8x8k7", 0, {"pairing", "strategy-stealing"}),
        ("5x6k4", 1, None),  # df-pn or alpha-beta: whichever slice ends first (time slices)
        ("4x4k4g", 0, None),
    ],
)
def test_empty_boards_say_who_proved_them(game, value, methods):
    spec = as_spec(game)
    result = prove(Position.empty(spec))
    assert result.value == value and result.bounds == (value, value)
    if methods is not None:
        assert _methods_named(result) == methods
    assert {result.lower_by, result.upper_by} - {None} == _methods_named(result)
    if value == 1:
        check_line(Position.empty(spec), result.line, 0)
    if "pairing" in _methods_named(result):
        assert result.pairs
    assert result.nodes == sum(step.nodes for step in result.steps)


def test_one_method_alone():
    pos = Position.from_moves("4x4k3", [5, 6])
    for method in ("dfpn", "dfpn-narrowed", "alphabeta", "threats"):
        result = prove(pos, methods=(method,))
        assert result.value == 1 and result.method == method
        assert {s.method for s in result.steps} <= {method, "dfpn"}  # dfpn: the line
    assert prove(Position.empty("4x4k4"), methods=("threats",), budget_seconds=5).value is None


@pytest.mark.parametrize("game", ["4x4k3", "4x4k4", "3x5k3"])
def test_narrowed_df_pn_proves_only_the_tables_wins(game):
    spec = as_spec(game)
    table = solve(spec)
    proven = 0
    for pos in random_positions(spec, 30, seed=24, min_ply=1):
        result = prove(pos, methods=("dfpn-narrowed",), budget_nodes=200_000)
        expected = table.value(pos) * (1 if pos.to_move == 0 else -1)
        if result.value is None:  # no win within the reach, or the budget ran out
            assert expected != 1 or result.steps[-1].answer == "unknown", pos
            continue
        assert result.value == expected == 1 and result.method == "dfpn-narrowed", pos
        assert 0 < result.proof_size <= result.nodes, pos  # the narrowed proof is counted
        assert 0 <= result.proof_size_threats <= result.proof_size, pos
        check_line(pos, result.line, pos.to_move)
        proven += 1
    assert proven >= 5


def test_narrowed_df_pn_stops_when_no_win_keeps_to_the_reach():
    result = prove(Position.empty("tictactoe"), methods=("dfpn-narrowed",), budget_seconds=60)
    assert result.value is None and result.bounds == (-1, 1) and not result.out_of_budget
    assert [s.answer for s in result.steps][-1] == "no win within reach"
    assert result.steps[-1].question == "mover wins within 2 cells of a stone"
    assert result.verdict() == "unknown to the methods chosen (loss .. win)"
    out = CliRunner().invoke(main, ["solve", "tictactoe", "--search", "--method", "dfpn-narrowed"])
    assert "unknown to the methods chosen: loss .. win for the first player (X)" in out.stdout


def test_alpha_beta_goes_on_alone_once_the_narrowed_step_is_done():
    # the narrowed step finds no win of X within its reach on 6x5 k=5 in a second or two; then
    # alpha-beta keeps its doubling slices, unhalted
    result = prove(
        Position.empty("6x5k5"),
        methods=("dfpn-narrowed", "alphabeta"),
        budget_seconds=6,
        threads=2,
    )
    answers = [s.answer for s in result.steps if s.method == "dfpn-narrowed"]
    assert answers[-1] == "no win within reach"
    assert len([s for s in result.steps if s.method == "alphabeta"]) < 12
    assert result.value is not None or result.out_of_budget


def test_the_narrowed_step_waits_for_the_next_question_and_ends_after_the_last():
    import fastttt.search.portfolio as prover

    pos = Position.from_moves("6x6k5", [14])
    state = prover._State(pos, prover._Budget(None, None), None)
    turns = prover._Turns(state, None, prover._Narrowed(pos.spec, 10), None, False)
    turns.narrowed.beyond_reach.add(pos.to_move)  # no win of the mover within the reach
    assert turns.open(["dfpn-narrowed"]) == [] and not turns.finished("dfpn-narrowed")
    state.bound(None, 0, "dfpn", "mover wins", 1, 0.0, answer="disproven")
    assert turns.open(["dfpn-narrowed"]) == ["dfpn-narrowed"]  # now: does the opponent win?
    turns.narrowed.beyond_reach.add(1 - pos.to_move)
    assert turns.open(["dfpn-narrowed"]) == [] and turns.finished("dfpn-narrowed")
    assert not turns.finished("dfpn") and turns.open(["dfpn"]) == ["dfpn"]


def test_an_unknown_value_says_why():
    # X to move; its threat search fails in 1,395 nodes here, and needs 26,991 to win there
    no_win = [103, 141, 131, 144, 135, 121, 101, 105, 122, 118, 104, 98, 139, 113]
    slow_win = [125, 107, 103, 133, 100, 117, 137, 95, 119, 101, 115, 131, 129, 104]
    result = prove(Position.from_moves("15x15k5", no_win), methods=("threats",))
    assert result.value is None and result.steps[-1].answer == "no threat win"
    assert not result.out_of_budget
    assert result.verdict().startswith("unknown to the methods chosen")
    pos = Position.from_moves("15x15k5", slow_win)
    result = prove(pos, methods=("threats",), budget_nodes=2_000)
    assert result.value is None and result.steps[-1].answer == "unknown"
    assert result.out_of_budget and result.verdict().startswith("unknown within budget")
    assert prove(pos, methods=("threats",)).value == 1
    known = prove(Position.empty("tictactoe"))
    assert known.value == 0 and not known.out_of_budget


def test_a_node_budget_ends_with_bounds():
    pos = Position.empty("connect4")
    result = prove(pos, budget_nodes=60_000)
    assert result.value is None and result.method is None
    assert result.bounds == (-1, 1) and result.verdict() == "unknown within budget (loss .. win)"
    assert result.nodes <= 60_000  # the kernels stop at the node budget exactly


def test_a_time_budget_ends_with_the_bounds_proven():
    # 7 x 7 k = 5: the first player cannot lose (strategy stealing) but its draw takes longer
    result = prove(Position.empty("7x7k5"), budget_seconds=0.5)
    assert result.value is None and result.bounds == (0, 1)
    assert result.lower_by == "strategy-stealing" and result.upper_by is None
    assert result.seconds < 5
    assert "unknown within budget (draw .. win)" == result.verdict()


@pytest.mark.parametrize("game", ["4x4k4", "5x5k4"])
def test_side_by_side_values_match_alphabeta(game):
    spec = as_spec(game)
    reference = Searcher(spec)
    for pos in random_positions(spec, 12, seed=23, min_ply=2):
        result = prove(pos, threads=2)
        assert result.value == reference.solve(pos, weak=True).score, pos
        assert result.nodes == sum(step.nodes for step in result.steps)
        if result.value:
            winner = pos.to_move if result.value == 1 else 1 - pos.to_move
            check_line(pos, result.line, winner)


def test_side_by_side_every_method_works_until_the_time_is_spent():
    # 8 x 8 k = 5: no method settles it in the budget (on 7 x 7 k = 5 an idle machine proves
    # the draw within it), so all three run for the whole budget, each on a thread of its own;
    # first a few nodes in turns, then a second side by side, so that no kernel (each
    # method's, on its own thread) compiles inside a timed slice
    prove(Position.empty("8x8k5"), budget_nodes=100_000)
    prove(Position.empty("8x8k5"), budget_seconds=1, threads=2)
    # 8 seconds: the pairing step takes about 1 of them first, and the narrowed step's first
    # slice of 20,000 nodes up to 1.7 on an idle machine (3 seconds left it one slice under load)
    result = prove(Position.empty("8x8k5"), budget_seconds=8, threads=2)
    assert result.value is None and result.bounds == (0, 1) and result.threads == 3
    searched = {"dfpn": 0.0, "dfpn-narrowed": 0.0, "alphabeta": 0.0}
    for step in result.steps:
        if step.method in searched:
            searched[step.method] += step.seconds
    # in turns on one thread, the two df-pn steps would each have about half alpha-beta's time
    assert min(searched.values()) > 0.8 * max(searched.values()), searched
    # the narrowed step's slices end on node counts (the last one on the budget's time)
    narrowed = [step.nodes for step in result.steps if step.method == "dfpn-narrowed"]
    assert len(narrowed) >= 2
    assert narrowed[:-1] == [20_000 * 2**i for i in range(len(narrowed) - 1)], narrowed


def test_a_node_budget_keeps_the_turns():
    def work(threads):
        result = prove(Position.empty("7x7k5"), budget_nodes=150_000, threads=threads)
        return result.threads, [(s.method, s.question, s.answer, s.nodes) for s in result.steps]

    turns = work(2)
    assert turns == work(1) and turns[0] == 1
    methods = ["dfpn", "dfpn-narrowed", "alphabeta", "dfpn", "dfpn-narrowed"]
    assert [s[0] for s in turns[1][3:8]] == methods


def test_side_by_side_the_first_to_know_halts_the_other(monkeypatch):
    # 6 x 6 k = 5 after the centre: df-pn proves the draw in a few dozen nodes, alpha-beta
    # does not settle it within a million
    pos = Position.from_moves("6x6k5", [14])
    assert prove(pos, methods=("alphabeta",), budget_nodes=1_000_000).value is None
    # df-pn waits for alpha-beta's first slice, which it must then cut short (on a busy
    # machine df-pn could otherwise answer before alpha-beta begins)
    alphabeta_began = threading.Event()
    alphabeta_step, dfpn_step = portfolio._alphabeta_step, portfolio._dfpn_step

    def first_alphabeta(*args):
        alphabeta_began.set()
        alphabeta_step(*args)

    def dfpn_after_alphabeta(*args):
        assert alphabeta_began.wait(60)
        dfpn_step(*args)

    monkeypatch.setattr(portfolio, "_alphabeta_step", first_alphabeta)
    monkeypatch.setattr(portfolio, "_dfpn_step", dfpn_after_alphabeta)
    result = prove(pos, threads=2)
    assert result.value == 0 and result.method == "dfpn" and result.threads == 3
    halted = [s for s in result.steps if s.method == "alphabeta"]
    assert halted and all(s.answer == "unknown" for s in halted)
    assert sum(s.nodes for s in halted) < 1_000_000


def test_bad_requests():
    with pytest.raises(InvalidPositionError, match="already over"):
        prove(Position.from_moves("tictactoe", [0, 3, 1, 4, 2]))
    with pytest.raises(InvalidArgumentError, match="budget_nodes"):
        prove(Position.empty("tictactoe"), budget_nodes=0)
    with pytest.raises(InvalidArgumentError, match="budget_seconds"):
        prove(Position.empty("tictactoe"), budget_seconds=float("nan"))
    with pytest.raises(InvalidArgumentError, match="unknown method"):
        prove(Position.empty("tictactoe"), methods=("magic",))
    with pytest.raises(InvalidArgumentError, match="threads"):
        prove(Position.empty("tictactoe"), threads=3)


# --- the command line -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("30s", (None, 30.0)),
        ("2m", (None, 120.0)),
        ("1.5h", (None, 5400.0)),
        ("1e7nodes", (10_000_000, None)),
        ("500n", (500, None)),
        ("60s,1e8nodes", (100_000_000, 60.0)),
        (" 2min , 10nodes ", (10, 120.0)),
        (None, (None, None)),
    ],
)
def test_budgets_parse(text, expected):
    assert parse_budget(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "10",
        "x",
        "10 parsecs",
        "0s",
        "-1s",
        "1.5nodes",
        "1s,2s",
        "1s,,",
        "1e99nodes",
        "nan s",
        "1s,1n,1h",
    ],
)
def test_bad_budgets_are_one_line_usage_errors(text):
    result = CliRunner().invoke(main, ["solve", "tictactoe", "--search", "--budget", text])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: Invalid value for --budget")


def test_a_time_too_long_says_the_limit():
    result = CliRunner().invoke(main, ["solve", "tictactoe", "--search", "--budget", "1e309s"])
    assert result.exit_code == 2
    assert "at most 1e9 seconds" in result.stderr


def test_search_json_fields():
    result = CliRunner().invoke(main, ["solve", "4x4k3", "--search", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["value"] == "win" and out["winner"] == "first" and out["method"] == "threats"
    assert out["to_move"] == "first" and out["bounds"]["low"] == out["bounds"]["high"] == "win"
    assert isinstance(out["nodes"], int) and isinstance(out["seconds"], float)
    assert out["proof_size"] >= 1 and out["steps"][-1]["method"] == "threats"
    assert out["proof_size_threats"] == out["proof_size"]  # a threat sequence throughout
    cells = [(int(r) - 1) * 4 + int(c) - 1 for r, c in (m.split(",") for m in out["line"])]
    check_line(Position.empty("4x4k3"), cells, 0)  # the line is written row,col from 1


def test_search_prints_the_proof_positions_in_threat_sequences():
    args = ["solve", "5x6k4", "--search", "--method", "dfpn-narrowed"]
    out = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    size, in_threats = out["proof_size"], out["proof_size_threats"]
    assert out["method"] == "dfpn-narrowed" and 0 < in_threats < size  # probes' proofs inside
    text = CliRunner().invoke(main, args).stdout
    assert f"proof size  {size:,} positions ({in_threats:,} of them in threat sequences)" in text


def test_search_text_gravity_line_in_columns():
    result = CliRunner().invoke(main, ["solve", "4x4k3g", "--search"])
    assert result.exit_code == 0, result.output
    rows = dict(line.strip().split("  ", 1) for line in result.stdout.splitlines())
    assert rows["value"].startswith("win for the first player (X)")
    moves = [int(m) - 1 for m in rows["line"].split()]  # 1-based columns
    check_line(Position.empty("4x4k3g"), moves, 0)


def test_search_unknown_within_budget():
    result = CliRunner().invoke(
        main, ["solve", "connect4", "--search", "--budget", "20000nodes", "--json"]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["value"] == "unknown" and out["winner"] is None and out["method"] is None
    assert out["bounds"] == {"low": "loss", "high": "win", "low_by": None, "high_by": None}
    assert out["budget"] == {"nodes": 20000, "seconds": None, "out_of_budget": True}
    assert out["line"] is None
    result = CliRunner().invoke(main, ["solve", "connect4", "--search", "--budget", "0.3s"])
    assert result.exit_code == 0, result.output
    assert "unknown within budget: loss .. win for the first player (X)" in result.stdout
    assert result.stderr.startswith("Warning: exact search") is False


def test_search_threads_option():
    def run(*extra):
        result = CliRunner().invoke(main, ["solve", "6x6k5", "--search", "--json", *extra])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    assert run("--threads", "1")["threads"] == 1
    out = run("--threads", "2")
    assert out["threads"] == 3 and out["value"] == "draw"
    assert {"dfpn", "alphabeta"} <= {step["method"] for step in out["steps"]}
    assert run("--threads", "2", "--budget", "1e7nodes")["threads"] == 1  # the turns
    result = CliRunner().invoke(main, ["solve", "6x6k5", "--search", "--threads", "3"])
    assert result.exit_code == 2 and "--threads" in result.stderr


def test_search_tt_bits_option(monkeypatch):
    """``--tt-bits`` sizes df-pn's tables, and a size that does not fit is refused up front
    with the estimate (both tables counted on a free board)."""
    import fastttt.memory as memory
    from fastttt.search import portfolio

    sizes = []
    real = portfolio.ProofSearch

    def recording(spec, **kw):
        sizes.append(kw["tt_bits"])
        return real(spec, **kw)

    monkeypatch.setattr(portfolio, "ProofSearch", recording)
    result = CliRunner().invoke(main, ["solve", "4x4k3", "--search", "--tt-bits", "17", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["value"] == "win" and sizes == [17, 17]
    monkeypatch.setattr(memory, "available_memory", lambda: 256 << 20)
    command = ["solve", "4x4k3", "--search", "--tt-bits", "22"]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 2
    assert (
        "df-pn's memory (2 tables of 2**22 rows of 32 bytes and a zone cache) needs 258.0 MiB; "
        "230.4 MiB is available" in result.stderr
    )
    result = CliRunner().invoke(main, [*command, "--method", "dfpn", "--json"])
    assert result.exit_code == 0, result.output  # one table of 128 MiB fits
    assert json.loads(result.stdout)["value"] == "win"
    result = CliRunner().invoke(main, ["solve", "4x4k3", "--tt-bits", "20"])
    assert result.exit_code == 2 and "--tt-bits goes with --search" in result.stderr
    result = CliRunner().invoke(main, [*command, "--method", "alphabeta"])
    assert result.exit_code == 2
    assert "--tt-bits sizes df-pn's tables: --method alphabeta has none" in result.stderr


def test_search_method_option():
    result = CliRunner().invoke(
        main, ["solve", "tictactoe", "--search", "--method", "alphabeta", "--json"]
    )
    out = json.loads(result.stdout)
    assert out["value"] == "draw" and out["method"] == "alphabeta"
    for method in ("threats", "dfpn-narrowed"):
        result = CliRunner().invoke(main, ["solve", "connect4", "--search", "--method", method])
        assert result.exit_code == 2 and "needs a free board" in result.stderr
    result = CliRunner().invoke(
        main, ["solve", "4x4k3", "--search", "--method", "dfpn-narrowed", "--json"]
    )
    out = json.loads(result.stdout)
    assert out["value"] == "win" and out["method"] == "dfpn-narrowed"


def test_a_long_search_reports_progress(monkeypatch):
    import fastttt.cli.solve_search as cli_solve

    monkeypatch.setattr(cli_solve, "PROGRESS_AFTER", 0.0)
    result = CliRunner().invoke(main, ["solve", "5x5k4", "--search"])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines[0].startswith("Warning: exact search with 25 empty cells")
    steps = lines[1:]  # one line a step: the time, the method, its answer, the range so far
    assert len(steps) >= 2 and all(re.match(r"\s+\d+\.\d s  \S+ ", line) for line in steps)
    assert steps[-1].endswith("first player (X) to move: draw"), steps  # which method closes
    assert "draw for the first player (X)" in result.stdout  # it depends on the time slices


# --- the answer first (issue 25): gravity boards lead with the Connect Four engine, and the
# principal line has its own bound --------------------------------------------------------
def _connect4_after(moves: str) -> Position:
    return Position.from_moves("connect4", [int(c) - 1 for c in moves])


def test_gravity_boards_search_with_the_engine_alone():
    pos = _connect4_after("651173365733134")  # the mover loses (about 2e5 nodes)
    result = prove(pos)
    reference = Searcher("connect4").solve(pos, weak=True)
    assert result.value == reference.score and result.method == "alphabeta"
    assert {s.method for s in result.steps} == {"alphabeta"}  # no df-pn slice, no threats
    assert [s.question for s in result.steps][:1] == ["value"]  # one search: the whole budget
    value_nodes = result.steps[0].nodes
    if result.value:
        winner = pos.to_move if result.value == 1 else 1 - pos.to_move
        check_line(pos, result.line, winner)
        assert result.steps[-1].question == "principal line"
        assert result.steps[-1].nodes <= max(20_000, value_nodes // 10)


def test_search_costs_no_more_than_alphabeta_on_gravity_boards(monkeypatch):
    pos = _connect4_after("274552224131661")
    shared = searcher(pos.spec)  # the portfolio's alpha-beta: empty its table before each
    monkeypatch.setattr(shared, "threads", 1)  # one thread: node counts that repeat
    shared.reset()
    auto = prove(pos)
    shared.reset()
    alone = prove(pos, methods=("alphabeta",))
    assert auto.value == alone.value is not None
    assert auto.nodes <= 1.2 * alone.nodes


def test_a_line_beyond_its_bound_is_explained(monkeypatch):
    import fastttt.search.portfolio as prover

    monkeypatch.setattr(prover, "LINE_MIN_NODES", 1)
    monkeypatch.setattr(prover, "LINE_SHARE", 0.0)
    pos = _connect4_after("2531276566711153")
    result = prove(pos)
    assert result.value in (1, -1) and result.line is None
    assert result.line_note == "no line within 1 nodes or 1.0 s (its bound: a tenth of the value's)"
    out = CliRunner().invoke(
        main, ["solve", "connect4", "--search", "--moves", "2531276566711153", "--json"]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["line"] is None and data["line_note"].startswith("no line within 1 nodes")
    assert data["line_start"] is None  # alpha-beta's walk keeps no moves


def test_a_line_cut_by_its_bound_gives_its_first_moves(monkeypatch):
    """The narrowed step's line, its table too small to keep the proof, stops at its bound
    of 20 nodes: the moves it walked are given (API, JSON and text), and the winner still
    wins after them."""
    import fastttt.search.portfolio as prover

    monkeypatch.setattr(prover, "LINE_MIN_NODES", 20)
    monkeypatch.setattr(prover, "LINE_SHARE", 0.0)
    pos = Position.from_text("5x5k4", "..O../...../...../...../...X.")
    result = prove(pos, methods=("dfpn-narrowed",), dfpn_tt_bits=6)
    assert result.value == 1 and result.line is None
    assert result.line_note.startswith("no line within 20 nodes")
    check_line_start(pos, result.line_start, pos.to_move, Searcher(pos.spec))
    real = prover.prove
    monkeypatch.setattr(prover, "prove", lambda *a, **kw: real(*a, **{**kw, "dfpn_tt_bits": 6}))
    command = ["solve", "5x5k4", "--search", "--method", "dfpn-narrowed"]
    command += ["--moves", "5,4 1,3"]  # the position above
    data = json.loads(CliRunner().invoke(main, [*command, "--json"]).stdout)
    assert data["line"] is None and len(data["line_start"]) == len(result.line_start)
    text = CliRunner().invoke(main, command).output
    assert re.search(r"line starts  \S", text), text


@pytest.mark.parametrize("game", ["9x8k3", "11x6k3g"])
def test_boards_past_64_cells_get_alphabetas_line(game):
    """The wide searcher's table gives the line's hints (it once raised GameSpecError)."""
    pos = Position.from_moves(game, [])
    result = prove(pos, methods=("alphabeta",), budget_nodes=1_000_000)
    assert result.value == 1
    check_line(pos, result.line, 0)


def test_a_line_is_timed_after_its_kernels_are_loaded(monkeypatch):
    """Loading a kernel for the line, here a second and a half, is not taken from the line's
    one second: the line of a proof without a budget is still found (alpha-beta's walk, and
    df-pn's own under ``after_seconds``)."""
    import fastttt.search.portfolio as prover
    from fastttt.search.dfpn import ProofSearch

    def slow(real):
        def load(*args):
            time.sleep(1.5)
            return real(*args)

        return load

    monkeypatch.setattr(prover, "LINE_SHARE", 0.0)  # the bound is LINE_MIN_SECONDS
    monkeypatch.setattr(Searcher, "load_kernels", slow(Searcher.load_kernels))
    monkeypatch.setattr(ProofSearch, "_load_walks", slow(ProofSearch._load_walks))
    pos = Position.from_text("4x4k3", "..../.X../..O./....")
    result = prove(pos, methods=("alphabeta",))
    assert result.value == 1
    check_line(pos, result.line, 0)
    pos = Position.from_text("5x5k4", "..O../...../...../...../...X.")
    # a table too small to keep the proof: the walk searches again, and reads the clock
    found = ProofSearch(pos.spec, tt_bits=8).prove(pos, 0, after_seconds=1.0)
    assert found.proven is True
    check_line(pos, found.line, 0)


@pytest.mark.slow
def test_connect4_after_four_moves_answers_with_the_engine():
    """Issue 25's reproducer: the value came at 25 s, then df-pn searched a line for hours."""
    out = CliRunner().invoke(main, ["solve", "connect4", "--search", "--moves", "4444", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["winner"] == "first" and data["method"] == "alphabeta"
    assert data["line"] is not None or data["line_note"]


def test_a_long_engine_search_reports_its_nodes(monkeypatch):
    import fastttt.search.portfolio as prover

    monkeypatch.setattr(prover, "HEARTBEAT_SECONDS", 0.01)
    seen = []
    result = prove(
        _connect4_after("4444"), budget_nodes=3_000_000, progress=lambda st, b: seen.append(st)
    )
    beats = [st for st in seen if st.answer == "searching"]
    assert beats and all(st.method == "alphabeta" and st.nodes <= 3_000_000 for st in beats)
    assert [st.nodes for st in beats] == sorted(st.nodes for st in beats)
    assert "searching" not in {st.answer for st in result.steps}
    assert result.value is None and result.nodes == 3_000_000  # the budget, exactly
