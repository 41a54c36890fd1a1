"""Regression tests of issue 10, item 7: the public API raises fastttt's typed errors."""

import re
import subprocess
import sys

import pytest

from fastttt import Position, load_game, mnk, ultimate
from fastttt.errors import (
    FastTTTError,
    GameSpecError,
    InvalidArgumentError,
    InvalidPositionError,
)
from fastttt.play.players import make_player
from fastttt.search import heuristic
from fastttt.search.alphabeta import Searcher
from fastttt.search.ultimate import engine
from fastttt.ultimate import UltimateState


@pytest.mark.parametrize("gravity", ["False", "True", 0, 1, None, 1.0, [False]])
def test_mnk_gravity_must_be_a_bool(gravity):
    with pytest.raises(GameSpecError, match="gravity"):
        mnk(3, 3, 3, gravity)
    if gravity is not None:  # load_game's None means "the game's own gravity"
        with pytest.raises(GameSpecError, match="gravity"):
            load_game("tictactoe", gravity=gravity)


def test_mnk_gravity_bools_still_work():
    assert mnk(3, 3, 3, False) == load_game("tictactoe")
    assert mnk(6, 7, 4, True) == load_game("connect4")


@pytest.mark.parametrize("name", [5, None, b"tictactoe", ["tictactoe"], "9" * 5000 + "x3"])
def test_load_game_bad_names(name):
    with pytest.raises(GameSpecError):
        load_game(name)


@pytest.mark.parametrize("bits", ["a", None, 1.5, [1], -1])
def test_position_bitboards_checked(bits):
    with pytest.raises(InvalidPositionError):
        Position("tictactoe", bits, 0)
    with pytest.raises(InvalidPositionError):
        Position("tictactoe", 0, bits)


@pytest.mark.parametrize("text", [5, None, b"........."])
def test_from_text_needs_a_string(text):
    with pytest.raises(InvalidPositionError):
        Position.from_text("tictactoe", text)


@pytest.mark.parametrize("moves", [5, None, 4.0, "012"])
def test_from_moves_needs_a_sequence(moves):
    with pytest.raises(InvalidPositionError):
        Position.from_moves("tictactoe", moves)


@pytest.mark.parametrize(
    "moves", [{4, 0}, frozenset({4, 0}), {4: 1}, {4: 1, 0: 2}.keys(), {4: 1}.items()]
)
def test_moves_must_be_in_order(moves):
    # a set or a dict was read in its own order: who played what was left to chance
    from fastttt.search.connect4 import to_move_string
    from fastttt.tables.cache import solved

    ordered = "moves must be an ordered sequence"
    with pytest.raises(InvalidPositionError, match=ordered):
        Position.from_moves("tictactoe", moves)
    with pytest.raises(InvalidPositionError, match=ordered):
        solved("tictactoe").value(moves)
    with pytest.raises(InvalidPositionError, match="position 0: " + ordered):
        solved("tictactoe").get_many([moves])
    with pytest.raises(InvalidPositionError, match=ordered):
        UltimateState.from_moves(moves)
    with pytest.raises(InvalidPositionError, match=ordered):
        to_move_string(moves)


def test_ordered_moves_still_work():
    from fastttt.tables.cache import solved

    for moves in ([4, 0], (4, 0), iter([4, 0]), range(4, -1, -4), {1: 4, 2: 0}.values()):
        assert str(Position.from_moves("tictactoe", moves)) == "O../.X./..."
    assert solved("tictactoe").value((1, 0, 4, 3)) == solved("tictactoe").value([1, 0, 4, 3])


def test_from_code_and_spec_types():
    with pytest.raises(InvalidPositionError):
        Position.from_code("tictactoe", "12")
    with pytest.raises(GameSpecError):
        Position.from_code(3, 0)
    with pytest.raises(GameSpecError):
        Position.from_text("ultimate", ".........")


def test_solution_value_bad_input():
    from fastttt.tables.cache import solved

    sol = solved("tictactoe")
    for bad in (5, None, 1.5, [[0]], "XX"):
        with pytest.raises(InvalidPositionError):
            sol.value(bad)


@pytest.mark.parametrize("n", [7, 8])
def test_compat_morpion_n_7_and_8_work(n):
    from fastttt.compat import morpion

    etat = ("." * (n * n), 0)
    assert morpion.partie_finie(n, etat[0]) == (False, None)
    assert len(morpion.suivants(etat)) == n * n
    assert morpion.heuristique(etat, 0, n) == 0
    assert morpion.compte_lcd(etat[0], 0, n) == 2 * n + 2
    assert isinstance(morpion.minimax_heur(etat, 1, n), int)


@pytest.mark.parametrize("n", [9, 0, 3.0, None, "3"])
def test_compat_morpion_bad_n_names_the_largest(n):
    from fastttt.compat import morpion

    with pytest.raises(InvalidArgumentError, match="8"):
        morpion.partie_finie(n, "." * 81)
    with pytest.raises(FastTTTError):
        morpion.heuristique(("." * 9, 0), 0, n)


def test_solve_exact_rejects_bad_budgets():
    from fastttt.ultimate import UltimateState, solve_exact

    state = UltimateState.from_moves([40, 36])
    for bad in ("10", 1.5, True, 0, -5, [1]):
        with pytest.raises(InvalidArgumentError):
            solve_exact(state, node_budget=bad)
    with pytest.raises(InvalidPositionError):
        solve_exact("not a state")


def test_solve_exact_none_budget_returns():
    """node_budget=None means the default budget (here made small), not an endless search."""
    code = (
        "import fastttt.search.ultimate.engine as e\n"
        "from fastttt.ultimate import UltimateState\n"
        "e.DEFAULT_NODE_BUDGET = 20_000\n"
        "r = e.solve_exact(UltimateState.from_moves([40, 36]), node_budget=None)\n"
        "assert r[0] == 'estimate' and r[3] <= 40_000, r\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


# --- search and Ultimate APIs (issue 10, item 7: untyped errors found by the audit) ----------


def _ENGINE():
    return engine.Engine(tt_bits=8)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: ultimate.make_player("bogus"), "unknown Ultimate player 'bogus'"),
        (lambda: ultimate.make_player(None), "must be a string"),
        (lambda: ultimate.make_player("mcts:100000000"), "from 1 to 1,000,000"),
        (lambda: ultimate.make_player("minimax:99999999999999999999"), "from 1 to 81"),
        (lambda: ultimate.make_player("engine:n99999999999999999999"), "node budget"),
        (lambda: _ENGINE().search(None), "state must be of type UltimateState"),
        (lambda: _ENGINE().search(UltimateState(), nodes=2**70), "nodes must be in"),
        (lambda: _ENGINE().search(UltimateState(), max_depth=0), "max_depth must be in"),
        (lambda: _ENGINE().search(UltimateState(), time_ms=float("nan")), "time_ms"),
        (lambda: engine.Engine(tt_bits=80), "tt_bits must be in 4..30"),
        (lambda: engine.Engine(tt_bits="x"), "tt_bits must be an integer"),
        (lambda: engine.evaluate(None), "state must be of type UltimateState"),
        (lambda: engine.solve_exact(UltimateState(), node_budget=2**70), "node_budget"),
        (lambda: UltimateState("x"), "open_won_boards must be a bool"),
        (lambda: Searcher("connect4", tt_bits="x"), "tt_bits must be an integer"),
        (lambda: Searcher("connect4", tt_bits=40), "tt_bits must be in 17..32"),
        (lambda: Searcher("connect4").solve(None), "pos must be of type Position"),
        (lambda: heuristic.search(Position.from_moves("tictactoe", []), 2**70), "depth"),
        (lambda: make_player("alphabeta:99999999999999999999", mnk(5, 5, 4)), "from 1 to 25"),
    ],
)
def test_search_and_ultimate_api_errors_are_typed(call, message):
    with pytest.raises(FastTTTError, match=re.escape(message)):
        call()


def test_heuristic_depth_beyond_the_cells_is_the_full_tree():
    pos = Position.from_moves("tictactoe", [0, 4])
    assert heuristic.search(pos, 100)[:2] == heuristic.search(pos, 7)[:2]
