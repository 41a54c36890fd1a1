"""Connect Four by search: the End-Easy benchmark set, move strings and the stdin filter.

Scores: side to move, 0 draw, 22 - s for a win with the winner's s-th stone (7 x 6).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np
import pytest

from fastttt.errors import GameSpecError, IllegalMoveError, InvalidPositionError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import connect4, mnk, tictactoe
from fastttt.search.alphabeta import Searcher, move_scores, solve_batch, solve_position
from fastttt.search.connect4 import (
    from_move_string,
    parse_move_lines,
    read_benchmark,
    run_filter,
    to_move_string,
)

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "connect4"
END_EASY = DATA / "Test_L3_R1"
# CI always has ../shared beside the clone: there a missing set must fail, not skip.
needs_data = pytest.mark.skipif(
    not END_EASY.exists() and not os.environ.get("CI"), reason="benchmark data not in ../shared"
)


@needs_data
def test_end_easy_all_exact():
    moves, expected = read_benchmark(END_EASY)
    assert len(moves) == 1000
    s = Searcher(connect4)
    batch, errors = parse_move_lines(s, moves)
    assert not any(errors)
    scores, nodes = solve_batch(s, batch)
    assert np.array_equal(scores, expected)
    weak, _ = solve_batch(s, batch, weak=True)
    assert np.array_equal(weak, np.sign(expected))


@needs_data
def test_end_easy_sample_through_the_api_and_filter():
    moves, expected = read_benchmark(END_EASY)
    pairs = list(zip(moves[:30], expected[:30], strict=True))
    for m, e in pairs:
        assert solve_position(from_move_string(connect4, m)).score == e
    out, err = io.StringIO(), io.StringIO()
    assert run_filter(connect4, [f"{m} {e}\n" for m, e in pairs], out, err) == 0
    assert out.getvalue().splitlines() == [f"{m} {e}" for m, e in pairs]
    assert err.getvalue() == ""


def test_move_strings_round_trip():
    pos = from_move_string(connect4, "4455")
    assert pos == Position.from_moves(connect4, [3, 3, 4, 4])
    assert to_move_string([3, 3, 4, 4]) == "4455"


@pytest.mark.parametrize(
    "moves, message",
    [
        ("448", r"move 3 \('8'\) is not a column 1..7"),
        ("40", r"move 2 \('0'\)"),
        ("1111111", r"move 7 \(1\) is in a full column"),
        ("1212121", r"game ended|already over"),
        ("12121212", r"move 8 \(2\) comes after the game ended"),
    ],
)
def test_bad_move_strings(moves, message):
    with pytest.raises(InvalidPositionError, match=message):
        pos = from_move_string(connect4, moves)
        solve_position(pos)


def test_move_strings_need_gravity():
    with pytest.raises(GameSpecError):
        from_move_string(tictactoe, "12")


def test_filter_bad_lines_go_on():
    lines = ["4455", "448", "1111111", "1212121", "44455554221 -15"]
    out, err = io.StringIO(), io.StringIO()
    assert run_filter(connect4, lines, out, err) == 3
    assert out.getvalue().splitlines() == ["4455 18", "", "", "", "44455554221 -15"]
    errors = err.getvalue().splitlines()
    assert [e.split(":")[0] for e in errors] == ["line 2", "line 3", "line 4"]
    assert "not a column" in errors[0] and "full column" in errors[1]
    assert "already over" in errors[2]


def test_filter_kernel_parse_agrees_with_python_parse():
    s = Searcher(connect4)
    lines = ["4455", "448", "1111111", "1212121", "12121212", "", "4"]
    batch, errors = parse_move_lines(s, lines)
    for line, error, cur, mask in zip(lines, errors, batch.curs, batch.masks, strict=True):
        try:
            pos = from_move_string(connect4, line)
            ok = not pos.is_over()
        except IllegalMoveError:
            ok = False
        assert (error is None) == ok, line
        if ok:
            c, m, _ = s.internal(pos)
            assert (int(cur), int(mask)) == (c, m)


def test_filter_all_moves_weak_and_nodes():
    out, err = io.StringIO(), io.StringIO()
    run_filter(connect4, ["44455554221"], out, err, all_moves=True)
    fields = out.getvalue().split()
    assert fields[0] == "44455554221" and len(fields) == 8
    expected = move_scores(from_move_string(connect4, "44455554221"))
    assert [int(f) for f in fields[1:]] == [expected[c] for c in range(7)]
    assert max(int(f) for f in fields[1:]) == -15

    out = io.StringIO()
    run_filter(connect4, ["1111112222223"], out, err, all_moves=True)
    assert out.getvalue().split()[1:3] == ["-", "-"]

    out = io.StringIO()
    run_filter(connect4, ["4455", "44455554221"], out, err, weak=True)
    assert out.getvalue().splitlines() == ["4455 1", "44455554221 -1"]

    out = io.StringIO()
    run_filter(connect4, ["4455"], out, err, nodes=True)
    moves, score, nodes, micros = out.getvalue().split()
    assert (moves, score) == ("4455", "18") and int(nodes) >= 0 and float(micros) >= 0


def test_filter_free_boards_use_text():
    out, err = io.StringIO(), io.StringIO()
    bad = run_filter(tictactoe, ["XX./OO./...", "XXX/OO./...", "X.X/.O./X.O", "zz"], out, err)
    assert bad == 2
    assert out.getvalue().splitlines() == ["XX./OO./... 3", "", "X.X/.O./X.O -2", ""]
    assert err.getvalue().splitlines()[0].startswith("line 2:")
    assert err.getvalue().splitlines()[1].startswith("line 4:")


def test_filter_other_gravity_board():
    spec = mnk(4, 5, 4, gravity=True)
    out, err = io.StringIO(), io.StringIO()
    assert run_filter(spec, ["33", "6"], out, err) == 1
    first = out.getvalue().splitlines()[0]
    assert first == f"33 {solve_position(from_move_string(spec, '33')).score}"
    assert "not a column 1..5" in err.getvalue()


# file, positions checked by default (Begin-Hard: seconds each; FASTTTT_C4_HARD=1000 for all)
PUBLIC_SETS = [
    ("Test_L3_R1", None),
    ("Test_L2_R1", None),
    ("Test_L2_R2", None),
    ("Test_L1_R1", None),
    ("Test_L1_R2", None),
    ("Test_L1_R3", "FASTTTT_C4_HARD"),
]


@pytest.mark.slow
@needs_data
@pytest.mark.parametrize("weak", [False, True], ids=["exact", "weak"])
@pytest.mark.parametrize("name, limit", PUBLIC_SETS, ids=[s[0] for s in PUBLIC_SETS])
def test_public_sets_through_the_filter(name, limit, weak):
    # the six sets, whole lines ("<moves> <score>") through the filter as a stream
    text = (DATA / name).read_text()
    if limit:
        text = "".join(text.splitlines(keepends=True)[: int(os.environ.get(limit, "50"))])
    out, err = io.StringIO(), io.StringIO()
    source = io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8")
    assert run_filter(connect4, source, out, err, weak=weak) == 0 and err.getvalue() == ""
    answers = out.getvalue().splitlines()
    assert len(answers) == len(text.splitlines())
    for line, answer in zip(text.splitlines(), answers, strict=True):
        moves, score = line.split()
        expected = int(np.sign(int(score))) if weak else int(score)
        assert answer == f"{moves} {expected}", line
