"""Property tests of the ``solve --stdin`` filter (:func:`fastttt.search.connect4.run_filter`).

Random lines (control characters, Unicode spaces, long lines, move strings with noise) on small
boards, so that every search is quick: each line is answered or refused on its own line, the
filter goes on, and a refused line names its number. A line is answered only when it is
exactly a position (see ``_parse_line``): it was a search of hours when a line holding only a
control character or a Unicode space was read as the empty 7 x 6 board. About 10 s in all;
``-m slow`` runs many more examples.
"""

from __future__ import annotations

import io
import re

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fastttt.cli import main
from fastttt.errors import FastTTTError, InvalidPositionError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import connect4
from fastttt.games.registry import load_game
from fastttt.search.connect4 import _parse_line, run_filter

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None
)
LONG = settings(FUZZ, max_examples=3000)

GRAVITY, FREE = load_game("4x4k3g"), load_game("3x4k3")
ODD = [
    "\x00",
    "\x1c",
    "\x1f",
    "\x7f",
    "\x85",
    "\u00a0",
    "\u2028",
    "\u3000",
    "\u200b",
    "\ufeff",
    "\t",
    " ",
    "\r",
    "\v",
    "\f",
    "é",
    "٣",
]
PRINTABLE_LINE = re.compile(r"[!-~][ -~\t]*|")  # starts with a visible character, or empty

move_strings = st.lists(st.integers(1, 4), max_size=10).map(lambda c: "".join(map(str, c)))
free_texts = st.lists(st.sampled_from(".XO"), min_size=12, max_size=12).map(
    lambda cells: "/".join("".join(cells[r * 4 : r * 4 + 4]) for r in range(3))
)


def noisy(base: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``base`` with odd characters inserted, a score appended, or a line ending."""
    return st.builds(
        lambda text, where, odd, tail: (
            text[: where % (len(text) + 1)] + odd + text[where % (len(text) + 1) :] + tail
        ),
        base,
        st.integers(0, 20),
        st.sampled_from(["", *ODD]),
        st.sampled_from(["", " 3", "\t-2", "\n", "\r\n", "\r", " x\x00"]),
    )


def lines_for(base: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    return st.lists(
        st.one_of(
            base,
            noisy(base),
            st.text(max_size=12),
            st.sampled_from(ODD),
            st.just("1" * 5000),
            st.text(alphabet="1234 ", min_size=100, max_size=400),
        ),
        max_size=5,
    )


def filtered(spec, lines, **options) -> tuple[list[str], list[str], int]:
    out, err = io.StringIO(), io.StringIO()
    bad = run_filter(spec, lines, out, err, **options)
    return out.getvalue().split("\n")[:-1], err.getvalue().splitlines(), bad


def check_line_by_line(lines, out, err, bad) -> None:
    """One answer line per line in (empty when refused) and one error line per refusal."""
    assert len(out) == len(lines) and bad == len(err)
    refused = [i + 1 for i, answer in enumerate(out) if answer == ""]
    assert [int(e.split(":")[0].removeprefix("line ")) for e in err] == refused


def parsed(spec, line) -> Position | None:
    try:
        return _parse_line(spec, line)
    except FastTTTError:
        return None


def check_strict(spec, lines, out) -> None:
    """An answered line is exactly a position (after its line ending), and its answer starts
    with that position's field; a line with odd characters is refused."""
    for line, answer in zip(lines, out, strict=True):
        body = line.rstrip("\r\n")  # as run_filter strips (stdin's lines end once)
        if not PRINTABLE_LINE.fullmatch(body):
            assert answer == "", (line, answer)
        if answer:
            assert parsed(spec, body) is not None
            assert answer.split(" ")[0] == body.replace("\t", " ").split(" ")[0]


@FUZZ
@given(lines=lines_for(move_strings), weak=st.booleans())
def test_gravity_lines_with_all_moves(lines, weak):
    out, err, bad = filtered(GRAVITY, lines, all_moves=True, weak=weak)
    check_line_by_line(lines, out, err, bad)
    check_strict(GRAVITY, lines, out)


@FUZZ
@given(lines=lines_for(free_texts))
def test_free_board_lines(lines):
    out, err, bad = filtered(FREE, lines)
    check_line_by_line(lines, out, err, bad)
    check_strict(FREE, lines, out)


@FUZZ
@given(lines=lines_for(move_strings), nodes=st.booleans())
def test_gravity_lines_fast_path(lines, nodes):
    # the kernel-parsed path (gravity, no --all-moves): answered or refused line by line,
    # under the same line rule as the other paths
    out, err, bad = filtered(GRAVITY, lines, nodes=nodes)
    check_line_by_line(lines, out, err, bad)
    check_strict(GRAVITY, lines, out)


@FUZZ
@given(lines=lines_for(move_strings))
def test_the_command_line_filter(lines):
    text = "".join(line if line.endswith(("\n", "\r")) else line + "\n" for line in lines)
    result = CliRunner().invoke(main, ["solve", "4x4k3g", "--stdin", "--all-moves"], input=text)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code in (0, 1) and "Traceback" not in result.output
    assert all(e.startswith("line ") for e in result.stderr.splitlines())


@pytest.mark.parametrize(
    "line",
    ["\x00", "\x1c", "\u3000", "\u00a0", "\u2028", " 4455", "44\x0055", "4455\x85", "\ufeff4455"],
)
def test_odd_lines_are_refused_not_the_empty_board(line):
    # a line holding only a control character or a Unicode space was the empty 7 x 6 board
    with pytest.raises(InvalidPositionError, match="column"):
        _parse_line(connect4, line)
    for all_moves in (True, False):  # False: the fast path, parsed in the kernel
        out, err, bad = filtered(connect4, [line, "4455"], all_moves=all_moves)
        assert bad == 1 and err[0].startswith("line 1: column") and out[0] == ""
        assert out[1].startswith("4455 ")


@pytest.mark.parametrize(
    "line, moves",
    [("", ""), ("\n", ""), ("4455\r\n", "4455"), ("4455 18", "4455"), ("4455\t18\n", "4455")],
)
def test_what_a_line_holds(line, moves):
    # an empty line is the empty move sequence: the empty board with gravity
    assert _parse_line(GRAVITY, line.replace("5", "3")) == Position.from_moves(
        GRAVITY, [int(c) - 1 for c in moves.replace("5", "3")]
    )


def test_an_empty_line_is_refused_on_free_boards():
    with pytest.raises(InvalidPositionError):
        _parse_line(FREE, "")


@pytest.mark.slow
@LONG
@given(lines=st.one_of(lines_for(move_strings), lines_for(free_texts)), all_moves=st.booleans())
def test_filter_long(lines, all_moves):
    for spec in (GRAVITY, FREE):
        out, err, bad = filtered(spec, lines, all_moves=all_moves)
        check_line_by_line(lines, out, err, bad)
        check_strict(spec, lines, out)
