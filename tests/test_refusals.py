"""Issue 25's reproducers: inputs that hung, became another game, or were read as something
else are refused with one line (exit 2 for arguments, ``line N:`` in the filter), never a
traceback; each check runs the real command line or API."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from fastttt.cli import main
from fastttt.errors import GameSpecError
from fastttt.games.mnk.spec import GameSpec, connect4, spec_from_name, tictactoe
from fastttt.games.registry import load_game

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
        ("00003x3k3", tictactoe),  # leading zeros are not a huge board
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
    "typed, meant", [("solv", "solve"), ("Solve", "solve"), ("porve", "prove")]
)
def test_an_unknown_command_gets_a_close_match(typed, meant):
    result = CliRunner().invoke(main, [typed])
    assert result.exit_code == 2
    assert f"no such command {typed!r} (did you mean {meant!r}?); commands: bench," in result.stderr


def test_an_unknown_command_far_from_any_lists_them():
    result = CliRunner().invoke(main, ["xyz"])
    assert result.exit_code == 2 and "did you mean" not in result.stderr
    assert "no such command 'xyz'; commands: bench, book," in result.stderr


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
    from fastttt.errors import MemoryBudgetError
    from fastttt.search.alphabeta import Searcher
    from fastttt.search.dfpn import ProofSearch
    from fastttt.search.ultimate.proof import Prover

    with pytest.raises(MemoryBudgetError, match=r"2\*\*28 entries \(8 bytes each\) needs 2.0 GiB"):
        Searcher(connect4, tt_bits=28)
    with pytest.raises(MemoryBudgetError, match=r"needs 6.2 GiB; 921.6 MiB is available"):
        Prover(28)
    with pytest.raises(MemoryBudgetError, match=r"df-pn's memory \(a table of 2\*\*28 rows"):
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
    from fastttt.tables.dense import solve
    from fastttt.tables.dense_store import save

    with pytest.raises(InvalidArgumentError, match="solution must be a solved table"):
        save(None, tmp_path / "x.fttt")
    with pytest.raises(InvalidArgumentError, match="max_bytes must be an integer, got 'x'"):
        solve("3x3k3", max_bytes="x")
    assert list(tmp_path.iterdir()) == []


# --- tables that know what they are ------------------------------------------------------------
def _forge(path, prefix: bytes, table: bytes) -> None:
    """A table file whose checksum covers ``prefix`` (magic, length, header) and ``table``."""
    import struct
    import zlib

    crc = zlib.crc32(table, zlib.crc32(prefix))
    path.write_bytes(prefix + table + struct.pack("<I", crc))


def _prefix_and_table(path) -> tuple[bytes, bytes]:
    import struct

    from fastttt.tables.dense_store import MAGIC

    data = path.read_bytes()
    at = len(MAGIC)
    (length,) = struct.unpack("<I", data[at : at + 4])
    return data[: at + 4 + length], data[at + 4 + length : -4]


def test_dense_tables_are_checked_for_sense(tmp_path):
    from fastttt.errors import TableFileError
    from fastttt.tables.dense import solve
    from fastttt.tables.dense_store import load, save

    k3, k2 = tmp_path / "k3.fttt", tmp_path / "k2.fttt"
    save(solve("3x3k3"), k3)
    save(solve("3x3k2"), k2)
    prefix3, table3 = _prefix_and_table(k3)
    prefix2, _ = _prefix_and_table(k2)
    assert load(k3).value([]) == 0  # the untouched file loads
    _forge(tmp_path / "ff.fttt", prefix3, b"\xff" * len(table3))
    with pytest.raises(TableFileError, match="a depth of 63 plies on a board of 9 cells"):
        load(tmp_path / "ff.fttt")
    _forge(tmp_path / "zero.fttt", prefix3, b"\x04" * len(table3))
    with pytest.raises(TableFileError, match="not a value code"):
        load(tmp_path / "zero.fttt")
    _forge(tmp_path / "swap.fttt", prefix2, table3)  # a k=3 table under a k=2 header
    with pytest.raises(TableFileError, match="the rules of mnk.rows=3,cols=3,k=2. say otherwise"):
        load(tmp_path / "swap.fttt")
    _forge(tmp_path / "short.fttt", prefix3, table3[:-1])
    with pytest.raises(TableFileError, match="bytes"):
        load(tmp_path / "short.fttt")
    result = CliRunner().invoke(main, ["solve", "--load", str(tmp_path / "swap.fttt")])
    assert result.exit_code in (1, 2) and result.stderr.count("\n") == 1
    assert result.stderr.startswith("Error: ") and "Traceback" not in result.stderr


@pytest.fixture(scope="module")
def layered(tmp_path_factory):
    """A layered 4x4 Connect-4 table and a 4x4 k=3 one, solved once."""
    base = tmp_path_factory.mktemp("layered")
    for name, game in (("L", "4x4k4g"), ("L2", "4x4k3g")):
        result = CliRunner().invoke(main, ["solve", game, "--out", str(base / name)])
        assert result.exit_code == 0, result.output
    return base


def _answer(folder, moves):
    result = CliRunner().invoke(main, ["solve", "--load", str(folder), "--moves", moves, "--json"])
    return result.exit_code, result.stdout, result.stderr


def test_a_layered_chunk_from_another_layer_is_refused(layered, tmp_path):
    import shutil

    folder = tmp_path / "swapped"
    shutil.copytree(layered / "L", folder)
    a, b = folder / "value" / "15" / "c" / "0", folder / "value" / "16" / "c" / "0"
    a_bytes, b_bytes = a.read_bytes(), b.read_bytes()
    a.write_bytes(b_bytes)
    b.write_bytes(a_bytes)
    code, out, err = _answer(folder, "31412313423242")
    assert code in (1, 2) and out == "" and err.count("\n") == 1
    assert "does not belong here" in err and "Traceback" not in err


def test_a_manifest_from_another_folder_is_refused(layered, tmp_path):
    import shutil

    folder = tmp_path / "foreign"
    shutil.copytree(layered / "L", folder)
    shutil.copy(layered / "L2" / "manifest.json", folder / "manifest.json")
    code, out, err = _answer(folder, "3141")
    assert code in (1, 2) and out == "" and err.count("\n") == 1
    assert "from another folder" in err


def test_a_missing_chunk_of_the_next_layer_is_one_line(layered, tmp_path):
    import shutil

    folder = tmp_path / "missing"
    shutil.copytree(layered / "L", folder)
    (folder / "value" / "15" / "c" / "0").unlink()
    code, out, err = _answer(folder, "31412313423242")
    assert code in (1, 2) and err.count("\n") == 1 and "Traceback" not in err
    assert "layer 15 chunk 0 of value is missing" in err


@given(
    rows=st.integers(1, 9),
    cols=st.integers(1, 9),
    k=st.integers(1, 9),
    gravity=st.booleans(),
    at=st.integers(0, 6),
    junk=st.sampled_from(["-", "+", "_", ".", "--", "-0"]),  # spaces around: stripped
)
@settings(max_examples=200, deadline=None)
def test_compact_names_parse_as_written_or_not_at_all(rows, cols, k, gravity, at, junk):
    name = f"{rows}x{cols}k{k}{'g' if gravity else ''}"
    if k <= max(rows, cols):
        assert spec_from_name(name) == GameSpec(rows, cols, k, gravity)
    broken = name[:at] + junk + name[at:]
    with pytest.raises(GameSpecError):
        spec_from_name(broken)
