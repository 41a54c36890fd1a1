"""Exact search (fastttt.search.alphabeta, kernels.negamax) against a plain-Python negamax and the
tables.

Scores: side to move, 0 draw, ``score_base - s`` for a win with the winner's ``s``-th stone.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from fastttt.errors import InvalidArgumentError, InvalidPositionError, SearchBudgetError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import GameSpec, connect4, mnk, tictactoe
from fastttt.search.alphabeta import (
    Batch,
    Searcher,
    best_moves,
    move_scores,
    score_base,
    score_from_table,
    solve_batch,
    solve_position,
)
from fastttt.values import benchmark_score

from naive import benchmark_score_naive


# --- the slow, obviously-correct reference: plain-Python negamax over Position objects ---
def reference_score(pos: Position) -> int:
    """Exact score of a live position by exhaustive negamax (no pruning)."""
    return _scorer(pos.spec)(pos.first, pos.second)


@cache
def _scorer(spec: GameSpec):
    base = score_base(spec)

    @cache
    def score(first: int, second: int) -> int:
        p = Position(spec, first, second, check=False)
        best = None
        for move in p.legal_moves():
            child = p.play(move)
            if child.winner() is not None:
                value = base - (p.ply // 2 + 1)  # the mover's stones after this move
            elif child.is_full():
                value = 0
            else:
                value = -score(child.first, child.second)
            if best is None or value > best:
                best = value
        assert best is not None
        return best

    return score


def live_positions(spec: GameSpec, limit: int | None = None) -> list[Position]:
    """Every reachable live position (breadth first), or the first ``limit`` of them."""
    seen = {(0, 0)}
    frontier = [Position.empty(spec)]
    out: list[Position] = []
    while frontier:
        nxt = []
        for p in frontier:
            out.append(p)
            if limit is not None and len(out) >= limit:
                return out
            for _, c in p.children():
                if not c.is_over() and (c.first, c.second) not in seen:
                    seen.add((c.first, c.second))
                    nxt.append(c)
        frontier = nxt
    return out


def random_positions(spec: GameSpec, n: int, min_ply: int, seed: int = 0) -> list[Position]:
    """``n`` live positions with at least ``min_ply`` stones, from random games."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < n:
        p = Position.empty(spec)
        target = rng.randint(min_ply, spec.cells - 1)
        while p.ply < target and not p.is_over():
            p = p.play(rng.choice(p.legal_moves()))
        if not p.is_over() and p.ply >= min_ply:
            out.append(p)
    return out


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


# --- conventions ------------------------------------------------------------------------
def test_score_base():
    assert score_base(connect4) == 22
    assert score_base(mnk(4, 4, 4)) == 9
    assert score_base(tictactoe) == 6  # X's fifth stone on the last cell scores 1, not 0


def test_benchmark_readme_examples():
    assert solve_position(Position.from_moves(connect4, [3, 3, 4, 4])).score == 18
    moves = [int(c) - 1 for c in "44455554221"]
    assert solve_position(Position.from_moves(connect4, moves)).score == -15


def test_immediate_win_and_forced_loss_scores():
    # X to move completes the top row with its 3rd stone: 6 - 3 = 3
    p = Position.from_text(tictactoe, "XX./OO./...")
    assert solve_position(p).score == 3
    # O to move facing two X threats: X wins with its 4th stone -> -(6 - 4)
    p = Position.from_text(tictactoe, "X.X/.O./X.O")
    assert solve_position(p).score == -2


# --- against the plain-Python reference --------------------------------------------------
@pytest.mark.parametrize(
    "spec, limit",
    [
        (tictactoe, None),
        (mnk(3, 4, 3, gravity=True), None),
        (mnk(4, 3, 3), 150),
        (mnk(3, 5, 3, gravity=True), 150),
    ],
    ids=str,
)
def test_search_matches_reference(spec, limit):
    s = Searcher(spec, tt_bits=17)
    for p in positions_for_reference(spec, limit, seed=1):
        ref = reference_score(p)
        assert s.solve(p).score == ref, p
        assert s.solve(p, weak=True).score == sign(ref), p


def positions_for_reference(spec, limit: int | None, seed: int) -> list[Position]:
    """Every live position (``limit`` None), else ``limit`` random late ones: the reference's
    memo stays small."""
    if limit is None:
        return live_positions(spec)
    return random_positions(spec, limit, spec.cells // 2, seed=seed)


def reference_move_scores(p: Position) -> dict[int, int]:
    """Each move's exact score from the mover's view, by the reference."""
    base = score_base(p.spec)
    expected = {}
    for m, child in p.children():
        if child.winner() is not None:
            expected[m] = base - (p.ply // 2 + 1)
        elif child.is_full():
            expected[m] = 0
        else:
            expected[m] = -reference_score(child)
    return expected


def test_move_scores_match_reference():
    spec = mnk(3, 4, 3, gravity=True)
    for p in live_positions(spec)[:300]:
        expected = reference_move_scores(p)
        assert move_scores(p) == expected
        assert max(expected.values()) == reference_score(p)
        top = max(expected.values())
        assert best_moves(p) == [m for m, v in expected.items() if v == top]


@pytest.mark.parametrize(
    "spec, limit",
    [(tictactoe, None), (mnk(3, 4, 3, gravity=True), None), (mnk(3, 5, 3, gravity=True), 60)],
    ids=str,
)
def test_best_moves_by_null_windows_match_the_reference(spec, limit):
    """Searcher.best_moves (one null-window search per move against the known score) keeps
    exactly the moves of the reference's best score, with the score given or searched."""
    for p in positions_for_reference(spec, limit, seed=2):
        expected = reference_move_scores(p)
        top = max(expected.values())
        best = [m for m, v in expected.items() if v == top]
        assert Searcher(spec, tt_bits=17).best_moves(p) == best, p
        assert Searcher(spec, tt_bits=17).best_moves(p, top) == best, p


def test_best_moves_refuses_a_wrong_score():
    spec = mnk(3, 4, 3, gravity=True)
    pos = Position.from_moves(spec, [1])
    score = reference_score(pos)
    with pytest.raises(InvalidArgumentError, match="keeps the score"):
        Searcher(spec, tt_bits=17).best_moves(pos, score + 1)
    with pytest.raises(InvalidArgumentError, match="scores more than"):
        Searcher(spec, tt_bits=17).best_moves(Position.from_moves(spec, [0, 1, 0, 1]), -3)


def test_best_moves_match_every_move_score_on_connect4():
    s = Searcher(connect4)
    for pos in random_positions(connect4, 6, min_ply=22, seed=11):
        scores = s.move_scores(pos)
        top = max(scores.values())
        assert s.best_moves(pos) == [m for m, v in scores.items() if v == top], pos


def test_score_from_table_matches_reference():
    from fastttt.tables.dense import solve

    sol = solve(tictactoe)
    for p in live_positions(tictactoe):
        rel = sol.value(p) if p.to_move == 0 else -sol.value(p)
        assert score_from_table(tictactoe, p.ply, rel, sol.depth(p)) == reference_score(p)


def test_symmetry_options_do_not_change_scores():
    spec = mnk(4, 4, 3)
    positions = live_positions(spec, 1500)[200:]
    plain = Searcher(spec, tt_bits=17, mirror=False, sym_ply=-1)
    full = Searcher(spec, tt_bits=17, mirror=True, sym_ply=16)
    for p in positions:
        assert plain.solve(p).score == full.solve(p).score


def test_small_table_with_collisions_stays_exact():
    spec = mnk(4, 4, 4, gravity=True)
    s = Searcher(spec, tt_bits=17)
    for p in random_positions(spec, 60, 8, seed=3):
        assert s.solve(p).score == reference_score(p)


# --- against the dense tables ------------------------------------------------------------
def _table_check(spec, sample: int | None) -> None:
    from fastttt.tables.dense import solve

    sol = solve(spec)
    codes = sol.reachable_codes()
    values, depths = sol.lookup(codes)
    live = depths > 0
    codes = codes[live]
    values, depths = values[live].astype(np.int64), depths[live].astype(np.int64)
    if sample is not None and sample < codes.size:
        pick = np.random.default_rng(7).choice(codes.size, sample, replace=False)
        codes, values, depths = codes[pick], values[pick], depths[pick]
    s = Searcher(spec)
    batch = s.batch_from_codes(codes)
    relative = np.where(batch.plies % 2 == 0, values, -values)
    expected = score_from_table(spec, batch.plies, relative, depths)
    scores, nodes = solve_batch(s, batch)
    wrong = np.flatnonzero(scores != expected)
    assert wrong.size == 0, (
        f"{wrong.size} wrong, e.g. {Position.from_code(spec, int(codes[wrong[0]]))!r}: "
        f"search {scores[wrong[0]]}, table {expected[wrong[0]]}"
    )
    assert (nodes >= 0).all() and nodes.sum() > 0
    weak, _ = solve_batch(
        s, Batch(batch.curs[:2000], batch.masks[:2000], batch.plies[:2000]), weak=True
    )
    assert (weak == np.sign(expected[:2000])).all()


@pytest.mark.parametrize(
    "spec, sample",
    [
        (tictactoe, None),
        (mnk(4, 4, 4, gravity=True), None),
        # odd and even heights and cell counts: the follow-up (claimeven) bound's parities
        (mnk(3, 5, 3, gravity=True), None),
        (mnk(5, 3, 3, gravity=True), None),
        (mnk(4, 4, 3, gravity=True), None),
        (mnk(4, 3, 3, gravity=True), None),
        (mnk(5, 4, 3, gravity=True), 20000),
        (mnk(4, 4, 3), 20000),
        (mnk(4, 4, 4), 4000),
    ],
    ids=str,
)
def test_search_matches_tables(spec, sample):
    _table_check(spec, sample)


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec",
    [mnk(4, 4, 3), mnk(4, 4, 4), mnk(5, 4, 4, gravity=True), mnk(4, 5, 4, gravity=True)],
    ids=str,
)
def test_search_matches_tables_every_position(spec):
    _table_check(spec, None)


# --- API errors ---------------------------------------------------------------------------
def test_finished_positions_are_rejected():
    with pytest.raises(InvalidPositionError, match="already over"):
        solve_position(Position.from_text(tictactoe, "XXX/OO./..."))
    with pytest.raises(InvalidPositionError):
        move_scores(Position.from_text(tictactoe, "XOX/XOO/OXX"))
    with pytest.raises(InvalidPositionError):
        solve_position("X../.../...")  # type: ignore[arg-type]


def test_board_too_wide_for_the_layout_goes_to_the_wide_search():
    from fastttt.search.alphabeta import WideSearcher

    assert isinstance(Searcher(mnk(8, 8, 4, gravity=True), tt_bits=17), WideSearcher)


def test_result_carries_nodes_and_time():
    r = solve_position(Position.from_moves(connect4, [3, 3, 3, 3, 2, 2]))
    assert r.nodes >= 1 and r.seconds >= 0 and not r.weak
    assert solve_position(Position.from_moves(connect4, [3, 3, 3, 3, 2, 2]), weak=True).weak


# --- the deterministic bench ----------------------------------------------------------------
def test_bench_is_deterministic():
    from fastttt.cli.bench import bench_positions, run_bench

    positions = bench_positions()
    assert positions == bench_positions()
    assert all(not p.is_over() for p in positions)
    first, second = run_bench(tt_bits=18), run_bench(tt_bits=18)
    assert first["nodes"] == second["nodes"] > 0
    assert [r["score"] for r in first["positions"]] == [r["score"] for r in second["positions"]]
    assert [r["score"] for r in first["positions"]] == [solve_position(p).score for p in positions]
    assert first["positions"][-1]["score"] == 0  # the empty 5 x 5 board, k = 4, is a draw


def test_hashed_keys_on_wide_free_boards():
    spec = mnk(4, 8, 4)  # 8 columns x 5 bits: keys do not fit 64 bits, the table hashes them
    s = Searcher(spec, tt_bits=17)
    assert not s.exact_keys
    for p in random_positions(spec, 25, spec.cells - 6, seed=11):
        assert s.solve(p).score == reference_score(p), p


def test_transposed_layout_for_wide_free_boards():
    spec = mnk(4, 13, 4)  # 13 columns x 5 bits = 65: the search lays rows out as columns
    s = Searcher(spec, tt_bits=17)
    assert s.transposed
    for p in random_positions(spec, 4, spec.cells - 4, seed=12):
        assert s.solve(p).score == reference_score(p), p
    assert Searcher(mnk(4, 14, 4, gravity=True), tt_bits=17).wide  # gravity: not transposed


def test_bench_command_json():
    import json

    from click.testing import CliRunner

    from fastttt.cli import main

    result = CliRunner().invoke(main, ["bench", "--json", "--tt-bits", "18"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["nodes"] == sum(r["nodes"] for r in data["positions"]) > 0
    bad = CliRunner().invoke(main, ["bench", "--tt-bits", "3"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


# --- several threads (lazy SMP) --------------------------------------------------------------
@pytest.mark.parametrize(
    "spec, min_ply", [(connect4, 14), (mnk(5, 5, 4, gravity=True), 6), (mnk(4, 4, 3), 4)], ids=str
)
def test_two_threads_give_the_same_scores(spec, min_ply):
    one, two = Searcher(spec), Searcher(spec, threads=2)
    for p in random_positions(spec, 30, min_ply, seed=5):
        first = one.solve(p)
        second = two.solve(p)
        assert second.score == first.score, p
        assert two.solve(p, weak=True).score == one.solve(p, weak=True).score, p
    assert two.nodes > 0 and two.threads == 2


def test_threads_stop_on_a_time_budget_and_on_a_node_budget():
    s = Searcher(connect4, threads=2)
    with pytest.raises(SearchBudgetError):
        s.solve(Position.empty(connect4), seconds=0.2)
    before = s.nodes
    with pytest.raises(SearchBudgetError):
        s.solve(Position.empty(connect4), max_nodes=50_000)
    assert s.nodes - before == 50_000  # a node budget: one thread, counted exactly
    p = Position.from_moves(connect4, [3, 3, 3, 3, 2, 2])
    assert s.solve(p).score == Searcher(connect4).solve(p).score  # still usable


# --- the benchmark solver's own score formula (issue 23) -------------------------------------
@pytest.mark.parametrize(
    "spec", [mnk(3, 5, 3, gravity=True), mnk(3, 4, 3, gravity=True), mnk(3, 3, 3)], ids=str
)
def test_benchmark_scores_follow_the_benchmark_formula_on_odd_and_even_boards(spec):
    s = Searcher(spec, tt_bits=17)
    positions = random_positions(spec, 120, 0, seed=9)
    plies = np.array([p.ply for p in positions])
    scores = np.array([s.solve(p).score for p in positions])
    converted = benchmark_score(spec, plies, scores)
    memo: dict[int, int] = {}
    expected = [benchmark_score_naive(p, memo) for p in positions]
    assert converted.tolist() == expected
    one_by_one = [
        benchmark_score(spec, p.ply, int(v)) for p, v in zip(positions, scores, strict=True)
    ]
    assert one_by_one == expected
    if spec.cells % 2:  # the second player's wins differ by one there, and only they
        assert (converted != scores).any()
    else:
        assert (converted == scores).all()


def test_halt_from_another_thread_stops_a_budgeted_search():
    import threading

    s = Searcher(mnk(6, 6, 5), tt_bits=17)
    errors = []

    def search():
        try:
            s.solve(Position.empty(mnk(6, 6, 5)), weak=True, seconds=300)
        except SearchBudgetError as err:
            errors.append(err)

    worker = threading.Thread(target=search)
    worker.start()
    for _ in range(1200):  # a minute at most
        s.halt()  # a search that starts after this clears the word: so again
        worker.join(0.05)
        if not worker.is_alive():
            break
    assert not worker.is_alive() and len(errors) == 1
    before = s.nodes
    with pytest.raises(SearchBudgetError):  # the word was cleared: this one runs its nodes
        s.solve(Position.empty(mnk(6, 6, 5)), weak=True, max_nodes=5000)
    assert s.nodes - before == 5000
