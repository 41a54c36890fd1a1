"""Players by name, perfect-play outcomes (hints) against the solved table and a plain-Python
reference, and the search fallback for boards without a table."""

from __future__ import annotations

import random
from functools import cache

import pytest

from fastttt.errors import InvalidArgumentError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import connect4, mnk, tictactoe
from fastttt.games.registry import load_game
from fastttt.play.players import (
    HeuristicPlayer,
    HumanPlayer,
    Outcome,
    PerfectPlayer,
    RandomPlayer,
    UnknownPlayerError,
    _score_outcome,
    best_outcome_moves,
    default_player,
    make_player,
    move_outcomes,
    perfect_moves,
    perfect_play_cost,
    solution_for,
)
from fastttt.search.alphabeta import Searcher
from fastttt.search.connect4 import from_move_string
from fastttt.values import relative

BOARDS = ["tictactoe", "4x4k3", "4x4k4g"]


# --- plain-Python reference: memoised negamax, winner hurries, loser delays --------------


@cache
def ref_value(pos: Position) -> tuple[int, int]:
    """(result for the side to move: +1/0/-1, plies to the end under perfect play)."""
    if pos.winner() is not None:
        return -1, 0  # the previous mover completed a line
    if pos.is_full():
        return 0, 0
    best = None
    for _move, child in pos.children():
        r, p = ref_value(child)
        cand = Outcome(-r, p + 1)
        if best is None or cand.sort_key > best.sort_key:
            best = cand
    if best.result == 0:  # a draw's depth is the plies to a full board
        return 0, pos.spec.cells - pos.ply
    return best.result, best.plies


def ref_outcomes(pos: Position) -> dict[int, Outcome]:
    out = {}
    for move, child in pos.children():
        r, p = ref_value(child)
        out[move] = Outcome(-r, p + 1)
    return out


def random_positions(spec, count: int, seed: int, min_ply: int = 0):
    """Unfinished positions reached by random play, with at least ``min_ply`` stones."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        pos = Position.empty(spec)
        target = rng.randrange(min_ply, spec.cells)
        while not pos.is_over() and pos.ply < target:
            pos = pos.play(rng.choice(pos.legal_moves()))
        if not pos.is_over() and pos.ply >= min_ply:
            found.append(pos)
    return found


# --- outcomes ---------------------------------------------------------------------------


def test_outcomes_match_reference_on_every_tictactoe_position():
    sol = solution_for(tictactoe)
    checked = 0
    for code in sol.reachable_codes():
        pos = Position.from_code(tictactoe, int(code))
        if pos.is_over():
            assert move_outcomes(pos) == {}
            continue
        assert move_outcomes(pos) == ref_outcomes(pos), str(pos)
        checked += 1
    assert checked == 4520  # 5478 reachable minus 958 finished positions


@pytest.mark.parametrize("game", ["4x4k3", "4x4k4g"])
def test_outcomes_match_reference_on_4x4(game):
    spec = load_game(game)
    for pos in random_positions(spec, 25, seed=7, min_ply=7):
        assert move_outcomes(pos) == ref_outcomes(pos), str(pos)


@pytest.mark.parametrize("game", BOARDS)
def test_hints_agree_with_table_and_best_moves(game):
    spec = load_game(game)
    sol = solution_for(spec)
    for pos in random_positions(spec, 300, seed=11):
        outcomes = move_outcomes(pos)
        assert sorted(outcomes) == pos.legal_moves()
        for move, outcome in outcomes.items():
            child = pos.play(move)
            assert outcome.result == relative(sol.value(child), pos.to_move)
            assert outcome.plies == 1 + sol.depth(child)
        assert best_outcome_moves(outcomes) == sol.best_moves(pos)
        # the best move keeps the position's own value and depth
        best = outcomes[best_outcome_moves(outcomes)[0]]
        assert best.result == relative(sol.value(pos), pos.to_move)
        assert best.plies == sol.depth(pos)


def test_outcome_text_and_order():
    assert str(Outcome(1, 3)) == "win in 3"
    assert str(Outcome(-1, 4)) == "loss in 4"
    assert str(Outcome(0, 9)) == "draw"
    order = [Outcome(-1, 2), Outcome(-1, 6), Outcome(0, 5), Outcome(1, 7), Outcome(1, 1)]
    assert sorted(order, key=lambda o: o.sort_key) == order


@pytest.mark.parametrize("spec", [tictactoe, mnk(4, 4, 3), mnk(3, 4, 3, gravity=True)])
def test_search_scores_convert_to_table_outcomes(spec, monkeypatch):
    """Without a table, outcomes come from exact search and must equal the table's."""
    search = pytest.importorskip("fastttt.search.alphabeta")
    import fastttt.play.players as players

    sol = solution_for(spec)
    positions = random_positions(spec, 25, seed=3, min_ply=2 if spec.cells > 9 else 0)
    from_table = [move_outcomes(p) for p in positions]
    monkeypatch.setattr(players, "uses_table", lambda spec: False)
    for pos, expected in zip(positions, from_table, strict=True):
        got = move_outcomes(pos)
        for move, outcome in got.items():
            assert outcome.result == expected[move].result, (str(pos), move)
            if outcome.result != 0:
                assert outcome.plies == expected[move].plies, (str(pos), move)
        assert sorted(search.best_moves(pos)) == sol.best_moves(pos)


def test_score_outcome_round_trip():
    """Search scores of table outcomes convert back to the same outcome."""
    search = pytest.importorskip("fastttt.search.alphabeta")
    for spec in (tictactoe, mnk(4, 4, 3)):
        for pos in random_positions(spec, 25, seed=5, min_ply=0 if spec.cells == 9 else 8):
            for move, outcome in ref_outcomes(pos).items():
                child = pos.play(move)
                score = -search.score_from_table(
                    spec, child.ply, -outcome.result, outcome.plies - 1
                )
                back = _score_outcome(pos, score)
                assert back.result == outcome.result
                if outcome.result:
                    assert back.plies == outcome.plies


# --- players ------------------------------------------------------------------------------


def test_make_player_names():
    assert isinstance(make_player("human", tictactoe), HumanPlayer)
    assert isinstance(make_player(" Random ", tictactoe), RandomPlayer)
    assert isinstance(make_player("perfect", tictactoe), PerfectPlayer)
    h = make_player("heuristic:3", tictactoe)
    assert isinstance(h, HeuristicPlayer) and (h.depth, h.method, h.name) == (
        3,
        "minimax",
        "heuristic:3",
    )
    a = make_player("alphabeta:2", tictactoe)
    assert (a.depth, a.method, a.name) == (2, "alphabeta", "alphabeta:2")


@pytest.mark.parametrize(
    "name, words",
    [
        ("robot", "unknown player 'robot'"),
        ("heuristic", "needs a search depth"),
        ("heuristic:0", "needs a search depth"),
        ("alphabeta:x", "needs a search depth"),
        ("heuristic:-1", "needs a search depth"),
        ("", "unknown player"),
    ],
)
def test_make_player_errors(name, words):
    with pytest.raises(UnknownPlayerError, match=words):
        make_player(name, tictactoe)


def test_random_player_is_legal_and_seeded():
    pos = Position.from_text(tictactoe, "XO./.X./...")
    p = RandomPlayer()
    picks = [p.choose(pos, random.Random(s)) for s in range(50)]
    assert set(picks) <= set(pos.legal_moves())
    assert len(set(picks)) > 1
    assert picks == [p.choose(pos, random.Random(s)) for s in range(50)]


def test_perfect_player_picks_among_best_moves():
    sol = solution_for(tictactoe)
    p = PerfectPlayer()
    for pos in random_positions(tictactoe, 100, seed=2):
        assert p.choose(pos, random.Random(0)) in sol.best_moves(pos)
    # a win at once is taken: X to move with two in a row
    pos = Position.from_text(tictactoe, "XX./OO./...")
    assert {p.choose(pos, random.Random(s)) for s in range(20)} == {2}


def test_perfect_play_on_connect4_names_the_shipped_book():
    from fastttt.search.book import shipped

    book = shipped(connect4)
    assert book is not None
    assert f"opening book to {book.depth} plies" in perfect_play_cost(connect4)


@pytest.mark.parametrize("spec", [mnk(3, 4, 3, gravity=True), mnk(4, 4, 3)])
def test_perfect_moves_past_the_table_equal_the_best_outcomes(spec, monkeypatch):
    """Without a table, perfect play's null-window shortcut keeps exactly the table's best
    moves."""
    import fastttt.play.players as players

    sol = solution_for(spec)
    positions = random_positions(spec, 40, seed=5, min_ply=1)
    monkeypatch.setattr(players, "uses_table", lambda spec: False)
    for pos in positions:
        assert perfect_moves(pos) == sol.best_moves(pos), str(pos)


@pytest.mark.parametrize("spec", [mnk(3, 4, 3, gravity=True), mnk(4, 4, 3)])
def test_perfect_move_past_the_table_is_the_search_orders_first_best_move(spec, monkeypatch):
    """Past a table, perfect play stops at the first best move in the search's root order:
    always one of the table's best moves, whatever the seed."""
    import fastttt.play.players as players

    sol = solution_for(spec)
    monkeypatch.setattr(players, "uses_table", lambda spec: False)
    p = PerfectPlayer()
    for pos in random_positions(spec, 25, seed=6, min_ply=1):
        best = sol.best_moves(pos)
        picks = {p.choose(pos, random.Random(seed)) for seed in range(8)}
        assert len(picks) == 1 and picks <= set(best), str(pos)


def test_root_order_starts_with_the_remembered_move_then_the_centre():
    s = Searcher(connect4)
    pos = from_move_string(connect4, "32164625")  # first player wins in 11 (Begin-Easy)
    assert s.root_order(pos) == [3, 2, 4, 1, 5, 0, 6]  # nothing remembered yet
    s.solve(pos)
    remembered = s.table_move(pos)
    assert remembered is not None and s.root_order(pos)[0] == remembered
    assert sorted(s.root_order(pos)) == list(range(7))


def test_first_best_move_follows_the_order():
    sol = solution_for(tictactoe)
    s = Searcher(tictactoe, tt_bits=17)
    pos = Position.from_text(tictactoe, "X../.../...")  # O's only draws: the centre
    assert sol.best_moves(pos) == [4]
    for order in ([1, 2, 3, 4, 5, 6, 7, 8], [8, 7, 6, 5, 4, 3, 2, 1], [4, 1, 2, 3, 5, 6, 7, 8]):
        assert s.first_best_move(pos, order) == 4
    pos = Position.from_text(tictactoe, ".../.X./...")  # O's corners draw, the edges lose
    assert s.first_best_move(pos, [1, 3, 0, 2, 5, 6, 7, 8]) == 0
    assert s.first_best_move(pos, [7, 8, 0, 1, 2, 3, 5, 6]) == 8
    with pytest.raises(InvalidArgumentError, match="not the legal moves"):
        s.first_best_move(pos, [0, 1])


def test_heuristic_players_choose_among_search_best():
    heuristic = pytest.importorskip("fastttt.search.heuristic")
    for game in BOARDS:
        spec = load_game(game)
        for pos in random_positions(spec, 20, seed=4):
            for name, method in (("heuristic:2", "minimax"), ("alphabeta:3", "alphabeta")):
                depth = int(name.split(":")[1])
                _s, best, _n = heuristic.search(pos, depth, method=method)
                move = make_player(name, spec).choose(pos, random.Random(1))
                assert move in best


@pytest.mark.parametrize(
    "game, name",
    [
        ("tictactoe", "perfect"),
        ("4x4k4", "perfect"),
        ("4x5k4g", "perfect"),
        ("connect4", "alphabeta:8"),
        ("5x5k5", "alphabeta:6"),
        ("6x6k4", "alphabeta:4"),
        ("8x8k5", "alphabeta:4"),
    ],
)
def test_default_player_answers_within_seconds(game, name):
    # connect4's default used to be perfect play: an exact search of hours from the empty board
    spec = load_game(game)
    assert default_player(spec) == spec.default_player() == name
    assert (perfect_play_cost(spec) is None) == (name == "perfect")


@pytest.mark.parametrize("name", ["ultimate", "ultimate-open"])
def test_default_player_on_ultimate_is_the_bounded_engine(name):
    assert load_game(name).default_player() == "engine"


@pytest.mark.parametrize("name", ["", " ", "\t", "perfect!", "alpha beta:3"])
def test_empty_and_odd_names_are_refused_with_the_list(name):
    with pytest.raises(UnknownPlayerError, match="perfect"):
        make_player(name, tictactoe)


@pytest.mark.parametrize("name", ["alphabeta:²", "minimax:٣", "heuristic:³"])
def test_a_depth_in_other_digits_is_a_clear_error(name):
    """str.isdigit() accepts '²', which int() refuses: a depth is ASCII digits only."""
    with pytest.raises(UnknownPlayerError, match="needs a search depth"):
        make_player(name)


@pytest.mark.parametrize("name", ["engine:²", "engine:n²", "mcts:³"])
def test_an_ultimate_budget_in_other_digits_is_a_clear_error(name):
    from fastttt.play.ultimate_players import make_player as ultimate_player

    with pytest.raises(UnknownPlayerError, match="must be an integer"):
        ultimate_player(name)
