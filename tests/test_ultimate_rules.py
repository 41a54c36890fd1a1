"""Ultimate tic-tac-toe rules: bitboard state and Numba kernels against the plain reference."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fastttt.errors import IllegalMoveError, InvalidPositionError
from fastttt.games.registry import as_game
from fastttt.kernels import ultimate as K
from fastttt.ultimate import ULTIMATE, ULTIMATE_OPEN, UltimateState, parse_move, render

from ultimate_reference import RefState


def _check_game(seed: int, open_won_boards: bool, text_every: int = 7) -> int:
    """Play one random game in the three implementations, comparing them at every ply."""
    rng = random.Random(seed)
    state = UltimateState(open_won_boards)
    ref = RefState(open_won_boards=open_won_boards)
    arr = state.array()
    buf = np.zeros(81, dtype=np.int32)
    plies = 0
    while True:
        moves = state.legal_moves()
        assert moves == ref.legal_moves()
        n = K.gen_moves(arr, buf)
        assert list(buf[:n]) == moves
        assert tuple(int(v) for v in arr) == state._s
        w = ref.winner()
        assert state.winner() == (None if w is None else "XO".index(w))
        assert state.is_over() == (not moves)
        assert state.is_draw() == (not moves and w is None)
        if plies % text_every == 0 or not moves:
            assert UltimateState.from_text(str(state)) == state
            assert eval(repr(state), {"UltimateState": UltimateState}) == state
        if not moves:
            assert state.forced_board is None
            with pytest.raises(IllegalMoveError, match="over"):
                state.play(0)
            return plies
        f = state.forced_board
        if f is not None:
            assert all(m // 9 == f for m in moves)
            assert not state.closed_mask() >> f & 1
        assert all(not state.closed_mask() >> (m // 9) & 1 for m in moves)
        assert all(state.cell(m) is None for m in moves)
        move = rng.choice(moves)
        before = state._s
        nxt = state.play(move)
        assert state._s == before  # play never mutates
        assert nxt.cell(move) == state.to_move and nxt.ply == state.ply + 1
        assert nxt.to_move == 1 - state.to_move
        state, ref = nxt, ref.play(move)
        K.apply_move(arr, move)
        plies += 1


@pytest.mark.parametrize("open_won_boards", [False, True])
def test_random_games_agree_with_reference(open_won_boards):
    lengths = [_check_game(seed, open_won_boards) for seed in range(1200)]
    assert min(lengths) >= 17  # a frame line needs three boards of three stones
    assert max(lengths) <= 81


@pytest.mark.slow
@pytest.mark.parametrize("open_won_boards", [False, True])
def test_many_random_games_agree_with_reference(open_won_boards):
    for seed in range(1000, 6000):
        _check_game(seed, open_won_boards, text_every=20)


def test_random_move_is_legal_and_roughly_uniform():
    rng = np.array([987654321], dtype=np.uint64)
    for s in (
        UltimateState(),
        UltimateState.from_moves([40, 36, 4]),
        UltimateState.from_moves(CLAIM0),
    ):
        arr = s.array()
        legal = s.legal_moves()
        counts = dict.fromkeys(legal, 0)
        draws = 300 * len(legal)
        for _ in range(draws):
            m = int(K.random_move(arr, rng))
            counts[m] += 1  # KeyError if illegal
        expected = draws / len(legal)
        assert all(0.6 * expected < c < 1.4 * expected for c in counts.values())


def test_random_playouts_counts():
    n = 20_000
    xw, ow, dr, moves = K.random_playouts(UltimateState().array(), n, K.rng_state(12345))
    assert xw + ow + dr == n
    assert 17 * n <= moves <= 81 * n
    # 6000 random games with the plain reference rules (seed 5) gave X 41.3 %, O 37.4 %,
    # draws 21.3 % (standard error about 0.6 %); the kernel's games must match
    assert 0.395 < xw / n < 0.43 and 0.355 < ow / n < 0.39 and 0.195 < dr / n < 0.235


# X: 4, 0, 17, 8, 9; O: 36, 1, 72, 73 -- X claims board 0 (cells 0, 4, 8) with move 7
CLAIM0 = [4, 36, 0, 1, 17, 72, 8, 73, 9]


def test_forced_board_and_free_choice():
    s = UltimateState().play(40)  # X in the centre cell of the centre board
    assert s.forced_board == 4 and s.legal_moves() == [36, 37, 38, 39, 41, 42, 43, 44]
    with pytest.raises(IllegalMoveError, match="must be in board 5"):
        s.play(0)
    with pytest.raises(IllegalMoveError, match="taken"):
        s.play(40)
    # X claims board 0 with cells 0, 4, 8 (its 7th move), O is sent to board 8
    s = UltimateState.from_moves(CLAIM0[:7])
    assert s.claims()[0] == 0 and s.closed_mask() == 1 and s.forced_board == 8
    # later O is sent to the claimed board 0: free choice of any other open board
    s = UltimateState.from_moves(CLAIM0)
    assert s.to_move == 1 and s.forced_board is None
    assert all(m // 9 != 0 for m in s.legal_moves()) and len(s.legal_moves()) == 81 - 9 - 5
    with pytest.raises(IllegalMoveError, match="board 1 is finished"):
        s.play(2)


def test_won_board_variant_keeps_board_open():
    std = UltimateState.from_moves(CLAIM0)
    var = UltimateState.from_moves(CLAIM0, open_won_boards=True)
    assert std.claims() == var.claims()
    assert std.forced_board is None and var.forced_board == 0
    assert var.legal_moves() == [2, 3, 5, 6, 7]
    assert str(var).endswith(" open")
    assert UltimateState.from_text(str(var)) == var


def _text(x_moves, o_moves, tail=""):
    """Position text with X on ``x_moves`` and O on ``o_moves`` (0..80), then ``tail``."""
    grid = []
    for r in range(9):
        row = ""
        for c in range(9):
            m = (r // 3 * 3 + c // 3) * 9 + (r % 3) * 3 + c % 3
            row += "X" if m in x_moves else "O" if m in o_moves else "."
        grid.append(row)
    return "/".join(grid) + tail


def test_frame_line_wins_and_full_board_claims_nothing():
    x = {0, 1, 2, 9, 10, 11, 18, 19}  # X holds boards 0 and 1, two in a row in board 2
    o = {27, 28, 36, 37, 45, 46, 54, 55}
    s = UltimateState.from_text(_text(x, o, " XX....... 2"))
    assert s.to_move == 0 and s.forced_board == 2 and s.claims()[:3] == (0, 0, None)
    won = s.play(20)
    assert won.is_over() and won.winner() == 0 and won.legal_moves() == []
    assert str(won).split()[1:] == ["XXX......", "*"]
    assert UltimateState.from_text(str(won)) == won
    # a full board without a line is closed and claims nothing
    x = {0, 2, 3, 7, 8}
    o = {1, 4, 5, 6}
    s = UltimateState.from_text(_text(x, o, " ......... *"))
    assert s.closed_mask() == 1 and s.claims()[0] is None
    assert s.legal_moves() == list(range(9, 81))


@pytest.mark.parametrize(
    "text, message",
    [
        ("X" * 81, "as many stones"),
        ("." * 80, "80 cells"),
        ("." * 80 + "Z", "'Z'"),
        ("." * 81 + " X........ *", "claimed by X"),
        ("." * 81 + " ......... 9", "0..8"),
        ("." * 81 + " ...", "9 characters"),
        ("XXX......" + "OO......." + "." * 63 + " X........ 0", "finished"),
        ("a b c d e", "expected"),
    ],
)
def test_from_text_errors(text, message):
    with pytest.raises(InvalidPositionError, match=message):
        UltimateState.from_text(text)


def test_from_moves_reports_first_bad_move():
    with pytest.raises(IllegalMoveError, match="move 3"):
        UltimateState.from_moves([40, 36, 40])
    with pytest.raises(IllegalMoveError, match="0..80"):
        UltimateState().play(81)
    with pytest.raises(IllegalMoveError, match="integer"):
        UltimateState().play(True)


def test_spec_objects():
    assert ULTIMATE.name == "ultimate" and "nine" in ULTIMATE.describe()
    game, game_open = as_game(ULTIMATE), as_game(ULTIMATE_OPEN)  # the specs' games
    assert game.spec == ULTIMATE and game_open.spec == ULTIMATE_OPEN
    assert game.initial() == UltimateState() and game.initial().spec == ULTIMATE
    assert game_open.initial().open_won_boards
    assert len(game.initial().legal_moves()) == 81


def test_render_marks_forced_board_and_last_move():
    s = UltimateState().play(40)
    text = render(s, last_move=40)
    assert "(X)" in text and "O to move in board 5" in text
    grid = [line[:30] for line in text.splitlines()]
    assert sum(g.count(".") for g in grid) == 8  # only the forced board's cells are playable
    assert "." in text.splitlines()[3][30:]  # the frame drawing beside the grid
    grid_rows = [line for line in text.splitlines() if line.strip()[:1].isdigit()][1:]
    assert len({len(r.split("    ")[0]) for r in grid_rows}) == 1  # aligned


def test_render_marks_claimed_boards():
    s = UltimateState.from_moves(CLAIM0)
    text = render(s)
    lines = text.splitlines()
    assert lines[2][:30].split("|")[1].strip() == "x o"  # board 1, claimed: lower case
    assert lines[3][30:].split()[-3:] == ["X", ".", "."]  # the frame: board 1 is X's
    assert "O to move in any open board" in text


def test_parse_move_forms():
    s = UltimateState()
    assert parse_move(s, "5,1") == 36
    assert parse_move(s, "r4c4") == 36
    assert parse_move(s, " 9 9 ") == 80
    s = s.play(40)
    assert parse_move(s, "3") == 38
    with pytest.raises(IndexError):
        parse_move(s, "10,1")
    with pytest.raises(ValueError, match="not a move"):
        parse_move(s, "hello")
    with pytest.raises(IllegalMoveError, match="must be in board 5"):
        parse_move(s, "1,1")
    with pytest.raises(ValueError, match="no board is forced"):
        parse_move(UltimateState(), "3")
