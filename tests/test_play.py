"""The game loop driven by scripted input, the board drawing and the typed-move parser."""

from __future__ import annotations

import random
import re

import pytest

from fastttt.errors import IllegalMoveError, InvalidArgumentError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import connect4, tictactoe
from fastttt.games.registry import load_game
from fastttt.play.loop import GameRecord, game_ui, hint_lines, play_game
from fastttt.play.players import make_player, move_outcomes
from fastttt.views.text import describe_move, format_move, parse_move, render


class Script:
    """``read`` for the loop: returns the scripted lines, then raises ``end``."""

    def __init__(self, lines, end=EOFError):
        self.lines = list(lines)
        self.end = end
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise self.end
        return self.lines.pop(0)


def run(spec, lines, x="human", o="human", end=EOFError, **kw):
    out: list[str] = []
    script = Script(lines, end)
    rec = play_game(
        Position.empty(spec),
        (make_player(x, spec), make_player(o, spec)),
        rng=random.Random(0),
        read=script,
        write=out.append,
        **kw,
    )
    return rec, "\n".join(out), script


# --- render and parse ----------------------------------------------------------------------


def test_render_labels_and_cells():
    pos = Position.from_text(tictactoe, "X.O/.X./..O")
    lines = render(pos).splitlines()
    assert lines[0].split() == ["1", "2", "3"]
    assert lines[2] == "1 | X |   | O |"
    assert lines[4] == "2 |   | X |   |"
    assert lines[6] == "3 |   |   | O |"
    assert lines[1] == lines[3] == "  +---+---+---+"


def test_render_wide_board_aligns_labels():
    spec = load_game("10x6k5")
    pos = Position.from_moves(spec, [0, 59])
    lines = render(pos).splitlines()
    assert lines[0].split() == [str(c) for c in range(1, 7)]
    assert lines[2].startswith(" 1 | X |")
    assert lines[-2].startswith("10 |") and lines[-2].endswith("| O |")
    # every column label sits above the middle of its cells
    for c in range(6):
        assert lines[0][lines[2].index("|") + 2 + 4 * c] == str(c + 1)


def test_render_color_marks_last_move():
    pos = Position.from_text(tictactoe, "X../.O./...")
    text = render(pos, 4, color=True)
    assert "\x1b[1;34;4m O " in text and "\x1b[1;31m X " in text
    assert "\x1b" not in render(pos, 4)


@pytest.mark.parametrize("game", ["tictactoe", "4x5k4", "connect4"])
def test_format_and_parse_round_trip(game):
    spec = load_game(game)
    pos = Position.empty(spec)
    for move in pos.legal_moves():
        assert parse_move(pos, format_move(pos, move)) == move
        assert parse_move(pos, " " + format_move(pos, move).replace(",", " , ") + " ") == move


@pytest.mark.parametrize(
    "game, move, words",
    [
        ("tictactoe", -1, "a cell of tictactoe must be in 0..8, got -1"),  # was '0,3'
        ("tictactoe", 9, "a cell of tictactoe must be in 0..8, got 9"),  # was '4,1'
        ("tictactoe", 1.5, "must be an integer"),
        ("connect4", -1, "a column of connect4 must be in 0..6, got -1"),  # was '0'
        ("connect4", 7, "a column of connect4 must be in 0..6, got 7"),
        ("ultimate", 81, "a cell of ultimate must be in 0..80, got 81"),  # was '10,1'
        ("ultimate", -1, "a cell of ultimate must be in 0..80, got -1"),
    ],
)
def test_format_move_refuses_moves_off_the_board(game, move, words):
    spec = load_game(game)
    with pytest.raises(InvalidArgumentError, match=re.escape(words)):
        spec.format_move(spec.initial(), move)


def test_parse_errors_each_have_their_kind():
    pos = Position.from_text(tictactoe, "X../.O./...")
    for bad in ("", "abc", "1", "1,2,3", "a,b", "1.5,2", "1,1,", "1,,2", "\uff11,1"):
        with pytest.raises(ValueError, match="is not a move: type row,col") as err:
            parse_move(pos, bad)
        assert not isinstance(err.value, IllegalMoveError)
    with pytest.raises(IndexError, match="row 4 is off the board"):
        parse_move(pos, "4,1")
    with pytest.raises(IndexError, match="column 0 is off the board"):
        parse_move(pos, "2,0")
    with pytest.raises(IllegalMoveError, match="row 2, column 2 is taken"):
        parse_move(pos, "2,2")
    full = Position.from_moves(connect4, [0] * 6)
    with pytest.raises(IllegalMoveError, match="column 1 is full"):
        parse_move(full, "1")
    with pytest.raises(IndexError, match="column 8 is off the board"):
        parse_move(full, "8")
    with pytest.raises(ValueError, match="type a column number"):
        parse_move(full, "1,1")
    assert describe_move(full, 3) == "column 4"


# --- the loop ------------------------------------------------------------------------------


def test_whole_game_human_against_human():
    rec, out, _ = run(tictactoe, ["1,1", "2,1", "1,2", "2,2", "1,3"])
    assert isinstance(rec, GameRecord)
    assert rec.reason == "win" and rec.winner == 0 and rec.finished
    assert rec.moves == [0, 3, 1, 4, 2]
    assert str(rec.final) == "XXX/OO./..."
    assert out.endswith("X (human) wins in 5 plies.")


def test_draw_is_reported():
    moves = ["1,1", "2,2", "3,3", "1,2", "3,2", "3,1", "1,3", "2,3", "2,1"]
    rec, out, _ = run(tictactoe, moves)
    assert rec.reason == "draw" and rec.winner is None and rec.plies == 9
    assert out.endswith("Draw after 9 plies.")


def test_every_bad_input_gets_its_message_and_a_new_prompt():
    lines = ["hello", "1,2,3", "0,1", "1,9", "2,2", "2,2", "2,x", "", "1,1"]
    rec, out, script = run(tictactoe, lines)
    msgs = [m for m in out.splitlines() if m.endswith("Try again.")]
    assert msgs == [
        "Invalid input: 'hello' is not a move: type row,col such as 2,3. Try again.",
        "Invalid input: '1,2,3' is not a move: type row,col such as 2,3. Try again.",
        "Off the board: row 0 is off the board (rows 1 to 3). Try again.",
        "Off the board: column 9 is off the board (columns 1 to 3). Try again.",
        "Illegal move: row 2, column 2 is taken. Try again.",
        "Invalid input: '2,x' is not a move: type row,col such as 2,3. Try again.",
        "Invalid input: '' is not a move: type row,col such as 2,3. Try again.",
    ]
    assert rec.moves == [4, 0]  # X took 2,2; O's first legal answer was 1,1
    assert rec.reason == "eof"
    assert len(script.prompts) == len(lines) + 1
    assert script.prompts[0] == "X (human), your move (row,col, q to quit): "
    assert script.prompts[5].startswith("O (human)")


def test_gravity_board_takes_a_column():
    lines = ["4", "4", "5", "5", "6", "1,6", "9", "6", "7"]
    rec, out, _ = run(connect4, lines)
    assert rec.moves == [3, 3, 4, 4, 5, 5, 6]
    assert rec.winner == 0 and rec.reason == "win"
    assert "Invalid input: '1,6' is not a move: type a column number such as 4" in out
    assert "Off the board: column 9 is off the board (columns 1 to 7)" in out


def test_full_column_is_refused():
    spec = load_game("4x4k4g")
    rec, out, _ = run(spec, ["1", "1", "1", "1", "1", "2"])
    assert "Illegal move: column 1 is full. Try again." in out
    assert rec.moves == [0, 0, 0, 0, 1]


@pytest.mark.parametrize(
    "end, reason, message",
    [
        (EOFError, "eof", "End of input: game abandoned."),
        (KeyboardInterrupt, "interrupt", "Interrupted: game abandoned."),
    ],
)
def test_end_of_input_and_ctrl_c_end_cleanly(end, reason, message):
    rec, out, _ = run(tictactoe, ["2,2"], end=end)
    assert rec.reason == reason and not rec.finished and rec.winner is None
    assert rec.moves == [4]
    assert out.endswith(message)


def test_quit():
    rec, out, _ = run(tictactoe, ["1,1", "q"])
    assert rec.reason == "quit" and rec.moves == [0]
    assert out.endswith("Game abandoned.")


def test_human_against_engine_and_engine_messages():
    rec, out, _ = run(tictactoe, ["1,1", "1,2", "2,1"], x="human", o="perfect")
    # perfect answers 1,1 with the centre (the only drawing reply), then blocks
    assert rec.moves[:2] == [0, 4]
    assert "O (perfect) plays 2,2" in out


def test_engines_replay_by_seed():
    spec = load_game("4x4k4g")
    players = (make_player("random", spec), make_player("perfect", spec))
    games = [
        play_game(Position.empty(spec), players, rng=random.Random(s), write=lambda t: None).moves
        for s in (5, 5, 6)
    ]
    assert games[0] == games[1] and games[0] != games[2]


def test_hints_shown_before_each_human_move():
    pos = Position.from_text(tictactoe, "XX./OO./...")
    out: list[str] = []
    rec = play_game(
        pos,
        (make_player("human"), make_player("human")),
        read=Script(["3,3"]),
        write=out.append,
        hints=True,
    )
    assert rec.moves == [8]
    text = "\n".join(out)
    assert "Hints (perfect play; plies to the end, this move included):" in text
    assert "  * 1,3  win in 1" in text
    first, second = text.split("Hints")[1:]
    assert "  * 1,3  win in 1" in first
    assert "    2,3  draw" in first  # X blocks, O must block 1,3, and it is a draw
    assert "    3,3  loss in 2" in first  # O then completes its row
    # after 3,3 it is O's turn: O completes its row at once
    assert "  * 2,3  win in 1" in second and "    3,1  loss in 2" in second


def test_hint_lines_list_every_legal_move_with_its_outcome():
    ui = game_ui(tictactoe)
    for text in ("X../.../...", "X.O/.X./...", "XO./.X./..O"):
        pos = Position.from_text(tictactoe, text)
        lines = hint_lines(pos, ui)[1:]
        outcomes = move_outcomes(pos)
        assert len(lines) == len(pos.legal_moves())
        for line, move in zip(lines, sorted(outcomes), strict=True):
            assert line[4:].split(None, 1) == [format_move(pos, move), str(outcomes[move])]


def test_hints_need_an_mnk_board():
    ui = game_ui(tictactoe)
    fake = type(ui)(ui.render, ui.parse, ui.format, ui.move_help, False)
    with pytest.raises(ValueError, match="hints"):
        play_game(Position.empty(tictactoe), (make_player("human"),) * 2, hints=True, ui=fake)
