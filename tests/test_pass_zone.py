"""Relevance zones of full proofs after a pass (ProofSearch.pass_zone): every move outside a
zone checked with alpha-beta, the defender's after its pass (threats, forced blocks and the
threat probes' proofs read by the zone's walk) and the attacker's after its own (pairing
leaves read too)."""

from __future__ import annotations

import pytest

from fastttt.errors import InvalidArgumentError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.search.alphabeta import Searcher
from fastttt.search.dfpn import ProofSearch

from proving import FOURS_BESIDE_A_THREE, FOURS_BESIDE_A_TWO, random_positions


@pytest.mark.parametrize(
    "game, count, narrowing, reach",
    [
        ("5x5k4", 120, {}, 0),
        ("4x5k4", 200, {}, 0),
        ("5x6k4", 100, {"threat_nodes": 16}, 0),
        ("6x6k5", 150, {"threat_nodes": 16, "zone_nodes": 16}, 0),
        ("6x6k5", 150, {"threat_nodes": 16}, 1),
    ],
)
def test_every_move_outside_a_pass_zone_loses(game, count, narrowing, reach):
    """A defender's stone outside the zone leaves the attacker a win (alpha-beta), and the
    searcher's own questions keep a fresh searcher's answers after the pass's entries."""
    spec = as_spec(game)
    reference = Searcher(spec)
    search = ProofSearch(spec, tt_bits=18, **narrowing)
    zones = outside = smaller = 0
    for pos in random_positions(spec, count, seed=11):
        attacker = 1 - pos.to_move
        result = search.pass_zone(pos, attacker, attacker_reach=reach)
        assert result.proven is not None or reach, pos
        if result.zone is None:
            assert not result.proven
            continue
        assert result.walked > 0
        zones += 1
        empty = [c for c in range(spec.cells) if not pos.occupied >> c & 1]
        assert result.zone <= set(empty)
        smaller += len(result.zone) < len(empty)
        for cell in empty:
            if cell in result.zone:
                continue
            child = pos.play(cell)
            assert not child.is_over()
            assert reference.solve(child, weak=True).score == 1, (pos, cell, sorted(result.zone))
            outside += 1
        won = search.prove(pos, attacker, line=False).proven
        assert won == ProofSearch(spec, tt_bits=16).prove(pos, attacker, line=False).proven, pos
    assert zones >= 30 and outside > 250 and smaller > 10


def test_a_pass_zone_under_fours_keeps_the_defenders_threes_not_its_twos():
    """X wins at once after O's pass by fours: O's stone matters where it would make O a four
    (two cells of a line of three) and not on a line of two (alpha-beta: it loses there)."""
    spec = as_spec("9x9k5")
    search = ProofSearch(spec, tt_bits=16)
    two = Position.from_text(spec, FOURS_BESIDE_A_TWO)
    zone = search.pass_zone(two, 0).zone
    assert zone is not None
    for cell in (8 * 9 + 2, 8 * 9 + 3, 8 * 9 + 4):
        assert cell not in zone
        assert Searcher(spec).solve(two.play(cell), weak=True).score == 1
    three = Position.from_text(spec, FOURS_BESIDE_A_THREE)
    zone = search.pass_zone(three, 0).zone
    assert zone is not None and {8 * 9 + 3, 8 * 9 + 4} <= zone


def test_a_pass_zone_is_the_proof_s_cells_and_its_walk_has_a_cap():
    """X on 12 and 8, O on 6, O to move: after O's pass X plays 16, an open three on the
    diagonal 4-8-12-16-20, and wins on 4 or 20; O's move anywhere else loses."""
    spec = as_spec("5x5k4")
    pos = Position.from_moves(spec, [12, 6, 8])
    search = ProofSearch(spec, tt_bits=16)
    capped = search.pass_zone(pos, 0, walk_cap=1)
    assert capped.proven is True and capped.zone is None and capped.walked == 2
    full = search.pass_zone(pos, 0)
    assert full.proven is True and full.zone == {4, 16, 20} and full.walked == 2
    assert search.pass_zone(Position.empty(spec), 1).proven is False  # O first: no win


@pytest.mark.parametrize(
    "game, count, pairing_nodes", [("5x5k4", 150, 32), ("4x5k4", 200, 32), ("5x6k4", 100, 200)]
)
def test_no_attacker_s_move_outside_the_zone_of_its_failure_wins(game, count, pairing_nodes):
    """The attacker to move passes and the defender keeps it from winning: an attacker's
    stone outside the zone of that proof (pairing leaves included) does not win either
    (alpha-beta)."""
    spec = as_spec(game)
    reference = Searcher(spec)
    search = ProofSearch(spec, tt_bits=18, pairing_nodes=pairing_nodes)
    zones = outside = smaller = 0
    for pos in random_positions(spec, count, seed=13):
        attacker = pos.to_move
        result = search.pass_zone(pos, attacker)
        assert result.proven is not None, pos
        if result.zone is None:
            assert result.proven
            continue
        zones += 1
        empty = [c for c in range(spec.cells) if not pos.occupied >> c & 1]
        smaller += len(result.zone) < len(empty)
        for cell in empty:
            if cell in result.zone:
                continue
            child = pos.play(cell)
            assert child.winner() is None, (pos, cell, sorted(result.zone))
            if not child.is_over():
                assert reference.solve(child, weak=True).score != -1, (pos, cell)
            outside += 1
    assert zones >= 30 and outside > 100 and smaller > 10


def test_a_pass_zone_on_a_board_past_64_cells():
    """15x15 k=5: X's three in the middle row, O's two stones in a corner; after O's pass X
    makes an open four. The zone keeps to the middle row and the corner's lines."""
    spec = as_spec("15x15k5")
    pos = Position.from_moves(spec, [111, 0, 112, 1, 113])
    result = ProofSearch(spec, tt_bits=16).pass_zone(pos, 0)
    assert result.proven is True and result.zone is not None
    assert {110, 114} & result.zone and 224 not in result.zone
    assert all(c // 15 in (0, 1, 7) or c % 15 < 3 for c in result.zone), sorted(result.zone)


def test_pass_zone_requests_are_checked():
    spec = as_spec("5x5k4")
    search = ProofSearch(spec, tt_bits=8)
    empty = Position.empty(spec)
    with pytest.raises(InvalidArgumentError, match="attacker passes"):
        search.pass_zone(empty, 0, attacker_reach=1)
    with pytest.raises(InvalidArgumentError, match="walk_cap"):
        search.pass_zone(empty, 1, walk_cap=0)
    with pytest.raises(InvalidArgumentError, match="free board"):
        ProofSearch(as_spec("4x5k4g"), tt_bits=8).pass_zone(empty.play(12), 0)
