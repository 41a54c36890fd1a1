"""Positions: encodings round-trip, errors say what and where, random games keep invariants."""

import random

import pytest

from fastttt import GameSpecError, IllegalMoveError, InvalidPositionError, Position, load_game, mnk
from fastttt.games.mnk.board import numbers_from_move_text, win_masks

GAMES = ["tictactoe", "connect4", "4x4k3", "5x4k4", "4x5k4g", "1x7k3", "6x2k2g"]


def test_rows_are_rows_and_cols_are_cols():
    spec = mnk(2, 3, 2)  # 2 rows of 3 cells
    pos = Position.from_moves(spec, [2, 3])  # top-right X, bottom-left O
    assert str(pos) == "..X/O.."
    assert pos.code == 1 * 3**2 + 2 * 3**3


def test_win_masks_counts():
    assert len(win_masks(mnk(3, 3, 3))) == 8
    assert len(win_masks(load_game("connect4"))) == 69
    assert len(win_masks(mnk(4, 5, 4))) == 4 * 2 + 5 * 1 + 2 * 2


@pytest.mark.parametrize("game", GAMES)
def test_random_games_keep_invariants(game):
    spec = load_game(game)
    rng = random.Random(game)
    for _ in range(200):
        pos = Position.empty(spec)
        while not pos.is_over():
            assert Position.from_text(spec, str(pos)) == pos
            assert Position.from_code(spec, pos.code) == pos
            assert eval(repr(pos), {"Position": Position}) == pos
            moves = pos.legal_moves()
            assert moves and moves == sorted(set(moves))
            before = (pos.first, pos.second)
            child = pos.play(rng.choice(moves))
            assert (pos.first, pos.second) == before  # play never mutates
            assert child.ply == pos.ply + 1 and child.to_move != pos.to_move
            pos = child
        assert pos.legal_moves() == []
        assert pos.winner() is not None or pos.is_full()
        with pytest.raises(IllegalMoveError, match="already over"):
            pos.play(0)


def test_errors_name_what_and_where():
    with pytest.raises(IllegalMoveError, match=r"move 3 \(0\): cell 0 .* is taken"):
        Position.from_moves("tictactoe", [0, 1, 0])
    with pytest.raises(IllegalMoveError, match="column 7 is off the board"):
        Position.from_moves("connect4", [7])
    with pytest.raises(IllegalMoveError, match="column 0 is full"):
        Position.from_moves(mnk(2, 2, 2, gravity=True), [0, 0, 0])
    with pytest.raises(InvalidPositionError, match="cell 4 is 'Z'"):
        Position.from_text("tictactoe", "X...Z....")
    with pytest.raises(InvalidPositionError, match="as many stones as O or one more"):
        Position.from_text("tictactoe", "OO./.../...")
    with pytest.raises(InvalidPositionError, match="row 1, column 2 cannot float"):
        Position.from_text(mnk(2, 2, 2, gravity=True), ".X/O.")
    assert Position.from_text(mnk(2, 2, 2, gravity=True), "X./O.").ply == 2  # X rests on O
    with pytest.raises(GameSpecError, match="unknown game"):
        load_game("chess")


@pytest.mark.parametrize(
    "game, text, message",
    [
        ("3x4k3", "X../.O./.../...", "row 1 has 3 cells, expected 4"),  # 4 rows of 3, O moved
        ("4x3k3", "X.../.O../....", "row 1 has 4 cells, expected 3"),
        ("tictactoe", "X../.O./..../..", "row 3 has 4 cells, expected 3"),
        ("tictactoe", "X../.O./.../", "4 rows, expected 3"),
        ("tictactoe", "X../.O.", "2 rows, expected 3"),
        ("tictactoe", "X...O..../", "row 1 has 9 cells, expected 3"),
    ],
)
def test_a_text_with_slashes_has_the_board_s_rows(game, text, message):
    with pytest.raises(InvalidPositionError, match=message):
        Position.from_text(game, text)


@pytest.mark.parametrize(
    "text", ["X../.O./...", "x../.o./...", "X . . / . O . / . . .", "X...O...."]
)
def test_texts_people_write_still_read(text):
    # slashes optional; without them the cells are read row by row
    assert str(Position.from_text("tictactoe", text)) == "X../.O./..."
    assert str(Position.from_text("3x4k3", "X.../.O../....")) == "X.../.O../...."


def test_game_names():
    assert str(load_game("connect4")) == "connect4"
    assert load_game("connect4") == mnk(6, 7, 4, gravity=True)
    assert load_game("mnk", rows=5, cols=4, k=4) == load_game("5x4k4")
    assert load_game(str(mnk(4, 5, 3, gravity=True))) == mnk(4, 5, 3, gravity=True)
    assert load_game("tictactoe", k=2) == mnk(3, 3, 2)


@pytest.mark.parametrize(
    "text, digits, numbers",
    [
        ("", False, []),
        ("  ", True, []),
        ("0,4", False, [0, 4]),
        (" 0 , 4 ", False, [0, 4]),
        ("4455", True, [4, 4, 5, 5]),
        ("1,10", True, [1, 10]),
        ("4455", False, [4455]),
    ],
)
def test_move_text_numbers(text, digits, numbers):
    assert numbers_from_move_text(text, digits=digits) == numbers


@pytest.mark.parametrize(
    "text, digits, words",
    [
        ("0 4", False, "character 2"),
        ("4 0", False, "whitespace inside a move"),
        ("44 55", True, "character 3"),
        ("4\u30004", True, "whitespace"),
        ("0,,4", False, "move 2 is empty"),
        ("0,4,", False, "move 3 is empty"),
        ("-1", False, "'-' is not a digit"),
        ("\u0663", True, "is not a digit"),
        ("9" * 8, False, "too long"),
    ],
)
def test_move_text_refuses_glued_and_odd_moves(text, digits, words):
    # "0 4" used to be read as the single move 4 (the space dropped), "4 0" as 40
    with pytest.raises(InvalidPositionError, match=words):
        numbers_from_move_text(text, digits=digits)
