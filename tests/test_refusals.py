"""Issue 25's reproducers: inputs that hung, became another game, or were read as something
else are refused with one line (exit 2 for arguments, ``line N:`` in the filter), never a
traceback; each check runs the real command line or API."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from fastttt.cli import main
from fastttt.errors import GameSpecError
from fastttt.games import connect4, spec_from_name, tictactoe
from fastttt.registry import load_game

LATE_A = "2252576253462244111563365343671351441"  # late positions: answered at once
LATE_B = "7422341735647741166133573473242566"


def test_a_carriage_return_line_is_blank_not_the_empty_board():
    result = CliRunner().invoke(
        main, ["solve", "connect4", "--stdin", "--weak"], input=f"{LATE_A}\n\r\n{LATE_B}\n"
    )
    assert result.exit_code == 1  # some line was refused
    out = result.stdout.splitlines()
    assert out == [f"{LATE_A} -1", "", f"{LATE_B} 1"]
    assert result.stderr.strip().splitlines() == [
        "line 2: column 1: a blank line (only a carriage return); only an empty line is the "
        "empty board"
    ]


@pytest.mark.parametrize(
    "name", ["3x3k-1", "3x-1k3", "-1x3k3", "3x3k+1", "3 x 3", "3x3k3gg", "x3k3", "3x3k"]
)
def test_game_names_have_one_grammar(name):
    with pytest.raises(GameSpecError, match="unknown game"):
        spec_from_name(name)
    with pytest.raises(GameSpecError, match="unknown game"):
        load_game(name)


@pytest.mark.parametrize(
    "name, spec",
    [
        ("connect_four", connect4),
        ("Connect-Four", connect4),
        ("connect four", connect4),
        ("CONNECT4", connect4),
        ("morpion", tictactoe),
        ("tic_tac_toe", tictactoe),
        (" 3x3k3 ", tictactoe),
        ("\uff13x\uff13", tictactoe),  # fullwidth digits, as before
    ],
)
def test_names_people_write(name, spec):
    assert spec_from_name(name) == spec
    assert load_game(name) == spec


def test_an_unknown_name_gets_a_close_match():
    with pytest.raises(GameSpecError, match="did you mean 'tictactoe'"):
        load_game("tictactoo")
    result = CliRunner().invoke(main, ["solve", "conect4"])
    assert result.exit_code == 2 and "did you mean 'connect4'" in result.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["render", "connect4", "--values", "--seconds", "nan", "-o", "y.svg"], "not a finite"),
        (["render", "connect4", "--values", "--seconds", "inf", "-o", "y.svg"], "not in the range"),
        (["render", "tictactoe", "-o", ""], "the path is empty"),
        (["solve", "--max-memory", "nan"], "not a finite number"),
        (["solve", "--save", ""], "the path is empty"),
        (["solve", "4x4k4g", "--out", " "], "the path is empty"),
        (["solve", "--load", ""], "the path is empty"),
        (["bench", "--plot", ""], "the path is empty"),
    ],
)
def test_numbers_and_paths_that_pass_a_range_check(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0]
    assert list(tmp_path.iterdir()) == []  # nothing written


# --- typed errors before big allocations, and argument types -----------------------------------
@pytest.fixture
def one_gib_free(monkeypatch):
    import fastttt.memory

    monkeypatch.setattr(fastttt.memory, "available_memory", lambda: 2**30)


def test_search_tables_are_estimated_before_they_are_allocated(one_gib_free):
    from fastttt.dfpn import ProofSearch
    from fastttt.errors import MemoryBudgetError
    from fastttt.search import Searcher
    from fastttt.ultimate.proof import Prover

    with pytest.raises(MemoryBudgetError, match=r"2\*\*28 entries \(8 bytes each\) needs 2.0 GiB"):
        Searcher(connect4, tt_bits=28)
    with pytest.raises(MemoryBudgetError, match=r"needs 6.0 GiB; 0.9 GiB is available"):
        Prover(28)
    with pytest.raises(MemoryBudgetError, match="df-pn table"):
        ProofSearch(tictactoe, tt_bits=28)
    assert Searcher(connect4, tt_bits=20).tt.nbytes == 8 << 20  # what fits is allocated


def test_prove_refuses_a_table_too_big_in_one_line(one_gib_free):
    result = CliRunner().invoke(
        main, ["prove", "--moves", "5,5 5,1 1,5", "--max-nodes", "1000", "--tt-bits", "28"]
    )
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: a proof table of 2**28 entries")


def test_public_functions_check_their_arguments(tmp_path):
    from fastttt.errors import InvalidArgumentError
    from fastttt.solver import solve
    from fastttt.store import save

    with pytest.raises(InvalidArgumentError, match="solution must be a solved table"):
        save(None, tmp_path / "x.fttt")
    with pytest.raises(InvalidArgumentError, match="max_bytes must be an integer, got 'x'"):
        solve("3x3k3", max_bytes="x")
    assert list(tmp_path.iterdir()) == []
