"""df-pn (fastttt.search.dfpn) and its line-count board against the dense tables and alpha-beta:
every live position of tic-tac-toe, random samples of bigger boards (free and gravity, k from
3 to 5: the threat and pairing prunings at work), principal lines replayed with the rules,
budgets that stop and resume, and a table too small to keep the proof."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fastttt.errors import InvalidArgumentError, InvalidPositionError
from fastttt.games.mnk.board import Position, symmetry_maps
from fastttt.games.mnk.spec import as_spec
from fastttt.kernels import dfpn as K
from fastttt.kernels import lines as L
from fastttt.search.alphabeta import Searcher
from fastttt.search.dfpn import ProofSearch
from fastttt.search.lineboard import Geometry, LineBoard, board_lines
from fastttt.tables.dense import solve

from proving import (
    FOURS_BESIDE_A_THREE,
    FOURS_BESIDE_A_TWO,
    check_line,
    check_line_start,
    live_positions,
    random_positions,
)


def dfpn_value(search: ProofSearch, pos: Position, **kw) -> int:
    """Win (1), draw (0) or loss (-1) for the side to move by two df-pn questions; checks the
    principal line of each proven win."""
    mover = search.prove(pos, pos.to_move, proof_size=True, **kw)
    assert mover.proven is not None
    if mover.proven:
        check_line(pos, mover.line, pos.to_move)
        return 1
    other = search.prove(pos, 1 - pos.to_move, proof_size=True, **kw)
    assert other.proven is not None
    if other.proven:
        check_line(pos, other.line, 1 - pos.to_move)
        return -1
    return 0


@pytest.mark.parametrize(
    "game, live",
    [
        ("tictactoe", 4520),
        ("3x4k3g", 4631),
        ("4x3k3g", 1801),
        ("2x5k2", 749),
        pytest.param("3x4k3", 79563, marks=pytest.mark.slow),
        pytest.param("4x4k3g", 23930, marks=pytest.mark.slow),
    ],
)
def test_every_position_matches_the_table(game, live):
    spec = as_spec(game)
    table = solve(spec)
    search = ProofSearch(spec, tt_bits=16)
    positions = live_positions(spec)
    assert len(positions) == live
    for pos in positions:
        expected = table.value(pos) * (1 if pos.to_move == 0 else -1)
        assert dfpn_value(search, pos) == expected, pos


@pytest.mark.parametrize(
    "game, count", [("3x4k3", 300), ("4x4k3", 300), ("4x4k4", 300), ("3x5k1", 20)]
)
def test_free_boards_match_the_dense_table(game, count):
    spec = as_spec(game)
    table = solve(spec)
    search = ProofSearch(spec, tt_bits=18)
    for pos in random_positions(spec, count, seed=1):
        expected = table.value(pos) * (1 if pos.to_move == 0 else -1)
        assert dfpn_value(search, pos) == expected, pos


@pytest.mark.parametrize(
    "game, count",
    [
        ("3x4k3g", 200),
        ("4x4k3g", 200),
        ("4x4k4g", 100),
        ("5x5k4", 120),
        ("4x5k4", 150),
        pytest.param("5x4k4g", 150, marks=pytest.mark.slow),
        pytest.param("5x5k5", 60, marks=pytest.mark.slow),
        pytest.param("6x6k5", 40, marks=pytest.mark.slow),
    ],
)
def test_samples_match_alphabeta(game, count):
    spec = as_spec(game)
    reference = Searcher(spec)
    search = ProofSearch(spec, tt_bits=20)
    for pos in random_positions(spec, count, seed=2):
        assert dfpn_value(search, pos) == reference.solve(pos, weak=True).score, pos


def test_without_pairing_leaves_the_values_hold():
    spec = as_spec("4x5k4")
    plain = ProofSearch(spec, tt_bits=18, pairing=False)
    paired = ProofSearch(spec, tt_bits=18)
    for pos in random_positions(spec, 60, seed=3, min_ply=6):
        assert dfpn_value(plain, pos) == dfpn_value(paired, pos), pos


def test_pairing_searches_grow_with_the_nodes_work():
    """An attacker's node has its first pairing search on its first expansion; after a failed
    one, the next (4 times the budget) once its work reaches 8 times the last budget; six in
    all."""
    from fastttt.kernels import dfpn as K

    ctl = np.zeros(K.CTL_SIZE, dtype=np.int64)
    ctl[K.C_PAIR_BUDGET] = 32
    row = np.zeros(K.NF + 8, dtype=np.int64)

    def level(flags: int) -> int:
        return (flags >> K.PAIR_SHIFT) & 7

    def failed(lvl: int) -> int:
        return (lvl << K.PAIR_SHIFT) | K.FLAG_NO_PAIRING

    K._next_pairing(ctl, row, np.int64(0), np.int64(0))  # a new node
    assert row[K.F_PAIR] == 32 and level(row[K.F_FLAGS]) == 1
    assert row[K.F_FLAGS] & K.FLAG_NO_PAIRING == 0
    row[K.F_FLAGS] = failed(1)
    K._next_pairing(ctl, row, np.int64(failed(1)), np.int64(8 * 32 - 1))  # not yet
    assert row[K.F_FLAGS] == failed(1)
    K._next_pairing(ctl, row, np.int64(failed(1)), np.int64(8 * 32))
    assert row[K.F_PAIR] == 128 and level(row[K.F_FLAGS]) == 2
    assert row[K.F_FLAGS] & K.FLAG_NO_PAIRING == 0  # tried again
    last = failed(K.PAIR_LEVELS)
    row[K.F_FLAGS] = last
    K._next_pairing(ctl, row, np.int64(last), np.int64(1 << 40))  # no seventh search
    assert row[K.F_FLAGS] == last and row[K.F_PAIR] == 32 << (2 * (K.PAIR_LEVELS - 1))


def test_pairing_search_nodes_are_counted_apart():
    """6x6 k=5's "X cannot win": its pairing searches take more steps than df-pn expands
    positions, and count in ``pairing_search_nodes``, not in the question's nodes."""
    spec = as_spec("6x6k5")
    empty = Position.empty(spec)
    greedy = ProofSearch(spec, tt_bits=16, pairing_nodes=0)
    searched = ProofSearch(spec, tt_bits=16)
    assert greedy.prove(empty, 0, line=False).proven is False
    result = searched.prove(empty, 0, line=False)
    assert result.proven is False
    assert greedy.pairing_search_nodes == 0
    assert 0 < result.nodes < searched.pairing_search_nodes
    assert searched.nodes == result.nodes


@pytest.mark.parametrize("game, count", [("5x5k4", 60), ("4x5k4", 60)])
def test_pairing_searches_from_one_node_keep_the_values(game, count):
    """The smallest first budget: the pairings come from the later, bigger searches, and the
    proof walk (``proof_size``) and principal lines find the same leaves."""
    spec = as_spec(game)
    reference = Searcher(spec)
    search = ProofSearch(spec, tt_bits=18, pairing_nodes=1)
    for pos in random_positions(spec, count, seed=5):
        assert dfpn_value(search, pos) == reference.solve(pos, weak=True).score, pos


@pytest.mark.parametrize("game, count", [("4x4k3", 150), ("4x4k4", 150), ("5x5k4", 80)])
def test_threat_probes_at_attacker_nodes_keep_the_values(game, count):
    """Threat probes (small budgets: most run out, some win) prove attacker's nodes; the
    values and principal lines stay those of the tables and alpha-beta."""
    spec = as_spec(game)
    reference = Searcher(spec)
    search = ProofSearch(spec, tt_bits=18, threat_nodes=8)
    for pos in random_positions(spec, count, seed=6):
        assert dfpn_value(search, pos) == reference.solve(pos, weak=True).score, pos
    assert search.threat_probe_wins > 0 and search.threat_probe_nodes > 0


def _threat_order(xs, os_, last_own: int = -1, offence: int = 0) -> list[int]:
    """The attacker's (X's) moves in threat mode on a 15 x 15 board with X's stones ``xs`` and
    O's ``os_``, in the order searched. ``last_own``: X's previous stone in a dependent probe
    (-1: none); ``offence``: the searcher's ``threat_offence``."""
    search = ProofSearch("15x15k5", tt_bits=8, threat_offence=offence)
    search.board.load(sum(1 << c for c in xs), sum(1 << c for c in os_))
    ctl = search.ctl
    ctl[K.C_MODE], ctl[K.C_ATTACKER], ctl[K.C_LAST_OWN] = K.MODE_THREATS, 0, last_own
    row = search.stk[0]
    kind, _, _ = K.expand(search.board.B, search.board.Z, ctl, row, search.covered, search.used)
    assert kind == 1  # an inner node
    return [int(c) for c in row[K.NF : K.NF + row[K.F_N]]]


def _threat_moves(last_own: int) -> list[int]:
    """X's threat moves, sorted: twos at 112-113 (row 7) and 32-33 (row 2, col 2), a three at
    152-154 (row 10), 112 and 154 on one anti-diagonal; O in the corners and on the top row."""
    xs, os_ = (112, 113, 32, 33, 152, 153, 154), (0, 14, 210, 224, 4, 10, 220)
    return sorted(_threat_order(xs, os_, last_own))


def test_threat_offence_puts_the_attackers_own_lines_before_blocks():
    """X's two at 112-113 (row 7) makes a three at 110, 111, 114 or 115; 115 also blocks O's
    two at 130-145 (column 10), which puts it first in the plain order. With the offence, X's
    own lines outweigh the block: 111 and 114 lie on more of them."""
    plain = _threat_order((112, 113), (130, 145))
    assert sorted(plain) == [110, 111, 114, 115] and plain[0] == 115
    offence = _threat_order((112, 113), (130, 145), offence=3)
    assert sorted(offence) == [110, 111, 114, 115]
    assert offence.index(115) > offence.index(111) and offence.index(115) > offence.index(114)


def test_dependent_threats_keep_the_threes_through_the_last_stone_and_every_four():
    fours = [150, 151, 155, 156]  # the three of row 10 made four
    threes_by_112 = [110, 111, 114, 115, 126, 140]  # row 7; 126 and 140 with 154
    others = [31, 34, 35, 157]  # the two of row 2 (30 has one winning cell), 157 by row 10
    assert _threat_moves(-1) == sorted(fours + threes_by_112 + others)
    assert _threat_moves(112) == sorted(fours + threes_by_112)


@pytest.mark.parametrize(
    "game, count, zone_nodes", [("4x4k3", 150, 0), ("5x5k4", 80, 0), ("4x5k4", 60, 16)]
)
def test_dependent_threat_probes_keep_the_values(game, count, zone_nodes):
    """Dependent probes keep only their wins: the values, lines and proof walks stay those of
    alpha-beta, with zones too."""
    spec = as_spec(game)
    reference = Searcher(spec)
    search = ProofSearch(
        spec, tt_bits=18, threat_nodes=8, zone_nodes=zone_nodes, dependent_threats=True
    )
    for pos in random_positions(spec, count, seed=6):
        assert dfpn_value(search, pos) == reference.solve(pos, weak=True).score, pos
    assert search.threat_probe_wins > 0
    with pytest.raises(InvalidArgumentError, match="dependent_threats"):
        ProofSearch(spec, dependent_threats=1)


@pytest.mark.parametrize("dependent", [False, True])
def test_the_threat_offence_keeps_the_values(dependent):
    """The threat order changes which threats the probes try first, never a value."""
    spec = as_spec("5x5k4")
    reference = Searcher(spec)
    search = ProofSearch(
        spec,
        tt_bits=18,
        threat_nodes=8,
        zone_nodes=16,
        dependent_threats=dependent,
        threat_offence=3,
    )
    for pos in random_positions(spec, 60, seed=8):
        assert dfpn_value(search, pos) == reference.solve(pos, weak=True).score, pos
    assert search.threat_probe_wins > 0
    for bad in (-1, 9, 1.5):
        with pytest.raises(InvalidArgumentError, match="threat_offence"):
            ProofSearch(spec, threat_offence=bad)


@pytest.mark.parametrize("dependent", [False, True])
def test_the_walks_read_the_threat_probes_proofs(dependent):
    """Go-Moku's Huayue opening after O's far reply 36: most of X's nodes are proven by
    threat probes, whose proofs sit under the threat mode's tag. The proof-size walk and the
    principal line read them there (a line of legal moves to X's five) instead of searching
    those nodes again in full mode, which ran out of budget: no size, no line. With dependent
    threats the walks list every three, the probes' moves among them."""
    spec = as_spec("15x15k5")
    pos = Position.from_moves(spec, [112, 97, 98, 36])
    narrowed = {"tt_bits": 20, "zone_nodes": 64, "threat_nodes": 16}
    narrowed["dependent_threats"] = dependent
    budget = {"max_nodes": 2_000_000, "attacker_reach": 2}  # 217 k nodes; 157 k dependent
    bare_search = ProofSearch(spec, **narrowed)
    bare = bare_search.prove(pos, 0, line=False, **budget)
    search = ProofSearch(spec, **narrowed)
    walked = search.prove(pos, 0, proof_size=True, **budget)
    assert bare.proven is True and walked.proven is True
    assert search.threat_probe_wins > 1000
    assert walked.proof_size is not None and 100 < walked.proof_size < bare.nodes // 10
    assert 0 < walked.proof_size_threats < walked.proof_size  # the probes' proofs, inside
    assert walked.nodes - bare.nodes < 1_000  # the walks searched (almost) nothing again
    check_line(pos, walked.line, 0)
    assert search.ctl[K.C_MODE] == K.MODE_FULL  # the walks gave back the question's mode
    assert search.ctl[K.C_TAG] == bare_search.ctl[K.C_TAG]  # and its tag


@pytest.mark.parametrize(
    "game, count", [("3x4k3", 200), ("4x4k3g", 150), ("4x5k4", 100), ("5x5k4", 60)]
)
def test_weak_sums_keep_the_values(game, count):
    """Weak sums change only which child df-pn searches next, never a leaf: the values and
    principal lines stay alpha-beta's, also with a table small enough to lose entries."""
    spec = as_spec(game)
    reference = Searcher(spec)
    for bits in (20, 6):
        search = ProofSearch(spec, tt_bits=bits, weak_sums=True)
        for pos in random_positions(spec, count, seed=7):
            assert dfpn_value(search, pos) == reference.solve(pos, weak=True).score, pos


def test_weak_sums_refute_with_fewer_nodes():
    """5x5 k=4's "X cannot win" (every new child at 1): the weak sums count transposed
    replies once."""
    spec = as_spec("5x5k4")
    empty = Position.empty(spec)
    plain = ProofSearch(spec, tt_bits=20, order_weight=0).prove(empty, 0, line=False)
    weak = ProofSearch(spec, tt_bits=20, weak_sums=True, order_weight=0).prove(empty, 0, line=False)
    assert plain.proven is False and weak.proven is False
    assert weak.nodes < plain.nodes
    with pytest.raises(InvalidArgumentError, match="weak_sums"):
        ProofSearch(spec, tt_bits=8, weak_sums=1)


@pytest.mark.parametrize(
    "game, count, small_bits", [("3x4k3", 200, 6), ("4x4k3g", 150, 6), ("5x5k4", 60, 8)]
)
def test_order_weight_keeps_the_values(game, count, small_bits):
    """The move order's initial numbers (every weight, 0 the plain df-pn) change only which
    child df-pn searches next: values and principal lines stay alpha-beta's, also with a table
    small enough to lose entries (``small_bits``)."""
    spec = as_spec(game)
    reference = Searcher(spec)
    positions = random_positions(spec, count, seed=11)
    values = [reference.solve(pos, weak=True).score for pos in positions]
    for weight, bits in ((0, 20), (0.125, small_bits), (64, 20), (64, small_bits)):
        search = ProofSearch(spec, tt_bits=bits, order_weight=weight)
        for pos, value in zip(positions, values, strict=True):
            assert dfpn_value(search, pos) == value, (pos, weight, bits)


def test_order_weight_deepens_the_first_moves():
    """7x7 k=5's "X cannot win" with every new child at 1 expands each node's children before
    it deepens any; starting the later moves dearer refutes X with fewer nodes."""
    spec = as_spec("7x7k5")
    empty = Position.empty(spec)
    plain = ProofSearch(spec, tt_bits=22, order_weight=0).prove(empty, 0, line=False)
    ordered = ProofSearch(spec, tt_bits=22).prove(empty, 0, line=False)
    assert plain.proven is False and ordered.proven is False
    assert ordered.nodes < plain.nodes


@pytest.mark.parametrize("bad", [-1, True, "4", None, float("nan"), float("inf"), 2.0**21])
def test_order_weight_must_be_a_number_in_range(bad):
    with pytest.raises(InvalidArgumentError, match="order_weight"):
        ProofSearch(as_spec("3x3k3"), tt_bits=8, order_weight=bad)


def test_order_weight_takes_numpy_numbers():
    search = ProofSearch(as_spec("3x3k3"), tt_bits=8, order_weight=np.int64(2))
    assert search.ctl[K.C_ORDER] == 16
    assert (
        ProofSearch(as_spec("3x3k3"), tt_bits=8, order_weight=np.float32(0.5)).ctl[K.C_ORDER] == 4
    )


@pytest.mark.parametrize(
    "game, count, probe_search, dependent",
    [
        ("5x5k4", 200, "depth-first", False),
        ("4x5k4", 200, "depth-first", False),
        ("5x6k4", 100, "depth-first", False),
        ("6x6k5", 300, "depth-first", False),
        ("5x5k4", 200, "df-pn", False),
        ("6x6k5", 300, "df-pn", False),
        ("6x6k5", 300, "short-first", False),
        ("5x5k4", 200, "depth-first", True),
    ],
)
def test_every_move_outside_a_relevance_zone_loses(game, count, probe_search, dependent):
    """The zone's claim checked move by move with alpha-beta: a defender's stone outside it
    leaves the attacker a win; also for a zone read off a df-pn or short-first probe's
    proof, and with dependent threats."""
    spec = as_spec(game)
    reference = Searcher(spec)
    search = ProofSearch(
        spec,
        tt_bits=18,
        zone_nodes=64,
        zone_probe_search=probe_search,
        dependent_threats=dependent,
    )
    zones = outside = 0
    for pos in random_positions(spec, count, seed=11):
        attacker = 1 - pos.to_move
        zone = search.relevance_zone(pos, attacker)
        if zone is None:
            continue
        zones += 1
        for cell in range(spec.cells):
            if cell in zone or pos.occupied >> cell & 1:
                continue
            child = pos.play(cell)
            assert not child.is_over()
            assert reference.solve(child, weak=True).score == 1, (pos, cell, sorted(zone))
            outside += 1
    assert zones > 20 and outside > 20


@pytest.mark.parametrize("game, count", [("5x5k4", 100), ("4x5k4", 120), ("5x6k4", 30)])
def test_relevance_zones_keep_the_values(game, count):
    """Defender's nodes restricted to their zones: the values, principal lines and proof
    walks stay those of alpha-beta."""
    spec = as_spec(game)
    reference = Searcher(spec)
    search = ProofSearch(spec, tt_bits=18, zone_nodes=32)
    for pos in random_positions(spec, count, seed=2):
        assert dfpn_value(search, pos) == reference.solve(pos, weak=True).score, pos
    assert search.zone_cuts > 0 and search.zone_moves_pruned > 0


def _image(pos: Position, cell_map) -> Position:
    """``pos`` with every stone moved by ``cell_map`` (a symmetry of the board)."""
    first = sum(1 << cell_map[c] for c in range(pos.spec.cells) if pos.first >> c & 1)
    second = sum(1 << cell_map[c] for c in range(pos.spec.cells) if pos.second >> c & 1)
    return Position(pos.spec, first, second)


def test_the_zone_cache_keys_the_board_as_it_lies():
    """A zone's cells are read in place, so symmetric images share a table key but not a
    zone cache key."""
    spec = as_spec("5x5k4")
    lb = LineBoard(spec)
    ctl = np.zeros(K.CTL_SIZE, dtype=np.int64)
    cache = np.zeros((1 << 8, 2), dtype=np.int64)
    pos = Position.from_moves(spec, [12, 7, 13, 1])
    table_keys, cache_keys = set(), set()
    for cell_map in symmetry_maps(spec.rows, spec.cols, spec.gravity):
        image = _image(pos, cell_map)
        lb.load(image.first, image.second)
        table_keys.add(int(L.canonical_key(lb.B, lb.Z, np.uint64(0))))
        cache_keys.add(int(K._zone_slot(lb.Z, ctl, cache)[1]))
    assert len(table_keys) == 1 and len(cache_keys) == 8


@pytest.mark.parametrize("game, count", [("5x5k4", 60), ("5x6k4", 25)])
def test_a_cached_zone_keeps_the_values(game, count):
    """Zones are kept between visits and questions (``zone_cache_hits``), also when the table
    has lost everything: each position and its symmetric images, searched one after the other
    by one searcher with the table emptied before each, keep alpha-beta's values."""
    spec = as_spec(game)
    reference = Searcher(spec)
    search = ProofSearch(spec, tt_bits=18, zone_nodes=32)
    maps = symmetry_maps(spec.rows, spec.cols, spec.gravity)[1:]
    for pos in random_positions(spec, count, seed=5, min_ply=4):
        value = reference.solve(pos, weak=True).score
        for image in [pos] + [_image(pos, m) for m in maps] + [pos]:
            search.tt[:] = 0
            assert dfpn_value(search, image) == value, (pos, image)
    assert search.zone_cache_hits > 0 and search.zone_cache.any()
    search.reset()
    assert not search.zone_cache.any()


def test_a_zone_is_kept_a_bit_a_cell_beyond_64_cells():
    cells = 225
    cache = np.zeros((4, 1 + (cells + 63) // 64), dtype=np.int64)
    marks = np.zeros(cells, dtype=np.int64)
    zone = [0, 1, 62, 63, 64, 127, 128, 191, 192, 224]
    marks[zone] = 7
    K.keep_zone(cache, 2, 12345, marks, cells)
    assert cache[2, 0] == 12345 and not cache[[0, 1, 3]].any()
    back = np.full(cells, 9, dtype=np.int64)
    K.read_zone(cache, 2, back, cells)
    assert list(np.flatnonzero(back)) == zone and set(back) == {0, 1}


@pytest.mark.parametrize(
    "game, count, min_ply",
    [("5x5k4", 300, 0), ("4x5k4", 300, 0), ("5x6k4", 200, 0), ("6x6k5", 100, 16)],
)
def test_no_move_outside_a_pairing_zone_wins(game, count, min_ply):
    """The pairing zone's claim checked move by move with alpha-beta: after an attacker's
    stone outside it, the attacker does not win."""
    spec = as_spec(game)
    reference = Searcher(spec)
    search = ProofSearch(spec, tt_bits=8, pairing_zones=4)
    zones = outside = 0
    for pos in random_positions(spec, count, seed=12, min_ply=min_ply):
        attacker = pos.to_move
        zone = search.pairing_zone(pos, attacker)
        if zone is None:
            continue
        zones += 1
        assert all(not pos.occupied >> cell & 1 for cell in zone)
        for cell in range(spec.cells):
            if cell in zone or pos.occupied >> cell & 1:
                continue
            child = pos.play(cell)
            if child.is_over():
                assert child.winner() != attacker, (pos, cell)
                continue
            assert reference.solve(child, weak=True).score >= 0, (pos, cell, sorted(zone))
            outside += 1
    assert zones > 10 and outside > 20


@pytest.mark.parametrize("game, count", [("5x5k4", 100), ("4x5k4", 120), ("5x6k4", 30)])
def test_pairing_zones_keep_the_values(game, count):
    """Attacker's nodes restricted to their pairing zones (with and without relevance zones
    at the defender's): the values, principal lines and proof walks stay alpha-beta's."""
    spec = as_spec(game)
    reference = Searcher(spec)
    for zone_nodes in (0, 32):
        search = ProofSearch(spec, tt_bits=18, pairing_zones=2, zone_nodes=zone_nodes)
        for pos in random_positions(spec, count, seed=4):
            assert dfpn_value(search, pos) == reference.solve(pos, weak=True).score, pos
        assert search.pairing_zone_cuts > 0 and search.pairing_zone_moves_pruned > 0


def test_pairing_zone_requests_are_checked():
    search = ProofSearch("5x5k4", tt_bits=8, pairing_zones=1)
    empty = Position.empty("5x5k4")
    with pytest.raises(InvalidArgumentError, match="attacker"):
        search.pairing_zone(empty, 1)  # the defender is to move
    assert search.pairing_zone(empty, 0) is None  # 28 open lines, 24 cells after the answer
    assert ProofSearch("5x5k4", tt_bits=8).pairing_zone(empty, 0) is None  # off
    with pytest.raises(InvalidArgumentError, match="free board"):
        ProofSearch("connect4", tt_bits=8).pairing_zone(Position.empty("connect4"), 0)
    with pytest.raises(InvalidArgumentError, match="pairing_zones"):
        ProofSearch("5x5k4", tt_bits=8, pairing_zones=5)


def test_a_zones_walk_counts_its_positions():
    """Asked again, the zone's probe finds its win in the table without a node; the walk of
    the proof that reads the zone still visits its positions, and they count as nodes."""
    spec = as_spec("6x6k5")
    search = ProofSearch(spec, tt_bits=18, zone_nodes=64)
    for pos in random_positions(spec, 300, seed=11):
        attacker = 1 - pos.to_move
        before = search.threat_probe_nodes
        if search.relevance_zone(pos, attacker) is not None:
            if search.threat_probe_nodes - before >= 6:  # not a win at once
                break
    else:
        pytest.fail("no position with a zone a few plies deep")
    before = search.threat_probe_nodes
    assert search.relevance_zone(pos, attacker) is not None
    assert search.threat_probe_nodes - before >= 3  # a move, a reply, the win


def test_a_line_cut_by_its_bound_keeps_the_moves_it_walked():
    """A tiny table loses the proof; a line walk of 5 nodes stops on the way and returns the
    moves it got through: legal, and the winner still wins after them (alpha-beta). (The
    line searches again only the winner's lost moves, so most lines still finish.)"""
    spec = as_spec("5x5k4")
    reference = Searcher(spec)
    cut = 0
    for pos in random_positions(spec, 60, seed=3, min_ply=2):
        search = ProofSearch(spec, tt_bits=4)
        if not search.prove(pos, pos.to_move, line=False).proven:
            continue
        result = search.prove(pos, pos.to_move, max_nodes=5)
        assert result.proven
        if result.line is not None:
            assert result.line_start is None
            continue
        check_line_start(pos, result.line_start, pos.to_move, reference)
        cut += 1
    assert cut >= 3


def test_a_zone_under_fours_leaves_out_the_defenders_twos():
    """Against a win by fours a defender's stone matters where it would make a four (a line of
    three), not on a line of two: O's two stones in a corner of the bottom row keep that row
    out of the zone, and O's stones there still lose (alpha-beta)."""
    spec = as_spec("9x9k5")
    pos = Position.from_text(spec, FOURS_BESIDE_A_TWO)
    zone = ProofSearch(spec, tt_bits=16, zone_nodes=64).relevance_zone(pos, 0)
    assert zone is not None
    for cell in (8 * 9 + 2, 8 * 9 + 3, 8 * 9 + 4):
        assert cell not in zone
        assert Searcher(spec).solve(pos.play(cell), weak=True).score == 1


def test_a_zone_under_fours_keeps_the_cells_that_make_the_defender_a_four():
    """O's three in the bottom row: a stone on its window's two empty cells makes O a four,
    which X must answer, so both are in the zone."""
    spec = as_spec("9x9k5")
    pos = Position.from_text(spec, FOURS_BESIDE_A_THREE)
    zone = ProofSearch(spec, tt_bits=16, zone_nodes=64).relevance_zone(pos, 0)
    assert zone is not None
    assert {8 * 9 + 3, 8 * 9 + 4} <= zone


def test_relevance_zones_with_a_tiny_table():
    """Entries lost before the zone's walk: no zone there, and the values still right."""
    spec = as_spec("4x5k4")
    reference = Searcher(spec)
    search = ProofSearch(spec, tt_bits=4, zone_nodes=16, threat_nodes=4)
    for pos in random_positions(spec, 60, seed=7, min_ply=4):
        assert dfpn_value(search, pos) == reference.solve(pos, weak=True).score, pos


def test_relevance_zone_requests_are_checked():
    search = ProofSearch("5x5k4", tt_bits=8, zone_nodes=16)
    empty = Position.empty("5x5k4")
    with pytest.raises(InvalidArgumentError, match="defender"):
        search.relevance_zone(empty, 0)  # the attacker is to move
    assert search.relevance_zone(empty, 1) is None  # no threat on the empty board
    with pytest.raises(InvalidArgumentError, match="free board"):
        ProofSearch("connect4", tt_bits=8).relevance_zone(Position.empty("connect4"), 1)
    with pytest.raises(InvalidArgumentError, match="zone_nodes"):
        ProofSearch("5x5k4", tt_bits=8, zone_nodes=-1)


@pytest.mark.parametrize(
    "game, count, reach", [("5x5k4", 80, 1), ("5x6k4", 25, 1), ("5x6k4", 25, 2)]
)
def test_a_win_within_the_attackers_reach_is_a_win(game, count, reach):
    """The attacker kept near the stones: every win found is one (alpha-beta, the line
    replayed), a failure comes back unknown, and most wins are still found."""
    spec = as_spec(game)
    reference = Searcher(spec)
    search = ProofSearch(spec, tt_bits=18, zone_nodes=16)
    found = missed = 0
    for pos in random_positions(spec, count, seed=3):
        score = reference.solve(pos, weak=True).score
        for attacker in (0, 1):
            wins = (score if pos.to_move == attacker else -score) == 1
            result = search.prove(pos, attacker, attacker_reach=reach, proof_size=True)
            assert result.proven in (True, None), (pos, attacker)
            assert not (result.proven and result.beyond_reach)
            if result.proven:
                assert wins, (pos, attacker)
                check_line(pos, result.line, attacker)
                found += 1
            else:
                assert result.beyond_reach  # no node budget: the search ended
                missed += wins
    assert found > 20 and missed < found


def test_attacker_reach_requests_are_checked():
    search = ProofSearch("5x5k4", tt_bits=8)
    empty = Position.empty("5x5k4")
    with pytest.raises(InvalidArgumentError, match="attacker_reach"):
        search.prove(empty, 0, attacker_reach=-1)
    with pytest.raises(InvalidArgumentError, match="full mode"):
        search.prove(empty, 0, mode="threats", attacker_reach=1)
    with pytest.raises(InvalidArgumentError, match="free board"):
        ProofSearch("connect4", tt_bits=8).prove(Position.empty("connect4"), 0, attacker_reach=1)


def test_threat_probes_with_a_tiny_table():
    spec = as_spec("tictactoe")
    table = solve(spec)
    search = ProofSearch(spec, tt_bits=4, threat_nodes=4)
    for pos in random_positions(spec, 150, seed=4):
        expected = table.value(pos) * (1 if pos.to_move == 0 else -1)
        assert dfpn_value(search, pos) == expected, pos


def test_a_tiny_table_keeps_proofs_right():
    """4 buckets of 4 rows: every entry is overwritten at once, the proof walk and the line
    search the lost children again."""
    spec = as_spec("tictactoe")
    table = solve(spec)
    search = ProofSearch(spec, tt_bits=4)
    for pos in random_positions(spec, 150, seed=4):
        expected = table.value(pos) * (1 if pos.to_move == 0 else -1)
        assert dfpn_value(search, pos) == expected, pos


def test_empty_board_values_and_proof_sizes():
    for game, attacker, proven in [
        ("4x4k3", 0, True),
        ("5x5k4", 0, False),
        ("5x6k4", 0, True),
        ("4x4k4g", 0, False),
    ]:
        spec = as_spec(game)
        result = ProofSearch(spec, tt_bits=20).prove(
            Position.empty(spec), attacker, proof_size=True
        )
        assert result.proven is proven, game
        assert 0 < result.proof_size <= result.nodes
        assert result.proof_size_threats == 0  # no threat probes
        if proven:
            check_line(Position.empty(spec), result.line, attacker)


def test_a_node_budget_stops_and_a_bigger_one_resumes():
    spec = as_spec("5x5k4")
    search = ProofSearch(spec, tt_bits=20)
    empty = Position.empty(spec)
    first = search.prove(empty, 0, max_nodes=50)
    assert first.proven is None and first.nodes == 50 and first.line is None
    again = search.prove(empty, 0)
    fresh = ProofSearch(spec, tt_bits=20).prove(empty, 0)
    assert again.proven is False and fresh.proven is False
    assert search.board.ply == 0  # the board was restored after the stop


def test_a_time_budget_stops():
    spec = as_spec("connect4")
    search = ProofSearch(spec, tt_bits=18)
    search.prove(Position.from_moves(spec, [3]), 1, max_nodes=10)  # compiled first
    result = search.prove(Position.empty(spec), 0, seconds=0.3)
    assert result.proven is None and result.seconds < 3
    assert search.stop[0] == 0


def test_bad_requests_are_refused():
    spec = as_spec("tictactoe")
    search = ProofSearch(spec, tt_bits=8)
    with pytest.raises(InvalidPositionError, match="already over"):
        search.prove(Position.from_moves(spec, [0, 3, 1, 4, 2]), 0)
    with pytest.raises(InvalidArgumentError, match="attacker"):
        search.prove(Position.empty(spec), 2)
    with pytest.raises(InvalidArgumentError, match="mode"):
        search.prove(Position.empty(spec), 0, mode="fast")
    with pytest.raises(InvalidPositionError, match="searcher of"):
        search.prove(Position.empty("4x4k3"), 0)
    with pytest.raises(InvalidArgumentError, match="free board"):
        ProofSearch("connect4", tt_bits=8).prove(Position.empty("connect4"), 0, mode="threats")


def test_pairing_blocks_only_players_who_cannot_win():
    for game, min_ply in (("4x4k4", 0), ("4x5k4", 4), ("5x5k5", 8)):
        spec = as_spec(game)
        reference = Searcher(spec)
        search = ProofSearch(spec, tt_bits=8)
        found = 0
        for pos in random_positions(spec, 60, seed=5, min_ply=min_ply):
            for attacker in (0, 1):
                if search.pairing_blocks(pos, attacker):
                    found += 1
                    score = reference.solve(pos, weak=True).score
                    assert (score if pos.to_move == attacker else -score) < 1, (pos, attacker)
        assert found > 0, game


# --- the line-count board -----------------------------------------------------------------


def _expected_counts(board, geo: Geometry):
    """wc and tc recomputed from their definitions."""
    n = geo.cells
    wc = np.zeros((2, n), dtype=np.int32)
    tc = np.zeros((2, n), dtype=np.int32)
    for first, step in board_lines(geo):
        cells = [first + t * step for t in range(geo.k)]
        for p in (0, 1):
            mine = sum(board[c] == p + 1 for c in cells)
            theirs = sum(board[c] == 2 - p for c in cells)
            empty = [c for c in cells if board[c] == 0]
            if theirs == 0 and mine == geo.k - 1:
                wc[p, empty[0]] += 1
            if theirs == 0 and mine == geo.k - 2:
                for c in empty:
                    tc[p, c] += 1
    return wc, tc


@pytest.mark.parametrize(
    "geo",
    [
        Geometry(3, 3, 3),
        Geometry(4, 5, 4),
        Geometry(4, 4, 2),
        Geometry(2, 3, 1),
        Geometry(6, 7, 4, True),
        Geometry(15, 15, 5),
    ],
)
def test_line_board_counts_follow_the_moves(geo):
    lb = LineBoard(geo)
    n = geo.cells
    rng = random.Random(6)
    for _ in range(4):
        lb.load(0, 0)
        start = (lb.B.copy(), lb.Z.copy())
        cells = list(range(n))
        rng.shuffle(cells)
        played = []
        for c in cells[: rng.randrange(min(n, 40) + 1)]:
            p = lb.ply & 1
            L.place(lb.B, lb.Z, c, p)
            played.append((c, p))
            wc, tc = _expected_counts(lb.board, geo)
            assert (lb.B[lb.B[L.H_WC] : lb.B[L.H_WC] + 2 * n].reshape(2, n) == wc).all()
            assert (lb.B[lb.B[L.H_TC] : lb.B[L.H_TC] + 2 * n].reshape(2, n) == tc).all()
            assert lb.B[L.H_NWIN] == (wc[0] > 0).sum()
            incremental = (lb.B.copy(), lb.Z.copy())
            L.recount(lb.B, lb.Z)
            assert (incremental[0] == lb.B).all() and (incremental[1] == lb.Z).all()
        for c, p in reversed(played):
            L.take_back(lb.B, lb.Z, c, p)
        assert (lb.B == start[0]).all() and (lb.Z == start[1]).all()


def test_symmetric_positions_share_a_key():
    spec = as_spec("5x5k4")
    lb = LineBoard(spec)
    keys = set()
    for first, second in [
        (1 << 0 | 1 << 7, 1 << 12),
        (1 << 4 | 1 << 7, 1 << 12),
        (1 << 20 | 1 << 17, 1 << 12),
        (1 << 24 | 1 << 17, 1 << 12),
    ]:
        lb.load(first, second)
        keys.add(int(L.canonical_key(lb.B, lb.Z, np.uint64(0))))
    assert len(keys) == 1
    lb.load(1 << 0 | 1 << 6, 1 << 12)
    assert int(L.canonical_key(lb.B, lb.Z, np.uint64(0))) not in keys


def test_boards_beyond_64_cells():
    """A line board has no 64-bit limit: an open four on 15 x 15 is a win for its owner."""

    class Wide:
        def __init__(self, first, second):
            self.spec = Geometry(15, 15, 5)
            self.first, self.second = first, second
            n = self.spec.cells
            self.to_move = 0 if first.bit_count() == second.bit_count() else 1
            self.ply = first.bit_count() + second.bit_count()
            assert not (first | second) >> n

        def is_over(self):
            return False

    row = 7 * 15
    x = sum(1 << (row + c) for c in (5, 6, 7))  # X: three in the middle of row 7
    o = (1 << 0) | (1 << 14) | (1 << 224)  # O: three far corners
    search = ProofSearch(Geometry(15, 15, 5), tt_bits=16)
    result = search.prove(Wide(x, o), 0, proof_size=True)  # X to move
    assert result.proven and len(result.line) == 3  # an open four, a block, the five


def test_halt_from_another_thread_stops_a_proof():
    import threading

    search = ProofSearch(as_spec("7x7k5"), tt_bits=16)
    answers = []
    worker = threading.Thread(
        target=lambda: answers.append(search.prove(Position.empty("7x7k5"), 0, seconds=300))
    )
    worker.start()
    for _ in range(1200):  # a minute at most; halted within milliseconds of its start
        search.halt()  # a prove that starts after this clears the word: so again
        worker.join(0.05)
        if not worker.is_alive():
            break
    assert not worker.is_alive() and answers[0].proven is None
    assert search.prove(Position.empty("7x7k5"), 0, max_nodes=2000).nodes == 2000  # cleared


@pytest.mark.parametrize(
    "game, moves, narrowing, reach",
    [
        ("4x4k3", [], {}, 0),
        ("5x5k4", [12, 0], {"zone_nodes": 16}, 2),
    ],
)
def test_child_numbers_say_which_moves_win(game, moves, narrowing, reach):
    """After a proof, the table's numbers of the root's children: the moves with proof 0 win
    (alpha-beta agrees), at least one of them; without a reach, disproof 0 moves do not win."""
    spec = as_spec(game)
    pos = Position.from_moves(spec, moves)
    search = ProofSearch(spec, tt_bits=18, **narrowing)
    assert search.prove(pos, pos.to_move, attacker_reach=reach, line=False).proven is True
    numbers = search.child_numbers(pos, pos.to_move, attacker_reach=reach)
    reference = Searcher(spec)
    winning = [m for m, (proof, _) in numbers.items() if proof == 0]
    assert winning
    for move, (proof, disproof) in numbers.items():
        after = reference.solve(pos.play(move), weak=True).score
        if proof == 0:
            assert after == -1, move  # the opponent, to move there, loses
        if disproof == 0 and not reach:
            assert after != -1, move
    assert search.child_numbers(pos, 1 - pos.to_move, attacker_reach=reach) != numbers


def test_the_promising_line_follows_the_least_numbers():
    """An unsettled search's promising line: at each ply the held child of least proof number
    (attacker) or disproof number (defender), with the counts of held and open children;
    after a proof it ends on a winning move, which alpha-beta confirms."""
    spec = as_spec("5x5k4")
    pos = Position.empty(spec)
    search = ProofSearch(spec, tt_bits=16, zone_nodes=16)
    assert search.prove(pos, 0, max_nodes=5_000, line=False).proven is None
    line = search.promising_line(pos, 0, plies=12)
    assert len(line) >= 4
    at = pos
    for step in line:
        numbers = search.child_numbers(at, 0)
        side = 0 if at.to_move == 0 else 1
        assert numbers[step.move] == (step.proof, step.disproof)
        assert (step.proof, step.disproof)[side] == min(n[side] for n in numbers.values())
        assert step.held == len(numbers)
        assert step.open == sum(1 for p, d in numbers.values() if p and d)
        at = at.play(step.move)
    assert search.promising_line(pos, 0, plies=2) == line[:2]

    small = as_spec("4x4k3")
    root = Position.empty(small)
    proved = ProofSearch(small, tt_bits=16)
    assert proved.prove(root, 0, line=False).proven is True
    (win,) = proved.promising_line(root, 0)
    assert win.proof == 0 and win.held > 1
    assert Searcher(small).solve(root.play(win.move), weak=True).score == -1
