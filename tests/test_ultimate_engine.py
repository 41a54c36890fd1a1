"""Ultimate engine: evaluation, plain minimax, alpha-beta, pruning, exact solving, players,
each against a plain-Python reference on small cases."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fastttt.kernels import ultimate as K
from fastttt.search.ultimate.engine import two_table
from fastttt.ultimate import (
    MATE,
    Coeffs,
    Engine,
    UltimateState,
    evaluate,
    make_player,
    solve_exact,
)

from ultimate_reference import LINES, RefState, TreeTooLarge, minimax

COEFFS = Coeffs()


def _ref_evaluate(s: UltimateState, co: Coeffs = COEFFS) -> int:
    """The evaluation from its definition (Coeffs docstring), side to move's view."""
    claims = s.claims()
    closed = s.closed_mask()

    def two(cells_mine, cells_theirs):
        return sum(
            1
            for line in LINES
            if sum(i in cells_mine for i in line) == 2 and not any(i in cells_theirs for i in line)
        )

    total = 0
    weights = {
        4: co.board_center,
        0: co.board_corner,
        2: co.board_corner,
        6: co.board_corner,
        8: co.board_corner,
        1: co.board_edge,
        3: co.board_edge,
        5: co.board_edge,
        7: co.board_edge,
    }
    for b in range(9):
        if claims[b] is not None:
            total += weights[b] * (1 if claims[b] == 0 else -1)
        elif not closed >> b & 1:
            xs = {c for c in range(9) if s.cell(b * 9 + c) == 0}
            os_ = {c for c in range(9) if s.cell(b * 9 + c) == 1}
            total += co.local_two * (two(xs, os_) - two(os_, xs))
            total += co.local_center * ((4 in xs) - (4 in os_))
            total += co.local_corner * (len(xs & {0, 2, 6, 8}) - len(os_ & {0, 2, 6, 8}))
    fx = {b for b in range(9) if claims[b] == 0}
    fo = {b for b in range(9) if claims[b] == 1}
    dead = {b for b in range(9) if closed >> b & 1 and claims[b] is None}
    total += co.frame_two * (two(fx, fo | dead) - two(fo, fx | dead))
    if s.to_move == 1:
        total = -total
    if s.forced_board is None:
        total += co.free_move
    return total


def _random_states(
    count: int, seed: int, min_ply: int = 0, max_ply: int = 81, open_won_boards: bool = False
):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = UltimateState(open_won_boards)
        target = rng.randint(min_ply, max_ply)
        while not s.is_over() and s.ply < target:
            s = s.play(rng.choice(s.legal_moves()))
        if not s.is_over():
            out.append(s)
    return out


def _ref_negamax(s: UltimateState, depth: int, ply: int, prune=None, look: int = 1) -> int:
    """Plain negamax with the kernel's score convention; ``prune=(delta, stop)`` applies the
    handout's selection (value over ``look`` plies, < delta below the best, > -stop)."""
    if s.is_over():
        return 0 if s.is_draw() else -MATE + ply
    if depth <= 0:
        return _ref_evaluate(s)
    moves = s.legal_moves()
    if prune is not None:
        vals = [-_ref_negamax(s.play(m), look - 1, ply + 1) for m in moves]
        top = max(vals)
        keep = [v > top - prune[0] and v > -prune[1] for v in vals]
        moves = [m for m, k in zip(moves, keep, strict=True) if k]
        if not moves:
            return -MATE + ply + 1
    return max(-_ref_negamax(s.play(m), depth - 1, ply + 1, prune, look) for m in moves)


def test_evaluate_matches_definition():
    for s in _random_states(300, 1) + _random_states(100, 2, open_won_boards=True):
        assert evaluate(s) == _ref_evaluate(s), str(s)
    odd = Coeffs(7, -3, 11, 5, 2, -1, 13, 4)
    for s in _random_states(100, 3):
        assert evaluate(s, odd) == _ref_evaluate(s, odd)


def test_minimax_root_matches_plain_negamax():
    moves = np.zeros(81, dtype=np.int32)
    scores = np.zeros(81, dtype=np.int64)
    for depth in (1, 2):
        for s in _random_states(12, 10 + depth, 20, 70):
            args = (s.array(), depth, COEFFS.array(), two_table(), moves, scores)
            n = K.minimax_root(*args, np.zeros(1, np.uint8))
            assert list(moves[:n]) == s.legal_moves()
            for m, v in zip(moves[:n], scores[:n], strict=True):
                assert v == -_ref_negamax(s.play(int(m)), depth - 1, 1)


def test_alphabeta_equals_plain_negamax_at_fixed_depth():
    for depth in (1, 2, 3):
        for s in _random_states(6, 20 + depth, 25, 70):
            score, move, nodes, done = Engine(tt_bits=12).search_depth(s, depth)
            assert done and move in s.legal_moves()
            assert score == _ref_negamax(s, depth, 0)
            assert -_ref_negamax(s.play(move), depth - 1, 1) == score


def test_heuristic_pruning_matches_reference():
    for prune, look in (((10, 10_000), 1), ((1, 10_000), 1), ((25, 15), 1), ((15, 10_000), 2)):
        for s in _random_states(5, 31, 30, 65):
            e = Engine(tt_bits=12, prune=prune, lookahead=look)
            score, move, _, done = e.search_depth(s, 3)
            assert done
            assert score == _ref_negamax(s, 3, 0, prune, look), (prune, look, str(s))


def _endgames(count: int, back: int, seed: int):
    """Positions ``back`` plies before the end of random games (small trees)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        moves = []
        s = UltimateState()
        while not s.is_over():
            m = rng.choice(s.legal_moves())
            moves.append(m)
            s = s.play(m)
        out.append(UltimateState.from_moves(moves[: len(moves) - back]))
    return out


def _ref_state(s: UltimateState) -> RefState:
    ref = RefState()
    for b in range(9):
        for c in range(9):
            who = s.cell(b * 9 + c)
            if who is not None:
                ref.grid[b][c] = "XO"[who]
        cl = s.claims()[b]
        ref.claims[b] = None if cl is None else "XO"[cl]
    ref.forced = s.forced_board
    ref.player = "XO"[s.to_move]
    return ref


def _compare_exact(backs, per_back: int, limit: int) -> tuple[int, dict]:
    seen = {"win": 0, "loss": 0, "draw": 0}
    compared = 0
    for back in backs:
        for s in _endgames(per_back, back, 40 + back):
            try:
                value, plies = minimax(_ref_state(s), limit=limit)
            except TreeTooLarge:
                continue
            compared += 1
            verdict, score, move, nodes = solve_exact(s, 2_000_000)
            rel = value if s.to_move == 0 else -value
            expected = "draw" if rel == 0 else f"{'win' if rel > 0 else 'loss'} in {plies}"
            assert verdict == expected, str(s)
            seen[verdict.split()[0]] += 1
            assert move in s.legal_moves()
            after, _ = minimax(_ref_state(s.play(move)))
            assert after == value  # the best move keeps the value
    return compared, seen


def test_exact_solving_matches_exhaustive_minimax():
    compared, seen = _compare_exact((2, 3, 4, 5, 6, 7), 12, 3000)
    assert compared >= 30 and min(seen.values()) > 0, (compared, seen)


@pytest.mark.slow
def test_exact_solving_matches_exhaustive_minimax_deeper():
    compared, seen = _compare_exact(range(6, 12), 15, 50_000)
    assert compared >= 15 and min(seen.values()) > 0, (compared, seen)


def test_solve_exact_reports_estimate_when_budget_is_too_small():
    verdict, score, move, nodes = solve_exact(UltimateState(), 5000)
    assert verdict == "estimate" and move in range(81) and 0 < nodes <= 5000 + 82
    assert abs(score) < K.MATE_BOUND


def test_engine_finds_win_in_one_and_avoids_loss():
    x = {0, 1, 2, 9, 10, 11, 18, 19}
    o = {27, 28, 36, 37, 45, 46, 54, 55}
    text = "/".join(
        "".join(
            "X" if m in x else "O" if m in o else "."
            for m in ((r // 3 * 3 + c // 3) * 9 + (r % 3) * 3 + c % 3 for c in range(9))
        )
        for r in range(9)
    )
    s = UltimateState.from_text(text + " XX....... 2")
    res = Engine().search(s, nodes=10_000)
    assert res.move == 20 and res.verdict == "win in 1" and res.score == MATE - 1
    for name in ("engine:n2000", "minimax:1", "mcts:300"):
        assert make_player(name).choose(s, random.Random(0)) == 20, name


def test_search_budgets_and_iterative_deepening():
    s = UltimateState.from_moves([40, 36])
    res = Engine().search(s, nodes=20_000)
    assert res.move in s.legal_moves() and res.depth >= 3 and res.verdict == "estimate"
    assert res.nodes <= 20_000 + 82
    res = Engine().search(s, max_depth=4)
    assert res.depth == 4
    res = Engine().search(s, time_ms=50)
    assert res.depth >= 2 and res.seconds < 5


def _play(a, b, seed: int) -> int | None:
    rng = random.Random(seed)
    s = UltimateState()
    players = (a, b)
    while not s.is_over():
        s = s.play(players[s.to_move].choose(s, rng))
    return s.winner()


def test_engine_beats_random_and_minimax():
    engine = make_player("engine:n3000")
    rnd = make_player("random")
    wins = 0
    for g in range(10):
        w = _play(engine, rnd, g) if g % 2 == 0 else _play(rnd, engine, g)
        wins += w == (0 if g % 2 == 0 else 1)
    assert wins == 10
    mm = make_player("minimax:2")
    score = 0
    for g in range(6):
        w = _play(engine, mm, g) if g % 2 == 0 else _play(mm, engine, g)
        if w is not None:
            score += 1 if w == g % 2 else -1
    assert score > 0


def test_mcts_beats_random():
    mcts = make_player("mcts:300")
    rnd = make_player("random")
    wins = sum(_play(mcts, rnd, g) == 0 for g in range(6))
    assert wins >= 5


def test_make_player_names_and_errors():
    assert make_player("engine").name == "engine:200"
    assert make_player("Engine:n500").name == "engine:n500"
    assert make_player("mcts:50").name == "mcts:50"
    assert make_player(" minimax:2 ").name == "minimax:2"
    assert make_player("random").name == "random"
    for bad in ("perfect", "engine:0", "engine:nX", "mcts", "minimax:-1", "random:3"):
        with pytest.raises(ValueError):
            make_player(bad)


def test_players_are_reproducible_with_a_seed():
    s = UltimateState.from_moves([40])
    for name in ("random", "mcts:200", "minimax:2", "engine:n5000"):
        a = make_player(name).choose(s, random.Random(7))
        b = make_player(name).choose(s, random.Random(7))
        assert a == b and a in s.legal_moves()
