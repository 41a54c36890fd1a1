"""fastttt.search.heuristic against a plain-Python negamax on small boards, with and without
gravity."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fastttt.errors import FastTTTError
from fastttt.games.mnk.board import Position, win_masks
from fastttt.games.mnk.spec import connect4, mnk, tictactoe
from fastttt.search.heuristic import line_count_eval, search

SPECS = [
    tictactoe,
    mnk(3, 4, 3),
    mnk(4, 4, 3),
    mnk(4, 4, 3, gravity=True),
    mnk(4, 5, 4, gravity=True),
]


def ref_eval(pos):
    """The side to move's line count, written from the definition."""
    masks = [int(m) for m in win_masks(pos.spec)]
    side = pos.to_move
    winner = pos.winner()
    if winner is not None:
        return len(masks) + 1 if winner == side else -(len(masks) + 1)
    if pos.is_full():
        return 0
    mine, theirs = (pos.first, pos.second) if side == 0 else (pos.second, pos.first)
    return sum(m & theirs == 0 for m in masks) - sum(m & mine == 0 for m in masks)


def ref_negamax(pos, depth, counter):
    counter[0] += 1
    if pos.is_over() or depth == 0:
        return ref_eval(pos)
    return max(-ref_negamax(child, depth - 1, counter) for _, child in pos.children())


def ref_search(pos, depth):
    counter = [1]
    scored = [(m, -ref_negamax(ch, depth - 1, counter)) for m, ch in pos.children()]
    best = max(v for _, v in scored)
    return best, [m for m, v in scored if v == best], counter[0]


def test_eval_examples():
    assert line_count_eval(Position.empty(tictactoe)) == 0
    # X took the centre: O to move sees 4 lines free for itself, 8 for X
    assert line_count_eval(Position.from_moves(tictactoe, [4])) == 4 - 8
    won = Position.from_text(tictactoe, "XXX/OO./...")
    assert line_count_eval(won) == -9 and search(won, 3) == (-9, [], 1)
    assert line_count_eval(Position.empty(connect4)) == 0


def test_empty_3x3_full_depth():
    p = Position.empty(tictactoe)
    results = {m: search(p, 9, m) for m in ("minimax", "memo", "alphabeta")}
    assert {(s, tuple(b)) for s, b, _ in results.values()} == {(0, tuple(range(9)))}
    nodes = {m: r[2] for m, r in results.items()}
    assert nodes["minimax"] == 549946
    assert nodes["alphabeta"] < nodes["memo"] < nodes["minimax"]


def test_win_in_one_is_found():
    p = Position.from_text(tictactoe, "XX./OO./...")
    assert search(p, 1)[:2] == (9, [2])
    c4 = Position.from_moves(connect4, [0, 6, 0, 6, 0, 6])
    assert search(c4, 1)[:2] == (70, [0])  # 69 lines of 4 on 7x6: +70
    assert search(c4, 2, "alphabeta")[:2] == (70, [0])


@st.composite
def positions(draw):
    spec = draw(st.sampled_from(SPECS))
    pos = Position.empty(spec)
    for _ in range(draw(st.integers(0, spec.cells))):
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.play(draw(st.sampled_from(moves)))
    return pos


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(1, 3))
def test_search_matches_reference(pos, depth):
    assert line_count_eval(pos) == ref_eval(pos)
    if pos.is_over():
        assert search(pos, depth) == (ref_eval(pos), [], 1)
        return
    score, best, nodes = ref_search(pos, depth)
    plain = search(pos, depth, "minimax")
    assert plain == (score, best, nodes)
    for method in ("memo", "alphabeta"):
        s, b, n = search(pos, depth, method)
        assert (s, b) == (score, best) and n <= nodes


def test_bad_arguments():
    p = Position.empty(tictactoe)
    with pytest.raises(FastTTTError):
        search(p, -1)
    with pytest.raises(FastTTTError):
        search(p, 2, "negascout")
    with pytest.raises(FastTTTError):
        line_count_eval("X........")
