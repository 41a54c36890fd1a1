"""Relevance zones of draws (fastttt.search.draw_zones): attacker's stones added anywhere off a
zone leave the attacker without a win, checked by a plain minimax and by a fresh df-pn."""

from __future__ import annotations

import random

import pytest

from fastttt.errors import InvalidArgumentError, InvalidPositionError
from fastttt.games.mnk.board import Position, line_masks
from fastttt.games.mnk.spec import as_spec
from fastttt.search.dfpn import ProofSearch
from fastttt.search.draw_zones import DrawZones

from proving import plain_attacker_wins, random_positions


def stones_off(zone_cells, pos, rng, samples):
    """Sets of empty cells off the zone: all of them, each one, and random subsets."""
    off = [c for c in range(pos.spec.cells) if not pos.occupied >> c & 1 and c not in zone_cells]
    sets = [off] + [[c] for c in off]
    for _ in range(samples):
        sets.append([c for c in off if rng.random() < 0.5])
    return sets


def draws(spec, count, seed, min_ply):
    """Live positions where the side to move's opponent (the attacker) or the mover does
    not win, with that attacker."""
    out = []
    search = ProofSearch(spec, tt_bits=16)
    for pos in random_positions(spec, count, seed=seed, min_ply=min_ply):
        for attacker in (pos.to_move, 1 - pos.to_move):
            if search.prove(pos, attacker, line=False).proven is False:
                out.append((pos, attacker))
    return out


@pytest.mark.parametrize("game, count, min_ply", [("4x4k4", 14, 2), ("3x4k3", 14, 1)])
def test_stones_off_the_zone_leave_the_attacker_without_a_win(game, count, min_ply):
    spec = as_spec(game)
    wins = plain_attacker_wins(spec)
    rng = random.Random(7)
    checked = 0
    for pos, attacker in draws(spec, count, 31, min_ply):
        r = DrawZones(spec, tt_bits=16).zone(pos, attacker)
        assert r.complete and r.zone is not None, pos
        stones = (pos.first, pos.second)
        A, D = stones[attacker], stones[1 - attacker]
        for added in stones_off(r.zone, pos, rng, 6):
            if not added:
                continue
            extra = sum(1 << c for c in added)
            assert not wins(A | extra, D, pos.to_move == attacker), (pos, attacker, added)
            checked += 1
    assert checked >= 40


def test_prove_stones_answers_positions_after_passes():
    # any stone counts, either side to move, against the plain minimax
    rng = random.Random(3)
    for game in ("3x4k3", "4x4k4"):
        spec = as_spec(game)
        wins = plain_attacker_wins(spec)
        search = ProofSearch(spec, tt_bits=14)
        lines = line_masks(spec)
        seen = 0
        while seen < 150:
            cells = rng.sample(range(spec.cells), rng.randrange(spec.cells // 2, spec.cells - 1))
            cut = rng.randrange(len(cells) + 1)
            first, second = sum(1 << c for c in cells[:cut]), sum(1 << c for c in cells[cut:])
            if any(line & first == line or line & second == line for line in lines):
                continue
            to_move, attacker = rng.randrange(2), rng.randrange(2)
            A, D = (first, second) if attacker == 0 else (second, first)
            expected = wins(A, D, to_move == attacker)
            assert search.prove_stones(first, second, to_move, attacker) is expected
            assert search.table_stones(first, second, to_move, attacker)[0] is expected
            seen += 1


def test_stones_off_the_zone_on_4x5_k4_by_a_fresh_dfpn():
    # here passes prune: the zones are read off proofs that skip some of the attacker's moves
    spec = as_spec("4x5k4")
    rng = random.Random(11)
    checked = pruned = 0
    for pos, attacker in draws(spec, 30, 3, 2):
        r = DrawZones(spec, tt_bits=18).zone(pos, attacker)
        assert r.complete, pos
        pruned += r.moves_pruned
        stones = (pos.first, pos.second)
        for added in stones_off(r.zone, pos, rng, 3):
            if not added:
                continue
            A = stones[attacker] | sum(1 << c for c in added)
            first, second = (A, stones[1]) if attacker == 0 else (stones[0], A)
            reference = ProofSearch(spec, tt_bits=16)
            assert reference.prove_stones(first, second, pos.to_move, attacker) is False, (
                pos,
                attacker,
                added,
            )
            checked += 1
    assert checked > 100 and pruned > 50


def test_a_zone_of_one_pair():
    # 4 x 4 k = 4, O to move: O holds a stone on every line but the first column, where 0
    # and 12 are empty. The pair (0, 12) blocks it, so X's stones on 2, 13 or 15 are moot.
    spec = as_spec("4x4k4")
    pos = Position.from_text(spec, ".X.O\nXOOX\nXOXX\n..O.")
    r = DrawZones(spec, tt_bits=12).zone(pos, 0)
    assert r.zone == frozenset({0, 12}) and r.positions == 1 and r.complete


def test_an_attackers_win_has_no_zone_and_budgets_end_the_proof():
    spec = as_spec("4x4k3")
    r = DrawZones(spec, tt_bits=12).zone(Position.empty(spec), 0)
    assert r.zone is None and r.complete is False
    spec = as_spec("5x5k4")
    r = DrawZones(spec, tt_bits=16, max_positions=3).zone(Position.empty(spec), 0)
    assert r.zone is None and not r.complete and r.positions == 4


def test_bad_requests():
    with pytest.raises(InvalidArgumentError, match="gravity"):
        DrawZones(as_spec("connect4"))
    with pytest.raises(InvalidPositionError, match="already over"):
        DrawZones(as_spec("tictactoe")).zone(Position.from_moves("tictactoe", [0, 3, 1, 4, 2]), 0)
    with pytest.raises(InvalidPositionError, match="a position of"):
        DrawZones(as_spec("tictactoe")).zone(Position.empty("4x4k4"), 0)
    zones = DrawZones(as_spec("tictactoe"))
    with pytest.raises(InvalidPositionError, match=r"cells \[4\] hold both sides"):
        zones.zone_of_stones(1 << 4, 1 << 4, 0, 0)
    with pytest.raises(InvalidPositionError, match="already over"):
        zones.zone_of_stones(0b111, 0b11000, 1, 0)
    with pytest.raises(InvalidArgumentError, match="first"):
        zones.zone_of_stones(1 << 9, 0, 0, 0)
    with pytest.raises(InvalidArgumentError, match="to_move"):
        zones.zone_of_stones(1, 0, 2, 0)
    with pytest.raises(InvalidArgumentError, match="max_positions"):
        DrawZones(as_spec("tictactoe"), max_positions=0)


def test_prove_stones_within_a_reach_answers_as_prove_does():
    # a win within the reach is a win; a failure within it is unknown (None), as for prove
    spec = as_spec("5x5k4")
    rng = random.Random(7)
    answers = set()
    for _ in range(40):
        pos = Position.empty(spec)
        for _ in range(rng.randrange(2, 7)):
            pos = pos.play(rng.choice(pos.legal_moves()))
            if pos.is_over():
                break
        if pos.is_over():
            continue
        attacker = rng.randrange(2)
        search = ProofSearch(spec, tt_bits=16)
        expected = search.prove(pos, attacker, attacker_reach=1).proven
        again = ProofSearch(spec, tt_bits=16)
        got = again.prove_stones(pos.first, pos.second, pos.to_move, attacker, attacker_reach=1)
        assert got is expected, pos
        answers.add(got)
    assert answers == {True, None}
    with pytest.raises(InvalidArgumentError):
        ProofSearch(as_spec("4x4k4g"), tt_bits=12).prove_stones(0, 0, 0, 0, attacker_reach=1)
