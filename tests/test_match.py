"""Engine matches, and the perfect player over thousands of seeded games: it never loses a
game it could save, it keeps the table's best moves, and a winning position ends in a win
within the table's depth."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import tictactoe
from fastttt.games.registry import load_game
from fastttt.play.loop import play_game
from fastttt.play.match import MatchResult, SideResult, run_match
from fastttt.play.players import make_player, solution_for
from fastttt.values import relative

BOARDS = ["tictactoe", "4x4k3", "4x4k4g"]
GAMES = 1000


@pytest.fixture(scope="module")
def tables():
    return {g: solution_for(load_game(g)) for g in BOARDS}


def _silent(text: str) -> None:
    pass


def _table_view(sol, pos):
    """(value, depth) of ``pos`` and the moves to children of the same value, one ply nearer
    the end (the table's best moves), in one batched lookup."""
    moves = pos.legal_moves()
    codes = np.array([pos.code] + [pos.play(m).code for m in moves], dtype=np.int64)
    values, depths = sol.lookup(codes)
    best = [
        m
        for m, v, d in zip(moves, values[1:], depths[1:], strict=True)
        if v == values[0] and d == depths[0] - 1
    ]
    return int(values[0]), int(depths[0]), best


@pytest.mark.parametrize("opponent", ["random", "heuristic:2"])
@pytest.mark.parametrize("game", BOARDS)
def test_perfect_never_loses_and_wins_what_it_can(game, opponent, tables):
    if opponent.startswith("heuristic"):
        pytest.importorskip("fastttt.search.heuristic")
    spec = load_game(game)
    sol = tables[game]
    perfect, other = make_player("perfect", spec), make_player(opponent, spec)
    tally = {"win": 0, "draw": 0, "loss": 0, "lost_from_start": 0}
    for i in range(GAMES):
        side = i % 2  # perfect plays X in even games, O in odd ones
        players = (perfect, other) if side == 0 else (other, perfect)
        record = play_game(
            Position.empty(spec),
            players,
            rng=random.Random(f"{game}/{opponent}/{i}"),
            show=False,
            write=_silent,
        )
        assert record.finished
        first_value = None
        deadline = None  # ply by which a winning perfect player must have won
        pos = Position.empty(spec)
        for move in record.moves:
            if pos.to_move == side:
                absolute, depth, best = _table_view(sol, pos)
                value = relative(absolute, side)
                if first_value is None:
                    first_value = value
                assert move in best, (i, str(pos), move)
                if value > 0 and deadline is None:
                    deadline = pos.ply + depth
            pos = pos.play(move)
        result = 0 if record.winner is None else (1 if record.winner == side else -1)
        if deadline is not None:
            assert result == 1, (i, record.moves)
            assert len(record.moves) <= deadline, (i, record.moves)
        if result < 0:
            assert first_value == -1, (i, record.moves)  # lost before its first move
            tally["lost_from_start"] += 1
        tally[{1: "win", 0: "draw", -1: "loss"}[result]] += 1
    assert tally["loss"] == tally["lost_from_start"]
    assert sum(tally[k] for k in ("win", "draw", "loss")) == GAMES
    start = sol.value(Position.empty(spec))
    if start == 1:  # as X perfect wins every game
        assert tally["win"] >= GAMES // 2
    if start == 0:  # a drawn start: perfect never loses at all
        assert tally["loss"] == 0


def test_perfect_against_itself_reaches_the_table_value(tables):
    for game in BOARDS:
        spec = load_game(game)
        sol = tables[game]
        p = make_player("perfect", spec)
        for seed in range(5):
            rec = play_game(
                Position.empty(spec), (p, p), rng=random.Random(seed), show=False, write=_silent
            )
            value = 0 if rec.winner is None else (1 if rec.winner == 0 else -1)
            assert value == sol.value(Position.empty(spec))
            if value:
                assert rec.plies == sol.depth(Position.empty(spec))


def test_match_counts_and_swap():
    res = run_match(tictactoe, "perfect", "random", 40, seed=3, swap=True)
    assert isinstance(res, MatchResult)
    assert res.games == 40 and res.as_x.games == 20 and res.as_o.games == 20
    assert res.players == ("perfect", "random")
    for side in (res.as_x, res.as_o, res.total):
        assert side.wins + side.draws + side.losses == side.games
    assert res.total.losses == 0  # tic-tac-toe is a draw: perfect never loses
    assert len(res.lengths) == 40 and sum(res.lengths) == res.total.plies
    assert res.mean_plies == pytest.approx(sum(res.lengths) / 40)
    assert all(5 <= n <= 9 for n in res.lengths)


def test_match_without_swap_keeps_sides():
    res = run_match(tictactoe, "random", "perfect", 30, seed=1)
    assert res.as_x.games == 30 and res.as_o.games == 0
    assert res.as_x.wins == 0  # random (A, X) never beats perfect


def test_match_is_reproducible_by_seed():
    a = run_match("4x4k3", "random", "random", 30, seed=9, swap=True)
    b = run_match("4x4k3", "random", "random", 30, seed=9, swap=True)
    c = run_match("4x4k3", "random", "random", 30, seed=10, swap=True)
    assert a.to_dict() == b.to_dict()
    assert a.lengths != c.lengths
    # game i alone replays with the same rng
    rec = play_game(
        Position.empty(load_game("4x4k3")),
        (make_player("random"), make_player("random")),
        rng=random.Random("9/4"),
        show=False,
        write=_silent,
    )
    assert rec.plies == a.lengths[4]


def test_match_json_and_table():
    res = run_match(tictactoe, "perfect", "random", 10, seed=2, swap=True)
    data = json.loads(res.to_json())
    assert data["games"] == 10 and data["a"] == "perfect" and data["b"] == "random"
    assert data["a_as_x"]["games"] == 5 and data["a_as_o"]["games"] == 5
    total = data["total"]
    assert total["wins"] + total["draws"] + total["losses"] == 10
    assert total["mean_plies"] == pytest.approx(sum(data["lengths"]) / 10)
    table = res.table().splitlines()
    assert table[0].split() == ["games", "A", "wins", "draws", "B", "wins", "mean", "plies"]
    assert table[2].startswith("A=X perfect vs B=O random")
    assert table[3].startswith("B=X random vs A=O perfect")
    assert table[4].split()[:2] == ["total", "10"]


def test_side_result_counts():
    s = SideResult()
    for r, n in ((1, 5), (0, 9), (-1, 6), (1, 7)):
        s.add(r, n)
    assert (s.games, s.wins, s.draws, s.losses, s.plies) == (4, 2, 1, 1, 27)
    assert s.mean_plies == 6.75


@pytest.mark.parametrize(
    "args, words",
    [
        (("human", "random", 3), "between engines"),
        (("random", "random", 0), "positive integer"),
        (("nobody", "random", 3), "unknown player"),
    ],
)
def test_match_rejects_bad_arguments(args, words):
    with pytest.raises(ValueError, match=words):
        run_match(tictactoe, *args)
