"""Exact search of boards over 64 bits (fastttt.search.alphabeta.WideSearcher, kernels.wide).

The wide kernels are compared with the 64-bit ones, the plain-Python reference and the dense
tables on every board both can do; on big boards (9 x 9 to 19 x 19, free and gravity) with
positions built so that the value is plain: an open four, a four-three, a board filled with a
pattern that holds no line. Scores: side to move, 0 draw, ``score_base - s`` for a win with the
winner's ``s``-th stone (:mod:`fastttt.values`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from test_search import live_positions, random_positions, reference_score, sign

from fastttt.errors import (
    GameSpecError,
    InvalidArgumentError,
    SearchBudgetError,
    UnknownPlayerError,
)
from fastttt.games.mnk.board import BITBOARD_CELLS, Position, line_masks, win_masks
from fastttt.games.mnk.spec import connect4, mnk, tictactoe
from fastttt.games.movetext import load_state, parse_moves
from fastttt.search.alphabeta import (
    Searcher,
    WideSearcher,
    score_base,
    score_from_table,
    searcher,
    solve_batch,
    solve_position,
)

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "connect4"
END_EASY = DATA / "Test_L3_R1"
MIDDLE_EASY = DATA / "Test_L2_R1"
needs_data = pytest.mark.skipif(not END_EASY.exists(), reason="benchmark data not in ../shared")


# --- positions whose value is plain ------------------------------------------------------
def cell(spec, r: int, c: int) -> int:
    return r * spec.cols + c


def position(spec, xs, os) -> Position:
    """The position with X on cells ``xs`` and O on ``os`` (given as (row, col) pairs)."""
    first = sum(1 << cell(spec, r, c) for r, c in xs)
    second = sum(1 << cell(spec, r, c) for r, c in os)
    return Position(spec, first, second)


def far_corners(spec, n: int) -> list[tuple[int, int]]:
    """``n`` cells along the board's edge, far from the middle (stones that make no line)."""
    out = []
    for c in range(0, spec.cols, 3):
        out += [(0, c), (spec.rows - 1, c)]
    return out[:n]


def filled(spec, empty: set[int], rng=None) -> Position:
    """The board filled with a pattern holding no line of 3 (X where (c + 2r) mod 4 < 2: runs
    of at most 2 in every direction), except the cells ``empty`` (with gravity, the top cells
    of columns); then stones of the bigger side are taken off (with gravity the top stone of
    a column), or turned over, until the counts are legal."""
    rng = rng or np.random.default_rng(0)
    owner = {
        x: 0 if (x % spec.cols + 2 * (x // spec.cols)) % 4 < 2 else 1
        for x in range(spec.cells)
        if x not in empty
    }

    def top(x: int) -> bool:  # may leave the board without leaving a stone floating
        return not spec.gravity or x < spec.cols or x - spec.cols not in owner

    while True:
        diff = sum(1 for v in owner.values() if v == 0) - sum(1 for v in owner.values() if v == 1)
        if diff in (0, 1):
            break
        big = 0 if diff > 1 else 1
        removable = [x for x, v in owner.items() if v == big and top(x)]
        if removable:
            del owner[removable[int(rng.integers(len(removable)))]]
        else:
            stones = sorted(x for x, v in owner.items() if v == big)
            owner[stones[int(rng.integers(len(stones)))]] = 1 - big
    pos = Position(
        spec,
        sum(1 << x for x, v in owner.items() if v == 0),
        sum(1 << x for x, v in owner.items() if v == 1),
    )
    return pos


# --- the wide kernels against the 64-bit ones, the reference and the tables --------------
@pytest.mark.parametrize(
    "spec, limit",
    [
        (tictactoe, None),
        (mnk(3, 4, 3, gravity=True), None),
        (mnk(4, 3, 3), 150),
        (mnk(3, 5, 3, gravity=True), 150),
        (mnk(2, 5, 2), None),
        (mnk(1, 7, 3), None),
    ],
    ids=str,
)
def test_wide_matches_reference(spec, limit):
    w = WideSearcher(spec, tt_bits=17)
    positions = (
        live_positions(spec)
        if limit is None
        else random_positions(spec, limit, spec.cells // 2, seed=1)
    )
    for p in positions:
        ref = reference_score(p)
        assert w.solve(p).score == ref, p
        assert w.solve(p, weak=True).score == sign(ref), p


@pytest.mark.parametrize(
    "spec, n, min_ply",
    [
        (mnk(4, 4, 3), 400, 0),
        (mnk(4, 4, 4), 200, 4),
        (mnk(4, 4, 4, gravity=True), 300, 0),
        (mnk(4, 5, 4, gravity=True), 200, 4),
        (mnk(3, 4, 3, gravity=True), 300, 0),
        (mnk(5, 5, 4), 30, 12),
        (mnk(4, 6, 4, gravity=True), 60, 10),
    ],
    ids=str,
)
def test_wide_matches_the_64_bit_kernels(spec, n, min_ply):
    narrow, w = Searcher(spec), WideSearcher(spec)
    assert not narrow.wide and w.wide
    positions = random_positions(spec, n, min_ply, seed=5)
    for p in positions:
        assert w.solve(p).score == narrow.solve(p).score, p
    scores, nodes = w.solve_batch(w.batch(positions))
    assert scores.tolist() == [narrow.solve(p).score for p in positions]
    assert (nodes >= 0).all()


@pytest.mark.parametrize("spec", [mnk(4, 4, 3), mnk(4, 5, 4), mnk(4, 5, 4, gravity=True)], ids=str)
def test_potential_ordering_keeps_the_scores(spec):
    """The ordering of big free boards (lines opened or blocked, then centre-first) on boards
    the 64-bit kernels check it on."""
    narrow, w = Searcher(spec), WideSearcher(spec, potential=True)
    assert w.potential and not WideSearcher(spec).potential
    for p in random_positions(spec, 80, 4, seed=8):
        assert w.solve(p).score == narrow.solve(p).score, p


@pytest.mark.parametrize(
    "spec, sample",
    [
        (tictactoe, None),
        (mnk(4, 4, 4, gravity=True), 3000),
        (mnk(4, 4, 3), 3000),
        (mnk(4, 4, 4), 1500),
    ],
    ids=str,
)
def test_wide_matches_the_dense_tables(spec, sample):
    from fastttt.tables.dense import solve

    sol = solve(spec)
    codes = sol.reachable_codes()
    values, depths = sol.lookup(codes)
    live = depths > 0
    codes, values, depths = codes[live], values[live].astype(np.int64), depths[live]
    if sample is not None:
        pick = np.random.default_rng(3).choice(codes.size, sample, replace=False)
        codes, values, depths = codes[pick], values[pick], depths[pick].astype(np.int64)
    positions = [Position.from_code(spec, int(c)) for c in codes]
    plies = np.array([p.ply for p in positions])
    relative = np.where(plies % 2 == 0, values, -values)
    expected = score_from_table(spec, plies, relative, depths)
    w = WideSearcher(spec)
    scores, _ = w.solve_batch(w.batch(positions))
    assert np.array_equal(scores, expected)
    weak, _ = w.solve_batch(w.batch(positions[:500]), weak=True)
    assert np.array_equal(weak, np.sign(expected[:500]))


@pytest.mark.slow
@pytest.mark.parametrize("spec", [mnk(4, 4, 4), mnk(4, 4, 4, gravity=True)], ids=str)
def test_wide_matches_the_dense_tables_every_position(spec):
    test_wide_matches_the_dense_tables(spec, None)


@needs_data
@pytest.mark.parametrize("limit", [300, pytest.param(1000, marks=pytest.mark.slow)])
def test_wide_end_easy_exact(limit):
    from fastttt.search.connect4 import from_move_string, read_benchmark

    moves, expected = read_benchmark(END_EASY)
    moves, expected = moves[:limit], expected[:limit]
    w = WideSearcher(connect4)
    scores, _ = w.solve_batch(w.batch([from_move_string(connect4, m) for m in moves]))
    assert np.array_equal(scores, expected)
    weak, _ = w.solve_batch(
        w.batch([from_move_string(connect4, m) for m in moves[:200]]), weak=True
    )
    assert np.array_equal(weak, np.sign(expected[:200]))


@needs_data
def test_wide_middle_easy_sample_exact():
    from fastttt.search.connect4 import from_move_string, read_benchmark

    moves, expected = read_benchmark(MIDDLE_EASY)
    w = WideSearcher(connect4)
    scores, _ = w.solve_batch(w.batch([from_move_string(connect4, m) for m in moves[:100]]))
    assert np.array_equal(scores, expected[:100])


# --- dispatch ------------------------------------------------------------------------------
def test_searcher_dispatches_by_the_layout():
    assert type(Searcher(connect4)) is Searcher  # the 64-bit fast path, unchanged
    assert type(Searcher(mnk(4, 13, 4))) is Searcher  # transposed, 65 bits the other way
    for spec in (
        mnk(8, 8, 4, gravity=True),
        mnk(4, 14, 4, gravity=True),
        mnk(8, 8, 5),
        mnk(19, 19, 5),
        mnk(32, 32, 5),
    ):
        s = Searcher(spec, tt_bits=17)
        assert isinstance(s, WideSearcher) and s.wide
        assert s.potential == (not spec.gravity and spec.cells > 64)
    assert isinstance(searcher(mnk(9, 9, 5)), WideSearcher)
    assert searcher(mnk(9, 9, 5)) is searcher(mnk(9, 9, 5))
    w = WideSearcher(mnk(9, 9, 5), tt_bits=17)
    with pytest.raises(GameSpecError, match="64-bit layout"):
        w.internal(Position.empty(w.spec))


def test_first_stone_wins_when_k_is_1():
    spec = mnk(1, 70, 1)
    assert solve_position(Position.empty(spec)).score == score_base(spec) - 1
    assert solve_position(Position.empty(spec), weak=True).score == 1


@pytest.mark.parametrize("spec", [mnk(4, 4, 3), mnk(4, 5, 4, gravity=True), mnk(9, 8, 4)])
def test_the_wide_tables_move_is_a_legal_move_of_the_position(spec):
    """``table_move`` reads the wide table: None before any search, then a legal move (a
    column with gravity) for the positions the search stored."""
    w = WideSearcher(spec, tt_bits=17)
    positions = random_positions(spec, 30, min_ply=2, seed=5)
    assert all(w.table_move(p) is None for p in positions)
    hints = 0
    for pos in positions:
        w.solve(pos)
        hint = w.table_move(pos)
        assert hint is None or hint in pos.legal_moves(), (pos, hint)
        hints += hint is not None
    assert hints >= 10, hints


# --- wide positions: parsing and the board ---------------------------------------------------
def test_positions_over_64_cells_parse_and_round_trip():
    spec = mnk(19, 19, 5)
    assert spec.cells == 361 and len(line_masks(spec)) == 2 * 19 * 15 + 2 * 15 * 15
    p = Position.from_moves(spec, [180, 0, 360, 18, 342])
    assert Position.from_text(spec, str(p)) == p
    assert eval(repr(p)) == p  # noqa: S307 - repr is a constructor expression
    assert p.first >> 360 & 1 and p.to_move == 1 and p.ply == 5
    assert Position.from_code(spec, p.code) == p
    moves = [180, 0, 360, 18, 342]
    assert load_state("19x19k5", moves="10,10 1,1 19,19 1,19 19,1") == (spec, p, moves)
    assert load_state("19x19k5", position=str(p))[1] == p
    assert parse_moves(spec, "19,19 1,1")[1] == [360, 0]
    gravity = mnk(10, 10, 5, gravity=True)
    q = load_state("10x10k5g", moves="10,10,1")[1]
    assert q.legal_moves() == list(range(10)) and q.first >> 99 & 1 and q.second >> 89 & 1
    assert Position.from_text(gravity, str(q)) == q
    with pytest.raises(GameSpecError, match="at most 64 cells"):
        win_masks(spec)
    assert len(win_masks(mnk(8, 8, 5))) > 0 and BITBOARD_CELLS == 64


def test_a_line_over_the_64th_cell_wins():
    spec = mnk(19, 19, 5)
    p = Position.from_moves(spec, [356, 0, 357, 1, 358, 2, 359, 3, 360])
    assert p.winner() == 0 and p.is_over()
    with pytest.raises(Exception, match="already over"):
        solve_position(p)


# --- hand-checked values on big boards ---------------------------------------------------------
def test_open_four_wins_at_once_19x19():
    spec = mnk(19, 19, 5)
    base = score_base(spec)
    assert base == 182
    four = [(9, 7), (9, 8), (9, 9), (9, 10)]  # (9, 6) and (9, 11) complete it
    p = position(spec, four, far_corners(spec, 4))  # X to move: 5th stone wins
    assert p.to_move == 0
    r = solve_position(p)
    assert r.score == base - 5 and r.nodes == 0
    # O to move, X has the open four and one more stone: O cannot block both ends
    q = position(spec, four + [(0, 1)], far_corners(spec, 4))
    r = solve_position(q)
    assert r.score == -(base - 6) and r.nodes <= 2
    assert solve_position(q, weak=True).score == -1


def test_open_three_wins_with_the_second_stone_19x19():
    spec = mnk(19, 19, 5)
    three = [(9, 8), (9, 9), (9, 10)]  # (9, 7) or (9, 11) makes an open four
    p = position(spec, three, far_corners(spec, 3))
    r = solve_position(p)
    assert r.score == score_base(spec) - (3 + 2)
    assert solve_position(p, weak=True).score == 1
    # each open four X can make wins: O, to move, faces two threats
    for c in (7, 11):
        assert solve_position(p.play(cell(spec, 9, c))).score == -r.score


def test_four_three_wins_with_the_third_stone_19x19():
    """X plays (9, 9): a four (O must take (9, 10)) and an open three down column 9; then
    an open four. No X move makes two threats at once, so no faster win."""
    spec = mnk(19, 19, 5)
    xs = [(9, 6), (9, 7), (9, 8), (7, 9), (8, 9)]
    os = [(9, 5), *far_corners(spec, 4)]
    p = position(spec, xs, os)
    t0 = time.perf_counter()
    r = solve_position(p)
    assert r.score == score_base(spec) - (5 + 3)
    assert time.perf_counter() - t0 < 5
    child = p.play(cell(spec, 9, 9))
    assert solve_position(child).score == -r.score  # O's forced block, then X's open four


def test_blocked_board_is_a_draw_19x19():
    spec = mnk(19, 19, 5)
    empty = {cell(spec, r, c) for r, c in ((2, 3), (7, 11), (12, 4), (16, 15), (4, 16))}
    p = filled(spec, empty)
    assert 0 < spec.cells - p.ply <= 7 and p.winner() is None
    assert solve_position(p).score == 0 == reference_score(p)


@pytest.mark.parametrize(
    "spec, n_empty",
    [
        (mnk(9, 9, 5), 4),
        (mnk(8, 10, 4, gravity=True), 6),
        (mnk(12, 9, 4, gravity=True), 6),
        pytest.param(mnk(9, 9, 5), 6, marks=pytest.mark.slow),
        pytest.param(mnk(15, 15, 5), 6, marks=pytest.mark.slow),
        pytest.param(mnk(19, 19, 5), 6, marks=pytest.mark.slow),
    ],
    ids=str,
)
def test_near_full_boards_match_the_reference(spec, n_empty):
    """Few empty cells left in a filled pattern, plus stones moved to make threats: the wide
    search against the plain-Python negamax (slow on big boards: it reads every line of the
    board at every node)."""
    w = WideSearcher(spec)
    rng = np.random.default_rng(spec.cells + n_empty)
    checked = 0
    for _ in range(12):
        if spec.gravity:  # the top cells of some columns are empty
            empty = set()
            for c in rng.choice(spec.cols, 3, replace=False):
                for r in range(int(rng.integers(1, 3))):
                    empty.add(cell(spec, r, int(c)))
        else:
            empty = {int(x) for x in rng.choice(spec.cells, n_empty, replace=False)}
        p = filled(spec, empty, rng)
        # swap a few stone pairs (X <-> O) to create threats, keeping the counts
        for _ in range(int(rng.integers(0, 4))):
            x = int(rng.choice([c for c in range(spec.cells) if p.first >> c & 1]))
            o = int(rng.choice([c for c in range(spec.cells) if p.second >> c & 1]))
            q = Position(spec, p.first ^ (1 << x) | (1 << o), p.second ^ (1 << o) | (1 << x))
            if not q.is_over():
                p = q
        if p.is_over():
            continue
        assert w.solve(p).score == reference_score(p), p
        checked += 1
    assert checked >= 6


# --- budgets and Ctrl-C ----------------------------------------------------------------------
def test_node_and_time_budgets_stop_the_wide_search():
    spec = mnk(19, 19, 5)
    s = WideSearcher(spec, tt_bits=18)
    open_board = Position.from_moves(spec, [180, 181])
    before = s.nodes
    with pytest.raises(SearchBudgetError, match="5,000 nodes"):
        s.solve(open_board, max_nodes=5000)
    assert 5000 <= s.nodes - before <= 5001
    t0 = time.perf_counter()
    with pytest.raises(SearchBudgetError, match="0.2 s"):
        s.solve(open_board, seconds=0.2)
    assert time.perf_counter() - t0 < 2
    p = position(spec, [(9, 8), (9, 9), (9, 10)], far_corners(spec, 3))
    assert s.solve(p, max_nodes=10**6, seconds=60).score == score_base(spec) - 5  # usable
    with pytest.raises(InvalidArgumentError):
        s.solve(p, max_nodes=0)
    with pytest.raises(InvalidArgumentError):
        s.solve(p, seconds=-1)


def test_budgets_stop_the_64_bit_search_too():
    s = Searcher(mnk(5, 5, 5))
    with pytest.raises(SearchBudgetError):
        s.solve(Position.from_moves(s.spec, [12]), max_nodes=20000)
    with pytest.raises(SearchBudgetError):
        s.solve(Position.from_moves(s.spec, [12]), seconds=0.1)
    assert (
        s.solve(Position.from_moves(s.spec, [12, 6, 7, 13, 11, 17, 16, 8])).score
        == Searcher(s.spec).solve(Position.from_moves(s.spec, [12, 6, 7, 13, 11, 17, 16, 8])).score
    )


def test_cli_wide_search_interrupted_exits_130(tmp_path):
    from test_interrupts import assert_interrupted, interrupt_cli

    rc, _out, err, seconds = interrupt_cli(
        ["solve", "19x19k5", "--search", "--moves", "10,10"], tmp_path
    )
    assert_interrupted(rc, err, seconds, tmp_path)


# --- the command line and players -------------------------------------------------------------
def _solve_cli(*args):
    res = subprocess.run(
        [sys.executable, "-m", "fastttt", "solve", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_cli_solves_near_finished_15x15_and_19x19():
    spec = mnk(15, 15, 5)
    empty = {cell(spec, r, c) for r, c in ((1, 1), (5, 9), (9, 3), (13, 12))}
    p = filled(spec, empty)
    xs = [x for x in range(spec.cells) if p.first >> x & 1]
    os = [x for x in range(spec.cells) if p.second >> x & 1]
    moves = [m for i, x in enumerate(xs) for m in ([x, os[i]] if i < len(os) else [x])]
    people = " ".join(f"{m // 15 + 1},{m % 15 + 1}" for m in moves)  # the CLI's row,col
    assert load_state("15x15k5", moves=people) == (spec, p, moves)
    assert searcher(spec).solve(p).score == 0 == reference_score(p)
    out = _solve_cli("15x15k5", "--search", "--moves", people)
    assert out["position"] == str(p)
    assert _outcome(out) == "draw"
    big = mnk(19, 19, 5)
    q = position(big, [(9, 6), (9, 7), (9, 8), (7, 9), (8, 9)], [(9, 5), *far_corners(big, 4)])
    out = _solve_cli("19x19k5", "--search", "--position", str(q))
    assert _outcome(out) == "first"
    if "score" in out:
        assert out["score"] == score_base(big) - 8


def _outcome(out: dict) -> str:
    """ "first", "draw" or "second" from ``solve --search --json``: its alpha-beta ``score``
    (side to move), or the ``winner`` field of a prover's answer."""
    if "winner" in out:
        return out["winner"]
    mover_first = out["position"].count("X") == out["position"].count("O")
    if out["score"] == 0:
        return "draw"
    return "first" if (out["score"] > 0) == mover_first else "second"


def test_cli_tables_refuse_wide_boards_in_one_line():
    res = subprocess.run(
        [sys.executable, "-m", "fastttt", "solve", "9x9k5"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert "at most 64 cells" in res.stderr and "--search" in res.stderr


def test_players_on_wide_boards():
    from fastttt.play.players import (
        default_player,
        make_player,
        move_outcomes,
        perfect_play_cost,
        perfect_play_reach,
        uses_table,
    )

    spec = mnk(9, 9, 5)
    assert perfect_play_reach(spec) is None and not uses_table(spec)
    assert not uses_table(mnk(9, 9, 5, gravity=True))
    assert "exact search" in perfect_play_cost(spec)
    assert default_player(spec) == "random"
    make_player("perfect", spec)
    with pytest.raises(UnknownPlayerError, match="at most 64 cells"):
        make_player("alphabeta:2", spec)
    p = filled(spec, {cell(spec, 0, 0), cell(spec, 4, 4), cell(spec, 8, 8)})
    outcomes = move_outcomes(p)
    assert set(outcomes) == set(p.legal_moves())
    assert all(o.result == 0 for o in outcomes.values())


def test_pairing_and_pictures_take_wide_boards():
    from fastttt.search.pairing import find_pairing
    from fastttt.views.svg import render

    assert find_pairing(mnk(9, 9, 9)).found
    spec = mnk(19, 19, 5)
    won = Position.from_moves(spec, [356, 0, 357, 1, 358, 2, 359, 3, 360])
    assert "win-line" in render(won)


def test_solve_batch_of_the_64_bit_kernels_is_unchanged():
    spec = mnk(4, 4, 4, gravity=True)
    s = Searcher(spec)
    batch = s.batch_from_codes(np.array([Position.from_moves(spec, [0, 1]).code]))
    assert (
        solve_batch(s, batch)[0][0]
        == WideSearcher(spec).solve(Position.from_moves(spec, [0, 1])).score
    )


@pytest.mark.slow
def test_kernels_run_after_loading_from_a_fresh_cache(tmp_path):
    """Compile into an empty Numba cache, then load from it in a second process: the kernels
    once segfaulted when loaded (mutually recursive functions in the cache)."""
    code = (
        "from fastttt.search.alphabeta import WideSearcher; "
        "from fastttt.games.mnk.board import Position; "
        "w = WideSearcher('3x3'); print(w.solve(Position.from_moves('3x3', [4])).score)"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    for _ in range(2):
        res = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
        )
        assert res.returncode == 0 and res.stdout.strip() == "0", res.stderr
