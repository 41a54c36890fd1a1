"""A group of the defender's moves refuted at once (ProofSearch.refute_group): the answer for
the stones of the whole group against the plain minimax, each move of a refuted group a loss
for the defender by alpha-beta (a player's extra stones never hurt it), and bad input."""

from __future__ import annotations

import random

import pytest

from fastttt.errors import InvalidArgumentError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.search.alphabeta import Searcher
from fastttt.search.dfpn import ProofSearch

from proving import plain_attacker_wins, random_positions


@pytest.mark.parametrize("game, count", [("3x4k3", 150), ("4x4k4", 150), ("5x5k4", 80)])
def test_every_move_of_a_refuted_group_loses(game, count):
    spec = as_spec(game)
    reference = Searcher(spec)
    plain = plain_attacker_wins(spec) if spec.cells <= 16 else None
    search = ProofSearch(spec, tt_bits=16)
    rng = random.Random(5)
    refuted = kept = moves = 0
    for pos in random_positions(spec, count, seed=9, min_ply=spec.cells // 4):
        attacker = 1 - pos.to_move
        empty = [c for c in range(spec.cells) if not pos.occupied >> c & 1]
        group = rng.sample(empty, min(len(empty), rng.randrange(2, 5)))
        answer = search.refute_group(pos, group, attacker)
        if plain is not None:  # the whole group's stones, the attacker to move
            stones = sum(1 << c for c in group)
            A, D = (pos.first, pos.second) if attacker == 0 else (pos.second, pos.first)
            assert answer is plain(A, D | stones, True), (pos, group)
        if not answer:
            kept += 1
            continue
        refuted += 1
        for cell in group:
            child = pos.play(cell)
            assert not child.is_over(), (pos, cell)
            assert reference.solve(child, weak=True).score == 1, (pos, group, cell)
            moves += 1
    assert refuted >= 10 and kept >= 10 and moves >= 2 * refuted


def test_a_small_group():
    """5x5 k=4, X on 12 and 8, O on 6, O to move: X answers 16 (an open three on the diagonal
    4-8-12-16-20), so O's 14 and 22 together still lose; O's 16 does not; O's line ends it."""
    spec = as_spec("5x5k4")
    pos = Position.from_moves(spec, [12, 6, 8])
    assert ProofSearch(spec, tt_bits=16).refute_group(pos, [14, 22], 0, max_nodes=1) is None
    assert ProofSearch(spec, tt_bits=16).refute_group(pos, [14, 22], 0, attacker_reach=1) is True
    search = ProofSearch(spec, tt_bits=16)
    assert search.refute_group(pos, [14, 22], 0) is True
    assert search.refute_group(pos, [16], 0) is False  # O's 16 blocks the diagonal
    assert search.refute_group(pos, [0, 1, 2, 3], 0) is False  # O's line: no win for X


def test_bad_groups_are_refused():
    spec = as_spec("5x5k4")
    pos = Position.from_moves(spec, [12, 6, 8])
    search = ProofSearch(spec, tt_bits=12)
    with pytest.raises(InvalidArgumentError, match="defender"):
        search.refute_group(pos, [0], 1)  # O is to move: O is not the defender here
    with pytest.raises(InvalidArgumentError, match="not empty"):
        search.refute_group(pos, [12], 0)
    with pytest.raises(InvalidArgumentError, match="not empty"):
        search.refute_group(pos, [0, 0], 0)
    with pytest.raises(InvalidArgumentError, match="no cell"):
        search.refute_group(pos, [], 0)
    with pytest.raises(InvalidArgumentError):
        search.refute_group(pos, [25], 0)
    for not_cells in (3, "3", None):
        with pytest.raises(InvalidArgumentError, match="collection of cells"):
            search.refute_group(pos, not_cells, 0)
    with pytest.raises(InvalidArgumentError, match="free board"):
        ProofSearch(as_spec("4x4k4g"), tt_bits=12).refute_group(
            Position.from_moves(as_spec("4x4k4g"), [0]), [1], 0
        )
