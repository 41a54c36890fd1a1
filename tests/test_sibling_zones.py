"""Zones from refuted siblings (ProofSearch.sibling_zone, ``sibling_zone_work``): every defender's
move off a refuted move's zone checked with alpha-beta, and searches that cut moves by such
zones keep alpha-beta's values, also from the zone cache with the table emptied."""

from __future__ import annotations

import pytest
from test_dfpn import dfpn_value

from fastttt.errors import InvalidArgumentError
from fastttt.games.mnk.board import Position
from fastttt.games.mnk.spec import as_spec
from fastttt.search.alphabeta import Searcher
from fastttt.search.dfpn import ProofSearch

from proving import random_positions


@pytest.mark.parametrize("game, count", [("5x5k4", 150), ("6x6k5", 200)])
def test_every_move_off_a_sibling_zone_loses(game, count):
    """For the first move of each position that a threat win refutes, every other defender's
    move off its zone loses too (alpha-beta)."""
    spec = as_spec(game)
    reference = Searcher(spec)
    search = ProofSearch(spec, tt_bits=18, zone_nodes=64)
    zones = outside = 0
    for pos in random_positions(spec, count, seed=7):
        attacker = 1 - pos.to_move
        for move in pos.legal_moves():
            child = pos.play(move)
            if child.is_over():
                continue
            zone = search.sibling_zone(pos, attacker, move)
            if zone is None:
                continue
            zones += 1
            assert reference.solve(child, weak=True).score == 1, (pos, move)
            for cell in pos.legal_moves():
                if cell == move or cell in zone:
                    continue
                other = pos.play(cell)
                assert not other.is_over()
                assert reference.solve(other, weak=True).score == 1, (pos, move, cell)
                outside += 1
            break
    assert zones > 40 and outside > 300


@pytest.mark.parametrize("game, count", [("5x5k4", 100), ("4x5k4", 120), ("5x6k4", 30)])
def test_sibling_zones_keep_the_values(game, count):
    """Defender's nodes cut by their refuted moves' zones at every visit: the values,
    principal lines and proof walks stay those of alpha-beta."""
    spec = as_spec(game)
    reference = Searcher(spec)
    search = ProofSearch(spec, tt_bits=18, zone_nodes=32, sibling_zone_work=1)
    for pos in random_positions(spec, count, seed=2):
        assert dfpn_value(search, pos) == reference.solve(pos, weak=True).score, pos
    assert search.sibling_zones > 0 and search.sibling_zone_moves_pruned > 0


def test_a_sibling_zone_is_kept_for_the_next_visit():
    """The cut zones are kept in the zone cache: with the table emptied before each search,
    the values hold, and the nodes restricted from the cache grow."""
    spec = as_spec("5x6k4")
    reference = Searcher(spec)
    search = ProofSearch(spec, tt_bits=18, zone_nodes=32, sibling_zone_work=1)
    for pos in random_positions(spec, 25, seed=5, min_ply=4):
        value = reference.solve(pos, weak=True).score
        for _ in range(2):
            search.tt[:] = 0
            assert dfpn_value(search, pos) == value, pos
    assert search.sibling_zones > 0 and search.zone_cache_hits > 0


def test_the_work_bound_leaves_cheap_nodes_alone():
    """No node's visit reaches a bound of 2**40 nodes: no sibling zone; a bound of 1: some."""
    pos = Position.from_moves("5x6k4", [14, 8])
    counts = []
    for work in (1 << 40, 1):
        search = ProofSearch("5x6k4", tt_bits=18, zone_nodes=32, sibling_zone_work=work)
        search.prove(pos, 0, line=False)
        counts.append(search.sibling_zones)
    assert counts[0] == 0 and counts[1] > 0


def test_sibling_zone_requests_are_checked():
    search = ProofSearch("5x5k4", tt_bits=8, zone_nodes=16)
    empty = Position.empty("5x5k4")
    with pytest.raises(InvalidArgumentError, match="defender"):
        search.sibling_zone(empty, 0, 12)  # the attacker is to move
    assert search.sibling_zone(empty, 1, 12) is None  # no threat after one stone
    with pytest.raises(InvalidArgumentError, match="not empty"):
        search.sibling_zone(Position.from_moves("5x5k4", [12]), 0, 12)
    with pytest.raises(InvalidArgumentError, match="move"):
        search.sibling_zone(empty, 1, 25)
    with pytest.raises(InvalidArgumentError, match="free board"):
        ProofSearch("connect4", tt_bits=8).sibling_zone(Position.empty("connect4"), 1, 3)
    with pytest.raises(InvalidArgumentError, match="sibling_zone_work"):
        ProofSearch("5x5k4", tt_bits=8, sibling_zone_work=-1)
