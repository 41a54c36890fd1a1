"""SVG pictures: well-formed, right stones and highlights, heat maps equal to the solved
table, the legend, the committed docs pictures, and ``fastttt render``."""

from __future__ import annotations

import doctest
import importlib.util
import random
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import fastttt.views.svg
from fastttt.cli.render import render as render_command
from fastttt.errors import InvalidArgumentError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import connect4, mnk
from fastttt.play.move_values import MoveValue, MoveValues, move_values
from fastttt.play.players import move_outcomes
from fastttt.ultimate import UltimateState
from fastttt.views.svg import render, repr_svg, value_color

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root


def having(root: ET.Element, cls: str) -> list[ET.Element]:
    """Elements whose class list holds every word of ``cls``."""
    want = set(cls.split())
    return [e for e in root.iter() if want <= set(e.get("class", "").split())]


def random_game(spec, seed: int, want_winner: bool = True):
    rng = random.Random(seed)
    pos = Position.empty(spec)
    while not pos.is_over():
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos if (pos.winner() is not None) == want_winner else None


@pytest.mark.parametrize("spec", [mnk(3, 3, 3), mnk(4, 5, 3), mnk(3, 4, 3, gravity=True), connect4])
def test_stones_and_winning_cells(spec):
    pos = next(p for s in range(100) if (p := random_game(spec, s)) is not None)
    root = parse(render(pos, coordinates=True))
    assert len(having(root, "stone")) == pos.ply
    assert len(having(root, "stone x")) == pos.first.bit_count()
    won = having(root, "cell win")
    stones = pos.first if pos.winner() == 0 else pos.second
    assert len(won) >= spec.k and all(stones >> int(e.get("data-cell")) & 1 for e in won)
    assert having(root, "win-line")
    assert not having(root, "legend")
    coords = [e.text for e in having(root, "coord")]
    assert coords == [str(i + 1) for i in range(spec.cols)] + [str(i + 1) for i in range(spec.rows)]


def test_every_legal_move_is_a_click_target():
    pos = Position.from_moves("tictactoe", [4, 0])
    targets = [
        int(e.get("data-move")) for e in having(parse(render(pos)), "cell") if e.get("data-move")
    ]
    assert targets == pos.legal_moves()
    c4 = Position.from_moves(connect4, [3, 3, 3, 3, 3, 3])
    columns = [int(e.get("data-move")) for e in having(parse(render(c4)), "move")]
    assert columns == [0, 1, 2, 4, 5, 6]


def test_a_plain_dict_of_values_draws_the_same_heat_map():
    pos = Position.from_moves("tictactoe", [4])
    found = move_values(pos)
    plain = parse(render(pos, values=dict(found.values)))
    heat = {int(e.get("data-move")): e.get("fill") for e in having(plain, "heat")}
    expected = parse(render(pos, values=found))
    assert heat == {int(e.get("data-move")): e.get("fill") for e in having(expected, "heat")}
    assert len(heat) == 8


@pytest.mark.parametrize("moves", [[], [4], [0, 1], [4, 0, 8], [0, 4, 8, 2]])
def test_heat_map_is_the_solved_table(moves):
    pos = Position.from_moves("tictactoe", moves)
    found = move_values(pos)
    assert found.source == "table" and found.complete
    root = parse(render(pos, values=found))
    outcomes = move_outcomes(pos)
    heat = {int(e.get("data-move")): e for e in having(root, "heat")}
    assert sorted(heat) == sorted(outcomes)
    for move, outcome in outcomes.items():
        cell = heat[move]
        assert int(cell.get("data-result")) == outcome.result
        assert int(cell.get("data-plies")) == outcome.plies
        assert cell.get("fill") == value_color(
            MoveValue(outcome.result, outcome.plies), 9 - pos.ply
        )
    legend = having(root, "legend")
    assert len(legend) == 1
    words = " ".join(e.text or "" for e in legend[0].iter())
    assert all(w in words for w in ("win", "draw", "loss", "solved table"))


def test_colours_darken_as_the_end_nears():
    near, far = value_color(MoveValue(1, 1), 9), value_color(MoveValue(1, 9), 9)
    assert sum(int(near[i : i + 2], 16) for i in (1, 3, 5)) < sum(
        int(far[i : i + 2], 16) for i in (1, 3, 5)
    )
    assert value_color(MoveValue(0, 5), 9) == fastttt.views.svg.DRAW_COLOR
    assert value_color(MoveValue(None), 9) == fastttt.views.svg.UNKNOWN_COLOR


def test_search_values_on_a_board_without_table():
    pos = None
    for seed in range(100):
        rng, pos = random.Random(seed), Position.empty(connect4)
        while pos.ply < 30 and not pos.is_over():
            pos = pos.play(rng.choice(pos.legal_moves()))
        if not pos.is_over():
            break
    found = move_values(pos, seconds=20)
    assert found.source == "search" and found.complete
    root = parse(render(pos, values=found))
    assert {int(e.get("data-move")) for e in having(root, "heat")} == set(pos.legal_moves())


def test_connect4_values_within_the_book_come_from_it():
    from fastttt.search.book import shipped
    from fastttt.values import table_from_score

    book = shipped(connect4)
    assert book is not None
    line = [0, 0, 0, 0, 1, 1, 1, 1]  # off the book's lines at its depth, 8
    assert book.depth <= len(line)
    pos = Position.from_moves(connect4, line[: book.depth - 1])
    found = move_values(pos, seconds=0)  # no time to search: every value is the book's
    assert found.source == "book" and found.complete
    expected = book.move_scores(pos)
    assert expected is not None
    for move, value in found.values.items():
        assert (value.result, value.plies) == table_from_score(connect4, pos.ply, expected[move])
    past = Position.from_moves(connect4, line[: book.depth])
    beyond = move_values(past, seconds=0)  # its children are past the book: searched
    assert beyond.source == "search" and not beyond.complete


def test_unknown_values_are_grey_and_in_the_legend():
    pos = Position.empty(connect4)
    values = MoveValues({m: MoveValue(None) for m in pos.legal_moves()}, "search", False, 0.0)
    root = parse(render(pos, values=values))
    assert {e.get("fill") for e in having(root, "heat")} == {fastttt.views.svg.UNKNOWN_COLOR}
    assert "not valued" in ET.tostring(having(root, "legend")[0], encoding="unicode")


@pytest.mark.parametrize(
    "options, words",
    [
        ({"values": True}, "values must be a MoveValues"),  # was an AttributeError deep inside
        ({"values": [1, 2]}, "values must be a MoveValues"),
        ({"values": {0: 1}}, "values: move 0 has int 1, not a MoveValue"),
        ({"values": {"a": MoveValue(0)}}, "values: a move is an integer, got 'a'"),
        ({"values": {0: MoveValue(1)}}, "move 0 is an exact win or loss: its plies"),
        ({"values": MoveValues(True, "table", True, 0.0)}, "values must be a MoveValues"),
        ({"cell": 0}, "cell (pixels per cell) must be a finite number above 0, got 0"),
        ({"cell": -40}, "above 0, got -40"),
        ({"cell": float("nan")}, "above 0, got nan"),
        ({"cell": float("inf")}, "above 0, got inf"),
        ({"cell": "40"}, "above 0, got '40'"),
        ({"cell": True}, "above 0, got True"),
    ],
)
def test_bad_values_or_cell_are_refused(options, words):
    for state in (Position.from_text("tictactoe", "X../.O./..."), UltimateState()):
        with pytest.raises(InvalidArgumentError) as caught:
            render(state, **options)
        assert words in str(caught.value)
    assert render(Position.empty(connect4), cell=12.5).startswith("<svg")


@pytest.mark.parametrize(
    "state, bad, words",
    [
        (
            Position.from_text("tictactoe", "X../.O./..."),
            9,
            "last_move: a cell of tictactoe must be in 0..8, got 9",
        ),
        (Position.empty(connect4), 7, "last_move: a column of connect4 must be in 0..6, got 7"),
        (
            Position.empty(connect4),
            "3",
            "last_move: a column of connect4 must be an integer, got '3'",
        ),
        (UltimateState(), -1, "last_move: a cell of ultimate must be in 0..80, got -1"),
    ],
)
def test_a_last_move_off_the_board_is_refused(state, bad, words):
    with pytest.raises(InvalidArgumentError) as caught:
        render(state, last_move=bad)
    assert words in str(caught.value)
    assert 'class="last"' in render(Position.from_moves(connect4, [3]), last_move=3)


def test_ultimate_claims_forced_board_and_estimates():
    state = UltimateState.from_moves(_docs().ULTIMATE_MOVES)
    root = parse(render(state, coordinates=True))
    assert len(having(root, "stone")) == state.ply
    claims = [c for c in state.claims() if c is not None]
    assert len(having(root, "claim")) == len(claims) == 3
    forced = having(root, "forced")
    assert len(forced) == 1
    legal = state.legal_moves()
    assert all(m // 9 == state.forced_board for m in legal)
    values = {m: MoveValue(1 if m % 2 else -1, None, True, 40 if m % 2 else -40) for m in legal}
    root = parse(render(state, values=MoveValues(values, "engine", False, 0.0)))
    assert len(having(root, "heat estimate")) == len(legal)
    legend = ET.tostring(having(root, "legend")[0], encoding="unicode")
    assert "estimate" in legend


def test_ultimate_engine_values_are_marked():
    state = UltimateState.from_moves([40, 36])
    found = move_values(state, seconds=0.3)
    assert found.source == "engine" and set(found.values) == set(state.legal_moves())
    root = parse(render(state, values=found))
    assert len(having(root, "heat")) == len(state.legal_moves())


def test_ultimate_won_frame_line_is_highlighted():
    for seed in range(500):
        rng, state = random.Random(seed), UltimateState()
        while not state.is_over():
            state = state.play(rng.choice(state.legal_moves()))
        if state.winner() is not None:
            break
    root = parse(render(state))
    assert len(having(root, "board win")) == 3
    assert having(root, "win-line")
    assert not [e for e in root.iter() if e.get("data-move")]


def test_output_is_deterministic_and_repr_svg_has_coordinates():
    pos = Position.from_moves("tictactoe", [4])
    assert render(pos, values=move_values(pos)) == render(pos, values=move_values(pos))
    assert having(parse(repr_svg(pos)), "coord")
    assert parse(repr_svg(UltimateState()))
    with pytest.raises(InvalidArgumentError):
        render("X..")


def test_module_doctests():
    assert doctest.testmod(fastttt.views.svg).failed == 0


def _docs():
    spec = importlib.util.spec_from_file_location("make_pictures", ROOT / "docs/make_pictures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["tictactoe-values.svg", "ultimate.svg"])
def test_docs_pictures_are_up_to_date(name):
    """Run ``python docs/make_pictures.py`` when this fails after a change to the drawing."""
    committed = (ROOT / "docs" / name).read_text(encoding="utf-8")
    assert _docs().PICTURES[name]() + "\n" == committed


# --- fastttt render ------------------------------------------------------------------------


def test_render_command_svg(tmp_path):
    out = tmp_path / "board.svg"
    result = CliRunner().invoke(
        render_command, ["tictactoe", "--moves", "2,2 1,1", "--values", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    root = parse(out.read_text())
    assert len(having(root, "heat")) == 7 and having(root, "legend")
    result = CliRunner().invoke(render_command, ["connect4", "--moves", "4455", "-o", str(out)])
    assert result.exit_code == 0 and len(having(parse(out.read_text()), "stone")) == 4
    result = CliRunner().invoke(
        render_command, ["ultimate", "--position", str(UltimateState()), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["tictactoe", "--moves", "2,2 2,2"], "--moves: move 2 ('2,2'): row 2, column 2 is taken"),
        (["tictactoe", "--moves", "2,2", "--position", "........."], "not both"),
        (["ultimate", "--moves", "5,5 1,1"], "the move must be in board 5"),
        (["nope"], "unknown game"),
        (["connect4", "--moves", "9"], "--moves: move 1 ('9'): column 9 is off the board"),
    ],
)
def test_render_command_errors(tmp_path, args, message):
    result = CliRunner().invoke(render_command, [*args, "-o", str(tmp_path / "x.svg")])
    assert result.exit_code != 0 and message in result.output
    assert not (tmp_path / "x.svg").exists()


def test_render_command_png(tmp_path):
    pytest.importorskip("cairosvg", exc_type=ImportError)
    out = tmp_path / "board.png"
    result = CliRunner().invoke(render_command, ["tictactoe", "--moves", "2,2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_command_png_without_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    result = CliRunner().invoke(render_command, ["tictactoe", "-o", str(tmp_path / "b.png")])
    assert result.exit_code == 1
    assert (
        result.output.strip() == "Error: PNG output needs the png extra: pip install "
        "'fastttt[png]' (CairoSVG)"
    )
    result = CliRunner().invoke(render_command, ["tictactoe", "-o", str(tmp_path / "b.gif")])
    assert result.exit_code == 2 and ".svg or .png" in result.output


def test_notebook_cells_run(monkeypatch):
    """The code cells of docs/inline-display.ipynb run (IPython's SVG replaced by a parser)."""
    import json
    import types

    fake = types.ModuleType("IPython.display")
    fake.SVG = parse
    monkeypatch.setitem(sys.modules, "IPython", types.ModuleType("IPython"))
    monkeypatch.setitem(sys.modules, "IPython.display", fake)
    notebook = json.loads((ROOT / "docs/inline-display.ipynb").read_text(encoding="utf-8"))
    scope: dict = {}
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            exec("".join(cell["source"]), scope)
    assert isinstance(scope["pos"], Position)


def test_render_through_the_fastttt_command(tmp_path):
    from fastttt import cli

    out = tmp_path / "c4.svg"
    result = CliRunner().invoke(
        cli.main, ["render", "connect4", "--moves", "44", "-o", str(out)], standalone_mode=False
    )
    assert result.exit_code == 0, result.output
    assert len(having(parse(out.read_text()), "stone")) == 2


def test_positions_and_ultimate_states_display_inline():
    from fastttt.games.mnk.board import Position
    from fastttt.ultimate import UltimateState
    from fastttt.views.svg import repr_svg

    pos = Position.from_moves("tictactoe", [0, 4])
    state = UltimateState.from_moves([40, 36])
    for shown in (pos, state):
        assert shown._repr_svg_() == repr_svg(shown)
        ET.fromstring(shown._repr_svg_())


def test_estimate_legend_has_the_colours_of_the_estimates():
    """An even estimate (score 0) is drawn hatched slate: the legend's hatched swatches are
    the colours estimates take (ahead green, even slate, behind purple), not one green one."""
    state = UltimateState.from_moves([40, 36])
    legal = state.legal_moves()
    half = fastttt.views.svg.ESTIMATE_SCALE // 2
    scores = {m: (half, 0, -half)[i % 3] for i, m in enumerate(legal)}
    values = {m: MoveValue((s > 0) - (s < 0), None, True, s) for m, s in scores.items()}
    root = parse(render(state, values=MoveValues(values, "engine", False, 0.0)))
    cells = {e.get("fill") for e in having(root, "heat estimate")}
    swatches = [e.get("fill") for e in having(root, "swatch estimate")]
    assert cells == set(swatches) and len(swatches) == 3
    assert fastttt.views.svg.DRAW_COLOR in swatches


@pytest.mark.parametrize(
    "state",
    [
        Position.from_moves("tictactoe", [4, 1, 0, 8, 6, 3, 2]),
        Position.from_moves("4x4k4g", [0, 1, 0, 1, 0, 1, 0]),
    ],
)
def test_no_legend_on_a_finished_game(state):
    found = move_values(state)
    assert found.values == {}
    root = parse(render(state, values=found))
    assert not having(root, "legend") and not having(root, "heat")


def test_cancelled_search_values_stop_at_once(monkeypatch):
    import threading
    import time

    import fastttt.play.move_values

    monkeypatch.setattr(fastttt.play.move_values, "_SEARCHERS", {})  # no table warm from others
    cancel = threading.Event()
    # while the first move's search runs: it has taken as little as 0.3 s (a fresh clone, CI)
    threading.Timer(0.05, cancel.set).start()
    start = time.monotonic()
    past_the_book = Position.from_moves(connect4, [0, 0, 0, 0, 1, 1, 1, 1])  # off the book's lines
    found = move_values(past_the_book, seconds=600, cancel=cancel)
    assert time.monotonic() - start < 60  # the budget would take ten minutes
    assert not found.complete and all(v.result is None for v in found.values.values())
    ultimate = move_values(UltimateState.from_moves([]), seconds=600, cancel=cancel)
    assert time.monotonic() - start < 60 and not ultimate.complete


def test_stones_never_take_a_value_colour():
    """One colour legend (issue 23): every colour a move value can take (wins and losses at
    every depth, estimates at every score, draw, unknown) is far (RGB distance > 100, the old
    loss red was 34 from X's ink) from every stone's: X red, O blue, the red and yellow discs."""

    def rgb(colour: str) -> tuple[int, ...]:
        return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))

    values = {fastttt.views.svg.DRAW_COLOR, fastttt.views.svg.UNKNOWN_COLOR}
    for horizon in (1, 9, 42, 81):
        for plies in range(1, horizon + 1):
            values |= {value_color(MoveValue(r, plies), horizon) for r in (1, -1)}
    for score in range(-500, 501, 5):
        values.add(value_color(MoveValue((score > 0) - (score < 0), None, True, score), 9))
    palette = fastttt.views.svg.palette()
    assert {c for _, c in palette["values"]} <= values
    for name, stone in palette["stones"]:
        for value in values:
            distance = sum((a - b) ** 2 for a, b in zip(rgb(stone), rgb(value), strict=True))
            assert distance**0.5 > 100, (name, stone, value)
