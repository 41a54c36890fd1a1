"""One conformance test over every registered game (OpenSpiel's habit): random playouts through
the :class:`fastttt.games.registry.Game` protocol, checked move by move against plain references."""

from __future__ import annotations

import random
import re
import string
import subprocess
import sys

import pytest

from fastttt.errors import InvalidArgumentError
from fastttt.games.registry import Game, State, as_game, game_names, game_of, load_game
from fastttt.play.move_values import move_values
from fastttt.views import svg

from ultimate_reference import RefState

# the generic names need a size; compact m,n,k forms stand for them
GAMES = [n for n in game_names() if n not in ("mnk", "connect")] + ["4x4k3", "3x4k3g", "5x4k4g"]


class PlainMnk:
    """m,n,k rules on a list of cells, written without bitboards (cells row by row)."""

    def __init__(self, rows: int, cols: int, k: int, gravity: bool):
        self.rows, self.cols, self.k, self.gravity = rows, cols, k, gravity
        self.cells = [None] * (rows * cols)
        self.player = 0

    def winner(self):
        for r in range(self.rows):
            for c in range(self.cols):
                who = self.cells[r * self.cols + c]
                if who is None:
                    continue
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    run = [(r + i * dr, c + i * dc) for i in range(self.k)]
                    if all(
                        0 <= rr < self.rows
                        and 0 <= cc < self.cols
                        and self.cells[rr * self.cols + cc] == who
                        for rr, cc in run
                    ):
                        return who
        return None

    def legal_moves(self):
        if self.winner() is not None:
            return []
        if self.gravity:
            return [c for c in range(self.cols) if self.cells[c] is None]
        return [i for i, v in enumerate(self.cells) if v is None]

    def play(self, move):
        cell = move
        if self.gravity:
            cell = max(
                r * self.cols + move
                for r in range(self.rows)
                if self.cells[r * self.cols + move] is None
            )
        self.cells[cell] = self.player
        self.player = 1 - self.player
        return cell


class PlainUltimate:
    """The Ultimate oracle of ``tests/ultimate_reference.py`` behind the same three calls."""

    def __init__(self, open_won_boards: bool):
        self.ref = RefState(open_won_boards=open_won_boards)

    def winner(self):
        w = self.ref.winner()
        return None if w is None else "XO".index(w)

    def legal_moves(self):
        return self.ref.legal_moves()

    def play(self, move):
        self.ref = self.ref.play(move)
        return move


def plain_rules(game: Game):
    """The plain reference of ``game``'s family (the only place the tests tell them apart)."""
    if game.name.startswith("ultimate"):
        return PlainUltimate(game.name == "ultimate-open")
    return PlainMnk(game.rows, game.cols, game.k, game.gravity)


def engine_names(game: Game) -> list[str]:
    """Each engine the game offers, with a small parameter where it takes one."""
    small = {"P": "2", "MS": "20", "nNODES": "n2000", "N": "30"}
    names = []
    for name in game.player_names():
        kind, _, param = name.partition(":")
        if kind == "human" or (kind == "perfect" and game.default_player() != "perfect"):
            continue  # people type; perfect play is exact search for hours on big boards
        names.append(f"{kind}:{small[param]}" if param else kind)
    return names


def playout(game: Game, rng: random.Random) -> list[State]:
    """One random game, checked at every ply; returns its states."""
    state = game.initial()
    plain = plain_rules(game)
    states = [state]
    while True:
        moves = state.legal_moves()
        assert moves == sorted(plain.legal_moves())
        assert state.winner() == plain.winner()
        assert state.is_over() == (not moves)
        assert game.state_from_text(str(state)) == state
        assert state.spec == game
        if not moves:
            return states
        for move in moves:
            assert game.parse_move(state, game.format_move(state, move)) == move
        move = rng.choice(moves)
        text, ply, to_move = str(state), state.ply, state.to_move
        child = state.play(move)
        assert (str(state), state.ply, state.to_move) == (text, ply, to_move)  # never mutates
        assert (child.ply, child.to_move) == (ply + 1, 1 - to_move)
        assert state.move_cell(move) == plain.play(move)
        state = child
        states.append(state)


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_follow_the_rules(name):
    game = load_game(name)
    assert isinstance(game, Game) and isinstance(game.initial(), State)
    assert load_game(game.name) == game  # the name round-trips
    assert game.describe() and game.move_help
    rng = random.Random(name)
    lengths = [len(playout(game, rng)) - 1 for _ in range(4)]
    assert all(length >= 1 for length in lengths)


# the Game protocol's services: each family's adapter has them, its spec none (issue 21)
SERVICES = (
    "move_help supports_hints parse_move format_move render render_svg move_values "
    "player_names make_player default_player suggested_players player_caps"
).split()


@pytest.mark.parametrize("name", GAMES)
def test_specs_and_positions_are_plain_and_find_their_game(name):
    game = load_game(name)
    spec, state = game.spec, game.initial().play(game.initial().legal_moves()[0])
    assert not isinstance(spec, Game) and not [m for m in SERVICES if hasattr(spec, m)]
    assert state.spec == spec and game == spec and hash(game) == hash(spec)
    assert game_of(state) == game and as_game(spec) == game and as_game(game) is game
    assert isinstance(game_of(state), Game) and game_of(state).spec == spec
    assert state._repr_svg_() == svg.repr_svg(state)  # the picture the views registered


@pytest.mark.parametrize("name", GAMES)
def test_every_player_returns_a_legal_move(name):
    game = load_game(name)
    rng = random.Random(7)
    states = [s for s in playout(game, rng) if not s.is_over()]
    picks = [states[0], states[len(states) // 2], states[-1]]
    for player_name in engine_names(game):
        player = game.make_player(player_name)
        for state in picks:
            assert player.choose(state, random.Random(1)) in state.legal_moves(), player_name
    assert game.make_player("human").is_human


@pytest.mark.parametrize("name", GAMES)
def test_pictures_draw_every_state(name):
    game = load_game(name)
    states = playout(game, random.Random(3))
    for before, after in zip(states, states[1:], strict=False):
        moved = next(m for m in before.legal_moves() if before.play(m) == after)
        assert isinstance(game.render(after, before.move_cell(moved)), str)
        picture = svg.render(after, coordinates=True, last_move=moved)
        assert picture.startswith("<svg") and picture.rstrip().endswith("</svg>")
        targets = set(re.findall(r'data-move="(\d+)"', picture))
        assert targets == {str(m) for m in after.legal_moves()}  # what the web page clicks


@pytest.mark.parametrize("name", GAMES)
def test_geometry(name):
    game = load_game(name)
    assert isinstance(game.gravity, bool) and game.rows >= 1 and game.cols >= 1
    assert game.cells == game.rows * game.cols
    state = game.initial()
    assert all(0 <= state.move_cell(m) < game.cells for m in state.legal_moves())
    assert len(state.legal_moves()) == (game.cols if game.gravity else game.cells)


def _pattern_with(pattern: str, number: int) -> str:
    """``alphabeta:P`` -> ``alphabeta:3``, ``engine:nNODES`` -> ``engine:n3``."""
    kind, _, placeholder = pattern.partition(":")
    return f"{kind}:{placeholder.rstrip(string.ascii_uppercase)}{number}"


@pytest.mark.parametrize("name", GAMES)
def test_suggested_players_and_caps(name):
    game = load_game(name)
    suggested = game.suggested_players()
    assert suggested[0] == "human" and len(set(suggested)) == len(suggested) > 2
    for player in suggested:
        assert game.make_player(player).name
    assert game.default_player() in suggested or game.default_player() == "engine"
    caps = game.player_caps()
    parametrised = {p for p in game.player_names() if ":" in p}
    assert parametrised <= set(caps)  # every parametrised player has a cap
    for pattern, cap in caps.items():
        assert isinstance(cap, int) and cap >= 1
        game.make_player(_pattern_with(pattern, 1))  # a pattern make_player reads
        game.make_player(_pattern_with(pattern, cap))
    for player in suggested:  # what a menu offers is within the caps
        kind, _, param = player.partition(":")
        for pattern, cap in caps.items():
            pattern_kind, _, placeholder = pattern.partition(":")
            prefix = placeholder.rstrip(string.ascii_uppercase)
            number = re.fullmatch(re.escape(prefix) + r"(\d+)", param)
            if pattern_kind == kind and number:
                assert int(number.group(1)) <= cap, (player, pattern)


@pytest.mark.parametrize("name", GAMES)
def test_move_values_value_every_legal_move(name):
    game = load_game(name)
    states = playout(game, random.Random(5))
    short = states[-3] if len(states) >= 3 else states[0]  # two plies or so from the end
    progress: list[str] = []
    # milliseconds of search; the budget also covers compiling the kernels on a cold cache
    found = move_values(short, 60.0, progress.append)
    assert set(found.values) == set(short.legal_moves())
    assert found.source in ("table", "search", "engine") and found.seconds >= 0
    for move, value in found.values.items():
        assert value.result in (-1, 0, 1), (move, value)  # a short position: all valued
        assert value.estimate or value.plies >= 1
    over = states[-1]
    assert move_values(over, 0.1).values == {}
    with pytest.raises(InvalidArgumentError):
        move_values("X../.../...")


def test_the_registry_does_not_import_ultimate():
    code = (
        "import sys, fastttt, fastttt.games.registry; fastttt.games.registry.game_names(); "
        "import fastttt.views.svg, fastttt.play.move_values, fastttt.games.movetext; "
        "fastttt.games.registry.load_game('connect4'); "
        "print(any('ultimate' in m for m in sys.modules if m.startswith('fastttt')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    code = (
        "import sys, fastttt.games.registry as r; r.load_game('ultimate-open'); "
        "print('fastttt.games.ultimate.spec' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


@pytest.mark.parametrize(
    "name, expected",
    [
        ("ultimate-open", "ultimate-open"),
        ("Ultimate_Open", "ultimate-open"),
        ("ultimate", "ultimate"),
        ("4x5k4g", "mnk"),
    ],
)
def test_every_variant_loads_by_name(name, expected):
    game = load_game(name)
    assert game.name.startswith(expected)
